//! The rules: one module per diagnostic id, holding what the rule decides and
//! how it says it (message, labels, help), with its explanation page beside it
//! (`rlc0001_resource_leak.md`, shown by `rlc-sharp explain`). Ids are stable:
//! never renumber, only add. A new rule is one module, its page, and one line
//! in the registry below; a test fails while it lacks a page or a case.
//!
//! The analysis rules read the outcome of Algorithm 1 (`crate::consistency`)
//! and the spec table; the input rules (RLC9xxx) are raised by the front end
//! and the driver about what they could not read.

mod diagnostic;
mod leak;
mod text;

use serde::Serialize;

use crate::consistency::{ConditionNote, Event, Loss, Obligation, ObligationKind, Outcome};
use crate::facts::reads_var;
use crate::facts::{BodyFacts, Summaries};
use crate::ir::{Callee, Stmt, VarKind};
use crate::program::{Harmless, MethodId};
use crate::resource_alias::Alias;
pub use diagnostic::{Diagnostic, Keyed, Label, Severity, SpecFact, finish, sort};

/// Whether a rule reports on the code's resources or on the run's inputs.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum RuleKind {
    /// A finding about the analysed code; every one has cases in `tests/cases/`.
    Analysis,
    /// A note about an input the tool could not fully read; each is exercised
    /// end to end by `cli/tests/bad_input.rs`.
    Input,
}

/// A rule's identity and documentation.
#[derive(Debug)]
pub struct Rule {
    pub id: RuleId,
    /// `RLC0001`.
    pub code: &'static str,
    /// Kebab-case name, usable wherever the id is (config, suppressions).
    pub name: &'static str,
    pub default_severity: Severity,
    pub kind: RuleKind,
    /// One line, for `tool.driver.rules[].shortDescription` and listings.
    pub summary: &'static str,
    /// The explanation page (Markdown).
    pub explanation: &'static str,
}

macro_rules! registry {
    ($($module:ident => $variant:ident, $code:literal, $name:literal, $sev:ident, $kind:ident, $summary:literal;)*) => {
        $(pub mod $module;)*

        /// The id of a rule; `Display` and JSON show its code (`RLC0001`).
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum RuleId {
            $($variant,)*
        }

        /// Every rule, in id order.
        pub static RULES: &[Rule] = &[
            $(Rule {
                id: RuleId::$variant,
                code: $code,
                name: $name,
                default_severity: Severity::$sev,
                kind: RuleKind::$kind,
                summary: $summary,
                explanation: include_str!(concat!(stringify!($module), ".md")),
            },)*
        ];
    };
}

registry! {
    rlc0001_resource_leak => ResourceLeak, "RLC0001", "resource-leak", Error, Analysis,
        "A disposable value can become unreachable without its must-call method being called";
    rlc0002_resource_leak_on_exception => ResourceLeakOnException, "RLC0002", "resource-leak-on-exception", Warning, Analysis,
        "A disposable value leaks only when an exception is thrown";
    rlc0003_owning_field_not_disposed => OwningFieldNotDisposed, "RLC0003", "owning-field-not-disposed", Error, Analysis,
        "A class owns a disposable field but no must-call method of the class disposes it";
    rlc0004_resource_overwritten => ResourceOverwritten, "RLC0004", "resource-overwritten", Error, Analysis,
        "A variable or owning field is reassigned while it may still hold an undisposed value";
    rlc0005_stored_in_undisposed_collection => StoredInUndisposedCollection, "RLC0005", "stored-in-undisposed-collection", Warning, Analysis,
        "A disposable value is stored in a collection whose elements nobody disposes";
    rlc0006_calls_not_verified => CallsNotVerified, "RLC0006", "calls-not-verified", Error, Analysis,
        "A method's [Calls] specification is not guaranteed by its body";
    rlc0007_must_call_alias_not_verified => MustCallAliasNotVerified, "RLC0007", "must-call-alias-not-verified", Error, Analysis,
        "A [MustCallAlias] specification is not guaranteed by the code";
    rlc0008_override_weakens_spec => OverrideWeakensSpec, "RLC0008", "override-weakens-spec", Error, Analysis,
        "An override or implementation weakens the resource specification of the member it overrides";
    rlc0009_missing_creates_must_call_for => MissingCreatesMustCallFor, "RLC0009", "missing-creates-must-call-for", Error, Analysis,
        "A method reassigns an owning field without [CreatesMustCallFor]";
    rlc0010_resource_leak_releases_nothing => ResourceLeakReleasesNothing, "RLC0010", "resource-leak-releases-nothing", Warning, Analysis,
        "A disposable value is not disposed, but its type's disposal releases nothing today (inferred)";
    rlc0011_resource_leak_releases_only_managed => ResourceLeakReleasesOnlyManaged, "RLC0011", "resource-leak-releases-only-managed", Note, Analysis,
        "A disposable value is not disposed, but its type's disposal releases only managed state";
    rlc0012_discarded_registration => DiscardedRegistration, "RLC0012", "discarded-registration", Note, Analysis,
        "The handle that would undo a registration is discarded, so the registration lasts as long as its receiver";
    rlc9001_syntax_error => SyntaxError, "RLC9001", "syntax-error", Note, Input,
        "The parser found a syntax error; the statement holding it is not analysed";
    rlc9002_project_note => ProjectNote, "RLC9002", "project-note", Note, Input,
        "Something in a project file could not be evaluated and was skipped";
    rlc9003_unreadable_source => UnreadableSource, "RLC9003", "unreadable-source", Warning, Input,
        "A source file could not be read or decoded and was skipped";
    rlc9004_internal_error => InternalError, "RLC9004", "internal-error", Warning, Input,
        "rlc-sharp failed on a method; the rest of the run went on";
    rlc9005_method_skipped => MethodSkipped, "RLC9005", "method-skipped", Note, Input,
        "A method was not analysed (too deeply nested or unsupported construct)";
    rlc9006_legacy_encoding => LegacyEncoding, "RLC9006", "legacy-encoding", Note, Input,
        "A source file that is not UTF-8 was read as Windows-1252";
}

impl RuleId {
    pub fn rule(self) -> &'static Rule {
        // The registry lists every variant in declaration order.
        &RULES[self as usize]
    }
    /// `RLC0001`.
    pub fn code(self) -> &'static str {
        self.rule().code
    }
    pub fn name(self) -> &'static str {
        self.rule().name
    }
    pub fn default_severity(self) -> Severity {
        self.rule().default_severity
    }
}

impl std::fmt::Display for RuleId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.code())
    }
}

impl Serialize for RuleId {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.code())
    }
}

/// The rule with this code or name, both matched ignoring ASCII case (users
/// write them in configs, pragmas and attributes).
pub fn rule(code_or_name: &str) -> Option<&'static Rule> {
    let name = FORMER_NAMES
        .iter()
        .find(|(old, _)| old.eq_ignore_ascii_case(code_or_name))
        .map_or(code_or_name, |(_, new)| new);
    RULES
        .iter()
        .find(|r| r.code.eq_ignore_ascii_case(name) || r.name.eq_ignore_ascii_case(name))
}

/// Names a rule had before, still accepted where users write names.
const FORMER_NAMES: &[(&str, &str)] = &[("owning-field-overwritten", "resource-overwritten")];

/// The findings of one checked body: one per obligation lost on some path
/// (one per resource-alias cluster), by the rule its kind belongs to, and a
/// note when the analysis ran out of budget.
pub(crate) fn body_findings(
    cx: &BodyFacts<'_>,
    summaries: &Summaries,
    out: &Outcome,
) -> Vec<Keyed> {
    use std::collections::BTreeMap;
    let mut diags = Vec::new();
    let mut by_obligation: BTreeMap<u32, Vec<&Event>> = BTreeMap::new();
    for e in &out.events {
        by_obligation.entry(e.obligation).or_default().push(e);
    }
    let mut notes: BTreeMap<u32, Vec<&ConditionNote>> = BTreeMap::new();
    for n in &out.notes {
        let list = notes.entry(n.obligation).or_default();
        if !list.iter().any(|m| m.at == n.at) {
            list.push(n);
        }
    }
    for (o, events) in by_obligation {
        let Some(ob) = out.obligations.get(o as usize) else {
            continue;
        };
        // Prefer a normal path, then the first in source order.
        let key = |e: &&&Event| (e.exc_from.is_some(), cx.node_span(e.at), e.at);
        let Some(event) = events.iter().min_by_key(key) else {
            continue;
        };
        if event.exc_from.is_some() && !ob.kind.is_leak() {
            continue;
        }
        let never = !out.discharged.get(o as usize).copied().unwrap_or(false);
        let notes = notes.get(&o).map_or(&[][..], Vec::as_slice);
        let harmless = ob.must_call.harmless.as_ref();
        let d = match (&ob.kind, harmless) {
            (ObligationKind::CreatesMustCallFor { on_this: true }, _) => {
                rlc0009_missing_creates_must_call_for::call_on_this(cx, ob)
            }
            (k, _)
                if k.is_leak()
                    && let Some(registration) =
                        discarded_registration(cx, summaries, ob, event) =>
            {
                rlc0012_discarded_registration::report(cx, ob, event, notes, registration)
            }
            (k, Some((Harmless::ReleasesNothing, ty, prov))) if k.is_leak() => {
                let verdict = (*ty, prov.clone());
                rlc0010_resource_leak_releases_nothing::report(
                    cx, ob, event, never, notes, &verdict,
                )
            }
            (k, _) if k.is_leak() && event.exc_from.is_some() => {
                rlc0002_resource_leak_on_exception::report(cx, ob, event, notes)
            }
            (k, _) if k.is_leak() => match overwritten_variable(cx, event) {
                Some(name) => rlc0004_resource_overwritten::variable(cx, ob, event, notes, name),
                None => rlc0001_resource_leak::report(cx, ob, event, never, notes),
            },
            (ObligationKind::MustCallAliasParam(i), _) => {
                rlc0007_must_call_alias_not_verified::report(cx, ob, event, *i)
            }
            (ObligationKind::FieldValue(f), _) => {
                rlc0004_resource_overwritten::field(cx, ob, event, *f)
            }
            (ObligationKind::Element, _) => {
                rlc0005_stored_in_undisposed_collection::report(cx, ob, event)
            }
            _ => continue,
        };
        // A loss (not a spec finding) of a type that releases only managed state.
        let lost = ob.kind.is_leak()
            || matches!(
                ob.kind,
                ObligationKind::FieldValue(_) | ObligationKind::Element
            );
        let d = rlc0011_resource_leak_releases_only_managed::demote_if_managed(
            cx.program,
            d,
            harmless.filter(|_| lost),
        );
        // Leaks were told apart above, with their own wording.
        let d = rlc0010_resource_leak_releases_nothing::demote_if_nothing(
            cx.program,
            d,
            harmless.filter(|_| lost && !ob.kind.is_leak()),
        );
        diags.push(d);
    }
    diags.extend(rlc0009_missing_creates_must_call_for::field_assignments(cx));
    if out.aborted {
        diags.push(rlc9005_method_skipped::over_budget(cx));
    }
    diags
}

/// The registration method and the parameter it registers, when the value is
/// the discarded result of a call of one.
fn discarded_registration(
    cx: &BodyFacts<'_>,
    summaries: &Summaries,
    ob: &Obligation,
    event: &Event,
) -> Option<(MethodId, u32)> {
    if event.exc_from.is_some() {
        return None;
    }
    let Stmt::Call(call) = &cx.body.nodes.get(ob.node.index())?.stmt else {
        return None;
    };
    let Callee::Method(m) = call.callee else {
        return None;
    };
    let registered = *summaries.registrations.get(&m)?;
    // Discarded: no result, or a temporary nothing reads.
    let kept = call.dst.is_some_and(|d| {
        cx.body.var(d).kind != VarKind::Temp || cx.body.nodes.iter().any(|n| reads_var(&n.stmt, d))
    });
    (!kept).then_some((m, registered))
}

/// The variable the user declared whose reassignment lost the value, when that
/// is how it leaked.
fn overwritten_variable<'a>(cx: &BodyFacts<'a>, event: &Event) -> Option<&'a str> {
    match event.loss {
        Loss::Overwritten(Alias::Var(v)) if event.exc_from.is_none() => cx.var_name(v),
        _ => None,
    }
}

/// The class-level findings: owning fields (RLC0003), `[Calls]` (RLC0006) and
/// overrides (RLC0008).
pub(crate) fn class_findings(
    pf: &crate::facts::ProgramFacts<'_>,
    exceptions: crate::options::ExceptionModel,
) -> Vec<crate::rules::Diagnostic> {
    let mut out = Vec::new();
    rlc0003_owning_field_not_disposed::check(pf, exceptions, &mut out);
    rlc0006_calls_not_verified::check(pf, exceptions, &mut out);
    rlc0008_override_weakens_spec::check(pf, &mut out);
    out
}

/// A note about an input (RLC9001–RLC9003, RLC9006) with the front end's message.
pub fn input_note(
    rule: RuleId,
    message: impl Into<String>,
    span: crate::span::Span,
    label: &str,
) -> crate::rules::Diagnostic {
    crate::rules::Diagnostic::new(
        rule,
        message,
        crate::rules::Label {
            span,
            message: label.to_string(),
        },
    )
}

#[cfg(test)]
mod tests;
