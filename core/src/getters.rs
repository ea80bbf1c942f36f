//! Getters that only read a field (`IList<View> Items => _items;`,
//! `=> _items ?? [];`, `=> _f ?? throw ..`): every call of one is replaced by
//! the load it makes, so that what a caller does through the property is done
//! to the field. A child inserted into `Items` is stored in the collection
//! the class disposes element-wise, and `Items[i].Dispose()` in `Dispose()`
//! disposes the field's elements, as if the class had named `_items`.
//!
//! Only getters no override can replace: a virtual getter may read something
//! else in a subclass.

use rustc_hash::{FxHashMap, FxHashSet};

use crate::ir::{Bodies, Body, CallKind, FieldRef, NodeId, Operand, Stmt, VarId};
use crate::program::{FieldId, MethodId, MethodKind, Program};

/// Replaces the calls of the program's field-reading getters, in every part
/// of its bodies (a getter of one part may be called in a later one), by the
/// loads they make. A load cannot throw, so the call's exceptional edge goes.
pub fn inline_field_getters(program: &Program, parts: &mut [&mut Bodies]) {
    let getters: FxHashMap<MethodId, FieldId> = parts
        .iter()
        .flat_map(|bodies| bodies.iter())
        .filter_map(|b| Some((b.method?, read_field(program, b)?)))
        .collect();
    if getters.is_empty() {
        return;
    }
    for bodies in parts.iter_mut() {
        for (m, node) in bodies.method_calls_mut() {
            let Stmt::Call(call) = &node.stmt else {
                continue;
            };
            let (Some(&field), Some(dst), true, false) = (
                getters.get(&m),
                call.dst,
                call.args.is_empty(),
                call.awaited,
            ) else {
                continue;
            };
            node.stmt = Stmt::Load {
                dst,
                base: call.receiver,
                field: FieldRef::Known(field),
            };
            node.exc = None;
        }
    }
}

/// The field a getter returns, when reading it is all the getter does on
/// the paths that return: each value it returns is that field of its own
/// object (a static getter: the static field), or, where the field is
/// `null`, a new empty collection. What a path that only throws does (`??
/// throw new ObjectDisposedException(nameof(C))`) does not matter.
fn read_field(program: &Program, body: &Body) -> Option<FieldId> {
    let def = program.get_method(body.method?)?;
    if def.kind != MethodKind::Getter || !def.params.is_empty() || def.is_virtual || def.is_abstract
    {
        return None;
    }
    let this = body.this_var();
    let returning = reaches_exit(body);
    let mut field = None;
    let mut defs: FxHashMap<VarId, Vec<Def>> = FxHashMap::default();
    let mut returned = Vec::new();
    for (node, _) in body.nodes.iter().zip(&returning).filter(|(_, r)| **r) {
        match &node.stmt {
            Stmt::Nop | Stmt::ScopeEnd(_) => {}
            Stmt::Load {
                dst,
                base,
                field: FieldRef::Known(f),
            } if *base == this && field.is_none_or(|g| g == *f) => {
                field = Some(*f);
                defs.entry(*dst).or_default().push(Def::Field);
            }
            Stmt::Copy {
                dst,
                src: Operand::Var(s),
            } => defs.entry(*dst).or_default().push(Def::Copy(*s)),
            Stmt::Call(call)
                if call.kind == CallKind::New
                    && call.args.is_empty()
                    && call.ty.element.is_some() =>
            {
                defs.entry(call.dst?).or_default().push(Def::Empty);
            }
            Stmt::Return(Some(Operand::Var(v))) => returned.push(*v),
            _ => return None,
        }
    }
    let mut seen = FxHashSet::default();
    let mut reads_field = false;
    while let Some(v) = returned.pop() {
        if !seen.insert(v) {
            continue;
        }
        for d in defs.get(&v)? {
            match d {
                Def::Field => reads_field = true,
                Def::Empty => {}
                Def::Copy(s) => returned.push(*s),
            }
        }
    }
    field.filter(|_| reads_field)
}

/// The nodes from which the normal exit can be reached over normal edges.
fn reaches_exit(body: &Body) -> Vec<bool> {
    let mut preds: Vec<Vec<NodeId>> = vec![Vec::new(); body.nodes.len()];
    for (i, node) in body.nodes.iter().enumerate() {
        for s in node.succ.targets() {
            preds[s.index()].push(NodeId(i as u32));
        }
    }
    let mut seen = vec![false; body.nodes.len()];
    let mut stack = vec![body.exit];
    while let Some(n) = stack.pop() {
        if !std::mem::replace(&mut seen[n.index()], true) {
            stack.extend(&preds[n.index()]);
        }
    }
    seen
}

/// How a variable of a field-reading getter gets a value.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Def {
    /// The field.
    Field,
    /// A new empty collection (`?? []`).
    Empty,
    /// Another variable.
    Copy(VarId),
}
