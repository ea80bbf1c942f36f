//! Diagnostics as data: the rules produce these, the CLI renders them.

use serde::Serialize;

use crate::provenance::Provenance;
use crate::rules::RuleId;
use crate::span::Span;

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Note,
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Note => "note",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// A labelled place in the source.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Label {
    pub span: Span,
    pub message: String,
}

/// A spec fact a finding relied on, with where it came from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SpecFact {
    /// "`s` is [Owning]", "`Reader` must call `Dispose()`".
    pub fact: String,
    pub provenance: Provenance,
    /// For inferred facts: why ("`Close` disposes it").
    pub reason: Option<String>,
}

impl SpecFact {
    /// A fact, with the inference rule's reason when it was inferred.
    pub fn new(fact: String, provenance: Provenance) -> SpecFact {
        let reason = match &provenance {
            Provenance::Inferred { rule, .. } => Some(rule.reason().to_string()),
            _ => None,
        };
        SpecFact {
            fact,
            provenance,
            reason,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    pub rule: RuleId,
    pub severity: Severity,
    pub message: String,
    pub primary: Label,
    pub secondary: Vec<Label>,
    pub notes: Vec<String>,
    pub help: Option<String>,
    pub facts: Vec<SpecFact>,
    /// Stable across unrelated edits: rule, enclosing member, resource type and an
    /// occurrence counter, never line numbers.
    pub fingerprint: String,
}

impl Diagnostic {
    /// A diagnostic of `rule` at its default severity.
    pub fn new(rule: RuleId, message: impl Into<String>, primary: Label) -> Diagnostic {
        Diagnostic {
            rule,
            severity: rule.default_severity(),
            message: message.into(),
            primary,
            secondary: Vec::new(),
            notes: Vec::new(),
            help: None,
            facts: Vec::new(),
            fingerprint: String::new(),
        }
    }
    pub fn with_secondary(mut self, span: Span, message: impl Into<String>) -> Self {
        self.secondary.push(Label {
            span,
            message: message.into(),
        });
        self
    }
    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }
}

/// A diagnostic and the resource it is about (for its fingerprint).
pub type Keyed = (Diagnostic, String);

/// Sorts a member's diagnostics and gives each its fingerprint: rule, member,
/// resource and an occurrence index among equal (rule, member, resource).
pub fn finish(mut diags: Vec<Keyed>, member: &str) -> Vec<Diagnostic> {
    use rustc_hash::FxHashMap;
    diags.sort_by(|(a, _), (b, _)| order(a, b));
    let mut seen: FxHashMap<(RuleId, String), usize> = FxHashMap::default();
    diags
        .into_iter()
        .map(|(mut d, resource)| {
            let resource = crate::program::short_type_name(&resource).to_string();
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
