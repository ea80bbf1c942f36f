//! Private helpers that run as part of construction (`Holder() { Init(); }`,
//! `var p = new Pool(); p.Start();`): like a constructor, they assign owning
//! fields that hold nothing yet.

use rustc_hash::FxHashMap;

use crate::facts::Definitions;
use crate::ir::{Bodies, Body, CallKind, Callee, Operand, Stmt, VarId};
use crate::program::{MethodDef, MethodId, MethodKind, Program, TypeId};

/// Marks the private, non-virtual instance methods that only constructors of
/// their class (or other such helpers) call, each time on `this`
/// (`Holder() { Init(); }`), or that a method of the class calls on an object
/// it has just created (`var p = new Pool(); p.Start();`): they run as part
/// of construction, so the owning fields they assign hold nothing yet and
/// they need no `[CreatesMustCallFor]`. A fact the code states, derived once.
pub fn derive_construction_helpers(program: &mut Program, bodies: &Bodies) {
    // Every call of each candidate: (calling body's method, on `this`, on a
    // new object of the callee's class).
    let mut calls: FxHashMap<MethodId, Vec<(Option<MethodId>, bool, bool)>> = FxHashMap::default();
    for body in bodies.iter() {
        let this = body.this_var();
        let defs = Definitions::of(body);
        for node in &body.nodes {
            if let Stmt::Call(call) = &node.stmt
                && let Callee::Method(m) = call.callee
                && let Some(d) = program.get_method(m)
                && d.is_private
                && !d.is_static
                && !d.is_virtual
                && d.kind == MethodKind::Ordinary
            {
                let on_this = this.is_some() && call.receiver == this;
                let fresh = call
                    .receiver
                    .is_some_and(|r| created_here(body, &defs, r, d.owner));
                calls
                    .entry(m)
                    .or_default()
                    .push((body.method, on_this, fresh));
            }
        }
    }
    // Grow the set from the constructors until nothing changes.
    let mut changed = true;
    while changed {
        changed = false;
        for (m, sites) in &calls {
            let owner = program.method(*m).owner;
            if program.method(*m).construction_helper || !program.method(*m).has_body {
                continue;
            }
            let all_in_construction = sites.iter().all(|(caller, on_this, fresh)| {
                let caller = caller.and_then(|c| program.get_method(c));
                let of_class = caller.is_some_and(|c| c.owner == owner);
                (*on_this && of_class && caller.is_some_and(MethodDef::in_construction))
                    || (*fresh && of_class)
            });
            if all_in_construction {
                program.methods[m.index()].construction_helper = true;
                changed = true;
            }
        }
    }
}

/// Whether `v` only ever holds an object of class `owner` that this body
/// creates with `new` (through copies).
fn created_here(body: &Body, defs: &Definitions, v: VarId, owner: TypeId) -> bool {
    let mut v = v;
    for _ in 0..8 {
        let [n] = defs.all(v) else {
            return false;
        };
        match &body.node(*n).stmt {
            Stmt::Copy {
                src: Operand::Var(s),
                ..
            } => v = *s,
            Stmt::Call(call) => {
                return call.kind == CallKind::New && call.new_type == Some(owner);
            }
            _ => return false,
        }
    }
    false
}
