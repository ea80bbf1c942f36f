//! Beyond the paper: `[return: NotOwning]` on a method that only ever returns
//! values it does not own: a field (of any object), an element of a
//! collection, `this`, a parameter it does not own, or the result of a call
//! that is itself not owning (a property getter, `GetService`, a
//! `[return: NotOwning]` method, which this rule may have found in an earlier
//! round). Accessors such as EF Core's `GetDbConnection()` or a cache's
//! `GetOrAdd` wrapper hand out what their object (or a container) owns; the
//! paper's default would make every caller dispose it.
//!
//! Only methods no other method of the program overrides qualify (and no
//! abstract ones), so no override has to restate the spec; an override itself
//! may qualify, since a not-owning override of an owning method weakens nothing. A method whose return type says nothing about an
//! obligation (a type parameter, `object`) qualifies only when it forwards a
//! not-owning call, another object's member or an element of a collection,
//! as EF Core's `GetService<TService>()` forwards the service provider's,
//! `GetInfrastructure<T>()` its argument's `Instance` and a registry's `T
//! Get<T>() => (T)_items[typeof(T)]` its entry: the instantiation may well be
//! disposable, while on a getter of the class's own field the spec would be
//! noise.
//!
//! The same holds for `out` parameters: one the method only ever fills with
//! values it does not own (`bool TryGetCached(out Stream s) { s = _cache; .. }`)
//! gets `[NotOwning]`, as the library's `TryGetValue` has; an `out T` of a
//! type parameter or `object` under the same condition as such a result (a
//! bag's `TryGet<T>(out T value)` that forwards `value = (T)o` from its
//! dictionary's out).

use std::cell::OnceCell;

use rustc_hash::FxHashSet;

use crate::cfg;
use crate::facts::Definitions;
use crate::ir::{
    Bodies, Body, Call, CallKind, Callee, FieldRef, NodeId, Operand, Stmt, VarId, VarKind,
};
use crate::must_call::MustCallTypes;
use crate::ownership::{call_result_owning, callee_param, out_param_owning, param_is_owning};
use crate::program::{
    Const, FieldId, InferRule, MethodDef, MethodKind, Ownership, ParamMode, Program, Target,
    ValueTy,
};
use crate::resource_alias;
use crate::span::Span;

pub(super) const RULE: InferRule = InferRule::BorrowedReturn;

/// The span of the first return of a borrowed value, when `body`'s method
/// qualifies and every value it returns is borrowed.
pub(super) fn evidence(
    p: &Program,
    types: &MustCallTypes,
    body: &Body,
    tracking: &FxHashSet<FieldId>,
) -> Option<Span> {
    let md = p.get_method(body.method?)?;
    if !candidate(md) || body.is_iterator {
        return None;
    }
    let open = says_nothing(p, &md.ret);
    if tracks_what_it_returns(p, body, tracking) {
        return None;
    }
    // A task's declared type says nothing of what awaiting it gives; the
    // values returned (`return _stream;` in an `async` method, or
    // `Task.FromResult(_stream)`) do.
    let declared = open || types.of_value(&md.ret).is_some();
    // Built at the first returned variable: most bodies return none.
    let defs = OnceCell::new();
    let mut first: Option<NodeId> = None;
    let (mut forwards, mut carries) = (false, declared);
    for (i, node) in body.nodes.iter().enumerate() {
        let Stmt::Return(value) = &node.stmt else {
            continue;
        };
        let Some(Operand::Var(v)) = value else {
            continue;
        };
        let defs = defs.get_or_init(|| Definitions::of(body));
        if let Source::Borrowed { forwarded } = borrowed(p, md, body, defs, *v, Lent::Result)? {
            first.get_or_insert(NodeId(i as u32));
            forwards |= forwarded;
            // An `async` method's value cast from `object`, the cast erased, is
            // what its task's result type says: another object's member
            // (`return (Page)_frame.Content;`) or what awaiting a task it
            // holds gives (`return await shown.Task as Page;`).
            let awaited = || {
                defs.all(*v)
                    .iter()
                    .any(|n| matches!(body.node(*n).stmt, Stmt::Opaque { owning: false, .. }))
            };
            let of_object =
                body.var(*v).ty.ty.is_some() && body.var(*v).ty.ty == p.well_known.object;
            let cast_in_task = body.is_async && of_object && (forwarded || awaited());
            carries = carries || cast_in_task || carries_obligation(p, types, body, defs, *v);
        }
    }
    if (open && !forwards) || !carries {
        return None;
    }
    first.map(|n| body.node(n).span)
}

/// Whether the method creates a value, stores it into a tracking field of
/// `this` that no method of the program disposes, and returns it on every
/// path (`return Current = new Tx(this);`): the caller owns it.
fn tracks_what_it_returns(p: &Program, body: &Body, tracking: &FxHashSet<FieldId>) -> bool {
    let this = body.this_var();
    body.nodes.iter().enumerate().any(|(i, node)| {
        let Stmt::Store {
            base,
            field: FieldRef::Known(f),
            ..
        } = &node.stmt
        else {
            return false;
        };
        *base == this
            && this.is_some()
            && tracking.contains(f)
            && hands_back_stored(p, body, NodeId(i as u32), *f)
            && !p
                .methods
                .iter()
                .any(|m| m.calls.iter().any(|c| c.target == Target::Field(*f)))
    })
}

/// Fields some code empties without disposing what they hold: a transaction
/// clearing its connection's `Current` (`_connection.Current = null;`), a
/// scope's disposal callback (`() => Current = null`), the object's own
/// `ClearTransaction() => _current = null`. Such a field, filled with a value
/// its method hands back to the caller, tracks a value someone else owns.
pub(super) fn tracking_fields(p: &Program, bodies: &Bodies) -> FxHashSet<FieldId> {
    let mut out = FxHashSet::default();
    for body in bodies.iter() {
        let disposes = || {
            body.nodes.iter().any(|n| {
                matches!(&n.stmt, Stmt::Call(c)
                    if c.callee_name(p).is_some_and(|m| p.conventions.is_disposal_method(m)))
            })
        };
        for node in &body.nodes {
            if let Stmt::Store {
                base: Some(_),
                field: FieldRef::Known(f),
                src: Operand::Const(Const::Null),
            } = &node.stmt
                && !disposes()
            {
                out.insert(*f);
            }
        }
    }
    out
}

/// Whether the store into `this.f` at `n` is of a value the method created
/// and then returns on every path (`return Current = new Tx(this);`, `_s =
/// File.OpenRead(p); return _s;`). A cache, which also returns the field when
/// it did not fill it, has a path to a return that avoids the store.
pub(super) fn hands_back_stored(p: &Program, body: &Body, n: NodeId, f: FieldId) -> bool {
    let Stmt::Store {
        src: Operand::Var(v),
        ..
    } = &body.node(n).stmt
    else {
        return false;
    };
    let owning = body
        .method
        .and_then(|m| p.get_method(m))
        .is_some_and(MethodDef::returns_owning);
    if !owning || !cfg::on_every_path(body, n) {
        return false;
    }
    let defs = Definitions::of(body);
    let stored = defs.copied_from(body, *v);
    let created = defs.single(stored).is_some_and(
        |d| matches!(&body.node(d).stmt, Stmt::Call(call) if call_result_owning(p, call)),
    );
    let this = body.this_var();
    let is_stored = |r: VarId| {
        let r = defs.copied_from(body, r);
        r == stored
            || defs.single(r).is_some_and(|d| {
                matches!(&body.node(d).stmt, Stmt::Load {
                    base,
                    field: FieldRef::Known(g),
                    ..
                } if *base == this && *g == f)
            })
    };
    let mut returns = 0;
    created
        && body.nodes.iter().all(|node| match &node.stmt {
            Stmt::Return(value) => {
                returns += 1;
                value.as_ref().and_then(Operand::var).is_some_and(is_stored)
            }
            _ => true,
        })
        && returns > 0
}

/// Whether `v`, or what the resource alias defining it wraps, has a type
/// that carries an obligation.
fn carries_obligation(
    p: &Program,
    types: &MustCallTypes,
    body: &Body,
    defs: &Definitions,
    v: VarId,
) -> bool {
    let typed = |v: VarId| types.of_value(&body.var(v).ty).is_some();
    // A method whose result is `[NotOwning]` lends a resource, whatever its
    // declared type says (a task: `Task<Stream> GetAsync(ct) =>
    // GetCoreAsync(ct);` forwards what awaiting the other gives).
    let lent_by_callee = |call: &Call| {
        matches!(call.callee, Callee::Method(m)
            if p.get_method(m).is_some_and(|d| matches!(d.ret_ownership, Ownership::NotOwning(_))))
    };
    typed(v)
        || defs.all(v).iter().any(|n| match &body.node(*n).stmt {
            Stmt::Call(call) if call.dst == Some(v) && call.kind != CallKind::New => {
                lent_by_callee(call)
                    || resource_alias::wrapped_by(p, call)
                        .iter()
                        .any(|w| typed(w.var()))
            }
            _ => false,
        })
}

/// Whether `body`'s method returns a value of a reference type but only ever
/// `null`, or never returns (`=> null`, `=> throw ..`): an override that
/// hands out nothing.
pub(super) fn returns_nothing(p: &Program, body: &Body) -> bool {
    let Some(md) = body.method.and_then(|m| p.get_method(m)) else {
        return false;
    };
    if !candidate(md) || body.is_iterator || md.is_async || md.ret.ty.is_none() {
        return false;
    }
    let defs = OnceCell::new();
    body.nodes.iter().all(|node| match &node.stmt {
        Stmt::Return(Some(Operand::Const(Const::Null))) | Stmt::Return(None) => true,
        Stmt::Return(Some(Operand::Var(v))) => {
            let defs = defs.get_or_init(|| Definitions::of(body));
            matches!(
                borrowed(p, md, body, defs, *v, Lent::Result),
                Some(Source::Null)
            )
        }
        Stmt::Return(Some(_)) => false,
        _ => true,
    })
}

/// Whether `body`'s method is an override that only hands on what the method
/// it overrides returns (`override Stream Prepare(..) { var s = base.Prepare(..);
/// Log(); return s; }`): it lends exactly when its base does.
pub(super) fn forwards_base(p: &Program, body: &Body) -> bool {
    let Some(md) = body.method.and_then(|m| p.get_method(m)) else {
        return false;
    };
    let this = body.this_var();
    if md.overrides.is_empty() || this.is_none() || body.is_iterator {
        return false;
    }
    let defs = Definitions::of(body);
    let from_base = |v: VarId| {
        let origins = defs.origins(body, v);
        !origins.is_empty()
            && origins.iter().all(|n| {
                matches!(&body.node(*n).stmt, Stmt::Call(call)
                    if call.receiver == this
                        && matches!(call.callee, Callee::Method(c) if md.overrides.contains(&c)))
            })
    };
    let mut returns = body.nodes.iter().filter_map(|n| match &n.stmt {
        Stmt::Return(value) => Some(value),
        _ => None,
    });
    let mut forwarded = false;
    let all = returns.all(|value| match value {
        Some(Operand::Const(Const::Null)) => true,
        Some(Operand::Var(v)) => {
            let ok = from_base(*v);
            forwarded |= ok;
            ok
        }
        _ => false,
    });
    all && forwarded
}

/// The `out` parameters of `body`'s method that only ever receive borrowed
/// values, each with the first assignment as evidence.
pub(super) fn borrowed_out_params(
    p: &Program,
    types: &MustCallTypes,
    body: &Body,
) -> Vec<(u32, Span)> {
    let Some(md) = body.method.and_then(|m| p.get_method(m)) else {
        return Vec::new();
    };
    if md.kind != MethodKind::Ordinary || md.is_abstract || !md.has_body {
        return Vec::new();
    }
    // Built for the first qualifying parameter: most methods have none.
    let defs = OnceCell::new();
    let mut found = Vec::new();
    for (i, param) in md.params.iter().enumerate() {
        // As for results: `out T value` qualifies only when it forwards
        // what it lends (`value = (T)o` of a dictionary's out).
        let open = says_nothing(p, &param.ty);
        if param.mode != ParamMode::Out
            || param.ownership != Ownership::Default
            || !(open || types.of_value(&param.ty).is_some())
        {
            continue;
        }
        let Some(v) = body.param_var(i as u32) else {
            continue;
        };
        let defs = defs.get_or_init(|| Definitions::of(body));
        if let Some(Source::Borrowed { forwarded }) =
            borrowed(p, md, body, defs, v, Lent::Out(i as u32))
            && (forwarded || !open)
            && let Some(first) = defs.all(v).iter().min()
        {
            found.push((i as u32, body.node(*first).span));
        }
    }
    found
}

/// Whether a declared type says nothing about an obligation: a type
/// parameter or `object`, whose instantiation may well be disposable.
fn says_nothing(p: &Program, ty: &ValueTy) -> bool {
    ty.ty.is_none_or(|t| p.well_known.object == Some(t))
}

/// Where the values a variable may hold come from, when the method owns none.
enum Source {
    /// Only ever null.
    Null,
    /// Borrowed; `forwarded` when one is a not-owning call's result, a
    /// member of another object or an element of a collection.
    Borrowed { forwarded: bool },
}

fn candidate(md: &MethodDef) -> bool {
    md.kind == MethodKind::Ordinary
        && md.ret_ownership == Ownership::Default
        && md.ret_must_call.is_none()
        && md.ret_must_call_alias.is_none()
        && md.this_must_call_alias.is_none()
        && !md.is_abstract
        && md.has_body
}

/// What of its method a body is being decided on. A recursive call (a
/// lookup that asks its parent, `return parent.TryGet(key, out value)`)
/// lends there what the method lends: optimistically, as the fixed point
/// assumes, it adds nothing to the values the method's other paths give.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Lent {
    Result,
    Out(u32),
}

/// Where the values `v` may hold come from; `None` when it may hold a value
/// the method owns (or one it cannot trace).
fn borrowed(
    p: &Program,
    md: &MethodDef,
    body: &Body,
    defs: &Definitions,
    v: VarId,
    lent: Lent,
) -> Option<Source> {
    let recursive =
        |call: &Call| matches!(call.callee, Callee::Method(m) if body.method == Some(m));
    let mut seen: FxHashSet<VarId> = FxHashSet::default();
    let mut stack = vec![v];
    let (mut any, mut forwarded) = (false, false);
    // A value created here, or one it takes over: lent only if the object
    // keeps it too.
    let mut created = false;
    while let Some(v) = stack.pop() {
        if !seen.insert(v) {
            continue;
        }
        let var = body.vars.get(v.index())?;
        match var.kind {
            VarKind::This => any = true,
            // What an `out` parameter holds is what the method assigns it.
            VarKind::Param(i)
                if md
                    .params
                    .get(i as usize)
                    .is_some_and(|p| p.mode == ParamMode::Out) => {}
            VarKind::Param(i) => {
                // A parameter it takes over: lent only if the object keeps it.
                created |= md.params.get(i as usize).is_none_or(param_is_owning);
                any = true;
            }
            VarKind::Captured => return None,
            VarKind::Local | VarKind::Temp => {}
        }
        for n in defs.all(v) {
            match &body.node(*n).stmt {
                Stmt::Copy {
                    src: Operand::Var(u),
                    ..
                } => stack.push(*u),
                Stmt::Copy {
                    src: Operand::Const(Const::Null),
                    ..
                } => {}
                Stmt::Load { base, .. } => {
                    any = true;
                    // A member of another object: an accessor hands it on.
                    forwarded |= base.is_some_and(|b| Some(b) != body.this_var());
                }
                // A lookup hands on what its container holds.
                Stmt::Element { .. } => {
                    any = true;
                    forwarded = true;
                }
                Stmt::Opaque { owning: false, .. } => any = true,
                Stmt::Call(call)
                    if call.dst == Some(v) && lent == Lent::Result && recursive(call) => {}
                Stmt::Call(call) if call.dst == Some(v) => {
                    // A method's resource alias (`Task.FromResult(x)`) is
                    // borrowed when what it wraps is; a new wrapper is not.
                    let wrapped = resource_alias::wrapped_by(p, call);
                    if call.kind != CallKind::New && !wrapped.is_empty() {
                        stack.extend(wrapped.iter().map(|w| w.var()));
                        continue;
                    }
                    if call_result_owning(p, call) {
                        created = true;
                        continue;
                    }
                    any = true;
                    forwarded = true;
                }
                Stmt::Call(call) => {
                    let arg = call.args.iter().find(|a| a.value == Operand::Var(v))?;
                    if recursive(call) && arg.param.is_some_and(|i| lent == Lent::Out(i)) {
                        continue;
                    }
                    if out_param_owning(callee_param(p, call, arg.param)) {
                        return None;
                    }
                    any = true;
                    forwarded = true;
                }
                _ => return None,
            }
        }
    }
    if created {
        // Get-or-create: `s = new ..; _cache[key] = s; return s;` lends what
        // the object now owns, or what the program keeps for its lifetime
        // (`Registry.Set(key, s); return s;`); so does `Add(child)` returning
        // the child it keeps.
        if !kept_by_this(p, body, &seen) && !kept_statically(p, body, &seen) {
            return None;
        }
        any = true;
    }
    Some(if any {
        Source::Borrowed { forwarded }
    } else {
        Source::Null
    })
}

/// Whether the body stores one of `vars` into a static field or hands it to
/// a parameter that keeps it for the program's lifetime.
fn kept_statically(p: &Program, body: &Body, vars: &FxHashSet<VarId>) -> bool {
    let stored = |o: &Operand| o.var().is_some_and(|u| vars.contains(&u));
    body.nodes.iter().any(|n| match &n.stmt {
        Stmt::Store {
            base: None, src, ..
        } => stored(src),
        Stmt::Call(call) => call.args.iter().any(|a| {
            stored(&a.value) && callee_param(p, call, a.param).is_some_and(|d| d.kept_statically)
        }),
        _ => false,
    })
}

/// Whether one of `vars` is stored into a field of `this`, or into a
/// collection or property of an object held in one (`this.f = v`,
/// `this.cache[k] = v`, `this.items.Add(v)`, `this.slot.Value = v`).
fn kept_by_this(p: &Program, body: &Body, vars: &FxHashSet<VarId>) -> bool {
    let Some(this) = body.this_var() else {
        return false;
    };
    let held = |c: VarId| {
        body.nodes.iter().any(
            |n| matches!(&n.stmt, Stmt::Load { dst, base: Some(b), .. } if *dst == c && *b == this),
        )
    };
    let stored = |o: &Operand| o.var().is_some_and(|u| vars.contains(&u));
    body.nodes.iter().any(|n| match &n.stmt {
        Stmt::Store {
            base: Some(b), src, ..
        } => *b == this && stored(src),
        Stmt::StoreElement { collection, src } => stored(src) && held(*collection),
        Stmt::Call(call) => {
            let setter = matches!(call.callee, Callee::Method(m)
                if p.get_method(m).is_some_and(|d| d.kind == MethodKind::Setter));
            call.receiver.is_some_and(held)
                && call.args.iter().any(|a| {
                    stored(&a.value)
                        && (setter
                            || callee_param(p, call, a.param).is_some_and(|d| d.collection_element))
                })
        }
        _ => false,
    })
}
