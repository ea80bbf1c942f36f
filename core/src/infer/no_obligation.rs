//! Beyond the paper: `[MustCall]` (no obligation) for an `IDisposable` class
//! whose `Dispose` releases nothing. The paper found this missing spec behind
//! 16% of the C# warnings: classes implement `IDisposable` to reset state, to
//! unsubscribe, or for `using` syntax, not to release a resource.
//!
//! The condition is conservative; all of it must hold:
//! - the class is source, not an interface, and declares or inherits from a
//!   base class of the program its `Dispose` (or `DisposeAsync`), with a body;
//! - its obligation comes only from `IDisposable`/`IAsyncDisposable`, directly,
//!   through interfaces that only extend them (`ILoggerFactory`) or through
//!   base classes of the program: no library base class with an obligation, no
//!   type with an obligation of its own;
//! - neither it nor a base class has a finalizer;
//! - none of its fields (own or inherited) holds a value with an obligation, a
//!   collection of such values, an `IntPtr`/`UIntPtr`, or a handle type,
//!   unless the program only ever stores into it what it is lent (parameters,
//!   members of other objects: a view model's page);
//! - every subclass in the program that declares `Dispose`, `DisposeAsync`,
//!   `DisposeAsyncCore` or `Close` qualifies too;
//! - the disposal methods' bodies call no must-call method on anything
//!   (directly or through a `[Calls]` callee), pass nothing with an obligation to
//!   a call, and call no method of the class itself that does.

use std::cell::OnceCell;

use rustc_hash::{FxHashMap, FxHashSet};

use super::{InferredAttr, InferredSpec, SpecTarget};
use crate::ir::{Bodies, Body, BodyId, FieldRef, Operand, Stmt, VarId, VarKind};
use crate::must_call::{MustCallTypes, overriding_subclasses, releases_something};
use crate::program::{
    DeclaredIn, FieldId, Harmless, InferRule, MethodId, MustCall, Program, Provenance, TypeId,
    TypeKind,
};

const RULE: InferRule = InferRule::NoObligation;

pub(super) fn apply(
    p: &mut Program,
    bodies: &Bodies,
    body_of: &FxHashMap<MethodId, BodyId>,
    specs: &mut Vec<InferredSpec>,
) {
    // Bases first, so a subclass sees its base's verdict; refreshing one type
    // at a time keeps this linear in the number of types.
    let mut types = MustCallTypes::compute(p);
    let lent = only_lent(p, bodies);
    for t in types.supertypes_first().to_vec() {
        types.refresh(p, t);
        if let Some(evidence) = qualifies(p, &types, bodies, body_of, &lent, t) {
            p.types[t.index()].must_call = Some((
                MustCall::none(),
                Provenance::Inferred {
                    rule: RULE,
                    evidence,
                },
            ));
            specs.push(InferredSpec {
                target: SpecTarget::Type(t),
                attr: InferredAttr::MustCall(Vec::new()),
                rule: RULE,
                evidence,
            });
            types.refresh(p, t);
        }
    }
}

/// A verdict of this rule keeps the type's obligation and marks it
/// harmless (`Harmless::ReleasesNothing`) instead: the patch proposes `[MustCall]` for review, and
/// until a person accepts it a leak is reported apart (RLC0010), never hidden.
/// The other rules run after this, on the obligation the checker tracks, so
/// the specs they propose (a helper's `[Owning]` parameter, say) hold whether
/// or not the reviewer accepts the `[MustCall]`.
pub(super) fn keep_obligations(p: &mut Program) {
    for t in &mut p.types {
        if let Some((mc, prov @ Provenance::Inferred { rule: RULE, .. })) = &t.must_call
            && mc.methods.is_empty()
        {
            t.harmless = Some((Harmless::ReleasesNothing, prov.clone()));
            t.must_call = None;
        }
    }
}

fn is_disposable_interface(p: &Program, t: TypeId) -> bool {
    Some(t) == p.well_known.disposable || Some(t) == p.well_known.async_disposable
}

/// The class's disposal method and its span, when the rule holds.
fn qualifies(
    p: &Program,
    types: &MustCallTypes,
    bodies: &Bodies,
    body_of: &FxHashMap<MethodId, BodyId>,
    lent: &FxHashSet<FieldId>,
    t: TypeId,
) -> Option<crate::Span> {
    let ty = p.get_ty(t)?;
    if ty.declared_in != DeclaredIn::Source
        || ty.kind == TypeKind::Interface
        || ty.must_call.is_some()
        || ty.has_finalizer
    {
        return None;
    }
    types.of_type(t)?;
    // The obligation must come from the disposable interfaces only.
    // An interface that only extends them (`ILoggerFactory : IDisposable`)
    // passes their obligation on unchanged, and so does a base class of the
    // program, whose disposal methods the class inherits and which are read
    // below (`abstract class Stage : IDisposable { public virtual void
    // Dispose() { } }`).
    for s in &ty.supertypes {
        let sd = p.get_ty(*s)?;
        let Some(ob) = types.of_type(*s) else {
            continue;
        };
        let via_disposable = ob
            .declared_by
            .is_some_and(|d| is_disposable_interface(p, d));
        let passes_on = sd.kind == TypeKind::Interface || sd.declared_in == DeclaredIn::Source;
        if !(passes_on && via_disposable) {
            return None;
        }
    }
    let chain = class_chain(p, t);
    if chain.iter().any(|c| p.ty(*c).has_finalizer) {
        return None;
    }
    // The disposal methods an object of the class runs: the most derived
    // declaration of each along the chain.
    let mut disposers: Vec<MethodId> = Vec::new();
    for m in chain.iter().flat_map(|c| p.ty(*c).methods.iter().copied()) {
        let md = p.method(m);
        if md.is_static || !p.conventions.is_disposal_method(&md.name) {
            continue;
        }
        let overridden = disposers.iter().any(|d| {
            let dd = p.method(*d);
            dd.name == md.name && dd.params.len() == md.params.len()
        });
        if !overridden {
            disposers.push(m);
        }
    }
    if disposers.is_empty() || disposers.iter().any(|m| !p.method(*m).has_body) {
        return None;
    }
    if fields_of(p, t)
        .iter()
        .any(|f| holds_resource(p, types, *f) && !lent.contains(f))
    {
        return None;
    }
    // A subclass's own disposal must release nothing either.
    for s in overriding_subclasses(p, t) {
        qualifies(p, types, bodies, body_of, lent, s)?;
    }
    let body = |m: MethodId| body_of.get(&m).and_then(|i| bodies.get(*i));
    for &d in &disposers {
        let owner = p.method(d).owner;
        if releases_something(p, types, &body, body(d)?, owner, None) {
            return None;
        }
    }
    p.method(disposers[0]).span.or(ty.span)
}

/// The class and its base classes declared in the program, most derived first.
fn class_chain(p: &Program, t: TypeId) -> Vec<TypeId> {
    let mut chain = vec![t];
    while chain.len() <= 64 {
        let last = p.ty(*chain.last().unwrap_or(&t));
        let base = last.supertypes.iter().copied().find(|s| {
            p.get_ty(*s).is_some_and(|d| {
                d.kind != TypeKind::Interface && d.declared_in == DeclaredIn::Source
            })
        });
        match base {
            Some(b) if !chain.contains(&b) => chain.push(b),
            _ => break,
        }
    }
    chain
}

/// Own and inherited (source) fields.
fn fields_of(p: &Program, t: TypeId) -> Vec<FieldId> {
    let mut out = Vec::new();
    let mut stack = vec![t];
    let mut seen = Vec::new();
    while let Some(x) = stack.pop() {
        if seen.contains(&x) || seen.len() > 64 {
            continue;
        }
        seen.push(x);
        let Some(ty) = p.get_ty(x) else { continue };
        out.extend(ty.fields.iter().copied());
        stack.extend(ty.supertypes.iter().copied().filter(|s| {
            p.get_ty(*s)
                .is_some_and(|d| d.declared_in == DeclaredIn::Source)
        }));
    }
    out
}

/// The fields into which the program only ever stores a parameter of the
/// storing method or a member of another object (through copies), or
/// nothing (`null`): values the object is lent, which a `Dispose` that
/// releases nothing rightly leaves alone. A value created for the field
/// would be its own to release. Found in one pass over the bodies.
fn only_lent(p: &Program, bodies: &Bodies) -> FxHashSet<FieldId> {
    // Per field: whether every store seen so far is lent.
    let mut stores: FxHashMap<FieldId, bool> = FxHashMap::default();
    for body in bodies.iter() {
        let defs = OnceCell::new();
        for node in &body.nodes {
            let Stmt::Store {
                field: FieldRef::Known(f),
                src,
                ..
            } = &node.stmt
            else {
                continue;
            };
            let defs = defs.get_or_init(|| crate::facts::Definitions::of(body));
            let ok = src.var().is_none_or(|v| lent(body, defs, v));
            *stores.entry(*f).or_insert(true) &= ok;
        }
    }
    // An auto-property's initializer or a positional parameter may fill it
    // without a store the program shows.
    stores
        .into_iter()
        .filter(|&(f, ok)| ok && !p.field(f).is_auto_property)
        .map(|(f, _)| f)
        .collect()
}

/// Whether `v` only holds a parameter of `body` or a member of another object.
fn lent(body: &Body, defs: &crate::facts::Definitions, v: VarId) -> bool {
    let mut stack = vec![v];
    let mut seen = Vec::new();
    while let Some(v) = stack.pop() {
        if seen.contains(&v) || seen.len() > 16 {
            continue;
        }
        seen.push(v);
        if matches!(body.var(v).kind, VarKind::Param(_)) {
            continue;
        }
        let ds = defs.all(v);
        if ds.is_empty() {
            return false;
        }
        for n in ds {
            match &body.node(*n).stmt {
                Stmt::Copy {
                    src: Operand::Var(s),
                    ..
                } => stack.push(*s),
                Stmt::Copy { .. } => {}
                Stmt::Load { base: Some(b), .. } if Some(*b) != body.this_var() => {}
                _ => return false,
            }
        }
    }
    true
}

fn holds_resource(p: &Program, types: &MustCallTypes, f: FieldId) -> bool {
    let fd = p.field(f);
    types.of_value(&fd.ty).is_some()
        || fd.ty.element.is_some_and(|e| types.of_type(e).is_some())
        || fd
            .ty
            .ty
            .and_then(|t| p.get_ty(t))
            .is_some_and(|t| t.is_native_handle)
}
