//! From analysis events to diagnostics: one report per obligation (one per
//! resource-alias cluster: a wrapper and what it wraps are one fact, reported at
//! the outermost wrapper), primary label at the allocation, secondary label
//! where it is lost (the place to fix, as LeakPoint argues), the obligation in
//! the message, a help chosen from the situation, and the spec facts relied on.

use std::collections::BTreeMap;

use rustc_hash::FxHashMap;

use crate::consistency::{ConditionNote, Event, Loss, Origin, OriginKind, Outcome};
use crate::context::BodyCx;
use crate::diagnostics::{Diagnostic, Label, SpecFact};
use crate::ir::{CallKind, Callee, NodeId, Stmt};
use crate::program::{MethodKind, MustCall, Provenance, short_type_name};
use crate::resource_alias::{Alias, FieldKey};
use crate::span::Span;

/// A diagnostic and the resource it is about (for its fingerprint).
pub type Keyed = (Diagnostic, String);

/// The method to name in a message: `Dispose()` before the alternatives.
pub fn preferred(mc: &MustCall) -> String {
    let pick = ["Dispose", "DisposeAsync", "Close"]
        .into_iter()
        .find(|m| mc.is_satisfied_by(m))
        .or_else(|| mc.methods.first().map(String::as_str))
        .unwrap_or("Dispose");
    format!("{pick}()")
}

/// A spec fact with a reason when it was inferred.
pub fn spec_fact(fact: String, provenance: Provenance) -> SpecFact {
    let reason = match &provenance {
        Provenance::Inferred { rule, .. } => Some(crate::infer::rule_reason(rule).to_string()),
        _ => None,
    };
    SpecFact {
        fact,
        provenance,
        reason,
    }
}

impl BodyCx<'_> {
    /// The span to point at for a node; the exit points at the closing brace.
    pub fn node_span(&self, n: NodeId) -> Span {
        let span = self
            .body
            .nodes
            .get(n.index())
            .map_or(self.body.span, |node| node.span);
        if (n == self.body.exit || n == self.body.exc_exit)
            && span == self.body.span
            && span.end > span.start
        {
            return Span::new(span.file, span.end - 1, span.end);
        }
        span
    }

    pub fn alias_text(&self, a: Alias) -> String {
        match a {
            Alias::Var(v) => self.var_name(v).unwrap_or("the value").to_string(),
            Alias::Path(b, f) => {
                let field = self.field_key_name(f);
                match self.var_name(b) {
                    Some(base) => format!("{base}.{field}"),
                    None => field,
                }
            }
        }
    }

    pub fn field_key_name(&self, f: FieldKey) -> String {
        match f {
            FieldKey::Known(f) => self
                .program
                .get_field(f)
                .map_or_else(|| "?".into(), |d| d.name.clone()),
            FieldKey::Unknown(k) => self.fields.unknown_name(k).unwrap_or("?").to_string(),
        }
    }

    fn member_name(&self) -> String {
        match self.method {
            Some(m) => m.property.clone().unwrap_or_else(|| m.name.clone()),
            None => self.body.name.clone(),
        }
    }
}

/// Diagnostics of one body's events.
pub fn body_diagnostics(cx: &BodyCx<'_>, out: &Outcome) -> Vec<Keyed> {
    let mut diags = Vec::new();
    let mut by_origin: BTreeMap<u32, Vec<&Event>> = BTreeMap::new();
    for e in &out.events {
        by_origin.entry(e.origin).or_default().push(e);
    }
    let mut notes: FxHashMap<u32, Vec<&ConditionNote>> = FxHashMap::default();
    for n in &out.notes {
        let list = notes.entry(n.origin).or_default();
        if !list.iter().any(|m| m.at == n.at) {
            list.push(n);
        }
    }
    for (o, events) in by_origin {
        let Some(origin) = out.origins.get(o as usize) else {
            continue;
        };
        // Prefer a normal path, then the first in source order.
        let key = |e: &&&Event| (e.exc_from.is_some(), cx.node_span(e.at), e.at);
        let Some(event) = events.iter().min_by_key(key) else {
            continue;
        };
        if event.exc_from.is_some() && !origin.kind.is_leak() {
            continue;
        }
        let never = !out.discharged.get(o as usize).copied().unwrap_or(false);
        let notes = notes.get(&o).map_or(&[][..], Vec::as_slice);
        let d = match &origin.kind {
            OriginKind::CreatesMustCallFor { on_this: true } => {
                creates_obligation_on_this(cx, origin)
            }
            k if k.is_leak() => leak(cx, origin, event, never, notes),
            OriginKind::MustCallAliasParam(i) => alias_not_verified(cx, origin, event, *i),
            OriginKind::FieldValue(f) => field_overwritten(cx, origin, event, *f),
            OriginKind::Element => element_leak(cx, origin, event),
            _ => continue,
        };
        diags.push(d);
    }
    if out.aborted {
        let d = Diagnostic::new(
            "RLC9005",
            format!(
                "`{}` is too complex to analyse within the budget; it was checked only in part",
                cx.body.name
            ),
            Label {
                span: cx.body.span,
                message: "analysis stopped in this member".into(),
            },
        );
        diags.push((d, String::new()));
    }
    diags
}

fn type_of(cx: &BodyCx<'_>, origin: &Origin) -> String {
    cx.program.type_name(origin.ty).to_string()
}

fn obligation_fact(cx: &BodyCx<'_>, origin: &Origin, ty: &str) -> SpecFact {
    let ob = &origin.obligation;
    let by = match ob.declared_by.and_then(|t| cx.program.get_ty(t)) {
        Some(d) if d.short_name() != ty => format!(" (through `{}`)", d.short_name()),
        _ => String::new(),
    };
    spec_fact(
        format!("`{ty}` must call {}{by}", list(&ob.must_call)),
        ob.provenance.clone(),
    )
}

fn list(mc: &MustCall) -> String {
    mc.methods
        .iter()
        .map(|m| format!("`{m}()`"))
        .collect::<Vec<_>>()
        .join(" or ")
}

/// The callee named at a call node, if any.
fn callee_name(cx: &BodyCx<'_>, n: NodeId) -> Option<String> {
    let Some(Stmt::Call(call)) = cx.body.nodes.get(n.index()).map(|n| &n.stmt) else {
        return None;
    };
    match &call.callee {
        Callee::Method(m) => cx
            .program
            .get_method(*m)
            .map(|d| d.property.clone().unwrap_or_else(|| d.name.clone())),
        Callee::Unresolved(name) => Some(name.clone()),
        Callee::Delegate(v) => cx.var_name(*v).map(str::to_string),
    }
}

fn param_span(cx: &BodyCx<'_>, i: u32, origin: &Origin) -> Span {
    cx.method
        .and_then(|m| m.params.get(i as usize))
        .and_then(|p| p.span)
        .or_else(|| {
            origin
                .var
                .and_then(|v| cx.body.vars.get(v.index()))
                .map(|v| v.span)
        })
        .unwrap_or(cx.body.span)
}

fn param_name(cx: &BodyCx<'_>, i: u32) -> String {
    cx.method
        .and_then(|m| m.params.get(i as usize))
        .map_or_else(|| format!("#{i}"), |p| p.name.clone())
}

/// The secondary label of a loss.
fn loss_label(cx: &BodyCx<'_>, event: &Event, obl: &str) -> Option<Label> {
    let message = match &event.loss {
        Loss::OutOfScope(v) => match cx.var_name(*v) {
            Some(name) => format!("`{name}` goes out of scope here without `{obl}`"),
            None => format!("the last reference goes out of scope here without `{obl}`"),
        },
        Loss::Overwritten(a) => match (a, cx.var_name(a.root())) {
            (Alias::Var(_), None) => "the last reference is overwritten here".to_string(),
            _ => format!(
                "`{}` is overwritten here while it holds the last reference",
                cx.alias_text(*a)
            ),
        },
        Loss::Exit => match event.holder {
            Some(h) => format!(
                "`{}` is still undisposed when the method ends here",
                cx.alias_text(h)
            ),
            None => format!("the method ends here without `{obl}`"),
        },
        Loss::Return {
            value_is_alias: false,
        } => format!("the method returns here without `{obl}`"),
        Loss::Return {
            value_is_alias: true,
        } => {
            if cx.method.is_some_and(|m| m.kind == MethodKind::Getter) {
                "returned here, but a property getter does not pass ownership to its caller"
                    .to_string()
            } else {
                format!(
                    "returned here, but `{}` does not return ownership",
                    cx.member_name()
                )
            }
        }
        Loss::ExceptionalExit => {
            format!("an exception thrown here leaves the method without `{obl}`")
        }
        Loss::Discarded | Loss::UnownedCollection => return None,
    };
    Some(Label {
        span: cx.node_span(event.at),
        message,
    })
}

fn leak(
    cx: &BodyCx<'_>,
    origin: &Origin,
    event: &Event,
    never: bool,
    notes: &[&ConditionNote],
) -> Keyed {
    let program = cx.program;
    let exceptional = event.exc_from.is_some();
    let rule = if exceptional { "RLC0002" } else { "RLC0001" };
    let mut ty = type_of(cx, origin);
    let mut facts = Vec::new();
    // One report per cluster: name the outermost wrapper.
    let wrapper = event
        .wrapper
        .and_then(|w| match &cx.body.nodes.get(w.index())?.stmt {
            Stmt::Call(c) if c.kind == CallKind::New => Some((w, c)),
            _ => None,
        });
    let inner_ty = ty.clone();
    let mut primary_span = cx.node_span(origin.node);
    if let Some((w, call)) = wrapper {
        ty = program.type_name(call.new_type.or(call.ty.ty)).to_string();
        primary_span = cx.node_span(w);
        if let Callee::Method(m) = &call.callee
            && let Some(def) = program.get_method(*m)
            && let Some(p) = def.params.iter().find_map(|p| p.must_call_alias.clone())
        {
            facts.push(spec_fact(
                format!(
                    "`{ty}` wraps its argument (`[MustCallAlias]`): disposing either disposes both"
                ),
                p,
            ));
        }
    }
    let obl = preferred(&origin.obligation.must_call);
    let how = if exceptional {
        "is not disposed if an exception is thrown"
    } else if never {
        "is never disposed"
    } else {
        "is not disposed on every path"
    };
    let (subject, primary) = match &origin.kind {
        OriginKind::OwningParam(i) => {
            let name = param_name(cx, *i);
            primary_span = param_span(cx, *i, origin);
            let prov = cx
                .method
                .and_then(|m| m.params.get(*i as usize))
                .and_then(|p| p.ownership.provenance().cloned())
                .unwrap_or(Provenance::Default);
            facts.push(spec_fact(format!("parameter `{name}` is `[Owning]`"), prov));
            (
                format!("`[Owning]` parameter `{name}`"),
                format!("`{name}` is `[Owning]`: this method must dispose it"),
            )
        }
        OriginKind::OutArg => {
            let name = origin
                .var
                .and_then(|v| cx.var_name(v))
                .unwrap_or("the argument");
            (
                format!("`{ty}` received through `out {name}`"),
                format!("`{ty}` received here {how}"),
            )
        }
        OriginKind::CreatesMustCallFor { .. } => {
            let m = callee_name(cx, origin.node).unwrap_or_else(|| "the call".into());
            let target = origin
                .var
                .and_then(|v| cx.var_name(v))
                .unwrap_or("the value");
            (
                format!("`{ty}` (`{m}` creates a new obligation for `{target}`)"),
                format!("`{m}` creates a new obligation for `{target}` here"),
            )
        }
        OriginKind::Alloc if wrapper.is_none() && !is_new(cx, origin.node) => {
            let m = callee_name(cx, origin.node).unwrap_or_else(|| "the call".into());
            if let Some(Stmt::Call(call)) = cx.body.nodes.get(origin.node.index()).map(|n| &n.stmt)
                && let Callee::Method(mid) = &call.callee
                && let Some(def) = program.get_method(*mid)
            {
                let prov = def
                    .ret_ownership
                    .provenance()
                    .cloned()
                    .unwrap_or(Provenance::Default);
                facts.push(spec_fact(
                    format!("`{}` returns an owning value", def.name),
                    prov,
                ));
            }
            (
                format!("`{ty}` returned by `{m}`"),
                format!("`{ty}` returned by `{m}` here {how}"),
            )
        }
        _ => (format!("`{ty}`"), format!("`{ty}` allocated here {how}")),
    };
    facts.insert(0, obligation_fact(cx, origin, &inner_ty));
    let message = if event.loss == Loss::Discarded {
        format!("{subject} is discarded without calling `{obl}`")
    } else if exceptional {
        format!("{subject} {how} (`{obl}` is not called on that path)")
    } else {
        format!("{subject} {how} (missing `{obl}`)")
    };
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
    if let Some(label) = loss_label(cx, event, &obl) {
        d.secondary.push(label);
    }
    if let (Some(from), false) = (event.exc_from, event.loss == Loss::ExceptionalExit) {
        d = d.with_secondary(cx.node_span(from), "after an exception thrown here");
    }
    if wrapper.is_some() && inner_ty != ty {
        d = d
            .with_secondary(
                cx.node_span(origin.node),
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
    if exceptional {
        d = d.with_note(
            "the leak happens only on a path where an exception is thrown (see the `exceptions` option)".to_string(),
        );
    }
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
        facts.push(spec_fact(
            format!("`{}` does not return ownership", cx.member_name()),
            prov,
        ));
    }
    d.help = Some(leak_help(cx, origin, event, never, &obl));
    d.facts = facts;
    (d, ty)
}

fn is_new(cx: &BodyCx<'_>, n: NodeId) -> bool {
    matches!(cx.body.nodes.get(n.index()).map(|n| &n.stmt), Some(Stmt::Call(c)) if c.kind == CallKind::New)
}

fn leak_help(cx: &BodyCx<'_>, origin: &Origin, event: &Event, never: bool, obl: &str) -> String {
    if event.loss == Loss::Discarded {
        return format!(
            "keep the result in a variable declared with `using`, or call `{obl}` on it"
        );
    }
    if event.exc_from.is_some() {
        return "dispose it in a `finally` block, or declare it with `using`, so it is disposed when an exception is thrown"
            .into();
    }
    if let Loss::Return {
        value_is_alias: true,
    } = event.loss
    {
        return if cx.method.is_some_and(|m| m.kind == MethodKind::Getter) {
            "a getter does not transfer ownership: make it a method, or mark the getter `[return: Owning]`".into()
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
    if let OriginKind::OwningParam(i) = origin.kind {
        return format!(
            "the parameter `{}` is `[Owning]`: dispose it here, or pass it on to an `[Owning]` parameter or field",
            param_name(cx, i)
        );
    }
    if let OriginKind::CreatesMustCallFor { .. } = origin.kind {
        let target = origin.var.and_then(|v| cx.var_name(v)).unwrap_or("it");
        return format!("call `{target}.{obl}` again after this call");
    }
    if let Loss::Overwritten(a @ Alias::Var(v)) = event.loss
        && cx.var_name(v).is_some()
    {
        return format!(
            "dispose the old value before reassigning `{}`",
            cx.alias_text(a)
        );
    }
    if !never {
        return "dispose it in a `finally` block (or declare it with `using`) so that every path disposes it".into();
    }
    let name = event
        .holder
        .and_then(|h| match h {
            Alias::Var(v) => cx.var_name(v),
            Alias::Path(..) => None,
        })
        .or_else(|| origin.var.and_then(|v| cx.var_name(v)));
    match name {
        Some(name) if name != "this" => {
            format!("declare it with `using`: `using var {name} = ...;`")
        }
        _ => format!("wrap it in a `using` statement, or call `{obl}` when it is no longer needed"),
    }
}

fn alias_not_verified(cx: &BodyCx<'_>, origin: &Origin, event: &Event, i: u32) -> Keyed {
    let name = param_name(cx, i);
    let member = cx.member_name();
    let mut d = Diagnostic::new(
        "RLC0007",
        format!("`[MustCallAlias]` on parameter `{name}` of `{member}` is not verified"),
        Label {
            span: param_span(cx, i, origin),
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
    d.facts.push(spec_fact(
        format!("parameter `{name}` is `[MustCallAlias]`"),
        prov,
    ));
    (d, name)
}

fn field_overwritten(cx: &BodyCx<'_>, origin: &Origin, event: &Event, f: FieldKey) -> Keyed {
    let field = cx.field_key_name(f);
    let ty = type_of(cx, origin);
    let obl = preferred(&origin.obligation.must_call);
    let at_store = matches!(event.loss, Loss::Overwritten(Alias::Path(..)));
    let primary = if at_store {
        format!("`{field}` is reassigned here while it may still hold an undisposed `{ty}`")
    } else {
        format!("the previous value of `{field}` is lost here without `{obl}`")
    };
    let mut d = Diagnostic::new(
        "RLC0004",
        format!(
            "owning field `{field}` is overwritten without disposing its previous `{ty}` (missing `{obl}`)"
        ),
        Label {
            span: cx.node_span(event.at),
            message: primary,
        },
    );
    if origin.node != cx.body.entry {
        d = d.with_secondary(
            cx.node_span(origin.node),
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
            .push(spec_fact(format!("field `{field}` is `[Owning]`"), prov));
    }
    d.facts.push(obligation_fact(cx, origin, &ty));
    (d, field)
}

fn element_leak(cx: &BodyCx<'_>, origin: &Origin, event: &Event) -> Keyed {
    let ty = type_of(cx, origin);
    let obl = preferred(&origin.obligation.must_call);
    let collection = event.holder.map_or_else(
        || "the collection".to_string(),
        |h| format!("`{}`", cx.alias_text(h)),
    );
    let mut d = Diagnostic::new(
        "RLC0005",
        format!(
            "`{ty}` is stored in a collection whose elements are never disposed (missing `{obl}`)"
        ),
        Label {
            span: cx.node_span(origin.node),
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
    d.facts.push(obligation_fact(cx, origin, &ty));
    (d, ty)
}

fn creates_obligation_on_this(cx: &BodyCx<'_>, origin: &Origin) -> Keyed {
    let m = callee_name(cx, origin.node).unwrap_or_else(|| "the call".into());
    let member = cx.member_name();
    let mut d = Diagnostic::new(
        "RLC0009",
        format!(
            "`{member}` calls `{m}`, which creates a new obligation for `this`, but is not marked \
             `[CreatesMustCallFor(\"this\")]`"
        ),
        Label {
            span: cx.node_span(origin.node),
            message: format!("`{m}` creates a new obligation for `this` here"),
        },
    );
    d.help = Some(format!(
        "add `[CreatesMustCallFor(\"this\")]` to `{member}` so that its callers dispose the object again"
    ));
    d.facts
        .push(obligation_fact(cx, origin, &type_of(cx, origin)));
    (d, type_of(cx, origin))
}

/// Sorts a member's diagnostics and gives each its fingerprint: rule, member,
/// resource and an occurrence index among equal (rule, member, resource).
pub fn finish(mut diags: Vec<Keyed>, member: &str) -> Vec<Diagnostic> {
    diags.sort_by(|(a, _), (b, _)| order(a, b));
    let mut seen: FxHashMap<(&'static str, String), usize> = FxHashMap::default();
    diags
        .into_iter()
        .map(|(mut d, resource)| {
            let resource = short_type_name(&resource).to_string();
            let count = seen.entry((d.rule, resource.clone())).or_insert(0);
            d.fingerprint = format!("{}:{member}:{resource}:{count}", d.rule);
            *count += 1;
            d
        })
        .collect()
}

fn order(a: &Diagnostic, b: &Diagnostic) -> std::cmp::Ordering {
    (a.primary.span, a.rule, &a.message).cmp(&(b.primary.span, b.rule, &b.message))
}

/// Sorts diagnostics by location, then rule.
pub fn sort(diags: &mut [Diagnostic]) {
    diags.sort_by(order);
}
