//! Methods that never return normally: throw helpers (`static Stream Fail() =>
//! throw ..;`, a method that only calls one), methods that only recurse, and
//! `[DoesNotReturn]` methods. One that does not throw either (`[DoesNotReturn,
//! DoesNotThrow]`: `Environment.Exit`) ends the process, and with it the path.
//! A call to one ends its path as a `throw` does, so `_s ?? Fail()` never
//! yields a "new" value from the helper and the code after the call is
//! unreachable. A fact the code states, derived once from the bodies and
//! then the same for inference and checking: [`derive`] marks the methods,
//! [`cut_calls`] removes the normal successor of every call to one.

use rustc_hash::FxHashMap;

use crate::ir::{Bodies, Body, Callee, Cond, Node, NodeId, Operand, Stmt, Succ, VarId};
use crate::program::{Const, MethodDef, MethodId, MethodKind, Program};

/// Marks the methods of `program` whose body in `bodies` cannot reach its
/// normal exit, given the methods already marked (`[DoesNotReturn]`, or an
/// earlier call) and those marked here. Only calls that bind to exactly this body qualify: no
/// virtual, abstract or overridden methods, no `async` methods or iterators
/// (their body runs later, when the result is awaited or enumerated).
pub fn derive(program: &mut Program, bodies: &Bodies) {
    let overridden = program.overridden_methods();
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
    // The greatest fixed point first: a candidate is taken not to return
    // until its exit is seen reachable, so a method that only recurses
    // (`static IDisposable Forever() => Forever();`) never returns either.
    // Only a method without overloads is assumed so: a call bound to the
    // wrong overload (`M(x => ..)` picking itself) must not make a cycle.
    let assumed: Vec<bool> = candidates
        .iter()
        .map(|(m, _)| !program.has_overloads(*m))
        .collect();
    for ((m, _), &a) in candidates.iter().zip(&assumed) {
        program.methods[m.index()].never_returns = a;
    }
    let mut pending: Vec<usize> = (0..candidates.len()).filter(|&i| assumed[i]).collect();
    while let Some(i) = pending.pop() {
        let (m, body) = candidates[i];
        if !program.method(m).never_returns || !exit_reachable(program, body) {
            continue;
        }
        program.methods[m.index()].never_returns = false;
        pending.extend(callers.get(&m).into_iter().flatten().copied());
    }
    // Then the least one for the rest: a method whose every path ends in a
    // throw or a call that never returns.
    let mut pending: Vec<usize> = (0..candidates.len()).collect();
    while let Some(i) = pending.pop() {
        let (m, body) = candidates[i];
        if program.method(m).never_returns || exit_reachable(program, body) {
            continue;
        }
        program.methods[m.index()].never_returns = true;
        pending.extend(callers.get(&m).into_iter().flatten().copied());
    }
}

/// Removes the normal successor of every call to a method that never returns,
/// as a `throw` has none: only its exceptional edge remains. After a call
/// that does not return when an argument has a value (`Debug.Assert(x ==
/// null)`, `[DoesNotReturnIf(false)]`), the path where it has that value ends.
pub fn cut_calls(program: &Program, bodies: &mut Bodies) {
    for id in bodies.ids().collect::<Vec<_>>() {
        let Some(body) = bodies.get_mut(id) else {
            continue;
        };
        let mut asserts: Vec<(usize, VarId, bool)> = Vec::new();
        for (i, node) in body.nodes.iter_mut().enumerate() {
            // A call that neither returns nor throws ends the process
            // (`Environment.Exit`): no `finally` runs after it, and the
            // operating system takes back what the process held.
            if node.exc.is_none() {
                if calls_ending_process(program, &node.stmt) {
                    node.succ = Succ::None;
                }
                continue;
            }
            match does_not_return_if(program, &node.stmt) {
                Some(Stops::Always) => node.succ = Succ::None,
                Some(Stops::When(v, value)) => asserts.push((i, v, value)),
                None if calls_never_returning(program, &node.stmt) => node.succ = Succ::None,
                None => {}
            }
        }
        for (i, v, stops_when) in asserts {
            let Succ::Goto(next) = body.nodes[i].succ else {
                continue;
            };
            let span = body.nodes[i].span;
            let end = NodeId(body.nodes.len() as u32);
            let test = NodeId(end.0 + 1);
            body.nodes.push(Node {
                stmt: Stmt::Nop,
                span,
                succ: Succ::None,
                exc: None,
            });
            let (if_true, if_false) = if stops_when { (end, next) } else { (next, end) };
            body.nodes.push(Node {
                stmt: Stmt::Nop,
                span,
                succ: Succ::Branch {
                    cond: Cond::Bool(v),
                    if_true,
                    if_false,
                },
                exc: None,
            });
            body.nodes[i].succ = Succ::Goto(test);
        }
    }
}

/// Where a call with a `[DoesNotReturnIf(value)]` argument stops.
enum Stops {
    /// A constant argument has that value.
    Always,
    /// When this variable has this value.
    When(VarId, bool),
}

fn does_not_return_if(program: &Program, stmt: &Stmt) -> Option<Stops> {
    let Stmt::Call(call) = stmt else {
        return None;
    };
    let Callee::Method(m) = call.callee else {
        return None;
    };
    let md = program.get_method(m)?;
    call.args.iter().find_map(|a| {
        let stops_when = md.params.get(a.param? as usize)?.does_not_return_if?;
        match &a.value {
            Operand::Var(v) => Some(Stops::When(*v, stops_when)),
            Operand::Const(Const::Bool(b)) if *b == stops_when => Some(Stops::Always),
            _ => None,
        }
    })
}

fn calls_never_returning(program: &Program, stmt: &Stmt) -> bool {
    callee(program, stmt).is_some_and(|d| d.never_returns)
}

fn calls_ending_process(program: &Program, stmt: &Stmt) -> bool {
    callee(program, stmt).is_some_and(|d| d.never_returns && d.never_throws)
}

fn callee<'p>(program: &'p Program, stmt: &Stmt) -> Option<&'p MethodDef> {
    let Stmt::Call(call) = stmt else {
        return None;
    };
    let Callee::Method(m) = call.callee else {
        return None;
    };
    program.get_method(m)
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
