//! The `using` directive that makes the added attributes' simple names
//! resolve, placed where the file keeps its usings.

use std::cmp::Ordering;

use tree_sitter::Node;

use super::edit::{Edit, Layout};
use super::syntax::{self, children};

/// Rank of a using insertion among edits at one offset: before an attribute
/// line inserted at the same place.
const RANK: u8 = 0;

struct Using<'t> {
    node: Node<'t>,
    global: bool,
    /// `using static` or an alias: conventionally after the namespace usings.
    special: bool,
    name: String,
}

impl<'t> Using<'t> {
    fn of(node: Node<'t>, src: &str) -> Using<'t> {
        let kids = children(node);
        let name = kids
            .iter()
            .rev()
            .find(|c| {
                c.is_named()
                    && node.child_by_field_name("name") != Some(**c)
                    && c.kind() != "comment"
            })
            .map(|n| syntax::dotted_name(*n, src))
            .unwrap_or_default();
        Using {
            node,
            global: kids.first().is_some_and(|k| k.kind() == "global"),
            special: node.child_by_field_name("name").is_some()
                || kids.iter().any(|k| k.kind() == "static"),
            name,
        }
    }

    fn imports(&self, namespace: &str) -> bool {
        !self.special && self.name == namespace
    }
}

/// The edits that import `namespace` for every site (a node of an annotated
/// declaration) that does not see it yet; none when all do.
pub(crate) fn import(
    root: Node,
    src: &str,
    layout: &Layout,
    sites: &[Node],
    namespace: &str,
) -> Vec<Edit> {
    let mut all = Vec::new();
    collect(root, &mut all);
    let all: Vec<Using> = all.into_iter().map(|n| Using::of(n, src)).collect();
    let needing: Vec<Node> = sites
        .iter()
        .copied()
        .filter(|site| {
            !inside_namespace(root, *site, src, namespace)
                && !all
                    .iter()
                    .any(|u| u.imports(namespace) && sees(u.node, *site))
        })
        .collect();
    if needing.is_empty() {
        return Vec::new();
    }
    let line = |indent: &str, eol: &str| format!("{indent}using {namespace};{eol}");
    let top: Vec<Using> = children(root)
        .into_iter()
        .filter(|c| c.kind() == "using_directive")
        .map(|n| Using::of(n, src))
        .collect();
    if top.iter().any(|u| !u.global) {
        return among(&top, namespace, layout, &line).into_iter().collect();
    }
    // Usings kept inside the namespace declarations: add to each that holds
    // an annotated declaration, unless one of those has no usings to join.
    let mut blocks: Vec<Node> = Vec::new();
    for site in &needing {
        match outermost_block_with_usings(*site) {
            Some(block) if !blocks.contains(&block) => blocks.push(block),
            Some(_) => {}
            None => {
                blocks.clear();
                break;
            }
        }
    }
    if !blocks.is_empty() {
        return blocks
            .into_iter()
            .filter_map(|block| {
                let usings: Vec<Using> = children(block)
                    .into_iter()
                    .filter(|c| c.kind() == "using_directive")
                    .map(|n| Using::of(n, src))
                    .collect();
                among(&usings, namespace, layout, &line)
            })
            .collect();
    }
    // Global usings only, or none at all.
    vec![
        among(&top, namespace, layout, &line)
            .unwrap_or_else(|| top_of_file(root, src, layout, namespace)),
    ]
}

/// Using directives of the compilation unit and namespaces, also inside `#if`.
fn collect<'t>(node: Node<'t>, out: &mut Vec<Node<'t>>) {
    for child in children(node) {
        match child.kind() {
            "using_directive" => out.push(child),
            "namespace_declaration" | "declaration_list" => collect(child, out),
            k if k.starts_with("preproc_") => collect(child, out),
            _ => {}
        }
    }
}

/// The using's scope (its namespace body or the whole file) holds `site`.
fn sees(using: Node, site: Node) -> bool {
    let mut scope = using.parent();
    while let Some(s) = scope {
        if matches!(s.kind(), "declaration_list" | "compilation_unit") {
            return s.start_byte() <= site.start_byte() && site.end_byte() <= s.end_byte();
        }
        scope = s.parent();
    }
    false
}

/// `site` is declared in `namespace` or one of its sub-namespaces, where the
/// names resolve without a using.
fn inside_namespace(root: Node, site: Node, src: &str, namespace: &str) -> bool {
    let mut parts = Vec::new();
    let mut at = site.parent();
    while let Some(n) = at {
        if n.kind() == "namespace_declaration"
            && let Some(name) = n.child_by_field_name("name")
        {
            parts.push(syntax::dotted_name(name, src));
        }
        at = n.parent();
    }
    if let Some(name) = children(root)
        .into_iter()
        .find(|c| {
            c.kind() == "file_scoped_namespace_declaration" && c.start_byte() < site.start_byte()
        })
        .and_then(|f| f.child_by_field_name("name"))
    {
        parts.push(syntax::dotted_name(name, src));
    }
    parts.reverse();
    let full = parts.join(".");
    full == namespace
        || full
            .strip_prefix(namespace)
            .is_some_and(|rest| rest.starts_with('.'))
}

fn outermost_block_with_usings(site: Node) -> Option<Node> {
    let mut found = None;
    let mut at = site.parent();
    while let Some(n) = at {
        if n.kind() == "declaration_list"
            && n.parent()
                .is_some_and(|p| p.kind() == "namespace_declaration")
            && children(n).iter().any(|c| c.kind() == "using_directive")
        {
            found = Some(n);
        }
        at = n.parent();
    }
    found
}

/// Joins a group of usings: in order when the group is sorted (System first
/// or plainly alphabetical), else after its last namespace using.
fn among(
    usings: &[Using],
    namespace: &str,
    layout: &Layout,
    line: &dyn Fn(&str, &str) -> String,
) -> Option<Edit> {
    let plain: Vec<&Using> = usings.iter().filter(|u| !u.global && !u.special).collect();
    let Some(last) = plain.last() else {
        // Namespace usings go after the global ones, before static and alias ones.
        return match usings.iter().find(|u| !u.global) {
            Some(u) => Some(before(u.node, layout, line)),
            None => usings.last().map(|u| after(u.node, layout, line)),
        };
    };
    let sorted_by = [system_first as fn(&str, &str) -> Ordering, alphabetical]
        .into_iter()
        .find(|cmp| {
            plain
                .windows(2)
                .all(|w| cmp(&w[0].name, &w[1].name) != Ordering::Greater)
        });
    Some(
        match sorted_by.and_then(|cmp| {
            plain
                .iter()
                .find(|u| cmp(namespace, &u.name) == Ordering::Less)
        }) {
            Some(next) => before(next.node, layout, line),
            None => after(last.node, layout, line),
        },
    )
}

fn before(node: Node, layout: &Layout, line: &dyn Fn(&str, &str) -> String) -> Edit {
    let at = node.start_byte();
    if layout.at_line_start(at) {
        Edit::insert(
            layout.line_start(at),
            line(layout.indent(at), layout.eol(at)),
            RANK,
        )
    } else {
        Edit::insert(at, format!("{} ", line("", "")), RANK)
    }
}

fn after(node: Node, layout: &Layout, line: &dyn Fn(&str, &str) -> String) -> Edit {
    let end = node.end_byte();
    let rest = layout.rest_of_line(end).trim();
    if !rest.is_empty() && !rest.starts_with("//") {
        return Edit::insert(end, format!(" {}", line("", "")), RANK);
    }
    let next = layout.next_line_start(end);
    let indent = layout.indent(node.start_byte());
    let eol = layout.eol(end);
    if layout.eol_terminated(end) {
        Edit::insert(next, line(indent, eol), RANK)
    } else {
        Edit::insert(next, format!("{eol}{}", line(indent, "")), RANK)
    }
}

/// A file without usings: at the top, after the leading comments and
/// directives (a license header, `#region`, `#nullable`), before the doc
/// comment of the first declaration, with a blank line after.
fn top_of_file(root: Node, src: &str, layout: &Layout, namespace: &str) -> Edit {
    let kids = children(root);
    let trivia = |n: &Node| {
        matches!(
            n.kind(),
            "comment" | "extern_alias_directive" | "shebang_directive"
        ) || (n.kind().starts_with("preproc_") && n.kind() != "preproc_if")
    };
    let first = kids.iter().position(|n| !trivia(n)).unwrap_or(kids.len());
    let mut at = kids.get(first).map_or(src.len(), |n| n.start_byte());
    for prev in kids[..first].iter().rev() {
        let text = syntax::text_of(*prev, src);
        let doc = text.starts_with("///") || text.starts_with("/**");
        if prev.kind() == "comment"
            && doc
            && layout.at_line_start(prev.start_byte())
            && !layout.blank_line_between(prev.end_byte(), at)
        {
            at = prev.start_byte();
        } else {
            break;
        }
    }
    let eol = layout.eol(at);
    let text = format!("using {namespace};{eol}{eol}");
    if layout.at_line_start(at) {
        Edit::insert(layout.line_start(at), text, RANK)
    } else {
        Edit::insert(at, text, RANK)
    }
}

fn alphabetical(a: &str, b: &str) -> Ordering {
    let segments = |s: &str| s.split('.').map(str::to_lowercase).collect::<Vec<_>>();
    segments(a).cmp(&segments(b)).then_with(|| a.cmp(b))
}

fn system_first(a: &str, b: &str) -> Ordering {
    let system = |s: &str| s == "System" || s.starts_with("System.");
    system(b).cmp(&system(a)).then_with(|| alphabetical(a, b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_usings_as_editors_do() {
        assert_eq!(
            alphabetical("Lucene.Net", "RlcSharp.Annotations"),
            Ordering::Less
        );
        assert_eq!(alphabetical("System", "System.IO"), Ordering::Less);
        assert_eq!(alphabetical("system.io", "System.Linq"), Ordering::Less);
        assert_eq!(
            system_first("System.Text", "Microsoft.Extensions"),
            Ordering::Less
        );
        assert_eq!(
            system_first("RlcSharp.Annotations", "Serilog"),
            Ordering::Less
        );
        assert_eq!(system_first("Xunit", "System"), Ordering::Greater);
    }
}
