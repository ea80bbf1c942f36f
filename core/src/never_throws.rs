//! Methods of the program that cannot throw: a constructor that only stores
//! its arguments into fields (`Pipeline(Stream s, object c) { _s = s; _c = c;
//! }`), and any exactly bound method whose body has no node that may throw
//! but calls of such methods. A value handed to one cannot be lost to an
//! exception the call throws, so `_p = new Pipeline(stream, this);` in a
//! `try` does not leak `stream` on an exceptional path. A fact the code
//! states, derived once from the bodies and then the same for inference and
//! checking: [`derive`] marks the methods ([`crate::program::MethodDef::never_throws`]),
//! [`cut_edges`] removes the exceptional edge of every call to one.

use rustc_hash::FxHashMap;

use crate::ir::{Bodies, Body, Callee, Stmt};
use crate::program::{MethodId, MethodKind, Program};

/// Marks the methods whose every body, in every part, throws nothing but
/// through calls of methods marked (the least fixed point: a cycle of calls
/// is not assumed to be safe). Only methods a call binds to exactly: no
/// virtual, abstract or overridden ones; no `async` methods or iterators.
pub fn derive(program: &mut Program, parts: &[&Bodies]) {
    let overridden = program.overridden_methods();
    let mut bodies_of: FxHashMap<MethodId, Vec<&Body>> = FxHashMap::default();
    for body in parts.iter().flat_map(|b| b.iter()) {
        if let Some(m) = body.method {
            bodies_of.entry(m).or_default().push(body);
        }
    }
    let candidates: Vec<(MethodId, Vec<&Body>)> = bodies_of
        .into_iter()
        .filter(|(m, bodies)| {
            program.get_method(*m).is_some_and(|d| {
                matches!(
                    d.kind,
                    MethodKind::Constructor
                        | MethodKind::Ordinary
                        | MethodKind::Getter
                        | MethodKind::Setter
                        | MethodKind::LocalFunction
                ) && !d.is_virtual
                    && !d.is_abstract
                    && !d.is_async
                    && !d.never_throws
                    && !overridden.contains(m)
            }) && bodies.iter().all(|b| !b.is_async && !b.is_iterator)
        })
        .collect();
    let mut changed = true;
    while changed {
        changed = false;
        for (m, bodies) in &candidates {
            if !program.method(*m).never_throws && bodies.iter().all(|b| throws_nothing(program, b))
            {
                program.methods[m.index()].never_throws = true;
                changed = true;
            }
        }
    }
}

/// Whether every node of `body` that may throw is a call of a method that
/// never throws.
fn throws_nothing(program: &Program, body: &Body) -> bool {
    body.nodes
        .iter()
        .all(|n| n.exc.is_none() || calls_never_throwing(program, &n.stmt))
}

fn calls_never_throwing(program: &Program, stmt: &Stmt) -> bool {
    matches!(stmt, Stmt::Call(call)
        if matches!(call.callee, Callee::Method(m)
            if program.get_method(m).is_some_and(|d| d.never_throws)))
}

/// Removes the exceptional edge of every call to a method that never throws
/// (lowering gave one to every call of a method it could not yet know).
pub fn cut_edges(program: &Program, bodies: &mut Bodies) {
    for id in bodies.ids().collect::<Vec<_>>() {
        let Some(body) = bodies.get_mut(id) else {
            continue;
        };
        for node in &mut body.nodes {
            if node.exc.is_some() && calls_never_throwing(program, &node.stmt) {
                node.exc = None;
            }
        }
    }
}
