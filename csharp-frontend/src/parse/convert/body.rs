//! Bodies: statements, local scopes and functions. Expressions and patterns
//! are in [`super::expr`].
//!
//! Scoping follows C#: blocks open a scope; expression variables (`out var`,
//! pattern variables) declared in an `if` condition, an expression statement or
//! a local declaration live in the enclosing block, those of `while`, `for`,
//! `foreach`, `using`, `lock`, `fixed` and switch sections stay in that statement;
//! local functions are visible in their whole block; lambda parameters shadow.

use rlc_core::ir::fit;
use rustc_hash::FxHashMap;
use tree_sitter::Node;

use super::initializer_of;
use super::kinds::{F, K};
use super::syn::Syn;
use crate::hir::{
    Attribute, Binding, BindingId, BindingKind, Body, BodyRoot, CatchClause, CtorInit,
    CtorInitKind, ForeachTarget, Function, GotoTarget, LambdaBody, LocalDecl, Modifiers, Name,
    Param, ParamModifier, SkipReason, Stmt, StmtId, SwitchLabel, SwitchSection, TextRange, TypeRef,
    UsingMode, UsingResource,
};

/// Nesting of statements, expressions and patterns beyond which a body is
/// cut (the deeper part becomes `Missing`) and skipped: it protects this
/// converter and every later phase that walks the HIR recursively.
pub(crate) const MAX_DEPTH: u32 = 500;

/// Stack the conversion may use, whatever the depth: frames are much larger in
/// unoptimised builds, and threads (rayon's, the test harness's) have 2 MiB.
const STACK_BUDGET: usize = 1 << 20;

pub(crate) struct BodyBuilder<'s, 't> {
    pub(super) syn: &'s Syn<'s, 't>,
    pub(super) body: Body,
    /// Names declared in the open scopes, innermost last.
    scope: Vec<Name>,
    /// The bindings of each name in scope, innermost last: a hash lookup, as a
    /// scan of `scope` makes a method with thousands of locals quadratic.
    names: FxHashMap<Name, Vec<BindingId>>,
    /// Where each open scope starts in `scope`.
    marks: Vec<usize>,
    depth: u32,
    too_deep: Option<TextRange>,
    /// Nesting of lambdas and local functions.
    fn_depth: u32,
    has_async_fn: bool,
    /// An `await` outside lambdas and local functions (top-level statements
    /// that await run as an async `Main`).
    pub(super) awaits: bool,
    /// Kind given to variables declared by declaration expressions right now.
    pub(super) decl_kind: BindingKind,
    /// Local functions declared ahead of their statement (by node id).
    local_fns: Vec<(usize, BindingId)>,
    /// Operator nodes rebuilt when a misnested `?.` was moved under them.
    pub(super) rotated: Vec<crate::hir::ExprId>,
}

impl<'s, 't> BodyBuilder<'s, 't> {
    pub fn new(syn: &'s Syn<'s, 't>, range: TextRange) -> BodyBuilder<'s, 't> {
        BodyBuilder {
            syn,
            body: Body {
                range,
                ..Body::default()
            },
            scope: Vec::new(),
            names: FxHashMap::default(),
            marks: Vec::new(),
            depth: 0,
            too_deep: None,
            fn_depth: 0,
            has_async_fn: false,
            awaits: false,
            decl_kind: BindingKind::Local,
            local_fns: Vec::new(),
            rotated: Vec::new(),
        }
    }

    /// Declares the method's parameters (`Param(i)`).
    pub fn params(&mut self, params: &[Param]) {
        for (i, p) in params.iter().enumerate() {
            let id = self.body.alloc_binding(Binding {
                name: p.name.clone(),
                ty: p.ty.clone(),
                kind: BindingKind::Param(i as u32),
                modifier: p.modifier,
                range: p.range,
            });
            self.body.params.push(id);
            self.declare(p.name.clone(), id);
        }
    }

    /// The implicit `value` of setters, `init` and event accessors.
    pub fn value_param(&mut self, ty: TypeRef, index: u32, range: TextRange) {
        let name = Name::new_inline("value");
        let id = self.body.alloc_binding(Binding {
            name: name.clone(),
            ty: Some(ty),
            kind: BindingKind::Param(index),
            modifier: ParamModifier::None,
            range: TextRange::new(range.start, range.start),
        });
        self.body.params.push(id);
        self.declare(name, id);
    }

    pub fn ctor_init_args(&mut self, args: Node<'t>, kind: CtorInitKind) -> CtorInit {
        CtorInit {
            kind,
            args: self.args(args),
            range: Syn::range(args),
        }
    }

    pub fn expr_root(&mut self, e: Node<'t>) -> crate::hir::ExprId {
        self.expr(e)
    }

    /// `{ ... }`, `=> e` or nothing.
    pub fn function_body(&mut self, n: Node<'t>) -> BodyRoot {
        match self.syn.kind(n) {
            K::Block => BodyRoot::Block(self.stmt(n)),
            K::ArrowExpressionClause => match self.syn.first_named(n) {
                Some(e) => BodyRoot::Expr(self.expr(e)),
                None => BodyRoot::Expr(
                    self.body
                        .alloc_expr(crate::hir::Expr::Missing, Syn::range(n)),
                ),
            },
            _ => BodyRoot::None,
        }
    }

    /// Top-level statements, as one block.
    pub fn top_level(&mut self, stmts: &[Node<'t>], range: TextRange) -> StmtId {
        self.push_scope();
        self.declare_local_functions(stmts);
        let ids: Vec<StmtId> = stmts.iter().map(|s| self.stmt(*s)).collect();
        self.pop_scope();
        self.body
            .alloc_stmt(Stmt::Block(ids.into_boxed_slice()), range)
    }

    pub fn finish(
        mut self,
        root: Option<BodyRoot>,
        ctor_init: Option<CtorInit>,
        is_async: bool,
        has_error: bool,
    ) -> Body {
        let b = &mut self.body;
        b.root = root;
        b.ctor_init = ctor_init;
        b.is_async = is_async || self.has_async_fn || self.awaits;
        if let Some(range) = self.too_deep {
            b.skip = Some(SkipReason::TooDeep);
            self.syn.limit_at(
                range,
                format!(
                    "nested too deeply (the limit is {MAX_DEPTH} levels); this body is not analysed"
                ),
            );
        } else if has_error {
            b.skip = Some(SkipReason::SyntaxError);
        }
        fit(&mut b.exprs);
        fit(&mut b.expr_ranges);
        fit(&mut b.stmts);
        fit(&mut b.stmt_ranges);
        fit(&mut b.pats);
        fit(&mut b.pat_ranges);
        fit(&mut b.bindings);
        fit(&mut b.params);
        self.body
    }

    // ---- scopes and bindings ----

    pub(super) fn push_scope(&mut self) {
        self.marks.push(self.scope.len());
    }

    pub(super) fn pop_scope(&mut self) {
        if let Some(mark) = self.marks.pop() {
            for name in self.scope.drain(mark.min(self.scope.len())..) {
                if let Some(ids) = self.names.get_mut(&name) {
                    ids.pop();
                    if ids.is_empty() {
                        self.names.remove(&name);
                    }
                }
            }
        }
    }

    fn declare(&mut self, name: Name, id: BindingId) {
        self.names.entry(name.clone()).or_default().push(id);
        self.scope.push(name);
    }

    pub(super) fn lookup(&self, name: &str) -> Option<BindingId> {
        self.names.get(name).and_then(|ids| ids.last().copied())
    }

    /// A new binding named by the identifier `name`, declared in the current scope.
    pub(super) fn bind(
        &mut self,
        name: Node<'t>,
        ty: Option<TypeRef>,
        kind: BindingKind,
    ) -> BindingId {
        self.bind_named(
            self.syn.name(name),
            Syn::range(name),
            ty,
            kind,
            ParamModifier::None,
        )
    }

    pub(super) fn bind_named(
        &mut self,
        name: Name,
        range: TextRange,
        ty: Option<TypeRef>,
        kind: BindingKind,
        modifier: ParamModifier,
    ) -> BindingId {
        let id = self.body.alloc_binding(Binding {
            name: name.clone(),
            ty,
            kind,
            modifier,
            range,
        });
        self.declare(name, id);
        id
    }

    /// The declared type, `None` for `var`.
    pub(super) fn declared_type(&self, ty: Option<Node<'t>>) -> Option<TypeRef> {
        match ty.map(|t| self.syn.type_ref(t)) {
            Some(TypeRef::Var) | None => None,
            Some(t) => Some(t),
        }
    }

    /// Whether conversion is outside every lambda and local function.
    pub(super) fn in_function_body(&self) -> bool {
        self.fn_depth == 0
    }

    // ---- depth ----

    /// Enters one nesting level; `false` (and the body marked) when too deep.
    pub(super) fn enter(&mut self, n: Node<'t>) -> bool {
        if self.depth >= MAX_DEPTH || self.syn.stack_used() > STACK_BUDGET {
            self.too_deep.get_or_insert(Syn::range(n));
            return false;
        }
        self.depth += 1;
        true
    }

    pub(super) fn leave(&mut self) {
        self.depth -= 1;
    }

    pub(super) fn remaining_depth(&self) -> u32 {
        MAX_DEPTH.saturating_sub(self.depth)
    }

    pub(super) fn mark_too_deep(&mut self, n: Node<'t>) {
        self.too_deep.get_or_insert(Syn::range(n));
    }

    // ---- statements ----

    pub(super) fn stmt(&mut self, n: Node<'t>) -> StmtId {
        let range = Syn::range(n);
        if !self.enter(n) {
            return self.body.alloc_stmt(Stmt::Missing, range);
        }
        let s = if n.has_error() && !errors_in_nested_statements(self.syn, n) {
            self.broken(n)
        } else {
            self.stmt_kind(n)
        };
        self.leave();
        self.body.alloc_stmt(s, range)
    }

    /// A statement with a syntax error of its own: the bindings in scope that
    /// it names (every word, since an ERROR node holds tokens, not names).
    fn broken(&mut self, n: Node<'t>) -> Stmt {
        let mut named: Vec<BindingId> = Vec::new();
        let mut cursor = n.walk();
        'walk: loop {
            let c = cursor.node();
            if c.child_count() == 0 {
                let word = self.syn.text(c);
                let word = word.strip_prefix('@').unwrap_or(word);
                if let Some(b) = self.lookup(word)
                    && !named.contains(&b)
                {
                    named.push(b);
                }
            }
            if cursor.goto_first_child() {
                continue;
            }
            // The cursor starts at `n`: it cannot leave it.
            while !cursor.goto_next_sibling() {
                if !cursor.goto_parent() {
                    break 'walk;
                }
            }
        }
        Stmt::Broken(named.into_boxed_slice())
    }

    /// An embedded statement (`if`/loop body): its own scope.
    fn embedded(&mut self, n: Option<Node<'t>>, parent: Node<'t>) -> StmtId {
        match n {
            Some(n) => {
                self.push_scope();
                let s = self.stmt(n);
                self.pop_scope();
                s
            }
            None => self.body.alloc_stmt(Stmt::Missing, Syn::range(parent)),
        }
    }

    fn opt_expr(&mut self, n: Option<Node<'t>>, parent: Node<'t>) -> crate::hir::ExprId {
        match n {
            Some(n) => self.expr(n),
            None => self
                .body
                .alloc_expr(crate::hir::Expr::Missing, Syn::range(parent)),
        }
    }

    fn if_stmt(&mut self, n: Node<'t>) -> Stmt {
        let syn = self.syn;
        let cond = self.opt_expr(syn.field(n, F::Condition), n);
        let then = self.embedded(syn.field(n, F::Consequence), n);
        let else_ = syn
            .field(n, F::Alternative)
            .map(|e| self.embedded(Some(e), n));
        Stmt::If { cond, then, else_ }
    }

    fn while_stmt(&mut self, n: Node<'t>) -> Stmt {
        let syn = self.syn;
        self.push_scope();
        let cond = self.opt_expr(syn.field(n, F::Condition), n);
        let body = self.embedded(syn.field(n, F::Body), n);
        self.pop_scope();
        Stmt::While { cond, body }
    }

    fn do_stmt(&mut self, n: Node<'t>) -> Stmt {
        let syn = self.syn;
        let body = self.embedded(syn.field(n, F::Body), n);
        self.push_scope();
        let cond = self.opt_expr(syn.field(n, F::Condition), n);
        self.pop_scope();
        Stmt::Do { body, cond }
    }

    fn lock_stmt(&mut self, n: Node<'t>) -> Stmt {
        let syn = self.syn;
        self.push_scope();
        let named = syn.named(n);
        let expr = self.opt_expr(named.first().copied(), n);
        let body = self.embedded(named.get(1).copied(), n);
        self.pop_scope();
        Stmt::Lock { expr, body }
    }

    fn fixed_stmt(&mut self, n: Node<'t>) -> Stmt {
        let syn = self.syn;
        self.push_scope();
        let decls = syn
            .child_of(n, K::VariableDeclaration)
            .map(|d| self.declarators(d, BindingKind::Local))
            .unwrap_or_default();
        let stmt = syn
            .named(n)
            .into_iter()
            .rfind(|c| syn.kind(*c) != K::VariableDeclaration);
        let body = self.embedded(stmt, n);
        self.pop_scope();
        Stmt::Fixed {
            decls: decls.into_boxed_slice(),
            body,
        }
    }

    fn yield_stmt(&mut self, n: Node<'t>) -> Stmt {
        if self.in_function_body() {
            self.body.is_iterator = true;
        }
        match self.syn.first_named(n) {
            Some(e) => Stmt::YieldReturn(self.expr(e)),
            None => Stmt::YieldBreak,
        }
    }

    fn goto_stmt(&mut self, n: Node<'t>) -> Stmt {
        let syn = self.syn;
        let target = syn.first_named(n);
        if syn.has_token(n, "case") {
            Stmt::Goto(GotoTarget::Case(self.opt_expr(target, n)))
        } else if syn.has_token(n, "default") {
            Stmt::Goto(GotoTarget::Default)
        } else {
            Stmt::Goto(GotoTarget::Label(
                target.map_or_else(Name::default, |t| syn.name(t)),
            ))
        }
    }

    fn labeled_stmt(&mut self, n: Node<'t>) -> Stmt {
        let syn = self.syn;
        let named = syn.named(n);
        let label = named.first().map_or_else(Name::default, |l| syn.name(*l));
        let stmt = match named.get(1) {
            Some(s) => self.stmt(*s),
            None => self.body.alloc_stmt(Stmt::Empty, Syn::range(n)),
        };
        Stmt::Labeled { label, stmt }
    }

    fn local_function_stmt(&mut self, n: Node<'t>) -> Stmt {
        let syn = self.syn;
        let binding = self.local_function_binding(n);
        let name = syn.field(n, F::Name).map(|nm| syn.name(nm));
        Stmt::LocalFunction(Box::new(self.function(n, name, Some(binding))))
    }

    fn stmt_kind(&mut self, n: Node<'t>) -> Stmt {
        let syn = self.syn;
        let first_named = || syn.first_named(n);
        match syn.kind(n) {
            K::Block => self.block(n),
            K::ExpressionStatement => Stmt::Expr(self.opt_expr(first_named(), n)),
            K::LocalDeclarationStatement => self.local_decl(n),
            K::IfStatement => self.if_stmt(n),
            K::WhileStatement => self.while_stmt(n),
            K::DoStatement => self.do_stmt(n),
            K::ForStatement => self.for_stmt(n),
            K::ForeachStatement => self.foreach(n),
            K::UsingStatement => self.using_stmt(n),
            K::LockStatement => self.lock_stmt(n),
            K::FixedStatement => self.fixed_stmt(n),
            K::TryStatement => self.try_stmt(n),
            K::SwitchStatement => self.switch_stmt(n),
            K::BreakStatement => Stmt::Break,
            K::ContinueStatement => Stmt::Continue,
            K::EmptyStatement => Stmt::Empty,
            K::ReturnStatement => Stmt::Return(first_named().map(|e| self.expr(e))),
            K::ThrowStatement => Stmt::Throw(first_named().map(|e| self.expr(e))),
            K::YieldStatement => self.yield_stmt(n),
            K::GotoStatement => self.goto_stmt(n),
            K::LabeledStatement => self.labeled_stmt(n),
            // `checked { }`, `unchecked { }` and `unsafe { }` run their block.
            K::CheckedStatement | K::UnsafeStatement => match syn.child_of(n, K::Block) {
                Some(b) => self.block(b),
                None => Stmt::Missing,
            },
            K::LocalFunctionStatement => self.local_function_stmt(n),
            K::GlobalStatement => match first_named() {
                Some(s) => self.stmt_kind(s),
                None => Stmt::Missing,
            },
            _ => Stmt::Missing,
        }
    }

    fn block(&mut self, n: Node<'t>) -> Stmt {
        self.push_scope();
        let children = self.syn.named(n);
        self.declare_local_functions(&children);
        let stmts: Vec<StmtId> = children.into_iter().map(|s| self.stmt(s)).collect();
        self.pop_scope();
        Stmt::Block(stmts.into_boxed_slice())
    }

    /// Local functions are in scope in their whole block.
    fn declare_local_functions(&mut self, stmts: &[Node<'t>]) {
        for s in stmts {
            if self.syn.kind(*s) == K::LocalFunctionStatement
                && let Some(name) = self.syn.field(*s, F::Name)
            {
                let id = self.bind(name, None, BindingKind::LocalFunction);
                self.local_fns.push((s.id(), id));
            }
        }
    }

    fn local_function_binding(&mut self, n: Node<'t>) -> BindingId {
        if let Some(i) = self.local_fns.iter().position(|&(id, _)| id == n.id()) {
            return self.local_fns.swap_remove(i).1;
        }
        match self.syn.field(n, F::Name) {
            Some(name) => self.bind(name, None, BindingKind::LocalFunction),
            None => self.bind_named(
                Name::default(),
                Syn::range(n),
                None,
                BindingKind::LocalFunction,
                ParamModifier::None,
            ),
        }
    }

    fn local_decl(&mut self, n: Node<'t>) -> Stmt {
        let syn = self.syn;
        let using = if !syn.has_token(n, "using") {
            UsingMode::None
        } else if syn.has_token(n, "await") {
            UsingMode::AwaitUsing
        } else {
            UsingMode::Using
        };
        let is_const = syn.modifiers(n).contains(Modifiers::CONST);
        let Some(decl) = syn.child_of(n, K::VariableDeclaration) else {
            return Stmt::Missing;
        };
        // `var (a, b) = t;` is a deconstruction, not a local declaration.
        if let Some(d) = syn
            .named(decl)
            .into_iter()
            .find(|d| syn.kind(*d) == K::VariableDeclarator)
            && let Some(pattern) = syn.child_of(d, K::TuplePattern)
        {
            let ty = self.declared_type(syn.field(decl, F::Type));
            let lhs = self.designation_expr(pattern, ty, BindingKind::Local);
            let rhs = initializer_of(syn, d);
            let rhs = self.opt_expr(rhs, d);
            let assign = self.body.alloc_expr(
                crate::hir::Expr::Assign {
                    op: crate::hir::AssignOp::Assign,
                    lhs,
                    rhs,
                },
                Syn::range(d),
            );
            return Stmt::Expr(assign);
        }
        let decls = self.declarators(decl, BindingKind::Local);
        Stmt::Local {
            decls: decls.into_boxed_slice(),
            using,
            is_const,
        }
    }

    /// The declarators of a `variable_declaration`; each name is in scope in its
    /// own initializer, as in C#.
    fn declarators(&mut self, decl: Node<'t>, kind: BindingKind) -> Vec<LocalDecl> {
        let syn = self.syn;
        let ty = self.declared_type(syn.field(decl, F::Type));
        let mut out = Vec::new();
        for d in syn.named(decl) {
            if syn.kind(d) != K::VariableDeclarator {
                continue;
            }
            let binding = match syn.field(d, F::Name) {
                Some(name) => self.bind(name, ty.clone(), kind),
                None => self.bind_named(
                    Name::default(),
                    Syn::range(d),
                    ty.clone(),
                    kind,
                    ParamModifier::None,
                ),
            };
            let init = initializer_of(syn, d).map(|e| self.expr(e));
            out.push(LocalDecl { binding, init });
        }
        out
    }

    fn for_stmt(&mut self, n: Node<'t>) -> Stmt {
        let syn = self.syn;
        self.push_scope();
        let (init_f, update_f) = (syn.field_id(F::Initializer), syn.field_id(F::Update));
        let mut init = Vec::new();
        let mut update_nodes = Vec::new();
        for (f, c) in syn.children_fields(n) {
            if !c.is_named() {
                continue;
            }
            if f == init_f {
                if syn.kind(c) == K::VariableDeclaration {
                    let decls = self.declarators(c, BindingKind::Local);
                    let s = Stmt::Local {
                        decls: decls.into_boxed_slice(),
                        using: UsingMode::None,
                        is_const: false,
                    };
                    init.push(self.body.alloc_stmt(s, Syn::range(c)));
                } else {
                    let e = self.expr(c);
                    init.push(self.body.alloc_stmt(Stmt::Expr(e), Syn::range(c)));
                }
            } else if f == update_f {
                update_nodes.push(c);
            }
        }
        let cond = syn.field(n, F::Condition).map(|c| self.expr(c));
        let update: Vec<_> = update_nodes.into_iter().map(|u| self.expr(u)).collect();
        let body = self.embedded(syn.field(n, F::Body), n);
        self.pop_scope();
        Stmt::For {
            init: init.into_boxed_slice(),
            cond,
            update: update.into_boxed_slice(),
            body,
        }
    }

    fn foreach(&mut self, n: Node<'t>) -> Stmt {
        let syn = self.syn;
        let is_await = syn.has_token(n, "await");
        let collection = self.opt_expr(syn.field(n, F::Right), n);
        self.push_scope();
        let left = syn.field(n, F::Left);
        let ty_node = syn.field(n, F::Type);
        let target = match (ty_node, left) {
            (Some(_), Some(l)) if syn.kind(l) == K::TuplePattern => {
                let ty = self.declared_type(ty_node);
                ForeachTarget::Deconstruct(self.designation_expr(l, ty, BindingKind::Foreach))
            }
            (Some(_), Some(l)) => {
                let ty = self.declared_type(ty_node);
                ForeachTarget::Binding(self.bind(l, ty, BindingKind::Foreach))
            }
            (None, Some(l)) => {
                let saved = std::mem::replace(&mut self.decl_kind, BindingKind::Foreach);
                let e = self.expr(l);
                self.decl_kind = saved;
                ForeachTarget::Deconstruct(e)
            }
            (_, None) => ForeachTarget::Deconstruct(
                self.body
                    .alloc_expr(crate::hir::Expr::Missing, Syn::range(n)),
            ),
        };
        let body = self.embedded(syn.field(n, F::Body), n);
        self.pop_scope();
        Stmt::Foreach {
            target,
            collection,
            body,
            is_await,
        }
    }

    fn using_stmt(&mut self, n: Node<'t>) -> Stmt {
        let syn = self.syn;
        let is_await = syn.has_token(n, "await");
        self.push_scope();
        let body_node = syn.field(n, F::Body);
        let resource = syn.named(n).into_iter().find(|c| Some(*c) != body_node);
        let resource = match resource {
            Some(r) if syn.kind(r) == K::VariableDeclaration => {
                UsingResource::Decls(self.declarators(r, BindingKind::Local).into_boxed_slice())
            }
            r => UsingResource::Expr(self.opt_expr(r, n)),
        };
        let body = self.embedded(body_node, n);
        self.pop_scope();
        Stmt::Using {
            resource,
            body,
            is_await,
        }
    }

    fn try_stmt(&mut self, n: Node<'t>) -> Stmt {
        let syn = self.syn;
        let body = self.embedded(syn.field(n, F::Body), n);
        let mut catches = Vec::new();
        let mut finally = None;
        for c in syn.named(n) {
            match syn.kind(c) {
                K::CatchClause => {
                    self.push_scope();
                    let mut ty = None;
                    let mut binding = None;
                    let mut filter = None;
                    for part in syn.named(c) {
                        match syn.kind(part) {
                            K::CatchDeclaration => {
                                ty = syn.field(part, F::Type).map(|t| syn.type_ref(t));
                                binding = syn
                                    .field(part, F::Name)
                                    .map(|name| self.bind(name, ty.clone(), BindingKind::Catch));
                            }
                            K::CatchFilterClause => {
                                filter = syn.first_named(part).map(|e| self.expr(e));
                            }
                            _ => {}
                        }
                    }
                    let body = self.embedded(syn.field(c, F::Body), c);
                    self.pop_scope();
                    catches.push(CatchClause {
                        ty,
                        binding,
                        filter,
                        body,
                        range: Syn::range(c),
                    });
                }
                K::FinallyClause => finally = syn.first_named(c).map(|b| self.embedded(Some(b), c)),
                _ => {}
            }
        }
        Stmt::Try {
            body,
            catches: catches.into_boxed_slice(),
            finally,
        }
    }

    fn switch_stmt(&mut self, n: Node<'t>) -> Stmt {
        let syn = self.syn;
        let scrutinee = self.opt_expr(syn.field(n, F::Value), n);
        let mut sections: Vec<SwitchSection> = Vec::new();
        // A section without statements shares the next one's (`case 1: case 2: ...`).
        let mut pending_labels: Vec<SwitchLabel> = Vec::new();
        let mut pending_scope = false;
        for section in syn
            .field(n, F::Body)
            .map(|b| syn.named(b))
            .unwrap_or_default()
        {
            if syn.kind(section) != K::SwitchSection {
                continue;
            }
            if !pending_scope {
                self.push_scope();
                pending_scope = true;
            }
            let mut after_colon = false;
            let mut stmts_nodes = Vec::new();
            let mut label: Option<SwitchLabel> = None;
            for c in syn.children(section) {
                if !syn.is_node(c) {
                    match syn.text(c) {
                        ":" if !after_colon => after_colon = true,
                        "default" if !after_colon => label = Some(SwitchLabel::Default),
                        _ => {}
                    }
                    continue;
                }
                if after_colon {
                    stmts_nodes.push(c);
                    continue;
                }
                match syn.kind(c) {
                    K::WhenClause => {
                        let guard = syn.first_named(c).map(|e| self.expr(e));
                        if let Some(SwitchLabel::Case { guard: g, .. }) = &mut label {
                            *g = guard;
                        }
                    }
                    _ => {
                        let pat = self.pat(c);
                        label = Some(SwitchLabel::Case { pat, guard: None });
                    }
                }
            }
            pending_labels.extend(label);
            if stmts_nodes.is_empty() {
                continue;
            }
            self.declare_local_functions(&stmts_nodes);
            let body: Vec<StmtId> = stmts_nodes.into_iter().map(|s| self.stmt(s)).collect();
            self.pop_scope();
            pending_scope = false;
            sections.push(SwitchSection {
                labels: std::mem::take(&mut pending_labels).into_boxed_slice(),
                body: body.into_boxed_slice(),
            });
        }
        if pending_scope {
            self.pop_scope();
        }
        if !pending_labels.is_empty() {
            sections.push(SwitchSection {
                labels: pending_labels.into_boxed_slice(),
                body: Box::new([]),
            });
        }
        Stmt::Switch {
            scrutinee,
            sections: sections.into_boxed_slice(),
        }
    }

    // ---- functions ----

    /// The parameters' bindings and attributes.
    fn function_params(&mut self, n: Node<'t>) -> (Vec<BindingId>, Vec<Vec<Attribute>>) {
        let syn = self.syn;
        let mut params = Vec::new();
        let mut attrs = Vec::new();
        if let Some(p) = syn.field(n, F::Parameters) {
            if syn.kind(p) == K::ImplicitParameter {
                params.push(self.bind(p, None, BindingKind::FunctionParam));
                attrs.push(Vec::new());
            } else {
                for param in syn.params(p) {
                    let id = self.bind_named(
                        param.name,
                        param.range,
                        param.ty,
                        BindingKind::FunctionParam,
                        param.modifier,
                    );
                    params.push(id);
                    attrs.push(param.attrs);
                }
            }
        }
        (params, attrs)
    }

    fn lambda_body(&mut self, n: Node<'t>) -> Option<LambdaBody> {
        let syn = self.syn;
        let b = syn
            .field(n, F::Body)
            .or_else(|| syn.child_of(n, K::Block))?;
        Some(match syn.kind(b) {
            K::Block => LambdaBody::Block(self.stmt(b)),
            K::ArrowExpressionClause => {
                let e = syn.first_named(b);
                LambdaBody::Expr(self.opt_expr(e, b))
            }
            _ => LambdaBody::Expr(self.expr(b)),
        })
    }

    /// A lambda, anonymous method or local function.
    pub(super) fn function(
        &mut self,
        n: Node<'t>,
        name: Option<Name>,
        binding: Option<BindingId>,
    ) -> Function {
        let syn = self.syn;
        let header = syn.header(n);
        let modifiers = header.modifiers;
        let is_async = modifiers.contains(Modifiers::ASYNC);
        if is_async {
            self.has_async_fn = true;
        }
        let is_local = syn.kind(n) == K::LocalFunctionStatement;
        let ret = syn.field(n, F::Type).map(|t| syn.type_ref(t));
        self.push_scope();
        self.fn_depth += 1;
        let (params, param_attrs) = self.function_params(n);
        let body = self.lambda_body(n);
        self.fn_depth -= 1;
        self.pop_scope();
        Function {
            name,
            binding,
            params: params.into_boxed_slice(),
            param_attrs: param_attrs.into_boxed_slice(),
            type_params: if is_local {
                syn.type_params(n)
            } else {
                Vec::new()
            },
            ret,
            body,
            modifiers,
            attrs: header.attrs,
            return_attrs: header.return_attrs,
            is_async,
            range: Syn::range(n),
        }
    }
}

/// Whether every syntax error under the statement `n` lies in a statement
/// nested in it (each cut on its own by [`BodyBuilder::stmt`]), so that `n`
/// itself can be converted: an error in its own tokens, condition or header
/// costs the whole statement.
fn errors_in_nested_statements<'t>(syn: &Syn<'_, 't>, n: Node<'t>) -> bool {
    if super::is_error_node(n) {
        return false;
    }
    let parent = syn.kind(n);
    syn.children(n).into_iter().all(|c| {
        if !c.has_error() && !c.is_missing() {
            return true;
        }
        match syn.kind(c) {
            // Converted without `stmt`: its own tokens are checked here.
            K::Block if matches!(parent, K::CheckedStatement | K::UnsafeStatement) => {
                errors_in_nested_statements(syn, c)
            }
            // A block converts each child, an ERROR one too, with `stmt`.
            K::Error => parent == K::Block && c.is_error(),
            K::CatchClause | K::FinallyClause | K::SwitchBody => {
                errors_in_nested_statements(syn, c)
            }
            // A section's labels are not statements: only those after the colon.
            K::SwitchSection => section_errors_in_statements(syn, c),
            k => is_statement(k),
        }
    })
}

/// [`errors_in_nested_statements`] for a switch section: the labels before
/// its colon must be whole, and an ERROR after it is a statement of its own.
fn section_errors_in_statements<'t>(syn: &Syn<'_, 't>, section: Node<'t>) -> bool {
    let mut after_colon = false;
    syn.children(section).into_iter().all(|c| {
        if !syn.is_node(c) && syn.text(c) == ":" {
            after_colon = true;
        }
        !c.has_error() && !c.is_missing()
            || after_colon && (c.is_error() || is_statement(syn.kind(c)))
    })
}

fn is_statement(k: K) -> bool {
    matches!(
        k,
        K::Block
            | K::BreakStatement
            | K::CheckedStatement
            | K::ContinueStatement
            | K::DoStatement
            | K::EmptyStatement
            | K::ExpressionStatement
            | K::FixedStatement
            | K::ForStatement
            | K::ForeachStatement
            | K::GotoStatement
            | K::IfStatement
            | K::LabeledStatement
            | K::LocalDeclarationStatement
            | K::LocalFunctionStatement
            | K::LockStatement
            | K::ReturnStatement
            | K::SwitchStatement
            | K::ThrowStatement
            | K::TryStatement
            | K::UnsafeStatement
            | K::UsingStatement
            | K::WhileStatement
            | K::YieldStatement
    )
}
