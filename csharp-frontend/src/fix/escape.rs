//! Whether a local stays inside its method: the condition for disposing it
//! at the end of its block. A syntactic analysis of the function that
//! declares it, with the analysis' types for the locals derived from it:
//!
//! - the variable is never assigned again, incremented, or passed by `ref`,
//!   `out` or `in` (C# forbids that of a `using` variable anyway);
//! - it is not captured by a lambda, anonymous method or local function (the
//!   closure may run after the block ends);
//! - no expression holding it is returned, yielded or thrown, unless the
//!   method returns plain values (numbers, `bool`, `string`, `void`), nor
//!   stored anywhere but in a local of the method;
//! - every local such an expression is stored in (`var cmd =
//!   conn.CreateCommand()`, `foreach (var row in reader)`, `out var n`), and
//!   every local whose method it is passed to (`list.Add(x)`), obeys the same
//!   rules, unless its type is plain.
//!
//! Arguments of other calls are taken to be borrowed for the call, as the
//! checker takes parameters to be not owning.

use tree_sitter::Node;

use super::syntax::{File, NESTED_FUNCTIONS, children, descendants, within};
use super::{Context, NoFix};
use crate::hir::TextRange;

/// Kinds whose `name` child declares a local.
const DECLARING: &[&str] = &[
    "variable_declarator",
    "declaration_expression",
    "declaration_pattern",
    "catch_declaration",
    "parameter",
    "local_function_statement",
    "from_clause",
    "let_clause",
    "join_clause",
    "query_continuation",
    "tuple_pattern",
    "recursive_pattern",
    "var_pattern",
];

/// Statement kinds: where climbing from a use stops.
fn is_statement(kind: &str) -> bool {
    kind.ends_with("_statement") || kind == "block" || kind == "switch_section"
}

pub(super) struct Escape<'f, 't> {
    pub file: &'f File<'t>,
    pub function: Node<'t>,
    pub cx: &'f dyn Context,
    /// Values the function returns or yields cannot hold a resource.
    pub plain_returns: bool,
}

impl<'t> Escape<'_, 't> {
    /// Checks that the local declared by `declarator` (its name node) stays
    /// in the function.
    pub fn check(&self, name: Node<'t>) -> Result<(), NoFix> {
        self.follow(vec![(name, true)])
    }

    /// Checks that what the statement holding `value` (an expression, not a
    /// variable) keeps of it stays in the function.
    pub fn check_expression(&self, value: Node<'t>) -> Result<(), NoFix> {
        let derived = self.check_use(value, false)?;
        self.follow(derived.into_iter().map(|d| (d, false)).collect())
    }

    /// Checks the uses of each declared local; `true` marks the resource itself.
    fn follow(&self, mut work: Vec<(Node<'t>, bool)>) -> Result<(), NoFix> {
        let mut seen: Vec<usize> = Vec::new();
        while let Some((decl, resource)) = work.pop() {
            if seen.contains(&decl.start_byte()) {
                continue;
            }
            seen.push(decl.start_byte());
            let var = self.file.text_of(decl);
            if resource && self.declarations_of(var).len() > 1 {
                return Err(NoFix::Escapes(
                    "another variable of the function has the same name",
                ));
            }
            for r in self.references(var, decl) {
                for derived in self.check_use(r, resource)? {
                    work.push((derived, false));
                }
            }
        }
        Ok(())
    }

    /// The name nodes declaring `var` in the function.
    fn declarations_of(&self, var: &str) -> Vec<Node<'t>> {
        descendants(self.function)
            .into_iter()
            .filter(|n| n.kind() == "identifier" && self.file.text_of(*n) == var)
            .filter(|n| is_declaration(*n))
            .collect()
    }

    /// The uses of `var` in the function after its declaration.
    fn references(&self, var: &str, decl: Node<'t>) -> Vec<Node<'t>> {
        descendants(self.function)
            .into_iter()
            .filter(|n| {
                n.kind() == "identifier"
                    && n.start_byte() > decl.start_byte()
                    && self.file.text_of(*n) == var
                    && is_reference(*n)
            })
            .collect()
    }

    /// Follows a use up to its statement; returns the declarations of the
    /// locals that receive a value derived from it.
    fn check_use(&self, r: Node<'t>, resource: bool) -> Result<Vec<Node<'t>>, NoFix> {
        let mut derived = Vec::new();
        let mut child = r;
        let mut node = r.parent().ok_or(NoFix::NotFound)?;
        loop {
            let kind = node.kind();
            if NESTED_FUNCTIONS.contains(&kind) && node != self.function {
                // A lambda run by the call it is passed to; what the call
                // returns is derived from it.
                child = self.run_now(node)?;
                node = child.parent().ok_or(NoFix::NotFound)?;
                continue;
            }
            if node == self.function || is_statement(kind) {
                break;
            }
            match kind {
                "assignment_expression" => {
                    let left = node.child_by_field_name("left");
                    if left == Some(child) {
                        // Written to, or a member of it written to.
                        if child == r && resource {
                            return Err(NoFix::Escapes("it is assigned again"));
                        }
                        break;
                    }
                    if left.is_some_and(|l| within(child, l)) {
                        // `x.P = ...`, `a[x.I] = ...`: a receiver or an index.
                        break;
                    }
                    match left {
                        Some(l) if l.kind() == "identifier" && self.is_local(l) => {
                            derived.extend(self.declaration_of(l));
                        }
                        _ => {
                            return Err(NoFix::Escapes("it is stored outside the method's locals"));
                        }
                    }
                }
                "prefix_unary_expression" | "postfix_unary_expression" => {
                    let op = self.file.text_of(node);
                    if child == r && (op.contains("++") || op.contains("--")) && resource {
                        return Err(NoFix::Escapes("it is assigned again"));
                    }
                }
                "argument" => {
                    let by_ref = children(node)
                        .iter()
                        .any(|c| matches!(c.kind(), "ref" | "out" | "in"));
                    if by_ref {
                        return Err(NoFix::Escapes("it is passed by reference"));
                    }
                    // `list.Add(x)`: the receiver may keep it.
                    if child == r
                        && let Some(root) = node
                            .parent()
                            .and_then(|list| list.parent())
                            .filter(|call| call.kind() == "invocation_expression")
                            .and_then(|call| call.child_by_field_name("function"))
                            .filter(|f| f.kind() == "member_access_expression")
                            .and_then(|f| f.child_by_field_name("expression"))
                            .and_then(receiver_root)
                    {
                        derived.extend(self.receiver_keeps(root)?);
                    }
                }
                "ref_expression" => return Err(NoFix::Escapes("it is passed by reference")),
                "throw_expression" => return Err(NoFix::Escapes("it is thrown")),
                "arrow_expression_clause" => {
                    if !self.plain_returns {
                        return Err(NoFix::Escapes("it is returned"));
                    }
                    break;
                }
                "variable_declarator" => {
                    if let Some(name) = node.child_by_field_name("name") {
                        derived.push(name);
                    }
                    break;
                }
                _ => {}
            }
            child = node;
            node = match node.parent() {
                Some(p) => p,
                None => break,
            };
        }
        // What the statement does with the expression.
        match node.kind() {
            "return_statement" | "yield_statement" if !self.plain_returns => {
                return Err(NoFix::Escapes("it is returned"));
            }
            "throw_statement" => return Err(NoFix::Escapes("it is thrown")),
            "foreach_statement" if node.child_by_field_name("right") == Some(child) => {
                if let Some(left) = node.child_by_field_name("left") {
                    derived.extend(
                        descendants(left)
                            .into_iter()
                            .filter(|n| n.kind() == "identifier"),
                    );
                }
            }
            _ => {}
        }
        // `out var n`, `is Foo f` in the same expression receive derived values too.
        derived.extend(
            descendants(child)
                .into_iter()
                .filter(|n| n.kind() == "identifier" && is_declaration(*n) && *n != r),
        );
        Ok(derived.into_iter().filter(|d| !self.is_plain(*d)).collect())
    }

    /// A lambda that captures the value: it must run during the call it is
    /// passed to, not later (a call named `...Async` must be awaited, and
    /// `Task.Run`, `ContinueWith`, `Register`, constructors such as
    /// `new Thread(...)` defer it). Returns the call, whose result is derived.
    fn run_now(&self, lambda: Node<'t>) -> Result<Node<'t>, NoFix> {
        const DEFERRING: &[&str] = &[
            "Run",
            "StartNew",
            "ContinueWith",
            "QueueUserWorkItem",
            "UnsafeQueueUserWorkItem",
            "Register",
            "Subscribe",
            "Schedule",
            "Post",
            "Send",
            "BeginInvoke",
        ];
        let captured = || NoFix::Escapes("a lambda or local function captures it");
        if lambda.kind() == "local_function_statement" {
            return Err(captured());
        }
        let call = lambda
            .parent()
            .filter(|a| a.kind() == "argument")
            .and_then(|a| a.parent())
            .and_then(|list| list.parent())
            .filter(|c| c.kind() == "invocation_expression")
            .ok_or_else(captured)?;
        let function = call.child_by_field_name("function").ok_or_else(captured)?;
        let name_node = match function.kind() {
            "member_access_expression" => function.child_by_field_name("name"),
            _ => Some(function),
        };
        let name = name_node.map(|n| self.file.text_of(n)).unwrap_or("");
        let name = name.split('<').next().unwrap_or(name);
        let awaited = call.parent().is_some_and(|p| {
            p.kind() == "await_expression" || self.file.text_of(p).starts_with("await ")
        });
        if DEFERRING.contains(&name) || (name.ends_with("Async") && !awaited) {
            return Err(captured());
        }
        Ok(call)
    }

    /// A method of this receiver is given the value: a local receiver is
    /// followed like the value; a parameter or a field (`_cache`, `cache`)
    /// holds objects that outlive the method. Type names and properties
    /// (`Assert`, `Console`) are taken to borrow it for the call.
    fn receiver_keeps(&self, root: Node<'t>) -> Result<Vec<Node<'t>>, NoFix> {
        let kept = || NoFix::Escapes("it is passed to an object that outlives the method");
        if root.kind() != "identifier" {
            return Err(kept());
        }
        match self.declaration_of(root) {
            Some(decl) if decl.parent().is_some_and(|p| p.kind() == "parameter") => Err(kept()),
            Some(decl) => Ok(vec![decl]),
            None => {
                let first = self.file.text_of(root).chars().next().unwrap_or('_');
                if first == '_' || first.is_lowercase() {
                    Err(kept())
                } else {
                    Ok(Vec::new())
                }
            }
        }
    }

    /// Whether the declared local's type cannot hold a resource.
    fn is_plain(&self, name: Node<'t>) -> bool {
        let Some(decl) = name.parent() else {
            return false;
        };
        let range = TextRange::new(decl.start_byte() as u32, decl.end_byte() as u32);
        self.cx
            .local(self.file.text_of(name), range)
            .is_some_and(|t| t.plain)
    }

    /// Whether an identifier names a local (or parameter) of the function.
    fn is_local(&self, ident: Node<'t>) -> bool {
        !self.declarations_of(self.file.text_of(ident)).is_empty()
    }

    fn declaration_of(&self, ident: Node<'t>) -> Option<Node<'t>> {
        self.declarations_of(self.file.text_of(ident))
            .into_iter()
            .find(|d| d.start_byte() < ident.start_byte())
    }
}

/// The variable a member access chain starts from (`a` of `a.B.C`), or
/// `this`/`base` or another expression.
fn receiver_root(mut e: Node) -> Option<Node> {
    loop {
        match e.kind() {
            "member_access_expression" | "element_access_expression" => {
                e = e.child_by_field_name("expression")?;
            }
            "invocation_expression" => e = e.child_by_field_name("function")?,
            "parenthesized_expression" => e = e.named_child(0)?,
            _ => return Some(e),
        }
    }
}

/// Whether an identifier node declares a local or parameter.
fn is_declaration(n: Node) -> bool {
    let Some(p) = n.parent() else {
        return false;
    };
    let kind = p.kind();
    if kind == "foreach_statement" {
        return p.child_by_field_name("left") == Some(n);
    }
    if matches!(kind, "single_variable_designation" | "tuple_pattern") {
        return true;
    }
    DECLARING.contains(&kind) && p.child_by_field_name("name") == Some(n)
}

/// Whether an identifier node reads a variable (not a member, a type, a
/// named argument, an initializer's member or a declaration).
fn is_reference(n: Node) -> bool {
    let Some(p) = n.parent() else {
        return false;
    };
    if is_declaration(n) {
        return false;
    }
    match p.kind() {
        "member_access_expression" | "member_binding_expression" => {
            p.child_by_field_name("name") != Some(n)
        }
        "argument" | "attribute_argument" => p.child_by_field_name("name") != Some(n),
        "assignment_expression" => {
            // `new T { Name = v }`: a member of the new object.
            !(p.child_by_field_name("left") == Some(n)
                && p.parent()
                    .is_some_and(|g| g.kind() == "initializer_expression"))
        }
        "anonymous_object_creation_expression" => n.next_sibling().is_none_or(|s| s.kind() != "="),
        "subpattern" | "name_colon" | "name_equals" | "goto_statement" | "labeled_statement" => {
            false
        }
        "generic_name" | "qualified_name" | "type_argument_list" | "type_parameter" => false,
        _ => {
            !p.child_by_field_name("type").is_some_and(|t| t == n)
                && !p.child_by_field_name("returns").is_some_and(|t| t == n)
        }
    }
}
