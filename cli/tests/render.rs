//! The output formats on hand-built findings.

use std::path::{Path, PathBuf};

use rlc_core::program::Provenance;
use rlc_core::provenance::InferRule;
use rlc_core::rules::{Diagnostic, Label, Severity, SpecFact};
use rlc_core::rules::{RULES, RuleId};
use rlc_core::{FileId, Span};
use rlc_csharp::suppress::SuppressionCounts;
use rlc_sharp::findings::{Finding, Suppressions};
use rlc_sharp::render::human::HumanOptions;
use rlc_sharp::render::{Sources, Summary, github, human, json, sarif};
use serde_json::Value;

const A: &str = "class A\n{\n    void M() { var s = new FileStream(p); }\n}\n";
const B: &str = "// x\nclass B { /* é */ Reader r = Open(); }\n";

fn root() -> PathBuf {
    PathBuf::from("/work/repo")
}

/// The byte span of the first `needle` in `text`.
fn span_of(file: u32, text: &str, needle: &str) -> Span {
    let start = text.find(needle).expect("needle in text");
    Span::new(FileId(file), start as u32, (start + needle.len()) as u32)
}

fn findings() -> Vec<Diagnostic> {
    let alloc = span_of(0, A, "new FileStream(p)");
    let end = A.rfind('}').expect("closing brace") as u32;
    let mut leak = Diagnostic::new(
        RuleId::ResourceLeak,
        "`s` is never disposed",
        Label {
            span: alloc,
            message: "`FileStream` allocated here".into(),
        },
    )
    .with_secondary(Span::new(FileId(0), end, end + 1), "leaks here")
    .with_note("`FileStream` must call `Dispose()`")
    .with_help("declare it with `using var s = ...`");
    leak.facts.push(SpecFact {
        fact: "`FileStream` must call `Dispose()`".into(),
        provenance: Provenance::Library,
        reason: None,
    });
    leak.facts.push(SpecFact {
        fact: "`Open` returns ownership".into(),
        provenance: Provenance::Inferred {
            rule: InferRule::MustCallAliasMethod,
            evidence: span_of(1, B, "Open()"),
        },
        reason: Some("it returns a new `Reader`".into()),
    });
    leak.fingerprint = "RLC0001:A.M():FileStream:0".into();
    let mut warning = Diagnostic::new(
        RuleId::ResourceLeakOnException,
        "`r` leaks 100% of the time, when `Open` throws",
        Label {
            span: span_of(1, B, "Open()"),
            message: "here".into(),
        },
    );
    warning.fingerprint = "RLC0002:B.r:Reader:0".into();
    let note = Diagnostic::new(
        RuleId::SyntaxError,
        "syntax error: expected `;`",
        Label {
            span: span_of(1, B, "class"),
            message: String::new(),
        },
    );
    vec![leak, warning, note]
}

fn sources(diags: &[Diagnostic]) -> Sources<'static> {
    let files: [(&'static Path, &'static str); 2] = [
        (Path::new("/work/repo/src/A.cs"), A),
        (Path::new("/work/repo/src/My Lib/B.cs"), B),
    ];
    Sources::for_findings(&root(), &found(diags), |id| {
        files.get(id.0 as usize).copied()
    })
}

/// Production findings under every framework.
fn found(diags: &[Diagnostic]) -> Vec<Finding> {
    diags
        .iter()
        .map(|d| Finding {
            diagnostic: d.clone(),
            frameworks: None,
            test_code: false,
        })
        .collect()
}

fn summary() -> Summary {
    Summary {
        files: 7,
        suppressed: Suppressions {
            sources: SuppressionCounts {
                pragma: 2,
                ..SuppressionCounts::default()
            },
            test_code: 0,
        },
        ..Summary::default()
    }
}

fn human_text(diags: &[Diagnostic], summary: &Summary, opts: HumanOptions) -> String {
    human::render(&found(diags), &sources(diags), summary, opts)
}

#[test]
fn human_reports_look_like_rustc() {
    let diags = findings();
    let out = human_text(&diags, &summary(), HumanOptions::default());
    for expected in [
        "error[RLC0001]: `s` is never disposed\n",
        "--> src/A.cs:3:24\n",
        "^^^^^^^^^^^^^^^^^ `FileStream` allocated here",
        "- leaks here",
        "= note: `FileStream` must call `Dispose()`",
        "- `FileStream` must call `Dispose()` (library model)",
        "- `Open` returns ownership, inferred because it returns a new `Reader` (at src/My Lib/B.cs:2:30)",
        "= help: declare it with `using var s = ...`",
        "warning[RLC0002]: `r` leaks 100% of the time",
        "--> src/My Lib/B.cs:2:30\n",
        "note[RLC9001]: syntax error",
        "\n\nerror: 2 resource leaks found (1 error, 1 warning) in 2 files; 2 suppressed (2 by #pragma)\n",
        "note: 1 report above about input that was not fully analysed\n",
    ] {
        assert!(out.contains(expected), "missing {expected:?} in\n{out}");
    }
    assert!(
        !out.contains("\n\n\n"),
        "one blank line between reports:\n{out}"
    );
    assert!(!out.contains('\x1b'), "no colours unless asked");
    let colored = human_text(
        &diags,
        &summary(),
        HumanOptions {
            color: true,
            quiet: false,
        },
    );
    assert!(colored.contains("\x1b["));
    let quiet = human_text(
        &diags,
        &summary(),
        HumanOptions {
            color: false,
            quiet: true,
        },
    );
    assert!(quiet.contains("error[RLC0001]") && !quiet.contains("resource leaks found"));
}

#[test]
fn human_summary_without_findings() {
    let one_file = Summary {
        files: 1,
        ..Summary::default()
    };
    let out = human::render(
        &found(&[]),
        &Sources::new(),
        &one_file,
        HumanOptions::default(),
    );
    assert_eq!(out, "no leaks found in 1 file\n");
    let warnings_only = vec![findings().remove(1)];
    let out = human_text(&warnings_only, &Summary::default(), HumanOptions::default());
    assert!(
        out.ends_with(
            "warning: 1 resource leak found (1 warning) in 1 file\n  RLC0002 resource-leak-on-exception: 1 warning\n"
        ),
        "{out}"
    );
}

/// The findings of [`findings`]: the leak only under net8.0, the warning in
/// test code (capped), the note as it is.
fn ranked() -> Vec<Finding> {
    let mut out = found(&findings());
    out[0].frameworks = Some(vec!["net8.0".into(), "net9.0".into()]);
    out[1].test_code = true;
    out.swap(1, 2);
    out
}

#[test]
fn human_ranks_test_code_after_production_and_names_frameworks() {
    let f = ranked();
    let diags: Vec<Diagnostic> = f.iter().map(|f| f.diagnostic.clone()).collect();
    let out = human::render(&f, &sources(&diags), &summary(), HumanOptions::default());
    let at = |needle: &str| {
        out.find(needle)
            .unwrap_or_else(|| panic!("missing {needle:?} in\n{out}"))
    };
    assert!(at("= note: only when building for net8.0 and net9.0") < at("warning[RLC0002]"));
    assert!(at("note[RLC9001]") < at("note: the findings below are in test projects"));
    assert!(at("note: the findings below are in test projects") < at("warning[RLC0002]"));
    let summary_text = &out[at("error: 1 resource leak found in production code")..];
    assert_eq!(
        summary_text,
        "error: 1 resource leak found in production code (1 error) in 1 file; 2 suppressed (2 by #pragma)\n\
         \x20 RLC0001 resource-leak: 1 error\n\
         warning: 1 resource leak found in test code (1 warning) in 1 file (at most warnings: `test-code = \"warning\"`)\n\
         \x20 RLC0002 resource-leak-on-exception: 1 warning\n\
         note: 1 report above about input that was not fully analysed\n"
    );
    let only_tests: Vec<Finding> = f.into_iter().filter(|f| f.test_code).collect();
    let out = human::render(
        &only_tests,
        &sources(&diags),
        &Summary::default(),
        HumanOptions::default(),
    );
    assert!(
        out.contains(
            "\nno leaks found in production code\nwarning: 1 resource leak found in test code"
        ),
        "{out}"
    );
}

#[test]
fn json_and_sarif_count_test_code_apart() {
    let f = ranked();
    let diags: Vec<Diagnostic> = f.iter().map(|f| f.diagnostic.clone()).collect();
    let doc: Value =
        serde_json::from_str(&json::render(&f, &sources(&diags), &summary())).expect("json");
    let findings = &doc["findings"];
    assert_eq!(
        findings[0]["frameworks"],
        serde_json::json!(["net8.0", "net9.0"])
    );
    assert_eq!(findings[0]["test_code"], false);
    assert_eq!(findings[1]["frameworks"], Value::Null);
    assert_eq!(findings[2]["test_code"], true);
    let s = &doc["summary"];
    assert_eq!(s["findings"], 3);
    assert_eq!(
        s["production"],
        serde_json::json!({"findings": 2, "by_severity": {"error": 1, "warning": 0, "note": 1},
            "by_rule": {"RLC0001": 1, "RLC9001": 1}})
    );
    assert_eq!(
        s["test_code"],
        serde_json::json!({"level": "warning", "findings": 1,
            "by_severity": {"error": 0, "warning": 1, "note": 0}, "by_rule": {"RLC0002": 1}})
    );
    let log: Value =
        serde_json::from_str(&sarif::render(&f, &sources(&diags), &summary(), &root()))
            .expect("json");
    let run = &log["runs"][0];
    assert_eq!(
        run["results"][0]["properties"]["frameworks"],
        serde_json::json!(["net8.0", "net9.0"])
    );
    assert!(run["results"][0]["properties"].get("testCode").is_none());
    assert_eq!(run["results"][2]["properties"]["testCode"], true);
    assert_eq!(run["properties"]["production"]["results"], 2);
    assert_eq!(run["properties"]["testCode"]["results"], 1);
    assert_eq!(run["properties"]["testCode"]["level"], "warning");
    assert_eq!(
        run["properties"]["testCode"]["byRule"],
        serde_json::json!({"RLC0002": 1})
    );
    let errors: Vec<String> = sarif_schema()
        .iter_errors(&log)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
}

#[test]
fn findings_in_unknown_files_are_still_reported() {
    let mut d = findings().remove(0);
    d.primary.span.file = FileId(9);
    d.secondary.clear();
    let diags = vec![d];
    let out = human_text(&diags, &Summary::default(), HumanOptions::default());
    assert!(
        out.starts_with("error[RLC0001]: `s` is never disposed"),
        "{out}"
    );
    let doc: Value = serde_json::from_str(&json::render(
        &found(&diags),
        &sources(&diags),
        &Summary::default(),
    ))
    .expect("json");
    assert_eq!(doc["findings"][0]["file"], Value::Null);
    assert_eq!(doc["findings"][0]["line"], Value::Null);
}

#[test]
fn json_has_positions_labels_facts_and_counts() {
    let diags = findings();
    let text = json::render(&found(&diags), &sources(&diags), &summary());
    let doc: Value = serde_json::from_str(&text).expect("valid JSON");
    assert_eq!(doc["version"], 1);
    let f = &doc["findings"][0];
    assert_eq!(f["rule"], "RLC0001");
    assert_eq!(f["name"], "resource-leak");
    assert_eq!(f["severity"], "error");
    assert_eq!(f["file"], "src/A.cs");
    assert_eq!((&f["line"], &f["column"]), (&3.into(), &24.into()));
    assert_eq!((&f["end_line"], &f["end_column"]), (&3.into(), &41.into()));
    assert_eq!(f["labels"].as_array().map(Vec::len), Some(2));
    assert_eq!(f["labels"][0]["primary"], true);
    assert_eq!(f["labels"][0]["message"], "`FileStream` allocated here");
    assert_eq!(f["labels"][1]["message"], "leaks here");
    assert_eq!(
        (&f["labels"][1]["line"], &f["labels"][1]["column"]),
        (&4.into(), &1.into())
    );
    assert_eq!(f["notes"][0], "`FileStream` must call `Dispose()`");
    assert_eq!(f["help"], "declare it with `using var s = ...`");
    assert_eq!(f["facts"][0]["kind"], "library");
    assert_eq!(f["facts"][0]["location"], Value::Null);
    assert_eq!(f["facts"][1]["kind"], "inferred");
    assert_eq!(f["facts"][1]["rule"], "must-call-alias-method");
    assert_eq!(f["facts"][1]["reason"], "it returns a new `Reader`");
    assert_eq!(f["facts"][1]["location"]["file"], "src/My Lib/B.cs");
    assert_eq!(
        f["facts"][1]["location"]["column"], 30,
        "columns count characters, not bytes"
    );
    assert_eq!(f["fingerprint"], "RLC0001:A.M():FileStream:0");
    assert_eq!(doc["findings"][1]["help"], Value::Null);
    let s = &doc["summary"];
    assert_eq!(s["files"], 7);
    assert_eq!(s["findings"], 3);
    assert_eq!(
        s["by_severity"],
        serde_json::json!({"error": 1, "warning": 1, "note": 1})
    );
    assert_eq!(
        s["by_rule"],
        serde_json::json!({"RLC0001": 1, "RLC0002": 1, "RLC9001": 1})
    );
    assert_eq!(
        s["suppressed"],
        serde_json::json!({"config": 0, "editorconfig": 0, "generated": 0, "pragma": 2, "attribute": 0,
            "global": 0, "net_analyzers": 0, "idisposable_analyzers": 0, "resharper": 0,
            "test_code": 0})
    );
    assert!(s.get("stats").is_none(), "stats only with --stats");
    let mut with_stats = summary();
    let stats = serde_json::json!({"files": 7, "calls_resolved": 120});
    with_stats.stats = stats.as_object().cloned();
    let doc: Value =
        serde_json::from_str(&json::render(&found(&diags), &sources(&diags), &with_stats))
            .expect("json");
    assert_eq!(doc["summary"]["stats"], stats);
}

fn sarif_schema() -> jsonschema::Validator {
    let text = include_str!("fixtures/sarif-schema-2.1.0.json");
    let schema: Value = serde_json::from_str(text).expect("schema parses");
    jsonschema::options()
        .with_draft(jsonschema::Draft::Draft4)
        .should_validate_formats(true)
        .build(&schema)
        .expect("schema compiles")
}

fn sarif_log(diags: &[Diagnostic], root: &Path) -> Value {
    serde_json::from_str(&sarif::render(
        &found(diags),
        &sources(diags),
        &summary(),
        root,
    ))
    .expect("valid JSON")
}

#[test]
fn sarif_is_valid_against_the_schema() {
    let validator = sarif_schema();
    let mut outside = findings().remove(1);
    outside.primary.span.file = FileId(2);
    let mut with_outside = findings();
    with_outside.push(outside);
    let files: [(&Path, &str); 3] = [
        (Path::new("/work/repo/src/A.cs"), A),
        (Path::new("/work/repo/src/My Lib/B.cs"), B),
        (Path::new("/elsewhere/C D.cs"), B),
    ];
    let sources = Sources::for_findings(&root(), &found(&with_outside), |id| {
        files.get(id.0 as usize).copied()
    });
    let logs = [
        sarif_log(&findings(), &root()),
        serde_json::from_str(&sarif::render(
            &found(&with_outside),
            &sources,
            &summary(),
            &root(),
        ))
        .expect("json"),
        sarif_log(&findings(), Path::new("relative/root")),
        sarif_log(&[], &root()),
    ];
    for log in &logs {
        let errors: Vec<String> = validator
            .iter_errors(log)
            .map(|e| format!("{e} at {}", e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{errors:#?}");
    }
    let elsewhere =
        &logs[1]["runs"][0]["results"][3]["locations"][0]["physicalLocation"]["artifactLocation"];
    assert_eq!(elsewhere["uri"], "file:///elsewhere/C%20D.cs");
    assert!(elsewhere.get("uriBaseId").is_none());
    // The schema does reject broken logs.
    let mut broken = logs[0].clone();
    broken["runs"][0]["results"][0]["level"] = "fatal".into();
    assert!(!validator.is_valid(&broken));
    let mut broken = logs[0].clone();
    broken["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] =
        0.into();
    assert!(!validator.is_valid(&broken));
}

#[test]
fn sarif_content() {
    let diags = findings();
    let log = sarif_log(&diags, &root());
    assert_eq!(log["version"], "2.1.0");
    let run = &log["runs"][0];
    let driver = &run["tool"]["driver"];
    assert_eq!(driver["name"], "rlc-sharp");
    assert_eq!(driver["version"], env!("CARGO_PKG_VERSION"));
    let rules = driver["rules"].as_array().expect("rules");
    assert_eq!(rules.len(), RULES.len(), "every rule is listed");
    for (r, rule) in rules.iter().zip(RULES) {
        assert_eq!(r["id"], rule.code);
        assert_eq!(r["name"], rule.name);
        assert_eq!(r["shortDescription"]["text"], rule.summary);
        assert_eq!(r["help"]["markdown"], rule.explanation);
        assert!(
            r["fullDescription"]["text"]
                .as_str()
                .is_some_and(|t| !t.is_empty() && !t.starts_with('#'))
        );
        let level = r["defaultConfiguration"]["level"].as_str();
        assert_eq!(level, Some(rule.default_severity.as_str()));
    }
    assert_eq!(
        run["originalUriBaseIds"]["%SRCROOT%"]["uri"],
        "file:///work/repo/"
    );
    assert_eq!(run["columnKind"], "unicodeCodePoints");
    let results = run["results"].as_array().expect("results");
    assert_eq!(results.len(), 3);
    for res in results {
        let index = res["ruleIndex"].as_u64().expect("index") as usize;
        assert_eq!(rules[index]["id"], res["ruleId"]);
    }
    let leak = &results[0];
    assert_eq!(leak["level"], "error");
    assert_eq!(leak["message"]["text"], "`s` is never disposed");
    let phys = &leak["locations"][0]["physicalLocation"];
    assert_eq!(phys["artifactLocation"]["uri"], "src/A.cs");
    assert_eq!(phys["artifactLocation"]["uriBaseId"], "%SRCROOT%");
    assert_eq!(
        phys["region"],
        serde_json::json!({"startLine": 3, "startColumn": 24, "endLine": 3, "endColumn": 41})
    );
    assert_eq!(leak["relatedLocations"][0]["id"], 1);
    assert_eq!(leak["relatedLocations"][0]["message"]["text"], "leaks here");
    assert_eq!(
        leak["partialFingerprints"]["rlcSharp/v2"],
        "RLC0001:A.M():FileStream:0"
    );
    assert_eq!(
        results[1]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "src/My%20Lib/B.cs"
    );
    assert_eq!(results[1]["level"], "warning");
    assert_eq!(results[2]["level"], "note");
    assert!(
        results[2].get("partialFingerprints").is_none(),
        "no fingerprint, no key"
    );
}

#[test]
fn github_annotations() {
    let diags = findings();
    let out = github::render(&found(&diags), &sources(&diags));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(
        lines[0].starts_with(
            "::error file=src/A.cs,line=3,col=24,endLine=3,endColumn=41,title=RLC0001 resource-leak::`s` is never disposed%0Aleaks here (src/A.cs:4:1)%0Anote: "
        ),
        "{}",
        lines[0]
    );
    assert!(lines[0].ends_with("%0Ahelp: declare it with `using var s = ...`"));
    assert!(
        lines[1].starts_with("::warning file=src/My Lib/B.cs,line=2,col=30,"),
        "{}",
        lines[1]
    );
    assert!(lines[1].contains("leaks 100%25 of the time"));
    assert!(lines[2].starts_with("::notice file=src/My Lib/B.cs,"));
    let mut unknown = findings().remove(2);
    unknown.primary.span.file = FileId(5);
    let out = github::render(&found(std::slice::from_ref(&unknown)), &Sources::new());
    assert_eq!(
        out,
        "::notice title=RLC9001 syntax-error::syntax error: expected `;`\n"
    );
}

#[test]
fn final_severities_reach_every_format() {
    let mut d = findings().remove(1);
    d.severity = Severity::Error;
    let diags = vec![d];
    let s = sources(&diags);
    assert!(github::render(&found(&diags), &s).starts_with("::error "));
    assert_eq!(
        sarif_log(&diags, &root())["runs"][0]["results"][0]["level"],
        "error"
    );
    let doc: Value =
        serde_json::from_str(&json::render(&found(&diags), &s, &Summary::default())).expect("json");
    assert_eq!(doc["findings"][0]["severity"], "error");
    let out = human::render(
        &found(&diags),
        &s,
        &Summary::default(),
        HumanOptions::default(),
    );
    assert!(out.starts_with("error[RLC0002]"), "{out}");
}
