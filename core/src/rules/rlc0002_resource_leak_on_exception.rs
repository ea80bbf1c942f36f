//! RLC0002 resource-leak-on-exception: an obligation is discharged on every
//! normal path but lost where an exception is thrown (under the exception
//! model in force: by default inside a `try` the user wrote, and at `throw`).
//! A leak on a normal path as well is RLC0001 instead: one report per
//! allocation.

use super::leak;
use super::text::satisfied_by_using;
use crate::consistency::{ConditionNote, Event, Obligation};
use crate::rules::Keyed;
use crate::facts::{AliasClasses, BodyFacts};

use crate::ir::{Operand, Stmt};
use crate::rules::RuleId;

pub(super) fn report(
    cx: &BodyFacts<'_>,
    ob: &Obligation,
    event: &Event,
    notes: &[&ConditionNote],
) -> Keyed {
    let how = "is not disposed if an exception is thrown";
    let leak = leak::describe(cx, ob, event, how);
    let message = format!(
        "{} {how} (`{}` is not called on that path)",
        leak.subject, leak.obl
    );
    let help = if returned(cx, ob) {
        format!(
            "it is returned when nothing fails, so `using` would release it too early: call `{}` before the exception leaves the method (before a `throw`, or in a `catch` block that rethrows)",
            leak.obl
        )
    } else if satisfied_by_using(cx.program, &ob.must_call.must_call) {
        "dispose it in a `finally` block, or declare it with `using`, so it is disposed when an exception is thrown".to_string()
    } else {
        format!(
            "call `{}` in a `finally` block so it is called when an exception is thrown",
            leak.obl
        )
    };
    let (d, ty) = leak.diagnostic(cx, ob, event, notes, RuleId::ResourceLeakOnException, message);
    let d = d
        .with_note(
            "the leak happens only on a path where an exception is thrown (see the `exceptions` option)",
        )
        .with_help(help);
    (d, ty)
}

/// Whether the method returns the value (through copies, or a resource alias
/// of it: `response.Content.ReadAsStreamAsync()`) when nothing fails.
fn returned(cx: &BodyFacts<'_>, ob: &Obligation) -> bool {
    let Some(v) = ob.var else {
        return false;
    };
    let aliases = AliasClasses::of(cx.program, cx.types, cx.body);
    cx.body.nodes.iter().any(|n| {
        matches!(&n.stmt, Stmt::Return(Some(Operand::Var(r))) if aliases.same(*r, v))
    })
}
