//! Statements: they give locals their types and target-type the expressions in them.

use super::Resolver;
use crate::hir::{
    Arg, CtorInitKind, ForeachTarget, LambdaBody, LocalDecl, Pat, PatId, Stmt, StmtId, SwitchLabel,
    TypeRef, UsingResource,
};
use crate::index::Ty;

impl Resolver<'_> {
    pub(super) fn stmt(&mut self, id: StmtId) {
        let Some(stmt) = self.body.stmts.get(id.index()) else {
            return;
        };
        match stmt {
            Stmt::Missing
            | Stmt::Broken(_)
            | Stmt::Empty
            | Stmt::Break
            | Stmt::Continue
            | Stmt::YieldBreak => {}
            Stmt::Block(items) => {
                // Local functions are in scope in their whole block, also above
                // their declaration.
                for s in items.iter() {
                    if let Some(Stmt::LocalFunction(f)) = self.body.stmts.get(s.index()) {
                        self.declare_local_function(f);
                    }
                }
                for s in items.iter() {
                    self.stmt(*s);
                }
            }
            Stmt::Expr(e) => {
                self.expr(*e, None);
            }
            Stmt::Local { decls, .. } => self.local_decls(decls),
            Stmt::If { cond, then, else_ } => {
                self.expr(*cond, None);
                self.stmt(*then);
                if let Some(e) = else_ {
                    self.stmt(*e);
                }
            }
            Stmt::While { cond, body } | Stmt::Do { body, cond } => {
                self.expr(*cond, None);
                self.stmt(*body);
            }
            Stmt::For {
                init,
                cond,
                update,
                body,
            } => {
                for s in init.iter() {
                    self.stmt(*s);
                }
                if let Some(c) = cond {
                    self.expr(*c, None);
                }
                for u in update.iter() {
                    self.expr(*u, None);
                }
                self.stmt(*body);
            }
            Stmt::Foreach {
                target,
                collection,
                body,
                is_await,
            } => {
                let coll = self.expr(*collection, None);
                let elem = if *is_await {
                    self.async_element_type(&coll)
                } else {
                    self.index
                        .element_type(&coll)
                        .or_else(|| self.enumerator_current(&coll))
                }
                .unwrap_or(Ty::Unknown);
                match target {
                    ForeachTarget::Binding(b) => {
                        let declared = self.body.binding(*b).ty.clone();
                        let ty = match declared {
                            Some(t) if !matches!(t, crate::hir::TypeRef::Var) => {
                                self.resolve_type(&t)
                            }
                            _ => elem,
                        };
                        self.set_binding(*b, ty);
                    }
                    ForeachTarget::Deconstruct(e) => {
                        self.deconstruct_into(*e, &elem);
                    }
                }
                self.stmt(*body);
            }
            Stmt::Using { resource, body, .. } => {
                match resource {
                    UsingResource::Decls(decls) => self.local_decls(decls),
                    UsingResource::Expr(e) => {
                        self.expr(*e, None);
                    }
                }
                self.stmt(*body);
            }
            Stmt::Lock { expr, body } => {
                self.expr(*expr, None);
                self.stmt(*body);
            }
            Stmt::Fixed { decls, body } => {
                self.local_decls(decls);
                self.stmt(*body);
            }
            Stmt::Try {
                body,
                catches,
                finally,
            } => {
                self.stmt(*body);
                for c in catches.iter() {
                    let ty = match &c.ty {
                        Some(t) => self.resolve_type(t),
                        None => self
                            .index
                            .well_known
                            .exception
                            .map(Ty::named)
                            .unwrap_or(Ty::Unknown),
                    };
                    if let Some(b) = c.binding {
                        self.set_binding(b, ty);
                    }
                    if let Some(f) = c.filter {
                        self.expr(f, None);
                    }
                    self.stmt(c.body);
                }
                if let Some(f) = finally {
                    self.stmt(*f);
                }
            }
            Stmt::Switch {
                scrutinee,
                sections,
            } => {
                let st = self.expr(*scrutinee, None);
                for s in sections.iter() {
                    for l in s.labels.iter() {
                        if let SwitchLabel::Case { pat, guard } = l {
                            self.pat(*pat, &st);
                            if let Some(g) = guard {
                                self.expr(*g, None);
                            }
                        }
                    }
                    for b in s.body.iter() {
                        self.stmt(*b);
                    }
                }
            }
            Stmt::Goto(target) => {
                if let crate::hir::GotoTarget::Case(e) = target {
                    self.expr(*e, None);
                }
            }
            Stmt::Labeled { stmt, .. } => self.stmt(*stmt),
            Stmt::Return(e) => {
                if let Some(e) = e {
                    let expected = self.returns.last().cloned().flatten();
                    let t = self.expr(*e, expected.as_ref());
                    if let Some(r) = self.lambda_returns.last_mut() {
                        r.push(t);
                    }
                }
            }
            Stmt::Throw(e) => {
                if let Some(e) = e {
                    self.expr(*e, None);
                }
            }
            Stmt::YieldReturn(e) => {
                let expected = self.returns.last().cloned().flatten().and_then(|t| {
                    self.index
                        .element_type(&t)
                        .or_else(|| self.async_element_type(&t))
                });
                self.expr(*e, expected.as_ref());
            }
            Stmt::LocalFunction(f) => {
                let f = f.clone();
                let ret = self.declare_local_function(&f);
                let ret = if f.is_async {
                    self.unwrap_task(&ret).unwrap_or(ret)
                } else {
                    ret
                };
                self.returns
                    .push(Some(ret.clone()).filter(|t| !t.is_unknown()));
                match &f.body {
                    Some(LambdaBody::Block(s)) => self.stmt(*s),
                    Some(LambdaBody::Expr(e)) => {
                        self.expr(*e, Some(&ret).filter(|t| !t.is_unknown()));
                    }
                    None => {}
                }
                self.returns.pop();
            }
        }
    }

    /// Types a local function's name (its return type) and parameters.
    fn declare_local_function(&mut self, f: &crate::hir::Function) -> Ty {
        let ret = f
            .ret
            .as_ref()
            .map(|t| self.resolve_type(t))
            .unwrap_or(Ty::Unknown);
        if let Some(b) = f.binding {
            self.set_binding(b, ret.clone());
        }
        for &p in f.params.iter() {
            let ty = self.body.binding(p).ty.clone();
            let t = ty.map(|t| self.resolve_type(&t)).unwrap_or(Ty::Unknown);
            self.set_binding(p, t);
        }
        ret
    }

    fn local_decls(&mut self, decls: &[LocalDecl]) {
        for d in decls {
            let declared = self.body.binding(d.binding).ty.clone();
            let declared = match declared {
                Some(crate::hir::TypeRef::Var) | None => None,
                Some(t) => Some(self.resolve_type(&t)),
            };
            let init = d.init.map(|e| self.expr(e, declared.as_ref()));
            let ty = declared.or(init).unwrap_or(Ty::Unknown);
            self.set_binding(d.binding, ty);
        }
    }

    /// Gives the variables declared by a pattern their types, given the type of the
    /// value it is matched against.
    pub(super) fn pat(&mut self, id: PatId, input: &Ty) {
        let Some(p) = self.body.pats.get(id.index()).cloned() else {
            return;
        };
        match p {
            Pat::Missing | Pat::Discard => {}
            Pat::Var(bindings) => {
                if bindings.len() == 1 {
                    if let Some(b) = bindings[0] {
                        self.set_binding(b, input.clone());
                    }
                } else {
                    let items = self.tuple_items(input, bindings.len());
                    for (b, t) in bindings.iter().zip(items) {
                        if let Some(b) = b {
                            self.set_binding(*b, t);
                        }
                    }
                }
            }
            Pat::Declaration { ty, binding } => {
                let t = match *ty {
                    TypeRef::Var => input.clone(),
                    ref tr => self.resolve_type(tr),
                };
                self.out.pat_types.insert(id, t.clone());
                if let Some(b) = binding {
                    self.set_binding(b, t);
                }
            }
            Pat::Type(ty) => {
                let t = self.resolve_type(&ty);
                self.out.pat_types.insert(id, t);
            }
            Pat::Constant(e) | Pat::Relational { value: e, .. } => {
                self.expr(e, Some(input));
            }
            Pat::Not(p) => self.pat(p, input),
            Pat::And(a, b) | Pat::Or(a, b) => {
                self.pat(a, input);
                self.pat(b, input);
            }
            Pat::Recursive {
                ty,
                positional,
                properties,
                binding,
            } => {
                let t = match ty {
                    Some(ty) => {
                        let t = self.resolve_type(&ty);
                        self.out.pat_types.insert(id, t.clone());
                        t
                    }
                    None => input.clone(),
                };
                if let Some(pos) = positional {
                    let items = self.tuple_items(&t, pos.len());
                    for (sp, it) in pos.iter().zip(items) {
                        self.pat(sp.pat, &it);
                    }
                }
                if let Some(props) = properties {
                    for sp in props.iter() {
                        let mut cur = t.clone();
                        for name in sp.path.iter() {
                            cur = self
                                .lookup_value_member(&cur, name, false)
                                .map(|(_, ty)| ty)
                                .unwrap_or(Ty::Unknown);
                        }
                        self.pat(sp.pat, &cur);
                    }
                }
                if let Some(b) = binding {
                    self.set_binding(b, t);
                }
            }
            Pat::List { items, binding } => {
                let elem = self.index.element_type(input).unwrap_or(Ty::Unknown);
                for it in items.iter() {
                    match self.body.pats.get(it.index()) {
                        Some(Pat::Slice(Some(inner))) => {
                            let inner = *inner;
                            self.pat(inner, input);
                        }
                        _ => self.pat(*it, &elem),
                    }
                }
                if let Some(b) = binding {
                    self.set_binding(b, input.clone());
                }
            }
            Pat::Slice(inner) => {
                if let Some(p) = inner {
                    self.pat(p, input);
                }
            }
        }
    }

    /// `: base(args)` / `: this(args)`: binds to a constructor of the base or own type.
    pub(super) fn resolve_ctor_init(&mut self, kind: CtorInitKind, args: &[Arg]) {
        let Some(t) = self.owner.ty else {
            for a in args {
                self.expr(a.value, None);
            }
            return;
        };
        let target = match kind {
            CtorInitKind::This => Some(self.index.ty(t).self_ty(t)),
            CtorInitKind::Base => self.index.ty(t).base.clone(),
        };
        match target {
            Some(target) if target.def().is_some() => {
                self.out.ctor_init = self.resolve_constructor_call(None, &target, args);
            }
            _ => {
                for a in args {
                    self.expr(a.value, None);
                }
            }
        }
    }
}
