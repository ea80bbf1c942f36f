//! The JSON format, documented in `docs/json-format.md`. Bump [`VERSION`] on
//! any change that is not an added key. Typed structs keep the keys in the
//! documented order, which reads better than sorted keys.

use std::collections::BTreeMap;

use rlc_core::Span;
use rlc_core::program::Provenance;
use rlc_core::rules::{Diagnostic, SpecFact};
use rlc_csharp::suppress::SuppressionCounts;
use serde::Serialize;
use serde_json::{Map, Value};

use super::{Counts, Sources, Summary};

pub const VERSION: u32 = 1;

#[derive(Serialize)]
struct Document<'a> {
    version: u32,
    findings: Vec<Finding<'a>>,
    summary: SummaryObject<'a>,
}

#[derive(Serialize)]
struct Finding<'a> {
    rule: &'a str,
    name: Option<&'static str>,
    severity: &'static str,
    message: &'a str,
    #[serde(flatten)]
    at: Position<'a>,
    labels: Vec<LabelObject<'a>>,
    notes: &'a [String],
    help: Option<&'a str>,
    facts: Vec<Fact<'a>>,
    fingerprint: &'a str,
}

/// `null`s when the file is unknown.
#[derive(Serialize)]
struct Position<'a> {
    file: Option<&'a str>,
    line: Option<u32>,
    column: Option<u32>,
    end_line: Option<u32>,
    end_column: Option<u32>,
}

#[derive(Serialize)]
struct LabelObject<'a> {
    primary: bool,
    message: &'a str,
    #[serde(flatten)]
    at: Position<'a>,
}

#[derive(Serialize)]
struct Fact<'a> {
    fact: &'a str,
    kind: &'static str,
    rule: Option<&'static str>,
    reason: Option<&'a str>,
    location: Option<Position<'a>>,
}

#[derive(Serialize)]
struct SummaryObject<'a> {
    files: usize,
    findings: usize,
    by_severity: BySeverity,
    by_rule: BTreeMap<&'static str, usize>,
    suppressed: SuppressionCounts,
    #[serde(skip_serializing_if = "Option::is_none")]
    baseline: Option<crate::baseline::BaselineCounts>,
    #[serde(skip_serializing_if = "Option::is_none")]
    stats: Option<&'a Map<String, Value>>,
}

#[derive(Serialize)]
struct BySeverity {
    error: usize,
    warning: usize,
    note: usize,
}

/// `{"version": 1, "findings": [...], "summary": {...}}`, pretty-printed, with a final newline.
pub fn render(diags: &[Diagnostic], sources: &Sources<'_>, summary: &Summary) -> String {
    let counts = Counts::of(diags);
    let doc = Document {
        version: VERSION,
        findings: diags.iter().map(|d| finding(d, sources)).collect(),
        summary: SummaryObject {
            files: summary.files,
            findings: counts.total(),
            by_severity: BySeverity {
                error: counts.errors,
                warning: counts.warnings,
                note: counts.notes,
            },
            by_rule: counts.by_rule,
            suppressed: summary.suppressed,
            baseline: summary.baseline,
            stats: summary.stats.as_ref(),
        },
    };
    // Plain data with string keys: serialising cannot fail.
    let mut text = serde_json::to_string_pretty(&doc).unwrap_or_default();
    text.push('\n');
    text
}

fn finding<'a>(d: &'a Diagnostic, sources: &'a Sources<'_>) -> Finding<'a> {
    let labels = std::iter::once((&d.primary, true)).chain(d.secondary.iter().map(|l| (l, false)));
    Finding {
        rule: d.rule.code(),
        name: Some(d.rule.name()),
        severity: d.severity.as_str(),
        message: &d.message,
        at: position(d.primary.span, sources),
        labels: labels
            .map(|(l, primary)| LabelObject {
                primary,
                message: &l.message,
                at: position(l.span, sources),
            })
            .collect(),
        notes: &d.notes,
        help: d.help.as_deref(),
        facts: d.facts.iter().map(|f| fact(f, sources)).collect(),
        fingerprint: &d.fingerprint,
    }
}

fn position<'a>(span: Span, sources: &'a Sources<'_>) -> Position<'a> {
    let region = sources.region(span);
    Position {
        file: sources.name(span.file),
        line: region.map(|r| r.start_line),
        column: region.map(|r| r.start_column),
        end_line: region.map(|r| r.end_line),
        end_column: region.map(|r| r.end_column),
    }
}

fn fact<'a>(f: &'a SpecFact, sources: &'a Sources<'_>) -> Fact<'a> {
    let (kind, rule, at) = match &f.provenance {
        Provenance::Default => ("default", None, None),
        Provenance::Source(span) => ("source", None, Some(*span)),
        Provenance::Library => ("library", None, None),
        Provenance::Config => ("config", None, None),
        Provenance::Inferred { rule, evidence } => ("inferred", Some(rule.name()), Some(*evidence)),
    };
    Fact {
        fact: &f.fact,
        kind,
        rule,
        reason: f.reason.as_deref(),
        location: at.map(|span| position(span, sources)),
    }
}

#[cfg(test)]
mod tests {
    use rlc_core::FileId;
    use rlc_core::rules::Label;

    use super::*;

    #[test]
    fn keys_come_in_the_documented_order() {
        let mut sources = Sources::new();
        sources.add(FileId(0), "a.cs", "var s = new S();\n");
        let label = Label {
            span: Span::new(FileId(0), 8, 15),
            message: "here".into(),
        };
        let text = render(
            &[Diagnostic::new(
                rlc_core::rules::RuleId::ResourceLeak,
                "leak",
                label,
            )],
            &sources,
            &Summary::default(),
        );
        let order = |keys: &[&str]| {
            let at: Vec<usize> = keys
                .iter()
                .map(|k| text.find(&format!("\"{k}\":")).expect(k))
                .collect();
            assert!(at.windows(2).all(|w| w[0] < w[1]), "{keys:?} in\n{text}");
        };
        order(&[
            "version", "findings", "rule", "name", "severity", "message", "file", "line", "column",
        ]);
        order(&[
            "end_column",
            "labels",
            "primary",
            "notes",
            "help",
            "facts",
            "fingerprint",
            "summary",
        ]);
        order(&["summary", "files", "by_severity", "by_rule", "suppressed"]);
        assert!(!text.contains("\"stats\""));
    }
}
