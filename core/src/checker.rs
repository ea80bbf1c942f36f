//! Entry points: check a whole program, or one body at a time.
//!
//! [`Checker::new`] computes what every body needs (must-call types, owning
//! collection fields, the body of each method); [`Checker::check_body`] is then
//! pure and `Checker` is `Sync`, so a driver may check bodies in parallel
//! (`(0..bodies.len()).into_par_iter().flat_map(|i| checker.check_body(i))`)
//! and add [`Checker::check_classes`]. [`check_program`] does both in order.

use rustc_hash::{FxHashMap, FxHashSet};
use serde::{Deserialize, Serialize};

use crate::class_checks;
use crate::collections;
use crate::consistency;
use crate::consistency::Verdict;
use crate::context::BodyCx;
use crate::diagnostics::{Diagnostic, Label};
use crate::ir::Body;
use crate::must_call::MustCallTypes;
use crate::program::{FieldId, MethodId, MustCall, Program, Target};
use crate::report;

/// Which exceptional edges the analysis believes (the Tracker paper's rule).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ExceptionModel {
    /// Ignore exceptions thrown by calls (a `throw` still goes to its handler).
    None,
    /// Follow exceptions where the code shows it expects them: inside a `try`
    /// with `catch`/`finally` the user wrote, and `throw` statements.
    #[default]
    Explicit,
    /// Every call may throw.
    All,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckOptions {
    pub exception_model: ExceptionModel,
}

/// Checks the bodies of a program against its specs.
pub struct Checker<'p> {
    pub(crate) program: &'p Program,
    pub(crate) bodies: &'p [Body],
    pub(crate) options: CheckOptions,
    pub(crate) types: MustCallTypes,
    /// Fields whose elements their class disposes (see [`collections`]).
    pub(crate) owning_collections: FxHashSet<FieldId>,
    /// The body implementing each method.
    pub(crate) body_of: FxHashMap<MethodId, usize>,
    /// Why each body's IR is malformed, if it is ([`Body::validate`]); such a
    /// body is never analysed.
    pub(crate) invalid: Vec<Option<String>>,
}

impl<'p> Checker<'p> {
    pub fn new(program: &'p Program, bodies: &'p [Body], options: &CheckOptions) -> Checker<'p> {
        let body_of = bodies
            .iter()
            .enumerate()
            .filter_map(|(i, b)| Some((b.method?, i)))
            .filter(|(m, _)| program.get_method(*m).is_some())
            .collect();
        let invalid = bodies
            .iter()
            .map(|b| b.validate(program, bodies.len()).err())
            .collect();
        let mut checker = Checker {
            invalid,
            program,
            bodies,
            options: options.clone(),
            types: MustCallTypes::compute(program),
            owning_collections: FxHashSet::default(),
            body_of,
        };
        checker.owning_collections = collections::owning_collection_fields(&checker);
        checker
    }

    pub fn must_call_types(&self) -> &MustCallTypes {
        &self.types
    }

    /// The body implementing `method`, if the program has it.
    pub fn body_of(&self, method: MethodId) -> Option<&'p Body> {
        self.body_of.get(&method).and_then(|&i| self.bodies.get(i))
    }

    /// Diagnostics of one body (leaks, owning-field assignments, unverified
    /// `[MustCallAlias]`), sorted, with fingerprints.
    pub fn check_body(&self, index: usize) -> Vec<Diagnostic> {
        let Some(body) = self.bodies.get(index) else {
            return Vec::new();
        };
        if let Some(Some(problem)) = self.invalid.get(index) {
            let d = Diagnostic::new(
                "RLC9004",
                format!(
                    "internal error: the IR of `{}` is malformed ({problem}); it was not checked",
                    body.name
                ),
                Label {
                    span: body.span,
                    message: "this member was skipped".into(),
                },
            );
            return report::finish(vec![(d, String::new())], &body.name);
        }
        let Some(cx) = BodyCx::new(self, index, &[]) else {
            return Vec::new();
        };
        let outcome = consistency::check(&cx);
        let mut diags = report::body_diagnostics(&cx, &outcome);
        diags.extend(class_checks::field_assignments(&cx));
        report::finish(diags, &body.name)
    }

    /// Whether the body of `method` calls one of `must_call` on `target` on every
    /// normal path (what a `[Calls(target, ..)]` on it promises); a
    /// `Dispose(bool disposing)` body is read with `disposing == true`. For
    /// inference and tools; the checks use it for RLC0003 and RLC0006.
    pub fn guarantees(&self, method: MethodId, target: &Target, must_call: &MustCall) -> Verdict {
        class_checks::body_guarantees(self, method, target, must_call)
    }

    /// Class-level checks: owning fields (RLC0003), `[Calls]` (RLC0006) and
    /// overrides (RLC0008).
    pub fn check_classes(&self) -> Vec<Diagnostic> {
        class_checks::check(self)
    }
}

/// Checks every body and every class of the program; the result is sorted by
/// location.
pub fn check_program(
    program: &Program,
    bodies: &[Body],
    options: &CheckOptions,
) -> Vec<Diagnostic> {
    let checker = Checker::new(program, bodies, options);
    let mut out: Vec<Diagnostic> = (0..bodies.len())
        .flat_map(|i| checker.check_body(i))
        .collect();
    out.extend(checker.check_classes());
    report::sort(&mut out);
    out
}

/// Checks one body (see [`Checker::check_body`]).
pub fn check_body(checker: &Checker<'_>, index: usize) -> Vec<Diagnostic> {
    checker.check_body(index)
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
