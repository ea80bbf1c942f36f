//! Parameters whose argument the method keeps where the program holds it for
//! its lifetime: in a static field, in a collection or object a static field
//! holds (`s_listeners.Add(l)`, `s_state.GetOrAdd(k, ..).Value = v`), through
//! a method of such an object that keeps it in its own fields
//! (`s_composite.AddListener(l)`), or by passing it to such a parameter
//! (`Registry.Register(l)`). Storing into a static field hands a value away
//! (not this method's leak, as for `static readonly HttpClient`); so does
//! passing it to one of these parameters. A fact the code states, derived
//! once from the bodies for checking and inference alike
//! ([`crate::program::ParamDef::kept_statically`]).

use rustc_hash::FxHashSet;

use crate::facts::Definitions;
use crate::ir::{Bodies, Body, Call, Callee, FieldRef, Operand, Stmt, VarId};
use crate::program::{MethodId, MethodKind, ParamMode, Program};

/// Marks the parameters, to a fixed point over calls, in the bodies of every
/// part.
pub fn derive(program: &mut Program, parts: &[&Bodies]) {
    let kept = kept_params(program, parts);
    for (m, i) in kept {
        program.methods[m.index()].params[i as usize].kept_statically = true;
    }
}

fn kept_params(program: &Program, parts: &[&Bodies]) -> FxHashSet<(MethodId, u32)> {
    let bodies: Vec<(MethodId, &Body, Definitions, FxHashSet<VarId>)> = parts
        .iter()
        .flat_map(|b| b.iter())
        .filter_map(|b| Some((b.method?, b, Definitions::of(b), static_rooted(b))))
        .collect();
    // Parameters an instance method keeps in its own object.
    let mut in_receiver: FxHashSet<(MethodId, u32)> = FxHashSet::default();
    for (m, body, defs, _) in &bodies {
        let Some(this) = body.this_var() else {
            continue;
        };
        let of_this: FxHashSet<VarId> = body
            .nodes
            .iter()
            .filter_map(|n| match &n.stmt {
                Stmt::Load {
                    dst, base: Some(b), ..
                } if *b == this => Some(*dst),
                _ => None,
            })
            .collect();
        for node in &body.nodes {
            let kept = match &node.stmt {
                Stmt::Store {
                    base: Some(b),
                    src: Operand::Var(v),
                    ..
                } if *b == this => vec![*v],
                Stmt::StoreElement {
                    collection,
                    src: Operand::Var(v),
                } if of_this.contains(collection) => vec![*v],
                Stmt::Call(call) if call.receiver.is_some_and(|r| of_this.contains(&r)) => {
                    element_args(program, call)
                }
                _ => Vec::new(),
            };
            for v in kept {
                if let Some(i) = value_param(program, body, defs, v) {
                    in_receiver.insert((*m, i));
                }
            }
        }
    }
    let mut out: FxHashSet<(MethodId, u32)> = FxHashSet::default();
    loop {
        let mut found: Vec<(MethodId, u32)> = Vec::new();
        for (m, body, defs, rooted) in &bodies {
            for node in &body.nodes {
                let mut kept: Vec<VarId> = Vec::new();
                match &node.stmt {
                    Stmt::Store {
                        base,
                        src: Operand::Var(v),
                        ..
                    } if base.is_none_or(|b| rooted.contains(&b)) => kept.push(*v),
                    Stmt::StoreElement {
                        collection,
                        src: Operand::Var(v),
                    } if rooted.contains(collection) => kept.push(*v),
                    Stmt::Call(call) => {
                        let Callee::Method(c) = call.callee else {
                            continue;
                        };
                        let on_rooted = call.receiver.is_some_and(|r| rooted.contains(&r));
                        if on_rooted {
                            kept.extend(element_args(program, call));
                        }
                        for a in &call.args {
                            let (Some(p), Some(v)) = (a.param, a.value.var()) else {
                                continue;
                            };
                            if out.contains(&(c, p)) || (on_rooted && in_receiver.contains(&(c, p)))
                            {
                                kept.push(v);
                            }
                        }
                    }
                    _ => {}
                }
                for v in kept {
                    if let Some(i) = value_param(program, body, defs, v)
                        && !out.contains(&(*m, i))
                    {
                        found.push((*m, i));
                    }
                }
            }
        }
        if found.is_empty() {
            return out;
        }
        out.extend(found);
    }
}

/// The arguments a call keeps in its receiver by the library's own words: an
/// element added to a collection (`Add`), a value given to a setter (`.Value =
/// v` of a `ThreadLocal<T>`).
fn element_args(program: &Program, call: &Call) -> Vec<VarId> {
    let Callee::Method(c) = call.callee else {
        return Vec::new();
    };
    let Some(d) = program.get_method(c) else {
        return Vec::new();
    };
    call.args
        .iter()
        .filter(|a| {
            d.kind == MethodKind::Setter
                || a.param
                    .and_then(|p| d.params.get(p as usize))
                    .is_some_and(|p| p.collection_element)
        })
        .filter_map(|a| a.value.var())
        .collect()
}

/// The by-value parameter `v` holds exactly (through copies, never assigned).
fn value_param(program: &Program, body: &Body, defs: &Definitions, v: VarId) -> Option<u32> {
    let i = defs.unassigned_param(body, v)?;
    let mode = program
        .get_method(body.method?)?
        .params
        .get(i as usize)?
        .mode;
    matches!(mode, ParamMode::Value | ParamMode::In).then_some(i)
}

/// Variables that hold a static field's value, or an object reached from
/// one (a member, an element, a call's result on it).
fn static_rooted(body: &Body) -> FxHashSet<VarId> {
    let mut rooted: FxHashSet<VarId> = FxHashSet::default();
    loop {
        let before = rooted.len();
        for node in &body.nodes {
            match &node.stmt {
                Stmt::Load {
                    dst,
                    base: None,
                    field: FieldRef::Known(_),
                } => {
                    rooted.insert(*dst);
                }
                Stmt::Load {
                    dst, base: Some(b), ..
                } if rooted.contains(b) => {
                    rooted.insert(*dst);
                }
                Stmt::Element { dst, collection } if rooted.contains(collection) => {
                    rooted.insert(*dst);
                }
                Stmt::Copy {
                    dst,
                    src: Operand::Var(s),
                } if rooted.contains(s) => {
                    rooted.insert(*dst);
                }
                Stmt::Call(call) if call.receiver.is_some_and(|r| rooted.contains(&r)) => {
                    rooted.extend(call.dst);
                }
                _ => {}
            }
        }
        if rooted.len() == before {
            return rooted;
        }
    }
}
