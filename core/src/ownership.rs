//! Lightweight ownership transfer (paper §3): which positions take over a
//! value's obligation.
//!
//! The paper's defaults: method returns are owning, parameters and fields are
//! not, constructors return owning. C# conventions add: property getters are not
//! owning (a property exposes state the object already owns), `out` parameters
//! are owning (the caller receives the value), static fields are never owning.
//! A callee the front end could not bind (`Callee::Unresolved`) or a delegate
//! never takes ownership of an argument, but its result is owning like any
//! unannotated return, so an unknown library is handled soundly.

use crate::ir::{Body, BodyKind, Call, CallKind, Callee, FieldRef, NodeId, Operand, Stmt};
use crate::must_call::MustCallTypes;
use crate::program::{FieldId, MethodDef, MethodKind, ParamDef, ParamMode, Program};

/// Whether returning a value from `body` hands its obligation to the caller.
/// Constructors return nothing; getters and `[return: NotOwning]` methods do not
/// pass ownership; lambdas follow the default for returns (owning).
pub fn body_returns_owning(program: &Program, body: &Body) -> bool {
    match body.kind {
        BodyKind::Constructor | BodyKind::StaticConstructor | BodyKind::TopLevel => false,
        _ => body
            .method
            .and_then(|m| program.get_method(m))
            .is_none_or(|m| !m.is_constructor() && m.returns_owning()),
    }
}

/// Whether the caller owns the value a call returns: always for `new`, else
/// the callee's return ownership; unresolved calls and delegates return owning.
pub fn call_result_owning(program: &Program, call: &Call) -> bool {
    if call.kind == CallKind::New {
        return true;
    }
    match &call.callee {
        Callee::Method(m) => program.get_method(*m).is_none_or(MethodDef::returns_owning),
        Callee::Unresolved(_) | Callee::Delegate(_) => true,
    }
}

/// The declaration of the callee parameter an argument binds to, if known.
pub fn callee_param<'p>(
    program: &'p Program,
    call: &Call,
    param: Option<u32>,
) -> Option<&'p ParamDef> {
    let Callee::Method(m) = &call.callee else {
        return None;
    };
    program.get_method(*m)?.params.get(param? as usize)
}

/// Whether passing an argument to this parameter transfers its obligation
/// (`[Owning]`; by-value kinds only). The ownership condition is checked by
/// the caller ([`crate::resource_alias::condition_at`]).
pub fn param_takes_ownership(param: &ParamDef) -> bool {
    matches!(
        param.mode,
        ParamMode::Value | ParamMode::In | ParamMode::Params
    ) && param.ownership.is_owning(false)
}

/// Whether the value a callee stores into an `out` argument is owned by the
/// caller: yes by default, no when the parameter is `[NotOwning]`; unknown
/// callees follow the default.
pub fn out_param_owning(param: Option<&ParamDef>) -> bool {
    param.is_none_or(|p| p.ownership.is_owning(true))
}

/// Whether a parameter of the method a body implements is an obligation of the
/// body: `[Owning]` parameters (not default ones).
pub fn param_is_owning(param: &ParamDef) -> bool {
    param.mode != ParamMode::Out && param.ownership.is_owning(false)
}

/// Whether assigning to this parameter of the analysed method hands the value
/// to the caller (`out` parameters are owning by default).
pub fn out_param_of_body(method: Option<&MethodDef>, index: u32) -> bool {
    method
        .and_then(|m| m.params.get(index as usize))
        .is_some_and(|p| p.mode == ParamMode::Out && p.ownership.is_owning(true))
}

/// The `Dispose(bool disposing)` convention: a method named like one of the
/// owner's must-call methods with a single `bool` parameter. Its guarantees
/// (`[Calls]`) are understood for `disposing == true`, the call `Dispose()` makes.
pub fn is_dispose_pattern(program: &Program, method: &MethodDef, must_call: &[String]) -> bool {
    let [p] = method.params.as_slice() else {
        return false;
    };
    let is_bool = match p.ty.ty.filter(|t| program.get_ty(*t).is_some()) {
        Some(t) => Some(t) == program.well_known.boolean,
        None => p.name == program.conventions.dispose_flag,
    };
    method.kind == MethodKind::Ordinary
        && !method.is_static
        && p.mode == ParamMode::Value
        && is_bool
        && must_call.contains(&method.name)
}

/// The first reachable store of each non-readonly owning field of `this` that
/// may give the object a new obligation (paper §5): a value whose static type
/// may carry one (not `null`, not a value of a type known to carry none).
/// What needs `[CreatesMustCallFor("this")]`, for the checker (RLC0009) and
/// inference alike. `reachable` is computed when not given and needed.
pub fn new_owning_field_stores(
    program: &Program,
    types: &MustCallTypes,
    body: &Body,
    reachable: Option<&[bool]>,
) -> Vec<(NodeId, FieldId)> {
    let Some(this) = body.this_var() else {
        return Vec::new();
    };
    let mut out: Vec<(NodeId, FieldId)> = Vec::new();
    let mut computed: Option<Vec<bool>> = None;
    for (i, node) in body.nodes.iter().enumerate() {
        let Stmt::Store {
            base: Some(b),
            field: FieldRef::Known(f),
            src: Operand::Var(v),
        } = &node.stmt
        else {
            continue;
        };
        if *b != this || out.iter().any(|(_, g)| g == f) {
            continue;
        }
        let Some(fd) = program.get_field(*f) else {
            continue;
        };
        if !fd.is_owning() || fd.is_readonly || types.of_value(&fd.ty).is_none() {
            continue;
        }
        let known_free = body
            .vars
            .get(v.index())
            .is_some_and(|var| var.ty.ty.is_some() && types.of_value(&var.ty).is_none());
        let reach = match reachable {
            Some(r) => r,
            None => computed.get_or_insert_with(|| crate::cfg::reachable(body)),
        };
        if !known_free && reach.get(i).copied().unwrap_or(false) {
            out.push((NodeId(i as u32), *f));
        }
    }
    out
}
