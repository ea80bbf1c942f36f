//! What a leak report says about a lost obligation, shared by RLC0001 (lost on
//! a normal path) and RLC0002 (lost only on exceptional paths): one report per
//! resource-alias cluster, named after the outermost wrapper, with the
//! allocation as the primary label, where it was lost as the secondary label
//! (the place to fix), and the spec facts relied on.

use super::text::{
    callee_phrase, loss_label, not_owning_return_origin, obligation_fact, param_name,
    param_provenance, param_span, preferred, type_of, var_phrase,
};
use crate::consistency::{ConditionNote, Event, Loss, Obligation, ObligationKind};
use crate::facts::BodyFacts;
use crate::ir::{CallKind, Callee, NodeId, Operand, Stmt};
use crate::program::{ParamMode, Provenance};
use crate::rules::RuleId;
use crate::rules::{Diagnostic, Keyed, Label, SpecFact};
use crate::span::Span;

/// A leaked obligation, described.
pub(super) struct Leak {
    /// The resource's type as reported (the outermost wrapper's).
    pub ty: String,
    /// The must-call method to name: `Dispose()`.
    pub obl: String,
    /// What leaks: "`FileStream`", "`[Owning]` parameter `s`".
    pub subject: String,
    primary: String,
    primary_span: Span,
    /// The type of the value the obligation started on (a wrapped one).
    inner_ty: String,
    wrapped: bool,
    facts: Vec<SpecFact>,
}

/// Describes `ob`; `how` completes the primary label ("is never disposed").
pub(super) fn describe(cx: &BodyFacts<'_>, ob: &Obligation, event: &Event, how: &str) -> Leak {
    let program = cx.program;
    let mut ty = type_of(cx, ob);
    let mut facts = Vec::new();
    // One report per cluster: name the outermost wrapper.
    let wrapper = event
        .wrapper
        .and_then(|w| match &cx.body.nodes.get(w.index())?.stmt {
            Stmt::Call(c) if c.kind == CallKind::New => Some((w, c)),
            _ => None,
        });
    let inner_ty = ty.clone();
    let mut primary_span = cx.node_span(ob.node);
    if let Some((w, call)) = wrapper {
        ty = program.type_name(call.new_type.or(call.ty.ty)).to_string();
        primary_span = cx.node_span(w);
        if let Callee::Method(m) = &call.callee
            && let Some(def) = program.get_method(*m)
            && let Some(p) = def.params.iter().find_map(|p| p.must_call_alias.clone())
        {
            facts.push(SpecFact::new(
                format!(
                    "`{ty}` wraps its argument (`[MustCallAlias]`): disposing either disposes both"
                ),
                p,
            ));
        }
    }
    let (subject, primary) = match &ob.kind {
        ObligationKind::OwningParam(i) => {
            let name = param_name(cx, *i);
            primary_span = param_span(cx, *i, ob);
            facts.push(SpecFact::new(
                format!("parameter `{name}` is `[Owning]`"),
                param_provenance(cx, *i),
            ));
            (
                format!("`[Owning]` parameter `{name}`"),
                format!("`{name}` is `[Owning]`: this method must dispose it"),
            )
        }
        ObligationKind::OwningElements(i) => {
            let name = param_name(cx, *i);
            primary_span = param_span(cx, *i, ob);
            facts.push(SpecFact::new(
                format!("parameter `{name}` is `[Owning]`: the method takes over its elements"),
                param_provenance(cx, *i),
            ));
            (
                format!("an element of `[Owning]` parameter `{name}`"),
                format!(
                    "`{name}` is `[Owning]`: this method must dispose its elements or hand them on"
                ),
            )
        }
        ObligationKind::OutArg => {
            // A `ref` argument its callee only writes arrives the same way.
            let by_ref = matches!(
                cx.body.nodes.get(ob.node.index()).map(|n| &n.stmt),
                Some(Stmt::Call(call)) if call.args.iter().any(|a| {
                    a.mode == ParamMode::Ref && ob.var.is_some_and(|v| a.value == Operand::Var(v))
                })
            );
            let keyword = if by_ref { "ref" } else { "out" };
            let subject = match ob.var.and_then(|v| cx.var_name(v)) {
                Some(name) => format!("`{ty}` received through `{keyword} {name}`"),
                None => format!("`{ty}` received through an `{keyword}` argument"),
            };
            (subject, format!("`{ty}` received here {how}"))
        }
        ObligationKind::CreatesMustCallFor { .. } => {
            let m = callee_phrase(cx, ob.node);
            let target = var_phrase(cx, ob.var, "its receiver");
            (
                format!("`{ty}` ({m} creates a new obligation for {target})"),
                format!("{m} creates a new obligation for {target} here"),
            )
        }
        ObligationKind::Alloc if wrapper.is_none() && !is_new(cx, ob.node) => {
            let m = callee_phrase(cx, ob.node);
            if let Some(Stmt::Call(call)) = cx.body.nodes.get(ob.node.index()).map(|n| &n.stmt)
                && let Callee::Method(mid) = &call.callee
                && let Some(def) = program.get_method(*mid)
            {
                let prov = def
                    .ret_ownership
                    .provenance()
                    .cloned()
                    .unwrap_or(Provenance::Default);
                facts.push(SpecFact::new(
                    format!("`{}` returns an owning value", def.name),
                    prov,
                ));
            }
            (
                format!("`{ty}` returned by {m}"),
                format!("`{ty}` returned by {m} here {how}"),
            )
        }
        _ => (format!("`{ty}`"), format!("`{ty}` allocated here {how}")),
    };
    Leak {
        obl: preferred(program, &ob.must_call.must_call),
        wrapped: wrapper.is_some(),
        ty,
        subject,
        primary,
        primary_span,
        inner_ty,
        facts,
    }
}

impl Leak {
    /// The diagnostic of `rule` with `message`: labels for the allocation, the
    /// loss, the exception and the wrapped value; notes for the wrapper and for
    /// ownership conditions not known at a call; the facts relied on.
    pub(super) fn diagnostic(
        self,
        cx: &BodyFacts<'_>,
        ob: &Obligation,
        event: &Event,
        notes: &[&ConditionNote],
        rule: RuleId,
        message: String,
    ) -> Keyed {
        let Leak {
            ty,
            obl,
            primary,
            primary_span,
            inner_ty,
            wrapped,
            facts,
            ..
        } = self;
        let primary = if event.loss == Loss::Discarded {
            format!("the `{ty}` is discarded here")
        } else {
            primary
        };
        let mut d = Diagnostic::new(
            rule,
            message,
            Label {
                span: primary_span,
                message: primary,
            },
        );
        if let Some(label) = loss_label(cx, event, &format!("`{obl}`")) {
            d.secondary.push(label);
        }
        if let (Some(from), false) = (event.exc_from, event.loss == Loss::ExceptionalExit) {
            d = d.with_secondary(cx.node_span(from), "after an exception thrown here");
        }
        if wrapped && inner_ty != ty {
            d = d
                .with_secondary(
                    cx.node_span(ob.node),
                    format!("the wrapped `{inner_ty}` is created here"),
                )
                .with_note(format!(
                    "disposing the `{ty}` also disposes the `{inner_ty}` it wraps"
                ));
        }
        for n in notes {
            d = d.with_secondary(
                cx.node_span(n.at),
                format!(
                    "whether this call takes the `{inner_ty}` over depends on `{}`",
                    n.param
                ),
            );
            d = d.with_note(format!(
                "the value of `{}` is not known here, so rlc-sharp assumes the callee does not take ownership",
                n.param
            ));
        }
        d.facts.push(obligation_fact(cx, ob, &inner_ty));
        d.facts.extend(facts);
        if let Loss::Return {
            value_is_alias: true,
        } = event.loss
            && let Some(m) = cx.method
        {
            let prov = m
                .ret_ownership
                .provenance()
                .cloned()
                .unwrap_or(Provenance::Default);
            let fact = match not_owning_return_origin(cx.program, m) {
                Some((base, relation)) => format!(
                    "`{}` does not return ownership, like `{base}`, which it {relation}",
                    cx.member_name()
                ),
                None => format!("`{}` does not return ownership", cx.member_name()),
            };
            d.facts.push(SpecFact::new(fact, prov));
        }
        (d, ty)
    }
}

fn is_new(cx: &BodyFacts<'_>, n: NodeId) -> bool {
    matches!(cx.body.nodes.get(n.index()).map(|n| &n.stmt), Some(Stmt::Call(c)) if c.kind == CallKind::New)
}
