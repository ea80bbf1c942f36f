//! RLC0004 resource-overwritten: a variable or owning field is assigned while
//! it may still hold the last reference to an undisposed value; reported at
//! the assignment, where the old value must be disposed.
//!
//! Fields (paper §5.1): the old value of a non-readonly owning field of `this`
//! is an obligation of the method from its entry (constructors exempt: the
//! field holds nothing yet), and a value stored in the method stays one until
//! the field is assigned again. Variables: a leak whose first normal-path loss
//! is the reassignment of its last alias.

use super::leak;
use super::text::{obligation_fact, preferred, type_of};
use crate::consistency::{ConditionNote, Event, Loss, Obligation, ObligationKind};
use crate::rules::{Diagnostic, Keyed, Label, SpecFact};
use crate::facts::BodyFacts;
use crate::ir::{NodeId, Stmt};
use crate::program::Provenance;
use crate::resource_alias::{Alias, FieldKey};
use crate::rules::RuleId;

pub(super) fn field(cx: &BodyFacts<'_>, ob: &Obligation, event: &Event, f: FieldKey) -> Keyed {
    let field = cx.field_key_name(f);
    let ty = type_of(cx, ob);
    let obl = preferred(cx.program, &ob.must_call.must_call);
    let at_store = matches!(event.loss, Loss::Overwritten(Alias::Path(..)));
    // When another alias outlived the assignment (`var old = Interlocked.Exchange(
    // ref _f, next);`), the assignment is still the place to fix; where the old
    // value was finally lost goes beside it.
    let store = (!at_store).then(|| first_store(cx, f)).flatten();
    let primary = match (at_store, store) {
        (true, _) => {
            format!("`{field}` is reassigned here while it may still hold an undisposed `{ty}`")
        }
        (false, Some(_)) => format!("`{field}` is reassigned here; its previous `{ty}` is never disposed"),
        (false, None) => format!("the previous value of `{field}` is lost here without `{obl}`"),
    };
    let mut d = Diagnostic::new(
        RuleId::ResourceOverwritten,
        format!(
            "owning field `{field}` is overwritten without disposing its previous `{ty}` (missing `{obl}`)"
        ),
        Label {
            span: cx.node_span(store.unwrap_or(event.at)),
            message: primary,
        },
    );
    if store.is_some() {
        d = d.with_secondary(
            cx.node_span(event.at),
            format!("the previous value of `{field}` is lost here without `{obl}`"),
        );
    }
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
        d.facts.push(SpecFact::new(
            format!("{} `{field}` is `[Owning]`", def.kind_name()),
            prov,
        ));
    }
    d.facts.push(obligation_fact(cx, ob, &ty));
    (d, field)
}

/// The first assignment of field `f` of `this` in the body.
fn first_store(cx: &BodyFacts<'_>, f: FieldKey) -> Option<NodeId> {
    let this = cx.this?;
    cx.body
        .nodes
        .iter()
        .position(|n| {
            matches!(&n.stmt, Stmt::Store { base: Some(b), field, .. }
                if *b == this && cx.fields.key(field) == f)
        })
        .map(|i| NodeId(i as u32))
}

/// `name = ...` while `name` holds the last reference to `ob`'s value.
pub(super) fn variable(
    cx: &BodyFacts<'_>,
    ob: &Obligation,
    event: &Event,
    notes: &[&ConditionNote],
    name: &str,
) -> Keyed {
    let leak = leak::describe(cx, ob, event, "is not disposed");
    let obl = leak.obl.clone();
    let message = match ob.kind {
        ObligationKind::OwningParam(_) => format!(
            "`[Owning]` parameter `{name}` is overwritten without disposing the value it was given (missing `{obl}`)"
        ),
        _ => format!(
            "`{name}` is overwritten without disposing its previous {} (missing `{obl}`)",
            leak.subject
        ),
    };
    let first = format!("{} is assigned to `{name}` here", leak.subject);
    let (mut d, key) =
        leak.diagnostic(cx, ob, event, notes, RuleId::ResourceOverwritten, message);
    // The reassignment is where the fix goes: it becomes the primary label and
    // the allocation a secondary one.
    let at = cx.node_span(event.at);
    d.secondary.retain(|l| l.span != at);
    let allocation = std::mem::replace(
        &mut d.primary,
        Label {
            span: at,
            message: format!("`{name}` is reassigned here while it still holds an undisposed value"),
        },
    );
    if allocation.span != at {
        d.secondary.insert(
            0,
            Label {
                span: allocation.span,
                message: first,
            },
        );
    }
    d.help = Some(format!(
        "dispose the old value first: `{name}?.{obl};` before assigning `{name}`"
    ));
    (d, key)
}
