//! Expressions: each call, `new`, field and property access becomes its own
//! statement with a temporary for the value.

use rlc_core::ir::{
    self, Arg as IrArg, BodyKind, CallKind, Callee, Cond, FieldRef, Operand, Stmt as IrStmt, VarId,
    VarKind,
};
use rlc_core::program::{Const, Ownership, ParamDef, ParamMode, ValueTy};

use super::Lowerer;
use crate::hir::{
    Arg, ArgModifier, AssignOp, BinaryOp, CollectionElem, Expr, ExprId, Function, InitElem,
    InitValue, LambdaBody, Literal, MemberKind, TextRange, UnaryOp,
};
use crate::index::{MemberId, Ty};
use crate::resolve::ExprTarget;

impl Lowerer<'_> {
    /// Lowers `e` for its effects only.
    pub(super) fn expr_discard(&mut self, e: ExprId) {
        self.expr_value(e);
    }

    /// Lowers `e` and returns its value; `?.` chains get their null branch here.
    pub(super) fn expr_value(&mut self, e: ExprId) -> Operand {
        if self.chain.is_none() && self.spine_is_conditional(e) {
            return self.conditional_chain(e);
        }
        self.rvalue(e)
    }

    /// A variable holding `op` (a temporary when it is a constant).
    pub(super) fn operand_var(&mut self, op: Operand, e: ExprId) -> VarId {
        match op {
            Operand::Var(v) => v,
            other => {
                let ty = self.types.ty(e).clone();
                let range = self.hir.expr_range(e);
                let t = self.temp(&ty, range);
                self.emit(IrStmt::Copy { dst: t, src: other }, range);
                t
            }
        }
    }

    /// Whether `e`'s receiver spine (`a?.b.c()`) contains a `?.` or `?[`.
    fn spine_is_conditional(&self, e: ExprId) -> bool {
        let mut cur = e;
        for _ in 0..256 {
            match self.hir.exprs.get(cur.index()) {
                Some(Expr::MemberAccess {
                    receiver,
                    conditional,
                    ..
                })
                | Some(Expr::ElementAccess {
                    receiver,
                    conditional,
                    ..
                }) => {
                    if *conditional {
                        return true;
                    }
                    cur = *receiver;
                }
                Some(Expr::Call { callee, .. }) => cur = *callee,
                _ => return false,
            }
        }
        false
    }

    /// `a?.b.c()`: the value is null when `a` is, and the rest is skipped.
    fn conditional_chain(&mut self, e: ExprId) -> Operand {
        let range = self.hir.expr_range(e);
        let ty = self.types.ty(e).clone();
        let result = self.temp(&ty, range);
        let on_null = self.new_label(range);
        let join = self.new_label(range);
        self.chain = Some(on_null);
        let value = self.rvalue(e);
        self.chain = None;
        if self.cur.is_some() {
            self.emit(
                IrStmt::Copy {
                    dst: result,
                    src: value,
                },
                range,
            );
        }
        self.jump_to(join);
        self.cur = Some(on_null);
        self.emit(
            IrStmt::Copy {
                dst: result,
                src: Operand::Const(Const::Null),
            },
            range,
        );
        self.place(join);
        Operand::Var(result)
    }

    /// Evaluates a receiver; after a `?.` the null case leaves the chain.
    fn receiver(&mut self, receiver: ExprId, conditional: bool) -> Operand {
        let op = self.rvalue(receiver);
        if conditional && let Some(on_null) = self.chain {
            let v = self.operand_var(op, receiver);
            let go = self.new_label(self.hir.expr_range(receiver));
            self.branch(Cond::IsNull(v), on_null, go);
            self.cur = Some(go);
            return Operand::Var(v);
        }
        op
    }

    /// Lowers a subexpression that is not part of the current `?.` spine.
    fn sub(&mut self, e: ExprId) -> Operand {
        let saved = self.chain.take();
        let op = self.expr_value(e);
        self.chain = saved;
        op
    }

    fn sub_var(&mut self, e: ExprId) -> VarId {
        let op = self.sub(e);
        self.operand_var(op, e)
    }

    fn rvalue(&mut self, e: ExprId) -> Operand {
        let Some(expr) = self.hir.exprs.get(e.index()) else {
            return Operand::Const(Const::Other);
        };
        let range = self.hir.expr_range(e);
        match expr {
            Expr::Missing => Operand::Const(Const::Other),
            Expr::Literal(l) => Operand::Const(match l {
                Literal::Null => Const::Null,
                Literal::Bool(b) => Const::Bool(*b),
                Literal::Int(i) => Const::Int(*i),
                Literal::Str(Some(s)) => Const::Str(s.to_string()),
                _ => Const::Other,
            }),
            Expr::Local(b) => Operand::Var(self.binding_var(*b)),
            Expr::This | Expr::Base => match self.this_var {
                Some(v) => Operand::Var(v),
                None => Operand::Const(Const::Other),
            },
            Expr::Name { .. } | Expr::AliasQualified { .. } | Expr::PredefinedType(_) => {
                self.member_read(e, None, false)
            }
            Expr::MemberAccess {
                receiver,
                conditional,
                ..
            } => {
                let (receiver, conditional) = (*receiver, *conditional);
                if let Some(task) = self.unwrapped_task(e) {
                    return self.await_value(e, task);
                }
                self.member_read(e, Some(receiver), conditional)
            }
            Expr::ElementAccess {
                receiver,
                args,
                conditional,
            } => {
                let (receiver, args, conditional) = (*receiver, args.clone(), *conditional);
                let coll = self.receiver(receiver, conditional);
                let coll = self.operand_var(coll, receiver);
                for a in args.iter() {
                    self.sub(a.value);
                }
                let ty = self.types.ty(e).clone();
                match self.indexer_getter(e) {
                    Some(getter) => self.emit_call(
                        e,
                        Callee::Method(getter),
                        CallKind::Ordinary,
                        Some(coll),
                        Vec::new(),
                        false,
                    ),
                    None => {
                        let t = self.temp(&ty, range);
                        self.emit(
                            IrStmt::Element {
                                dst: t,
                                collection: coll,
                            },
                            range,
                        );
                        Operand::Var(t)
                    }
                }
            }
            Expr::Call { callee, args } => {
                let (callee, args) = (*callee, args.clone());
                if let Some(task) = self.unwrapped_task(e) {
                    return self.await_value(e, task);
                }
                self.call(e, callee, &args, false)
            }
            Expr::Await(inner) => self.await_value(e, *inner),
            Expr::New { ty: _, args, init } => {
                let (args, init) = (args.clone(), init.clone());
                let ty = self.types.ty(e).clone();
                let ctor = self.types.member_target(e);
                let callee = match ctor.and_then(|m| self.index.member(m).method) {
                    Some(m) => Callee::Method(m),
                    None => Callee::Unresolved(format!("new {}", self.index.display(&ty))),
                };
                let ir_args = self.args(e, &args, ctor, false);
                let op = self.emit_call(e, callee, CallKind::New, None, ir_args, false);
                if let Some(init) = init {
                    let v = self.operand_var(op.clone(), e);
                    self.initializer(v, &ty, &init, range);
                }
                op
            }
            Expr::NewArray { sizes, init, .. } => {
                let (sizes, init) = (sizes.clone(), init.clone());
                for s in sizes.iter() {
                    self.sub(*s);
                }
                let t = self.fresh_collection(e);
                for i in init.iter().flat_map(|v| v.iter()) {
                    let v = self.sub(*i);
                    self.emit(
                        IrStmt::StoreElement {
                            collection: t,
                            src: v,
                        },
                        self.hir.expr_range(*i),
                    );
                }
                Operand::Var(t)
            }
            Expr::Collection(items) => {
                let items = items.clone();
                let t = self.fresh_collection(e);
                for it in items.iter() {
                    match it {
                        CollectionElem::Expr(x) => {
                            let v = self.sub(*x);
                            self.emit(
                                IrStmt::StoreElement {
                                    collection: t,
                                    src: v,
                                },
                                self.hir.expr_range(*x),
                            );
                        }
                        CollectionElem::Spread(x) => {
                            self.sub(*x);
                        }
                    }
                }
                Operand::Var(t)
            }
            Expr::Tuple(items) => {
                // A tuple keeps its items as members `Item1`, `Item2`, ... (and
                // by their names): they stay the method's, reachable through it.
                let items = items.clone();
                // Each item is evaluated once, before any deconstruction target
                // is assigned: `(x, y) = (y, x)` swaps.
                let ops: Vec<Operand> = items
                    .iter()
                    .map(|(_, x)| {
                        let op = self.sub(*x);
                        match op {
                            Operand::Var(v) if self.b.body().var(v).kind != VarKind::Temp => {
                                let ty = self.types.ty(*x).clone();
                                let snapshot = self.temp(&ty, self.hir.expr_range(*x));
                                self.emit(
                                    IrStmt::Copy {
                                        dst: snapshot,
                                        src: op,
                                    },
                                    range,
                                );
                                Operand::Var(snapshot)
                            }
                            _ => op,
                        }
                    })
                    .collect();
                let Operand::Var(t) = self.opaque(e, false) else {
                    return Operand::Const(Const::Other);
                };
                for (i, ((name, x), op)) in items.iter().zip(&ops).enumerate() {
                    // `(a, 0)` names its first element `a`, as C# 7.1 infers.
                    let name = name
                        .as_ref()
                        .map(|n| n.to_string())
                        .or_else(|| self.hir.projected_name(*x).map(|n| n.to_string()));
                    let names = std::iter::once(format!("Item{}", i + 1)).chain(name);
                    for member in names {
                        self.store_unknown_member(t, member, op.clone(), range);
                    }
                }
                self.tuple_items.insert(t, ops);
                Operand::Var(t)
            }
            Expr::AnonymousObject(items) => {
                // An anonymous object keeps its members by name; a member
                // whose name the syntax does not give is no longer followed.
                let items = items.clone();
                let ops: Vec<(Option<String>, Operand)> = items
                    .iter()
                    .map(|(name, x)| {
                        let name = name
                            .as_ref()
                            .map(|n| n.to_string())
                            .or_else(|| self.hir.projected_name(*x).map(|n| n.to_string()));
                        (name, self.sub(*x))
                    })
                    .collect();
                let unnamed: Vec<VarId> = ops
                    .iter()
                    .filter(|(n, _)| n.is_none())
                    .filter_map(|(_, op)| op.var())
                    .collect();
                if !unnamed.is_empty() {
                    self.emit(IrStmt::Escape(unnamed), range);
                }
                let Operand::Var(t) = self.opaque(e, false) else {
                    return Operand::Const(Const::Other);
                };
                for (name, op) in ops {
                    if let Some(name) = name {
                        self.store_unknown_member(t, name, op, range);
                    }
                }
                Operand::Var(t)
            }
            Expr::Assign { op, lhs, rhs } => {
                let (op, lhs, rhs) = (*op, *lhs, *rhs);
                self.assign(e, op, lhs, rhs)
            }
            Expr::Binary { op, lhs, rhs } => {
                let (op, lhs, rhs) = (*op, *lhs, *rhs);
                match op {
                    BinaryOp::Coalesce => self.coalesce(e, lhs, rhs),
                    BinaryOp::And | BinaryOp::Or | BinaryOp::Eq | BinaryOp::NotEq => {
                        self.bool_value(e)
                    }
                    _ => {
                        self.sub(lhs);
                        self.sub(rhs);
                        self.opaque(e, false)
                    }
                }
            }
            Expr::Unary { op, operand } => {
                let (op, operand) = (*op, *operand);
                match op {
                    UnaryOp::Forgive => self.rvalue(operand),
                    UnaryOp::Not => self.bool_value(e),
                    _ => {
                        self.sub(operand);
                        Operand::Const(Const::Other)
                    }
                }
            }
            Expr::Is { .. } => self.bool_value(e),
            Expr::Conditional { cond, then, else_ } => {
                let (cond, then, else_) = (*cond, *then, *else_);
                let ty = self.types.ty(e).clone();
                let result = self.temp(&ty, range);
                let t = self.new_label(range);
                let f = self.new_label(range);
                let join = self.new_label(range);
                let saved = self.chain.take();
                self.cond(cond, t, f);
                for (label, branch) in [(t, then), (f, else_)] {
                    self.cur = Some(label);
                    let v = self.expr_value(branch);
                    if self.cur.is_some() {
                        self.emit(
                            IrStmt::Copy {
                                dst: result,
                                src: v,
                            },
                            self.hir.expr_range(branch),
                        );
                    }
                    self.jump_to(join);
                }
                self.chain = saved;
                self.cur = Some(join);
                Operand::Var(result)
            }
            Expr::Cast { expr, .. } | Expr::As { expr, .. } => {
                let inner = *expr;
                let value = self.rvalue(inner);
                self.retype_created_object(&value, e);
                value
            }
            Expr::Checked(expr) | Expr::Ref(expr) => {
                let inner = *expr;
                self.rvalue(inner)
            }
            Expr::Switch { scrutinee, arms } => {
                let (scrutinee, arms) = (*scrutinee, arms.clone());
                let v = self.sub_var(scrutinee);
                let ty = self.types.ty(e).clone();
                let result = self.temp(&ty, range);
                let join = self.new_label(range);
                let saved = self.chain.take();
                for arm in arms.iter() {
                    let matched = self.new_label(range);
                    let next = self.new_label(range);
                    self.pattern(arm.pat, v, matched, next);
                    self.cur = Some(matched);
                    if let Some(g) = arm.guard {
                        let pass = self.new_label(range);
                        self.cond(g, pass, next);
                        self.cur = Some(pass);
                    }
                    let val = self.expr_value(arm.value);
                    if self.cur.is_some() {
                        self.emit(
                            IrStmt::Copy {
                                dst: result,
                                src: val,
                            },
                            self.hir.expr_range(arm.value),
                        );
                    }
                    self.jump_to(join);
                    self.cur = Some(next);
                }
                self.chain = saved;
                // No arm matched: the switch expression throws.
                if self.cur.is_some() {
                    let n = self.emit(IrStmt::Throw(None), range);
                    let exc = self.exc_edge();
                    self.b.set_exc(n, Some(exc));
                    self.cur = None;
                }
                self.cur = Some(join);
                Operand::Var(result)
            }
            Expr::Lambda(f) => {
                let f = f.clone();
                let ty = self.types.ty(e).clone();
                let t = self.temp(&ty, range);
                self.function(&f, BodyKind::Lambda, Some(t));
                Operand::Var(t)
            }
            Expr::Declaration { bindings, .. } => {
                let bindings = bindings.clone();
                let mut last = None;
                for b in bindings.iter().flatten() {
                    last = Some(self.declare(*b));
                }
                match (bindings.len(), last) {
                    (1, Some(v)) => Operand::Var(v),
                    _ => Operand::Const(Const::Other),
                }
            }
            Expr::Default(_) => Operand::Const(Const::Null),
            Expr::TypeOf(_) | Expr::SizeOf(_) => Operand::Const(Const::Other),
            Expr::Throw(x) => {
                let x = *x;
                let v = self.sub_var(x);
                let n = self.emit(IrStmt::Throw(Some(v)), range);
                let mut exc = self.exc_edge();
                exc.explicit = true;
                self.b.set_exc(n, Some(exc));
                self.cur = None;
                Operand::Const(Const::Null)
            }
            Expr::Range { lo, hi } => {
                for x in [*lo, *hi].into_iter().flatten() {
                    self.sub(x);
                }
                Operand::Const(Const::Other)
            }
            Expr::With { expr, init } => {
                let (expr, init) = (*expr, init.clone());
                self.sub(expr);
                let t = self.opaque(e, false);
                if let Operand::Var(v) = &t {
                    let ty = self.types.ty(e).clone();
                    self.initializer(*v, &ty, &init, range);
                }
                t
            }
            Expr::Query(clauses) => {
                let clauses = clauses.clone();
                for c in clauses.iter() {
                    for x in query_exprs(c) {
                        self.sub(x);
                    }
                }
                self.opaque(e, false)
            }
            Expr::Interpolated(parts) | Expr::Other(parts) => {
                let parts = parts.clone();
                for p in parts.iter() {
                    self.sub(*p);
                }
                self.opaque(e, false)
            }
        }
    }

    /// A new array or collection expression: created here, like `new List<T>()`.
    fn fresh_collection(&mut self, e: ExprId) -> VarId {
        let ty = self.types.ty(e).clone();
        let name = format!("new {}", self.index.display(&ty));
        match self.emit_call(
            e,
            Callee::Unresolved(name),
            CallKind::New,
            None,
            Vec::new(),
            false,
        ) {
            Operand::Var(v) => v,
            other => self.operand_var(other, e),
        }
    }

    /// A temporary with a value from nowhere the analysis follows.
    fn opaque(&mut self, e: ExprId, owning: bool) -> Operand {
        let ty = self.types.ty(e).clone();
        let range = self.hir.expr_range(e);
        let t = self.temp(&ty, range);
        self.emit(IrStmt::Opaque { dst: t, owning }, range);
        Operand::Var(t)
    }

    /// A boolean-valued expression as a value: branches assigning `true`/`false`.
    fn bool_value(&mut self, e: ExprId) -> Operand {
        let range = self.hir.expr_range(e);
        let ty = self.types.ty(e).clone();
        let result = self.temp(&ty, range);
        let t = self.new_label(range);
        let f = self.new_label(range);
        let join = self.new_label(range);
        let saved = self.chain.take();
        self.cond(e, t, f);
        self.chain = saved;
        for (label, value) in [(t, true), (f, false)] {
            self.cur = Some(label);
            self.emit(
                IrStmt::Copy {
                    dst: result,
                    src: Operand::Const(Const::Bool(value)),
                },
                range,
            );
            self.jump_to(join);
        }
        self.cur = Some(join);
        Operand::Var(result)
    }

    /// The value of `await inner` (`e`): `await t.ConfigureAwait(false)` awaits
    /// `t`, the awaited value being the task's result, whatever configures the
    /// awaiter; a call's result is the call's own, awaited.
    fn await_value(&mut self, e: ExprId, inner: ExprId) -> Operand {
        let range = self.hir.expr_range(e);
        let mut inner = inner;
        while let Some(Expr::Call { callee, args }) = self.hir.exprs.get(inner.index())
            && let Some(Expr::MemberAccess { receiver, name, .. }) =
                self.hir.exprs.get(callee.index())
            && name == "ConfigureAwait"
        {
            for a in args.clone().iter() {
                self.sub(a.value);
            }
            inner = *receiver;
        }
        if let Some(Expr::Call { callee, args }) = self.hir.exprs.get(inner.index()) {
            let (callee, args) = (*callee, args.clone());
            return self.call_with_type(inner, callee, &args, true, Some(self.types.ty(e).clone()));
        }
        self.rvalue(inner);
        let ty = self.types.ty(e).clone();
        let t = self.temp(&ty, range);
        // A task kept in a field or property (`await _connecting`,
        // `await _tcs.Task`) is shared: its result belongs to the object
        // that keeps the task. A task in a local was started here.
        let shared = self.types.member_target(inner).is_some();
        self.emit(
            IrStmt::Opaque {
                dst: t,
                owning: !shared,
            },
            range,
        );
        Operand::Var(t)
    }

    /// The task that `e` waits for synchronously, as `await` would: `t.Result`
    /// of a `Task<T>` or `ValueTask<T>`, and `t.GetAwaiter().GetResult()` (after
    /// any `ConfigureAwait`). The result belongs to whoever the method that
    /// produced the task says, as for `await`.
    fn unwrapped_task(&self, e: ExprId) -> Option<ExprId> {
        let wk = &self.index.well_known;
        let member = self.types.member_target(e)?;
        let owner = Some(self.index.member(member).owner);
        match self.hir.exprs.get(e.index())? {
            Expr::MemberAccess { receiver, name, .. }
                if name == "Result" && (owner == wk.task_t || owner == wk.value_task_t) =>
            {
                Some(*receiver)
            }
            Expr::Call { callee, args } if args.is_empty() => {
                let Some(Expr::MemberAccess { receiver, name, .. }) =
                    self.hir.exprs.get(callee.index())
                else {
                    return None;
                };
                if name != "GetResult" {
                    return None;
                }
                match self.hir.exprs.get(receiver.index())? {
                    Expr::Call { callee, args } if args.is_empty() => {
                        match self.hir.exprs.get(callee.index())? {
                            Expr::MemberAccess { receiver, name, .. } if name == "GetAwaiter" => {
                                Some(*receiver)
                            }
                            _ => None,
                        }
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// Reads a field, property (through its getter) or other named value.
    fn member_read(&mut self, e: ExprId, receiver: Option<ExprId>, conditional: bool) -> Operand {
        let range = self.hir.expr_range(e);
        let ty = self.types.ty(e).clone();
        match self.types.target(e).cloned() {
            Some(ExprTarget::Member(m)) => {
                // A `const` read as its value, as a literal is.
                if let Some(value) = self.index.constant_value(m) {
                    return Operand::Const(value);
                }
                let data = self.index.member(m);
                let base = if data.is_static() {
                    if let Some(r) = receiver {
                        // `Type.Member`: the receiver is a type, nothing to evaluate.
                        let _ = r;
                    }
                    None
                } else {
                    match receiver {
                        Some(r) => {
                            let op = self.receiver(r, conditional);
                            Some(self.operand_var(op, r))
                        }
                        None => self.this_var,
                    }
                };
                if data.is_method_like() {
                    if let (Some(r), Some(b)) = (receiver, base)
                        && data.kind == MemberKind::Method
                        && data.params.is_empty()
                    {
                        return self.method_group(e, r, b, m, &data.ty);
                    }
                    return Operand::Const(Const::Other);
                }
                // `reg.Value` of a `CancellationTokenRegistration?` is the struct
                // itself: the same resource.
                if Some(data.owner) == self.index.well_known.nullable
                    && data.name == "Value"
                    && let Some(b) = base
                {
                    let t = self.temp(&ty, range);
                    self.emit(
                        IrStmt::Copy {
                            dst: t,
                            src: Operand::Var(b),
                        },
                        range,
                    );
                    return Operand::Var(t);
                }
                // A getter that gives a resource alias of its object (the
                // library's `HttpResponseMessage.Content { [MustCallAlias]
                // get; set; }`) is called, as its spec needs, though the
                // property is stored as a field.
                let alias_getter = data
                    .getter
                    .filter(|&g| self.index.program.method(g).this_must_call_alias.is_some());
                if let (Some(field), None) = (data.field, alias_getter) {
                    let t = self.temp(&ty, range);
                    self.emit(
                        IrStmt::Load {
                            dst: t,
                            base,
                            field: FieldRef::Known(field),
                        },
                        range,
                    );
                    return Operand::Var(t);
                }
                if let Some(getter) = data.getter {
                    return self.emit_call(
                        e,
                        Callee::Method(getter),
                        CallKind::Ordinary,
                        base,
                        Vec::new(),
                        false,
                    );
                }
                if data.kind == MemberKind::EnumMember || data.kind == MemberKind::Constant {
                    return Operand::Const(Const::Other);
                }
                let name = data.name.to_string();
                let t = self.temp(&ty, range);
                self.emit(
                    IrStmt::Load {
                        dst: t,
                        base,
                        field: FieldRef::Unknown(name),
                    },
                    range,
                );
                Operand::Var(t)
            }
            Some(ExprTarget::PrimaryParam(i)) => {
                // Inside the primary constructor's own initializers it is the parameter.
                if let Some(v) = self.b.body().param_var(i) {
                    return Operand::Var(v);
                }
                let name = self.owner_primary_name(i);
                let t = self.temp(&ty, range);
                self.emit(
                    IrStmt::Load {
                        dst: t,
                        base: self.this_var,
                        field: FieldRef::Unknown(name),
                    },
                    range,
                );
                Operand::Var(t)
            }
            Some(ExprTarget::Type(_)) | Some(ExprTarget::Ns(_)) => Operand::Const(Const::Other),
            Some(ExprTarget::DelegateInvoke) | None => {
                let base = match receiver {
                    Some(r) => {
                        let op = self.receiver(r, conditional);
                        Some(self.operand_var(op, r))
                    }
                    None => None,
                };
                let name = match self.hir.exprs.get(e.index()) {
                    Some(Expr::Name { name, .. }) | Some(Expr::MemberAccess { name, .. }) => {
                        name.to_string()
                    }
                    _ => return Operand::Const(Const::Other),
                };
                if matches!(ty, Ty::Unknown) && base.is_none() {
                    return Operand::Const(Const::Other);
                }
                let t = self.temp(&ty, range);
                self.emit(
                    IrStmt::Load {
                        dst: t,
                        base,
                        field: FieldRef::Unknown(name),
                    },
                    range,
                );
                Operand::Var(t)
            }
        }
    }

    fn owner_primary_name(&self, i: u32) -> String {
        self.b
            .body()
            .method
            .map(|m| self.index.program.method(m).owner)
            .and_then(|t| self.index.ty(t).primary_params.get(i as usize))
            .map(|(n, _)| n.to_string())
            .unwrap_or_default()
    }

    /// The getter of the indexer an element access binds to, unless the receiver
    /// is an array or collection (then the read is an element of it).
    fn indexer_getter(&self, e: ExprId) -> Option<rlc_core::program::MethodId> {
        let m = self.types.member_target(e)?;
        let data = self.index.member(m);
        let owner_ty = self.index.ty(data.owner).self_ty(data.owner);
        if self.index.element_type(&owner_ty).is_some() {
            return None;
        }
        data.getter
    }

    fn call(&mut self, e: ExprId, callee: ExprId, args: &[Arg], awaited: bool) -> Operand {
        self.call_with_type(e, callee, args, awaited, None)
    }

    /// A call; with `awaited`, `await` is folded in and `result_ty` is the awaited type.
    fn call_with_type(
        &mut self,
        e: ExprId,
        callee: ExprId,
        args: &[Arg],
        awaited: bool,
        result_ty: Option<Ty>,
    ) -> Operand {
        let target = self.types.target(e).cloned();
        let binding = self.types.calls.get(&e).cloned();
        let callee_expr = self.hir.exprs.get(callee.index()).cloned();
        let (receiver_expr, conditional, name) = match &callee_expr {
            Some(Expr::MemberAccess {
                receiver,
                conditional,
                name,
                ..
            }) => (Some(*receiver), *conditional, name.to_string()),
            Some(Expr::Name { name, .. }) => (None, false, name.to_string()),
            Some(Expr::Local(b)) => (None, false, self.hir.binding(*b).name.to_string()),
            _ => (None, false, String::new()),
        };
        match target {
            Some(ExprTarget::Member(m)) => {
                let data = self.index.member(m);
                let extension = binding.as_ref().is_some_and(|b| b.extension);
                let mut ir_args = Vec::new();
                let receiver = if extension {
                    let r = receiver_expr.map(|r| self.receiver(r, conditional));
                    if let Some(r) = r {
                        ir_args.push(IrArg {
                            param: Some(0),
                            value: r,
                            mode: ParamMode::Value,
                        });
                    }
                    None
                } else if data.is_static() {
                    None
                } else {
                    match receiver_expr {
                        Some(r) => {
                            let op = self.receiver(r, conditional);
                            Some(self.operand_var(op, r))
                        }
                        None => self.this_var,
                    }
                };
                ir_args.extend(self.args(e, args, Some(m), extension));
                let callee = match data.method {
                    Some(mid) => Callee::Method(mid),
                    None => Callee::Unresolved(name),
                };
                self.emit_call_typed(
                    e,
                    callee,
                    CallKind::Ordinary,
                    receiver,
                    ir_args,
                    awaited,
                    result_ty,
                )
            }
            Some(ExprTarget::DelegateInvoke) => {
                // A local function of top-level statements has no method to bind to.
                let is_local_fn = matches!(&callee_expr, Some(Expr::Local(b)) if self.hir.binding(*b).kind == crate::hir::BindingKind::LocalFunction);
                let callee_op = if is_local_fn {
                    None
                } else {
                    let op = self.rvalue(callee);
                    Some(self.operand_var(op, callee))
                };
                let ir_args = self.args(e, args, None, false);
                let callee = match callee_op {
                    Some(v) => Callee::Delegate(v),
                    None => Callee::Unresolved(name),
                };
                self.emit_call_typed(
                    e,
                    callee,
                    CallKind::Ordinary,
                    None,
                    ir_args,
                    awaited,
                    result_ty,
                )
            }
            _ => {
                let receiver = match receiver_expr {
                    Some(r) => {
                        let op = self.receiver(r, conditional);
                        match op {
                            Operand::Var(v) => Some(v),
                            _ => None,
                        }
                    }
                    None => None,
                };
                let ir_args = self.args(e, args, None, false);
                self.emit_call_typed(
                    e,
                    Callee::Unresolved(name),
                    CallKind::Ordinary,
                    receiver,
                    ir_args,
                    awaited,
                    result_ty,
                )
            }
        }
    }

    /// Lowers the arguments of a call to `member` in evaluation order.
    fn args(
        &mut self,
        call: ExprId,
        args: &[Arg],
        member: Option<MemberId>,
        extension: bool,
    ) -> Vec<IrArg> {
        let _ = extension;
        let mapping = self.types.calls.get(&call).map(|b| b.arg_params.clone());
        self.args_mapped(args, member, mapping)
    }

    /// Lowers arguments given how they bind to `member`'s parameters.
    pub(super) fn args_mapped(
        &mut self,
        args: &[Arg],
        member: Option<MemberId>,
        mapping: Option<Vec<Option<u32>>>,
    ) -> Vec<IrArg> {
        let params = member.map(|m| &self.index.member(m).params);
        let mut out = Vec::with_capacity(args.len());
        let mut writebacks = Vec::new();
        for (i, a) in args.iter().enumerate() {
            let param = mapping.as_ref().and_then(|m| m.get(i).copied().flatten());
            let read_only = param
                .and_then(|p| params.and_then(|ps| ps.get(p as usize)))
                .is_some_and(|p| {
                    matches!(
                        p.modifier,
                        crate::hir::ParamModifier::In | crate::hir::ParamModifier::RefReadonly
                    )
                });
            let value = self.sub(a.value);
            let mode = match a.modifier {
                ArgModifier::Out => ParamMode::Out,
                ArgModifier::Ref => ParamMode::Ref,
                ArgModifier::In => ParamMode::In,
                ArgModifier::None => match param
                    .and_then(|p| params.and_then(|ps| ps.get(p as usize)))
                {
                    Some(p) if p.modifier == crate::hir::ParamModifier::Params => ParamMode::Params,
                    _ => ParamMode::Value,
                },
            };
            // `out _`, `out var _`, `out T _`: the value still arrives, in a
            // temporary that ends with the statement.
            let value = match (mode, value) {
                (ParamMode::Out, Operand::Const(_)) => {
                    let ty = match self.types.ty(a.value) {
                        Ty::Unknown => param
                            .and_then(|p| params.and_then(|ps| ps.get(p as usize)))
                            .map_or(Ty::Unknown, |p| p.ty.clone()),
                        ty => ty.clone(),
                    };
                    Operand::Var(self.temp(&ty, self.hir.expr_range(a.value)))
                }
                (_, value) => value,
            };
            // `out this.f`, `ref f`: the field is read into a temporary that
            // the call writes; the call then stores it back (not for a
            // `ref readonly` parameter, as `Volatile.Read(ref f)` has).
            if mode.is_written()
                && !read_only
                && let Operand::Var(t) = value
                && let Some(IrStmt::Load { dst, base, field }) =
                    self.b.body().nodes.last().map(|n| &n.stmt)
                && *dst == t
            {
                writebacks.push((t, *base, field.clone(), self.hir.expr_range(a.value)));
            }
            out.push(IrArg { param, value, mode });
        }
        // Set once every argument is lowered, so that calls inside the
        // arguments do not take them: the next call emitted is this one.
        self.writebacks.extend(writebacks);
        out
    }

    /// `(T)Activator.CreateInstance(..)`: a call whose model says it creates the
    /// object it returns as `object` creates a `T`, with `T`'s obligation.
    fn retype_created_object(&mut self, value: &Operand, cast: ExprId) {
        let Operand::Var(v) = *value else {
            return;
        };
        let ty = self.value_ty(&self.types.ty(cast).clone());
        let index = self.index;
        let Some(IrStmt::Call(call)) = self.b.body_mut().nodes.last_mut().map(|n| &mut n.stmt)
        else {
            return;
        };
        let creates = match call.callee {
            Callee::Method(m) => {
                let m = index.program.method(m);
                matches!(m.ret_ownership, Ownership::Owning(_))
                    && m.ret.ty == index.well_known.object
            }
            _ => false,
        };
        if call.dst == Some(v) && creates && ty.ty.is_some() {
            call.ty = ty.clone();
            self.b.body_mut().vars[v.index()].ty = ty;
        }
    }

    /// `Interlocked.Exchange(ref location, value)` ([`ParamDef::exchanged`]):
    /// the result is what `location` held, and `location` then holds `value`
    /// (stored back to its field, if it is one); `Volatile.Read(ref location)`
    /// only reads it.
    fn exchange(
        &mut self,
        callee: &Callee,
        args: &[IrArg],
        ty: &Ty,
        range: TextRange,
    ) -> Option<Operand> {
        let at = self.ref_arg_marked(callee, args, |p| p.exchanged)?;
        let location = args[at].value.var()?;
        let value = args
            .iter()
            .enumerate()
            .find(|(i, _)| *i != at)
            .map(|(_, a)| a.value.clone());
        let old = self.copy_of(location, ty, range);
        match value {
            Some(value) => {
                self.emit(
                    IrStmt::Copy {
                        dst: location,
                        src: value.clone(),
                    },
                    range,
                );
                // The field receives `value` itself, so that storing `null` reads as such.
                self.flush_writebacks(Some((location, &value)));
            }
            None => self.writebacks.retain(|w| w.0 != location),
        }
        Some(Operand::Var(old))
    }

    /// `Interlocked.Increment(ref location)` ([`ParamDef::incremented`]): a
    /// copy of what `location` holds before the call.
    fn before_increment(
        &mut self,
        callee: &Callee,
        args: &[IrArg],
        ty: &Ty,
        range: TextRange,
    ) -> Option<VarId> {
        let at = self.ref_arg_marked(callee, args, |p| p.incremented)?;
        let location = args[at].value.var()?;
        Some(self.copy_of(location, ty, range))
    }

    /// The position of the argument passed by `ref` to a parameter of the
    /// callee that `marked` says is its location (`[Exchanged]`, `[Incremented]`).
    fn ref_arg_marked(
        &self,
        callee: &Callee,
        args: &[IrArg],
        marked: impl Fn(&ParamDef) -> bool,
    ) -> Option<usize> {
        let Callee::Method(m) = callee else {
            return None;
        };
        let params = &self.index.program.get_method(*m)?.params;
        args.iter().position(|a| {
            a.mode == ParamMode::Ref
                && a.param
                    .and_then(|p| params.get(p as usize))
                    .is_some_and(&marked)
        })
    }

    /// A new temporary holding what `location` holds now.
    fn copy_of(&mut self, location: VarId, ty: &Ty, range: TextRange) -> VarId {
        let old = self.temp(ty, range);
        self.emit(
            IrStmt::Copy {
                dst: old,
                src: Operand::Var(location),
            },
            range,
        );
        old
    }

    fn emit_call(
        &mut self,
        e: ExprId,
        callee: Callee,
        kind: CallKind,
        receiver: Option<VarId>,
        args: Vec<IrArg>,
        awaited: bool,
    ) -> Operand {
        self.emit_call_typed(e, callee, kind, receiver, args, awaited, None)
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn emit_call_typed(
        &mut self,
        e: ExprId,
        callee: Callee,
        kind: CallKind,
        receiver: Option<VarId>,
        args: Vec<IrArg>,
        awaited: bool,
        result_ty: Option<Ty>,
    ) -> Operand {
        let range = self.hir.expr_range(e);
        let ty = result_ty.unwrap_or_else(|| self.types.ty(e).clone());
        if let Some(old) = self.exchange(&callee, &args, &ty, range) {
            return old;
        }
        let before_increment = self.before_increment(&callee, &args, &ty, range);
        let dst = (!matches!(ty, Ty::Void)).then(|| self.temp(&ty, range));
        if let (Some(old), Some(dst)) = (before_increment, dst) {
            self.increments.insert(dst, old);
        }
        let new_type = if kind == CallKind::New {
            ty.def()
        } else {
            None
        };
        let call = ir::Call {
            dst,
            callee,
            kind,
            receiver,
            args,
            awaited,
            ty: self.value_ty(&ty),
            new_type,
        };
        self.emit_throwing(IrStmt::Call(Box::new(call)), range);
        match dst {
            Some(d) => Operand::Var(d),
            None => Operand::Const(Const::Other),
        }
    }

    /// `x = v`, `obj.F = v`, `obj.P = v`, `a[i] = v`, `x ??= v`, deconstruction.
    fn assign(&mut self, e: ExprId, op: AssignOp, lhs: ExprId, rhs: ExprId) -> Operand {
        let range = self.hir.expr_range(e);
        let lhs_expr = self.hir.exprs.get(lhs.index()).cloned();
        if matches!(
            lhs_expr,
            Some(Expr::Tuple(_)) | Some(Expr::Declaration { .. })
        ) && op == AssignOp::Assign
        {
            let value = self.sub(rhs);
            self.deconstruct_from(lhs, rhs, value);
            return Operand::Const(Const::Other);
        }
        match op {
            AssignOp::Assign => {
                let value = self.sub(rhs);
                self.store(lhs, value.clone(), range);
                value
            }
            AssignOp::Coalesce => {
                let current = self.sub_var(lhs);
                let assign = self.new_label(range);
                let join = self.new_label(range);
                self.branch(Cond::IsNull(current), assign, join);
                self.cur = Some(assign);
                let value = self.sub(rhs);
                self.store(lhs, value.clone(), range);
                // The expression's value is what it assigned, or what was there.
                if self.cur.is_some() {
                    self.emit(
                        IrStmt::Copy {
                            dst: current,
                            src: value,
                        },
                        range,
                    );
                }
                self.place(join);
                Operand::Var(current)
            }
            AssignOp::Compound(BinaryOp::Sub) if self.event_target(lhs).is_some() => {
                self.unsubscribe(lhs, rhs, range);
                Operand::Const(Const::Other)
            }
            AssignOp::Compound(_) => {
                // Arithmetic, string and event `+=`/`-=`: no obligation moves.
                self.sub(lhs);
                self.sub(rhs);
                Operand::Const(Const::Other)
            }
        }
    }

    /// The event `lhs` names, if it names one.
    fn event_target(&self, lhs: ExprId) -> Option<MemberId> {
        match self.types.target(lhs) {
            Some(ExprTarget::Member(m)) if self.index.member(*m).kind == MemberKind::Event => {
                Some(*m)
            }
            _ => None,
        }
    }

    /// `publisher.E -= handler`: the publisher lets go of the handler (and of
    /// what it captures): a call of kind [`CallKind::Unsubscribe`] on the
    /// publisher (none for a static event). The handler is only evaluated: no
    /// obligation moves.
    fn unsubscribe(&mut self, lhs: ExprId, rhs: ExprId, range: TextRange) {
        let Some(m) = self.event_target(lhs) else {
            return;
        };
        let receiver = match self.hir.exprs.get(lhs.index()) {
            Some(Expr::MemberAccess { receiver, .. }) => Some(*receiver),
            _ => None,
        };
        let name = format!("{} -=", self.index.member(m).name);
        let base = self.member_object(m, receiver);
        self.sub(rhs);
        let call = ir::Call {
            dst: None,
            callee: Callee::Unresolved(name),
            kind: CallKind::Unsubscribe,
            receiver: base,
            args: Vec::new(),
            awaited: false,
            ty: ValueTy::default(),
            new_type: None,
        };
        self.emit(IrStmt::Call(Box::new(call)), range);
    }

    /// Stores `value` into the place `lhs` denotes.
    fn store(&mut self, lhs: ExprId, value: Operand, range: TextRange) {
        match self.hir.exprs.get(lhs.index()).cloned() {
            Some(Expr::Local(b)) => {
                let v = self.binding_var(b);
                self.emit(IrStmt::Copy { dst: v, src: value }, range);
            }
            Some(Expr::Declaration { bindings, .. }) => {
                if let Some(Some(b)) = bindings.first() {
                    let v = self.declare(*b);
                    self.emit(IrStmt::Copy { dst: v, src: value }, range);
                }
            }
            Some(Expr::ElementAccess { receiver, args, .. }) => {
                let coll = self.sub_var(receiver);
                for a in args.iter() {
                    self.sub(a.value);
                }
                match self.types.member_target(lhs).and_then(|m| {
                    let d = self.index.member(m);
                    let owner_ty = self.index.ty(d.owner).self_ty(d.owner);
                    self.index
                        .element_type(&owner_ty)
                        .is_none()
                        .then_some(d.setter)
                        .flatten()
                }) {
                    Some(setter) => {
                        let n = self.index.program.method(setter).params.len() as u32;
                        let call = ir::Call {
                            dst: None,
                            callee: Callee::Method(setter),
                            kind: CallKind::Ordinary,
                            receiver: Some(coll),
                            args: vec![IrArg {
                                param: n.checked_sub(1),
                                value,
                                mode: ParamMode::Value,
                            }],
                            awaited: false,
                            ty: ValueTy::default(),
                            new_type: None,
                        };
                        self.emit_throwing(IrStmt::Call(Box::new(call)), range);
                    }
                    None => {
                        self.emit(
                            IrStmt::StoreElement {
                                collection: coll,
                                src: value,
                            },
                            range,
                        );
                    }
                }
            }
            Some(Expr::Name { name, .. }) | Some(Expr::MemberAccess { name, .. }) => {
                let receiver = match self.hir.exprs.get(lhs.index()) {
                    Some(Expr::MemberAccess { receiver, .. }) => Some(*receiver),
                    _ => None,
                };
                match self.types.target(lhs).cloned() {
                    Some(ExprTarget::Member(m)) => self.store_member(m, receiver, value, range),
                    Some(ExprTarget::PrimaryParam(i)) => {
                        if let Some(v) = self.b.body().param_var(i) {
                            self.emit(IrStmt::Copy { dst: v, src: value }, range);
                        }
                    }
                    // `_ = expr` with nothing named `_` in scope: a discard.
                    _ if receiver.is_none() && name.as_str() == "_" => {}
                    _ => {
                        let base = match receiver {
                            Some(r) => Some(self.sub_var(r)),
                            None => self.this_var,
                        };
                        self.emit(
                            IrStmt::Store {
                                base,
                                field: FieldRef::Unknown(name.to_string()),
                                src: value,
                            },
                            range,
                        );
                    }
                }
            }
            Some(Expr::Unary {
                op: UnaryOp::Deref, ..
            })
            | Some(Expr::This)
            | None => {}
            Some(_) => {
                self.sub(lhs);
            }
        }
    }

    /// Stores into a field (or auto-property) or calls a property's setter.
    /// The object whose member `m` is written through `receiver` (`this`
    /// without one): none for a static member.
    fn member_object(&mut self, m: MemberId, receiver: Option<ExprId>) -> Option<VarId> {
        if self.index.member(m).is_static() {
            return None;
        }
        match receiver {
            Some(r) => Some(self.sub_var(r)),
            None => self.this_var,
        }
    }

    fn store_member(
        &mut self,
        m: MemberId,
        receiver: Option<ExprId>,
        value: Operand,
        range: TextRange,
    ) {
        let data = self.index.member(m);
        let base = self.member_object(m, receiver);
        if let Some(field) = data.field {
            self.emit(
                IrStmt::Store {
                    base,
                    field: FieldRef::Known(field),
                    src: value,
                },
                range,
            );
        } else if let Some(setter) = data.setter {
            let n = self.index.program.method(setter).params.len() as u32;
            let call = ir::Call {
                dst: None,
                callee: Callee::Method(setter),
                kind: CallKind::Ordinary,
                receiver: base,
                args: vec![IrArg {
                    param: n.checked_sub(1),
                    value,
                    mode: ParamMode::Value,
                }],
                awaited: false,
                ty: ValueTy::default(),
                new_type: None,
            };
            self.emit_throwing(IrStmt::Call(Box::new(call)), range);
        } else {
            let name = data.name.to_string();
            self.emit(
                IrStmt::Store {
                    base,
                    field: FieldRef::Unknown(name),
                    src: value,
                },
                range,
            );
        }
    }

    fn coalesce(&mut self, e: ExprId, lhs: ExprId, rhs: ExprId) -> Operand {
        let range = self.hir.expr_range(e);
        let ty = self.types.ty(e).clone();
        let result = self.temp(&ty, range);
        let use_right = self.new_label(range);
        let use_left = self.new_label(range);
        let join = self.new_label(range);
        let left = if self.spine_is_conditional(lhs) {
            // `a?.B() ?? c`: a null `a` goes straight to `c`, so no path
            // carries the null the chain would have produced into `??`.
            let saved = self.chain.replace(use_right);
            let op = self.rvalue(lhs);
            self.chain = saved;
            self.operand_var(op, lhs)
        } else {
            self.sub_var(lhs)
        };
        self.branch(Cond::IsNull(left), use_right, use_left);
        self.cur = Some(use_left);
        self.emit(
            IrStmt::Copy {
                dst: result,
                src: Operand::Var(left),
            },
            range,
        );
        self.jump_to(join);
        self.cur = Some(use_right);
        let right = self.sub(rhs);
        if self.cur.is_some() {
            self.emit(
                IrStmt::Copy {
                    dst: result,
                    src: right,
                },
                range,
            );
        }
        self.place(join);
        Operand::Var(result)
    }

    /// `var (a, b) = value` / `(x, y) = value`: the items of a tuple literal,
    /// new elements of a call's result, or the members of a tuple held.
    fn deconstruct_from(&mut self, target: ExprId, source: ExprId, value: Operand) {
        let from = match (&value, self.hir.exprs.get(source.index())) {
            (Operand::Var(v), _) if self.tuple_items.contains_key(v) => Deconstructed::Members(*v),
            (_, Some(Expr::Call { .. } | Expr::Await(_) | Expr::New { .. })) => {
                Deconstructed::Owned
            }
            (Operand::Var(v), _) => Deconstructed::Members(*v),
            _ => Deconstructed::Owned,
        };
        self.deconstruct(target, from);
    }

    /// Assigns each deconstruction target from `from`.
    pub(super) fn deconstruct(&mut self, target: ExprId, from: Deconstructed) {
        let range = self.hir.expr_range(target);
        let targets: Vec<ExprId> = match self.hir.exprs.get(target.index()) {
            Some(Expr::Tuple(items)) => items.iter().map(|(_, x)| *x).collect(),
            Some(Expr::Declaration { bindings, .. }) => {
                let bindings = bindings.clone();
                let items = match self.types.ty(target) {
                    crate::index::Ty::Tuple(items, _) => items.to_vec(),
                    _ => Vec::new(),
                };
                for (i, b) in bindings.iter().enumerate() {
                    let src = self.element_source(&from, i, range);
                    let v = match b {
                        Some(b) => self.declare(*b),
                        // A discarded element still arrives, and is lost right away.
                        None => {
                            let ty = items.get(i).cloned().unwrap_or(Ty::Unknown);
                            self.temp(&ty, range)
                        }
                    };
                    self.emit_element_value(v, src, range);
                }
                return;
            }
            _ => return,
        };
        for (i, t) in targets.iter().enumerate() {
            match self.hir.exprs.get(t.index()) {
                Some(Expr::Tuple(_)) | Some(Expr::Declaration { .. }) => {
                    let inner = match self.element_source(&from, i, range) {
                        Some(Operand::Var(v)) => Deconstructed::Members(v),
                        _ => Deconstructed::Owned,
                    };
                    self.deconstruct(*t, inner)
                }
                _ => {
                    let src = self.element_source(&from, i, range);
                    let ty = self.types.ty(*t).clone();
                    let tmp = self.temp(&ty, range);
                    self.emit_element_value(tmp, src, range);
                    self.store(*t, Operand::Var(tmp), range);
                }
            }
        }
    }

    /// The value of element `i`: a literal's item itself, a load of the held
    /// tuple's member, or `None` for a new element of an owned result.
    fn element_source(
        &mut self,
        from: &Deconstructed,
        i: usize,
        range: TextRange,
    ) -> Option<Operand> {
        match from {
            Deconstructed::Owned => None,
            Deconstructed::Members(t) => {
                if let Some(op) = self.tuple_items.get(t).and_then(|items| items.get(i)) {
                    return Some(op.clone());
                }
                let dst = self.temp(&Ty::Unknown, range);
                self.emit(
                    IrStmt::Load {
                        dst,
                        base: Some(*t),
                        field: FieldRef::Unknown(format!("Item{}", i + 1)),
                    },
                    range,
                );
                Some(Operand::Var(dst))
            }
        }
    }

    /// `t.name = value` for a member the program has no field for.
    fn store_unknown_member(&mut self, t: VarId, name: String, value: Operand, range: TextRange) {
        self.emit(
            IrStmt::Store {
                base: Some(t),
                field: FieldRef::Unknown(name),
                src: value,
            },
            range,
        );
    }

    /// The member name a projection gives: `new { x, y.Name }` has members `x`
    /// and `Name`, and so do the elements of the tuple `(x, y.Name)`.
    fn emit_element_value(&mut self, dst: VarId, src: Option<Operand>, range: TextRange) {
        match src {
            Some(op) => self.emit(IrStmt::Copy { dst, src: op }, range),
            None => self.emit(IrStmt::Opaque { dst, owning: true }, range),
        };
    }
}

/// Where the values of a deconstruction come from.
pub(super) enum Deconstructed {
    /// The result of a call: each element is new to the method.
    Owned,
    /// A tuple the method holds: its items when it is a literal of this body,
    /// else its members `Item1`, `Item2`, ...
    Members(VarId),
}

impl Lowerer<'_> {
    /// Object and collection initializers applied to the new object `target`.
    fn initializer(&mut self, target: VarId, ty: &Ty, init: &[InitElem], range: TextRange) {
        for el in init {
            match el {
                InitElem::Member {
                    name,
                    value,
                    range: r,
                } => {
                    let member = self.find_value_member(ty, name);
                    match value {
                        InitValue::Expr(x) => {
                            let v = self.sub(*x);
                            match member {
                                Some(m) => self.store_member_on(m, target, v, *r),
                                None => {
                                    self.emit(
                                        IrStmt::Store {
                                            base: Some(target),
                                            field: FieldRef::Unknown(name.to_string()),
                                            src: v,
                                        },
                                        *r,
                                    );
                                }
                            }
                        }
                        InitValue::Nested(inner) => {
                            let mty = member
                                .map(|m| self.index.member(m).ty.clone())
                                .unwrap_or(Ty::Unknown);
                            let t = self.temp(&mty, *r);
                            let field = member.and_then(|m| self.index.member(m).field);
                            self.emit(
                                IrStmt::Load {
                                    dst: t,
                                    base: Some(target),
                                    field: field
                                        .map(FieldRef::Known)
                                        .unwrap_or_else(|| FieldRef::Unknown(name.to_string())),
                                },
                                *r,
                            );
                            self.initializer(t, &mty, inner, *r);
                        }
                    }
                }
                InitElem::Indexer { args, value } => {
                    for a in args.iter() {
                        self.sub(a.value);
                    }
                    match value {
                        InitValue::Expr(x) => {
                            let v = self.sub(*x);
                            self.emit(
                                IrStmt::StoreElement {
                                    collection: target,
                                    src: v,
                                },
                                range,
                            );
                        }
                        InitValue::Nested(inner) => {
                            let t = self.temp(&Ty::Unknown, range);
                            self.emit(
                                IrStmt::Element {
                                    dst: t,
                                    collection: target,
                                },
                                range,
                            );
                            self.initializer(t, &Ty::Unknown, inner, range);
                        }
                    }
                }
                InitElem::Add(items) => {
                    let values: Vec<Operand> = items.iter().map(|x| self.sub(*x)).collect();
                    let add = self.find_method(ty, "Add", values.len());
                    let callee = match add.and_then(|m| self.index.member(m).method) {
                        Some(m) => Callee::Method(m),
                        None => Callee::Unresolved("Add".into()),
                    };
                    let args = values
                        .into_iter()
                        .enumerate()
                        .map(|(i, value)| IrArg {
                            param: add.map(|_| i as u32),
                            value,
                            mode: ParamMode::Value,
                        })
                        .collect();
                    let call = ir::Call {
                        dst: None,
                        callee,
                        kind: CallKind::Ordinary,
                        receiver: Some(target),
                        args,
                        awaited: false,
                        ty: ValueTy::default(),
                        new_type: None,
                    };
                    let r = items
                        .first()
                        .map(|x| self.hir.expr_range(*x))
                        .unwrap_or(range);
                    self.emit_throwing(IrStmt::Call(Box::new(call)), r);
                }
            }
        }
    }

    fn store_member_on(&mut self, m: MemberId, target: VarId, value: Operand, range: TextRange) {
        let data = self.index.member(m);
        if let Some(field) = data.field {
            self.emit(
                IrStmt::Store {
                    base: Some(target),
                    field: FieldRef::Known(field),
                    src: value,
                },
                range,
            );
        } else if let Some(setter) = data.setter {
            let n = self.index.program.method(setter).params.len() as u32;
            let call = ir::Call {
                dst: None,
                callee: Callee::Method(setter),
                kind: CallKind::Ordinary,
                receiver: Some(target),
                args: vec![IrArg {
                    param: n.checked_sub(1),
                    value,
                    mode: ParamMode::Value,
                }],
                awaited: false,
                ty: ValueTy::default(),
                new_type: None,
            };
            self.emit_throwing(IrStmt::Call(Box::new(call)), range);
        }
    }

    fn find_value_member(&self, ty: &Ty, name: &str) -> Option<MemberId> {
        self.index.ancestors(ty).into_iter().find_map(|a| {
            let def = a.def()?;
            self.index
                .ty(def)
                .members
                .get(name)?
                .iter()
                .copied()
                .find(|m| !self.index.member(*m).is_method_like())
        })
    }

    fn find_method(&self, ty: &Ty, name: &str, arity: usize) -> Option<MemberId> {
        self.index.ancestors(ty).into_iter().find_map(|a| {
            let def = a.def()?;
            self.index
                .ty(def)
                .members
                .get(name)?
                .iter()
                .copied()
                .find(|m| {
                    let d = self.index.member(*m);
                    let (min, max) = d.arg_range();
                    d.is_method_like()
                        && !d.is_extension
                        && min <= arity
                        && max.is_none_or(|x| arity <= x)
                })
        })
    }

    /// A lambda, anonymous method or local function: lowered as its own body; the
    /// enclosing body gets a `Closure` naming the variables it captures.
    /// `s.Dispose` taken as a delegate (`token.Register(s.Dispose)`): a
    /// closure that calls the method on the receiver it captured, so a
    /// deferred disposal is one the way `() => s.Dispose()` is.
    fn method_group(
        &mut self,
        e: ExprId,
        receiver: ExprId,
        base: VarId,
        method: MemberId,
        returns: &Ty,
    ) -> Operand {
        let range = self.hir.expr_range(e);
        let Some(callee) = self.index.member(method).method else {
            return Operand::Const(Const::Other);
        };
        let name = format!("{}.<method group#{}>", self.b.body().name, self.out.len());
        let key = format!(
            "{}.<method group#{}>",
            self.b.body().fingerprint_key(),
            self.out.len()
        );
        let captured = self.b.body().var(base).clone();
        let (index, file, hir, hir_id, types) =
            (self.index, self.file, self.hir, self.hir_id, self.types);
        let parent = self.self_id;
        let body = {
            let mut inner = Lowerer::new(
                index,
                file,
                hir,
                hir_id,
                types,
                name,
                BodyKind::Lambda,
                range,
                self.out,
            );
            inner.b.body_mut().key = key;
            let span = inner.span(hir.expr_range(receiver));
            let v = inner
                .b
                .var(captured.name, VarKind::Captured, captured.ty, span);
            let value = inner.emit_call_typed(
                e,
                Callee::Method(callee),
                CallKind::Ordinary,
                Some(v),
                Vec::new(),
                false,
                Some(returns.clone()),
            );
            if let Operand::Var(t) = &value {
                inner.temps.retain(|x| x != t);
            }
            inner.end_temps(range);
            if inner.cur.is_some() && !matches!(returns, Ty::Void) {
                inner.emit(IrStmt::Return(Some(value)), range);
            }
            let body = inner.self_id;
            inner.finish(None, Some(parent), false, false);
            body
        };
        let ty = self.types.ty(e).clone();
        let t = self.temp(&ty, range);
        self.emit(
            IrStmt::Closure {
                dst: Some(t),
                body,
                captures: vec![base],
            },
            range,
        );
        Operand::Var(t)
    }

    pub(super) fn function(&mut self, f: &Function, kind: BodyKind, dst: Option<VarId>) {
        let parent = self.self_id;
        let name = match &f.name {
            Some(n) => format!("{}.{}", self.b.body().name, n),
            None => format!("{}.<lambda#{}>", self.b.body().name, self.out.len()),
        };
        // Lambdas are numbered within the member, so other members' edits
        // leave the key alone.
        let key = match &f.name {
            Some(n) => format!("{}.{}", self.b.body().fingerprint_key(), n),
            None => format!(
                "{}.<lambda#{}>",
                self.b.body().fingerprint_key(),
                self.out.len()
            ),
        };
        let (index, file, hir, hir_id, types) =
            (self.index, self.file, self.hir, self.hir_id, self.types);
        let this_ty = self.this_var.map(|v| self.b.body().var(v).ty.clone());
        let captured = {
            let mut inner = Lowerer::new(
                index, file, hir, hir_id, types, name, kind, f.range, self.out,
            );
            inner.b.body_mut().key = key;
            for (i, &p) in f.params.iter().enumerate() {
                inner.own.insert(p);
                let data = hir.binding(p);
                let ty = types.binding_ty(p).clone();
                let v = inner.new_var(
                    data.name.to_string(),
                    VarKind::Param(i as u32),
                    &ty,
                    data.range,
                );
                inner.vars.insert(p, v);
            }
            if kind == BodyKind::Lambda {
                inner.b.body_mut().param_modes = f
                    .params
                    .iter()
                    .map(|&p| crate::index::param_mode(hir.binding(p).modifier))
                    .collect();
            }
            inner.this_var = this_ty.map(|ty| {
                let span = inner.b.body().span;
                inner.b.var("this", VarKind::This, ty, span)
            });
            let body_index = inner.self_id;
            match &f.body {
                Some(LambdaBody::Block(s)) => inner.stmt(*s),
                Some(LambdaBody::Expr(x)) => {
                    let v = inner.expr_value(*x);
                    let r = hir.expr_range(*x);
                    if let Operand::Var(t) = &v {
                        inner.temps.retain(|x| x != t);
                    }
                    inner.end_temps(r);
                    if inner.cur.is_some() {
                        inner.emit(IrStmt::Return(Some(v)), r);
                    }
                }
                None => {}
            }
            let method = f
                .binding
                .and_then(|b| index.local_function(file, hir_id, b))
                .and_then(|m| index.member(m).method);
            let captured = inner.finish(method, Some(parent), f.is_async, false);
            (body_index, captured)
        };
        let (body_index, captured) = captured;
        let captures: Vec<VarId> = captured.into_iter().map(|b| self.binding_var(b)).collect();
        self.emit(
            IrStmt::Closure {
                dst,
                body: body_index,
                captures,
            },
            f.range,
        );
    }
}

fn query_exprs(c: &crate::hir::QueryClause) -> Vec<ExprId> {
    use crate::hir::QueryClause::*;
    match c {
        From { source, keys, .. } => std::iter::once(*source)
            .chain(keys.iter().copied())
            .collect(),
        Let { value, .. } => vec![*value],
        Filter(xs) => xs.to_vec(),
        Select { value, key, .. } => std::iter::once(*value).chain(*key).collect(),
    }
}
