//! RLC0006 calls-not-verified (paper §3.2): a `[Calls(target, methods)]`
//! written in the source or inferred must hold: the method's body calls one of
//! `methods` on `target` on every normal path (`Dispose(bool disposing)` is
//! read with `disposing == true`). Call sites trust the spec, so an unverified
//! one is reported once, at its method. The library model is trusted.

use super::text::{method_span, preferred, target_text};
use crate::consistency::{Verdict, guarantees};
use crate::rules::{Diagnostic, Keyed, Label, SpecFact, finish};
use crate::facts::ProgramFacts;
use crate::options::ExceptionModel;
use crate::program::{CallsSpec, MethodId, MustCall};
use crate::rules::RuleId;

pub(super) fn check(pf: &ProgramFacts<'_>, exceptions: ExceptionModel, out: &mut Vec<Diagnostic>) {
    let program = pf.program;
    for (i, method) in program.methods.iter().enumerate() {
        let id = MethodId(i as u32);
        let stated: Vec<&CallsSpec> = method
            .calls
            .iter()
            .filter(|s| s.provenance.is_verified())
            .collect();
        if stated.is_empty() || pf.body_of(id).is_none() {
            continue;
        }
        let mut diags: Vec<Keyed> = Vec::new();
        for spec in stated {
            let must_call = MustCall::of(spec.methods.iter().cloned());
            let Verdict::Fails(at, _) = guarantees(pf, exceptions, id, &spec.target, &must_call)
            else {
                continue;
            };
            let target = target_text(program, method, &spec.target);
            let mut d = Diagnostic::new(
                RuleId::CallsNotVerified,
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
            if let Some(cx) = pf.method_facts(id) {
                d = d.with_secondary(
                    cx.node_span(at),
                    format!("`{target}` is not disposed on this path"),
                );
            }
            d.help = Some(format!(
                "call {} on `{target}` on every path that returns normally (use `finally`), or remove the `[Calls]`",
                preferred(program, &must_call)
            ));
            d.facts.push(SpecFact::new(
                format!("`{}` has `[Calls(\"{target}\", ...)]`", method.name),
                spec.provenance.clone(),
            ));
            diags.push((d, target));
        }
        out.extend(finish(diags, &pf.method_key(id)));
    }
}
