//! Parsing for the annotator: tree-sitter directly, on the original text, so
//! that edits land at the exact bytes the user wrote.

use std::cell::RefCell;

use tree_sitter::{Node, Parser, Tree};

/// Type declarations; a delegate's `[return: X]` goes on its declaration.
pub(crate) const TYPE_KINDS: &[&str] = &[
    "class_declaration",
    "struct_declaration",
    "interface_declaration",
    "record_declaration",
    "enum_declaration",
    "delegate_declaration",
];

pub(crate) const MEMBER_KINDS: &[&str] = &[
    "method_declaration",
    "constructor_declaration",
    "destructor_declaration",
    "property_declaration",
    "indexer_declaration",
    "event_declaration",
    "event_field_declaration",
    "field_declaration",
    "operator_declaration",
    "conversion_operator_declaration",
    "enum_member_declaration",
];

/// Kinds whose `attribute_list` children hold the declaration's own attributes.
pub(crate) const ATTRIBUTE_KINDS: &[&str] = &["attribute_list", "preproc_if_in_attribute_list"];

thread_local! {
    /// One parser per thread: files and attribute snippets are many.
    static PARSER: RefCell<Option<Parser>> = const { RefCell::new(None) };
}

/// Parses `text`; with `old`, a tree of the text before edits that were
/// reported to it with `Tree::edit`, reusing what did not change.
pub(crate) fn parse(text: &str, old: Option<&Tree>) -> Option<Tree> {
    PARSER.with(|cell| {
        let mut slot = cell.borrow_mut();
        if slot.is_none() {
            let mut parser = Parser::new();
            parser
                .set_language(&tree_sitter_c_sharp::LANGUAGE.into())
                .ok()?;
            *slot = Some(parser);
        }
        slot.as_mut()?.parse(text, old)
    })
}

/// ERROR and MISSING nodes in the tree.
pub(crate) fn error_count(root: Node) -> usize {
    crate::parse::nodes_with_errors(root)
        .filter(|n| n.is_error() || n.is_missing())
        .count()
}

pub(crate) fn text_of<'s>(node: Node, src: &'s str) -> &'s str {
    src.get(node.byte_range()).unwrap_or("")
}

/// The texts of the node's tokens, comments left out: a layout-independent
/// form of the code for comparisons.
pub(crate) fn tokens(node: Node, src: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cursor = node.walk();
    loop {
        let n = cursor.node();
        let leaf = n.child_count() == 0;
        if leaf && n.kind() != "comment" {
            out.push(text_of(n, src).to_owned());
        }
        if !leaf && n.kind() != "comment" && cursor.goto_first_child() {
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

/// A dotted name as written, without whitespace, comments or `global::`.
pub(crate) fn dotted_name(node: Node, src: &str) -> String {
    let joined: String = tokens(node, src).concat();
    joined
        .strip_prefix("global::")
        .map(str::to_owned)
        .unwrap_or(joined)
}

pub(crate) fn children(node: Node) -> Vec<Node> {
    let mut cursor = node.walk();
    node.children(&mut cursor).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_errors_and_missing_nodes() {
        let ok = parse("class C { void M() { } }", None).unwrap();
        assert_eq!(error_count(ok.root_node()), 0);
        let bad = parse("class C { void M( { } }", None).unwrap();
        assert!(error_count(bad.root_node()) > 0);
    }

    #[test]
    fn tokens_ignore_layout_and_comments() {
        let src = "class C { void M() { F( a , /* x */ \"b c\" ); } }";
        let tree = parse(src, None).unwrap();
        let root = tree.root_node();
        assert_eq!(tokens(root, src).concat(), "classC{voidM(){F(a,\"b c\");}}");
    }
}
