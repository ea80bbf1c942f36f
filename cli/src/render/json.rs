//! The JSON format, documented in `docs/json-format.md`. Bump [`VERSION`] on
//! any change that is not an added key. Typed structs keep the keys in the
//! documented order, which reads better than sorted keys.

use std::collections::BTreeMap;

use rlc_core::Span;
use rlc_core::program::Provenance;
use rlc_core::rules::SpecFact;
use serde::Serialize;
use serde_json::{Map, Value};

use super::{Counts, Sources, Summary, assembly_name};
use crate::findings::{Finding as Reported, Suppressions, TestCode};

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
    frameworks: Option<&'a [String]>,
    test_code: bool,
}

/// `null`s when the file is unknown.
#[derive(Serialize)]
struct Position<'a> {
    file: Option<&'a str>,
    /// Only when the file name is not valid UTF-8 (`file` then shows U+FFFD
    /// for its bad bytes): the exact name, percent-encoded.
    #[serde(skip_serializing_if = "Option::is_none")]
    file_uri: Option<String>,
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
    /// For `metadata`: the referenced assembly's file name.
    #[serde(skip_serializing_if = "Option::is_none")]
    assembly: Option<String>,
}

#[derive(Serialize)]
struct SummaryObject<'a> {
    files: usize,
    findings: usize,
    by_severity: BySeverity,
    by_rule: BTreeMap<&'static str, usize>,
    production: Part,
    test_code: TestPart,
    suppressed: Suppressions,
    #[serde(skip_serializing_if = "Option::is_none")]
    baseline: Option<crate::baseline::BaselineCounts>,
    #[serde(skip_serializing_if = "Option::is_none")]
    stats: Option<&'a Map<String, Value>>,
}

/// The counts of production or test findings.
#[derive(Serialize)]
struct Part {
    findings: usize,
    by_severity: BySeverity,
    by_rule: BTreeMap<&'static str, usize>,
}

#[derive(Serialize)]
struct TestPart {
    level: TestCode,
    #[serde(flatten)]
    counts: Part,
}

impl Part {
    fn of<'a>(findings: impl IntoIterator<Item = &'a Reported>) -> Part {
        let counts = Counts::of(findings);
        Part {
            findings: counts.total(),
            by_severity: BySeverity {
                error: counts.errors,
                warning: counts.warnings,
                note: counts.notes,
            },
            by_rule: counts.by_rule,
        }
    }
}

#[derive(Serialize)]
struct BySeverity {
    error: usize,
    warning: usize,
    note: usize,
}

/// `{"version": 1, "findings": [...], "summary": {...}}`, pretty-printed, with a final newline.
pub fn render(findings: &[Reported], sources: &Sources<'_>, summary: &Summary) -> String {
    let counts = Counts::of(findings);
    let doc = Document {
        version: VERSION,
        findings: findings.iter().map(|f| finding(f, sources)).collect(),
        summary: SummaryObject {
            files: summary.files,
            findings: counts.total(),
            by_severity: BySeverity {
                error: counts.errors,
                warning: counts.warnings,
                note: counts.notes,
            },
            by_rule: counts.by_rule,
            production: Part::of(findings.iter().filter(|f| !f.test_code)),
            test_code: TestPart {
                level: summary.test_code,
                counts: Part::of(findings.iter().filter(|f| f.test_code)),
            },
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

fn finding<'a>(reported: &'a Reported, sources: &'a Sources<'_>) -> Finding<'a> {
    let d = &reported.diagnostic;
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
        frameworks: reported.frameworks.as_deref(),
        test_code: reported.test_code,
    }
}

fn position<'a>(span: Span, sources: &'a Sources<'_>) -> Position<'a> {
    let region = sources.region(span);
    Position {
        file: sources.name(span.file),
        file_uri: sources.uri(span.file),
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
        Provenance::Metadata(_) => ("metadata", None, None),
        Provenance::Config => ("config", None, None),
        Provenance::Inferred { rule, evidence } => ("inferred", Some(rule.name()), Some(*evidence)),
    };
    let assembly = match &f.provenance {
        Provenance::Metadata(span) => sources.name(span.file).map(assembly_name),
        _ => None,
    };
    Fact {
        fact: &f.fact,
        kind,
        rule,
        reason: f.reason.as_deref(),
        location: at.map(|span| position(span, sources)),
        assembly,
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
            &[Reported {
                diagnostic: rlc_core::rules::Diagnostic::new(
                    rlc_core::rules::RuleId::ResourceLeak,
                    "leak",
                    label,
                ),
                frameworks: None,
                test_code: false,
            }],
            &sources,
            &Summary::default(),
        );
        let order_in = |text: &str, keys: &[&str]| {
            let at: Vec<usize> = keys
                .iter()
                .map(|k| text.find(&format!("\"{k}\":")).expect(k))
                .collect();
            assert!(at.windows(2).all(|w| w[0] < w[1]), "{keys:?} in\n{text}");
        };
        let order = |keys: &[&str]| order_in(&text, keys);
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
            "frameworks",
            "test_code",
            "summary",
        ]);
        let summary = &text[text.find("\"summary\":").expect("summary")..];
        order_in(
            summary,
            &[
                "files",
                "by_severity",
                "by_rule",
                "production",
                "test_code",
                "level",
                "suppressed",
            ],
        );
        assert!(!text.contains("\"stats\""));
    }
}
