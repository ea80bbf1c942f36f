//! Methods that run as part of construction (`Holder() { Init(); }`,
//! `var p = new Pool(); p.Start();`): like a constructor, they assign owning
//! fields that hold nothing yet.

use rustc_hash::{FxHashMap, FxHashSet};

use crate::cfg;
use crate::facts::Definitions;
use crate::ir::{Bodies, Body, BodyKind, CallKind, Callee, FieldRef, NodeId, Operand, Stmt, VarId};
use crate::program::{FieldId, MethodDef, MethodId, MethodKind, Program};

/// An object a body has just created: a local it assigns with `new`, or a
/// field it fills with `new` before reading it back (`job.Cleaner = new
/// Cleaner(); job.Cleaner.Start();`; in a constructor, a field of `this`,
/// which starts empty: `_manager = new Manager(); _manager.Configure(..)`, a
/// field initializer included).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Fresh {
    Local(VarId),
    Field(VarId, FieldId),
}

/// One call of a candidate initialiser.
struct Site {
    caller: Option<MethodId>,
    /// On `this`, in a body of the callee's class.
    on_this_of_class: bool,
    /// On an object the calling body has just created with `new`, not
    /// disposed before, and the only call of this method on it there.
    first_on_fresh: bool,
}

/// Marks the instance methods that the program only ever calls as part of
/// construction: from constructors of their class (or other such methods) on
/// `this` (`Holder() { Init(); }`), or once on an object the caller has just
/// created (`var r = new Reader(p); r.Open();`, also through an interface the
/// method implements). The owning fields they assign hold nothing yet, so
/// they need no `[CreatesMustCallFor]`. A method nothing in the program calls
/// is not one: an outside caller may call it twice. A fact the code states,
/// derived once.
///
/// Also marks the methods that start an object's life
/// ([`MethodDef::lifecycle_start`]): the implementations of `[LifecycleStart]`
/// callbacks that the program itself calls only as the framework does
/// (`base.StartAsync(ct)`, or once on a fresh object), and the helpers only
/// they and construction call on `this`; and the fields construction may
/// already have filled for them ([`crate::program::FieldDef::set_in_construction`]).
/// `parts` are all the program's bodies, lowered apart: every call counts.
pub fn derive_construction_helpers(program: &mut Program, parts: &[&Bodies]) {
    // What a call of each method may run: itself, or each implementation.
    let implementations = program.implementations();
    let factories = factories(program, parts);
    for i in 0..program.methods.len() {
        if !program.methods[i].lifecycle_start
            && implements_lifecycle_start(program, MethodId(i as u32))
        {
            program.methods[i].lifecycle_start = true;
        }
    }
    let candidate = |m: MethodId| {
        program.get_method(m).is_some_and(|d| {
            // A virtual method (an override of a framework callback) may be
            // called from outside the program.
            !d.is_static
                && !d.is_virtual
                && d.kind == MethodKind::Ordinary
                && d.has_body
                && !d.is_abstract
                && !implementations.contains_key(&m)
                && !program.conventions.is_disposal_method(&d.name)
                && !program
                    .get_ty(d.owner)
                    .is_some_and(|t| t.also_disposes.contains(&d.name))
        })
    };
    let mut calls: FxHashMap<MethodId, Vec<Site>> = FxHashMap::default();
    // Calls the program makes of lifecycle starts themselves.
    let mut lifecycle_calls: FxHashMap<MethodId, Vec<Site>> = FxHashMap::default();
    // What each method (with the closures it makes) does on `this`: the
    // fields it stores into and the methods it may run.
    let mut this_stores: FxHashMap<MethodId, Vec<FieldId>> = FxHashMap::default();
    let mut this_calls: FxHashMap<MethodId, Vec<MethodId>> = FxHashMap::default();
    for (bodies, body) in parts
        .iter()
        .flat_map(|b| b.iter().map(move |body| (*b, body)))
    {
        let this = body.this_var();
        let defs = Definitions::of(body);
        let caller = body.method.and_then(|c| program.get_method(c));
        let caller_owner = caller.map(|c| c.owner);
        let root = root_method(bodies, body);
        // Calls on objects created here: (node, callee, receiver).
        let mut on_fresh: Vec<(NodeId, MethodId, Fresh)> = Vec::new();
        // (node, callee, receiver, on `this` from its class, lifecycle start)
        let mut found: Vec<(NodeId, MethodId, Option<Fresh>, bool, bool)> = Vec::new();
        for (i, node) in body.nodes.iter().enumerate() {
            let on_this = |v: Option<VarId>| this.is_some() && v == this;
            let call = match &node.stmt {
                Stmt::Store {
                    base,
                    field: FieldRef::Known(f),
                    ..
                } if on_this(*base) => {
                    if let Some(r) = root {
                        this_stores.entry(r).or_default().push(*f);
                    }
                    continue;
                }
                Stmt::Call(call) => call,
                _ => continue,
            };
            let Callee::Method(m) = call.callee else {
                continue;
            };
            let n = NodeId(i as u32);
            let on_this = on_this(call.receiver);
            let fresh = call
                .receiver
                .and_then(|r| fresh_object(body, &defs, &factories, r));
            if let Some(r) = fresh {
                on_fresh.push((n, m, r));
            }
            let runs =
                std::iter::once(m).chain(implementations.get(&m).into_iter().flatten().copied());
            if on_this && let Some(r) = root {
                this_calls.entry(r).or_default().extend(runs.clone());
            }
            let lifecycle = |t: MethodId| program.method(t).lifecycle_start;
            for t in runs.filter(|t| candidate(*t) && !lifecycle(*t)) {
                // A constructor of the class or of a subclass (`base.Init()`).
                let of_class =
                    caller_owner.is_some_and(|c| program.is_subtype(c, program.method(t).owner));
                found.push((n, t, fresh, on_this && of_class, false));
            }
            if lifecycle(m) {
                // `base.StartAsync(ct)` from the override the framework calls.
                let from_override = caller.is_some_and(|c| c.overrides.contains(&m));
                found.push((n, m, fresh, on_this && from_override, true));
            }
        }
        for (n, t, fresh, on_this_of_class, lifecycle) in found {
            let first_on_fresh = fresh.is_some_and(|r| {
                on_fresh.len() <= MAX_FRESH_CALLS
                    && first_on(program, body, &defs, &on_fresh, n, t, r)
            });
            let site = Site {
                caller: body.method,
                on_this_of_class,
                first_on_fresh,
            };
            if lifecycle {
                lifecycle_calls.entry(t).or_default().push(site);
            } else {
                calls.entry(t).or_default().push(site);
            }
        }
    }
    // A lifecycle start the program calls as an ordinary method (`Restart()
    // { StopAsync(); StartAsync(); }`) may find its fields full.
    for (m, sites) in &lifecycle_calls {
        if !sites.iter().all(|s| s.on_this_of_class || s.first_on_fresh) {
            program.methods[m.index()].lifecycle_start = false;
        }
    }
    // Grow the sets from the constructors and lifecycle starts until nothing
    // changes.
    let mut changed = true;
    while changed {
        changed = false;
        for (m, sites) in &calls {
            if program.method(*m).construction_helper {
                continue;
            }
            let all_from = |from: fn(&MethodDef) -> bool| {
                sites.iter().all(|s| {
                    let caller = s.caller.and_then(|c| program.get_method(c));
                    (s.on_this_of_class && caller.is_some_and(from)) || s.first_on_fresh
                })
            };
            if all_from(MethodDef::in_construction) {
                program.methods[m.index()].construction_helper = true;
                changed = true;
            } else if !program.method(*m).lifecycle_start
                && all_from(|c| c.in_construction() || c.lifecycle_start)
            {
                program.methods[m.index()].lifecycle_start = true;
                changed = true;
            }
        }
    }
    // What construction may have stored: the stores of constructors and of
    // everything they run on `this`.
    let mut runs: Vec<MethodId> = (0..program.methods.len() as u32)
        .map(MethodId)
        .filter(|m| program.method(*m).is_constructor())
        .collect();
    let mut reached: FxHashSet<MethodId> = runs.iter().copied().collect();
    while let Some(m) = runs.pop() {
        for f in this_stores.get(&m).into_iter().flatten() {
            program.fields[f.index()].set_in_construction = true;
        }
        for c in this_calls.get(&m).into_iter().flatten() {
            if reached.insert(*c) {
                runs.push(*c);
            }
        }
    }
}

/// Whether `m` overrides or implements, directly or not, a callback the
/// model marks `[LifecycleStart]`.
fn implements_lifecycle_start(program: &Program, m: MethodId) -> bool {
    program
        .overridden(m)
        .into_iter()
        .any(|o| program.method(o).lifecycle_start)
}

/// The method whose body is `body` or encloses it (a lambda's, a local
/// function's).
fn root_method(bodies: &Bodies, body: &Body) -> Option<MethodId> {
    let mut b = body;
    loop {
        if let Some(m) = b.method {
            return Some(m);
        }
        b = bodies.get(b.parent?)?;
    }
}

/// Calls on fresh objects per body beyond which none counts as the first
/// (each is checked with a walk of the body).
const MAX_FRESH_CALLS: usize = 256;

/// Whether the call of `t` at `n` on the fresh object `r` is the first thing
/// that may fill its fields: no call of `t` (this one in a loop included) and
/// no disposal (`r.Dispose(); r.Reopen();`) on the same object leads to it.
fn first_on(
    program: &Program,
    body: &Body,
    defs: &Definitions,
    on_fresh: &[(NodeId, MethodId, Fresh)],
    n: NodeId,
    t: MethodId,
    r: Fresh,
) -> bool {
    // A new object each time round: the paths through `r`'s assignments.
    let renewed: Vec<NodeId> = match r {
        Fresh::Local(v) => defs.all(v).to_vec(),
        Fresh::Field(b, f) => field_stores(body, b, f).map(|(n, _)| n).collect(),
    };
    !on_fresh.iter().any(|(q, m, u)| {
        *u == r
            && (*m == t
                || program.method(t).overrides.contains(m)
                || program
                    .get_method(*m)
                    .is_some_and(|d| program.conventions.is_disposal_method(&d.name)))
            && cfg::reaches(body, *q, n, |x| renewed.contains(&x))
    })
}

/// The object `receiver` holds, when this body has just created it.
fn fresh_object(
    body: &Body,
    defs: &Definitions,
    factories: &FxHashSet<MethodId>,
    receiver: VarId,
) -> Option<Fresh> {
    if created_here(body, defs, factories, receiver) {
        return Some(Fresh::Local(receiver));
    }
    let load = defs.single(receiver)?;
    let Stmt::Load {
        base: Some(b),
        field: FieldRef::Known(f),
        ..
    } = &body.node(load).stmt
    else {
        return None;
    };
    if defs.all(*b).len() > 1 {
        return None;
    }
    let stores: Vec<NodeId> = field_stores(body, *b, *f).map(|(n, _)| n).collect();
    let filled = !stores.is_empty()
        && field_stores(body, *b, *f).all(|(_, src)| {
            src.var()
                .is_some_and(|v| created_here(body, defs, factories, v))
        });
    // Elsewhere the field may hold an older object until a store on every
    // path to the read replaces it.
    let first = (body.kind == BodyKind::Constructor && Some(*b) == body.this_var())
        || !cfg::reaches(body, body.entry, load, |n| stores.contains(&n));
    (filled && first).then_some(Fresh::Field(*b, *f))
}

/// The stores into `base.f` in `body`, with the value stored.
fn field_stores(body: &Body, base: VarId, f: FieldId) -> impl Iterator<Item = (NodeId, &Operand)> {
    body.nodes
        .iter()
        .enumerate()
        .filter_map(move |(i, node)| match &node.stmt {
            Stmt::Store {
                base: Some(b),
                field: FieldRef::Known(g),
                src,
            } if *b == base && *g == f => Some((NodeId(i as u32), src)),
            _ => None,
        })
}

/// Whether `v` only ever holds objects this body creates with `new`
/// (through copies, `var r = c ? new A() : new B();`), or that one of the
/// program's `factories` does (`var r = GetRecorder();`).
fn created_here(
    body: &Body,
    defs: &Definitions,
    factories: &FxHashSet<MethodId>,
    v: VarId,
) -> bool {
    let mut seen: FxHashSet<VarId> = FxHashSet::default();
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        if !seen.insert(v) {
            continue;
        }
        if seen.len() > 16 {
            return false;
        }
        let defs = defs.all(v);
        if defs.is_empty() {
            return false;
        }
        for n in defs {
            match &body.node(*n).stmt {
                Stmt::Copy {
                    src: Operand::Var(s),
                    ..
                } => stack.push(*s),
                Stmt::Call(call) if call.kind == CallKind::New && call.dst == Some(v) => {}
                Stmt::Call(call)
                    if call.dst == Some(v)
                        && !call.awaited
                        && matches!(call.callee, Callee::Method(m) if factories.contains(&m)) => {}
                _ => return false,
            }
        }
    }
    true
}

/// The methods that return a new object on every path (`static IRecorder
/// GetRecorder() => new Recorder();`): no override can return another.
fn factories(program: &Program, parts: &[&Bodies]) -> FxHashSet<MethodId> {
    let none = FxHashSet::default();
    parts
        .iter()
        .flat_map(|b| b.iter())
        .filter_map(|body| {
            let m = body.method?;
            let d = program.get_method(m)?;
            if d.kind != MethodKind::Ordinary || d.is_virtual || d.is_abstract || body.is_async {
                return None;
            }
            let defs = Definitions::of(body);
            let returns: Vec<&Option<Operand>> = body
                .nodes
                .iter()
                .filter_map(|n| match &n.stmt {
                    Stmt::Return(value) => Some(value),
                    _ => None,
                })
                .collect();
            let fresh = !returns.is_empty()
                && returns.iter().all(|value| {
                    value
                        .as_ref()
                        .and_then(Operand::var)
                        .is_some_and(|v| created_here(body, &defs, &none, v))
                });
            fresh.then_some(m)
        })
        .collect()
}
