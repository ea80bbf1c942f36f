//! SARIF 2.1.0: one run, every rule in `tool.driver.rules`, file locations
//! relative to `%SRCROOT%` (the checked root), columns in Unicode code points.

use std::path::Path;

use rlc_core::Span;
use rlc_core::program::Provenance;
use rlc_core::rules::{Label, Severity};
use rlc_core::rules::{RULES, Rule};
use serde_json::{Map, Value, json};

use super::{Counts, Sources, Summary, assembly_name, encode_path};
use crate::findings::Finding;

pub const SCHEMA: &str =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";
pub const INFORMATION_URI: &str = "https://github.com/rlc-sharp/rlc-sharp";
/// The key of `partialFingerprints`; bump its version if fingerprints change meaning.
/// v2: members are namespace-qualified with their parameter types.
pub const FINGERPRINT_KEY: &str = "rlcSharp/v2";
const SRCROOT: &str = "%SRCROOT%";

/// Most a SARIF consumer accepts: results per run and locations (the
/// primary one and the related ones) per result.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    pub results: usize,
    pub locations: usize,
}

/// GitHub code scanning rejects a run with more results or a result with more
/// locations ("SARIF results exceed hard limit" in GitHub's documentation).
pub const GITHUB_LIMITS: Limits = Limits {
    results: 25_000,
    locations: 1_000,
};

/// The SARIF log, pretty-printed, with a final newline. `root` is the checked
/// root the file names in `sources` are relative to; it should be absolute.
pub fn render(
    findings: &[Finding],
    sources: &Sources<'_>,
    summary: &Summary,
    root: &Path,
) -> String {
    render_limited(findings, sources, summary, root, None).0
}

/// [`render`] within `limits`: past them the most severe results are kept
/// (in their order) and related locations are dropped from the end. The
/// second value says what was cut; the log says it too, as a tool
/// notification of its invocation. The run's counts (production, test code)
/// are of every finding, kept or not.
pub fn render_limited(
    findings: &[Finding],
    sources: &Sources<'_>,
    summary: &Summary,
    root: &Path,
    limits: Option<Limits>,
) -> (String, Option<String>) {
    let mut notes = Vec::new();
    let kept: Vec<&Finding> = match limits {
        Some(l) if findings.len() > l.results => {
            let mut order: Vec<usize> = (0..findings.len()).collect();
            // Stable: equal severities keep the report's order.
            order.sort_by_key(|&i| std::cmp::Reverse(findings[i].diagnostic.severity));
            let mut keep: Vec<usize> = order.into_iter().take(l.results).collect();
            keep.sort_unstable();
            notes.push(format!(
                "rlc-sharp found {} results; only the {} most severe are in this log, the most a SARIF upload to GitHub code scanning accepts",
                findings.len(),
                l.results
            ));
            keep.into_iter().map(|i| &findings[i]).collect()
        }
        _ => findings.iter().collect(),
    };
    let max_related = limits.map(|l| l.locations.saturating_sub(1));
    let mut results = Vec::with_capacity(kept.len());
    let mut cut_related = 0;
    for f in kept {
        let (r, cut) = result(f, sources, max_related, summary.baseline.is_some());
        cut_related += usize::from(cut);
        results.push(r);
    }
    if cut_related > 0 {
        notes.push(format!(
            "{cut_related} results have more locations than GitHub code scanning accepts ({}); their last related locations are left out",
            limits.map_or(0, |l| l.locations)
        ));
    }
    let mut base = Map::new();
    if root.is_absolute() {
        base.insert(
            "uri".into(),
            format!(
                "{}/",
                file_uri(root.as_os_str().as_encoded_bytes()).trim_end_matches('/')
            )
            .into(),
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
            "results": results,
            "properties": {
                "files": summary.files,
                "production": counts(findings.iter().filter(|f| !f.test_code)),
                "testCode": test_code,
                "suppressed": serde_json::to_value(summary.suppressed).unwrap_or_default(),
            },
        }],
    });
    let mut log = log;
    if let Some(run) = log.pointer_mut("/runs/0").and_then(Value::as_object_mut) {
        if let Some(b) = &summary.baseline
            && let Some(Value::Object(props)) = run.get_mut("properties")
        {
            props.insert(
                "baseline".into(),
                serde_json::to_value(b).unwrap_or_default(),
            );
        }
        if !notes.is_empty() {
            let notifications: Vec<Value> = notes
                .iter()
                .map(|n| json!({"level": "warning", "message": {"text": n}}))
                .collect();
            run.insert(
                "invocations".into(),
                json!([{"executionSuccessful": true, "toolExecutionNotifications": notifications}]),
            );
        }
    }
    let mut text = serde_json::to_string_pretty(&log).unwrap_or_default();
    text.push('\n');
    (text, (!notes.is_empty()).then(|| notes.join("; ")))
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

/// A result; with `max_related`, at most that many related locations (the
/// second value says whether some were left out). `new` marks it as absent
/// from the baseline the run was compared with.
fn result(
    finding: &Finding,
    sources: &Sources<'_>,
    max_related: Option<usize>,
    new: bool,
) -> (Value, bool) {
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
    let mut related: Vec<Value> = d
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
    let cut = max_related.is_some_and(|m| related.len() > m);
    if let Some(m) = max_related {
        related.truncate(m);
    }
    if !related.is_empty() {
        r.insert("relatedLocations".into(), related.into());
    }
    if new {
        r.insert("baselineState".into(), "new".into());
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
                Provenance::Metadata(span) => sources.name(span.file).map(assembly_name),
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
    (Value::Object(r), cut)
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
    // The name's exact bytes, percent-encoded: a file name that is not UTF-8
    // keeps its bytes in the URI.
    let name = sources.name_bytes(span.file)?;
    let r = sources.region(span)?;
    let artifact = if is_absolute_name(name) {
        json!({"uri": file_uri(name)})
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
fn is_absolute_name(name: &[u8]) -> bool {
    name.starts_with(b"/") || name.get(1) == Some(&b':')
}

/// `file:///` URI of an absolute path given as its bytes (`C:\x` becomes
/// `file:///C:/x`).
fn file_uri(path: &[u8]) -> String {
    let text: Vec<u8> = path
        .iter()
        .map(|&b| if b == b'\\' { b'/' } else { b })
        .collect();
    let start = text.iter().take_while(|&&b| b == b'/').count();
    let text = &text[start..];
    let drive = text.len() >= 3 && text[1] == b':' && text[2] == b'/';
    if drive {
        let letter = char::from(text[0]);
        format!("file:///{letter}:/{}", encode_path(&text[3..]))
    } else {
        format!("file:///{}", encode_path(text))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris() {
        assert_eq!(
            encode_path("src/My App/Ä.cs".as_bytes()),
            "src/My%20App/%C3%84.cs"
        );
        // Bytes that are not UTF-8 keep their value.
        assert_eq!(encode_path(b"src/caf\xE9.cs"), "src/caf%E9.cs");
        assert_eq!(file_uri(b"/work/my repo"), "file:///work/my%20repo");
        assert_eq!(file_uri(b"C:\\src\\x"), "file:///C:/src/x");
        assert!(
            is_absolute_name(b"/x/a.cs")
                && is_absolute_name(b"C:/x")
                && !is_absolute_name(b"src/a.cs")
        );
    }

    #[test]
    fn limits_keep_the_most_severe_results_and_say_so() {
        use rlc_core::rules::{Diagnostic, RuleId, Severity};
        use rlc_core::{FileId, Span};
        let mut sources = Sources::new();
        sources.add(FileId(0), "a.cs", "0123456789\n");
        let at = |i: u32| Label {
            span: Span::new(FileId(0), i, i + 1),
            message: format!("at {i}"),
        };
        let diag = |severity, i: u32, related: u32| {
            let mut d = Diagnostic::new(RuleId::ResourceLeak, format!("d{i}"), at(i));
            d.severity = severity;
            d.secondary = (0..related).map(at).collect();
            Finding {
                diagnostic: d,
                frameworks: None,
                test_code: false,
            }
        };
        let diags = [
            diag(Severity::Note, 0, 0),
            diag(Severity::Error, 1, 5),
            diag(Severity::Warning, 2, 0),
            diag(Severity::Error, 3, 0),
        ];
        let limits = Limits {
            results: 3,
            locations: 3,
        };
        let (text, cut) = render_limited(
            &diags,
            &sources,
            &Summary::default(),
            Path::new("/r"),
            Some(limits),
        );
        let log: Value = serde_json::from_str(&text).unwrap();
        let run = &log["runs"][0];
        let messages: Vec<&str> = run["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["message"]["text"].as_str().unwrap())
            .collect();
        // The note goes; the others keep their order.
        assert_eq!(messages, ["d1", "d2", "d3"]);
        assert_eq!(
            run["results"][0]["relatedLocations"]
                .as_array()
                .unwrap()
                .len(),
            2
        );
        let cut = cut.expect("something was cut");
        assert!(
            cut.contains("4 results") && cut.contains("1 results have more locations"),
            "{cut}"
        );
        assert_eq!(
            run["invocations"][0]["toolExecutionNotifications"]
                .as_array()
                .unwrap()
                .len(),
            2
        );
        // Within the limits nothing changes.
        let (full, none) = render_limited(
            &diags,
            &sources,
            &Summary::default(),
            Path::new("/r"),
            Some(GITHUB_LIMITS),
        );
        assert!(none.is_none());
        assert_eq!(
            full,
            render(&diags, &sources, &Summary::default(), Path::new("/r"))
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
