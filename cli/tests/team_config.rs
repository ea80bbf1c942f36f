//! What a .NET team has already written, end to end: severities in
//! `.editorconfig` and `.globalconfig` (with `rlc-sharp.toml` winning where
//! both speak), and suppressions written for CA2000, CA2213,
//! IDisposableAnalyzers and ReSharper; generated code, not reported unless
//! `.editorconfig` says so.

mod common;

use std::path::Path;

use common::rlc;
use serde_json::Value;

const PROJECT: &str = "<Project Sdk=\"Microsoft.NET.Sdk\"><PropertyGroup>\
    <TargetFramework>net8.0</TargetFramework></PropertyGroup></Project>";

fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

fn leak_class(name: &str) -> String {
    format!(
        "using System.IO;\nnamespace App\n{{\n    public class {name}\n    {{\n        public long Size(string p)\n        {{\n            var s = new FileStream(p, FileMode.Open);\n            return s.Length;\n        }}\n    }}\n}}\n"
    )
}

fn report(dir: &Path) -> (Value, Option<i32>) {
    let run = rlc(dir, &["check", ".", "--format", "json"]);
    let v = serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("{e}: {}", run.stderr));
    (v, run.code)
}

/// `(file name, rule, severity)` of every finding.
fn findings(report: &Value) -> Vec<(String, String, String)> {
    let mut out: Vec<_> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let file = f["file"].as_str().unwrap();
            (
                file.rsplit('/').next().unwrap().to_owned(),
                f["rule"].as_str().unwrap().to_owned(),
                f["severity"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    out.sort();
    out
}

fn f(file: &str, rule: &str, severity: &str) -> (String, String, String) {
    (file.into(), rule.into(), severity.into())
}

#[test]
fn editorconfig_severities_by_section_and_directory() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "App.csproj", PROJECT);
    write(root, "A.cs", &leak_class("A"));
    write(root, "Legacy/B.cs", &leak_class("B"));
    write(root, "Tests/C.cs", &leak_class("C"));
    write(
        root,
        ".editorconfig",
        "root = true\n\n[*.cs]\nindent_size = 4\ndotnet_diagnostic.RLC0001.severity = warning\n\n[Tests/**.cs]\ndotnet_diagnostic.RLC0001.severity = suggestion\n",
    );
    write(
        root,
        "Legacy/.editorconfig",
        "[*.cs]\ndotnet_diagnostic.RLC0001.severity = none\n",
    );
    let (r, code) = report(root);
    assert_eq!(
        findings(&r),
        [
            f("A.cs", "RLC0001", "warning"),
            f("C.cs", "RLC0001", "note")
        ]
    );
    assert_eq!(r["summary"]["suppressed"]["editorconfig"], 1);
    assert_eq!(code, Some(0), "no error-level finding left");
    // rlc-sharp.toml wins where both set a rule.
    write(
        root,
        "rlc-sharp.toml",
        "[rules]\nresource-leak = \"error\"\n",
    );
    let (r, code) = report(root);
    assert_eq!(
        findings(&r),
        [
            f("A.cs", "RLC0001", "error"),
            f("B.cs", "RLC0001", "error"),
            f("C.cs", "RLC0001", "error")
        ]
    );
    assert_eq!(code, Some(1));
}

#[test]
fn globalconfig_applies_to_the_project_and_editorconfig_wins_over_it() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "src/App/App.csproj", PROJECT);
    write(root, "src/App/A.cs", &leak_class("A"));
    write(root, "src/App/Sub/B.cs", &leak_class("B"));
    write(
        root,
        ".globalconfig",
        "is_global = true\ndotnet_diagnostic.RLC0001.severity = none\n",
    );
    write(
        root,
        "src/App/Sub/.editorconfig",
        "[*.cs]\ndotnet_diagnostic.RLC0001.severity = error\n",
    );
    let (r, code) = report(root);
    assert_eq!(findings(&r), [f("B.cs", "RLC0001", "error")]);
    assert_eq!(r["summary"]["suppressed"]["editorconfig"], 1);
    assert_eq!(code, Some(1));
    // A global config of a higher level: still under the .editorconfig.
    write(
        root,
        "src/.globalconfig",
        "is_global = true\nglobal_level = 200\ndotnet_diagnostic.RLC0001.severity = warning\n",
    );
    let (r, _) = report(root);
    assert_eq!(
        findings(&r),
        [
            f("A.cs", "RLC0001", "warning"),
            f("B.cs", "RLC0001", "error")
        ]
    );
}

const SUPPRESSED: &str = r#"using System.Diagnostics.CodeAnalysis;
using System.IO;

namespace App
{
    [System.AttributeUsage(System.AttributeTargets.All)]
    public class OwningAttribute : System.Attribute { }

    public class Store
    {
        [Owning] private Stream _log = new FileStream("log", FileMode.Append);

        public long Pragma(string p)
        {
#pragma warning disable CA2000 // Dispose objects before losing scope
            var s = new FileStream(p, FileMode.Open);
#pragma warning restore CA2000
            return s.Length;
        }

        [SuppressMessage("IDisposableAnalyzers.Correctness", "IDISP001:Dispose created", Justification = "pooled")]
        public long Attribute(string p)
        {
            var s = new FileStream(p, FileMode.Open);
            return s.Length;
        }

        public long ReSharper(string p)
        {
            // ReSharper disable once NotDisposedResource
            var s = new FileStream(p,
                FileMode.Open);
            return s.Length;
        }

        public long NotSuppressed(string p)
        {
            var s = new FileStream(p, FileMode.Open);
            return s.Length;
        }
    }
}
"#;

#[test]
fn suppressions_written_for_other_analyzers_are_honoured_and_counted() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "App.csproj", PROJECT);
    write(root, "Store.cs", SUPPRESSED);
    write(
        root,
        "GlobalSuppressions.cs",
        "using System.Diagnostics.CodeAnalysis;\n[assembly: SuppressMessage(\"Microsoft.Usage\", \"CA2213:Disposable fields should be disposed\", Scope = \"type\", Target = \"~T:App.Store\")]\n",
    );
    let (r, _) = report(root);
    let lines: Vec<u64> = r["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["line"].as_u64().unwrap())
        .collect();
    let not_suppressed = SUPPRESSED
        .lines()
        .position(|l| l.contains("NotSuppressed"))
        .unwrap() as u64
        + 3;
    assert_eq!(lines, [not_suppressed], "{r:#}");
    let s = &r["summary"]["suppressed"];
    assert_eq!(
        s["net_analyzers"], 2,
        "CA2000 pragma and CA2213 global: {s}"
    );
    assert_eq!(s["idisposable_analyzers"], 1, "{s}");
    assert_eq!(s["resharper"], 1, "{s}");
    let human = rlc(root, &["check", "."]);
    assert!(
        human.stdout.contains(
            "4 suppressed (2 written for CA2000/CA2213, 1 written for IDisposableAnalyzers, 1 written for ReSharper)"
        ),
        "{}",
        human.stdout
    );
    // Switched off, every one of them is reported.
    write(
        root,
        "rlc-sharp.toml",
        "[check]\nforeign-suppressions = false\n",
    );
    let (r, _) = report(root);
    let rules: Vec<&str> = r["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["rule"].as_str().unwrap())
        .filter(|rule| *rule == "RLC0001" || *rule == "RLC0003")
        .collect();
    assert_eq!(
        rules.iter().filter(|r| **r == "RLC0001").count(),
        4,
        "{r:#}"
    );
    assert_eq!(
        rules.iter().filter(|r| **r == "RLC0003").count(),
        1,
        "{r:#}"
    );
    assert_eq!(r["summary"]["suppressed"]["net_analyzers"], 0);
}

#[test]
fn generated_code_is_analysed_but_not_reported_unless_editorconfig_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "App.csproj", PROJECT);
    write(root, "A.cs", &leak_class("A"));
    write(root, "Forms/Main.Designer.cs", &leak_class("Main"));
    write(
        root,
        "Client.cs",
        &format!(
            "// <auto-generated>\n//   by a tool\n// </auto-generated>\n{}",
            leak_class("Client")
        ),
    );
    let (r, _) = report(root);
    assert_eq!(findings(&r), [f("A.cs", "RLC0001", "error")]);
    assert_eq!(r["summary"]["suppressed"]["generated"], 2);
    write(
        root,
        ".editorconfig",
        "root = true\n\n[*.Designer.cs]\ngenerated_code = false\n\n[A.cs]\ngenerated_code = true\n",
    );
    let (r, _) = report(root);
    assert_eq!(findings(&r), [f("Main.Designer.cs", "RLC0001", "error")]);
    assert_eq!(r["summary"]["suppressed"]["generated"], 2);
}
