//! `tests/fixtures/projects/frameworks` end to end through the binary: a
//! library built for netstandard2.0 and net8.0 whose leaks sit under one
//! framework's `#if` branch, under both, under none, and in items one
//! framework's `<Compile Remove>` drops; and test projects, one per signal.

mod common;

use std::path::{Path, PathBuf};

use common::rlc;
use serde_json::Value;

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/projects/frameworks")
}

fn json(args: &[&str]) -> (Value, Option<i32>, String) {
    let mut all = vec!["check", ".", "--format", "json"];
    all.extend_from_slice(args);
    let run = rlc(&fixture(), &all);
    let report = serde_json::from_str(&run.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}\n{}", run.stdout, run.stderr));
    (report, run.code, run.stderr)
}

/// `file:line severity [frameworks] test?` per finding, in report order.
fn findings(report: &Value) -> Vec<String> {
    report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| {
            let frameworks = match f["frameworks"].as_array() {
                Some(list) => {
                    let names: Vec<&str> = list.iter().filter_map(Value::as_str).collect();
                    format!(" [{}]", names.join(","))
                }
                None => String::new(),
            };
            format!(
                "{}:{} {}{}{}",
                f["file"].as_str().unwrap_or("?").replace('\\', "/"),
                f["line"],
                f["severity"].as_str().unwrap_or("?"),
                frameworks,
                if f["test_code"] == true { " test" } else { "" },
            )
        })
        .collect()
}

#[test]
fn every_framework_is_checked_and_test_code_comes_last() {
    let (report, code, stderr) = json(&[]);
    assert_eq!(code, Some(1), "{stderr}");
    assert_eq!(
        findings(&report),
        [
            // Under both frameworks: once, naming none.
            "Lib/Common.cs:9 error",
            // Items one framework's `<Compile Remove>` drops.
            "Lib/Legacy/Polyfill.cs:9 error [netstandard2.0]",
            "Lib/Modern/Spans.cs:9 error [net8.0]",
            // One framework's `#if` branch each; `Neither` (under a symbol no
            // build defines) and `HandedOver` (its callee, analysed in the
            // other build, disposes) are not reported.
            "Lib/Streams.cs:10 error [net8.0]",
            "Lib/Streams.cs:23 error [netstandard2.0]",
            "TestSupport/Fixtures.cs:9 warning test",
            "Tests.Package/PackageTests.cs:9 warning test",
            "Tests.Property/PropertyTests.cs:9 warning test",
        ]
    );
    let fingerprints: Vec<&str> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|f| f["fingerprint"].as_str())
        .collect();
    let mut unique = fingerprints.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), fingerprints.len(), "{fingerprints:?}");
    let summary = &report["summary"];
    assert_eq!(summary["production"]["findings"], 5);
    assert_eq!(summary["production"]["by_severity"]["error"], 5);
    assert_eq!(summary["test_code"]["findings"], 3);
    assert_eq!(summary["test_code"]["level"], "warning");
    assert_eq!(summary["test_code"]["by_severity"]["warning"], 3);
}

#[test]
fn one_framework_with_the_nearest_build_of_the_others() {
    let (report, code, stderr) = json(&["--framework", "net472"]);
    assert_eq!(code, Some(1), "{stderr}");
    // Lib's netstandard2.0 build; Tests.Property targets only net8.0.
    assert_eq!(
        findings(&report),
        [
            "Lib/Common.cs:9 error",
            "Lib/Legacy/Polyfill.cs:9 error",
            "Lib/Streams.cs:23 error",
            "TestSupport/Fixtures.cs:9 warning test",
            "Tests.Package/PackageTests.cs:9 warning test",
            "Tests.Property/Tests.Property.csproj:1 note test",
        ]
    );
    let run = rlc(&fixture(), &["check", ".", "--framework", "uap10.0"]);
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr.contains("no project targets `uap10.0`"),
        "{}",
        run.stderr
    );
}

#[test]
fn test_code_levels() {
    let (report, code, _) = json(&["--test-code", "off"]);
    assert_eq!(code, Some(1));
    assert!(findings(&report).iter().all(|f| !f.ends_with(" test")));
    assert_eq!(report["summary"]["suppressed"]["test_code"], 3);
    assert_eq!(report["summary"]["test_code"]["findings"], 0);

    let (report, _, _) = json(&["--test-code", "note"]);
    assert_eq!(report["summary"]["test_code"]["by_severity"]["note"], 3);

    let (report, _, _) = json(&["--test-code", "same"]);
    assert_eq!(report["summary"]["test_code"]["by_severity"]["error"], 3);
    assert_eq!(report["summary"]["by_severity"]["error"], 8);

    // Only test code with findings, at most warnings: the run passes.
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(
        dir.path().join("T.csproj"),
        "<Project Sdk=\"Microsoft.NET.Sdk\"><PropertyGroup><TargetFramework>net8.0</TargetFramework>\
         <IsTestProject>true</IsTestProject></PropertyGroup></Project>",
    )
    .expect("write project");
    std::fs::write(
        dir.path().join("T.cs"),
        "class T { void M() { var s = System.IO.File.OpenRead(\"x\"); } }\n",
    )
    .expect("write source");
    let run = rlc(dir.path(), &["check", "."]);
    assert_eq!(run.code, Some(0), "{}", run.stdout);
    assert!(
        run.stdout.contains(
            "no leaks found in production code\nwarning: 1 resource leak found in test code"
        ),
        "{}",
        run.stdout
    );
    let run = rlc(dir.path(), &["check", ".", "--test-code", "same"]);
    assert_eq!(run.code, Some(1), "{}", run.stdout);
}

#[test]
fn stats_count_the_configurations() {
    let (report, _, _) = json(&["--stats"]);
    let stats = &report["summary"]["stats"];
    // Lib ×2, Tests.Package ×2, Tests.Property, TestSupport.
    assert_eq!(stats["configurations"], 6);
    // Tests.Package's net472 build compiles what its net8.0 build does, but
    // against Lib's other build: a compilation of its own that analyses nothing.
    assert_eq!(stats["compilations"], 5);
    // Common.cs and Streams.cs twice (their `#if`s differ), the rest once.
    assert_eq!(stats["file_variants"], 10);
    assert_eq!(stats["files"], 8);
    let builds: Vec<String> = stats["builds"]
        .as_array()
        .expect("builds")
        .iter()
        .map(|b| {
            format!(
                "{} {} {} {}",
                b["project"].as_str().unwrap_or("?"),
                b["framework"].as_str().unwrap_or("?"),
                b["files"],
                b["files_analysed"]
            )
        })
        .collect();
    assert_eq!(
        builds,
        [
            "Lib netstandard2.0 4 4",
            "Lib net8.0 4 3",
            "Tests.Package net8.0 1 1",
            "Tests.Package net472 1 0",
        ]
    );
}

#[test]
fn every_later_build_gets_the_specs_of_the_code_it_shares() {
    // `User.cs` differs in each of three builds, so each analyses it; the
    // other files are the same, analysed in the first build only and
    // declarations only in the two others, which both need what inference
    // and the bodies found there: that `Holder` takes the stream it is given,
    // that `Wrapper` does unless told to leave it open, and that `Info` keeps
    // its streams (so `Make` is a factory of containers, and `MakeOne`'s
    // stream stays reachable through the result). Only the last
    // `leaveOpen: true` leaks, in every build.
    let dir = tempfile::tempdir().expect("temp dir");
    let write = |name: &str, text: &str| write_fixture(dir.path(), name, text);
    write(
        "Holder.cs",
        "using System;\nusing System.IO;\n\
         public sealed class Holder : IDisposable\n{\n\
             readonly Stream stream;\n\
             public Holder(Stream stream) { this.stream = stream; }\n\
             public void Dispose() { stream.Dispose(); }\n}\n",
    );
    write(
        "Wrapper.cs",
        "using System;\nusing System.IO;\n\
         public sealed class Wrapper : IDisposable\n{\n\
             readonly Stream stream;\n\
             readonly bool leaveOpen;\n\
             public Wrapper(Stream stream, bool leaveOpen) { this.stream = stream; this.leaveOpen = leaveOpen; }\n\
             public void Dispose() { if (!leaveOpen) stream.Dispose(); }\n}\n",
    );
    write(
        "Info.cs",
        "using System.Collections.Generic;\nusing System.IO;\n\
         public sealed class Info\n{\n\
             public IList<Stream> Streams { get; private set; }\n\
             public Info(string name, params Stream[] streams) { Streams = streams; }\n}\n",
    );
    write(
        "User.cs",
        "using System.IO;\n\
         public static class User\n{\n\
         #if NETSTANDARD2_0\n    public const int Flavour = 1;\n\
         #elif NET8_0_OR_GREATER\n    public const int Flavour = 3;\n\
         #else\n    public const int Flavour = 2;\n\
         #endif\n\
             public static Holder Open(string path) { return new Holder(File.OpenRead(path)); }\n\
             public static Info Make(params Stream[] streams) { return new Info(\"x\", streams); }\n\
             public static Info MakeOne(string path) { return Make(File.OpenRead(path)); }\n\
             public static Wrapper Wrap(string path) { return new Wrapper(File.OpenRead(path), false); }\n\
             public static void Peek(string path) { using (var w = new Wrapper(File.OpenRead(path), true)) { } }\n\
         }\n",
    );
    // Whichever later build comes first.
    for order in [
        "net462;netstandard2.0;net8.0",
        "net462;net8.0;netstandard2.0",
    ] {
        write(
            "Lib.csproj",
            &format!(
                "<Project Sdk=\"Microsoft.NET.Sdk\"><PropertyGroup>\
                 <TargetFrameworks>{order}</TargetFrameworks></PropertyGroup></Project>"
            ),
        );
        let run = rlc(dir.path(), &["check", ".", "--format", "json"]);
        let report: Value = serde_json::from_str(&run.stdout)
            .unwrap_or_else(|e| panic!("{e}: {}\n{}", run.stdout, run.stderr));
        assert_eq!(findings(&report), ["User.cs:15 error"], "{order}");
        let stats = rlc(dir.path(), &["check", ".", "--format", "json", "--stats"]);
        let stats: Value = serde_json::from_str(&stats.stdout).expect("json");
        assert_eq!(stats["summary"]["stats"]["compilations"], 3, "{order}");
    }
}

#[test]
fn a_project_with_one_framework_calls_the_build_for_that_framework() {
    // `App` targets net8.0 only and calls `Engine.SetStream` on a fresh
    // engine, so in Lib's net8.0 build the method runs as part of
    // construction; in its netstandard2.0 build nothing calls it, and it
    // overwrites an owning field. `Quiet` (the same code in both builds, so
    // analysed in netstandard2.0 only) releases nothing when disposed, in the
    // net8.0 build `App` uses too. Checking both frameworks together must
    // give each the findings of a `--framework` run of it.
    let fixture =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/projects/framework-callers");
    let run = |args: &[&str]| -> Value {
        let mut all = vec!["check", ".", "--format", "json"];
        all.extend_from_slice(args);
        let run = rlc(&fixture, &all);
        serde_json::from_str(&run.stdout)
            .unwrap_or_else(|e| panic!("{e}: {}\n{}", run.stdout, run.stderr))
    };
    // `file:line rule` per finding, of the findings in `framework`'s build.
    let of = |report: &Value, framework: Option<&str>| -> Vec<String> {
        report["findings"]
            .as_array()
            .expect("findings")
            .iter()
            .filter(|f| f["rule"] != "RLC9002")
            .filter(|f| match (framework, f["frameworks"].as_array()) {
                (Some(fw), Some(list)) => list.iter().any(|x| x == fw),
                _ => true,
            })
            .map(|f| {
                format!(
                    "{}:{} {}",
                    f["file"].as_str().unwrap_or("?").replace('\\', "/"),
                    f["line"],
                    f["rule"].as_str().unwrap_or("?")
                )
            })
            .collect()
    };
    let all = run(&[]);
    assert_eq!(
        findings(&all),
        [
            "App/Program.cs:11 warning",
            "Lib/Engine.cs:19 error [netstandard2.0]",
        ]
    );
    let expected = [
        ("netstandard2.0", vec!["Lib/Engine.cs:19 RLC0004"]),
        ("net8.0", vec!["App/Program.cs:11 RLC0010"]),
    ];
    for (framework, findings) in expected {
        let alone = run(&["--framework", framework]);
        assert_eq!(of(&alone, None), findings, "--framework {framework}");
        let mut together = of(&all, Some(framework));
        // App has no netstandard2.0 build.
        together.retain(|f| framework != "netstandard2.0" || !f.starts_with("App/"));
        assert_eq!(together, findings, "{framework} checked with the others");
    }
}

/// `file:line rule` per finding of a `check --format json` run in `dir`,
/// leaving out project notes.
/// Writes the fixture file `name` (a path relative to `dir`), with its folder.
fn write_fixture(dir: &Path, name: &str, text: &str) {
    let path = dir.join(name);
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, text).expect("write fixture");
}

fn leaks(dir: &Path, args: &[&str]) -> Vec<String> {
    let mut all = vec!["check", ".", "--format", "json"];
    all.extend_from_slice(args);
    let run = rlc(dir, &all);
    let report: Value = serde_json::from_str(&run.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}\n{}", run.stdout, run.stderr));
    report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["rule"] != "RLC9002")
        .map(|f| {
            format!(
                "{}:{} {}",
                f["file"].as_str().unwrap_or("?").replace('\\', "/"),
                f["line"],
                f["rule"].as_str().unwrap_or("?")
            )
        })
        .collect()
}

/// A file that differs between net472 and net6.0, so that each framework is
/// its own compilation.
const FLAVOUR: &str = "public static class Flavour\n{\n\
                       #if NET6_0_OR_GREATER\n    public const int Value = 6;\n\
                       #else\n    public const int Value = 4;\n\
                       #endif\n}\n";

const TWO_FRAMEWORKS: &str = "<Project Sdk=\"Microsoft.NET.Sdk\"><PropertyGroup>\
                              <TargetFrameworks>net472;net6.0</TargetFrameworks>\
                              </PropertyGroup></Project>";

#[test]
fn a_later_build_does_not_decide_the_fields_of_code_analysed_in_the_first() {
    // `Node.cs` is the same in both builds, so net472 analyses it and net6.0
    // has it as declarations only. `ChunkNode` disposes `_chunk` in the
    // dispose hook its base's `Dispose()` calls, behind a flag, and lets it
    // go in `Release` without disposing it there: the field is lent, in each
    // build alone. The net6.0 inference, without those bodies, must not make
    // it owning (which reported the field undisposed and the slice in `Copy`
    // leaked, in no build of its own).
    let dir = tempfile::tempdir().expect("temp dir");
    let write = |name: &str, text: &str| write_fixture(dir.path(), name, text);
    write("Lib.csproj", TWO_FRAMEWORKS);
    write("Flavour.cs", FLAVOUR);
    write(
        "Node.cs",
        "using System;\n\
         public interface IChunk : IDisposable { IChunk Slice(); }\n\
         public abstract class Node : IDisposable\n{\n\
             public bool Closed { get; private set; }\n\
             public void Dispose() { Dispose(true); }\n\
             protected virtual void Dispose(bool disposing) { Closed = true; }\n\
             protected virtual void Release() { }\n}\n\
         public class ChunkNode : Node\n{\n\
             private IChunk _chunk;\n\
             public ChunkNode(IChunk chunk) { _chunk = chunk; }\n\
             public ChunkNode Copy() { return new ChunkNode(_chunk.Slice()); }\n\
             protected override void Dispose(bool disposing)\n    {\n\
                 if (!Closed && disposing && _chunk != null) { _chunk.Dispose(); _chunk = null; }\n\
                 base.Dispose(disposing);\n    }\n\
             protected override void Release() { var c = _chunk; _chunk = null; c.Dispose(); }\n}\n",
    );
    for args in [
        &[][..],
        &["--framework", "net472"],
        &["--framework", "net6.0"],
    ] {
        assert_eq!(leaks(dir.path(), args), Vec::<String>::new(), "{args:?}");
    }
}

#[test]
fn a_method_called_from_a_later_build_is_no_construction_helper() {
    // `Lib` is one compilation for both frameworks, inferred first; `App`
    // (net6.0 only) references `Other`'s net6.0 compilation, so it is
    // inferred after them. `Lib` calls `Open` only on a fresh engine, `App`
    // on one it is given: in the net6.0 build `Open` overwrites an owning
    // field, and checking both frameworks must report it as that run does.
    let dir = tempfile::tempdir().expect("temp dir");
    let write = |name: &str, text: &str| write_fixture(dir.path(), name, text);
    write("Lib/Lib.csproj", TWO_FRAMEWORKS);
    write(
        "Lib/Engine.cs",
        "using System;\nusing System.IO;\n\
         public sealed class Engine : IDisposable\n{\n\
             private Stream _log;\n\
             public void Open(string path) { _log = File.Create(path); }\n\
             public void Dispose() { _log?.Dispose(); }\n\
             public static Engine Start(string path) { var e = new Engine(); e.Open(path); return e; }\n}\n",
    );
    write("Other/Other.csproj", TWO_FRAMEWORKS);
    write("Other/Flavour.cs", FLAVOUR);
    write(
        "App/App.csproj",
        "<Project Sdk=\"Microsoft.NET.Sdk\"><PropertyGroup>\
         <TargetFramework>net6.0</TargetFramework></PropertyGroup><ItemGroup>\
         <ProjectReference Include=\"../Lib/Lib.csproj\" />\
         <ProjectReference Include=\"../Other/Other.csproj\" /></ItemGroup></Project>",
    );
    write(
        "App/Program.cs",
        "public static class Program\n{\n\
             public static int Reopen(Engine engine, string path) { engine.Open(path); return Flavour.Value; }\n}\n",
    );
    let overwrite = vec!["Lib/Engine.cs:6 RLC0004".to_string()];
    assert_eq!(leaks(dir.path(), &[]), overwrite);
    assert_eq!(leaks(dir.path(), &["--framework", "net6.0"]), overwrite);
    assert_eq!(
        leaks(dir.path(), &["--framework", "net472"]),
        Vec::<String>::new()
    );
}

#[test]
fn an_allocation_the_builds_leak_differently_is_one_finding() {
    // net472 never disposes the stream, net6.0 only misses it when
    // `ReadByte` throws: one finding, the leak on every path, which every
    // build has in some form.
    let dir = tempfile::tempdir().expect("temp dir");
    let write = |name: &str, text: &str| write_fixture(dir.path(), name, text);
    write("Lib.csproj", TWO_FRAMEWORKS);
    write(
        "Use.cs",
        "using System.IO;\n\
         public static class Use\n{\n\
             public static void Run(string path)\n    {\n\
                 var s = File.OpenRead(path);\n\
                 try { s.ReadByte(); } catch (IOException) { throw; }\n\
         #if NET6_0_OR_GREATER\n        s.Dispose();\n\
         #endif\n    }\n}\n",
    );
    let (net472, net6) = (["Use.cs:6 RLC0001"], ["Use.cs:6 RLC0002"]);
    assert_eq!(leaks(dir.path(), &["--framework", "net472"]), net472);
    assert_eq!(leaks(dir.path(), &["--framework", "net6.0"]), net6);
    assert_eq!(leaks(dir.path(), &[]), net472);
}

/// A device's test head links a test project's files in: they stay test code,
/// while a shared file outside any test project that a production project
/// compiles stays production code.
#[test]
fn files_a_test_head_links_in_stay_test_code() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    let leak = |name: &str| {
        format!(
            "public static class {name}\n{{\n    public static long Size(string p)\n    {{\n        var s = System.IO.File.OpenRead(p);\n        return s.Length;\n    }}\n}}\n"
        )
    };
    let project = |items: &str| {
        format!(
            "<Project Sdk=\"Microsoft.NET.Sdk\"><PropertyGroup><TargetFramework>net8.0</TargetFramework>\
             </PropertyGroup><ItemGroup>{items}</ItemGroup></Project>"
        )
    };
    write_fixture(
        root,
        "App.Tests/App.Tests.csproj",
        &project("<PackageReference Include=\"Microsoft.NET.Test.Sdk\" Version=\"17.11.1\" />"),
    );
    write_fixture(root, "App.Tests/Probe.cs", &leak("Probe"));
    write_fixture(
        root,
        "App.Tests.Android/App.Tests.Android.csproj",
        &project(
            "<Compile Include=\"..\\App.Tests\\**\\*.cs\" /><Compile Include=\"..\\Shared\\*.cs\" />",
        ),
    );
    write_fixture(root, "Shared/Common.cs", &leak("Common"));
    let run = rlc(root, &["check", ".", "--format", "json"]);
    let report: Value = serde_json::from_str(&run.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}\n{}", run.stdout, run.stderr));
    let mut seen: Vec<(String, bool)> = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["rule"] == "RLC0001")
        .map(|f| {
            (
                f["file"].as_str().unwrap_or("?").replace('\\', "/"),
                f["test_code"] == true,
            )
        })
        .collect();
    seen.sort();
    assert_eq!(
        seen,
        [
            ("App.Tests/Probe.cs".to_owned(), true),
            ("Shared/Common.cs".to_owned(), false)
        ]
    );
}
