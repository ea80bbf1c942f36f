//! Class-level checks (paper §3.2, §4.3, §5.1) and verification of specs.
//!
//! - RLC0003: a class with an `[Owning]` field needs a must-call method that
//!   guarantees the field's disposal, by its `[Calls]` or by its body (checked
//!   like `[Calls]`; `Dispose(bool disposing)` counts with `disposing == true`).
//! - RLC0006: a `[Calls]` written in the source must hold on every normal path.
//! - RLC0008: an override may not weaken what it overrides: `[Calls]` at least
//!   as strong, `[Owning]` parameters stay owning, not-owning returns stay so.
//! - RLC0009 (per body): a method other than a constructor that assigns a
//!   non-readonly owning field of `this` needs `[CreatesMustCallFor("this")]`.
//!   RLC0004 (the old value must be disposed first) and RLC0007
//!   (`[MustCallAlias]`) are found by the consistency analysis of the body.

use crate::checker::Checker;
use crate::consistency::{Verdict, verify};
use crate::context::BodyCx;
use crate::diagnostics::{Diagnostic, Label};
use crate::ir::{FieldRef, Operand, Stmt, VarId};
use crate::must_call::Obligation;
use crate::ownership;
use crate::program::{
    CallsSpec, FieldId, MethodDef, MethodId, MustCall, Origin, Program, Provenance, Target, TypeId,
    TypeKind,
};
use crate::report::{self, Keyed, preferred, spec_fact};
use crate::resource_alias::{Alias, FieldKey};
use crate::span::{FileId, Span};

pub fn check(checker: &Checker<'_>) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    owning_fields(checker, &mut out);
    calls_specs(checker, &mut out);
    overrides(checker, &mut out);
    out
}

/// A context for a method's body; a `Dispose(bool disposing)` body is analysed
/// with `disposing == true`.
fn method_cx<'a>(checker: &'a Checker<'a>, method: MethodId) -> Option<BodyCx<'a>> {
    let program = checker.program;
    let index = *checker.body_of.get(&method)?;
    let def = program.get_method(method)?;
    let must_call = checker
        .types
        .of_type(def.owner)
        .map(|o| o.must_call.methods.as_slice())
        .unwrap_or(&[]);
    let body = checker.bodies.get(index)?;
    let seeds: Vec<(VarId, bool)> = if ownership::is_dispose_pattern(program, def, must_call) {
        body.param_var(0).map(|v| (v, true)).into_iter().collect()
    } else {
        Vec::new()
    };
    BodyCx::new(checker, index, &seeds)
}

fn target_alias(cx: &BodyCx<'_>, target: &Target) -> Option<Alias> {
    match target {
        Target::This => cx.this.map(Alias::Var),
        Target::Field(f) => cx.this.map(|t| Alias::Path(t, FieldKey::Known(*f))),
        Target::Param(i) => cx.body.param_var(*i).map(Alias::Var),
    }
}

/// Whether a method guarantees one of `must_call` on `target` by its body.
pub(crate) fn body_guarantees(
    checker: &Checker<'_>,
    method: MethodId,
    target: &Target,
    must_call: &MustCall,
) -> Verdict {
    let Some(cx) = method_cx(checker, method) else {
        return Verdict::Unknown;
    };
    let Some(alias) = target_alias(&cx, target) else {
        return Verdict::Unknown;
    };
    verify(&cx, &[(cx.body.entry, alias)], must_call)
}

fn covers(spec: &CallsSpec, target: &Target, ob: &Obligation) -> bool {
    spec.target == *target && ob.is_covered_by(&spec.methods)
}

fn owning_fields(checker: &Checker<'_>, out: &mut Vec<Diagnostic>) {
    let program = checker.program;
    for (ti, ty) in program.types.iter().enumerate() {
        if ty.origin != Origin::Source
            || matches!(
                ty.kind,
                TypeKind::Interface | TypeKind::Enum | TypeKind::Delegate
            )
        {
            continue;
        }
        let class_ob = checker.types.of_type(TypeId(ti as u32));
        let mut diags: Vec<Keyed> = Vec::new();
        for &f in &ty.fields {
            let Some(field) = program.get_field(f) else {
                continue;
            };
            if !field.is_owning() {
                continue;
            }
            let Some(field_ob) = checker.types.of_value(&field.ty) else {
                continue;
            };
            let target = Target::Field(f);
            let disposers: Vec<MethodId> = ty
                .methods
                .iter()
                .copied()
                .filter(|m| {
                    program.get_method(*m).is_some_and(|d| {
                        !d.is_static && class_ob.is_some_and(|o| o.is_satisfied_by(&d.name))
                    })
                })
                .collect();
            let covered = disposers.iter().any(|&m| {
                program
                    .get_method(m)
                    .is_some_and(|d| d.calls.iter().any(|s| covers(s, &target, field_ob)))
                    || body_guarantees(checker, m, &target, &field_ob.must_call)
                        == Verdict::Guaranteed
            });
            if covered {
                continue;
            }
            diags.push(field_not_disposed(
                program,
                ty.short_name(),
                f,
                field_ob,
                class_ob,
            ));
        }
        out.extend(report::finish(diags, ty.short_name()));
    }
}

fn field_not_disposed(
    program: &Program,
    class: &str,
    f: FieldId,
    field_ob: &Obligation,
    class_ob: Option<&Obligation>,
) -> Keyed {
    let field = program.get_field(f);
    let name = field.map_or("?", |d| d.name.as_str());
    let ty = field.map_or("?", |d| program.type_name(d.ty.ty));
    let obl = preferred(&field_ob.must_call);
    let span = field
        .and_then(|d| d.span)
        .unwrap_or(Span::new(FileId(0), 0, 0));
    let (message, help) = match class_ob {
        None => (
            format!("`{class}` owns `{name}` but has no must-call method that disposes it"),
            format!(
                "implement `IDisposable` and dispose the field: `public void Dispose() => {name}?.{obl};`"
            ),
        ),
        Some(ob) => (
            format!(
                "no must-call method of `{class}` disposes the owning field `{name}` (missing `{name}.{obl}` in `{}`)",
                preferred(&ob.must_call)
            ),
            format!(
                "call `{name}?.{obl};` in `{}` on every path (in `Dispose(bool disposing)` when `disposing` is true)",
                preferred(&ob.must_call)
            ),
        ),
    };
    let mut d = Diagnostic::new(
        "RLC0003",
        message,
        Label {
            span,
            message: format!("`{name}` is an owning field of type `{ty}`"),
        },
    );
    d.help = Some(help);
    if let Some(field) = field {
        let prov = field
            .ownership
            .provenance()
            .cloned()
            .unwrap_or(Provenance::Default);
        d.facts
            .push(spec_fact(format!("field `{name}` is `[Owning]`"), prov));
    }
    d.facts.push(spec_fact(
        format!("`{ty}` must call {}", field_ob.must_call.display()),
        field_ob.provenance.clone(),
    ));
    if let Some(ob) = class_ob {
        d.facts.push(spec_fact(
            format!("`{class}` must call {}", ob.must_call.display()),
            ob.provenance.clone(),
        ));
    }
    (d, name.to_string())
}

fn target_text(program: &Program, method: &MethodDef, target: &Target) -> String {
    match target {
        Target::This => "this".into(),
        Target::Field(f) => program
            .get_field(*f)
            .map_or_else(|| "?".into(), |d| d.name.clone()),
        Target::Param(i) => method
            .params
            .get(*i as usize)
            .map_or_else(|| format!("#{i}"), |p| p.name.clone()),
    }
}

fn method_span(method: &MethodDef) -> Span {
    method.span.unwrap_or(Span::new(FileId(0), 0, 0))
}

/// RLC0006: `[Calls]` written or inferred must be guaranteed by the body.
fn calls_specs(checker: &Checker<'_>, out: &mut Vec<Diagnostic>) {
    let program = checker.program;
    for (i, method) in program.methods.iter().enumerate() {
        let id = MethodId(i as u32);
        let stated: Vec<&CallsSpec> = method
            .calls
            .iter()
            .filter(|s| s.provenance.is_verified())
            .collect();
        if stated.is_empty() || !checker.body_of.contains_key(&id) {
            continue;
        }
        let mut diags: Vec<Keyed> = Vec::new();
        for spec in stated {
            let must_call = MustCall::of(spec.methods.iter().cloned());
            let Verdict::Fails(at, _) = body_guarantees(checker, id, &spec.target, &must_call)
            else {
                continue;
            };
            let target = target_text(program, method, &spec.target);
            let mut d = Diagnostic::new(
                "RLC0006",
                format!(
                    "`{}` does not guarantee its `[Calls]`: {} is not called on `{target}` on every path",
                    method.name,
                    must_call.display()
                ),
                Label {
                    span: method_span(method),
                    message: format!("`[Calls]` promises {} on `{target}`", must_call.display()),
                },
            );
            if let Some(cx) = method_cx(checker, id) {
                d = d.with_secondary(
                    cx.node_span(at),
                    format!("`{target}` is not disposed on this path"),
                );
            }
            d.help = Some(format!(
                "call {} on `{target}` on every path that returns normally (use `finally`), or remove the `[Calls]`",
                preferred(&must_call)
            ));
            d.facts.push(spec_fact(
                format!("`{}` has `[Calls(\"{target}\", ...)]`", method.name),
                spec.provenance.clone(),
            ));
            diags.push((d, target));
        }
        out.extend(report::finish(diags, &method.name));
    }
}

/// RLC0008: overrides and implementations against what they override.
fn overrides(checker: &Checker<'_>, out: &mut Vec<Diagnostic>) {
    let program = checker.program;
    for method in &program.methods {
        if method.overrides.is_empty()
            || program
                .get_ty(method.owner)
                .is_none_or(|t| t.origin != Origin::Source)
        {
            continue;
        }
        let mut diags: Vec<Keyed> = Vec::new();
        for base in method
            .overrides
            .iter()
            .filter_map(|o| program.get_method(*o))
        {
            let base_name = format!("{}.{}", program.type_name(Some(base.owner)), base.name);
            let mut weaker = |what: String,
                              label: String,
                              span: Span,
                              fact: String,
                              prov: Provenance,
                              key: String| {
                let mut d = Diagnostic::new(
                    "RLC0008",
                    format!(
                        "`{}` weakens the specification of `{base_name}`: {what}",
                        method.name
                    ),
                    Label {
                        span,
                        message: label,
                    },
                );
                d.help = Some(format!(
                    "give `{}` the same resource specification as `{base_name}`: callers through the base rely on it",
                    method.name
                ));
                d.facts.push(spec_fact(fact, prov));
                diags.push((d, key));
            };
            for spec in base
                .calls
                .iter()
                .filter(|s| s.provenance != Provenance::Default)
            {
                let kept = method.calls.iter().any(|s| {
                    s.target == spec.target
                        && !s.methods.is_empty()
                        && s.methods.iter().all(|m| spec.methods.contains(m))
                });
                if !kept {
                    let target = target_text(program, base, &spec.target);
                    weaker(
                        format!("it does not guarantee `[Calls]` on `{target}`"),
                        format!("missing `[Calls(\"{target}\", ...)]` of `{base_name}`"),
                        method_span(method),
                        format!("`{base_name}` has `[Calls(\"{target}\", ...)]`"),
                        spec.provenance.clone(),
                        target,
                    );
                }
            }
            for (i, bp) in base.params.iter().enumerate() {
                let Some(p) = method.params.get(i) else {
                    continue;
                };
                if ownership::param_is_owning(bp) && !ownership::param_is_owning(p) {
                    weaker(
                        format!("parameter `{}` is not `[Owning]`", p.name),
                        format!("`{}` must stay `[Owning]`", p.name),
                        p.span.unwrap_or(method_span(method)),
                        format!("parameter `{}` of `{base_name}` is `[Owning]`", bp.name),
                        bp.ownership
                            .provenance()
                            .cloned()
                            .unwrap_or(Provenance::Default),
                        p.name.clone(),
                    );
                }
            }
            if !base.returns_owning() && method.returns_owning() && !base.is_constructor() {
                weaker(
                    "its return is owning".into(),
                    "the return must stay `[NotOwning]`".into(),
                    method_span(method),
                    format!("`{base_name}` does not return ownership"),
                    base.ret_ownership
                        .provenance()
                        .cloned()
                        .unwrap_or(Provenance::Default),
                    "return".into(),
                );
            }
        }
        out.extend(report::finish(diags, &method.name));
    }
}

/// RLC0009 for assignments: a method that stores a new value into a
/// non-readonly owning field of `this` must carry `[CreatesMustCallFor("this")]`
/// (constructors are exempt; assigning `null` creates nothing).
pub fn field_assignments(cx: &BodyCx<'_>) -> Vec<Keyed> {
    let (Some(method), Some(this)) = (cx.method, cx.this) else {
        return Vec::new();
    };
    if method.is_constructor()
        || method.is_static
        || method
            .creates_must_call_for
            .iter()
            .any(|(t, _)| *t == Target::This)
    {
        return Vec::new();
    }
    let mut reported: Vec<FieldId> = Vec::new();
    let mut out = Vec::new();
    for (i, node) in cx.body.nodes.iter().enumerate() {
        let Stmt::Store {
            base: Some(b),
            field: FieldRef::Known(f),
            src: Operand::Var(v),
        } = &node.stmt
        else {
            continue;
        };
        if *b != this || reported.contains(f) || !cx.reachable[i] {
            continue;
        }
        let Some(field) = cx.program.get_field(*f) else {
            continue;
        };
        let Some(field_ob) = cx.types.of_value(&field.ty) else {
            continue;
        };
        let src_known_free = cx
            .body
            .vars
            .get(v.index())
            .is_some_and(|var| var.ty.ty.is_some())
            && cx.var_obligation(*v).is_none();
        if !field.is_owning() || field.is_readonly || src_known_free {
            continue;
        }
        reported.push(*f);
        let member = method
            .property
            .clone()
            .unwrap_or_else(|| method.name.clone());
        let mut d = Diagnostic::new(
            "RLC0009",
            format!(
                "`{member}` assigns a new value to the owning field `{}` but is not marked \
                 `[CreatesMustCallFor(\"this\")]`",
                field.name
            ),
            Label {
                span: node.span,
                message: format!("`{}` is reassigned here", field.name),
            },
        );
        d = d.with_note(format!(
            "after this method the object holds a new `{}`, so a `{}` call made before it no longer covers it",
            cx.program.type_name(field.ty.ty),
            preferred(&field_ob.must_call)
        ));
        d.help = Some(format!(
            "add `[CreatesMustCallFor(\"this\")]` to `{member}` so that its callers dispose the object again"
        ));
        let prov = field
            .ownership
            .provenance()
            .cloned()
            .unwrap_or(Provenance::Default);
        d.facts.push(spec_fact(
            format!("field `{}` is `[Owning]`", field.name),
            prov,
        ));
        out.push((d, field.name.clone()));
    }
    out
}

#[cfg(test)]
mod tests;
