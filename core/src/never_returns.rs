//! Methods that never return normally: throw helpers (`static Stream Fail() =>
//! throw ..;`, a method that only calls one) and `[DoesNotReturn]` methods.
//! A call to one ends its path as a `throw` does, so `_s ?? Fail()` never
//! yields a "new" value from the helper and the code after the call is
//! unreachable. A fact the code states, derived once from the bodies and
//! then the same for inference and checking: [`derive`] marks the methods,
//! [`cut_calls`] removes the normal successor of every call to one.

use rustc_hash::{FxHashMap, FxHashSet};

use crate::ir::{Bodies, Body, Callee, NodeId, Stmt, Succ};
use crate::program::{MethodId, MethodKind, Program};

/// Marks the methods of `program` whose body in `bodies` cannot reach its
/// normal exit, given the methods already marked (`[DoesNotReturn]`, or an
/// earlier call). Only calls that bind to exactly this body qualify: no
/// virtual, abstract or overridden methods, no `async` methods or iterators
/// (their body runs later, when the result is awaited or enumerated).
pub fn derive(program: &mut Program, bodies: &Bodies) {
    let overridden: FxHashSet<MethodId> = program
        .methods
        .iter()
        .flat_map(|m| m.overrides.iter().copied())
        .collect();
    let candidates: Vec<(MethodId, &Body)> = bodies
        .iter()
        .filter_map(|b| {
            let m = b.method?;
            let d = program.get_method(m)?;
            let kind_ok = matches!(
                d.kind,
                MethodKind::Ordinary | MethodKind::Getter | MethodKind::LocalFunction
            );
            let exact = !d.is_virtual && !d.is_abstract && !overridden.contains(&m);
            (kind_ok && exact && !d.is_async && !b.is_async && !b.is_iterator && !d.never_returns)
                .then_some((m, b))
        })
        .collect();
    // Which candidates call each method: only they can change when it is marked.
    let mut callers: FxHashMap<MethodId, Vec<usize>> = FxHashMap::default();
    for (i, (_, body)) in candidates.iter().enumerate() {
        for node in &body.nodes {
            if let Stmt::Call(call) = &node.stmt
                && let Callee::Method(m) = call.callee
            {
                callers.entry(m).or_default().push(i);
            }
        }
    }
    let mut pending: Vec<usize> = (0..candidates.len()).collect();
    let mut marked = vec![false; candidates.len()];
    while let Some(i) = pending.pop() {
        let (m, body) = candidates[i];
        if marked[i] || exit_reachable(program, body) {
            continue;
        }
        marked[i] = true;
        program.methods[m.index()].never_returns = true;
        pending.extend(callers.get(&m).into_iter().flatten().copied());
    }
}

/// Removes the normal successor of every call to a method that never returns,
/// as a `throw` has none: only its exceptional edge remains.
pub fn cut_calls(program: &Program, bodies: &mut Bodies) {
    for id in bodies.ids().collect::<Vec<_>>() {
        let Some(body) = bodies.get_mut(id) else {
            continue;
        };
        for node in &mut body.nodes {
            if node.exc.is_some() && calls_never_returning(program, &node.stmt) {
                node.succ = Succ::None;
            }
        }
    }
}

fn calls_never_returning(program: &Program, stmt: &Stmt) -> bool {
    let Stmt::Call(call) = stmt else {
        return false;
    };
    let Callee::Method(m) = call.callee else {
        return false;
    };
    program.get_method(m).is_some_and(|d| d.never_returns)
}

/// Whether the normal exit is reachable from the entry along normal and
/// exceptional edges (a caught exception may end in a normal return), not
/// past a call to a method already known never to return.
fn exit_reachable(program: &Program, body: &Body) -> bool {
    let mut seen = vec![false; body.nodes.len()];
    let mut stack = vec![body.entry];
    while let Some(n) = stack.pop() {
        if n == body.exit {
            return true;
        }
        let Some(slot) = seen.get_mut(n.index()) else {
            continue;
        };
        if std::mem::replace(slot, true) {
            continue;
        }
        let node = body.node(n);
        if !calls_never_returning(program, &node.stmt) {
            stack.extend(node.succ.targets());
        }
        stack.extend(node.exc.as_ref().map(|e| e.target));
    }
    false
}

/// Whether `n` ends its path by throwing: a `throw`, or a call cut by
/// [`cut_calls`].
pub fn always_throws(body: &Body, n: NodeId) -> bool {
    let node = body.node(n);
    match node.stmt {
        Stmt::Throw(_) => true,
        Stmt::Call(_) => node.succ == Succ::None,
        _ => false,
    }
}
