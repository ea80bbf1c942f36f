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
        let descend = if is_error_node(node) {
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

/// An ERROR or MISSING node, or a named node whose only content is missing
/// (`identifier` over a hidden MISSING token, which a cursor never visits).
/// The nodes of `root` in text order, skipping the subtrees without errors
/// (which hold no ERROR or MISSING node).
pub(crate) fn nodes_with_errors(root: Node) -> impl Iterator<Item = Node> {
    let mut cursor = root.walk();
    let mut done = false;
    std::iter::from_fn(move || {
        if done {
            return None;
        }
        let node = cursor.node();
        if !(node.has_error() && cursor.goto_first_child()) {
            loop {
                if cursor.goto_next_sibling() {
                    break;
                }
                if !cursor.goto_parent() {
                    done = true;
                    break;
                }
            }
        }
        Some(node)
    })
}

pub(crate) fn is_error_node(node: Node) -> bool {
    node.is_error() || node.is_missing() || (node.has_error() && node.child_count() == 0)
}

pub(crate) fn error_of(node: Node, original: &str) -> SyntaxError {
    // Recovery may start an ERROR node at the comments before the construct
    // at fault (a file's copyright header): name and locate the construct.
    let mut cursor = node.walk();
    let start = if node.is_error() {
        node.children(&mut cursor)
            .find(|c| c.kind() != "comment")
            .map_or(node.start_byte(), |c| c.start_byte())
    } else {
        node.start_byte()
    };
    let range = TextRange::new(start as u32, node.end_byte() as u32);
    let message = if node.is_missing() || !node.is_error() {
        let kind = node.kind();
        if node.is_named() {
            format!("expected {}", kind.replace('_', " "))
        } else {
            format!("expected `{kind}`")
        }
    } else if is_single_token(node) {
        match shortened(original, range) {
            Some(tok) => format!("unexpected `{tok}`"),
            None => "syntax error".to_owned(),
        }
    } else {
        // Recovery skipped a whole stretch: name it rather than guess the cause.
        match shortened(original, range) {
            Some(text) => format!("cannot parse `{text}`"),
            None => "syntax error".to_owned(),
        }
    };
    SyntaxError { range, message }
}

/// Whether an ERROR node holds one token (possibly under wrapper nodes).
fn is_single_token(node: Node) -> bool {
    let mut n = node;
    loop {
        match n.child_count() {
            0 => return true,
            1 => match n.child(0) {
                Some(c) => n = c,
                None => return true,
            },
            _ => return false,
        }
    }
}

/// The text of `range`: its first line, at most 40 characters.
pub(crate) fn shortened(original: &str, range: TextRange) -> Option<String> {
    let text = original
        .get(range.start as usize..range.end as usize)?
        .trim();
    if text.is_empty() {
        return None;
    }
    let line = text.lines().next().unwrap_or(text).trim_end();
    let mut short: String = line.chars().take(40).collect();
    if short.len() < text.len() {
        short.push('…');
    }
    Some(short)
}
