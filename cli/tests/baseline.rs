//! `check --write-baseline` / `check --baseline` end to end: the baseline
//! survives edits that do not touch a leak (moving a method, lines added
//! above, other members renamed), a changed allocation is a new finding, and
//! the exit status follows the new findings only.

mod common;

use std::path::Path;

use common::rlc;
use serde_json::Value;

const PROJECT: &str = "<Project Sdk=\"Microsoft.NET.Sdk\"><PropertyGroup>\
    <TargetFramework>net8.0</TargetFramework></PropertyGroup></Project>";

/// Two leaking methods and two that do not leak.
fn original() -> String {
    r#"using System.IO;

namespace Shop
{
    public class Store
    {
        private int _count;

        public string ReadFirst(string path)
        {
            var reader = new StreamReader(path);
            return reader.ReadLine();
        }

        public int Count() { return _count; }

        public long Size(string path)
        {
            var stream = new FileStream(path, FileMode.Open);
            return stream.Length;
        }

        public void Touch(string path)
        {
            using (var s = File.Create(path)) { }
        }
    }
}
"#
    .to_owned()
}

fn setup(dir: &Path, source: &str) {
    std::fs::write(dir.join("Shop.csproj"), PROJECT).unwrap();
    std::fs::write(dir.join("Store.cs"), source).unwrap();
}

fn json(stdout: &str) -> Value {
    serde_json::from_str(stdout).expect("JSON report")
}

fn rules_and_lines(report: &Value) -> Vec<(String, u64)> {
    report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["rule"].as_str().unwrap().to_owned(),
                f["line"].as_u64().unwrap(),
            )
        })
        .collect()
}

/// Writes the baseline of `original()`, replaces the source with `edited`,
/// and checks against the baseline.
fn against_baseline(edited: &str) -> (Value, Option<i32>) {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path(), &original());
    let write = rlc(
        dir.path(),
        &["check", ".", "--write-baseline", "base.sarif"],
    );
    assert_eq!(write.code, Some(0), "{}", write.stderr);
    assert!(
        write.stderr.contains("wrote a baseline of 2 findings"),
        "{}",
        write.stderr
    );
    std::fs::write(dir.path().join("Store.cs"), edited).unwrap();
    let run = rlc(
        dir.path(),
        &["check", ".", "--baseline", "base.sarif", "--format", "json"],
    );
    (json(&run.stdout), run.code)
}

#[test]
fn the_unchanged_tree_has_no_new_findings_and_passes() {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path(), &original());
    let plain = rlc(dir.path(), &["check", ".", "--format", "json"]);
    assert_eq!(
        plain.code,
        Some(1),
        "the leaks are errors without a baseline"
    );
    assert_eq!(rules_and_lines(&json(&plain.stdout)).len(), 2);
    rlc(
        dir.path(),
        &["check", ".", "--write-baseline", "base.sarif", "-q"],
    );
    let base: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("base.sarif")).unwrap())
            .expect("the baseline is SARIF");
    assert_eq!(base["version"], "2.1.0");
    assert_eq!(base["runs"][0]["results"].as_array().unwrap().len(), 2);
    let human = rlc(dir.path(), &["check", ".", "--baseline", "base.sarif"]);
    assert_eq!(human.code, Some(0), "{}", human.stdout);
    assert!(
        human
            .stdout
            .contains("no new leaks found in 1 file; 2 unchanged (in the baseline), 0 fixed"),
        "{}",
        human.stdout
    );
}

#[test]
fn moving_a_method_within_the_file_keeps_its_finding() {
    let src = original();
    let size = src
        .find("        public long Size")
        .expect("Size is in the source");
    let size_end = src[size..].find("        }\n").unwrap() + size + "        }\n\n".len();
    let method = src[size..size_end].to_owned();
    let mut moved = src.replace(&method, "");
    let at = moved.find("        public string ReadFirst").unwrap();
    moved.insert_str(at, &method);
    assert_ne!(moved, src);
    let (report, code) = against_baseline(&moved);
    assert_eq!(rules_and_lines(&report), []);
    assert_eq!(report["summary"]["baseline"]["unchanged"], 2);
    assert_eq!(code, Some(0));
}

#[test]
fn lines_added_above_keep_the_findings() {
    let edited = original().replacen(
        "using System.IO;\n",
        "using System;\nusing System.IO;\n// A comment\n// and another\n\n",
        1,
    );
    let edited = edited.replace(
        "        private int _count;\n",
        "        private int _count;\n        private string _name = \"x\";\n\n        public string Name => _name;\n",
    );
    let (report, code) = against_baseline(&edited);
    assert_eq!(rules_and_lines(&report), []);
    assert_eq!(report["summary"]["baseline"]["fixed"], 0);
    assert_eq!(code, Some(0));
}

#[test]
fn renaming_other_members_keeps_the_findings() {
    let edited = original()
        .replace("_count", "_total")
        .replace("Count()", "Total()")
        .replace("Touch(", "Create(");
    let (report, code) = against_baseline(&edited);
    assert_eq!(rules_and_lines(&report), []);
    assert_eq!(code, Some(0));
}

#[test]
fn a_changed_allocation_is_a_new_finding() {
    // The leak in `Size` now allocates a different resource.
    let edited = original().replace(
        "var stream = new FileStream(path, FileMode.Open);\n            return stream.Length;",
        "var stream = new BufferedStream(File.OpenRead(path));\n            return stream.Length;",
    );
    let (report, code) = against_baseline(&edited);
    let found = rules_and_lines(&report);
    assert_eq!(found, [("RLC0001".to_owned(), 19)], "{report:#}");
    assert_eq!(report["summary"]["baseline"]["new"], 1);
    assert_eq!(report["summary"]["baseline"]["unchanged"], 1);
    assert_eq!(report["summary"]["baseline"]["fixed"], 1);
    assert_eq!(code, Some(1), "a new error-level finding fails the check");
}

#[test]
fn a_new_leak_next_to_an_old_one_is_new() {
    let edited = original().replace(
        "            return reader.ReadLine();",
        "            var other = new StreamReader(path + \".bak\");\n            return reader.ReadLine() + other.ReadLine();",
    );
    let (report, code) = against_baseline(&edited);
    assert_eq!(report["summary"]["baseline"]["new"], 1, "{report:#}");
    assert_eq!(report["summary"]["baseline"]["unchanged"], 2);
    assert_eq!(code, Some(1));
}

#[test]
fn sarif_output_marks_new_results() {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path(), &original());
    rlc(
        dir.path(),
        &["check", ".", "--write-baseline", "base.sarif", "-q"],
    );
    std::fs::write(
        dir.path().join("Store.cs"),
        original().replace("public void Touch(string path)\n        {\n", "public void Touch(string path)\n        {\n            new MemoryStream().Flush();\n            File.OpenRead(path).Flush();\n"),
    )
    .unwrap();
    let run = rlc(
        dir.path(),
        &[
            "check",
            ".",
            "--baseline",
            "base.sarif",
            "--format",
            "sarif",
        ],
    );
    let log = json(&run.stdout);
    let results = log["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), 1, "{log:#}");
    assert_eq!(results[0]["baselineState"], "new");
    assert_eq!(log["runs"][0]["properties"]["baseline"]["unchanged"], 2);
}

#[test]
fn an_unreadable_baseline_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path(), &original());
    std::fs::write(dir.path().join("bad.sarif"), "{ not json").unwrap();
    let run = rlc(dir.path(), &["check", ".", "--baseline", "bad.sarif"]);
    assert_eq!(run.code, Some(2));
    assert!(run.stderr.contains("is not a baseline"), "{}", run.stderr);
    assert!(run.stdout.is_empty());
    let missing = rlc(dir.path(), &["check", ".", "--baseline", "missing.sarif"]);
    assert_eq!(missing.code, Some(2));
}
