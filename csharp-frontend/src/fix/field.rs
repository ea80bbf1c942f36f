//! Fixes for owning fields: dispose them in the class's disposal method
//! (RLC0003), and dispose the old value before overwriting (RLC0004).

use tree_sitter::Node;

use super::syntax::{File, children, descendants, is_async, named_children};
use super::{FixOptions, NoFix, Planned, TypeFacts};
use crate::annotate::edit::Edit;
use crate::hir::TextRange;

/// Where to dispose an owning field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldRequest {
    /// The field's name in its declaration (the finding's primary location),
    /// when it is in the file being fixed.
    pub field: TextRange,
    /// The field's name.
    pub name: String,
    /// The method that disposes it (`Dispose`, `Close`).
    pub call: String,
    /// The field's type.
    pub field_type: TypeFacts,
    /// The class's name in its declaration, to add the dispose pattern to a
    /// class that has no disposal method (`method` is `None`).
    pub class: Option<TextRange>,
    /// The class's own disposal method, in the file being fixed.
    pub method: Option<DisposalMethod>,
}

/// A disposal method of the class.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DisposalMethod {
    /// Its name in its declaration.
    pub name: TextRange,
    /// It is `Dispose(bool disposing)`: dispose when the flag is true.
    pub disposing_flag: bool,
}

/// Disposing the old value of a field before it is overwritten.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OverwriteRequest {
    /// The assignment (the finding's primary location).
    pub store: TextRange,
    /// The method that disposes the old value (`Dispose`, `Close`).
    pub call: String,
    pub field_type: TypeFacts,
}

pub(super) fn dispose_field(
    file: &File<'_>,
    r: &FieldRequest,
    options: &FixOptions,
) -> Result<Planned, NoFix> {
    if r.field_type.value_type || !(r.field_type.disposable || r.call != "Dispose") {
        return Err(NoFix::NotDisposable);
    }
    match &r.method {
        Some(m) => dispose_in_method(file, r, m),
        None => add_pattern(file, r, options),
    }
}

/// `field?.Dispose();` at the end of the method (of `if (disposing) { }` for
/// `Dispose(bool disposing)`).
fn dispose_in_method(
    file: &File<'_>,
    r: &FieldRequest,
    m: &DisposalMethod,
) -> Result<Planned, NoFix> {
    let method = file
        .node_at(m.name)?
        .parent()
        .filter(|p| p.kind() == "method_declaration")
        .ok_or(NoFix::NotFound)?;
    file.check_parses(method)?;
    let shadowed = descendants(method).iter().any(|n| {
        n.kind() == "identifier"
            && file.text_of(*n) == r.name
            && n.parent()
                .is_some_and(|p| matches!(p.kind(), "parameter" | "variable_declarator"))
    });
    let target = if shadowed {
        format!("this.{}", r.name)
    } else {
        r.name.clone()
    };
    let stmt = format!("{target}?.{}();", r.call);
    let summary = format!("`{stmt}` in `{}`", file.text_of(file.node_at(m.name)?));
    let body = method
        .child_by_field_name("body")
        .ok_or(NoFix::Shape("the method has no body"))?;
    let unit = file.indent_unit(method.parent().unwrap_or(method));
    let ind = file.layout.indent(method.start_byte());
    let eol = file.layout.eol(method.start_byte());
    if body.kind() == "arrow_expression_clause" {
        let returns_void = method
            .child_by_field_name("returns")
            .is_some_and(|t| file.text_of(t) == "void");
        if !returns_void || is_async(method, file.text) {
            return Err(NoFix::Shape("the method's expression body returns a value"));
        }
        let expr = body.named_child(0).ok_or(NoFix::NotFound)?;
        return Ok(Planned {
            edits: expression_body_to_block(
                method,
                body,
                &[file.text_of(expr).to_owned() + ";", stmt],
                ind,
                &unit,
                eol,
            )?,
            summary,
        });
    }
    if m.disposing_flag {
        let flag = method
            .child_by_field_name("parameters")
            .and_then(|ps| {
                named_children(ps)
                    .into_iter()
                    .find(|p| p.kind() == "parameter")
            })
            .and_then(|p| p.child_by_field_name("name"))
            .map(|n| file.text_of(n))
            .ok_or(NoFix::NotFound)?;
        let guard = descendants(body).into_iter().find(|n| {
            n.kind() == "if_statement"
                && n.child_by_field_name("condition")
                    .is_some_and(|c| c.kind() == "identifier" && file.text_of(c) == flag)
                && n.child_by_field_name("consequence")
                    .is_some_and(|c| c.kind() == "block")
        });
        if let Some(guard) = guard
            && let Some(block) = guard.child_by_field_name("consequence")
        {
            return Ok(Planned {
                edits: vec![append_to_block(file, block, &stmt)?],
                summary,
            });
        }
        let inner = format!("{unit}{unit}");
        let text = format!(
            "{ind}{unit}if ({flag}){eol}{ind}{unit}{{{eol}{ind}{inner}{stmt}{eol}{ind}{unit}}}{eol}"
        );
        let close = closing_brace(body)?;
        if !file.layout.at_line_start(close.start_byte()) {
            return Err(NoFix::Shape(
                "the method's closing brace does not start a line",
            ));
        }
        return Ok(Planned {
            edits: vec![Edit::insert(
                file.layout.line_start(close.start_byte()),
                text,
                0,
            )],
            summary,
        });
    }
    Ok(Planned {
        edits: vec![append_to_block(file, body, &stmt)?],
        summary,
    })
}

fn closing_brace(block: Node) -> Result<Node, NoFix> {
    children(block)
        .into_iter()
        .rfind(|c| c.kind() == "}")
        .ok_or(NoFix::NotFound)
}

/// `stmt` as the last statement of `block`: on a line of its own before the
/// closing brace, or before it on the same line for a one-line block.
fn append_to_block(file: &File<'_>, block: Node, stmt: &str) -> Result<Edit, NoFix> {
    let close = closing_brace(block)?;
    let at = close.start_byte();
    if file.layout.at_line_start(at) {
        let ind = file.layout.indent(block.start_byte());
        let unit = file.indent_unit(block);
        let eol = file.layout.eol(block.start_byte());
        return Ok(Edit::insert(
            file.layout.line_start(at),
            format!("{ind}{unit}{stmt}{eol}"),
            0,
        ));
    }
    let spaced = file.text[..at].ends_with([' ', '\t']);
    Ok(Edit::insert(
        at,
        if spaced {
            format!("{stmt} ")
        } else {
            format!(" {stmt} ")
        },
        0,
    ))
}

/// Replaces `=> expr;` of `member` by a block of `statements`.
fn expression_body_to_block(
    member: Node,
    body: Node,
    statements: &[String],
    ind: &str,
    unit: &str,
    eol: &str,
) -> Result<Vec<Edit>, NoFix> {
    let semicolon = children(member)
        .into_iter()
        .rfind(|c| c.kind() == ";")
        .ok_or(NoFix::NotFound)?;
    let before = body.prev_sibling().ok_or(NoFix::NotFound)?;
    let mut text = format!("{eol}{ind}{{{eol}");
    for s in statements {
        text.push_str(&format!("{ind}{unit}{s}{eol}"));
    }
    text.push_str(&format!("{ind}}}"));
    Ok(vec![Edit {
        start: before.end_byte(),
        end: semicolon.end_byte(),
        text,
        rank: 1,
    }])
}

/// Adds `IDisposable` and a `Dispose` that disposes the field to a class
/// that has no disposal method: `public void Dispose()` in a sealed class,
/// the dispose pattern (`Dispose()` calling a virtual `Dispose(bool)`)
/// otherwise.
fn add_pattern(file: &File<'_>, r: &FieldRequest, options: &FixOptions) -> Result<Planned, NoFix> {
    let class = file
        .node_at(r.class.ok_or(NoFix::NotFound)?)?
        .parent()
        .filter(|p| matches!(p.kind(), "class_declaration" | "record_declaration"))
        .ok_or(NoFix::Shape("the owner is not a class"))?;
    file.check_parses(class)?;
    if r.call != "Dispose" {
        return Err(NoFix::Shape("the field's disposal method is not `Dispose`"));
    }
    let modifiers: Vec<&str> = children(class)
        .iter()
        .filter(|c| c.kind() == "modifier")
        .map(|c| file.text_of(*c))
        .collect();
    if modifiers.contains(&"static") || children(class).iter().any(|c| file.text_of(*c) == "struct")
    {
        return Err(NoFix::Shape("the owner is not a class"));
    }
    let body = class
        .child_by_field_name("body")
        .filter(|b| b.kind() == "declaration_list")
        .ok_or(NoFix::Shape("the class has no body"))?;
    let has_dispose = named_children(body).iter().any(|m| {
        m.kind() == "method_declaration"
            && m.child_by_field_name("name")
                .is_some_and(|n| file.text_of(n) == "Dispose")
    });
    if has_dispose {
        return Err(NoFix::Shape(
            "the class has a `Dispose` method of another shape",
        ));
    }
    let system = options.global_system_using
        || descendants(file.root).iter().any(|n| {
            n.kind() == "using_directive"
                && named_children(*n).len() == 1
                && named_children(*n)
                    .first()
                    .is_some_and(|c| file.text_of(*c) == "System")
        });
    let qualify = |name: &str| {
        if system {
            name.to_owned()
        } else {
            format!("System.{name}")
        }
    };
    let mut edits = Vec::new();
    let disposable = qualify("IDisposable");
    match children(class)
        .into_iter()
        .find(|c| c.kind() == "base_list")
    {
        Some(bases) => edits.push(Edit::insert(bases.end_byte(), format!(", {disposable}"), 1)),
        None => {
            let after = children(class)
                .into_iter()
                .rfind(|c| {
                    matches!(
                        c.kind(),
                        "identifier" | "type_parameter_list" | "parameter_list"
                    ) && c.end_byte() <= body.start_byte()
                })
                .ok_or(NoFix::NotFound)?;
            edits.push(Edit::insert(
                after.end_byte(),
                format!(" : {disposable}"),
                1,
            ));
        }
    }
    let close = closing_brace(body)?;
    if !file.layout.at_line_start(close.start_byte()) {
        return Err(NoFix::Shape(
            "the class's closing brace does not start a line",
        ));
    }
    let unit = file.indent_unit(body);
    let ind = format!("{}{unit}", file.layout.indent(class.start_byte()));
    let eol = file.layout.eol(class.start_byte());
    let stmt = format!("{}?.Dispose();", r.name);
    let sealed = modifiers.contains(&"sealed");
    let mut text = String::new();
    if named_children(body).iter().any(|c| c.kind() != "comment") {
        text.push_str(eol);
    }
    if sealed {
        text.push_str(&format!(
            "{ind}public void Dispose(){eol}{ind}{{{eol}{ind}{unit}{stmt}{eol}{ind}}}{eol}"
        ));
    } else {
        let gc = qualify("GC");
        text.push_str(&format!(
            "{ind}public void Dispose(){eol}{ind}{{{eol}{ind}{unit}Dispose(true);{eol}{ind}{unit}{gc}.SuppressFinalize(this);{eol}{ind}}}{eol}{eol}\
             {ind}protected virtual void Dispose(bool disposing){eol}{ind}{{{eol}{ind}{unit}if (disposing){eol}{ind}{unit}{{{eol}{ind}{unit}{unit}{stmt}{eol}{ind}{unit}}}{eol}{ind}}}{eol}"
        ));
    }
    edits.push(Edit::insert(
        file.layout.line_start(close.start_byte()),
        text,
        0,
    ));
    Ok(Planned {
        edits,
        summary: format!("`IDisposable` with a `Dispose` that disposes `{}`", r.name),
    })
}

pub(super) fn dispose_before_overwrite(
    file: &File<'_>,
    r: &OverwriteRequest,
) -> Result<Planned, NoFix> {
    if r.field_type.value_type || !(r.field_type.disposable || r.call != "Dispose") {
        return Err(NoFix::NotDisposable);
    }
    let start = r.store.start as usize;
    let end = r.store.end as usize;
    let mut node = file
        .root
        .named_descendant_for_byte_range(start, end.max(start))
        .ok_or(NoFix::NotFound)?;
    while node.kind() != "assignment_expression" {
        node = node.parent().ok_or(NoFix::NotFound)?;
    }
    let assignment = node;
    if assignment
        .child_by_field_name("operator")
        .is_none_or(|o| file.text_of(o) != "=")
    {
        return Err(NoFix::Shape("it is a compound assignment"));
    }
    let left = assignment
        .child_by_field_name("left")
        .ok_or(NoFix::NotFound)?;
    let right = assignment
        .child_by_field_name("right")
        .ok_or(NoFix::NotFound)?;
    let field = match left.kind() {
        "identifier" => left,
        "member_access_expression"
            if left
                .child_by_field_name("expression")
                .is_some_and(|e| e.kind() == "this_expression" || file.text_of(e) == "this") =>
        {
            left.child_by_field_name("name").ok_or(NoFix::NotFound)?
        }
        _ => return Err(NoFix::Shape("it assigns a field of another object")),
    };
    let name = file.text_of(field);
    if descendants(right)
        .iter()
        .any(|n| n.kind() == "identifier" && file.text_of(*n) == name)
    {
        return Err(NoFix::Shape("the new value is computed from the old one"));
    }
    if !fresh_value(right) {
        return Err(NoFix::Shape("the new value may be the old one"));
    }
    let target = file.text_of(left);
    let stmt = format!("{target}?.{}();", r.call);
    let summary = format!("`{stmt}` before the assignment");
    let parent = assignment.parent().ok_or(NoFix::NotFound)?;
    match parent.kind() {
        "expression_statement" => {
            if parent.parent().is_none_or(|b| b.kind() != "block")
                || !file.layout.at_line_start(parent.start_byte())
            {
                return Err(NoFix::Shape(
                    "the assignment is not a statement of its own in a block",
                ));
            }
            let function = file.function_of(parent);
            file.check_parses(function)?;
            let at = parent.start_byte();
            let (ind, eol) = (file.layout.indent(at), file.layout.eol(at));
            Ok(Planned {
                edits: vec![Edit::insert(
                    file.layout.line_start(at),
                    format!("{ind}{stmt}{eol}"),
                    0,
                )],
                summary,
            })
        }
        "arrow_expression_clause" => {
            let method = parent
                .parent()
                .filter(|m| m.kind() == "method_declaration")
                .ok_or(NoFix::Shape(
                    "the assignment is the body of a lambda or property",
                ))?;
            file.check_parses(method)?;
            let returns = method
                .child_by_field_name("returns")
                .map(|t| file.text_of(t))
                .unwrap_or("");
            let no_value = returns == "void"
                || (is_async(method, file.text) && matches!(returns, "Task" | "ValueTask"));
            if !no_value {
                return Err(NoFix::Shape("the method's expression body returns a value"));
            }
            let unit = file.indent_unit(method.parent().unwrap_or(method));
            let ind = file.layout.indent(method.start_byte());
            let eol = file.layout.eol(method.start_byte());
            Ok(Planned {
                edits: expression_body_to_block(
                    method,
                    parent,
                    &[stmt, file.text_of(assignment).to_owned() + ";"],
                    ind,
                    &unit,
                    eol,
                )?,
                summary,
            })
        }
        _ => Err(NoFix::Shape("the assignment is inside a larger expression")),
    }
}

/// A value that cannot be the field's current one: a new object, `null`,
/// `default`, or the result of a call, which the checker takes to be a new
/// owned value.
fn fresh_value(right: Node) -> bool {
    match right.kind() {
        "object_creation_expression"
        | "implicit_object_creation_expression"
        | "null_literal"
        | "default_expression"
        | "invocation_expression" => true,
        "await_expression" | "parenthesized_expression" | "postfix_unary_expression" => {
            right.named_child(0).is_some_and(fresh_value)
        }
        _ => false,
    }
}
