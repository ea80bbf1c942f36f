//! Bad input through the whole pipeline: each problem gets a located message,
//! the rest of the run goes on, and nothing panics or overflows the stack.

mod common;

use std::path::Path;

use common::rlc;
use serde_json::Value;

const LEAK: &str = "var s = new System.IO.FileStream(\"x\", System.IO.FileMode.Open);";

fn write(root: &Path, rel: &str, bytes: impl AsRef<[u8]>) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, bytes).unwrap();
}

/// `(rule, file, line)` of every finding in a JSON report.
fn findings(stdout: &str) -> Vec<(String, String, u64)> {
    let report: Value = serde_json::from_str(stdout).expect("the report is JSON");
    report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["rule"].as_str().unwrap().to_owned(),
                f["file"].as_str().unwrap().replace('\\', "/"),
                f["line"].as_u64().unwrap(),
            )
        })
        .collect()
}

fn has(found: &[(String, String, u64)], rule: &str, file: &str) -> bool {
    found.iter().any(|(r, f, _)| r == rule && f.ends_with(file))
}

#[test]
fn every_bad_input_is_reported_and_the_good_code_is_still_checked() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let deep = 10_000;
    // Malformed XML: checked with the default globs, with a located warning.
    write(
        root,
        "Broken/Broken.csproj",
        "<Project Sdk=\"Microsoft.NET.Sdk\"><PropertyGroup>\n<Foo>\n</Project>",
    );
    write(
        root,
        "Broken/Leak.cs",
        format!("class A {{ void M() {{ {LEAK} }} }}\n"),
    );
    // A reference to a project that does not exist.
    write(
        root,
        "App/App.csproj",
        "<Project Sdk=\"Microsoft.NET.Sdk\"><ItemGroup>\
         <ProjectReference Include=\"../Missing/Missing.csproj\" /></ItemGroup></Project>",
    );
    write(
        root,
        "App/Leak.cs",
        format!("class B {{ void M() {{ {LEAK} }} }}\n"),
    );
    write(
        root,
        "App/Binary.cs",
        (0..=255u8).cycle().take(4096).collect::<Vec<_>>(),
    );
    write(
        root,
        "App/Broken.cs",
        format!("class S {{ void M( {{ }} void N() {{ {LEAK} }} }}\n"),
    );
    let huge: String = (0..50_000).map(|i| format!("class C{i} {{ }}\n")).collect();
    write(root, "App/Huge.cs", huge);
    let parens = format!("{}1{}", "(".repeat(deep), ")".repeat(deep));
    write(
        root,
        "App/Deep.cs",
        format!(
            "class D {{ int M() {{ return {parens}; }} void N() {{ {LEAK} }} }}\n\
             class E {{ void M() {{ {}{LEAK}{} }} }}\n",
            "{".repeat(deep),
            "}".repeat(deep)
        ),
    );
    #[cfg(unix)]
    std::os::unix::fs::symlink(root.join("App"), root.join("App/loop")).unwrap();

    let run = rlc(root, &["check", "--format", "json", "."]);
    assert_eq!(run.code, Some(1), "leaks found: {}", run.stderr);
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    let found = findings(&run.stdout);
    assert!(has(&found, "RLC9002", "Broken/Broken.csproj"), "{found:?}");
    assert!(has(&found, "RLC9002", "App/App.csproj"), "{found:?}");
    assert!(has(&found, "RLC9003", "App/Binary.cs"), "{found:?}");
    assert!(has(&found, "RLC9005", "App/Deep.cs"), "{found:?}");
    assert!(has(&found, "RLC9001", "App/Broken.cs"), "{found:?}");
    // The good code around the bad input is still checked: both leaking
    // projects and the shallow method next to the deep one.
    assert!(has(&found, "RLC0001", "Broken/Leak.cs"), "{found:?}");
    assert!(has(&found, "RLC0001", "App/Leak.cs"), "{found:?}");
    assert!(
        found
            .iter()
            .any(|(r, f, _)| r == "RLC0001" && f.ends_with("App/Deep.cs")),
        "{found:?}"
    );
    // The symlink loop reads each file once.
    let leaks_in_app = found
        .iter()
        .filter(|(r, f, _)| r == "RLC0001" && f.ends_with("Leak.cs") && f.contains("App"))
        .count();
    assert_eq!(leaks_in_app, 1, "{found:?}");
    assert!(!found.iter().any(|(r, _, _)| r == "RLC9004"), "{found:?}");
}

#[test]
fn a_named_path_that_does_not_exist_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let run = rlc(dir.path(), &["check", "no/such/App.csproj"]);
    assert_eq!(run.code, Some(2));
    assert!(run.stderr.contains("no/such/App.csproj"), "{}", run.stderr);
    assert!(run.stderr.contains("does not exist"), "{}", run.stderr);
}

#[test]
fn a_named_binary_file_is_reported_and_skipped() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "Blob.cs", [0u8, 159, 146, 150, 0, 1]);
    let run = rlc(dir.path(), &["check", "Blob.cs"]);
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    // Readable but not C#: a located warning, not a usage error.
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(run.stdout.contains("warning[RLC9003]"), "{}", run.stdout);
    assert!(run.stdout.contains("--> Blob.cs:1:1"), "{}", run.stdout);
}
