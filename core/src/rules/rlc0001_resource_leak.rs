//! RLC0001 resource-leak: an obligation (a new resource, an owning result, an
//! `out` value, an `[Owning]` parameter or its elements, a `[CreatesMustCallFor]` target) is
//! lost on a normal path: its last alias is overwritten or goes out of scope,
//! or the method ends, without its must-call method being called and without
//! its ownership being handed on. The help names the usual fix for how it was
//! lost.

use super::leak;
use super::text::{not_owning_return_origin, param_name, satisfied_by_using};
use crate::consistency::{ConditionNote, Event, Loss, Obligation, ObligationKind};
use crate::rules::Keyed;
use crate::facts::BodyFacts;
use crate::program::MethodKind;
use crate::resource_alias::Alias;
use crate::rules::RuleId;

/// `never`: no path discharges the obligation.
pub(super) fn report(
    cx: &BodyFacts<'_>,
    ob: &Obligation,
    event: &Event,
    never: bool,
    notes: &[&ConditionNote],
) -> Keyed {
    let how = if never {
        "is never disposed"
    } else {
        "is not disposed on every path"
    };
    let leak = leak::describe(cx, ob, event, how);
    let obl = leak.obl.clone();
    let message = if event.loss == Loss::Discarded {
        format!("{} is discarded without calling `{obl}`", leak.subject)
    } else {
        format!("{} {how} (missing `{obl}`)", leak.subject)
    };
    let (mut d, ty) = leak.diagnostic(cx, ob, event, notes, RuleId::ResourceLeak, message);
    d.help = Some(help(cx, ob, event, never, &obl));
    (d, ty)
}

fn help(cx: &BodyFacts<'_>, ob: &Obligation, event: &Event, never: bool, obl: &str) -> String {
    let using = satisfied_by_using(cx.program, &ob.must_call.must_call);
    if event.loss == Loss::Discarded {
        return if using {
            format!("keep the result in a variable declared with `using`, or call `{obl}` on it")
        } else {
            format!("keep the result in a variable and call `{obl}` on it")
        };
    }
    if let Loss::Return {
        value_is_alias: true,
    } = event.loss
    {
        let inherited = cx
            .method
            .and_then(|m| not_owning_return_origin(cx.program, m));
        return if cx.method.is_some_and(|m| m.kind == MethodKind::Getter) {
            "a getter does not transfer ownership: make it a method, or mark the getter `[return: Owning]`".into()
        } else if let Some((base, relation)) = inherited {
            format!(
                "`{}` takes `[return: NotOwning]` from `{base}`, which it {relation}, so callers do not dispose what it returns: keep the value in a field the object disposes, or dispose it before returning it",
                cx.member_name()
            )
        } else {
            format!(
                "remove `[return: NotOwning]` from `{}`, or dispose the value before returning it",
                cx.member_name()
            )
        };
    }
    let unowned_field = event.paths.iter().find_map(|a| match a {
        Alias::Path(b, f) if Some(*b) == cx.this => Some(cx.field_key_name(*f)),
        _ => None,
    });
    if let Some(f) = unowned_field {
        return format!(
            "store it in an `[Owning]` field and dispose it in `Dispose()`: mark `{f}` `[Owning]`"
        );
    }
    if let ObligationKind::OwningParam(i) = ob.kind {
        return format!(
            "the parameter `{}` is `[Owning]`: dispose it here, or pass it on to an `[Owning]` parameter or field",
            param_name(cx, i)
        );
    }
    if let ObligationKind::OwningElements(i) = ob.kind {
        return format!(
            "the parameter `{}` is `[Owning]`: dispose each of its elements here, or hand them on to an owner (an `[Owning]` parameter, a collection field whose elements `Dispose()` disposes)",
            param_name(cx, i)
        );
    }
    if let ObligationKind::CreatesMustCallFor { .. } = ob.kind {
        return match ob.var.and_then(|v| cx.var_name(v)) {
            Some(target) => format!("call `{target}.{obl}` again after this call"),
            None => format!("call `{obl}` on it again after this call"),
        };
    }
    if !never {
        return if using {
            "dispose it in a `finally` block (or declare it with `using`) so that every path disposes it".into()
        } else {
            format!("call `{obl}` in a `finally` block so that every path calls it")
        };
    }
    let name = event
        .holder
        .and_then(|h| match h {
            Alias::Var(v) => cx.var_name(v),
            Alias::Path(..) => None,
        })
        .or_else(|| ob.var.and_then(|v| cx.var_name(v)));
    match name {
        Some(name) if name != "this" && using => {
            format!("declare it with `using`: `using var {name} = ...;`")
        }
        Some(name) if name != "this" => {
            format!("call `{name}.{obl}` when it is no longer needed")
        }
        _ if using => {
            format!("wrap it in a `using` statement, or call `{obl}` when it is no longer needed")
        }
        _ => format!("call `{obl}` when it is no longer needed"),
    }
}
