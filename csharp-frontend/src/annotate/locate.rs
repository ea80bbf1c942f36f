//! From a target's byte range to the syntax it names.

use tree_sitter::Node;

use super::AnnotationTarget;
use super::syntax::{self, MEMBER_KINDS, TYPE_KINDS};

/// Where on a declaration an attribute goes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Slot {
    /// `[X]` on the declaration itself.
    Decl,
    /// `[return: X]`.
    Return,
}

pub(crate) enum Site<'t> {
    Decl {
        decl: Node<'t>,
        /// The declarator of a field or field-like event.
        declarator: Option<Node<'t>>,
        slot: Slot,
    },
    Param(ParamSite<'t>),
}

impl Site<'_> {
    /// Neither the site nor anything around it is a syntax error: its
    /// layout can be trusted.
    pub(crate) fn sound(&self) -> bool {
        let nodes = match self {
            Site::Decl { decl, .. } => std::slice::from_ref(decl),
            Site::Param(p) => p.nodes.as_slice(),
        };
        let outside_errors = |n: &Node| {
            let mut at = n.parent();
            while let Some(p) = at {
                if p.is_error() {
                    return false;
                }
                at = p.parent();
            }
            true
        };
        nodes.iter().all(|n| !n.has_error()) && nodes.first().is_some_and(outside_errors)
    }
}

/// A parameter: a `parameter` node's children, or for a `params` array (which
/// the grammar spreads over its parameter list) the children between commas.
pub(crate) struct ParamSite<'t> {
    pub nodes: Vec<Node<'t>>,
    pub start: usize,
}

pub(crate) fn locate<'t>(
    root: Node<'t>,
    target: &AnnotationTarget,
) -> Result<Site<'t>, &'static str> {
    let range = target.range();
    let (start, end) = (range.start as usize, range.end as usize);
    if start >= end || end > root.end_byte() {
        return Err("the range is empty or lies outside the file");
    }
    match target {
        AnnotationTarget::Type { .. } => {
            let (decl, _) = declaration_named(root, start, end)?;
            if !TYPE_KINDS.contains(&decl.kind()) {
                return Err("this names a member, not a type");
            }
            Ok(Site::Decl {
                decl,
                declarator: None,
                slot: Slot::Decl,
            })
        }
        AnnotationTarget::Member { .. } => {
            let (decl, declarator) = declaration_named(root, start, end)?;
            if !MEMBER_KINDS.contains(&decl.kind()) && decl.kind() != "delegate_declaration" {
                return Err("this names a type, not a member");
            }
            Ok(Site::Decl {
                decl,
                declarator,
                slot: Slot::Decl,
            })
        }
        AnnotationTarget::Return { .. } => {
            let (decl, declarator) = declaration_named(root, start, end)?;
            let slot = match decl.kind() {
                "method_declaration"
                | "operator_declaration"
                | "conversion_operator_declaration"
                | "delegate_declaration" => Slot::Return,
                // C# has no `return:` target here; the checker reads the
                // declaration's own attributes as the value's.
                "property_declaration" | "indexer_declaration" | "constructor_declaration" => {
                    Slot::Decl
                }
                _ => return Err("this declaration returns no value"),
            };
            Ok(Site::Decl {
                decl,
                declarator,
                slot,
            })
        }
        AnnotationTarget::Parameter { .. } => parameter(root, start, end).map(Site::Param),
    }
}

/// The declaration whose name is exactly `start..end`, and for fields the
/// declarator. Declarations without a name (indexers, operators) are named
/// by a token of their header (`this`, the operator).
fn declaration_named<'t>(
    root: Node<'t>,
    start: usize,
    end: usize,
) -> Result<(Node<'t>, Option<Node<'t>>), &'static str> {
    const NOT_FOUND: &str = "no declaration has its name at this range";
    let mut node = root
        .descendant_for_byte_range(start, end)
        .ok_or(NOT_FOUND)?;
    if node.byte_range() != (start..end) {
        return Err(NOT_FOUND);
    }
    // A contextual keyword used as a name (`file`, `from`, `equals`) is an
    // identifier node around the keyword's token.
    while let Some(up) = node
        .parent()
        .filter(|p| p.kind() == "identifier" && p.byte_range() == node.byte_range())
    {
        node = up;
    }
    let parent = node.parent().ok_or(NOT_FOUND)?;
    if parent.kind() == "variable_declarator" && parent.child_by_field_name("name") == Some(node) {
        let field = parent.parent().and_then(|v| v.parent()).ok_or(NOT_FOUND)?;
        return if matches!(
            field.kind(),
            "field_declaration" | "event_field_declaration"
        ) {
            Ok((field, Some(parent)))
        } else {
            Err("this names a local variable, not a field")
        };
    }
    if !TYPE_KINDS.contains(&parent.kind()) && !MEMBER_KINDS.contains(&parent.kind()) {
        return Err(NOT_FOUND);
    }
    let named = match parent.child_by_field_name("name") {
        Some(name) => name == node,
        None => {
            matches!(node.kind(), "this" | "operator" | "implicit" | "explicit")
                || parent.child_by_field_name("type") == Some(node)
                || parent.child_by_field_name("operator") == Some(node)
        }
    };
    if named {
        Ok((parent, None))
    } else {
        Err(NOT_FOUND)
    }
}

fn parameter<'t>(root: Node<'t>, start: usize, end: usize) -> Result<ParamSite<'t>, &'static str> {
    const NOT_FOUND: &str = "no parameter at this range";
    let mut node = root
        .descendant_for_byte_range(start, end)
        .ok_or(NOT_FOUND)?;
    let (nodes, name) = loop {
        match node.kind() {
            "parameter" => break (syntax::children(node), node.child_by_field_name("name")),
            "parameter_list" | "bracketed_parameter_list" => {
                break params_segment(node, start).ok_or(NOT_FOUND)?;
            }
            k if TYPE_KINDS.contains(&k)
                || MEMBER_KINDS.contains(&k)
                || k == "compilation_unit" =>
            {
                return Err(NOT_FOUND);
            }
            _ => node = node.parent().ok_or(NOT_FOUND)?,
        }
    };
    let (first, last) = (
        nodes.first().ok_or(NOT_FOUND)?,
        nodes.last().ok_or(NOT_FOUND)?,
    );
    let name = name.ok_or(NOT_FOUND)?;
    // The range must cover the name and lie within the parameter.
    if first.start_byte() <= start
        && end <= last.end_byte()
        && start <= name.start_byte()
        && name.end_byte() <= end
    {
        Ok(ParamSite {
            start: first.start_byte(),
            nodes,
        })
    } else {
        Err(NOT_FOUND)
    }
}

/// The children of a parameter list between the commas around `offset`,
/// with the name among them.
fn params_segment(list: Node, offset: usize) -> Option<(Vec<Node>, Option<Node>)> {
    let mut cursor = list.walk();
    let mut segment = Vec::new();
    let mut name = None;
    for (i, child) in list.children(&mut cursor).enumerate() {
        match child.kind() {
            "(" | ")" | "[" | "]" if !child.is_named() => continue,
            "," if !child.is_named() => {
                if segment.last().is_some_and(|l: &Node| offset < l.end_byte()) {
                    break;
                }
                segment.clear();
                name = None;
            }
            _ => {
                if list.field_name_for_child(i as u32) == Some("name") {
                    name = Some(child);
                }
                segment.push(child);
            }
        }
    }
    match segment.as_slice() {
        [single] if single.kind() == "parameter" => Some((
            syntax::children(*single),
            single.child_by_field_name("name"),
        )),
        _ if segment.first().is_some_and(|f| f.start_byte() <= offset) => Some((segment, name)),
        _ => None,
    }
}
