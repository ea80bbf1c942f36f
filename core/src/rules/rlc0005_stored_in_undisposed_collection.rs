//! RLC0005 stored-in-undisposed-collection: a resource stored into a
//! collection (`Add`, an indexer or array store, a collection initializer)
//! hands its obligation to the collection's elements. That is fine when the
//! collection is owning (a field whose elements a must-call method of the
//! class disposes, an `[Owning]` field or parameter, a disposable container)
//! or a local collection disposed element-wise before it is dropped; otherwise
//! the store is reported, once, and the allocation is not reported again.

use super::text::{loss_label, obligation_fact, preferred, type_of};
use crate::consistency::{Event, Loss, Obligation};
use crate::rules::{Diagnostic, Keyed, Label};
use crate::facts::BodyFacts;
use crate::rules::RuleId;

pub(super) fn report(cx: &BodyFacts<'_>, ob: &Obligation, event: &Event) -> Keyed {
    let ty = type_of(cx, ob);
    let obl = preferred(cx.program, &ob.must_call.must_call);
    let collection = event
        .holder
        .and_then(|h| cx.alias_text(h))
        .map_or_else(|| "a collection".to_string(), |t| format!("`{t}`"));
    let mut d = Diagnostic::new(
        RuleId::StoredInUndisposedCollection,
        format!(
            "`{ty}` is stored in a collection whose elements are never disposed (missing `{obl}`)"
        ),
        Label {
            span: cx.node_span(ob.node),
            message: format!("`{ty}` is stored in {collection} here"),
        },
    );
    let help = if event.loss == Loss::UnownedCollection {
        d = d.with_note(format!(
            "{collection} is not owned by this method, and nothing disposes its elements"
        ));
        format!(
            "dispose the elements where {collection} is owned (mark the field or parameter `[Owning]` and dispose \
             each element in `Dispose()`), or dispose the `{ty}` yourself"
        )
    } else {
        if let Some(label) = loss_label(cx, event, "disposing its elements") {
            d.secondary.push(label);
        }
        format!(
            "dispose the elements before the collection is dropped: `foreach (var x in ...) x.{obl};`"
        )
    };
    d.help = Some(help);
    d.facts.push(obligation_fact(cx, ob, &ty));
    (d, ty)
}
