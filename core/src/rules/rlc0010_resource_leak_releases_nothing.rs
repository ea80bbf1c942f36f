//! RLC0010 resource-leak-releases-nothing: an obligation is lost (on a normal
//! or an exceptional path) whose type's disposal, as inference found, releases
//! nothing today (rule `no-obligation`: no owned resources, no finalizer, no
//! overriding subclass). The leak is real by the type's contract, `IDisposable`,
//! but harmless today; it is reported apart, at a lower level, instead of
//! being hidden by an inferred spec nobody reviewed. Accepting the `[MustCall]`
//! that `rlc-sharp infer` proposes for the type removes it.

use super::leak;
use crate::consistency::{ConditionNote, Event, Obligation};
use crate::facts::BodyFacts;
use crate::program::{Provenance, TypeId};
use crate::rules::{Keyed, RuleId, SpecFact};

/// `never`: no path discharges the obligation; `verdict`: the inference that
/// found the type's disposal releases nothing.
pub(super) fn report(
    cx: &BodyFacts<'_>,
    ob: &Obligation,
    event: &Event,
    never: bool,
    notes: &[&ConditionNote],
    verdict: &(TypeId, Provenance),
) -> Keyed {
    let how = match (never, event.exc_from.is_some()) {
        (_, true) => "is not disposed if an exception is thrown",
        (true, false) => "is never disposed",
        (false, false) => "is not disposed on every path",
    };
    let leak = leak::describe(cx, ob, event, how);
    let (obl, inner) = (leak.obl.clone(), leak.ty.clone());
    let (verdict_ty, provenance) = verdict;
    let declaring = cx.program.type_name(Some(*verdict_ty)).to_string();
    let message = format!(
        "{} {how} (missing `{obl}`), but its disposal releases nothing today",
        leak.subject
    );
    let (mut d, ty) = leak.diagnostic(
        cx,
        ob,
        event,
        notes,
        RuleId::ResourceLeakReleasesNothing,
        message,
    );
    d.facts.push(SpecFact::new(
        format!("the disposal of `{declaring}` releases nothing"),
        provenance.clone(),
    ));
    d = d
        .with_note(format!(
            "`{inner}` is disposable, so it should be disposed; while its disposal does nothing, the leak is harmless"
        ))
        .with_help(format!(
            "dispose it, or, if `{declaring}` will never hold a resource, accept the `[MustCall]` (no obligation) that `rlc-sharp infer` proposes for it"
        ));
    (d, ty)
}
