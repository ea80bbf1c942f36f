//! Called methods (paper §2.3): which must-call methods a statement calls on
//! which values.
//!
//! A direct call `x.Dispose()` (also `base.Dispose()`, whose receiver is
//! `this`) counts even if it throws, as the paper's version of the analysis
//! does: a disposal that fails has still been attempted, and nothing else could
//! be done with the value. A callee's `[Calls(target, methods)]` postcondition
//! holds on normal return only; its target is mapped to the caller's receiver,
//! argument, or the access path `receiver.f`.

use crate::ir::{Call, Callee, Operand, VarId};
use crate::must_call::MustCallTypes;
use crate::ownership::is_dispose_pattern;
use crate::program::{CallsSpec, Const, MustCall, Program, Target};
use crate::resource_alias::{Alias, FieldKey};

/// What a call guarantees about one value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CalledMethod<'p> {
    pub target: Alias,
    pub called: Called<'p>,
    /// A direct call counts on the exceptional edge too; a postcondition does not.
    pub even_if_throws: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Called<'p> {
    /// The method itself, by name.
    Direct(&'p str),
    /// A `[Calls]` postcondition of the callee: one of these was called.
    Spec(&'p CallsSpec),
}

impl Called<'_> {
    /// Whether this call discharges an obligation `must_call`.
    pub fn discharges(&self, must_call: &MustCall) -> bool {
        match self {
            Called::Direct(name) => must_call.is_satisfied_by(name),
            Called::Spec(spec) => {
                !spec.methods.is_empty()
                    && spec.methods.iter().all(|m| must_call.is_satisfied_by(m))
            }
        }
    }
}

/// The called-methods facts a call establishes. `known_bool` gives the value of
/// a `bool` argument variable before the call, used for the `Dispose(bool)`
/// convention (a `[Calls]` of `Dispose(bool disposing)` holds for `true`).
pub fn called_methods<'p>(
    program: &'p Program,
    types: &MustCallTypes,
    call: &'p Call,
    known_bool: impl Fn(VarId) -> Option<bool>,
) -> Vec<CalledMethod<'p>> {
    let mut out = Vec::new();
    let method = match &call.callee {
        Callee::Method(m) => program.get_method(*m),
        _ => None,
    };
    let name: Option<&'p str> = match &call.callee {
        Callee::Method(_) => method.map(|m| m.name.as_str()),
        // An unbound call is still a call of that name on that receiver.
        Callee::Unresolved(n) => Some(n.rsplit('.').next().unwrap_or(n)),
        Callee::Delegate(_) => None,
    };
    // A must-call method is named, not typed (`Unregister(null)`, `Timer.Dispose(
    // WaitHandle)`, `Disconnect(ex)` count); but `Dispose(bool)` releases only when
    // its flag is true, which its `[Calls]` says, and an unresolved call with
    // arguments may be any overload.
    let counts = match method {
        Some(m) => !is_dispose_pattern(program, m, std::slice::from_ref(&m.name)),
        None => call.args.iter().all(|a| a.value == Operand::Default),
    };
    if let (Some(name), Some(recv), true) = (name, call.receiver, counts) {
        out.push(CalledMethod {
            target: Alias::Var(recv),
            called: Called::Direct(name),
            even_if_throws: true,
        });
    }
    let Some(method) = method else {
        return out;
    };
    if method.calls.is_empty() {
        return out;
    }
    let owner_must_call = types
        .of_type(method.owner)
        .map(|o| o.must_call.methods.as_slice())
        .unwrap_or(&[]);
    if is_dispose_pattern(program, method, owner_must_call) {
        let disposing = match call.args.first().map(|a| &a.value) {
            Some(Operand::Const(Const::Bool(b))) => Some(*b),
            Some(Operand::Var(v)) => known_bool(*v),
            _ => None,
        };
        if disposing != Some(true) {
            return out;
        }
    }
    for spec in &method.calls {
        let target = match &spec.target {
            Target::This => call.receiver.map(Alias::Var),
            Target::Field(f) => call.receiver.map(|r| Alias::Path(r, FieldKey::Known(*f))),
            Target::Param(i) => call
                .args
                .iter()
                .find(|a| a.param == Some(*i))
                .and_then(|a| a.value.var())
                .map(Alias::Var),
        };
        if let Some(target) = target {
            out.push(CalledMethod {
                target,
                called: Called::Spec(spec),
                even_if_throws: false,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{BodyKind, CallKind, Stmt};
    use crate::program::{MethodKind, ValueTy};
    use crate::testing::{Asm, Lib, param};

    fn call_of(body: &crate::ir::Body, n: crate::ir::NodeId) -> &Call {
        match &body.node(n).stmt {
            Stmt::Call(c) => c,
            other => panic!("not a call: {other:?}"),
        }
    }

    #[test]
    fn direct_calls_and_postconditions() {
        let mut lib = Lib::new();
        let c = lib.class("App.H", &[lib.object, lib.disposable]);
        let f = lib.field(c, "_s", lib.stream, true, true);
        let boolean = lib.boolean;
        let dispose_bool = lib.method(
            c,
            "Dispose",
            MethodKind::Ordinary,
            vec![param("disposing", boolean)],
            None,
        );
        lib.calls(dispose_bool, Target::Field(f), &["Dispose"]);
        let closer = lib.method(
            c,
            "CloseAll",
            MethodKind::Ordinary,
            vec![param("s", lib.stream)],
            None,
        );
        lib.calls(closer, Target::Param(0), &["Close"]);
        let types = MustCallTypes::compute(&lib.p);
        let mut a = Asm::new(&lib, "C.M", BodyKind::Method);
        let x = a.local("x", c);
        let s = a.local("s", lib.stream);
        let d = a.dispose(x);
        let t = a.call(
            None,
            dispose_bool,
            Some(x),
            &[Operand::Const(Const::Bool(true))],
        );
        let f_ = a.call(
            None,
            dispose_bool,
            Some(x),
            &[Operand::Const(Const::Bool(false))],
        );
        let p = a.call(None, closer, Some(x), &[Operand::Var(s)]);
        let u = a.emit(Stmt::Call(Box::new(Call {
            dst: None,
            callee: Callee::Unresolved("Close".into()),
            kind: CallKind::Ordinary,
            receiver: Some(s),
            args: vec![],
            awaited: false,
            ty: ValueTy::UNKNOWN,
            new_type: None,
        })));
        let body = a.finish();
        let cm = |n| called_methods(&lib.p, &types, call_of(&body, n), |_| None);
        assert_eq!(
            cm(d),
            [CalledMethod {
                target: Alias::Var(x),
                called: Called::Direct("Dispose"),
                even_if_throws: true
            }]
        );
        let with_true = cm(t);
        assert_eq!(
            with_true.len(),
            1,
            "`Dispose(true)` has an argument: not a direct disposal"
        );
        assert_eq!(with_true[0].target, Alias::Path(x, FieldKey::Known(f)));
        assert!(!with_true[0].even_if_throws);
        assert!(
            with_true[0]
                .called
                .discharges(&MustCall::of(["Close", "Dispose"]))
        );
        assert!(!with_true[0].called.discharges(&MustCall::of(["Shutdown"])));
        assert!(cm(f_).is_empty(), "`Dispose(false)` guarantees nothing");
        // A method with arguments is still called by name on its receiver
        // (`reg.Unregister(null)`), and its postcondition holds for its argument.
        let passed = cm(p);
        assert!(passed.contains(&CalledMethod {
            target: Alias::Var(x),
            called: Called::Direct("CloseAll"),
            even_if_throws: true
        }));
        assert!(
            passed
                .iter()
                .any(|c| c.target == Alias::Var(s) && matches!(c.called, Called::Spec(_)))
        );
        assert_eq!(cm(u)[0].called, Called::Direct("Close"));
    }
}
