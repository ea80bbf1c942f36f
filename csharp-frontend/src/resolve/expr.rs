//! Expressions: their static types, what their names refer to, and the calls they make.

use super::lookup::Candidate;
use super::{CallBinding, ExprTarget, Resolver};
use crate::hir::{
    Arg, AssignOp, BinaryOp, BindingKind, CollectionElem, Expr, ExprId, Function, InitElem,
    InitValue, LambdaBody, Literal, MemberKind, Name, PathSegment, QueryClause, TypeRef, UnaryOp,
};
use crate::index::{MemberId, NsId, Origin, ParamOwner, Resolved, Subst, TupleNames, Ty};

/// What a name or member access denotes before it is used.
#[derive(Clone, Debug)]
pub(super) enum Qual {
    Value(Ty),
    Type(Ty),
    Ns(NsId),
    Nothing,
}

impl Resolver<'_> {
    /// The static type of `e`, resolving it (once) with an optional target type.
    pub(super) fn expr(&mut self, e: ExprId, expected: Option<&Ty>) -> Ty {
        let i = e.index();
        if i >= self.done.len() {
            return Ty::Unknown;
        }
        if self.done[i] {
            return self.out.exprs[i].clone();
        }
        self.done[i] = true;
        let ty = self.expr_inner(e, expected);
        self.out.exprs[i] = ty.clone();
        ty
    }

    fn named(&self, name: &str) -> Ty {
        self.index
            .type_by_name(name, 0)
            .map(Ty::named)
            .unwrap_or(Ty::Unknown)
    }

    fn bool_ty(&self) -> Ty {
        self.index
            .well_known
            .boolean
            .map(Ty::named)
            .unwrap_or(Ty::Unknown)
    }

    fn string_ty(&self) -> Ty {
        self.index
            .well_known
            .string
            .map(Ty::named)
            .unwrap_or(Ty::Unknown)
    }

    fn expr_inner(&mut self, e: ExprId, expected: Option<&Ty>) -> Ty {
        let body = self.body;
        let Some(expr) = body.exprs.get(e.index()) else {
            return Ty::Unknown;
        };
        match expr {
            Expr::Missing => Ty::Unknown,
            Expr::Literal(l) => match l {
                Literal::Null => Ty::Null,
                Literal::Bool(_) => self.bool_ty(),
                Literal::Int(_) => self
                    .index
                    .well_known
                    .int32
                    .map(Ty::named)
                    .unwrap_or(Ty::Unknown),
                Literal::Real => self
                    .index
                    .well_known
                    .double
                    .map(Ty::named)
                    .unwrap_or(Ty::Unknown),
                Literal::Char => self
                    .index
                    .well_known
                    .char
                    .map(Ty::named)
                    .unwrap_or(Ty::Unknown),
                Literal::Str(_) => self.string_ty(),
            },
            Expr::Local(b) => self.out.binding_ty(*b).clone(),
            Expr::This => self.this_ty.clone().unwrap_or(Ty::Unknown),
            Expr::Base => self
                .owner
                .ty
                .and_then(|t| self.index.ty(t).base.clone())
                .unwrap_or(Ty::Unknown),
            Expr::PredefinedType(_) | Expr::AliasQualified { .. } | Expr::Name { .. } => {
                match self.qualifier(e) {
                    Qual::Value(t) => t,
                    _ => Ty::Unknown,
                }
            }
            Expr::MemberAccess { .. } => match self.qualifier(e) {
                Qual::Value(t) => t,
                _ => Ty::Unknown,
            },
            Expr::ElementAccess { receiver, args, .. } => {
                let (receiver, args) = (*receiver, args.clone());
                self.element_access(e, receiver, &args)
            }
            Expr::Call { callee, args } => {
                let (callee, args) = (*callee, args.clone());
                self.call(e, callee, &args)
            }
            Expr::New { ty, args, init } => {
                let t = match ty {
                    Some(t) => self.resolve_type(t),
                    None => expected.cloned().unwrap_or(Ty::Unknown),
                };
                let (args, init) = (args.clone(), init.clone());
                if t.def().is_some() {
                    self.resolve_constructor_call(Some(e), &t, &args);
                } else {
                    for a in args.iter() {
                        self.expr(a.value, None);
                    }
                }
                if let Some(init) = init {
                    self.initializer(&t, &init);
                }
                t
            }
            Expr::NewArray { elem, sizes, init } => {
                let declared = elem.as_ref().map(|t| self.resolve_type(t));
                for s in sizes.clone().iter() {
                    self.expr(*s, None);
                }
                let elem_expected = declared
                    .clone()
                    .or_else(|| expected.and_then(|t| self.index.element_type(t)));
                let mut first = None;
                for i in init.clone().iter().flat_map(|v| v.iter()) {
                    let t = self.expr(*i, elem_expected.as_ref());
                    if first.is_none() && !t.is_unknown() && t != Ty::Null {
                        first = Some(t);
                    }
                }
                match declared.or(elem_expected).or(first) {
                    Some(el) => Ty::Array {
                        elem: Box::new(el),
                        rank: 1,
                    },
                    None => Ty::Unknown,
                }
            }
            Expr::AnonymousObject(items) => {
                for (_, v) in items.clone().iter() {
                    self.expr(*v, None);
                }
                Ty::Unknown
            }
            Expr::Collection(items) => {
                let elem = expected.and_then(|t| self.index.element_type(t));
                for it in items.clone().iter() {
                    match it {
                        CollectionElem::Expr(x) => {
                            self.expr(*x, elem.as_ref());
                        }
                        CollectionElem::Spread(x) => {
                            self.expr(*x, None);
                        }
                    }
                }
                expected.cloned().unwrap_or(Ty::Unknown)
            }
            Expr::Assign { op, lhs, rhs } => {
                let (op, lhs, rhs) = (*op, *lhs, *rhs);
                let is_deconstruction =
                    matches!(body.expr(lhs), Expr::Tuple(_) | Expr::Declaration { .. });
                if is_deconstruction && op == AssignOp::Assign {
                    let r = self.expr(rhs, None);
                    self.deconstruct_into(lhs, &r);
                    return r;
                }
                let l = self.expr(lhs, None);
                let r = self.expr(rhs, Some(&l).filter(|t| !t.is_unknown()));
                if l.is_unknown() { r } else { l }
            }
            Expr::Binary { op, lhs, rhs } => {
                let (op, lhs, rhs) = (*op, *lhs, *rhs);
                self.binary(op, lhs, rhs, expected)
            }
            Expr::Unary { op, operand } => {
                let (op, operand) = (*op, *operand);
                let t = self.expr(
                    operand,
                    if op == UnaryOp::Forgive {
                        expected
                    } else {
                        None
                    },
                );
                match op {
                    UnaryOp::Not if t.def() == self.index.well_known.boolean || t.is_unknown() => {
                        self.bool_ty()
                    }
                    UnaryOp::AddressOf => Ty::Pointer(Box::new(t)),
                    UnaryOp::Deref => match t {
                        Ty::Pointer(inner) => *inner,
                        _ => Ty::Unknown,
                    },
                    UnaryOp::FromEnd => self.named("System.Index"),
                    _ => t,
                }
            }
            Expr::Conditional { cond, then, else_ } => {
                let (cond, then, else_) = (*cond, *then, *else_);
                self.expr(cond, None);
                let a = self.expr(then, expected);
                let hint = if a.is_unknown() || a == Ty::Null {
                    expected.cloned()
                } else {
                    Some(a.clone())
                };
                let b = self.expr(else_, hint.as_ref());
                if a.is_unknown() || a == Ty::Null {
                    b.or(|| a)
                } else if let (Some(x), Some(y)) = (a.def(), b.def())
                    && x != y
                    && self.index.is_subtype_def(x, y)
                    && !self.index.is_subtype_def(y, x)
                {
                    // `c ? new A() : (IReader)new B()` has the type both convert to.
                    b
                } else {
                    a
                }
            }
            Expr::Cast { ty, expr } => {
                let t = self.resolve_type(ty);
                self.expr(*expr, None);
                t
            }
            Expr::As { expr, ty } => {
                self.expr(*expr, None);
                self.resolve_type(ty)
            }
            Expr::Is { expr, pat } => {
                let (expr, pat) = (*expr, *pat);
                let t = self.expr(expr, None);
                self.pat(pat, &t);
                self.bool_ty()
            }
            Expr::Switch { scrutinee, arms } => {
                let (scrutinee, arms) = (*scrutinee, arms.clone());
                let st = self.expr(scrutinee, None);
                let mut result: Option<Ty> = None;
                for arm in arms.iter() {
                    self.pat(arm.pat, &st);
                    if let Some(g) = arm.guard {
                        self.expr(g, None);
                    }
                    let hint = result.clone().or_else(|| expected.cloned());
                    let t = self.expr(arm.value, hint.as_ref());
                    if result.is_none() && !t.is_unknown() && t != Ty::Null {
                        result = Some(t);
                    }
                }
                result.or_else(|| expected.cloned()).unwrap_or(Ty::Unknown)
            }
            Expr::Lambda(f) => {
                let f = f.clone();
                self.lambda(e, &f, expected)
            }
            Expr::Await(inner) => {
                let t = self.expr(*inner, None);
                self.unwrap_task(&t).unwrap_or(Ty::Unknown)
            }
            Expr::Tuple(items) => {
                let items = items.clone();
                let hints = expected.map(|t| self.tuple_items(t, items.len()));
                let names = TupleNames::new(items.iter().map(|(name, x)| {
                    name.clone()
                        .or_else(|| self.body.projected_name(*x).cloned())
                }));
                Ty::Tuple(
                    items
                        .iter()
                        .enumerate()
                        .map(|(i, (_, x))| {
                            let h = hints
                                .as_ref()
                                .and_then(|h| h.get(i))
                                .filter(|t| !t.is_unknown())
                                .cloned();
                            self.expr(*x, h.as_ref())
                        })
                        .collect(),
                    names,
                )
            }
            Expr::Declaration { ty, bindings } => {
                let declared = ty
                    .as_ref()
                    .filter(|t| !matches!(***t, TypeRef::Var))
                    .map(|t| self.resolve_type(t));
                let t = declared
                    .or_else(|| expected.cloned())
                    .unwrap_or(Ty::Unknown);
                let bindings = bindings.clone();
                if bindings.len() == 1 {
                    if let Some(b) = bindings[0] {
                        self.set_binding(b, t.clone());
                    }
                } else {
                    let items = self.tuple_items(&t, bindings.len());
                    for (b, it) in bindings.iter().zip(items) {
                        if let Some(b) = b {
                            self.set_binding(*b, it);
                        }
                    }
                }
                t
            }
            Expr::Default(ty) => match ty {
                Some(t) => self.resolve_type(t),
                None => expected.cloned().unwrap_or(Ty::Unknown),
            },
            Expr::TypeOf(ty) => {
                self.resolve_type(ty);
                self.index
                    .well_known
                    .type_
                    .map(Ty::named)
                    .unwrap_or(Ty::Unknown)
            }
            Expr::SizeOf(ty) => {
                self.resolve_type(ty);
                self.index
                    .well_known
                    .int32
                    .map(Ty::named)
                    .unwrap_or(Ty::Unknown)
            }
            Expr::Throw(x) => {
                self.expr(*x, None);
                expected.cloned().unwrap_or(Ty::Unknown)
            }
            Expr::Checked(x) | Expr::Ref(x) => self.expr(*x, expected),
            Expr::Range { lo, hi } => {
                for x in [lo, hi].into_iter().flatten() {
                    self.expr(*x, None);
                }
                self.named("System.Range")
            }
            Expr::With { expr, init } => {
                let t = self.expr(*expr, expected);
                let init = init.clone();
                self.initializer(&t, &init);
                t
            }
            Expr::Query(clauses) => {
                let clauses = clauses.clone();
                self.query(&clauses)
            }
            Expr::Interpolated(parts) => {
                for p in parts.clone().iter() {
                    self.expr(*p, None);
                }
                self.string_ty()
            }
            Expr::Other(parts) => {
                for p in parts.clone().iter() {
                    self.expr(*p, None);
                }
                Ty::Unknown
            }
        }
    }

    /// Resolves a name, member access or keyword type in a position where it may be
    /// a namespace, a type or a value.
    pub(super) fn qualifier(&mut self, e: ExprId) -> Qual {
        let body = self.body;
        let q = match body.exprs.get(e.index()) {
            Some(Expr::Local(b)) => Qual::Value(self.out.binding_ty(*b).clone()),
            Some(Expr::This) | Some(Expr::Base) => Qual::Value(self.expr(e, None)),
            Some(Expr::PredefinedType(p)) => Qual::Type(self.index.predefined(*p)),
            Some(Expr::Name { name, type_args }) => {
                let (name, type_args) = (name.clone(), type_args.clone());
                self.name_qualifier(e, &name, type_args.as_deref().map(|t| &t[..]))
            }
            Some(Expr::AliasQualified { alias, name }) => {
                let seg = PathSegment {
                    name: name.clone(),
                    args: Box::new([]),
                };
                match self.index.resolve_path(
                    &self.scope,
                    Some(alias),
                    std::slice::from_ref(&seg),
                    &mut self.out.stats.types,
                ) {
                    Some(Resolved::Ns(ns)) => Qual::Ns(ns),
                    Some(Resolved::Type(t)) => Qual::Type(t),
                    None => Qual::Nothing,
                }
            }
            Some(Expr::MemberAccess {
                receiver,
                name,
                type_args,
                ..
            }) => {
                let (receiver, name, type_args) = (*receiver, name.clone(), type_args.clone());
                self.member_qualifier(e, receiver, &name, type_args.as_deref().map(|t| &t[..]))
            }
            _ => return Qual::Value(self.expr(e, None)),
        };
        if let Qual::Value(t) = &q
            && e.index() < self.done.len()
        {
            self.done[e.index()] = true;
            self.out.exprs[e.index()] = t.clone();
        }
        q
    }

    fn type_args(&mut self, args: Option<&[TypeRef]>) -> Vec<Ty> {
        args.unwrap_or(&[])
            .iter()
            .map(|t| self.resolve_type(t))
            .collect()
    }

    /// A simple name: a member of an enclosing type, a primary-constructor parameter,
    /// a `using static` member, then a type or namespace.
    fn name_qualifier(&mut self, e: ExprId, name: &Name, type_args: Option<&[TypeRef]>) -> Qual {
        if type_args.is_none() {
            if let Some((m, ty)) = self.enclosing_value_member(name) {
                self.out.targets.insert(e, ExprTarget::Member(m));
                return Qual::Value(ty);
            }
            if let Some(t) = self.owner.ty
                && let Some(i) = self
                    .index
                    .ty(t)
                    .primary_params
                    .iter()
                    .position(|(n, _)| n == name)
            {
                self.out
                    .targets
                    .insert(e, ExprTarget::PrimaryParam(i as u32));
                return Qual::Value(self.index.ty(t).primary_params[i].1.clone());
            }
        }
        let seg = PathSegment {
            name: name.clone(),
            args: type_args
                .map(|a| a.to_vec().into_boxed_slice())
                .unwrap_or_default(),
        };
        let mut stats = std::mem::take(&mut self.out.stats.types);
        let r = self
            .index
            .resolve_path(&self.scope, None, std::slice::from_ref(&seg), &mut stats);
        self.out.stats.types = stats;
        match r {
            Some(Resolved::Type(t)) => {
                self.out.targets.insert(e, ExprTarget::Type(t.clone()));
                Qual::Type(t)
            }
            Some(Resolved::Ns(ns)) => {
                self.out.targets.insert(e, ExprTarget::Ns(ns));
                Qual::Ns(ns)
            }
            None => Qual::Nothing,
        }
    }

    /// A field, property or event named `name` of the enclosing types (and their
    /// bases), or imported with `using static`.
    fn enclosing_value_member(&self, name: &str) -> Option<(MemberId, Ty)> {
        let mut cur = self.owner.ty;
        let mut guard = 0;
        while let Some(t) = cur {
            let self_ty = self.index.ty(t).self_ty(t);
            if let Some((Some(m), ty)) = self.lookup_value_member(&self_ty, name, false) {
                return Some((m, ty));
            }
            cur = self.index.ty(t).parent;
            guard += 1;
            if guard > 32 {
                break;
            }
        }
        for (_, usings) in self.index.scope_chain(&self.scope) {
            for u in usings {
                for &st in &u.statics {
                    if let Some((Some(m), ty)) =
                        self.lookup_value_member(&crate::index::Ty::named(st), name, true)
                    {
                        return Some((m, ty));
                    }
                }
            }
        }
        None
    }

    fn member_qualifier(
        &mut self,
        e: ExprId,
        receiver: ExprId,
        name: &Name,
        type_args: Option<&[TypeRef]>,
    ) -> Qual {
        let recv = self.qualifier(receiver);
        match recv {
            Qual::Ns(ns) => {
                let seg = PathSegment {
                    name: name.clone(),
                    args: type_args
                        .map(|a| a.to_vec().into_boxed_slice())
                        .unwrap_or_default(),
                };
                if let Some(t) = self
                    .index
                    .type_in_ns(self.origin(), ns, name, seg.args.len())
                {
                    let args = self.type_args(type_args);
                    let t = Ty::Named {
                        def: t,
                        args: args.into(),
                    };
                    self.out.targets.insert(e, ExprTarget::Type(t.clone()));
                    return Qual::Type(t);
                }
                if type_args.is_none()
                    && let Some(child) = self.index.ns_child(self.origin(), ns, name)
                {
                    self.out.targets.insert(e, ExprTarget::Ns(child));
                    return Qual::Ns(child);
                }
                self.out.stats.types.unresolved += 1;
                Qual::Nothing
            }
            Qual::Type(t) => {
                if let Some((m, ty)) = self.lookup_value_member(&t, name, true) {
                    if let Some(m) = m {
                        self.out.targets.insert(e, ExprTarget::Member(m));
                    }
                    return Qual::Value(ty);
                }
                if let Some(def) = t.def()
                    && let Some(n) =
                        self.index
                            .nested_type(def, name, type_args.map_or(0, <[_]>::len), true)
                {
                    let mut args: Vec<Ty> = t.args().to_vec();
                    args.extend(self.type_args(type_args));
                    let nt = Ty::Named {
                        def: n,
                        args: args.into(),
                    };
                    self.out.targets.insert(e, ExprTarget::Type(nt.clone()));
                    return Qual::Type(nt);
                }
                Qual::Nothing
            }
            Qual::Value(t) => {
                if let Some((m, ty)) = self.lookup_value_member(&t, name, false) {
                    if let Some(m) = m {
                        self.out.targets.insert(e, ExprTarget::Member(m));
                    }
                    return Qual::Value(ty);
                }
                // `Color Color`: a value whose type shares its name also reaches the type's statics.
                if let Some(Expr::Name { name: rn, .. }) = self.body.exprs.get(receiver.index())
                    && t.def().is_some_and(|d| &self.index.ty(d).name == rn)
                    && let Some((m, ty)) = self.lookup_value_member(&t, name, true)
                {
                    if let Some(m) = m {
                        self.out.targets.insert(e, ExprTarget::Member(m));
                    }
                    return Qual::Value(ty);
                }
                let candidates = self.method_candidates(&t, name, false);
                if candidates.is_empty() {
                    return Qual::Value(Ty::Unknown);
                }
                // A method group (`token.Register(s.Dispose)`): its parameterless
                // instance method (the most derived one), the one a deferred call
                // without arguments runs.
                if let Some(c) = candidates.iter().find(|c| {
                    let d = self.index.member(c.member);
                    d.params.is_empty() && !d.is_static() && d.type_params.is_empty()
                }) {
                    self.out.targets.insert(e, ExprTarget::Member(c.member));
                }
                Qual::Value(Ty::Function)
            }
            Qual::Nothing => Qual::Nothing,
        }
    }

    /// Whether calls on a receiver of this type count in the statistics: the type
    /// comes from the repository or the library model.
    fn counts(&self, ty: &Ty) -> bool {
        match ty {
            Ty::Named { .. } | Ty::Array { .. } => true,
            Ty::Param { owner, .. } => !matches!(owner, ParamOwner::Local),
            _ => false,
        }
    }

    fn call(&mut self, e: ExprId, callee: ExprId, args: &[Arg]) -> Ty {
        self.out.stats.calls_total += 1;
        let body = self.body;
        let callee_expr = body.exprs.get(callee.index()).cloned();
        let (counted, ty) = match callee_expr {
            Some(Expr::Name { name, type_args }) => {
                let targs = self.type_args(type_args.as_deref().map(|t| &t[..]));
                (true, self.call_by_name(e, callee, &name, &targs, args))
            }
            Some(Expr::Local(b)) => {
                // A local function or a delegate-typed local.
                let is_fn = body.binding(b).kind == BindingKind::LocalFunction;
                self.done[callee.index()] = true;
                let local_fn = is_fn
                    .then(|| self.index.local_function(self.owner.file, self.body_id, b))
                    .flatten();
                if let Some(member) = local_fn {
                    let c = vec![Candidate {
                        member,
                        subst: Subst::new(),
                        receiver: None,
                    }];
                    let r = self.pick_overload(c, args, &[]);
                    (true, self.finish(e, r, true))
                } else {
                    let t = self.out.binding_ty(b).clone();
                    if is_fn {
                        for a in args {
                            self.expr(a.value, None);
                        }
                        self.out.targets.insert(e, ExprTarget::DelegateInvoke);
                        self.out.stats.calls_resolved += 1;
                        (true, t)
                    } else {
                        (true, self.delegate_call(e, &t, args))
                    }
                }
            }
            Some(Expr::MemberAccess {
                receiver,
                name,
                type_args,
                ..
            }) => {
                let targs = self.type_args(type_args.as_deref().map(|t| &t[..]));
                let recv = self.qualifier(receiver);
                self.done[callee.index()] = true;
                match recv {
                    Qual::Type(t) => {
                        let c = self.method_candidates(&t, &name, true);
                        let r = self.pick_overload(c, args, &targs);
                        let counted = self.counts(&t);
                        if r.is_none() {
                            self.note_unresolved(&t, &name);
                        }
                        (counted, self.finish(e, r, counted))
                    }
                    Qual::Value(t) => {
                        let counted = self.counts(&t);
                        let c = self.method_candidates(&t, &name, false);
                        // A delegate-typed field or property called like a method.
                        if c.is_empty()
                            && let Some((m, ft)) = self.lookup_value_member(&t, &name, false)
                            && self.delegate_signature(&ft).is_some()
                        {
                            if let Some(m) = m {
                                self.out.targets.insert(callee, ExprTarget::Member(m));
                            }
                            self.out.exprs[callee.index()] = ft.clone();
                            return self.delegate_call(e, &ft, args);
                        }
                        // An instance method the arguments fit, then an extension
                        // method they fit, then the best guess among either.
                        let mut r = self.pick(c.clone(), args, &targs, false);
                        if r.is_none() {
                            let ext = if matches!(t, Ty::Unknown) {
                                Vec::new()
                            } else {
                                self.extension_candidates(&t, &name)
                            };
                            r = self
                                .pick(ext.clone(), args, &targs, false)
                                .or_else(|| self.pick(c, args, &targs, true))
                                .or_else(|| self.pick(ext, args, &targs, true));
                        }
                        if r.is_none() {
                            self.note_unresolved(&t, &name);
                        }
                        (counted, self.finish(e, r, counted))
                    }
                    Qual::Ns(_) | Qual::Nothing => {
                        for a in args {
                            self.expr(a.value, None);
                        }
                        (false, Ty::Unknown)
                    }
                }
            }
            _ => {
                let t = self.expr(callee, None);
                let counted = self.delegate_signature(&t).is_some();
                (counted, self.delegate_call(e, &t, args))
            }
        };
        if counted {
            self.out.stats.calls += 1;
        }
        ty
    }

    fn note_unresolved(&mut self, t: &Ty, name: &str) {
        if let Some(def) = t.def() {
            let key = format!("{}.{}", self.index.ty(def).full_name, name);
            *self.out.stats.unresolved_members.entry(key).or_default() += 1;
        }
    }

    fn finish(&mut self, e: ExprId, r: Option<(MemberId, CallBinding, Ty)>, counted: bool) -> Ty {
        if counted && r.is_some() {
            self.out.stats.calls_resolved += 1;
        }
        self.record_call(e, r)
    }

    /// A call of a delegate of type `t`: its arguments are resolved against
    /// the parameters of its `Invoke` (so `out var x` gets its type).
    fn delegate_call(&mut self, e: ExprId, t: &Ty, args: &[Arg]) -> Ty {
        let signature = self.delegate_signature(t);
        let params = signature.as_ref().map_or(&[][..], |(p, _)| p.as_slice());
        for (i, a) in args.iter().enumerate() {
            self.expr(a.value, params.get(i));
        }
        match signature {
            Some((_, ret)) => {
                self.out.targets.insert(e, ExprTarget::DelegateInvoke);
                self.out.stats.calls_resolved += 1;
                ret
            }
            None => Ty::Unknown,
        }
    }

    /// `Name(args)`: methods of the enclosing types, `using static` imports, `nameof`.
    fn call_by_name(
        &mut self,
        e: ExprId,
        callee: ExprId,
        name: &Name,
        targs: &[Ty],
        args: &[Arg],
    ) -> Ty {
        let mut candidates: Vec<Candidate> = Vec::new();
        let mut cur = self.owner.ty;
        let mut guard = 0;
        while let Some(t) = cur {
            let self_ty = self.index.ty(t).self_ty(t);
            candidates.extend(self.method_candidates(&self_ty, name, false));
            if !candidates.is_empty() {
                break;
            }
            cur = self.index.ty(t).parent;
            guard += 1;
            if guard > 32 {
                break;
            }
        }
        if candidates.is_empty() {
            for (_, usings) in self.index.scope_chain(&self.scope) {
                for u in usings {
                    for &st in &u.statics {
                        candidates.extend(self.method_candidates(&Ty::named(st), name, true));
                    }
                }
            }
        }
        self.done[callee.index()] = true;
        if candidates.is_empty() {
            if name == "nameof" {
                for a in args {
                    self.expr(a.value, None);
                }
                self.out.stats.calls_resolved += 1;
                return self.string_ty();
            }
            // A delegate-typed field or property of the enclosing type.
            if let Some((m, ft)) = self.enclosing_value_member(name)
                && self.delegate_signature(&ft).is_some()
            {
                self.out.targets.insert(callee, ExprTarget::Member(m));
                self.out.exprs[callee.index()] = ft.clone();
                return self.delegate_call(e, &ft, args);
            }
            for a in args {
                self.expr(a.value, None);
            }
            if let Some(t) = self.owner.ty {
                let self_ty = self.index.ty(t).self_ty(t);
                self.note_unresolved(&self_ty, name);
            }
            return Ty::Unknown;
        }
        let r = self.pick_overload(candidates, args, targs);
        self.finish(e, r, true)
    }

    fn element_access(&mut self, e: ExprId, receiver: ExprId, args: &[Arg]) -> Ty {
        let t = self.expr(receiver, None);
        match &t {
            Ty::Array { elem, .. } => {
                for a in args {
                    self.expr(a.value, None);
                }
                (**elem).clone()
            }
            Ty::Pointer(inner) => {
                for a in args {
                    self.expr(a.value, None);
                }
                (**inner).clone()
            }
            Ty::Named { .. } => {
                let candidates: Vec<Candidate> = self
                    .members_named(&t, "this")
                    .into_iter()
                    .filter(|(m, _)| self.index.member(*m).kind == MemberKind::Indexer)
                    .map(|(member, subst)| Candidate {
                        member,
                        subst,
                        receiver: None,
                    })
                    .collect();
                if candidates.is_empty() {
                    for a in args {
                        self.expr(a.value, None);
                    }
                    // Strings index to chars even without a modelled indexer.
                    if t.def() == self.index.well_known.string {
                        return self
                            .index
                            .well_known
                            .char
                            .map(Ty::named)
                            .unwrap_or(Ty::Unknown);
                    }
                    return Ty::Unknown;
                }
                let r = self.pick_overload(candidates, args, &[]);
                self.record_call(e, r)
            }
            _ => {
                for a in args {
                    self.expr(a.value, None);
                }
                Ty::Unknown
            }
        }
    }

    /// `new T(args)`, `: base(args)`, `: this(args)`: the constructor and how the
    /// arguments bind (recorded on `e` when given).
    pub(super) fn resolve_constructor_call(
        &mut self,
        e: Option<ExprId>,
        ty: &Ty,
        args: &[Arg],
    ) -> Option<(MemberId, CallBinding)> {
        let Some(def) = ty.def() else {
            for a in args {
                self.expr(a.value, None);
            }
            return None;
        };
        let mut subst = Subst::new();
        subst.bind_all(ParamOwner::Type(def), ty.args());
        let candidates: Vec<Candidate> = self
            .index
            .ty(def)
            .ctors
            .iter()
            .filter(|c| {
                !self
                    .index
                    .member(**c)
                    .modifiers
                    .contains(crate::hir::Modifiers::STATIC)
            })
            .map(|&member| Candidate {
                member,
                subst: subst.clone(),
                receiver: None,
            })
            .collect();
        let r = self.pick_overload(candidates, args, &[]);
        let found = r.as_ref().map(|(m, b, _)| (*m, b.clone()));
        if let Some(e) = e {
            self.record_call(e, r);
        }
        found
    }

    fn initializer(&mut self, ty: &Ty, init: &[InitElem]) {
        for el in init {
            match el {
                InitElem::Member { name, value, .. } => {
                    let mt = self.lookup_value_member(ty, name, false).map(|(_, t)| t);
                    match value {
                        InitValue::Expr(x) => {
                            self.expr(*x, mt.as_ref());
                        }
                        InitValue::Nested(inner) => {
                            self.initializer(&mt.unwrap_or(Ty::Unknown), inner)
                        }
                    }
                }
                InitElem::Indexer { args, value } => {
                    for a in args.iter() {
                        self.expr(a.value, None);
                    }
                    let et = self.index.element_type(ty);
                    match value {
                        InitValue::Expr(x) => {
                            self.expr(*x, None);
                        }
                        InitValue::Nested(inner) => {
                            self.initializer(&et.unwrap_or(Ty::Unknown), inner)
                        }
                    }
                }
                InitElem::Add(items) => {
                    let et = self.index.element_type(ty);
                    for x in items.iter() {
                        self.expr(*x, if items.len() == 1 { et.as_ref() } else { None });
                    }
                }
            }
        }
    }

    fn binary(&mut self, op: BinaryOp, lhs: ExprId, rhs: ExprId, expected: Option<&Ty>) -> Ty {
        let wk = &self.index.well_known;
        match op {
            BinaryOp::Coalesce => {
                let l = self.expr(lhs, expected);
                let l = match (&l, wk.nullable) {
                    (Ty::Named { def, args }, Some(n)) if *def == n => {
                        args.first().cloned().unwrap_or(Ty::Unknown)
                    }
                    _ => l,
                };
                let hint = if l.is_unknown() {
                    expected.cloned()
                } else {
                    Some(l.clone())
                };
                let r = self.expr(rhs, hint.as_ref());
                l.or(|| r)
            }
            BinaryOp::And
            | BinaryOp::Or
            | BinaryOp::Eq
            | BinaryOp::NotEq
            | BinaryOp::Lt
            | BinaryOp::Le
            | BinaryOp::Gt
            | BinaryOp::Ge => {
                self.expr(lhs, None);
                self.expr(rhs, None);
                self.bool_ty()
            }
            _ => {
                let l = self.expr(lhs, None);
                let r = self.expr(rhs, None);
                let string = wk.string;
                if op == BinaryOp::Add
                    && (l.def() == string && string.is_some()
                        || r.def() == string && string.is_some())
                {
                    return self.string_ty();
                }
                if let Some(t) = self.user_operator(op, &l, &r) {
                    return t;
                }
                if l.is_unknown() {
                    return r;
                }
                if r.is_unknown() || l == r {
                    return l;
                }
                // Numeric promotion: the wider of the two.
                match (l.def(), r.def()) {
                    (Some(a), Some(b)) if self.widens(a, b) => r,
                    _ => l,
                }
            }
        }
    }

    fn widens(&self, from: rlc_core::program::TypeId, to: rlc_core::program::TypeId) -> bool {
        let rank = |t: rlc_core::program::TypeId| match self.index.ty(t).full_name.as_str() {
            "System.Int32" => 1,
            "System.UInt32" => 2,
            "System.Int64" => 3,
            "System.UInt64" => 4,
            "System.Single" => 5,
            "System.Double" => 6,
            "System.Decimal" => 7,
            _ => 0,
        };
        rank(from) < rank(to) && rank(from) > 0
    }

    fn user_operator(&self, op: BinaryOp, l: &Ty, r: &Ty) -> Option<Ty> {
        let name = match op {
            BinaryOp::Add => "op_Addition",
            BinaryOp::Sub => "op_Subtraction",
            BinaryOp::Mul => "op_Multiply",
            BinaryOp::Div => "op_Division",
            BinaryOp::Rem => "op_Modulus",
            BinaryOp::BitAnd => "op_BitwiseAnd",
            BinaryOp::BitOr => "op_BitwiseOr",
            BinaryOp::BitXor => "op_ExclusiveOr",
            _ => return None,
        };
        for t in [l, r] {
            if let Some(def) = t.def()
                && self.index.ty(def).origin != Origin::Library
                && let Some(list) = self.index.ty(def).members.get(name)
                && let Some(&m) = list.first()
            {
                return Some(self.index.member(m).ty.clone());
            }
        }
        None
    }

    fn lambda(&mut self, e: ExprId, f: &Function, expected: Option<&Ty>) -> Ty {
        // `Expression<Func<..>>` types its lambda like the inner delegate.
        let delegate = expected.and_then(|t| {
            self.delegate_signature(t)
                .map(|s| (t.clone(), s))
                .or_else(|| {
                    t.args()
                        .first()
                        .and_then(|a| self.delegate_signature(a).map(|s| (a.clone(), s)))
                })
        });
        for (i, &p) in f.params.iter().enumerate() {
            let declared = self.body.binding(p).ty.clone();
            let t = match declared {
                Some(tr) => self.resolve_type(&tr),
                None => delegate
                    .as_ref()
                    .and_then(|(_, (ps, _))| ps.get(i).cloned())
                    .unwrap_or(Ty::Unknown),
            };
            self.set_binding(p, t);
        }
        let ret = delegate.as_ref().map(|(_, (_, r))| r.clone());
        let ret = match ret {
            Some(r) if f.is_async => self.unwrap_task(&r).or(Some(r)),
            r => r,
        };
        let ret = ret.filter(|r| !matches!(r, Ty::Param { .. } | Ty::Unknown));
        let result = match &f.body {
            Some(LambdaBody::Expr(x)) => self.expr(*x, ret.as_ref()),
            Some(LambdaBody::Block(s)) => {
                self.returns.push(ret.clone());
                self.lambda_returns.push(Vec::new());
                self.stmt(*s);
                self.returns.pop();
                let rs = self.lambda_returns.pop().unwrap_or_default();
                rs.into_iter()
                    .find(|t| !t.is_unknown() && *t != Ty::Null)
                    .unwrap_or(Ty::Void)
            }
            None => Ty::Unknown,
        };
        // Remember what the body produced, wrapped for async lambdas.
        let result = if f.is_async && !result.is_unknown() {
            match (
                result,
                self.index.well_known.task,
                self.index.well_known.task_t,
            ) {
                (Ty::Void, Some(task), _) => Ty::named(task),
                (r, _, Some(task_t)) => Ty::Named {
                    def: task_t,
                    args: Box::new([r]),
                },
                (r, _, _) => r,
            }
        } else {
            result
        };
        self.lambda_results.insert(e, result);
        delegate.map(|(t, _)| t).unwrap_or(Ty::Function)
    }

    pub(super) fn lambda_result(&self, e: ExprId) -> Option<Ty> {
        self.lambda_results
            .get(&e)
            .cloned()
            .filter(|t| !t.is_unknown())
    }

    fn query(&mut self, clauses: &[QueryClause]) -> Ty {
        let mut last = Ty::Unknown;
        for c in clauses {
            match c {
                QueryClause::From {
                    binding,
                    source,
                    keys,
                    into,
                } => {
                    let s = self.expr(*source, None);
                    let declared = self.body.binding(*binding).ty.clone();
                    let elem = match declared {
                        Some(t) => self.resolve_type(&t),
                        None => self.index.element_type(&s).unwrap_or(Ty::Unknown),
                    };
                    self.set_binding(*binding, elem);
                    for k in keys.iter() {
                        self.expr(*k, None);
                    }
                    if let Some(i) = into {
                        self.set_binding(*i, s);
                    }
                }
                QueryClause::Let { binding, value } => {
                    let t = self.expr(*value, None);
                    self.set_binding(*binding, t);
                }
                QueryClause::Filter(exprs) => {
                    for x in exprs.iter() {
                        self.expr(*x, None);
                    }
                }
                QueryClause::Select { value, key, into } => {
                    let v = self.expr(*value, None);
                    if let Some(k) = key {
                        self.expr(*k, None);
                    }
                    last = match self.index.well_known.ienumerable_t {
                        Some(ie) => Ty::Named {
                            def: ie,
                            args: Box::new([v.clone()]),
                        },
                        None => Ty::Unknown,
                    };
                    if let Some(i) = into {
                        self.set_binding(*i, v);
                    }
                }
            }
        }
        last
    }

    /// `T` of `Task<T>`, `ValueTask<T>` or any awaitable (`GetAwaiter().GetResult()`);
    /// `void` for `Task`.
    pub(super) fn unwrap_task(&self, t: &Ty) -> Option<Ty> {
        let wk = &self.index.well_known;
        let def = t.def()?;
        if Some(def) == wk.task_t || Some(def) == wk.value_task_t {
            return t.args().first().cloned();
        }
        if Some(def) == wk.task || Some(def) == wk.value_task {
            return Some(Ty::Void);
        }
        let (awaiter_m, subst) = self
            .members_named(t, "GetAwaiter")
            .into_iter()
            .find(|(m, _)| self.index.member(*m).params.is_empty())?;
        let awaiter = self.index.member(awaiter_m).ty.subst(&subst);
        let (result_m, subst) = self
            .members_named(&awaiter, "GetResult")
            .into_iter()
            .next()?;
        Some(self.index.member(result_m).ty.subst(&subst))
    }

    /// The element type for `await foreach`.
    pub(super) fn async_element_type(&self, t: &Ty) -> Option<Ty> {
        let target = self.index.well_known.iasync_enumerable_t?;
        self.index
            .find_ancestor(t, target)
            .and_then(|a| a.args().first().cloned())
            .or_else(|| {
                // `ConfigureAwait`/`WithCancellation` wrappers expose `GetAsyncEnumerator().Current`.
                let (m, subst) = self
                    .members_named(t, "GetAsyncEnumerator")
                    .into_iter()
                    .next()?;
                let en = self.index.member(m).ty.subst(&subst);
                self.lookup_value_member(&en, "Current", false)
                    .map(|(_, t)| t)
            })
    }

    /// `foreach` over a type with a `GetEnumerator()` whose `Current` has a type.
    pub(super) fn enumerator_current(&self, t: &Ty) -> Option<Ty> {
        let (m, subst) = self
            .members_named(t, "GetEnumerator")
            .into_iter()
            .find(|(m, _)| self.index.member(*m).params.is_empty())?;
        let en = self.index.member(m).ty.subst(&subst);
        self.lookup_value_member(&en, "Current", false)
            .map(|(_, t)| t)
    }

    /// The element types of a tuple (or a type with `Deconstruct`) of arity `n`.
    pub(super) fn tuple_items(&self, t: &Ty, n: usize) -> Vec<Ty> {
        match t {
            Ty::Tuple(items, _) if items.len() == n => items.to_vec(),
            Ty::Named { .. } => {
                // KeyValuePair and user types deconstruct through `Deconstruct(out .., out ..)`.
                let found = self
                    .members_named(t, "Deconstruct")
                    .into_iter()
                    .find(|(m, _)| {
                        let d = self.index.member(*m);
                        d.params.len() == n && !d.is_extension
                    });
                match found {
                    Some((m, subst)) => self
                        .index
                        .member(m)
                        .params
                        .iter()
                        .map(|p| p.ty.subst(&subst))
                        .collect(),
                    None => vec![Ty::Unknown; n],
                }
            }
            _ => vec![Ty::Unknown; n],
        }
    }

    /// Gives the targets of a deconstruction (`var (a, b) = t`, `(x, y) = t`) their types.
    pub(super) fn deconstruct_into(&mut self, target: ExprId, value: &Ty) {
        match self.body.exprs.get(target.index()).cloned() {
            Some(Expr::Tuple(items)) => {
                let tys = self.tuple_items(value, items.len());
                for ((_, x), t) in items.iter().zip(tys) {
                    match self.body.exprs.get(x.index()) {
                        Some(Expr::Tuple(_)) | Some(Expr::Declaration { .. }) => {
                            self.deconstruct_into(*x, &t)
                        }
                        _ => {
                            self.expr(*x, Some(&t));
                        }
                    }
                }
                self.done[target.index()] = true;
                self.out.exprs[target.index()] = value.clone();
            }
            Some(Expr::Declaration { .. }) => {
                self.expr(target, Some(value));
            }
            _ => {
                self.expr(target, None);
            }
        }
    }
}
