//! SARIF 2.1.0: one run, every rule in `tool.driver.rules`, file locations
//! relative to `%SRCROOT%` (the checked root), columns in Unicode code points.

use std::path::Path;

use rlc_core::Span;
use rlc_core::program::Provenance;
use rlc_core::rules::{Label, Severity};
use rlc_core::rules::{RULES, Rule};
use serde_json::{Map, Value, json};

use super::{Counts, Sources, Summary};
use crate::findings::Finding;

pub const SCHEMA: &str =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";
pub const INFORMATION_URI: &str = "https://github.com/rlc-sharp/rlc-sharp";
/// The key of `partialFingerprints`; bump its version if fingerprints change meaning.
pub const FINGERPRINT_KEY: &str = "rlcSharp/v1";
const SRCROOT: &str = "%SRCROOT%";

/// The SARIF log, pretty-printed, with a final newline. `root` is the checked
/// root the file names in `sources` are relative to; it should be absolute.
pub fn render(
    findings: &[Finding],
    sources: &Sources<'_>,
    summary: &Summary,
    root: &Path,
) -> String {
    let mut base = Map::new();
    if root.is_absolute() {
        base.insert(
            "uri".into(),
            format!("{}/", file_uri(root).trim_end_matches('/')).into(),
        );
    }
    base.insert(
        "description".into(),
        json!({"text": "The directory rlc-sharp checked."}),
    );
    let mut test_code = counts(findings.iter().filter(|f| f.test_code));
    test_code["level"] = summary.test_code.as_str().into();
    let log = json!({
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "rlc-sharp",
                "version": env!("CARGO_PKG_VERSION"),
                "semanticVersion": env!("CARGO_PKG_VERSION"),
                "informationUri": INFORMATION_URI,
                "rules": RULES.iter().map(rule_descriptor).collect::<Vec<_>>(),
            }},
            "originalUriBaseIds": {SRCROOT: base},
            "columnKind": "unicodeCodePoints",
            "results": findings.iter().map(|f| result(f, sources)).collect::<Vec<_>>(),
            "properties": {
                "files": summary.files,
                "production": counts(findings.iter().filter(|f| !f.test_code)),
                "testCode": test_code,
                "suppressed": serde_json::to_value(summary.suppressed).unwrap_or_default(),
            },
        }],
    });
    let mut text = serde_json::to_string_pretty(&log).unwrap_or_default();
    text.push('\n');
    text
}

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "note",
    }
}

fn rule_descriptor(r: &Rule) -> Value {
    json!({
        "id": r.id,
        "name": r.name,
        "shortDescription": {"text": r.summary},
        "fullDescription": {"text": first_paragraph(r.explanation).unwrap_or(r.summary)},
        "help": {"text": r.explanation, "markdown": r.explanation},
        "defaultConfiguration": {"level": level(r.default_severity)},
    })
}

/// The page's first paragraph after its title.
fn first_paragraph(page: &str) -> Option<&str> {
    let body = page
        .trim_start()
        .strip_prefix('#')
        .map_or(page, |rest| rest.split_once('\n').map_or("", |(_, b)| b));
    let body = body.trim_start();
    let end = body.find("\n\n").unwrap_or(body.len());
    let para = body[..end].trim();
    (!para.is_empty() && !para.starts_with('#')).then_some(para)
}

/// `{"results": n, "byLevel": {...}, "byRule": {...}}`.
fn counts<'a>(findings: impl IntoIterator<Item = &'a Finding>) -> Value {
    let c = Counts::of(findings);
    json!({
        "results": c.total(),
        "byLevel": {"error": c.errors, "warning": c.warnings, "note": c.notes},
        "byRule": c.by_rule,
    })
}

fn result(finding: &Finding, sources: &Sources<'_>) -> Value {
    let d = &finding.diagnostic;
    let mut r = Map::new();
    r.insert("ruleId".into(), d.rule.code().into());
    if let Some(i) = RULES.iter().position(|x| x.id == d.rule) {
        r.insert("ruleIndex".into(), i.into());
    }
    r.insert("level".into(), level(d.severity).into());
    r.insert("message".into(), json!({"text": d.message}));
    let primary: Vec<Value> = location(&d.primary, sources).into_iter().collect();
    r.insert("locations".into(), primary.into());
    let related: Vec<Value> = d
        .secondary
        .iter()
        .filter_map(|l| location(l, sources))
        .enumerate()
        .map(|(i, mut loc)| {
            if let Value::Object(o) = &mut loc {
                o.insert("id".into(), (i + 1).into());
            }
            loc
        })
        .collect();
    if !related.is_empty() {
        r.insert("relatedLocations".into(), related.into());
    }
    if !d.fingerprint.is_empty() {
        r.insert(
            "partialFingerprints".into(),
            json!({FINGERPRINT_KEY: d.fingerprint}),
        );
    }
    let facts: Vec<Value> = d
        .facts
        .iter()
        .map(|f| {
            let at = match f.provenance {
                Provenance::Source(span) | Provenance::Inferred { evidence: span, .. } => {
                    sources.location(span)
                }
                Provenance::Default | Provenance::Library | Provenance::Config => None,
            };
            json!({"fact": f.fact, "reason": f.reason, "at": at})
        })
        .collect();
    let mut properties = json!({"notes": d.notes, "help": d.help, "facts": facts});
    if let Value::Object(p) = &mut properties {
        if let Some(frameworks) = &finding.frameworks {
            p.insert("frameworks".into(), json!(frameworks));
        }
        if finding.test_code {
            p.insert("testCode".into(), true.into());
        }
    }
    r.insert("properties".into(), properties);
    Value::Object(r)
}

fn location(label: &Label, sources: &Sources<'_>) -> Option<Value> {
    let mut loc = Map::new();
    loc.insert("physicalLocation".into(), physical(label.span, sources)?);
    if !label.message.is_empty() {
        loc.insert("message".into(), json!({"text": label.message}));
    }
    Some(Value::Object(loc))
}

fn physical(span: Span, sources: &Sources<'_>) -> Option<Value> {
    let name = sources.name(span.file)?;
    let r = sources.region(span)?;
    let artifact = if is_absolute_name(name) {
        json!({"uri": file_uri(Path::new(name))})
    } else {
        json!({"uri": encode_path(name), "uriBaseId": SRCROOT})
    };
    Some(json!({
        "artifactLocation": artifact,
        "region": {
            "startLine": r.start_line,
            "startColumn": r.start_column,
            "endLine": r.end_line,
            "endColumn": r.end_column,
        },
    }))
}

/// Names outside the root stay absolute (`/x/a.cs`, `C:/x/a.cs`).
fn is_absolute_name(name: &str) -> bool {
    name.starts_with('/') || name.as_bytes().get(1) == Some(&b':')
}

/// `file:///` URI of an absolute path (`C:\x` becomes `file:///C:/x`).
fn file_uri(path: &Path) -> String {
    let text = path.to_string_lossy().replace('\\', "/");
    let text = text.trim_start_matches('/');
    match text.split_once('/') {
        Some((drive, rest)) if drive.len() == 2 && drive.ends_with(':') => {
            format!("file:///{drive}/{}", encode_path(rest))
        }
        _ => format!("file:///{}", encode_path(text)),
    }
}

/// Percent-encodes a `/`-separated relative path for a URI reference.
fn encode_path(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris() {
        assert_eq!(encode_path("src/My App/Ä.cs"), "src/My%20App/%C3%84.cs");
        assert_eq!(
            file_uri(Path::new("/work/my repo")),
            "file:///work/my%20repo"
        );
        assert_eq!(file_uri(Path::new("C:\\src\\x")), "file:///C:/src/x");
        assert!(
            is_absolute_name("/x/a.cs")
                && is_absolute_name("C:/x")
                && !is_absolute_name("src/a.cs")
        );
    }

    #[test]
    fn full_descriptions_come_from_the_page() {
        assert_eq!(
            first_paragraph("# RLC0001: x\n\nFirst line\nsecond.\n\nMore."),
            Some("First line\nsecond.")
        );
        assert_eq!(first_paragraph("# Title only\n"), None);
        for r in RULES {
            assert!(first_paragraph(r.explanation).is_some(), "{}", r.id);
        }
    }
}
