//! Beyond the paper: `[CreatesMustCallFor("this")]` (FSE'21 §5) on methods
//! that give `this` a new obligation, exactly where the checker would otherwise
//! report RLC0009:
//!
//! - `creates-must-call-for`: the method stores a value that may carry an
//!   obligation into a non-readonly owning field of `this` (on a reachable
//!   path). Storing `null` creates nothing; a value whose static type carries
//!   no obligation neither.
//! - `creates-must-call-for-callee`: the method calls a
//!   `[CreatesMustCallFor("this")]` method on `this` (its own or inherited),
//!   so the obligation it re-creates is its own caller's. This is propagated
//!   to a fixed point within the pass, and the outer loop of `fixed_point::run`
//!   carries it on as fields become owning in later rounds.
//!
//! Only ordinary instance methods of source types qualify: constructors are
//! exempt (the first assignment is the object's own obligation), and property
//! accessors, lambdas and local functions cannot carry the attribute where
//! the checker reads it. A method that already has a `[CreatesMustCallFor]`
//! on `this`, stated or inferred, is left as it is; targets other than `this`
//! are kept.

use rayon::prelude::*;

use super::{InferredAttr, InferredSpec, SpecTarget};
use crate::cfg;
use crate::facts::Definitions;
use crate::ir::{Bodies, Body, Callee, NodeId, Stmt};
use crate::must_call::MustCallTypes;
use crate::ownership::new_owning_field_stores;
use crate::program::{DeclaredIn, InferRule, MethodId, MethodKind, Program, Provenance, Target};
use crate::span::Span;

/// The rule for a store into an owning field.
const STORE_RULE: InferRule = InferRule::CreatesMustCallFor;
/// The rule for a call of a `[CreatesMustCallFor("this")]` method on `this`.
const CALL_RULE: InferRule = InferRule::CreatesMustCallForCallee;

fn has_cmcf_this(p: &Program, m: MethodId) -> bool {
    p.get_method(m).is_some_and(|md| {
        md.creates_must_call_for
            .iter()
            .any(|(t, _)| *t == Target::This)
    })
}

/// Whether `m` may get the attribute: an ordinary instance method with a body,
/// of a source type, without one on `this` already.
fn eligible(p: &Program, m: MethodId) -> bool {
    let Some(md) = p.get_method(m) else {
        return false;
    };
    md.kind == MethodKind::Ordinary
        && !md.is_static
        && !md.construction_helper
        && !md.lifecycle_start
        && md.has_body
        && p.get_ty(md.owner)
            .is_some_and(|t| t.declared_in == DeclaredIn::Source)
        && !has_cmcf_this(p, m)
}

/// A call on `this`: (node, callee).
type ThisCall = (NodeId, MethodId);

/// Reachable calls on `this`.
fn calls_on_this(body: &Body) -> Vec<ThisCall> {
    let Some(this) = body.this_var() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut reachable: Option<Vec<bool>> = None;
    let mut defs: Option<Definitions> = None;
    for (i, node) in body.nodes.iter().enumerate() {
        let Stmt::Call(call) = &node.stmt else {
            continue;
        };
        let Callee::Method(c) = &call.callee else {
            continue;
        };
        // On `this`, or on a copy of it (`var client = this; client.Connect()`).
        let Some(receiver) = call.receiver else {
            continue;
        };
        if receiver != this
            && defs
                .get_or_insert_with(|| Definitions::of(body))
                .copied_from(body, receiver)
                != this
        {
            continue;
        }
        let reach = reachable.get_or_insert_with(|| cfg::reachable(body));
        if reach.get(i).copied().unwrap_or(false) {
            out.push((NodeId(i as u32), *c));
        }
    }
    out
}

pub(super) fn apply(
    p: &mut Program,
    bodies: &Bodies,
    types: &MustCallTypes,
    specs: &mut Vec<InferredSpec>,
) {
    let mut add = |p: &mut Program, m: MethodId, rule: InferRule, evidence: Span| {
        p.methods[m.index()]
            .creates_must_call_for
            .push((Target::This, Provenance::Inferred { rule, evidence }));
        specs.push(InferredSpec {
            target: SpecTarget::Method(m),
            attr: InferredAttr::CreatesMustCallFor,
            rule,
            evidence,
        });
    };
    // Stores into owning fields.
    for body in bodies {
        let Some(m) = body.method.filter(|m| eligible(p, *m)) else {
            continue;
        };
        if let Some(&(n, _)) = new_owning_field_stores(p, types, body, None).first() {
            add(p, m, STORE_RULE, body.node(n).span);
        }
    }
    // Calls of such methods on `this`, to a fixed point: each pass adds at
    // least one method or stops, so this ends.
    // Each body's calls on `this` read only the body: in parallel.
    let read = &*p;
    let candidates: Vec<(&Body, MethodId, Vec<ThisCall>)> = bodies
        .iter()
        .as_slice()
        .par_iter()
        .filter_map(|b| {
            let m = b.method.filter(|m| eligible(read, *m))?;
            let calls = calls_on_this(b);
            (!calls.is_empty()).then_some((b, m, calls))
        })
        .collect();
    loop {
        let mut changed = false;
        for (body, m, calls) in &candidates {
            if has_cmcf_this(p, *m) {
                continue;
            }
            let this_ob = body
                .this_var()
                .and_then(|t| types.of_value(&body.var(t).ty));
            // As the checker: the new obligation is `this`'s own, or the callee's class's.
            let hit = calls.iter().find(|(_, c)| {
                has_cmcf_this(p, *c)
                    && (this_ob.is_some()
                        || p.get_method(*c)
                            .is_some_and(|cd| types.of_type(cd.owner).is_some()))
            });
            if let Some(&(n, _)) = hit {
                add(p, *m, CALL_RULE, body.node(n).span);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
}
