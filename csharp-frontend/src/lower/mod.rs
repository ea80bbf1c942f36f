//! Lowering: from a resolved body to the core IR (three-address statements in a
//! statement-level CFG with exceptional edges). Sugar becomes explicit here:
//! `using` and `await using` become try/finally with a null-checked `Dispose`,
//! `?.`/`??`/`?:`/patterns become branches, `foreach` a loop over elements,
//! lambdas and local functions separate bodies linked by `Closure`.

mod cond;
mod expr;
mod member;
mod stmt;

use rlc_core::ir::{
    self, BodyBuilder, BodyKind, Callee, ExcEdge, NodeId, Operand, Stmt as IrStmt, Succ, VarId,
    VarKind,
};
use rlc_core::program::{MethodId, ValueTy};
use rlc_core::{FileId, Span};
use rustc_hash::FxHashMap;

use crate::hir::{BindingId, Body, BodyId, Name, StmtId, TextRange};
use crate::index::{Index, Ty};
use crate::resolve::BodyTypes;

pub use member::{LoweredType, lower_top_level, lower_type};

/// An exception handler in scope: where a throwing statement goes.
#[derive(Copy, Clone, Debug)]
struct Handler {
    target: NodeId,
    explicit: bool,
}

/// What runs when control leaves a protected region: a user `finally` or the
/// disposal a `using` implies.
#[derive(Clone, Debug)]
enum Cleanup {
    Finally(StmtId),
    Dispose {
        var: VarId,
        is_await: bool,
        span: TextRange,
    },
}

#[derive(Clone, Debug)]
struct CleanupFrame {
    cleanup: Cleanup,
    /// Handlers in scope outside the protected region (exceptions in the cleanup go there).
    handler_depth: usize,
}

#[derive(Copy, Clone, Debug)]
struct LoopFrame {
    break_to: NodeId,
    continue_to: Option<NodeId>,
    cleanup_depth: usize,
    scope_depth: usize,
}

/// A lexical scope: the variables to end when it closes.
#[derive(Default, Debug)]
struct Scope {
    vars: Vec<VarId>,
}

/// Lowers one function (method, accessor, lambda, local function) of a HIR body.
struct Lowerer<'a> {
    index: &'a Index,
    file: FileId,
    hir: &'a Body,
    hir_id: BodyId,
    types: &'a BodyTypes,
    b: BodyBuilder,
    /// Where the next statement attaches; `None` after `return`/`throw`/jumps.
    cur: Option<NodeId>,
    vars: FxHashMap<BindingId, VarId>,
    this_var: Option<VarId>,
    scopes: Vec<Scope>,
    /// Temporaries of the statement being lowered; they end with it.
    temps: Vec<VarId>,
    handlers: Vec<Handler>,
    cleanups: Vec<CleanupFrame>,
    loops: Vec<LoopFrame>,
    labels: FxHashMap<Name, NodeId>,
    /// Finished bodies of the whole member (this one is reserved at `self_id`).
    out: &'a mut ir::Bodies,
    self_id: ir::BodyId,
    /// Bindings captured from the enclosing function, in order of first use.
    captured: Vec<BindingId>,
    /// Whether this function's own bindings (params, locals) are known; others are captures.
    own: rustc_hash::FxHashSet<BindingId>,
    /// The null exit of the `?.` chain being lowered.
    chain: Option<NodeId>,
    /// Tuple literals of this body: the temporary holding each, with its
    /// lowered items, so that deconstructing one reads the items themselves.
    tuple_items: FxHashMap<VarId, Vec<Operand>>,
    /// Variables `using` declares, with the first call that disposes them.
    guards: FxHashMap<VarId, Option<NodeId>>,
    /// Fields passed as `out`/`ref` arguments of the call about to be emitted:
    /// the callee writes them through the temporary that carried them.
    writebacks: Vec<(VarId, Option<VarId>, ir::FieldRef, TextRange)>,
    /// The result of each `Interlocked.Increment(ref location)`
    /// ([`rlc_core::program::ParamDef::incremented`]), with a copy of what
    /// `location` held before it: a comparison of the result with a constant
    /// tests that copy against zero first.
    increments: FxHashMap<VarId, VarId>,
}

impl<'a> Lowerer<'a> {
    #[allow(clippy::too_many_arguments)]
    fn new(
        index: &'a Index,
        file: FileId,
        hir: &'a Body,
        hir_id: BodyId,
        types: &'a BodyTypes,
        name: String,
        kind: BodyKind,
        range: TextRange,
        out: &'a mut ir::Bodies,
    ) -> Lowerer<'a> {
        let span = Span::new(file, range.start, range.end);
        let b = BodyBuilder::new(name, kind, span);
        // Reserve this body's slot so nested lambdas can name their parent.
        let self_id = out.push(b.body().clone());
        let entry = b.entry();
        Lowerer {
            index,
            file,
            hir,
            hir_id,
            types,
            b,
            cur: Some(entry),
            vars: FxHashMap::default(),
            this_var: None,
            scopes: vec![Scope::default()],
            temps: Vec::new(),
            handlers: Vec::new(),
            cleanups: Vec::new(),
            loops: Vec::new(),
            labels: FxHashMap::default(),
            out,
            self_id,
            captured: Vec::new(),
            own: Default::default(),
            chain: None,
            tuple_items: FxHashMap::default(),
            guards: FxHashMap::default(),
            writebacks: Vec::new(),
            increments: FxHashMap::default(),
        }
    }

    fn span(&self, r: TextRange) -> Span {
        Span::new(self.file, r.start, r.end)
    }

    fn value_ty(&self, ty: &Ty) -> ValueTy {
        self.index.value_ty(ty)
    }

    /// Appends a node after the current one.
    fn emit(&mut self, stmt: IrStmt, range: TextRange) -> NodeId {
        let span = self.span(range);
        let n = self.b.node(stmt, span);
        if let Some(c) = self.cur {
            self.b.goto(c, n);
        }
        self.cur = Some(n);
        n
    }

    /// Appends a node that may throw: it gets an edge to the innermost handler
    /// (unless it calls a `[DoesNotThrow]` method), one the code expects when
    /// it calls a `[ThrowsOnFailure]` method.
    fn emit_throwing(&mut self, stmt: IrStmt, range: TextRange) -> NodeId {
        let is_call = matches!(stmt, IrStmt::Call(_));
        let (throws, expected) = match &stmt {
            IrStmt::Call(call) => match call.callee {
                ir::Callee::Method(m) => self
                    .index
                    .program
                    .get_method(m)
                    .map_or((true, false), |d| (!d.never_throws, d.throws_on_failure)),
                _ => (true, false),
            },
            _ => (true, false),
        };
        let n = self.emit(stmt, range);
        if throws {
            let mut exc = self.exc_edge();
            exc.explicit |= expected;
            self.b.set_exc(n, Some(exc));
        }
        if is_call {
            self.flush_writebacks(None);
        }
        n
    }

    /// Stores back the fields passed by `ref`/`out` to the call just emitted;
    /// `known`: a temporary whose value is known (`(t, null)`), stored as such.
    fn flush_writebacks(&mut self, known: Option<(VarId, &Operand)>) {
        for (src, base, field, range) in std::mem::take(&mut self.writebacks) {
            let src = match known {
                Some((t, value)) if t == src => value.clone(),
                _ => Operand::Var(src),
            };
            self.emit(IrStmt::Store { base, field, src }, range);
        }
    }

    fn exc_edge(&self) -> ExcEdge {
        match self.handlers.last() {
            Some(h) => ExcEdge {
                target: h.target,
                explicit: h.explicit,
            },
            None => ExcEdge {
                target: self.b.exc_exit(),
                explicit: false,
            },
        }
    }

    /// A join point not yet reachable.
    fn new_label(&mut self, range: TextRange) -> NodeId {
        let span = self.span(range);
        self.b.node(IrStmt::Nop, span)
    }

    /// Continues from `label`, which the current node (if reachable) falls into.
    fn jump_to(&mut self, label: NodeId) {
        if let Some(c) = self.cur {
            self.b.goto(c, label);
        }
        self.cur = None;
    }

    fn place(&mut self, label: NodeId) {
        self.jump_to(label);
        self.cur = Some(label);
    }

    fn branch(&mut self, cond: ir::Cond, if_true: NodeId, if_false: NodeId) {
        // Branches leave from a node of their own, so that a statement's effect
        // and the test of its result stay separate steps.
        if let Some(c) = self.cur
            && !matches!(self.b.body().node(c).stmt, IrStmt::Nop)
        {
            let span = self.b.body().node(c).span;
            let n = self.b.node(IrStmt::Nop, span);
            self.b.goto(c, n);
            self.cur = Some(n);
        }
        if let Some(c) = self.cur {
            self.b.set_succ(
                c,
                Succ::Branch {
                    cond,
                    if_true,
                    if_false,
                },
            );
        }
        self.cur = None;
    }

    fn new_var(
        &mut self,
        name: impl Into<String>,
        kind: VarKind,
        ty: &Ty,
        range: TextRange,
    ) -> VarId {
        let vt = self.value_ty(ty);
        let span = self.span(range);
        self.b.var(name, kind, vt, span)
    }

    /// A temporary for a subexpression's value; it ends with the statement.
    fn temp(&mut self, ty: &Ty, range: TextRange) -> VarId {
        let v = self.new_var(
            format!("t{}", self.b.body().vars.len()),
            VarKind::Temp,
            ty,
            range,
        );
        self.temps.push(v);
        v
    }

    /// The variable of a binding, declaring it in the current scope when new.
    fn binding_var(&mut self, b: BindingId) -> VarId {
        if let Some(&v) = self.vars.get(&b) {
            return v;
        }
        let data = self.hir.binding(b);
        let ty = self.types.binding_ty(b).clone();
        let own = self.own.contains(&b);
        let kind = if own {
            VarKind::Local
        } else {
            VarKind::Captured
        };
        let v = self.new_var(data.name.to_string(), kind, &ty, data.range);
        if !own {
            self.captured.push(b);
        }
        self.vars.insert(b, v);
        v
    }

    /// Declares a binding of this function in the current scope.
    fn declare(&mut self, b: BindingId) -> VarId {
        self.own.insert(b);
        let v = self.binding_var(b);
        if let Some(s) = self.scopes.last_mut()
            && !s.vars.contains(&v)
        {
            s.vars.push(v);
        }
        v
    }

    /// Ends the statement's temporaries.
    fn end_temps(&mut self, range: TextRange) {
        if self.temps.is_empty() {
            return;
        }
        let temps = std::mem::take(&mut self.temps);
        if self.cur.is_some() {
            self.emit(IrStmt::ScopeEnd(temps), range);
        }
    }

    fn push_scope(&mut self) {
        self.scopes.push(Scope::default());
    }

    fn pop_scope(&mut self, end: TextRange) {
        if let Some(s) = self.scopes.pop()
            && !s.vars.is_empty()
            && self.cur.is_some()
        {
            let at = TextRange::new(end.end.saturating_sub(1), end.end);
            self.emit(IrStmt::ScopeEnd(s.vars), at);
        }
    }

    /// Variables of the scopes above `depth`, innermost first (ended by a jump out).
    fn vars_above(&self, depth: usize) -> Vec<VarId> {
        self.scopes[depth.min(self.scopes.len())..]
            .iter()
            .rev()
            .flat_map(|s| s.vars.iter().copied())
            .collect()
    }

    /// Runs the cleanups above `depth` (innermost first), as a jump out of them does.
    fn run_cleanups(&mut self, depth: usize) {
        for i in (depth..self.cleanups.len()).rev() {
            self.run_cleanup(i);
        }
    }

    /// Lowers a copy of cleanup `i` where control is now.
    fn run_cleanup(&mut self, i: usize) {
        let Some(frame) = self.cleanups.get(i).cloned() else {
            return;
        };
        // Inside the cleanup only what is outside its protected region applies.
        let saved_handlers = self
            .handlers
            .split_off(frame.handler_depth.min(self.handlers.len()));
        let saved_cleanups = self.cleanups.split_off(i);
        match frame.cleanup {
            Cleanup::Finally(s) => {
                let saved_loops = std::mem::take(&mut self.loops);
                self.stmt(s);
                self.loops = saved_loops;
            }
            Cleanup::Dispose {
                var,
                is_await,
                span,
            } => self.dispose(var, is_await, span),
        }
        self.handlers.extend(saved_handlers);
        self.cleanups.extend(saved_cleanups);
    }

    /// `if (v != null) v.Dispose()` (or `await v.DisposeAsync()`), as `using` does.
    fn dispose(&mut self, v: VarId, is_await: bool, range: TextRange) {
        if self.cur.is_none() {
            return;
        }
        let call = self.new_label(range);
        let done = self.new_label(range);
        self.branch(ir::Cond::IsNull(v), done, call);
        self.cur = Some(call);
        let name = if is_await { "DisposeAsync" } else { "Dispose" };
        let ty = self.b.body().var(v).ty.clone();
        let callee = self
            .dispose_method(&ty, name)
            .map(Callee::Method)
            .unwrap_or_else(|| Callee::Unresolved(name.to_string()));
        let call = ir::Call {
            dst: None,
            callee,
            kind: ir::CallKind::Ordinary,
            receiver: Some(v),
            args: Vec::new(),
            awaited: is_await,
            ty: ValueTy::default(),
            new_type: None,
        };
        let n = self.emit_throwing(IrStmt::Call(Box::new(call)), range);
        if let Some(first @ None) = self.guards.get_mut(&v) {
            *first = Some(n);
        }
        self.place(done);
    }

    /// The `Dispose`/`DisposeAsync` method a value of this type has (or the
    /// interface's).
    fn dispose_method(&self, ty: &ValueTy, name: &str) -> Option<MethodId> {
        let from_type = ty.ty.and_then(|t| {
            let self_ty = self.index.ty(t).self_ty(t);
            self.index.ancestors(&self_ty).into_iter().find_map(|a| {
                let def = a.def()?;
                self.index
                    .ty(def)
                    .members
                    .get(name)?
                    .iter()
                    .map(|m| self.index.member(*m))
                    .find(|m| m.params.is_empty() && !m.is_static())
                    .and_then(|m| m.method)
            })
        });
        from_type.or_else(|| {
            let iface = if name == "Dispose" {
                self.index.well_known.idisposable
            } else {
                self.index.well_known.iasync_disposable
            }?;
            self.index
                .ty(iface)
                .members
                .get(name)?
                .iter()
                .find_map(|m| self.index.member(*m).method)
        })
    }

    /// Closes the body: falls into the exit and stores it in its reserved slot.
    fn finish(
        mut self,
        method: Option<MethodId>,
        parent: Option<ir::BodyId>,
        is_async: bool,
        is_iterator: bool,
    ) -> Vec<BindingId> {
        let end = self.b.body().span;
        let end_range = TextRange::new(end.end.saturating_sub(1), end.end);
        while self.scopes.len() > 1 {
            self.pop_scope(end_range);
        }
        self.pop_scope(end_range);
        let exit = self.b.exit();
        self.jump_to(exit);
        // The checker reports leaks through the normal exit at the closing brace.
        let end_span = self.span(end_range);
        self.b.body_mut().nodes[exit.index()].span = end_span;
        let captured = std::mem::take(&mut self.captured);
        // A `goto` may leave a `using` without its disposal (not modelled), so
        // the promise of `Body::guarded` holds only in bodies without labels.
        let mut guarded: Vec<(VarId, NodeId)> = if self.labels.is_empty() {
            self.guards
                .iter()
                .filter_map(|(v, n)| Some((*v, (*n)?)))
                .collect()
        } else {
            Vec::new()
        };
        guarded.sort_unstable();
        let mut body = self.b.finish();
        body.guarded = guarded;
        body.method = method;
        body.parent = parent;
        body.is_async = is_async;
        body.is_iterator = is_iterator;
        if let Some(s) = self.out.get_mut(self.self_id) {
            *s = body;
        }
        captured
    }
}

#[cfg(test)]
mod tests;
