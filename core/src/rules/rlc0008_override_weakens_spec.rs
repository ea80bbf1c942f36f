//! RLC0008 override-weakens-spec: an override or interface implementation may
//! not weaken what it overrides, since callers through the base rely on it: a
//! `[Calls]` stays at least as strong, an `[Owning]` parameter stays owning, a
//! not-owning return stays not owning. Specs are not inherited implicitly;
//! strengthening is allowed.

use super::text::{method_span, target_text};
use crate::rules::{Diagnostic, Keyed, Label, SpecFact, finish};
use crate::ownership;
use crate::facts::ProgramFacts;
use crate::must_call::MustCallTypes;
use crate::program::{CallsSpec, DeclaredIn, MethodDef, MethodId, Program, Provenance, Target};
use crate::rules::RuleId;
use crate::span::Span;

pub(super) fn check(pf: &ProgramFacts<'_>, out: &mut Vec<Diagnostic>) {
    let program: &Program = pf.program;
    let types = &pf.types;
    for (i, method) in program.methods.iter().enumerate() {
        if method.overrides.is_empty()
            || program
                .get_ty(method.owner)
                .is_none_or(|t| t.declared_in != DeclaredIn::Source)
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
                    RuleId::OverrideWeakensSpec,
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
                d.facts.push(SpecFact::new(fact, prov));
                diags.push((d, key));
            };
            for spec in base
                .calls
                .iter()
                .filter(|s| s.provenance != Provenance::Default)
            {
                let kept = method
                    .calls
                    .iter()
                    .any(|s| keeps(program, types, base, spec, s));
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
        out.extend(finish(diags, &pf.method_key(MethodId(i as u32))));
    }
}

/// Whether the override's `[Calls]` `s` is at least as strong as the base's
/// `spec`: the same target, and only methods the base names or, where the
/// base's methods release the target's obligation, methods that release it
/// too (`DisposeAsync()` for `Dispose()` on a `Stream`).
fn keeps(
    program: &Program,
    types: &MustCallTypes,
    base: &MethodDef,
    spec: &CallsSpec,
    s: &CallsSpec,
) -> bool {
    if s.target != spec.target || s.methods.is_empty() {
        return false;
    }
    if s.methods.iter().all(|m| spec.methods.contains(m)) {
        return true;
    }
    let ty = match spec.target {
        Target::Field(f) => program.get_field(f).map(|d| d.ty.clone()),
        Target::Param(i) => base.params.get(i as usize).map(|p| p.ty.clone()),
        Target::This => None,
    };
    let releases = |mc: &crate::must_call::MustCallType| {
        mc.is_covered_by(&spec.methods) && mc.is_covered_by(&s.methods)
    };
    match ty {
        Some(ty) => types.of_value(&ty).is_some_and(releases),
        None => types.of_type(base.owner).is_some_and(releases),
    }
}
