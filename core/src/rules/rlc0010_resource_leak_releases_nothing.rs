//! RLC0010 resource-leak-releases-nothing: an obligation is lost (on a normal
//! or an exceptional path) whose type's disposal, as inference found, releases
//! nothing today (rule `no-obligation`: no owned resources, no finalizer, no
//! overriding subclass). The leak is real by the type's contract, `IDisposable`,
//! but harmless today; it is reported apart, at a lower level, instead of
//! being hidden by an inferred spec nobody reviewed. Accepting the `[MustCall]`
//! that `rlc-sharp infer` proposes for the type removes it, as it removes every
//! other finding about the type: the owning-field findings (RLC0003 to
//! RLC0005) keep their rule, lowered to this rule's level with its explanation.

use super::leak;
use crate::consistency::{ConditionNote, Event, Obligation};
use crate::facts::BodyFacts;
use crate::program::{Harmless, Program, Provenance, TypeId};
use crate::rules::{Diagnostic, Keyed, RuleId, SpecFact};

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
    explain(&mut d, &inner, &declaring, provenance);
    d = d.with_help(format!(
        "dispose it, {}",
        accept_no_obligation(&declaring)
    ));
    (d, ty)
}

/// The finding another rule made about an owning field or a collection's
/// elements (RLC0003, RLC0004, RLC0005), told as the harmless loss it is when
/// inference found that the lost type's disposal releases nothing, at this
/// rule's level; any other finding as it was. It keeps its rule: the field's
/// problem is the same whatever the field holds.
pub(super) fn demote_if_nothing(
    program: &Program,
    (mut d, resource): Keyed,
    harmless: Option<&(Harmless, TypeId, Provenance)>,
) -> Keyed {
    let Some((Harmless::ReleasesNothing, ty, provenance)) = harmless else {
        return (d, resource);
    };
    let declaring = program.type_name(Some(*ty)).to_string();
    let short = program
        .get_ty(*ty)
        .map_or(declaring.as_str(), |t| t.short_name())
        .to_string();
    d.severity = RuleId::ResourceLeakReleasesNothing.default_severity();
    d.message = format!(
        "{}; the disposal of `{short}` releases nothing today",
        d.message
    );
    explain(&mut d, &short, &declaring, provenance);
    let fix = d.help.take().unwrap_or_else(|| "dispose it".to_string());
    d.help = Some(format!("{fix}; {}", accept_no_obligation(&declaring)));
    (d, resource)
}

/// The verdict as a fact, and why the finding is kept at all.
fn explain(d: &mut Diagnostic, inner: &str, declaring: &str, provenance: &Provenance) {
    d.facts.push(SpecFact::new(
        format!("the disposal of `{declaring}` releases nothing"),
        provenance.clone(),
    ));
    d.notes.push(format!(
        "`{inner}` is disposable, so it should be disposed; while its disposal does nothing, the leak is harmless"
    ));
}

fn accept_no_obligation(declaring: &str) -> String {
    format!(
        "or, if `{declaring}` will never hold a resource, accept the `[MustCall]` (no obligation) that `rlc-sharp infer` proposes for it"
    )
}
