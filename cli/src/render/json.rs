//! The JSON format, documented in `docs/json-format.md`. Bump [`VERSION`] on
//! any change that is not an added key.

use rlc_core::Span;
use rlc_core::diagnostics::{Diagnostic, SpecFact, rule};
use rlc_core::program::Provenance;
use serde_json::{Map, Value, json};

use super::{Counts, Sources, Summary};

pub const VERSION: u32 = 1;

/// `{"version": 1, "findings": [...], "summary": {...}}`, pretty-printed, with a final newline.
pub fn render(diags: &[Diagnostic], sources: &Sources<'_>, summary: &Summary) -> String {
    let doc = json!({
        "version": VERSION,
        "findings": diags.iter().map(|d| finding(d, sources)).collect::<Vec<_>>(),
        "summary": summary_object(diags, summary),
    });
    let mut text = serde_json::to_string_pretty(&doc).unwrap_or_default();
    text.push('\n');
    text
}

fn finding(d: &Diagnostic, sources: &Sources<'_>) -> Value {
    let mut f = Map::new();
    f.insert("rule".into(), d.rule.into());
    f.insert("name".into(), rule(d.rule).map(|r| r.name).into());
    f.insert("severity".into(), d.severity.as_str().into());
    f.insert("message".into(), d.message.as_str().into());
    f.extend(position(d.primary.span, sources));
    let labels = std::iter::once((&d.primary, true)).chain(d.secondary.iter().map(|l| (l, false)));
    let labels: Vec<Value> = labels
        .map(|(l, primary)| {
            let mut o = Map::new();
            o.insert("primary".into(), primary.into());
            o.insert("message".into(), l.message.as_str().into());
            o.extend(position(l.span, sources));
            Value::Object(o)
        })
        .collect();
    f.insert("labels".into(), labels.into());
    f.insert("notes".into(), d.notes.clone().into());
    f.insert("help".into(), d.help.clone().into());
    f.insert(
        "facts".into(),
        d.facts
            .iter()
            .map(|x| fact(x, sources))
            .collect::<Vec<_>>()
            .into(),
    );
    f.insert("fingerprint".into(), d.fingerprint.as_str().into());
    Value::Object(f)
}

/// `file`, `line`, `column`, `end_line`, `end_column`; nulls when the file is unknown.
fn position(span: Span, sources: &Sources<'_>) -> Map<String, Value> {
    let region = sources.region(span);
    let mut o = Map::new();
    o.insert("file".into(), sources.name(span.file).into());
    o.insert("line".into(), region.map(|r| r.start_line).into());
    o.insert("column".into(), region.map(|r| r.start_column).into());
    o.insert("end_line".into(), region.map(|r| r.end_line).into());
    o.insert("end_column".into(), region.map(|r| r.end_column).into());
    o
}

fn fact(f: &SpecFact, sources: &Sources<'_>) -> Value {
    let (kind, rule, at) = match &f.provenance {
        Provenance::Default => ("default", None, None),
        Provenance::Source(span) => ("source", None, Some(*span)),
        Provenance::Library => ("library", None, None),
        Provenance::Config => ("config", None, None),
        Provenance::Inferred { rule, evidence } => ("inferred", Some(*rule), Some(*evidence)),
    };
    json!({
        "fact": f.fact,
        "kind": kind,
        "rule": rule,
        "reason": f.reason,
        "location": at.map(|span| Value::Object(position(span, sources))),
    })
}

fn summary_object(diags: &[Diagnostic], summary: &Summary) -> Value {
    let counts = Counts::of(diags);
    let mut s = Map::new();
    s.insert("files".into(), summary.files.into());
    s.insert("findings".into(), counts.total().into());
    s.insert(
        "by_severity".into(),
        json!({"error": counts.errors, "warning": counts.warnings, "note": counts.notes}),
    );
    let by_rule: Map<String, Value> = counts
        .by_rule
        .iter()
        .map(|(r, n)| (r.to_string(), (*n).into()))
        .collect();
    s.insert("by_rule".into(), by_rule.into());
    s.insert(
        "suppressed".into(),
        serde_json::to_value(summary.suppressed).unwrap_or_default(),
    );
    if let Some(stats) = &summary.stats {
        s.insert("stats".into(), stats.clone().into());
    }
    Value::Object(s)
}
