//! What a field holds when the one method that writes it after construction
//! is first called on an object. A disposal method's guarantees (`[Calls]`)
//! are about its first call, the one that discharges the object's
//! obligation, so a guard that only later calls fail does not weaken them:
//! a dispose-once counter (`if (Interlocked.Increment(ref _disposed) > 1)
//! return;`) still reads `0` there, and a resource swapped out once (`var p =
//! Interlocked.Exchange(ref _pool, null); if (p != null) { p.Dispose();
//! base.Dispose(); }`) still holds what the constructor stored. A fact the
//! code states, derived once from the bodies for checking and inference.

use rustc_hash::{FxHashMap, FxHashSet};

use crate::cfg;
use crate::ir::{
    Bodies, Body, CallKind, Callee, FieldRef, NodeId, Operand, Stmt, VarId, defined_vars,
};
use crate::program::{Const, DeclaredIn, FieldId, FirstCall, MethodId, Program};

/// Who stores into a field: construction (constructors, field initializers,
/// construction helpers, on `this`), and the methods that store into it on
/// `this` after construction, unless something else does (a lambda, another
/// object's method, a static one), which leaves it unknown.
#[derive(Default)]
struct Writers {
    methods: Vec<MethodId>,
    unknown: bool,
    /// Construction stores a value other than the type's default.
    constructed: bool,
    /// Code other than its class's constructors stores into it during
    /// construction (a subclass's constructor, a construction helper).
    constructed_elsewhere: bool,
}

/// Sets [`crate::program::FieldDef::first_call`] for the instance fields
/// that exactly one method `m` writes after construction, each store on
/// `this` (every store in any body counts, `ref` arguments' write-backs
/// included), when no construction code calls `m`:
/// - [`FirstCall::Default`] when construction stores nothing but the
///   default (`null`, `false`, `0`) into it;
/// - [`FirstCall::NotNull`] when every constructor of its class stores a new
///   object into it on every normal path (or calls a `this(..)` constructor
///   that does), and no other store into it runs in construction.
pub fn derive(program: &mut Program, parts: &[&Bodies]) {
    let mut writers: FxHashMap<FieldId, Writers> = FxHashMap::default();
    // Methods that construction code calls: not first called by the object's user.
    let mut called_in_construction: FxHashSet<MethodId> = FxHashSet::default();
    for body in parts.iter().flat_map(|b| b.iter()) {
        let this = body.this_var();
        let method = body
            .method
            .and_then(|m| program.get_method(m).map(|d| (m, d)));
        let in_construction = method.is_some_and(|(_, d)| d.in_construction());
        let constructor_of = method
            .filter(|(_, d)| d.is_constructor())
            .map(|(_, d)| d.owner);
        for node in &body.nodes {
            match &node.stmt {
                Stmt::Store {
                    base,
                    field: FieldRef::Known(f),
                    src,
                } => {
                    if program.get_field(*f).is_none_or(|d| d.is_static) {
                        continue;
                    }
                    let w = writers.entry(*f).or_default();
                    match method {
                        _ if this.is_none() || *base != this => w.unknown = true,
                        Some(_) if in_construction => {
                            w.constructed |= !is_default(src);
                            w.constructed_elsewhere |=
                                constructor_of != program.get_field(*f).map(|d| d.owner);
                        }
                        Some((m, d)) if !d.is_static => {
                            if !w.methods.contains(&m) {
                                w.methods.push(m);
                            }
                        }
                        _ => w.unknown = true,
                    }
                }
                Stmt::Call(call) if in_construction => {
                    if let Callee::Method(m) = call.callee {
                        called_in_construction.insert(m);
                    }
                }
                _ => {}
            }
        }
    }
    let fills = constructors_filling(program, parts);
    for (f, w) in writers {
        let [m] = w.methods[..] else { continue };
        if w.unknown || called_in_construction.contains(&m) {
            continue;
        }
        let owner = program.field(f).owner;
        // Code outside the program may write a library type's fields.
        if program
            .get_ty(owner)
            .is_none_or(|t| t.declared_in != DeclaredIn::Source)
        {
            continue;
        }
        let value = if !w.constructed {
            FirstCall::Default
        } else if !w.constructed_elsewhere && every_constructor_fills(program, &fills, owner, f) {
            FirstCall::NotNull
        } else {
            continue;
        };
        program.fields[f.index()].first_call = Some((m, value));
    }
}

/// `null`, `false` or `0`: what an instance field holds before any store.
fn is_default(src: &Operand) -> bool {
    matches!(
        src,
        Operand::Const(Const::Null | Const::Bool(false) | Const::Int(0))
    )
}

/// For each constructor with a body, the fields it stores a new object into
/// on every normal path (directly or through the `this(..)` constructor it
/// calls), and whether each of its other stores into them is one too; the
/// fields with another store are left out.
fn constructors_filling(program: &Program, parts: &[&Bodies]) -> FxHashMap<MethodId, Vec<FieldId>> {
    let ctors: Vec<(MethodId, &Body)> = parts
        .iter()
        .flat_map(|b| b.iter())
        .filter_map(|b| {
            let m = b.method?;
            program.get_method(m)?.is_constructor().then_some((m, b))
        })
        .collect();
    let mut fills: FxHashMap<MethodId, Vec<FieldId>> = FxHashMap::default();
    // `this(..)` chains are short: a few rounds reach their ends.
    for _ in 0..4 {
        let mut changed = false;
        for &(m, body) in &ctors {
            let filled = filled_on_every_path(body, &fills);
            if fills.get(&m).is_none_or(|old| *old != filled) {
                fills.insert(m, filled);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    fills
}

/// The fields of `this` that `body` stores a new object into on every normal
/// path to its exit (or that a `this(..)` constructor in `fills` fills), and
/// into which it stores nothing else.
fn filled_on_every_path(body: &Body, fills: &FxHashMap<MethodId, Vec<FieldId>>) -> Vec<FieldId> {
    let Some(this) = body.this_var() else {
        return Vec::new();
    };
    let fresh: FxHashSet<VarId> = body
        .nodes
        .iter()
        .filter_map(|n| match &n.stmt {
            Stmt::Call(c) if c.kind == CallKind::New => c.dst,
            _ => None,
        })
        .collect();
    // Per field: the nodes that fill it, and whether another store exists.
    let mut sites: FxHashMap<FieldId, (Vec<NodeId>, bool)> = FxHashMap::default();
    for (i, node) in body.nodes.iter().enumerate() {
        let n = NodeId(i as u32);
        match &node.stmt {
            Stmt::Store {
                base: Some(b),
                field: FieldRef::Known(f),
                src,
            } if *b == this => {
                let site = sites.entry(*f).or_default();
                match src {
                    Operand::Var(v) if single_fresh(body, *v, &fresh) => site.0.push(n),
                    _ => site.1 = true,
                }
            }
            Stmt::Call(c) if c.kind == CallKind::ThisConstructor => {
                if let Callee::Method(d) = c.callee {
                    for f in fills.get(&d).into_iter().flatten() {
                        sites.entry(*f).or_default().0.push(n);
                    }
                }
            }
            _ => {}
        }
    }
    let mut out: Vec<FieldId> = sites
        .into_iter()
        .filter(|(_, (at, other))| {
            !other
                && !at.is_empty()
                && !cfg::reachable_without(body, body.exit, |from, _| at.contains(&from))
        })
        .map(|(f, _)| f)
        .collect();
    out.sort();
    out
}

/// Whether `v` is assigned only once, the result of a `new`.
fn single_fresh(body: &Body, v: VarId, fresh: &FxHashSet<VarId>) -> bool {
    fresh.contains(&v)
        && body
            .nodes
            .iter()
            .filter(|n| defined_vars(&n.stmt).any(|d| d == v))
            .count()
            == 1
}

/// Whether every constructor of `owner` has a body that fills `f`.
fn every_constructor_fills(
    program: &Program,
    fills: &FxHashMap<MethodId, Vec<FieldId>>,
    owner: crate::program::TypeId,
    f: FieldId,
) -> bool {
    let mut ctors = program
        .methods
        .iter()
        .enumerate()
        .filter(|(_, d)| d.owner == owner && d.is_constructor() && !d.is_static)
        .peekable();
    ctors.peek().is_some()
        && ctors.all(|(i, _)| {
            fills
                .get(&MethodId(i as u32))
                .is_some_and(|fs| fs.contains(&f))
        })
}

/// The loads in `body` of a field of `this` whose one writer after
/// construction is `body`'s method ([`derive`]) that no store into the field
/// in `body`, nor a call of the method itself, may precede: each with what it
/// reads on the method's first call.
pub fn first_call_loads(program: &Program, body: &Body) -> Vec<(VarId, FirstCall)> {
    let (Some(m), Some(this)) = (body.method, body.this_var()) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (i, node) in body.nodes.iter().enumerate() {
        let Stmt::Load {
            dst,
            base: Some(b),
            field: FieldRef::Known(f),
        } = &node.stmt
        else {
            continue;
        };
        let Some((writer, value)) = program.get_field(*f).and_then(|d| d.first_call) else {
            continue;
        };
        if *b != this || writer != m {
            continue;
        }
        // Stores of the field here, and recursive calls, that may run first.
        let writes = |n: &crate::ir::Node| match &n.stmt {
            Stmt::Store {
                field: FieldRef::Known(g),
                ..
            } => g == f,
            Stmt::Call(c) => c.callee == Callee::Method(m),
            _ => false,
        };
        let load = NodeId(i as u32);
        let preceded = body
            .nodes
            .iter()
            .enumerate()
            .any(|(j, n)| writes(n) && cfg::reaches(body, NodeId(j as u32), load, |_| false));
        // Every load into `dst` must be such a load (the value is keyed by variable).
        let other_loads = body
            .nodes
            .iter()
            .enumerate()
            .any(|(j, n)| j != i && matches!(&n.stmt, Stmt::Load { dst: d, .. } if d == dst));
        if !preceded && !other_loads {
            out.push((*dst, value));
        }
    }
    out
}

/// The variables of `body` that hold, where a `null` test reads them, a
/// value `loads` say is not `null`: the loads themselves and copies of them
/// (`var p = Interlocked.Exchange(ref _pool, null); if (p != null)`), each
/// copy made where no other assignment of a loaded variable may have run.
pub fn not_null_vars(body: &Body, loads: &[(VarId, FirstCall)]) -> Vec<VarId> {
    let loaded: Vec<VarId> = loads
        .iter()
        .filter(|(_, v)| *v == FirstCall::NotNull)
        .map(|(v, _)| *v)
        .collect();
    let mut known = loaded.clone();
    if known.is_empty() {
        return known;
    }
    let defs = |v: VarId| -> Vec<NodeId> {
        body.nodes
            .iter()
            .enumerate()
            .filter(|(_, n)| defined_vars(&n.stmt).any(|d| d == v))
            .map(|(i, _)| NodeId(i as u32))
            .collect()
    };
    // A copy of `s` at `d` copies the known value unless an assignment of a
    // loaded `s` other than its load may run before it.
    let copies_known = |known: &[VarId], s: VarId, d: NodeId| {
        known.contains(&s)
            && (!loaded.contains(&s)
                || defs(s).into_iter().all(|sd| {
                    matches!(body.node(sd).stmt, Stmt::Load { .. })
                        || !cfg::reaches(body, sd, d, |_| false)
                }))
    };
    let mut changed = true;
    while changed {
        changed = false;
        for node in &body.nodes {
            let Stmt::Copy { dst, .. } = &node.stmt else {
                continue;
            };
            if known.contains(dst) {
                continue;
            }
            let all_known = defs(*dst).into_iter().all(|d| match &body.node(d).stmt {
                Stmt::Copy {
                    src: Operand::Var(s),
                    ..
                } => copies_known(&known, *s, d),
                _ => false,
            });
            if all_known {
                known.push(*dst);
                changed = true;
            }
        }
    }
    known.sort();
    known
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::MethodKind;
    use crate::testing::{Asm, Lib, null, v};

    /// `class C { int _d; FileStream _p = new FileStream(); C() {} void M() {
    /// t = _d; _d = 1; p = _p; _p = null; } }`, with `N() { _d = 1; }` when
    /// `other_writer`; the bodies, `M`, and the fields.
    fn program(other_writer: bool) -> (Lib, Vec<Body>, MethodId, FieldId, FieldId) {
        let mut lib = Lib::new();
        let c = lib.class("C", &[]);
        let (boolean, fs, fs_new) = (lib.boolean, lib.file_stream, lib.file_stream_new);
        let d = lib.field(c, "_d", boolean, false, false);
        let p = lib.field(c, "_p", fs, false, false);
        let ctor = lib.method(c, ".ctor", MethodKind::Constructor, vec![], None);
        let m = lib.method(c, "M", MethodKind::Ordinary, vec![], None);
        let n = lib.method(c, "N", MethodKind::Ordinary, vec![], None);
        let mut bodies = Vec::new();
        let mut a = Asm::for_method(&lib, ctor);
        let (this, fresh) = (a.this(), a.temp(Some(fs)));
        a.new_(Some(fresh), fs_new, &[]);
        a.store(this, p, v(fresh));
        bodies.push(a.finish());
        let mut a = Asm::for_method(&lib, m);
        let (this, t, q) = (a.this(), a.temp(Some(boolean)), a.temp(Some(fs)));
        a.load(t, this, d);
        a.store(this, d, Operand::Const(Const::Bool(true)));
        a.load(q, this, p);
        a.store(this, p, null());
        a.load(t, this, d);
        bodies.push(a.finish());
        if other_writer {
            let mut a = Asm::for_method(&lib, n);
            let this = a.this();
            a.store(this, d, Operand::Const(Const::Bool(true)));
            bodies.push(a.finish());
        }
        (lib, bodies, m, d, p)
    }

    fn derived(lib: &mut Lib, bodies: &[Body]) -> Bodies {
        let mut all = Bodies::new();
        for b in bodies {
            all.push(b.clone());
        }
        derive(&mut lib.p, &[&all]);
        all
    }

    #[test]
    fn a_field_only_one_method_writes_holds_what_construction_left() {
        let (mut lib, bodies, m, d, p) = program(false);
        let all = derived(&mut lib, &bodies);
        assert_eq!(lib.p.field(d).first_call, Some((m, FirstCall::Default)));
        assert_eq!(lib.p.field(p).first_call, Some((m, FirstCall::NotNull)));
        // `t` is loaded twice, once after the store: no load of it reads the first value.
        let body = all.iter().find(|b| b.method == Some(m)).unwrap();
        let loads = first_call_loads(&lib.p, body);
        assert_eq!(loads.len(), 1);
        assert_eq!(loads[0].1, FirstCall::NotNull);
        assert_eq!(not_null_vars(body, &loads), vec![loads[0].0]);
    }

    #[test]
    fn a_second_writer_leaves_the_first_value_unknown() {
        let (mut lib, bodies, m, d, p) = program(true);
        derived(&mut lib, &bodies);
        assert_eq!(lib.p.field(d).first_call, None);
        assert_eq!(lib.p.field(p).first_call, Some((m, FirstCall::NotNull)));
    }
}
