//! Diagnostics as data: the analyses produce these, the CLI renders them.

pub mod rules;

use serde::Serialize;

use crate::program::Provenance;
use crate::span::Span;

pub use rules::{RULES, Rule, rule};

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

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    /// `RLC0001`.
    pub rule: &'static str,
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
    pub fn new(rule_id: &'static str, message: impl Into<String>, primary: Label) -> Diagnostic {
        let severity = rule(rule_id)
            .map(|r| r.default_severity)
            .unwrap_or(Severity::Error);
        Diagnostic {
            rule: rule_id,
            severity,
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
