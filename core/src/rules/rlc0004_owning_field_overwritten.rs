//! RLC0004 owning-field-overwritten (paper §5.1): a non-readonly owning field
//! of `this` is assigned while it may still hold an undisposed value. The old
//! value is an obligation of the method from its entry (constructors exempt:
//! the field holds nothing yet), and a value stored in the method stays one
//! until the field is assigned again.

use super::text::{obligation_fact, preferred, type_of};
use crate::consistency::{Event, Loss, Obligation};
use crate::rules::{Diagnostic, Keyed, Label, SpecFact};
use crate::facts::BodyFacts;
use crate::program::Provenance;
use crate::resource_alias::{Alias, FieldKey};
use crate::rules::RuleId;

pub(super) fn report(cx: &BodyFacts<'_>, ob: &Obligation, event: &Event, f: FieldKey) -> Keyed {
    let field = cx.field_key_name(f);
    let ty = type_of(cx, ob);
    let obl = preferred(cx.program, &ob.must_call.must_call);
    let at_store = matches!(event.loss, Loss::Overwritten(Alias::Path(..)));
    let primary = if at_store {
        format!("`{field}` is reassigned here while it may still hold an undisposed `{ty}`")
    } else {
        format!("the previous value of `{field}` is lost here without `{obl}`")
    };
    let mut d = Diagnostic::new(
        RuleId::OwningFieldOverwritten,
        format!(
            "owning field `{field}` is overwritten without disposing its previous `{ty}` (missing `{obl}`)"
        ),
        Label {
            span: cx.node_span(event.at),
            message: primary,
        },
    );
    if ob.node != cx.body.entry {
        d = d.with_secondary(
            cx.node_span(ob.node),
            format!("`{field}` is assigned here first"),
        );
    }
    d.help = Some(format!(
        "dispose the old value first: `{field}?.{obl};` before assigning `{field}`"
    ));
    if let FieldKey::Known(id) = f
        && let Some(def) = cx.program.get_field(id)
    {
        let prov = def
            .ownership
            .provenance()
            .cloned()
            .unwrap_or(Provenance::Default);
        d.facts
            .push(SpecFact::new(format!("field `{field}` is `[Owning]`"), prov));
    }
    d.facts.push(obligation_fact(cx, ob, &ty));
    (d, field)
}
