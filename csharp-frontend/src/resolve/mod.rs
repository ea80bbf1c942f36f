//! Name and type resolution inside bodies: the static type of every expression,
//! the declaration every name and call refers to, and how each argument binds to
//! a parameter. One body at a time, against the read-only [`Index`]; nothing is
//! shared between bodies, so they resolve in parallel.

pub mod dump;
mod expr;
mod lookup;
mod stmt;

use rlc_core::FileId;
use rlc_core::program::TypeId;
use rustc_hash::FxHashMap;

use crate::hir::{Body, BodyId, BodyRoot, ExprId};
use crate::index::{Index, MemberId, NsId, Origin, ScopeCtx, Subst, Ty, TypeRefStats};

pub use lookup::unify;

/// What a name, member access, call or `new` refers to.
#[derive(Clone, Debug, PartialEq)]
pub enum ExprTarget {
    /// A field, property, event, indexer or method of a type (for calls and `new`:
    /// the method or constructor called).
    Member(MemberId),
    /// The name denotes a type (a qualifier, `typeof`-like uses).
    Type(Ty),
    Ns(NsId),
    /// A primary-constructor parameter of the enclosing type.
    PrimaryParam(u32),
    /// A call of a delegate-typed value.
    DelegateInvoke,
}

/// How a call's arguments bind to the callee's parameters.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CallBinding {
    /// For each written argument, the parameter index it binds to (for an extension
    /// method called as `x.M(a)`, `a` binds to parameter 1 and the receiver to 0).
    pub arg_params: Vec<Option<u32>>,
    /// Called with extension-method syntax: the receiver is argument 0.
    pub extension: bool,
    /// Substitution of the callee's type parameters at this call.
    pub subst: Subst,
}

/// Counters for `--stats`.
#[derive(Clone, Debug, Default)]
pub struct ResolveStats {
    /// Call sites whose receiver or containing type is from the repo or the library
    /// model, plus unqualified calls.
    pub calls: u64,
    /// Of those, the ones bound to a declared method.
    pub calls_resolved: u64,
    /// All invocation expressions seen.
    pub calls_total: u64,
    pub types: TypeRefStats,
    /// Unresolved calls on known receivers: `Type.Member` -> count (for debugging the model).
    pub unresolved_members: FxHashMap<String, u64>,
}

impl ResolveStats {
    pub fn merge(&mut self, o: &ResolveStats) {
        self.calls += o.calls;
        self.calls_resolved += o.calls_resolved;
        self.calls_total += o.calls_total;
        self.types.merge(&o.types);
        for (k, v) in &o.unresolved_members {
            *self.unresolved_members.entry(k.clone()).or_default() += v;
        }
    }
}

/// The resolution of one body.
#[derive(Clone, Debug, Default)]
pub struct BodyTypes {
    pub exprs: Vec<Ty>,
    pub bindings: Vec<Ty>,
    pub targets: FxHashMap<ExprId, ExprTarget>,
    pub calls: FxHashMap<ExprId, CallBinding>,
    /// The constructor a `: base(..)`/`: this(..)` initializer calls.
    pub ctor_init: Option<(MemberId, CallBinding)>,
    /// The type a declaration, type or recursive pattern tests for.
    pub pat_types: FxHashMap<crate::hir::PatId, Ty>,
    pub stats: ResolveStats,
}

impl BodyTypes {
    pub fn ty(&self, e: ExprId) -> &Ty {
        self.exprs.get(e.index()).unwrap_or(&Ty::Unknown)
    }
    pub fn binding_ty(&self, b: crate::hir::BindingId) -> &Ty {
        self.bindings.get(b.index()).unwrap_or(&Ty::Unknown)
    }
    pub fn target(&self, e: ExprId) -> Option<&ExprTarget> {
        self.targets.get(&e)
    }
    pub fn member_target(&self, e: ExprId) -> Option<MemberId> {
        match self.targets.get(&e) {
            Some(ExprTarget::Member(m)) => Some(*m),
            _ => None,
        }
    }
}

/// Where a body sits.
#[derive(Clone, Copy, Debug)]
pub struct BodyOwner {
    pub file: FileId,
    /// The enclosing type (`None` for top-level statements).
    pub ty: Option<TypeId>,
    /// The member the body implements (`None` for top-level statements and
    /// primary-constructor base arguments).
    pub member: Option<MemberId>,
    /// The namespace scope of the declaration.
    pub scope: crate::hir::ScopeId,
    /// For accessor bodies: whether it is the setter/init (so `value` is a parameter).
    pub is_setter: bool,
}

/// Resolves every expression of a body.
pub fn resolve_body(index: &Index, owner: BodyOwner, body_id: BodyId) -> BodyTypes {
    let file = index.file(owner.file);
    let Some(body) = file.syntax.bodies.get(body_id.index()) else {
        return BodyTypes::default();
    };
    let mut r = Resolver::new(index, owner, body_id, body);
    r.run();
    r.out
}

pub(crate) struct Resolver<'a> {
    index: &'a Index,
    owner: BodyOwner,
    body_id: BodyId,
    body: &'a Body,
    scope: ScopeCtx<'a>,
    out: BodyTypes,
    done: Vec<bool>,
    /// The type `this` has.
    this_ty: Option<Ty>,
    /// Return types expected by enclosing functions (innermost last), already
    /// unwrapped for `async`.
    returns: Vec<Option<Ty>>,
    /// Types returned by the innermost lambda being resolved.
    lambda_returns: Vec<Vec<Ty>>,
    /// What each lambda's body produced (for inferring `Select`'s result type).
    lambda_results: FxHashMap<ExprId, Ty>,
}

impl<'a> Resolver<'a> {
    fn new(index: &'a Index, owner: BodyOwner, body_id: BodyId, body: &'a Body) -> Resolver<'a> {
        let scope = index.body_scope(owner.file, owner.scope, owner.ty, owner.member);
        let this_ty = owner.ty.map(|t| index.ty(t).self_ty(t));
        Resolver {
            index,
            owner,
            body_id,
            body,
            scope,
            out: BodyTypes {
                exprs: vec![Ty::Unknown; body.exprs.len()],
                bindings: vec![Ty::Unknown; body.bindings.len()],
                ..BodyTypes::default()
            },
            done: vec![false; body.exprs.len()],
            this_ty,
            returns: Vec::new(),
            lambda_returns: Vec::new(),
            lambda_results: FxHashMap::default(),
        }
    }

    fn origin(&self) -> Origin {
        self.scope.origin
    }

    fn run(&mut self) {
        let member = self.owner.member.map(|m| self.index.member(m));
        // Parameters of the member (and `value` of setters) get their declared types.
        if let Some(m) = member {
            for (i, &b) in self.body.params.iter().enumerate() {
                let ty = match m.params.get(i) {
                    Some(p) => p.ty.clone(),
                    None if self.owner.is_setter => m.ty.clone(),
                    None => Ty::Unknown,
                };
                self.set_binding(b, ty);
            }
        } else if let Some(t) = self.owner.ty {
            // Primary-constructor base arguments see the primary parameters.
            let params = &self.index.ty(t).primary_params;
            for (i, &b) in self.body.params.iter().enumerate() {
                if let Some((_, ty)) = params.get(i) {
                    self.set_binding(b, ty.clone());
                }
            }
        }
        // What `return` statements return, for target-typing.
        let ret = member.and_then(|m| match m.kind {
            crate::hir::MemberKind::Method
            | crate::hir::MemberKind::Operator
            | crate::hir::MemberKind::Conversion
            | crate::hir::MemberKind::Property
            | crate::hir::MemberKind::Indexer => Some(m.ty.clone()),
            _ => None,
        });
        let is_async = self.body.is_async;
        let ret = ret.map(|t| {
            if is_async {
                self.unwrap_task(&t).unwrap_or(t)
            } else {
                t
            }
        });
        self.returns.push(ret.clone());
        if let Some(init) = &self.body.ctor_init {
            let args = init.args.clone();
            self.resolve_ctor_init(init.kind, &args);
        }
        match &self.body.root {
            Some(BodyRoot::Block(s)) => self.stmt(*s),
            Some(BodyRoot::Expr(e)) => {
                // Field initializers and `=> expr` bodies are typed by the member.
                let expected = ret.or_else(|| member.map(|m| m.ty.clone()));
                self.expr(*e, expected.as_ref());
            }
            Some(BodyRoot::None) | None => {}
        }
        // Anything not reached (unreachable code after a broken construct) still gets typed.
        for i in 0..self.body.exprs.len() {
            if !self.done[i] {
                self.expr(ExprId(i as u32), None);
            }
        }
    }

    fn set_binding(&mut self, b: crate::hir::BindingId, ty: Ty) {
        if let Some(slot) = self.out.bindings.get_mut(b.index()) {
            *slot = ty;
        }
    }

    fn resolve_type(&mut self, tr: &crate::hir::TypeRef) -> Ty {
        self.index
            .resolve_type_ref(&self.scope, tr, &mut self.out.stats.types)
    }
}
