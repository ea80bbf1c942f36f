//! The tree-sitter view the fixes work on, and layout helpers.

use tree_sitter::{Node, Tree};

use super::NoFix;
use crate::annotate::edit::{Edit, Layout};
use crate::hir::TextRange;

pub(super) fn parse(text: &str) -> Option<Tree> {
    crate::annotate::syntax::parse(text, None)
}

/// Kinds whose nodes are functions: a body of their own.
pub(super) const FUNCTIONS: &[&str] = &[
    "method_declaration",
    "constructor_declaration",
    "destructor_declaration",
    "operator_declaration",
    "conversion_operator_declaration",
    "accessor_declaration",
    "local_function_statement",
    "lambda_expression",
    "anonymous_method_expression",
];

/// Nested functions: a variable used inside one is captured.
pub(super) const NESTED_FUNCTIONS: &[&str] = &[
    "local_function_statement",
    "lambda_expression",
    "anonymous_method_expression",
];

/// A file being fixed.
pub(super) struct File<'t> {
    pub text: &'t str,
    pub root: Node<'t>,
    pub layout: Layout<'t>,
}

impl<'t> File<'t> {
    pub fn new(text: &'t str, tree: &'t Tree) -> File<'t> {
        File {
            text,
            root: tree.root_node(),
            layout: Layout::new(text),
        }
    }

    pub fn text_of(&self, node: Node) -> &'t str {
        self.text.get(node.byte_range()).unwrap_or("")
    }

    /// The outermost node spanning exactly `range` (spaces around it aside).
    pub fn node_at(&self, range: TextRange) -> Result<Node<'t>, NoFix> {
        let (start, end) = (range.start as usize, range.end as usize);
        let written = self.text.get(start..end).ok_or(NoFix::NotFound)?;
        let start = start + (written.len() - written.trim_start().len());
        let end = end - (written.len() - written.trim_end().len());
        let mut node = self
            .root
            .named_descendant_for_byte_range(start, end)
            .ok_or(NoFix::NotFound)?;
        if node.start_byte() != start || node.end_byte() != end {
            return Err(NoFix::NotFound);
        }
        while let Some(p) = node.parent() {
            if p.start_byte() == start && p.end_byte() == end && p.kind() != "expression_statement"
            {
                node = p;
            } else {
                break;
            }
        }
        Ok(node)
    }

    /// The function (method, accessor, lambda, ...) holding `node`, or the
    /// compilation unit for top-level statements.
    pub fn function_of(&self, node: Node<'t>) -> Node<'t> {
        let mut n = node;
        while let Some(p) = n.parent() {
            if FUNCTIONS.contains(&p.kind()) {
                return p;
            }
            n = p;
        }
        self.root
    }

    /// Whether the function has syntax errors (then nothing in it is fixed).
    pub fn check_parses(&self, function: Node) -> Result<(), NoFix> {
        if function.has_error() {
            Err(NoFix::SyntaxErrors)
        } else {
            Ok(())
        }
    }

    /// The indentation one level deeper than `outer` adds in this file: what
    /// `block`'s statements have beyond its braces, else four spaces (a tab
    /// in a file indented with tabs).
    pub fn indent_unit(&self, block: Node) -> String {
        let brace = self.layout.indent(block.start_byte());
        for child in named_children(block) {
            if !self.layout.at_line_start(child.start_byte()) {
                continue;
            }
            let inner = self.layout.indent(child.start_byte());
            if let Some(extra) = inner.strip_prefix(brace)
                && !extra.is_empty()
            {
                return extra.to_owned();
            }
        }
        if brace.contains('\t') || self.text.lines().take(200).any(|l| l.starts_with('\t')) {
            "\t".into()
        } else {
            "    ".into()
        }
    }

    /// Edits that indent every line that starts in `from..to` by `unit`,
    /// except blank lines, preprocessor directives and lines that start inside
    /// a multi-line string (their text would change).
    pub fn indent_lines(&self, from: usize, to: usize, unit: &str) -> Vec<Edit> {
        let strings = multiline_strings(self.root);
        let mut edits = Vec::new();
        let mut at = self.layout.line_start(from);
        while at < to {
            let next = self.layout.next_line_start(at);
            let line = self.text.get(at..next).unwrap_or("");
            let content = line.trim_start();
            let blank = content.trim_end().is_empty();
            let in_string = strings.iter().any(|&(s, e)| s < at && at < e);
            if !blank && !in_string && !content.starts_with('#') {
                edits.push(Edit::insert(at, unit.to_owned(), 1));
            }
            if next == at {
                break;
            }
            at = next;
        }
        edits
    }

    /// The node occupies whole lines: only spaces before it on its first line,
    /// only spaces or a `//` comment after it on its last.
    pub fn on_own_lines(&self, node: Node) -> bool {
        self.layout.at_line_start(node.start_byte()) && self.rest_is_blank(node.end_byte())
    }

    pub fn rest_is_blank(&self, offset: usize) -> bool {
        let rest = self.layout.rest_of_line(offset).trim();
        rest.is_empty() || rest.starts_with("//")
    }
}

/// Byte ranges of string literals that span lines.
fn multiline_strings(root: Node) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut cursor = root.walk();
    loop {
        let n = cursor.node();
        let kind = n.kind();
        let stringy = kind.contains("string_literal") || kind == "interpolated_string_expression";
        if stringy && n.start_position().row != n.end_position().row {
            out.push((n.start_byte(), n.end_byte()));
        }
        if !stringy && cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return out;
            }
        }
    }
}

pub(super) fn named_children(node: Node) -> Vec<Node> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor).collect()
}

pub(super) fn children(node: Node) -> Vec<Node> {
    let mut cursor = node.walk();
    node.children(&mut cursor).collect()
}

/// Every node below `node` (itself included), in document order.
pub(super) fn descendants(node: Node) -> Vec<Node> {
    let mut out = Vec::new();
    let mut cursor = node.walk();
    loop {
        out.push(cursor.node());
        if cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.node() == node {
                return out;
            }
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return out;
            }
        }
    }
}

/// Whether `inner` lies inside `outer` (or is it).
pub(super) fn within(inner: Node, outer: Node) -> bool {
    outer.start_byte() <= inner.start_byte() && inner.end_byte() <= outer.end_byte()
}

/// Whether the function is `async`.
pub(super) fn is_async(function: Node, text: &str) -> bool {
    children(function).iter().any(|c| {
        (c.kind() == "modifier" || c.kind() == "async") && text.get(c.byte_range()) == Some("async")
    })
}

/// C# keywords a generated name must not be: the reserved ones and the
/// contextual ones that read as keywords where a local is declared.
pub(super) fn is_keyword(word: &str) -> bool {
    rlc_attributes::library::is_keyword(word)
        || ["async", "await", "value", "var", "yield"].contains(&word)
}
