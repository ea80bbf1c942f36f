//! Entry points: check a whole program, or one body at a time.
//!
//! [`Checker::new`] computes what every body needs (the program's facts and
//! summaries); [`Checker::check_body`] is then pure and `Checker` is `Sync`,
//! so a driver may check bodies in parallel
//! (`bodies.ids().par_bridge().flat_map(|id| checker.check_body(id))`) and add
//! [`Checker::check_classes`]. [`check_program`] does both in order.
//!
//! Per body: its facts, its summaries, Algorithm 1 (`crate::consistency`),
//! then the rules (`crate::rules`) turn the outcome into findings.

use crate::consistency::{self, Inputs};
use crate::facts::{ProgramFacts, Summaries, Twins};
use crate::ir::{Bodies, BodyId};
use crate::options::CheckOptions;
use crate::program::Program;
use crate::rules::{self, Diagnostic, finish, rlc9004_internal_error};
use crate::summarize;

/// Checks the bodies of a program against its specs.
pub struct Checker<'p> {
    facts: ProgramFacts<'p>,
    options: CheckOptions,
    summaries: Summaries,
    /// Why each body's IR is malformed, if it is ([`crate::ir::Body::validate`]);
    /// such a body is never analysed.
    invalid: Vec<Option<String>>,
}

impl<'p> Checker<'p> {
    pub fn new(program: &'p Program, bodies: &'p Bodies, options: &CheckOptions) -> Checker<'p> {
        Checker::with_twins(program, bodies, options, &Twins::default())
    }

    /// [`Checker::new`] for a program whose `twins` stand for declarations
    /// analysed elsewhere: they get those declarations' summaries.
    pub fn with_twins(
        program: &'p Program,
        bodies: &'p Bodies,
        options: &CheckOptions,
        twins: &Twins,
    ) -> Checker<'p> {
        let invalid = bodies
            .iter()
            .map(|b| b.validate(program, bodies.len()).err())
            .collect();
        let facts = ProgramFacts::new(program, bodies);
        let summaries = summarize::program_with_twins(&facts, options.exception_model, twins);
        Checker {
            facts,
            options: options.clone(),
            summaries,
            invalid,
        }
    }

    pub fn facts(&self) -> &ProgramFacts<'p> {
        &self.facts
    }

    /// Diagnostics of one body (leaks, owning-field assignments, unverified
    /// `[MustCallAlias]`), sorted, with fingerprints.
    pub fn check_body(&self, id: BodyId) -> Vec<Diagnostic> {
        let Some(body) = self.facts.bodies.get(id) else {
            return Vec::new();
        };
        if let Some(Some(problem)) = self.invalid.get(id.index()) {
            let d = rlc9004_internal_error::malformed_ir(&body.name, problem, body.span);
            return finish(vec![(d, String::new())], body.fingerprint_key());
        }
        if body
            .method
            .is_some_and(|m| self.facts.program.method(m).inlined)
        {
            return Vec::new();
        }
        // A `Dispose(bool)` body is checked for `Dispose()`'s call: on the
        // finalizer's path (`disposing == false`) managed fields are left alone.
        let seeds: Vec<_> = self.facts.disposing_seed(body).into_iter().collect();
        let Some(facts) = self.facts.body_facts(id, &seeds) else {
            return Vec::new();
        };
        let exceptions = self.options.exception_model;
        let outcome = consistency::check(
            Inputs {
                facts: &facts,
                summaries: &self.summaries,
                exceptions,
                budget: self
                    .options
                    .method_budget
                    .unwrap_or(crate::options::DEFAULT_METHOD_BUDGET),
            },
            || summarize::body(&facts, &self.summaries, exceptions),
        );
        finish(
            rules::body_findings(&facts, &self.summaries, &outcome),
            body.fingerprint_key(),
        )
    }

    /// Class-level checks: owning fields (RLC0003), `[Calls]` (RLC0006) and
    /// overrides (RLC0008).
    pub fn check_classes(&self) -> Vec<Diagnostic> {
        rules::class_findings(&self.facts, self.options.exception_model)
    }
}

/// Checks every body and every class of the program; the result is sorted by
/// location.
pub fn check_program(
    program: &Program,
    bodies: &Bodies,
    options: &CheckOptions,
) -> Vec<Diagnostic> {
    let checker = Checker::new(program, bodies, options);
    let mut out: Vec<Diagnostic> = bodies.ids().flat_map(|id| checker.check_body(id)).collect();
    out.extend(checker.check_classes());
    rules::sort(&mut out);
    out
}
#[cfg(test)]
mod tests {
    use crate::ir::Cond;
    use crate::program::MethodKind;
    use crate::testing::{Asm, Lib, str_};

    #[test]
    fn reports_are_deterministic_with_stable_fingerprints() {
        let mut lib = Lib::new();
        let c = lib.class("App.Twice", &[lib.object]);
        let m = lib.method(c, "Run", MethodKind::Ordinary, vec![], None);
        let build = |lib: &Lib, shift: bool| {
            let mut a = Asm::for_method(lib, m);
            if shift {
                // An unrelated edit above the leaks moves every span.
                a.nop();
                a.if_(Cond::Opaque, |_| {}, |_| {});
            }
            let (x, y) = (a.local("x", lib.file_stream), a.local("y", lib.file_stream));
            a.new_(Some(x), lib.file_stream_new, &[str_("a")]);
            a.new_(Some(y), lib.file_stream_new, &[str_("b")]);
            a.scope_end(&[x, y]);
            a.finish()
        };
        let first = lib.check(&[build(&lib, false)]);
        assert_eq!(first, lib.check(&[build(&lib, false)]));
        let prints: Vec<&str> = first.iter().map(|d| d.fingerprint.as_str()).collect();
        assert_eq!(
            prints,
            [
                "RLC0001:Twice.Run:FileStream:0",
                "RLC0001:Twice.Run:FileStream:1"
            ]
        );
        let moved = lib.check(&[build(&lib, true)]);
        assert_ne!(moved[0].primary.span, first[0].primary.span);
        assert_eq!(
            moved
                .iter()
                .map(|d| d.fingerprint.as_str())
                .collect::<Vec<_>>(),
            prints
        );
    }
}
