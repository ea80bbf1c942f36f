//! `out` parameters a `bool` method leaves empty when it returns `false`
//! (`bool GetNext(out IMemoryOwner<byte> entry)` that sets `entry = default`
//! before each `return false;`), as the .NET `TryX` convention says of its
//! `out` values: the caller's `false` edge owes nothing for them. A fact the
//! code states, derived the same way for checking and inference.

use crate::cfg;
use crate::facts::Definitions;
use crate::ir::{Bodies, Body, NodeId, Operand, Stmt, VarId};
use crate::program::{Const, MethodId, ParamMode, Program};

/// Marks [`crate::program::ParamDef::unset_when_false`] on the `out`
/// parameters of methods whose body returns only `true` or `false` and
/// reaches no `return false` with a value it gave the parameter. Only calls
/// that bind to exactly this body qualify (no virtual, abstract or
/// overridden methods, no iterators or `async` bodies).
pub fn derive(program: &mut Program, bodies: &Bodies) {
    let overridden = program.overridden_methods();
    let mut found: Vec<(MethodId, usize)> = Vec::new();
    for body in bodies.iter() {
        let Some(m) = body.method else { continue };
        let Some(md) = program.get_method(m) else {
            continue;
        };
        let exact = !md.is_virtual && !md.is_abstract && !overridden.contains(&m);
        let outs: Vec<usize> = md
            .params
            .iter()
            .enumerate()
            .filter(|(_, p)| p.mode == ParamMode::Out && !p.unset_when_false)
            .map(|(i, _)| i)
            .collect();
        if !exact || outs.is_empty() || md.is_async || body.is_async || body.is_iterator {
            continue;
        }
        let Some(false_returns) = false_returns(body) else {
            continue;
        };
        if false_returns.is_empty() {
            continue;
        }
        let defs = Definitions::of(body);
        for i in outs {
            let Some(v) = body.param_var(i as u32) else {
                continue;
            };
            if empty_at(body, &defs, v, &false_returns) {
                found.push((m, i));
            }
        }
    }
    for (m, i) in found {
        program.methods[m.index()].params[i].unset_when_false = true;
    }
}

/// The `return false` nodes of a body that returns only constant `bool`s.
fn false_returns(body: &Body) -> Option<Vec<NodeId>> {
    let mut out = Vec::new();
    for (i, node) in body.nodes.iter().enumerate() {
        match &node.stmt {
            Stmt::Return(Some(Operand::Const(Const::Bool(false)))) => out.push(NodeId(i as u32)),
            Stmt::Return(Some(Operand::Const(Const::Bool(true)))) => {}
            Stmt::Return(_) => return None,
            _ => {}
        }
    }
    Some(out)
}

/// Whether no assignment of a value other than `null` to `v` reaches any of
/// `returns` without `v` being assigned again.
fn empty_at(body: &Body, defs: &Definitions, v: VarId, returns: &[NodeId]) -> bool {
    let all = defs.all(v);
    all.iter().all(|d| {
        let empties = matches!(
            &body.node(*d).stmt,
            Stmt::Copy {
                src: Operand::Const(Const::Null) | Operand::Default,
                ..
            }
        );
        empties
            || !returns
                .iter()
                .any(|r| cfg::reaches(body, *d, *r, |x| all.contains(&x)))
    })
}
