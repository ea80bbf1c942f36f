//! RLC0009 missing-creates-must-call-for (paper §5): a method other than a
//! constructor or a lifecycle start (run once, before the object's owner can
//! have disposed it) that gives `this` a new obligation must say so with
//! `[CreatesMustCallFor("this")]`, so that its callers dispose the object
//! again: it stores a new value into a non-readonly owning field of `this`
//! (assigning `null` creates nothing), or it calls such a method on `this`.

use super::text::{callee_phrase, obligation_fact, preferred, type_of};
use crate::consistency::Obligation;
use crate::rules::{Diagnostic, Keyed, Label, SpecFact};
use crate::facts::BodyFacts;
use crate::ownership;
use crate::ir::{FieldRef, Stmt};
use crate::program::{FieldId, Provenance, Target};
use crate::rules::RuleId;

/// Stores into owning fields of `this` that create an obligation, one
/// report per field.
pub(super) fn field_assignments(cx: &BodyFacts<'_>) -> Vec<Keyed> {
    let Some(method) = cx.method else {
        return Vec::new();
    };
    if method.in_construction()
        || method.lifecycle_start
        || method.is_static
        || method
            .creates_must_call_for
            .iter()
            .any(|(t, _)| *t == Target::This)
    {
        return Vec::new();
    }
    // A class without a must-call method has nothing its callers could call
    // again: RLC0003 reports the field it owns.
    if cx.types.of_type(method.owner).is_none() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (n, f) in ownership::new_owning_field_stores(cx.program, cx.types, cx.body, Some(&cx.reachable)) {
        let Some(field) = cx.program.get_field(f) else {
            continue;
        };
        let Some(field_ob) = cx.types.of_value(&field.ty) else {
            continue;
        };
        // Nothing a caller must release again (the overwrite itself is RLC0010
        // or RLC0011).
        if field_ob.harmless.is_some() {
            continue;
        }
        // A fill that a set-once flag guards, set by this method too (a lazy
        // getter): it runs once per object, as construction does.
        if field
            .owes_nothing_when
            .iter()
            .any(|(b, _)| sets_this_field(cx, *b))
        {
            continue;
        }
        let member = cx.member_name();
        let mut d = Diagnostic::new(
            RuleId::MissingCreatesMustCallFor,
            format!(
                "`{member}` assigns a new value to the owning {} `{}` but is not marked \
                 `[CreatesMustCallFor(\"this\")]`",
                field.kind_name(),
                field.name
            ),
            Label {
                span: cx.body.node(n).span,
                message: format!("`{}` is reassigned here", field.name),
            },
        );
        d = d.with_note(format!(
            "after this method the object holds a new `{}`, so a `{}` call made before it no longer covers it",
            cx.program.type_name(field.ty.ty),
            preferred(cx.program, &field_ob.must_call)
        ));
        d.help = Some(format!(
            "add `[CreatesMustCallFor(\"this\")]` to `{member}` so that its callers dispose the object again"
        ));
        let prov = field
            .ownership
            .provenance()
            .cloned()
            .unwrap_or(Provenance::Default);
        d.facts.push(SpecFact::new(
            format!("{} `{}` is `[Owning]`", field.kind_name(), field.name),
            prov,
        ));
        out.push((d, field.name.clone()));
    }
    out
}

/// A call of a `[CreatesMustCallFor("this")]` method on `this` in a method
/// not marked so itself.
pub(super) fn call_on_this(cx: &BodyFacts<'_>, ob: &Obligation) -> Keyed {
    let m = callee_phrase(cx, ob.node);
    let member = cx.member_name();
    let mut d = Diagnostic::new(
        RuleId::MissingCreatesMustCallFor,
        format!(
            "`{member}` calls {m}, which creates a new obligation for `this`, but is not marked \
             `[CreatesMustCallFor(\"this\")]`"
        ),
        Label {
            span: cx.node_span(ob.node),
            message: format!("{m} creates a new obligation for `this` here"),
        },
    );
    d.help = Some(format!(
        "add `[CreatesMustCallFor(\"this\")]` to `{member}` so that its callers dispose the object again"
    ));
    d.facts.push(obligation_fact(cx, ob, &type_of(cx, ob)));
    (d, type_of(cx, ob))
}

/// Whether the body stores into field `f` of `this`.
fn sets_this_field(cx: &BodyFacts<'_>, f: FieldId) -> bool {
    let this = cx.body.this_var();
    cx.body.nodes.iter().any(|n| {
        matches!(&n.stmt, Stmt::Store { base, field: FieldRef::Known(h), .. } if *h == f && base.is_some() && *base == this)
    })
}
