//! Fixes for leaked locals and temporaries: `using`, hoisting, try/finally.

use tree_sitter::Node;

use super::escape::Escape;
use super::syntax::{
    File, NESTED_FUNCTIONS, children, descendants, is_async, is_keyword, named_children, within,
};
use super::{Context, FixOptions, NoFix, Planned, TypeFacts};
use crate::annotate::edit::Edit;
use crate::hir::TextRange;

/// A leaked local or temporary (RLC0001, RLC0002).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeakRequest {
    /// The allocation the finding points at (its primary location).
    pub alloc: TextRange,
    /// The allocated value's type.
    pub value: TypeFacts,
    /// Its short name (`FileStream`), to name a hoisted temporary.
    pub type_name: String,
    /// The value leaks only when an exception is thrown (RLC0002).
    pub exceptional: bool,
    /// The finding is about the call's receiver, which the call gave a new
    /// obligation (`[CreatesMustCallFor]`): fix the receiver's declaration.
    pub receiver: bool,
}

pub(super) fn plan(
    file: &File<'_>,
    r: &LeakRequest,
    cx: &dyn Context,
    options: &FixOptions,
) -> Result<Planned, NoFix> {
    let alloc = file.node_at(r.alloc)?;
    let function = file.function_of(alloc);
    let statement = statement_of(alloc).ok_or(NoFix::Shape("it is not inside a statement"))?;
    file.check_parses(if function == file.root {
        statement
    } else {
        function
    })?;
    if descendants(function)
        .iter()
        .any(|n| matches!(n.kind(), "goto_statement" | "labeled_statement"))
    {
        return Err(NoFix::Shape("the method uses `goto`"));
    }
    // The value as the code holds it: through `await`, parentheses, casts.
    let mut value = alloc;
    while let Some(p) = value.parent() {
        let through = match p.kind() {
            "await_expression" | "parenthesized_expression" => true,
            "cast_expression" => p.child_by_field_name("value") == Some(value),
            "as_expression" => p.named_child(0) == Some(value),
            _ => false,
        };
        if !through {
            break;
        }
        value = p;
    }
    let fn_info = FunctionInfo::of(file, function);
    if r.receiver {
        return receiver_local(file, alloc, function, r, cx, &fn_info, options);
    }
    let parent = value.parent().ok_or(NoFix::NotFound)?;
    match parent.kind() {
        "variable_declarator" => {
            let local = Local::of(file, parent, value, alloc, r, cx)?;
            let escape = Escape {
                file,
                function,
                cx,
                plain_returns: fn_info.plain_returns,
            };
            if r.exceptional
                && let Ok(planned) = try_finally(file, &local)
            {
                return Ok(planned);
            }
            escape.check(local.name)?;
            using_local(file, &local, &fn_info, options)
        }
        "expression_statement" => Err(NoFix::Discarded),
        "assignment_expression" => Err(NoFix::Shape(
            "it is assigned to an existing variable, which `using` cannot declare",
        )),
        _ => hoist(file, value, statement, r, cx, &fn_info, options),
    }
}

/// A call gave its receiver a new obligation (`[CreatesMustCallFor]`, as
/// `SqliteCommand.ExecuteReader`): the receiver's own declaration gets the fix.
fn receiver_local(
    file: &File<'_>,
    call: Node,
    function: Node,
    r: &LeakRequest,
    cx: &dyn Context,
    f: &FunctionInfo,
    options: &FixOptions,
) -> Result<Planned, NoFix> {
    let mut call = call;
    while call.kind() != "invocation_expression" {
        call = call
            .named_child(0)
            .ok_or(NoFix::Shape("the finding is not about a call"))?;
    }
    let receiver = call
        .child_by_field_name("function")
        .filter(|f| f.kind() == "member_access_expression")
        .and_then(|f| f.child_by_field_name("expression"))
        .filter(|e| e.kind() == "identifier")
        .ok_or(NoFix::Shape("the call's receiver is not a local variable"))?;
    let name = file.text_of(receiver);
    let declarator = descendants(function)
        .into_iter()
        .rfind(|n| {
            n.kind() == "variable_declarator"
                && n.start_byte() < receiver.start_byte()
                && n.child_by_field_name("name")
                    .is_some_and(|i| file.text_of(i) == name)
        })
        .ok_or(NoFix::Shape("the call's receiver is not a local variable"))?;
    let value = named_children(declarator)
        .into_iter()
        .rfind(|c| declarator.child_by_field_name("name") != Some(*c))
        .ok_or(NoFix::Shape("the receiver is declared without a value"))?;
    let declared_with_using = declarator
        .parent()
        .and_then(|d| d.parent())
        .is_some_and(|st| children(st).iter().any(|c| c.kind() == "using"));
    if declared_with_using {
        // Another finding's fix (or the code) disposes it already.
        return Ok(Planned {
            edits: Vec::new(),
            summary: format!("the `using` of `{name}`"),
        });
    }
    let local = Local::of(file, declarator, value, value, r, cx)?;
    let escape = Escape {
        file,
        function,
        cx,
        plain_returns: f.plain_returns,
    };
    escape.check(local.name)?;
    using_local(file, &local, f, options)
}

/// The statement holding `node`, not crossing into a nested function.
fn statement_of(node: Node) -> Option<Node> {
    let mut n = node;
    while let Some(p) = n.parent() {
        if NESTED_FUNCTIONS.contains(&p.kind()) {
            return None;
        }
        if p.kind().ends_with("_statement") {
            return Some(p);
        }
        n = p;
    }
    None
}

/// What matters about the function a fix is in.
struct FunctionInfo {
    is_async: bool,
    /// Values it returns or yields cannot hold a resource.
    plain_returns: bool,
}

impl FunctionInfo {
    fn of(file: &File<'_>, function: Node) -> FunctionInfo {
        let is_async = is_async(function, file.text);
        let iterator = descendants(function).iter().any(|n| {
            n.kind() == "yield_statement"
                && !ancestors_until(*n, function).any(|a| NESTED_FUNCTIONS.contains(&a.kind()))
        });
        let ty = match function.kind() {
            "method_declaration" => function.child_by_field_name("returns"),
            "local_function_statement"
            | "operator_declaration"
            | "conversion_operator_declaration" => function.child_by_field_name("type"),
            "accessor_declaration" => {
                let getter = children(function).iter().any(|c| file.text_of(*c) == "get");
                if getter {
                    function
                        .parent()
                        .and_then(|list| list.parent())
                        .and_then(|prop| prop.child_by_field_name("type"))
                } else {
                    None
                }
            }
            _ => None,
        };
        let plain_returns = match function.kind() {
            "constructor_declaration" | "destructor_declaration" | "compilation_unit" => true,
            "accessor_declaration" if ty.is_none() => true,
            "lambda_expression" | "anonymous_method_expression" => false,
            _ => ty.is_some_and(|t| plain_type(file, t, is_async, iterator)),
        };
        FunctionInfo {
            is_async,
            plain_returns,
        }
    }
}

fn ancestors_until<'t>(node: Node<'t>, stop: Node<'t>) -> impl Iterator<Item = Node<'t>> {
    std::iter::successors(node.parent(), move |n| n.parent()).take_while(move |n| *n != stop)
}

/// Whether values of a return type cannot hold a resource: `void`, numbers,
/// `bool`, `char`, `string`, their nullables, and for an async method the
/// result of `Task<T>`, for an iterator the elements of `IEnumerable<T>`.
fn plain_type(file: &File<'_>, ty: Node, is_async: bool, iterator: bool) -> bool {
    const PLAIN: &[&str] = &[
        "void", "bool", "byte", "sbyte", "char", "decimal", "double", "float", "int", "uint",
        "nint", "nuint", "long", "ulong", "short", "ushort", "string",
    ];
    match ty.kind() {
        "predefined_type" => PLAIN.contains(&file.text_of(ty)),
        "nullable_type" => ty
            .child_by_field_name("type")
            .or_else(|| ty.named_child(0))
            .is_some_and(|t| plain_type(file, t, false, false)),
        "qualified_name" => ty
            .child_by_field_name("name")
            .is_some_and(|t| plain_type(file, t, is_async, iterator)),
        "identifier" => is_async && matches!(file.text_of(ty), "Task" | "ValueTask"),
        "generic_name" => {
            let name = ty.named_child(0).map(|n| file.text_of(n)).unwrap_or("");
            let args: Vec<Node> = ty.named_child(1).map(named_children).unwrap_or_default();
            let [arg] = args.as_slice() else {
                return false;
            };
            match name {
                "Task" | "ValueTask" if is_async => plain_type(file, *arg, false, false),
                "IEnumerable" | "IEnumerator" | "IAsyncEnumerable" | "IAsyncEnumerator"
                    if iterator =>
                {
                    plain_type(file, *arg, false, false)
                }
                _ => false,
            }
        }
        _ => false,
    }
}

/// A local declaration of the leaked value.
struct Local<'t> {
    statement: Node<'t>,
    name: Node<'t>,
    facts: TypeFacts,
}

impl<'t> Local<'t> {
    fn of(
        file: &File<'t>,
        declarator: Node<'t>,
        value: Node<'t>,
        alloc: Node<'t>,
        r: &LeakRequest,
        cx: &dyn Context,
    ) -> Result<Local<'t>, NoFix> {
        let declaration = declarator
            .parent()
            .filter(|d| d.kind() == "variable_declaration")
            .ok_or(NoFix::NotFound)?;
        let statement = declaration
            .parent()
            .filter(|s| s.kind() == "local_declaration_statement")
            .ok_or(NoFix::Shape(
                "it is declared in a `for`, `using` or `fixed` header",
            ))?;
        if children(statement).iter().any(|c| {
            matches!(c.kind(), "using" | "await" | "modifier")
                || matches!(file.text_of(*c), "const" | "ref" | "scoped")
        }) {
            return Err(NoFix::Shape("the declaration has modifiers"));
        }
        let declarators: Vec<Node> = named_children(declaration)
            .into_iter()
            .filter(|c| c.kind() == "variable_declarator")
            .collect();
        if declarators.len() != 1 {
            return Err(NoFix::Shape("the declaration declares several variables"));
        }
        let name = declarator
            .child_by_field_name("name")
            .filter(|n| n.kind() == "identifier")
            .ok_or(NoFix::Shape("the declaration deconstructs the value"))?;
        let implicit = declaration
            .child_by_field_name("type")
            .is_some_and(|t| t.kind() == "implicit_type");
        let range = TextRange::new(declarator.start_byte() as u32, declarator.end_byte() as u32);
        let facts = cx
            .local(file.text_of(name), range)
            .filter(|f| f.disposable || f.async_disposable)
            .or_else(|| (implicit && value == alloc && !r.receiver).then_some(r.value))
            .ok_or(NoFix::NotDisposable)?;
        Ok(Local {
            statement,
            name,
            facts,
        })
    }
}

/// `using var x = ...;` (C# 8), or `using (var x = ...) { rest of the block }`.
fn using_local(
    file: &File<'_>,
    local: &Local<'_>,
    f: &FunctionInfo,
    options: &FixOptions,
) -> Result<Planned, NoFix> {
    let stmt = local.statement;
    let parent = stmt.parent().ok_or(NoFix::NotFound)?;
    let name = file.text_of(local.name);
    if options.using_declarations {
        if !matches!(parent.kind(), "block" | "global_statement") {
            return Err(NoFix::Shape("the declaration is not directly in a block"));
        }
        let keyword = using_keyword(local.facts, f, options)?;
        return Ok(Planned {
            edits: vec![Edit::insert(stmt.start_byte(), format!("{keyword} "), 1)],
            summary: format!("`{keyword} var {name}`"),
        });
    }
    if !local.facts.disposable {
        return Err(NoFix::NotDisposable);
    }
    if parent.kind() != "block" || !file.on_own_lines(stmt) {
        return Err(NoFix::Shape(
            "the declaration does not stand on its own lines in a block",
        ));
    }
    let semicolon = children(stmt)
        .into_iter()
        .rfind(|c| c.kind() == ";")
        .ok_or(NoFix::NotFound)?;
    let mut edits = vec![
        Edit::insert(stmt.start_byte(), "using (".into(), 1),
        Edit {
            start: semicolon.start_byte(),
            end: semicolon.end_byte(),
            text: ")".into(),
            rank: 1,
        },
    ];
    edits.extend(wrap_rest(
        file,
        parent,
        stmt,
        file.layout.next_line_start(stmt.end_byte()),
    )?);
    Ok(Planned {
        edits,
        summary: format!("`using (var {name} = ...) {{ ... }}`"),
    })
}

/// `using`, or `await using` for an async-disposable value in an async method.
fn using_keyword(
    facts: TypeFacts,
    f: &FunctionInfo,
    options: &FixOptions,
) -> Result<&'static str, NoFix> {
    if f.is_async && facts.async_disposable && options.using_declarations {
        Ok("await using")
    } else if facts.disposable {
        Ok("using")
    } else {
        Err(NoFix::NotDisposable)
    }
}

/// A `{` line at `from`, the lines from there to the block's closing brace
/// indented, and a `}` line before it: the rest of `block` after `after`
/// inside a new block.
fn wrap_rest(file: &File<'_>, block: Node, after: Node, from: usize) -> Result<Vec<Edit>, NoFix> {
    let close = children(block)
        .into_iter()
        .rfind(|c| c.kind() == "}")
        .ok_or(NoFix::NotFound)?;
    if !file.layout.at_line_start(close.start_byte()) {
        return Err(NoFix::Shape(
            "the block's closing brace does not start a line",
        ));
    }
    let rest: Vec<Node> = named_children(block)
        .into_iter()
        .filter(|c| c.start_byte() > after.start_byte() && c.kind() != "comment")
        .collect();
    if rest.iter().any(|c| c.kind() == "local_function_statement") {
        return Err(NoFix::Shape("a local function follows in the block"));
    }
    if rest.iter().any(|c| c.start_byte() < from) {
        return Err(NoFix::Shape("code follows on the same line"));
    }
    let at = after.start_byte();
    let (ind, eol) = (file.layout.indent(at), file.layout.eol(at));
    let unit = file.indent_unit(block);
    let close_line = file.layout.line_start(close.start_byte());
    let mut edits = vec![Edit::insert(from, format!("{ind}{{{eol}"), 0)];
    edits.extend(file.indent_lines(from, close_line, &unit));
    edits.push(Edit::insert(close_line, format!("{ind}}}{eol}"), 0));
    Ok(edits)
}

/// Moves a temporary into a `using` declaration before its statement.
fn hoist(
    file: &File<'_>,
    value: Node,
    statement: Node,
    r: &LeakRequest,
    cx: &dyn Context,
    f: &FunctionInfo,
    options: &FixOptions,
) -> Result<Planned, NoFix> {
    let block = statement.parent().ok_or(NoFix::NotFound)?;
    if block.kind() != "block" {
        return Err(NoFix::Shape("its statement is not directly in a block"));
    }
    if !file.layout.at_line_start(statement.start_byte()) {
        return Err(NoFix::Shape("its statement does not start a line"));
    }
    let allowed = match statement.kind() {
        "expression_statement" | "local_declaration_statement" | "return_statement" => true,
        "if_statement" | "switch_statement" => statement
            .child_by_field_name("condition")
            .or_else(|| statement.child_by_field_name("value"))
            .is_some_and(|c| within(value, c)),
        "foreach_statement" => statement
            .child_by_field_name("right")
            .is_some_and(|c| within(value, c)),
        _ => false,
    };
    if !allowed
        || children(statement)
            .iter()
            .any(|c| matches!(c.kind(), "using" | "await"))
    {
        return Err(NoFix::Shape(
            "it is made where a declaration cannot go before it",
        ));
    }
    if statement.kind() == "return_statement" && !f.plain_returns {
        return Err(NoFix::Escapes("the method returns what it is used for"));
    }
    evaluated_once(value, statement)?;
    movable(file, value)?;
    evaluated_before_is_pure(file, value, statement)?;
    let function = file.function_of(statement);
    // What the statement keeps of the value must not escape either.
    let escape = Escape {
        file,
        function,
        cx,
        plain_returns: f.plain_returns,
    };
    escape.check_expression(value)?;
    let facts = r.value;
    let keyword = using_keyword(facts, f, options)?;
    let name = fresh_name(file, statement, &r.type_name);
    let value_text = file.text_of(value);
    let at = statement.start_byte();
    let line = file.layout.line_start(at);
    let (ind, eol) = (file.layout.indent(at), file.layout.eol(at));
    let replace = Edit {
        start: value.start_byte(),
        end: value.end_byte(),
        text: name.clone(),
        rank: 1,
    };
    if options.using_declarations {
        return Ok(Planned {
            edits: vec![
                Edit::insert(
                    line,
                    format!("{ind}{keyword} var {name} = {value_text};{eol}"),
                    0,
                ),
                replace,
            ],
            summary: format!("`{keyword} var {name}` before the statement"),
        });
    }
    if !facts.disposable {
        return Err(NoFix::NotDisposable);
    }
    let mut edits = vec![
        Edit::insert(
            line,
            format!("{ind}using (var {name} = {value_text}){eol}"),
            0,
        ),
        replace,
    ];
    edits.extend(wrap_rest(file, block, statement, line)?);
    // The `{` line goes after the `using (...)` line, before the indentation.
    Ok(Planned {
        edits,
        summary: format!("`using (var {name} = ...)` around the statement"),
    })
}

/// The value is computed exactly once whenever its statement runs: not in a
/// branch of `?:`, `&&`, `||`, `??`, `?.`, a `switch` arm, a query or a lambda.
fn evaluated_once(value: Node, statement: Node) -> Result<(), NoFix> {
    let mut child = value;
    while let Some(p) = child.parent() {
        if p == statement {
            return Ok(());
        }
        let conditional = match p.kind() {
            "conditional_expression" => p.child_by_field_name("condition") != Some(child),
            "binary_expression" => {
                let op = p.child_by_field_name("operator").map(|o| o.kind());
                matches!(op, Some("&&" | "||" | "??"))
                    && p.child_by_field_name("right") == Some(child)
            }
            "conditional_access_expression" => p.child_by_field_name("condition") != Some(child),
            "switch_expression" => p.named_child(0) != Some(child),
            "query_expression" | "lambda_expression" | "anonymous_method_expression" => true,
            _ => false,
        };
        if conditional {
            return Err(NoFix::Shape(
                "it is evaluated only on some paths of its statement",
            ));
        }
        child = p;
    }
    Err(NoFix::NotFound)
}

/// The value's own expression can move before its statement: it declares
/// nothing, assigns nothing and holds no lambda.
fn movable(file: &File<'_>, value: Node) -> Result<(), NoFix> {
    for n in descendants(value) {
        let bad = match n.kind() {
            "assignment_expression"
            | "declaration_expression"
            | "declaration_pattern"
            | "lambda_expression"
            | "anonymous_method_expression"
            | "ref_expression" => true,
            "prefix_unary_expression" | "postfix_unary_expression" => {
                let t = file.text_of(n);
                t.contains("++") || t.contains("--")
            }
            "argument" => children(n)
                .iter()
                .any(|c| matches!(c.kind(), "ref" | "out")),
            _ => false,
        };
        if bad {
            return Err(NoFix::Shape("it assigns, declares or captures something"));
        }
    }
    Ok(())
}

/// What the statement evaluates before the value has no side effects, so
/// that evaluating the value first changes nothing: constants, locals and
/// parameters, `this`, type names, and the receivers and method groups of
/// the calls the value is an argument of.
fn evaluated_before_is_pure(file: &File<'_>, value: Node, statement: Node) -> Result<(), NoFix> {
    let function = file.function_of(statement);
    let mut child = value;
    while let Some(p) = child.parent() {
        if p == statement {
            break;
        }
        for sibling in named_children(p) {
            if sibling.end_byte() > child.start_byte() {
                break;
            }
            // What a declaration declares is not evaluated.
            let declared = matches!(p.kind(), "variable_declarator" | "variable_declaration")
                && (p.child_by_field_name("name") == Some(sibling)
                    || p.child_by_field_name("type") == Some(sibling));
            if declared || sibling.kind() == "comment" {
                continue;
            }
            let method_group = p.kind() == "invocation_expression"
                && p.child_by_field_name("function") == Some(sibling);
            if !pure(file, sibling, function, method_group) {
                return Err(NoFix::Shape(
                    "its statement evaluates code with side effects before it",
                ));
            }
        }
        child = p;
    }
    Ok(())
}

fn pure(file: &File<'_>, n: Node, function: Node, method_group: bool) -> bool {
    let kind = n.kind();
    if kind.ends_with("_literal") || kind == "predefined_type" {
        return true;
    }
    match kind {
        "this_expression" | "base_expression" | "this" | "base" | "typeof_expression"
        | "default_expression" | "sizeof_expression" => true,
        "identifier" => method_group || is_local(file, n, function),
        "generic_name" | "qualified_name" | "alias_qualified_name" => true,
        "member_access_expression" => {
            method_group
                && n.child_by_field_name("expression")
                    .is_some_and(|e| pure(file, e, function, true))
        }
        "argument" | "parenthesized_expression" => n
            .named_child((n.named_child_count() as u32).saturating_sub(1))
            .is_some_and(|e| pure(file, e, function, false)),
        "cast_expression" => n
            .child_by_field_name("value")
            .is_some_and(|e| pure(file, e, function, false)),
        "prefix_unary_expression" => {
            let t = file.text_of(n);
            !(t.contains("++") || t.contains("--"))
                && named_children(n)
                    .iter()
                    .all(|c| pure(file, *c, function, false))
        }
        "interpolated_string_expression" => named_children(n)
            .iter()
            .flat_map(|c| named_children(*c))
            .all(|c| pure(file, c, function, false) || c.kind().contains("string")),
        _ => false,
    }
}

/// Whether an identifier names a local or parameter of the function (not a
/// field or a property, which code run meanwhile could change).
fn is_local(file: &File<'_>, ident: Node, function: Node) -> bool {
    let name = file.text_of(ident);
    descendants(function).iter().any(|n| {
        n.kind() == "identifier"
            && file.text_of(*n) == name
            && n.start_byte() < ident.start_byte()
            && n.parent().is_some_and(|p| {
                matches!(
                    p.kind(),
                    "variable_declarator" | "parameter" | "declaration_expression"
                ) && p.child_by_field_name("name") == Some(*n)
            })
    })
}

/// A name for a hoisted value from its type (`FileStream` -> `fileStream`,
/// `IServiceScope` -> `serviceScope`), with a number when the enclosing type
/// uses it already.
fn fresh_name(file: &File<'_>, statement: Node, type_name: &str) -> String {
    let base = type_name.split(['<', '[', '?']).next().unwrap_or("");
    let base = base.rsplit('.').next().unwrap_or(base);
    let base = match base.strip_prefix('I') {
        Some(rest) if rest.starts_with(|c: char| c.is_ascii_uppercase()) => rest,
        _ => base,
    };
    let mut chars = base.chars();
    let camel: String = match chars.next() {
        Some(first) if first.is_alphabetic() || first == '_' => {
            first.to_lowercase().chain(chars).collect()
        }
        _ => "resource".into(),
    };
    let camel = if camel.chars().all(|c| c.is_alphanumeric() || c == '_') {
        camel
    } else {
        "resource".into()
    };
    let scope = std::iter::successors(Some(statement), |n| n.parent())
        .find(|n| {
            matches!(
                n.kind(),
                "class_declaration"
                    | "struct_declaration"
                    | "record_declaration"
                    | "interface_declaration"
            )
        })
        .unwrap_or(file.root);
    let taken: std::collections::HashSet<&str> = descendants(scope)
        .into_iter()
        .filter(|n| n.kind() == "identifier")
        .map(|n| file.text_of(n))
        .collect();
    (1..)
        .map(|i| {
            if i == 1 {
                camel.clone()
            } else {
                format!("{camel}{i}")
            }
        })
        .find(|n| !taken.contains(n.as_str()) && !is_keyword(n))
        .unwrap_or(camel)
}

/// `var x = ...; a; b; x.Dispose();` -> `var x = ...; try { a; b; } finally { x.Dispose(); }`
/// for a value disposed on the normal path but not when `a` or `b` throws.
fn try_finally(file: &File<'_>, local: &Local<'_>) -> Result<Planned, NoFix> {
    let stmt = local.statement;
    let block = stmt
        .parent()
        .filter(|b| b.kind() == "block")
        .ok_or(NoFix::Shape("the declaration is not directly in a block"))?;
    let name = file.text_of(local.name);
    let siblings: Vec<Node> = named_children(block);
    let at = siblings
        .iter()
        .position(|s| *s == stmt)
        .ok_or(NoFix::NotFound)?;
    let dispose_at = siblings[at + 1..]
        .iter()
        .position(|s| disposes(file, *s, name))
        .map(|i| at + 1 + i)
        .ok_or(NoFix::Shape("no statement of its block disposes it"))?;
    let between = &siblings[at + 1..dispose_at];
    let after = &siblings[dispose_at + 1..];
    let dispose = siblings[dispose_at];
    if between.is_empty() {
        return Err(NoFix::Shape(
            "nothing between its creation and its disposal",
        ));
    }
    // Locals declared in the new `try` block must not be used after it.
    let mut names: Vec<&str> = vec![name];
    for s in between {
        if s.kind() == "local_function_statement" {
            return Err(NoFix::Shape(
                "a local function is declared before its disposal",
            ));
        }
        if s.kind() == "local_declaration_statement" {
            names.extend(
                descendants(*s)
                    .into_iter()
                    .filter(|n| {
                        n.kind() == "identifier"
                            && n.parent().is_some_and(|p| {
                                p.kind() == "variable_declarator"
                                    && p.child_by_field_name("name") == Some(*n)
                            })
                    })
                    .map(|n| file.text_of(n)),
            );
        }
    }
    let used_after = after
        .iter()
        .flat_map(|s| descendants(*s))
        .any(|n| n.kind() == "identifier" && names.contains(&file.text_of(n)));
    if used_after {
        return Err(NoFix::Shape(
            "a variable it would enclose is used after its disposal",
        ));
    }
    let first = between[0];
    let layout = &file.layout;
    if !file.rest_is_blank(stmt.end_byte())
        || !layout.at_line_start(first.start_byte())
        || !file.on_own_lines(dispose)
        || !between.iter().all(|s| layout.at_line_start(s.start_byte()))
    {
        return Err(NoFix::Shape(
            "its statements do not stand on their own lines",
        ));
    }
    let (ind, eol) = (
        layout.indent(stmt.start_byte()),
        layout.eol(stmt.start_byte()),
    );
    let unit = file.indent_unit(block);
    let try_from = layout.line_start(first.start_byte());
    let dispose_line = layout.line_start(dispose.start_byte());
    let dispose_end = layout.next_line_start(dispose.end_byte());
    let mut edits = vec![Edit::insert(
        try_from,
        format!("{ind}try{eol}{ind}{{{eol}"),
        0,
    )];
    edits.extend(file.indent_lines(try_from, dispose_line, &unit));
    edits.push(Edit::insert(
        dispose_line,
        format!("{ind}}}{eol}{ind}finally{eol}{ind}{{{eol}"),
        0,
    ));
    edits.extend(file.indent_lines(dispose_line, dispose_end, &unit));
    edits.push(Edit::insert(dispose_end, format!("{ind}}}{eol}"), 0));
    Ok(Planned {
        edits,
        summary: format!("`try`/`finally` disposing `{name}`"),
    })
}

/// `x.Dispose();`, `x?.Close();`, `await x.DisposeAsync();`.
fn disposes(file: &File<'_>, statement: Node, name: &str) -> bool {
    if statement.kind() != "expression_statement" {
        return false;
    }
    let Some(mut e) = statement.named_child(0) else {
        return false;
    };
    if e.kind() == "await_expression"
        && let Some(inner) = e.named_child(0)
    {
        e = inner;
    }
    if e.kind() != "invocation_expression"
        || e.child_by_field_name("arguments")
            .is_some_and(|a| a.named_child_count() > 0)
    {
        return false;
    }
    let Some(f) = e.child_by_field_name("function") else {
        return false;
    };
    let (receiver, method) = match f.kind() {
        "member_access_expression" => (
            f.child_by_field_name("expression"),
            f.child_by_field_name("name"),
        ),
        "conditional_access_expression" => (
            f.child_by_field_name("condition"),
            f.named_child(1).and_then(|b| b.child_by_field_name("name")),
        ),
        _ => (None, None),
    };
    receiver.is_some_and(|r| r.kind() == "identifier" && file.text_of(r) == name)
        && method.is_some_and(|m| matches!(file.text_of(m), "Dispose" | "Close" | "DisposeAsync"))
}
