//! Private setters that only store their value (`private set { _f = value; }`):
//! every call of one is replaced by the store it makes, so that an overwrite
//! of an owning field is found, and reported, where the caller assigns the
//! property (`this.Stream = File.OpenRead(p)` twice in a constructor), not in
//! the setter, which cannot know what the field holds. A private setter has
//! no caller outside its class, so nothing is left to check in its body.

use rustc_hash::FxHashMap;

use crate::ir::{Bodies, Body, FieldRef, Operand, Stmt};
use crate::program::{FieldId, MethodId, ParamMode, Program};

/// Replaces the calls of storing setters by their stores and marks the
/// setters [`crate::program::MethodDef::inlined`].
pub fn inline_storing_setters(program: &mut Program, bodies: &mut Bodies) {
    let stores: FxHashMap<MethodId, FieldId> = bodies
        .iter()
        .filter_map(|b| Some((b.method?, stored_field(program, b)?)))
        .collect();
    if stores.is_empty() {
        return;
    }
    for m in stores.keys() {
        program.methods[m.index()].inlined = true;
    }
    for (m, node) in bodies.method_calls_mut() {
        let Stmt::Call(call) = &node.stmt else {
            continue;
        };
        let (Some(&field), Some(base), None, [arg]) = (
            stores.get(&m),
            call.receiver,
            call.dst,
            call.args.as_slice(),
        ) else {
            continue;
        };
        node.stmt = Stmt::Store {
            base: Some(base),
            field: FieldRef::Known(field),
            src: arg.value.clone(),
        };
    }
}

/// The field a private instance setter's body stores its value into, when
/// that is all the body does.
fn stored_field(program: &Program, body: &Body) -> Option<FieldId> {
    let def = program.get_method(body.method?)?;
    if def.property.is_none()
        || !def.is_private
        || def.is_static
        || def.is_virtual
        || def.params.len() != 1
        || def.params[0].mode != ParamMode::Value
    {
        return None;
    }
    let (this, value) = (body.this_var()?, body.param_var(0)?);
    let mut field = None;
    for node in &body.nodes {
        match &node.stmt {
            Stmt::Nop | Stmt::ScopeEnd(_) => {}
            Stmt::Store {
                base: Some(b),
                field: FieldRef::Known(f),
                src: Operand::Var(v),
            } if *b == this && *v == value && field.is_none() => field = Some(*f),
            _ => return None,
        }
    }
    let f = field?;
    program
        .get_field(f)
        .is_some_and(|d| !d.is_static && program.is_subtype(def.owner, d.owner))
        .then_some(f)
}
