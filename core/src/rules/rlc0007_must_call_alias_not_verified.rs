//! RLC0007 must-call-alias-not-verified (paper §4.3): a `[MustCallAlias]`
//! parameter written in the source (or inferred) must be wrapped by the result
//! on every path: stored into an owning field by a constructor, passed to a
//! `[MustCallAlias]` position of `this(..)`/`base(..)`, or returned (or passed
//! to a `[MustCallAlias]` position whose result is returned).

use super::text::{loss_label, param_name, param_span};
use crate::consistency::{Event, Obligation};
use crate::rules::{Diagnostic, Keyed, Label, SpecFact};
use crate::facts::BodyFacts;
use crate::program::Provenance;
use crate::rules::RuleId;

pub(super) fn report(cx: &BodyFacts<'_>, ob: &Obligation, event: &Event, i: u32) -> Keyed {
    let name = param_name(cx, i);
    let member = cx.member_name();
    let mut d = Diagnostic::new(
        RuleId::MustCallAliasNotVerified,
        format!("`[MustCallAlias]` on parameter `{name}` of `{member}` is not verified"),
        Label {
            span: param_span(cx, i, ob),
            message: format!(
                "`{name}` is `[MustCallAlias]`, but the result does not wrap it on every path"
            ),
        },
    );
    if let Some(label) = loss_label(cx, event, "being wrapped or stored") {
        d.secondary.push(label);
    }
    d.help = Some(format!(
        "store `{name}` in an `[Owning]` field, or pass it to a `[MustCallAlias]` parameter and return the result; \
         otherwise remove `[MustCallAlias]` (and mark `{name}` `[Owning]` if the method disposes it)"
    ));
    let prov = cx
        .method
        .and_then(|m| m.params.get(i as usize))
        .and_then(|p| p.must_call_alias.clone())
        .unwrap_or(Provenance::Default);
    d.facts.push(SpecFact::new(
        format!("parameter `{name}` is `[MustCallAlias]`"),
        prov,
    ));
    (d, name)
}
