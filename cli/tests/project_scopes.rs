//! Names resolve per project: checking two unrelated solutions in one
//! command, or one solution holding unrelated projects, gives the findings of
//! checking each alone. Each side declares a namespace named like a type the
//! other side uses (`namespace Analyzer` beside `new Analyzer()`); a namespace
//! in scope would hide that type, and its leak with it. One side imports the
//! type's namespace with a directive, the other with a `<Using>` item.

mod common;

use std::path::Path;

use common::rlc;
use serde_json::Value;

const PROJECT: &str = "<Project Sdk=\"Microsoft.NET.Sdk\"><PropertyGroup>\
    <TargetFramework>net8.0</TargetFramework></PropertyGroup></Project>";

/// A project that imports `Tools` in every file.
const PROJECT_USING_TOOLS: &str = "<Project Sdk=\"Microsoft.NET.Sdk\"><PropertyGroup>\
    <TargetFramework>net8.0</TargetFramework></PropertyGroup>\
    <ItemGroup><Using Include=\"Tools\" /></ItemGroup></Project>";

/// A disposable `Tools.<disposable>` used by simple name (through `using
/// Tools;` when `import`) from namespace `<user>`, which leaks it, and a
/// namespace named `<shadow>` with a type in it.
fn source(disposable: &str, user: &str, shadow: &str, import: bool) -> String {
    let import = if import { "using Tools;" } else { "" };
    format!(
        r#"using System;
using System.IO;
{import}

namespace Tools
{{
    public class {disposable} : IDisposable
    {{
        private readonly Stream _s = new MemoryStream();
        public void Dispose() {{ _s.Dispose(); }}
    }}
}}

namespace {shadow}
{{
    public class Marker {{ }}
}}

namespace {user}
{{
    public static class Program
    {{
        public static void Run()
        {{
            var a = new {disposable}();
        }}
    }}
}}
"#
    )
}

fn solution(projects: &[(&str, &str)]) -> String {
    let mut s = String::from("Microsoft Visual Studio Solution File, Format Version 12.00\n");
    for (i, (name, path)) in projects.iter().enumerate() {
        s.push_str(&format!(
            "Project(\"{{FAE04EC0-301F-11D3-BF4B-00C04F79EFBC}}\") = \"{name}\", \"{path}\", \
             \"{{00000000-0000-0000-0000-00000000000{i}}}\"\nEndProject\n"
        ));
    }
    s
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// Two solutions in `root`: SolA uses `Analyzer` and declares namespace
/// `Reader`; SolB uses `Reader` and declares namespace `Analyzer`. And a
/// third solution, `All.sln`, holding both projects.
fn setup(root: &Path) {
    write(&root.join("SolA/A/A.csproj"), PROJECT);
    write(
        &root.join("SolA/A/Program.cs"),
        &source("Analyzer", "AppA", "Reader", true),
    );
    write(
        &root.join("SolA/SolA.sln"),
        &solution(&[("A", "A\\A.csproj")]),
    );
    write(&root.join("SolB/B/B.csproj"), PROJECT_USING_TOOLS);
    write(
        &root.join("SolB/B/Program.cs"),
        &source("Reader", "AppB", "Analyzer", false),
    );
    write(
        &root.join("SolB/SolB.sln"),
        &solution(&[("B", "B\\B.csproj")]),
    );
    write(
        &root.join("All.sln"),
        &solution(&[("A", "SolA\\A\\A.csproj"), ("B", "SolB\\B\\B.csproj")]),
    );
}

/// `rule file line fingerprint message` per finding, files named from
/// `root` whatever directory the run printed them from.
fn findings(root: &Path, args: &[&str]) -> Vec<String> {
    let mut all = vec!["check", "--format", "json"];
    all.extend_from_slice(args);
    let run = rlc(root, &all);
    assert_eq!(run.code, Some(1), "{args:?}: {}", run.stderr);
    let report: Value = serde_json::from_str(&run.stdout).unwrap();
    let mut out: Vec<String> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let file = f["file"].as_str().unwrap_or("?").replace('\\', "/");
            // Runs of one solution name files from its directory.
            let file = ["SolA/", "SolB/"]
                .iter()
                .find_map(|p| file.strip_prefix(p))
                .unwrap_or(&file)
                .to_owned();
            format!(
                "{} {file} {} {} {}",
                f["rule"].as_str().unwrap_or("?"),
                f["line"],
                f["fingerprint"].as_str().unwrap_or("?"),
                f["message"].as_str().unwrap_or("?"),
            )
        })
        .collect();
    out.sort();
    out
}

#[test]
fn a_projects_names_do_not_shadow_another_projects() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    setup(root);

    let a = findings(root, &["SolA/SolA.sln"]);
    let b = findings(root, &["SolB/SolB.sln"]);
    // Alone, each side reports its leak.
    assert_eq!(a.len(), 1, "{a:?}");
    assert!(
        a[0].contains("A/Program.cs") && a[0].contains("`Analyzer`"),
        "{a:?}"
    );
    assert_eq!(b.len(), 1, "{b:?}");
    assert!(
        b[0].contains("B/Program.cs") && b[0].contains("`Reader`"),
        "{b:?}"
    );

    let mut separately = [a, b].concat();
    separately.sort();
    let together = findings(root, &["SolA/SolA.sln", "SolB/SolB.sln"]);
    assert_eq!(together, separately);
    let one_solution = findings(root, &["All.sln"]);
    assert_eq!(one_solution, separately);
}
