//! Syntax errors: ERROR and MISSING nodes of the tree, with a located message.

use tree_sitter::Node;

use crate::hir::{SyntaxError, TextRange};

/// Every ERROR and MISSING node under `root` (an iterative walk: trees can be deep).
pub(crate) fn collect(root: Node, original: &str, out: &mut Vec<SyntaxError>) {
    if !root.has_error() {
        return;
    }
    let mut cursor = root.walk();
    loop {
        let node = cursor.node();
        let descend = if node.is_error() || node.is_missing() {
            out.push(error_of(node, original));
            false
        } else {
            node.has_error()
        };
        if descend && cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return;
            }
        }
    }
}

pub(crate) fn error_of(node: Node, original: &str) -> SyntaxError {
    let range = TextRange::new(node.start_byte() as u32, node.end_byte() as u32);
    let message = if node.is_missing() {
        let kind = node.kind();
        if node.is_named() {
            format!("expected {}", kind.replace('_', " "))
        } else {
            format!("expected `{kind}`")
        }
    } else {
        match first_token(node, original) {
            Some(tok) => format!("unexpected `{tok}`"),
            None => "syntax error".to_owned(),
        }
    };
    SyntaxError { range, message }
}

/// The text of the first leaf token of an ERROR node, shortened.
fn first_token(node: Node, original: &str) -> Option<String> {
    let mut n = node;
    while let Some(c) = n.child(0) {
        n = c;
    }
    let text = original.get(n.start_byte()..n.end_byte())?.trim();
    if text.is_empty() {
        return None;
    }
    let line = text.lines().next().unwrap_or(text);
    let mut short: String = line.chars().take(40).collect();
    if short.len() < text.len() {
        short.push('…');
    }
    Some(short)
}
