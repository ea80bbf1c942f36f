//! Member lookup, overload resolution, extension methods and generic method
//! type inference.

use rlc_core::program::TypeId;

use super::{CallBinding, ExprTarget, Resolver};
use crate::hir::{Arg, ArgModifier, Expr, ExprId, MemberKind, ParamModifier};
use crate::index::{Index, MemberId, ParamOwner, Subst, Ty};

/// Binds the type parameters of `owner` in `param` so that it matches `arg`
/// (`IEnumerable<T>` against `List<int>` binds `T = int`).
pub fn unify(index: &Index, param: &Ty, arg: &Ty, owner: ParamOwner, subst: &mut Subst) {
    unify_depth(index, param, arg, owner, subst, 0)
}

fn unify_depth(
    index: &Index,
    param: &Ty,
    arg: &Ty,
    owner: ParamOwner,
    subst: &mut Subst,
    depth: u32,
) {
    if depth > 16 || arg.is_unknown() || matches!(arg, Ty::Null | Ty::Function) {
        return;
    }
    match param {
        Ty::Param { owner: o, index: i }
            if *o == owner && subst.get(owner, *i).is_none_or(Ty::is_unknown) =>
        {
            subst.bind(owner, *i, arg.clone());
        }
        Ty::Named { def, args } if !args.is_empty() => {
            let matched = if arg.def() == Some(*def) {
                Some(arg.clone())
            } else {
                match arg {
                    // Arrays implement the generic collection interfaces of their element.
                    Ty::Array { elem, .. } if args.len() == 1 => Some(Ty::Named {
                        def: *def,
                        args: Box::new([(**elem).clone()]),
                    }),
                    _ => index.find_ancestor(arg, *def),
                }
            };
            if let Some(m) = matched {
                for (p, a) in args.iter().zip(m.args()) {
                    unify_depth(index, p, a, owner, subst, depth + 1);
                }
            }
        }
        Ty::Array { elem, .. } => {
            if let Ty::Array { elem: a, .. } = arg {
                unify_depth(index, elem, a, owner, subst, depth + 1);
            }
        }
        Ty::Tuple(ps, _) => {
            if let Ty::Tuple(as_, _) = arg {
                for (p, a) in ps.iter().zip(as_.iter()) {
                    unify_depth(index, p, a, owner, subst, depth + 1);
                }
            }
        }
        _ => {}
    }
}

/// How well an argument of type `arg` fits a parameter of type `param`:
/// `None` if it cannot, higher is better.
fn fit(index: &Index, arg: &Ty, param: &Ty) -> Option<u8> {
    if arg == param {
        return Some(4);
    }
    match (arg, param) {
        (Ty::Unknown | Ty::Dynamic | Ty::Function, _) | (_, Ty::Unknown | Ty::Dynamic) => Some(1),
        (_, Ty::Param { .. }) => Some(2),
        (Ty::Param { .. }, _) => Some(1),
        (Ty::Null, Ty::Named { def, .. }) => {
            (!index.is_value_type(*def) || Some(*def) == index.well_known.nullable).then_some(2)
        }
        (Ty::Null, _) => Some(2),
        (Ty::Named { def: a, .. }, Ty::Named { def: p, .. }) => {
            if a == p {
                return Some(3);
            }
            if index.is_subtype_def(*a, *p) {
                return Some(2);
            }
            if Some(*p) == index.well_known.object {
                return Some(1);
            }
            if Some(*p) == index.well_known.nullable {
                return Some(2);
            }
            numeric_widening(index, *a, *p).then_some(1)
        }
        (Ty::Array { .. }, Ty::Named { def, .. }) => {
            let name = index.ty(*def).full_name.as_str();
            matches!(
                name,
                "System.Object"
                    | "System.Array"
                    | "System.Collections.IEnumerable"
                    | "System.Collections.Generic.IEnumerable"
                    | "System.Collections.Generic.ICollection"
                    | "System.Collections.Generic.IList"
                    | "System.Collections.Generic.IReadOnlyList"
                    | "System.Collections.Generic.IReadOnlyCollection"
                    | "System.Collections.ICollection"
                    | "System.Collections.IList"
                    | "System.ReadOnlySpan"
                    | "System.Span"
                    | "System.Memory"
                    | "System.ReadOnlyMemory"
            )
            .then_some(2)
        }
        (Ty::Array { elem: a, .. }, Ty::Array { elem: p, .. }) => {
            fit(index, a, p).map(|f| f.min(3))
        }
        (Ty::Tuple(..), Ty::Named { .. }) => Some(1),
        (Ty::Tuple(a, _), Ty::Tuple(p, _)) if a.len() == p.len() => Some(2),
        _ => None,
    }
}

fn numeric_widening(index: &Index, from: TypeId, to: TypeId) -> bool {
    const ORDER: [&str; 9] = [
        "System.SByte",
        "System.Byte",
        "System.Int16",
        "System.UInt16",
        "System.Char",
        "System.Int32",
        "System.UInt32",
        "System.Int64",
        "System.UInt64",
    ];
    let f = index.ty(from).full_name.as_str();
    let t = index.ty(to).full_name.as_str();
    let rank = |n: &str| ORDER.iter().position(|o| *o == n);
    let is_float = |n: &str| matches!(n, "System.Single" | "System.Double" | "System.Decimal");
    match (rank(f), rank(t)) {
        (Some(a), Some(b)) => a < b,
        (Some(_), None) => is_float(t),
        (None, None) => f == "System.Single" && t == "System.Double",
        _ => false,
    }
}

/// A candidate method with the substitution of its declaring type's parameters.
#[derive(Clone, Debug)]
pub(super) struct Candidate {
    pub member: MemberId,
    pub subst: Subst,
    /// Called as an extension method on a receiver of this type.
    pub receiver: Option<Ty>,
}

impl Resolver<'_> {
    /// Members named `name` on `ty`: its own, then its base classes', then its
    /// interfaces' (most derived first), each with the substitution of its owner.
    /// An explicit interface implementation (`Stream IMux.Get(..)`) is not one:
    /// C# reaches it only through the interface, whose member stands for it.
    pub(super) fn members_named(&self, ty: &Ty, name: &str) -> Vec<(MemberId, Subst)> {
        let index = self.index;
        let roots: Vec<Ty> = match ty {
            Ty::Param {
                owner: ParamOwner::Type(t),
                index: i,
            } => {
                let mut b = index
                    .ty(*t)
                    .bounds
                    .get(*i as usize)
                    .cloned()
                    .unwrap_or_default();
                b.extend(index.well_known.object.map(Ty::named));
                b
            }
            Ty::Param { .. } => index.well_known.object.map(Ty::named).into_iter().collect(),
            Ty::Tuple(..) => Vec::new(),
            _ => vec![ty.clone()],
        };
        let mut out = Vec::new();
        for root in roots {
            for anc in index.ancestors(&root) {
                let Some(def) = anc.def() else { continue };
                let Some(list) = index.ty(def).members.get(name) else {
                    continue;
                };
                let mut subst = Subst::new();
                subst.bind_all(ParamOwner::Type(def), anc.args());
                for &m in list {
                    if index.member(m).explicit_interface.is_some() {
                        continue;
                    }
                    if !out.iter().any(|(x, _)| *x == m) {
                        out.push((m, subst.clone()));
                    }
                }
            }
        }
        out
    }

    /// A field, property or event named `name` on a value (or type, when
    /// `statics`) of type `ty`, with its type; a tuple's element has no member.
    pub(super) fn lookup_value_member(
        &self,
        ty: &Ty,
        name: &str,
        statics: bool,
    ) -> Option<(Option<MemberId>, Ty)> {
        if let Ty::Tuple(items, names) = ty
            && let Some(i) = names.position(name).or_else(|| {
                name.strip_prefix("Item")
                    .and_then(|n| n.parse::<usize>().ok())
                    .map(|n| n.wrapping_sub(1))
            })
        {
            return items.get(i).map(|t| (None, t.clone()));
        }
        self.members_named(ty, name)
            .into_iter()
            .find_map(|(m, subst)| {
                let d = self.index.member(m);
                let is_value = matches!(
                    d.kind,
                    MemberKind::Field
                        | MemberKind::Constant
                        | MemberKind::Property
                        | MemberKind::Event
                        | MemberKind::EnumMember
                );
                (is_value && (!statics || d.is_static())).then(|| (Some(m), d.ty.subst(&subst)))
            })
    }

    /// Method candidates named `name` on a type.
    pub(super) fn method_candidates(
        &self,
        ty: &Ty,
        name: &str,
        statics_only: bool,
    ) -> Vec<Candidate> {
        self.members_named(ty, name)
            .into_iter()
            .filter(|(m, _)| {
                let d = self.index.member(*m);
                d.is_method_like() && (!statics_only || d.is_static())
            })
            .map(|(member, subst)| Candidate {
                member,
                subst,
                receiver: None,
            })
            .collect()
    }

    /// Extension methods named `name` in scope whose `this` parameter accepts `receiver`.
    pub(super) fn extension_candidates(&self, receiver: &Ty, name: &str) -> Vec<Candidate> {
        let index = self.index;
        let mut namespaces = Vec::new();
        for (ns, usings) in index.scope_chain(&self.scope) {
            namespaces.push(ns);
            for u in usings {
                namespaces.extend(u.namespaces.iter().copied());
            }
        }
        let mut out = Vec::new();
        for ns in namespaces {
            for &class in index.extension_classes.get(&ns).into_iter().flatten() {
                if !index.is_visible(self.origin(), index.ty(class).origin) {
                    continue;
                }
                for &m in index.ty(class).members.get(name).into_iter().flatten() {
                    let d = index.member(m);
                    if !d.is_extension || out.iter().any(|c: &Candidate| c.member == m) {
                        continue;
                    }
                    let this_ty = &d.params[0].ty;
                    let ok = match this_ty {
                        Ty::Param { .. } => true,
                        _ => {
                            fit(index, receiver, this_ty).is_some()
                                || self.generic_fit(receiver, this_ty)
                        }
                    };
                    if ok {
                        out.push(Candidate {
                            member: m,
                            subst: Subst::new(),
                            receiver: Some(receiver.clone()),
                        });
                    }
                }
            }
        }
        out
    }

    /// `List<int>` fits `IEnumerable<T>` of a generic method.
    fn generic_fit(&self, arg: &Ty, param: &Ty) -> bool {
        match param.def() {
            Some(def) => {
                arg.def() == Some(def)
                    || self.index.find_ancestor(arg, def).is_some()
                    || matches!(arg, Ty::Array { .. })
            }
            None => false,
        }
    }

    /// Maps written arguments to parameter indices; `None` if the member cannot take them.
    fn map_args(
        &self,
        member: MemberId,
        args: &[Arg],
        extension: bool,
    ) -> Option<Vec<Option<u32>>> {
        let d = self.index.member(member);
        let offset = usize::from(extension);
        let params = &d.params;
        let mut out = Vec::with_capacity(args.len());
        let mut used = vec![false; params.len()];
        let mut positional = offset;
        for a in args {
            let slot = match &a.name {
                // A named argument in its own position lets positional ones
                // follow (C# 7.2: `Open(path: p, FileMode.Open)`).
                Some(n) => {
                    let s = params.iter().position(|p| &p.name == n)?;
                    if s == positional {
                        positional += 1;
                    }
                    s
                }
                None => {
                    if positional < params.len() {
                        let s = positional;
                        if params[s].modifier != ParamModifier::Params {
                            positional += 1;
                        }
                        s
                    } else {
                        return None;
                    }
                }
            };
            used[slot] = true;
            out.push(Some(slot as u32));
        }
        // Every parameter without a default must be given.
        let missing =
            params.iter().enumerate().skip(offset).any(|(i, p)| {
                !used[i] && p.default.is_none() && p.modifier != ParamModifier::Params
            });
        (!missing).then_some(out)
    }

    fn is_deferred(&self, e: ExprId) -> bool {
        matches!(
            self.body.exprs.get(e.index()),
            Some(
                Expr::Lambda(_)
                    | Expr::Declaration { .. }
                    | Expr::New { ty: None, .. }
                    | Expr::Default(None)
                    | Expr::Collection(_)
            )
        )
    }

    /// The delegate signature (parameter types, return type) of a delegate type.
    pub(super) fn delegate_signature(&self, ty: &Ty) -> Option<(Vec<Ty>, Ty)> {
        let def = ty.def()?;
        let invoke = self
            .index
            .ty(def)
            .members
            .get("Invoke")?
            .iter()
            .copied()
            .find(|m| self.index.member(*m).kind == MemberKind::DelegateInvoke)?;
        let mut subst = Subst::new();
        subst.bind_all(ParamOwner::Type(def), ty.args());
        let d = self.index.member(invoke);
        Some((
            d.params.iter().map(|p| p.ty.subst(&subst)).collect(),
            d.ty.subst(&subst),
        ))
    }

    /// Picks the overload for `args`, infers method type arguments, resolves the
    /// arguments with their parameter types, and returns the chosen member, the
    /// binding and the call's result type.
    pub(super) fn pick_overload(
        &mut self,
        candidates: Vec<Candidate>,
        args: &[Arg],
        type_args: &[Ty],
    ) -> Option<(MemberId, CallBinding, Ty)> {
        self.pick(candidates, args, type_args, true)
    }

    /// [`Self::pick_overload`], falling back on a candidate the arguments do
    /// not fit only when `fallback` (C# looks for extension methods only when
    /// no instance method applies).
    pub(super) fn pick(
        &mut self,
        candidates: Vec<Candidate>,
        args: &[Arg],
        type_args: &[Ty],
        fallback_ok: bool,
    ) -> Option<(MemberId, CallBinding, Ty)> {
        // Arguments whose type does not depend on the target first.
        let arg_tys: Vec<Option<Ty>> = args
            .iter()
            .map(|a| (!self.is_deferred(a.value)).then(|| self.expr(a.value, None)))
            .collect();
        let mut best: Option<(u32, Candidate, Vec<Option<u32>>)> = None;
        let mut fallback: Option<(Candidate, Vec<Option<u32>>)> = None;
        let single = candidates.len() == 1;
        for c in candidates {
            let d = self.index.member(c.member);
            if !type_args.is_empty() && d.type_params.len() != type_args.len() {
                continue;
            }
            let extension = c.receiver.is_some();
            let Some(mapping) = self.map_args(c.member, args, extension) else {
                continue;
            };
            if fallback.is_none() {
                fallback = Some((c.clone(), mapping.clone()));
            }
            let mut score = 0u32;
            let mut ok = true;
            for (i, a) in args.iter().enumerate() {
                let Some(Some(slot)) = mapping.get(i) else {
                    continue;
                };
                let p = &d.params[*slot as usize];
                let modifier_ok = match a.modifier {
                    ArgModifier::Out => p.modifier == ParamModifier::Out,
                    // C# 12 lets `ref` bind to `ref readonly` (and, with a
                    // warning, to `in`).
                    ArgModifier::Ref => matches!(
                        p.modifier,
                        ParamModifier::Ref | ParamModifier::RefReadonly | ParamModifier::In
                    ),
                    ArgModifier::In => {
                        matches!(p.modifier, ParamModifier::In | ParamModifier::RefReadonly)
                    }
                    ArgModifier::None => {
                        !matches!(p.modifier, ParamModifier::Out | ParamModifier::Ref)
                    }
                };
                if !modifier_ok {
                    ok = false;
                    break;
                }
                let pty = p.ty.subst(&c.subst);
                // A `params T[]` parameter also takes a single `T`.
                let pty = match (&pty, p.modifier) {
                    (Ty::Array { elem, .. }, ParamModifier::Params)
                        if !matches!(arg_tys[i], Some(Ty::Array { .. })) =>
                    {
                        (**elem).clone()
                    }
                    _ => pty,
                };
                // A `ref`/`out` argument binds only to its own type.
                let by_ref = matches!(a.modifier, ArgModifier::Ref | ArgModifier::Out);
                if by_ref
                    && let (Some(Ty::Named { def: at, .. }), Ty::Named { def: pt, .. }) =
                        (&arg_tys[i], &pty)
                    && at != pt
                {
                    ok = false;
                    break;
                }
                let f = match &arg_tys[i] {
                    Some(t) => fit(self.index, t, &pty),
                    None => self.deferred_fit(a.value, &pty),
                };
                match f {
                    Some(f) => score += u32::from(f),
                    None => {
                        ok = false;
                        break;
                    }
                }
            }
            if ok && best.as_ref().is_none_or(|(s, _, _)| score > *s) {
                best = Some((score, c, mapping));
            }
        }
        let (chosen, mapping) = match best {
            Some((_, c, m)) => (c, m),
            // Code that compiles binds somewhere; with our partial type knowledge the
            // first candidate that takes the arguments is the best guess.
            None if fallback_ok && (single || fallback.is_some()) => fallback?,
            None => return None,
        };
        Some(self.finish_call(chosen, args, type_args, &arg_tys, mapping))
    }

    /// Whether a target-typed argument can fit a parameter type.
    fn deferred_fit(&self, e: ExprId, param: &Ty) -> Option<u8> {
        match self.body.exprs.get(e.index()) {
            Some(Expr::Lambda(f)) => match self.delegate_signature(param) {
                Some((ps, _)) => (ps.len() == f.params.len()).then_some(2),
                None => matches!(param, Ty::Unknown | Ty::Param { .. })
                    .then_some(1)
                    .or_else(|| (param.def() == self.index.well_known.delegate).then_some(1))
                    // Expression<Func<..>> and other wrappers of delegates.
                    .or_else(|| {
                        param
                            .args()
                            .first()
                            .and_then(|a| self.delegate_signature(a))
                            .map(|_| 1)
                    }),
            },
            _ => Some(1),
        }
    }

    fn finish_call(
        &mut self,
        chosen: Candidate,
        args: &[Arg],
        type_args: &[Ty],
        arg_tys: &[Option<Ty>],
        mapping: Vec<Option<u32>>,
    ) -> (MemberId, CallBinding, Ty) {
        let index = self.index;
        let member = chosen.member;
        let d = index.member(member);
        let owner = ParamOwner::Method(member);
        let mut subst = chosen.subst.clone();
        if !type_args.is_empty() {
            subst.bind_all(owner, type_args);
        }
        if let (Some(recv), Some(p0)) = (&chosen.receiver, d.params.first()) {
            unify(index, &p0.ty, recv, owner, &mut subst);
        }
        for (i, t) in arg_tys.iter().enumerate() {
            if let (Some(t), Some(Some(slot))) = (t, mapping.get(i)) {
                let p = &d.params[*slot as usize];
                let pty = match (&p.ty, p.modifier) {
                    (Ty::Array { elem, .. }, ParamModifier::Params)
                        if !matches!(t, Ty::Array { .. }) =>
                    {
                        (**elem).clone()
                    }
                    (pt, _) => pt.clone(),
                };
                unify(index, &pty, t, owner, &mut subst);
            }
        }
        // Target-typed arguments, lambdas last so their parameters are known.
        let mut order: Vec<usize> = (0..args.len()).filter(|&i| arg_tys[i].is_none()).collect();
        order.sort_by_key(|&i| {
            matches!(
                self.body.exprs.get(args[i].value.index()),
                Some(Expr::Lambda(_))
            )
        });
        for i in order {
            let param_ty = mapping
                .get(i)
                .copied()
                .flatten()
                .and_then(|s| d.params.get(s as usize))
                .map(|p| p.ty.subst(&subst));
            let t = self.expr(args[i].value, param_ty.as_ref());
            if let (Some(Some(slot)), Expr::Lambda(_)) =
                (mapping.get(i), self.body.expr(args[i].value))
            {
                // The lambda's return type binds the delegate's result type.
                let p = &d.params[*slot as usize];
                if let Some((_, ret)) = self
                    .delegate_signature(&p.ty)
                    .or_else(|| p.ty.args().first().and_then(|a| self.delegate_signature(a)))
                    && let Some(lambda_ret) = self.lambda_result(args[i].value)
                {
                    unify(index, &ret, &lambda_ret, owner, &mut subst);
                }
                let _ = t;
            }
        }
        let result = match d.kind {
            MemberKind::Constructor => Ty::Void,
            _ => d.ty.subst(&subst),
        };
        (
            member,
            CallBinding {
                arg_params: mapping,
                extension: chosen.receiver.is_some(),
                subst,
            },
            result,
        )
    }

    /// Resolves a call through `Name(args)`/`recv.Name(args)` and records it.
    pub(super) fn record_call(
        &mut self,
        call: ExprId,
        resolved: Option<(MemberId, CallBinding, Ty)>,
    ) -> Ty {
        match resolved {
            Some((m, binding, ty)) => {
                self.out.targets.insert(call, ExprTarget::Member(m));
                self.out.calls.insert(call, binding);
                ty
            }
            None => Ty::Unknown,
        }
    }
}
