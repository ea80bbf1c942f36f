//! RLC0012 discarded-registration: the handle a registration method returns
//! (`ConnectHandle Connect(IObserver observer)`: it keeps the observer in its
//! object and returns a handle whose disposal removes it) is discarded at the
//! call. The obligation is lost, as RLC0001 would report; but discarding the
//! handle is how code attaches an observer for good, so the registration
//! lasting as long as the receiver is usually the intent. It is reported
//! apart, at a lower level, with what is at stake.

use super::leak;
use crate::consistency::{ConditionNote, Event, Obligation};
use crate::facts::BodyFacts;
use crate::program::{InferRule, MethodId, Provenance};
use crate::rules::{Keyed, RuleId, SpecFact};

/// `method` registers its parameter `param` ([`crate::registrations`]).
pub(super) fn report(
    cx: &BodyFacts<'_>,
    ob: &Obligation,
    event: &Event,
    notes: &[&ConditionNote],
    (method, param): (MethodId, u32),
) -> Keyed {
    let leak = leak::describe(cx, ob, event, "is discarded");
    let obl = leak.obl.clone();
    let md = cx.program.method(method);
    let registered = md.params.get(param as usize).map_or("argument", |p| p.name.as_str());
    let message = format!(
        "{} is discarded: the registration of its `{registered}` lasts as long as the receiver",
        leak.subject
    );
    let (mut d, ty) = leak.diagnostic(cx, ob, event, notes, RuleId::DiscardedRegistration, message);
    d.facts.push(SpecFact::new(
        format!("`{}` registers its `{registered}`", md.name),
        Provenance::Inferred {
            rule: InferRule::Registration,
            evidence: md.span.unwrap_or(d.primary.span),
        },
    ));
    d = d
        .with_note(format!(
            "calling `{obl}` on the handle would end the registration; discarding it keeps `{registered}` registered, the usual way to attach it for good"
        ))
        .with_help(format!(
            "if `{registered}` must stop being notified before the receiver goes away, keep the handle and call `{obl}` then; otherwise nothing needs to change"
        ));
    (d, ty)
}
