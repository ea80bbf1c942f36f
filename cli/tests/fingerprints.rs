//! One finding per fingerprint: a file compiled into two projects (a linked
//! file) is reported once in every output format and counted once; overloads
//! of one method name get distinct fingerprints; edits above a finding keep
//! its fingerprint; a baseline of the older fingerprint recipe is refused.

mod common;

use std::path::Path;

use common::rlc;
use serde_json::Value;

fn project(extra: &str) -> String {
    format!(
        "<Project Sdk=\"Microsoft.NET.Sdk\"><PropertyGroup>\
         <TargetFramework>net8.0</TargetFramework></PropertyGroup>\
         <ItemGroup><Compile Include=\"../Shared/Leaks.cs\" />{extra}</ItemGroup></Project>"
    )
}

/// Two overloads of `Run` and two constructors, each leaking a `FileStream`,
/// and a lambda in one overload leaking a `StreamReader`.
fn leaks(above: &str) -> String {
    format!(
        r#"using System;
using System.IO;
{above}
namespace App
{{
    class C
    {{
        C(int n) {{ var s = new FileStream("a", FileMode.Open); }}
        C(string p) {{ var s = new FileStream(p, FileMode.Open); }}

        void Run(int n) {{ var s = new FileStream("a", FileMode.Open); }}

        void Run(string p)
        {{
            var s = new FileStream(p, FileMode.Open);
            Action a = () => {{ var r = new StreamReader(p); }};
        }}
    }}
}}
"#
    )
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A solution-less tree: projects A and B both compile `Shared/Leaks.cs`.
fn setup(dir: &Path, source: &str) {
    write(&dir.join("A/A.csproj"), &project(""));
    write(&dir.join("B/B.csproj"), &project(""));
    write(&dir.join("Shared/Leaks.cs"), source);
}

fn json(dir: &Path) -> Value {
    let run = rlc(dir, &["check", ".", "--format", "json"]);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("{e}: {}", run.stdout))
}

/// `line fingerprint` per finding.
fn findings(report: &Value) -> Vec<(u64, String)> {
    report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| {
            (
                f["line"].as_u64().unwrap_or(0),
                f["fingerprint"].as_str().unwrap_or("").to_owned(),
            )
        })
        .collect()
}

#[test]
fn a_linked_file_is_reported_once_and_overloads_differ() {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path(), &leaks(""));

    let report = json(dir.path());
    let found = findings(&report);
    let prints: Vec<&str> = found.iter().map(|(_, f)| f.as_str()).collect();
    assert_eq!(
        prints,
        [
            "RLC0001:App.C..ctor(int):FileStream:0",
            "RLC0001:App.C..ctor(string):FileStream:0",
            "RLC0001:App.C.Run(int):FileStream:0",
            "RLC0001:App.C.Run(string):FileStream:0",
            "RLC0001:App.C.Run(string).<lambda#1>:StreamReader:0",
        ],
        "{report:#}"
    );
    assert_eq!(report["summary"]["findings"], 5, "{report:#}");

    let sarif = rlc(dir.path(), &["check", ".", "--format", "sarif"]);
    assert_eq!(sarif.code, Some(1), "{}", sarif.stderr);
    let sarif: Value = serde_json::from_str(&sarif.stdout).unwrap();
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    let mut sarif_prints: Vec<&str> = results
        .iter()
        .filter_map(|r| r["partialFingerprints"]["rlcSharp/v2"].as_str())
        .collect();
    sarif_prints.sort();
    let mut sorted = prints.clone();
    sorted.sort();
    assert_eq!(sarif_prints, sorted, "{sarif:#}");

    let human = rlc(dir.path(), &["check", "."]);
    assert_eq!(human.code, Some(1), "{}", human.stderr);
    assert_eq!(
        human.stdout.matches("error[RLC0001]").count(),
        5,
        "{}",
        human.stdout
    );
    assert!(
        human.stdout.contains("5 resource leaks found"),
        "{}",
        human.stdout
    );
}

#[test]
fn lines_and_members_added_above_keep_fingerprints() {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path(), &leaks(""));
    let before = findings(&json(dir.path()));

    // Lines above, and another type with its own lambda above the leaks.
    let above = "using System.Text;\n\n// a comment\nnamespace Other { class D { \
                 void M() { System.Action a = () => { }; } } }\n";
    setup(dir.path(), &leaks(above));
    let after = findings(&json(dir.path()));

    assert_eq!(before.len(), after.len(), "{before:?}\n{after:?}");
    for ((line_before, fp_before), (line_after, fp_after)) in before.iter().zip(&after) {
        assert_eq!(fp_before, fp_after);
        assert!(line_after > line_before, "{line_before} -> {line_after}");
    }
}

#[test]
fn a_baseline_of_the_older_recipe_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path(), &leaks(""));
    let old = r#"{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "rlc-sharp"}},
        "results": [{"ruleId": "RLC0001",
                     "partialFingerprints": {"rlcSharp/v1": "RLC0001:C.Run:FileStream:0"}}]}]}"#;
    write(&dir.path().join("old.sarif"), old);
    let run = rlc(dir.path(), &["check", ".", "--baseline", "old.sarif"]);
    assert_eq!(run.code, Some(2), "{}\n{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains("rlcSharp/v1") && run.stderr.contains("write the baseline again"),
        "{}",
        run.stderr
    );
}
