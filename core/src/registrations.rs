//! Registration methods: a method that keeps one of its arguments in the
//! receiver's state (an observer in a collection field, a callback in a
//! field) and returns a handle whose disposal undoes that registration
//! (`ConnectHandle Connect(IObserver observer)`, `IDisposable Subscribe(..)`).
//!
//! The handle's obligation is real: disposing it ends the registration. But a
//! caller that discards the handle at the call says "keep it registered": the
//! registration then lasts as long as the receiver, the common way to attach
//! an observer for good (`configurator.ConnectObserver(this)` in the
//! observer's constructor). RLC0012 reports that apart from leaks.
//!
//! A method registers parameter `p` when its body, on some path,
//! - stores `p` into a field of `this`, or passes it to a collection
//!   parameter (`[CollectionElement]`) or a registration parameter of a method
//!   called on `this` or on a field of `this`; and
//! - returns on every path that returns a value a handle: a new object built
//!   with `this` or a closure among its arguments (the handle reaches back to
//!   the registry), or the result of such a registration call.
//!
//! An interface or virtual method registers `p` when it (if it has a body)
//! and every implementation in the program do.

use rustc_hash::{FxHashMap, FxHashSet};

use crate::facts::{ProgramFacts, Registrations, Twins};
use crate::ir::{Body, Call, CallKind, Callee, Operand, Stmt, VarId, VarKind};
use crate::ownership::callee_param;
use crate::program::{Harmless, MethodId, MethodKind, TypeId};

/// The registration methods of the program. A greatest fixed point:
/// forwarding is often cyclic through interfaces (an implementation forwards
/// to the same interface method on a field), so every candidate is first
/// assumed to register every parameter, and what a body or an implementation
/// refutes is dropped until nothing changes. A method with neither a body nor
/// implementations is never one.
pub(crate) fn registration_methods(pf: &ProgramFacts<'_>, twins: &Twins) -> Registrations {
    let program = pf.program;
    let implementations = program.implementations();
    let stands_for: FxHashMap<MethodId, MethodId> = twins
        .methods
        .iter()
        .map(|&(from, to, _)| (to, from))
        .collect();
    let mut held: FxHashSet<(MethodId, u32)> = (0..program.methods.len() as u32)
        .map(MethodId)
        .filter(|&m| {
            let md = program.method(m);
            !md.is_static && !md.is_constructor() && pf.types.of_value(&md.ret).is_some()
        })
        .flat_map(|m| (0..program.method(m).params.len() as u32).map(move |p| (m, p)))
        .collect();
    loop {
        let mut own: FxHashMap<MethodId, Vec<u32>> = FxHashMap::default();
        let holds = |&(m, p): &(MethodId, u32), own: &mut FxHashMap<MethodId, Vec<u32>>| {
            if let Some(source) = stands_for.get(&m) {
                return held.contains(&(*source, p));
            }
            let body = pf.body_of(m).and_then(|b| pf.bodies.get(b));
            let others = implementations.get(&m).map_or(&[][..], Vec::as_slice);
            if body.is_none() && others.is_empty() {
                return false;
            }
            body.is_none_or(|b| {
                own.entry(m)
                    .or_insert_with(|| registered_params(pf, b, &held))
                    .contains(&p)
            }) && others.iter().all(|o| held.contains(&(*o, p)))
        };
        let next: FxHashSet<(MethodId, u32)> = held
            .iter()
            .filter(|k| holds(k, &mut own))
            .copied()
            .collect();
        if next.len() == held.len() {
            break;
        }
        held = next;
    }
    let mut out = Registrations::default();
    for (m, p) in held {
        out.entry(m).and_modify(|q| *q = (*q).min(p)).or_insert(p);
    }
    out
}

/// The parameters `body` registers with its receiver, if it is a
/// registration method's body (`held`: the registration parameters believed
/// so far).
fn registered_params(
    pf: &ProgramFacts<'_>,
    body: &Body,
    held: &FxHashSet<(MethodId, u32)>,
) -> Vec<u32> {
    let program = pf.program;
    if returns_only(body, |call| {
        call.kind == CallKind::New && call.new_type.is_some_and(|t| releases_nothing(pf, t))
    }) {
        // An implementation that ignores the argument and hands out a handle
        // whose disposal does nothing (`new EmptyHandle()`) is compatible with
        // any registration.
        return body
            .vars
            .iter()
            .filter_map(|v| match v.kind {
                VarKind::Param(p) => Some(p),
                _ => None,
            })
            .collect();
    }
    let Some(this) = body.this_var() else {
        return Vec::new();
    };
    let mut param_of: FxHashMap<VarId, u32> = body
        .vars
        .iter()
        .enumerate()
        .filter_map(|(i, v)| match v.kind {
            VarKind::Param(p) => Some((VarId(i as u32), p)),
            _ => None,
        })
        .collect();
    // `this`, and what its fields and properties hold, read into variables.
    let mut receiver_state: FxHashSet<VarId> = FxHashSet::from_iter([this]);
    let mut grew = true;
    while grew {
        grew = false;
        for n in &body.nodes {
            match &n.stmt {
                Stmt::Load {
                    dst, base: Some(b), ..
                } if receiver_state.contains(b) => grew |= receiver_state.insert(*dst),
                Stmt::Call(call) if call.receiver.is_some_and(|r| receiver_state.contains(&r)) => {
                    let getter = matches!(&call.callee, Callee::Method(m)
                        if program.get_method(*m).is_some_and(|d| d.kind == MethodKind::Getter));
                    if getter && let Some(d) = call.dst {
                        grew |= receiver_state.insert(d);
                    }
                }
                Stmt::Copy {
                    dst,
                    src: Operand::Var(s),
                } => {
                    if let Some(&i) = param_of.get(s) {
                        grew |= param_of.insert(*dst, i).is_none();
                    }
                }
                _ => {}
            }
        }
    }
    // The parameters a call on the receiver's state keeps there.
    let kept_by = |call: &Call| -> Vec<u32> {
        if !call.receiver.is_some_and(|r| receiver_state.contains(&r)) {
            return Vec::new();
        }
        call.args
            .iter()
            .filter_map(|a| {
                let i = *param_of.get(&a.value.var()?)?;
                let into_collection =
                    callee_param(program, call, a.param).is_some_and(|d| d.collection_element);
                let registered = matches!((&call.callee, a.param),
                    (Callee::Method(c), Some(p)) if held.contains(&(*c, p)));
                (into_collection || registered).then_some(i)
            })
            .collect()
    };
    let mut registered: Vec<u32> = Vec::new();
    // Handles: what undoes a registration. A new object built with `this` or
    // a closure (it reaches back to the registry), a registration's handle,
    // or a new object combining handles (`new MultipleHandle(h1, h2)`).
    let mut handles: FxHashSet<VarId> = FxHashSet::default();
    for n in &body.nodes {
        match &n.stmt {
            Stmt::Store {
                base: Some(b),
                src: Operand::Var(s),
                ..
            } if *b == this => registered.extend(param_of.get(s)),
            Stmt::Closure { dst: Some(d), .. } => {
                handles.insert(*d);
            }
            Stmt::Call(call) => {
                let kept = kept_by(call);
                if !kept.is_empty() {
                    registered.extend(kept);
                    handles.extend(call.dst);
                }
            }
            _ => {}
        }
    }
    registered.sort_unstable();
    registered.dedup();
    if registered.is_empty() {
        return registered;
    }
    handles.insert(this);
    let mut grew = true;
    while grew {
        grew = false;
        for n in &body.nodes {
            match &n.stmt {
                Stmt::Copy {
                    dst,
                    src: Operand::Var(s),
                } if handles.contains(s) => grew |= handles.insert(*dst),
                Stmt::Call(call)
                    if call.kind == CallKind::New
                        && call
                            .args
                            .iter()
                            .any(|a| a.value.var().is_some_and(|v| handles.contains(&v))) =>
                {
                    grew |= call.dst.is_some_and(|d| handles.insert(d));
                }
                _ => {}
            }
        }
    }
    let mut returns = returned(body);
    let mut any = false;
    let all_handles = returns.all(|v| {
        any = true;
        v.var().is_some_and(|r| r != this && handles.contains(&r))
    });
    if !(any && all_handles) {
        registered.clear();
    }
    registered
}

fn returned(body: &Body) -> impl Iterator<Item = &Operand> {
    body.nodes.iter().filter_map(|n| match &n.stmt {
        Stmt::Return(Some(v)) => Some(v),
        _ => None,
    })
}

/// Whether the body returns something, and every returned value is the
/// result of a call `made` accepts.
fn returns_only(body: &Body, made: impl Fn(&Call) -> bool) -> bool {
    let mut any = false;
    returned(body).all(|v| {
        any = true;
        v.var().is_some_and(|r| {
            body.nodes
                .iter()
                .any(|n| matches!(&n.stmt, Stmt::Call(c) if c.dst == Some(r) && made(c)))
        })
    }) && any
}

/// A type whose disposal does nothing: no obligation, or one inference found
/// releases nothing.
fn releases_nothing(pf: &ProgramFacts<'_>, t: TypeId) -> bool {
    pf.types.of_type(t).is_none()
        || pf
            .program
            .get_ty(t)
            .is_some_and(|d| matches!(d.harmless, Some((Harmless::ReleasesNothing, _))))
}
