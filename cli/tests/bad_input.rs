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
/// The lines of the RLC0001 findings of checking `root`, which must note no
/// syntax error (RLC9001).
fn leak_lines_without_syntax_errors(root: &Path) -> Vec<u64> {
    let run = rlc(root, &["check", "--format", "json", "."]);
    let found = findings(&run.stdout);
    assert!(!found.iter().any(|(r, _, _)| r == "RLC9001"), "{found:?}");
    found
        .iter()
        .filter(|(r, _, _)| r == "RLC0001")
        .map(|(_, _, l)| *l)
        .collect()
}

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

/// Names of 22,000 dotted parts in each position a name can take, and 29,000
/// `using var` declarations in one method: each gets a located note (or is
/// analysed), nothing overflows the stack, and the code beside it is checked.
#[test]
fn long_names_and_many_using_declarations_are_cut_with_a_located_note() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let dotted = (0..22_000)
        .map(|i| format!("A{i}"))
        .collect::<Vec<_>>()
        .join(".");
    let ok = format!("class Ok {{ void M() {{ {LEAK} }} }}\n");
    let cases = [
        ("Ns.cs", format!("namespace {dotted} {{ class X {{ }} }}\n")),
        ("Using.cs", format!("using {dotted};\n")),
        ("Base.cs", format!("class B : {dotted} {{ }}\n")),
        ("Field.cs", format!("class F {{ {dotted} f; }}\n")),
        (
            "Expr.cs",
            format!("class E {{ object M() => {dotted}; }}\n"),
        ),
    ];
    for (name, first_line) in &cases {
        write(root, name, format!("{first_line}{ok}"));
    }
    let usings: String = (0..29_000)
        .map(|i| {
            format!("using var s{i} = new System.IO.FileStream(\"x\", System.IO.FileMode.Open);\n")
        })
        .collect();
    write(
        root,
        "Usings.cs",
        format!("class U {{ void M() {{\n{usings}}} }}\n{ok}"),
    );

    let run = rlc(root, &["check", "--format", "json", "."]);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    let found = findings(&run.stdout);
    for (name, _) in &cases {
        assert!(
            found.contains(&("RLC9005".into(), (*name).into(), 1)),
            "{name}: {found:?}"
        );
        assert!(
            found.contains(&("RLC0001".into(), (*name).into(), 2)),
            "{name}: {found:?}"
        );
    }
    // Every `using` disposes its stream: only the leak beside them is reported,
    // and the method is analysed whole (no budget note).
    let usings: Vec<_> = found.iter().filter(|f| f.1 == "Usings.cs").collect();
    assert_eq!(
        usings,
        [&("RLC0001".to_owned(), "Usings.cs".to_owned(), 29_003)],
        "{found:?}"
    );
}

/// A method that needs more steps than `--method-budget` allows stops with a
/// located note and a partial result, not a stall; 1,500 sequential `using`
/// declarations stay far within the default budget.
#[test]
fn the_method_budget_turns_a_costly_method_into_a_note() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let open = "new System.IO.FileStream(\"x\", System.IO.FileMode.Open)";
    let locals: String = (0..300).map(|i| format!("var s{i} = {open};\n")).collect();
    let disposals: String = (0..300).map(|i| format!("s{i}.Dispose();\n")).collect();
    write(
        root,
        "Costly.cs",
        format!("class P {{\nvoid M() {{\n{locals}{disposals}}}\n}}\n"),
    );
    let usings: String = (0..1_500)
        .map(|i| format!("using var u{i} = {open};\n"))
        .collect();
    write(
        root,
        "Usings.cs",
        format!("class U {{\nvoid M() {{\n{usings}}}\n}}\n"),
    );

    let run = rlc(root, &["check", "--format", "json", "."]);
    assert_eq!(run.code, Some(0), "{}", run.stdout);
    let run = rlc(
        root,
        &["check", "--format", "json", "--method-budget", "5000", "."],
    );
    assert_eq!(run.code, Some(0), "{}", run.stdout);
    let found = findings(&run.stdout);
    assert!(
        found.contains(&("RLC9005".to_owned(), "Costly.cs".to_owned(), 2)),
        "{}",
        run.stdout
    );
}

/// Special files are refused without being read: a symlink to `/dev/zero`
/// would read without end and a FIFO would block. Named on the command line
/// they, and unreadable files, are usage errors (exit 2).
#[cfg(unix)]
#[test]
fn special_and_unreadable_files_are_refused_without_reading_them() {
    use std::os::unix::fs::PermissionsExt;

    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "Ok.cs",
        format!("class A {{ void M() {{ {LEAK} }} }}\n"),
    );
    std::os::unix::fs::symlink("/dev/zero", root.join("Zero.cs")).unwrap();
    let fifo = std::process::Command::new("mkfifo")
        .arg(root.join("Pipe.cs"))
        .status()
        .unwrap();
    assert!(fifo.success());

    // In a directory they are not sources (only regular files are).
    let run = rlc(root, &["check", "--format", "json", "."]);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    let found = findings(&run.stdout);
    assert!(has(&found, "RLC0001", "Ok.cs"), "{found:?}");
    assert!(
        !found
            .iter()
            .any(|f| f.1.contains("Zero") || f.1.contains("Pipe")),
        "{found:?}"
    );

    for name in ["Zero.cs", "Pipe.cs"] {
        let run = rlc(root, &["check", name]);
        assert_eq!(run.code, Some(2), "{name}: {}", run.stderr);
        assert!(run.stderr.contains("not a regular file"), "{}", run.stderr);
    }

    write(root, "Secret.cs", "class S { }");
    let secret = root.join("Secret.cs");
    std::fs::set_permissions(&secret, std::fs::Permissions::from_mode(0o000)).unwrap();
    // Root reads it anyway; the case is only meaningful for other users.
    if std::fs::File::open(&secret).is_err() {
        let run = rlc(root, &["check", "Secret.cs"]);
        assert_eq!(run.code, Some(2), "{}", run.stderr);
        assert!(run.stderr.contains("Secret.cs"), "{}", run.stderr);
    }
}

#[test]
fn quiet_prints_the_findings_without_the_stats_and_timings_blocks() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "Leak.cs",
        format!("class A {{ void M() {{ {LEAK} }} }}\n"),
    );
    let loud = rlc(root, &["check", "--stats", "--timings", "Leak.cs"]);
    assert_eq!(loud.code, Some(1), "{loud:?}");
    assert!(
        loud.stderr.contains("calls resolved:") && loud.stderr.contains("total"),
        "{loud:?}"
    );
    let quiet = rlc(root, &["check", "-q", "--stats", "--timings", "Leak.cs"]);
    assert_eq!(quiet.code, Some(1), "{quiet:?}");
    assert!(quiet.stdout.contains("error[RLC0001]"), "{quiet:?}");
    assert!(
        !quiet.stderr.contains("calls resolved:") && !quiet.stderr.contains("total"),
        "{quiet:?}"
    );
    // The machine formats keep the statistics in their summary.
    let json = rlc(
        root,
        &["check", "-q", "--stats", "--format", "json", "Leak.cs"],
    );
    let report: Value = serde_json::from_str(&json.stdout).expect("JSON");
    assert!(
        report["summary"]["stats"]["files"].as_u64() == Some(1),
        "{json:?}"
    );
    assert!(!json.stderr.contains("calls resolved:"), "{json:?}");
}

#[test]
fn stats_name_the_slowest_files() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "Small.cs", "class S { }\n");
    let methods: String = (0..2_000)
        .map(|i| format!("    void M{i}() {{ using (var s = new System.IO.MemoryStream()) {{ s.WriteByte(1); }} }}\n"))
        .collect();
    write(root, "Big.cs", format!("class B {{\n{methods}}}\n"));
    let json = rlc(root, &["check", "--stats", "--format", "json", "."]);
    assert_eq!(json.code, Some(0), "{json:?}");
    let report: Value = serde_json::from_str(&json.stdout).expect("JSON");
    let slowest = report["summary"]["stats"]["slowest_files"]
        .as_array()
        .expect("slowest_files");
    let names: Vec<&str> = slowest.iter().filter_map(|f| f["file"].as_str()).collect();
    assert_eq!(names, ["Big.cs", "Small.cs"], "{slowest:?}");
    let ms: Vec<f64> = slowest.iter().filter_map(|f| f["ms"].as_f64()).collect();
    assert!(ms[0] > ms[1], "{slowest:?}");
    let text = rlc(root, &["check", "--stats", "."]);
    assert!(
        text.stderr.contains("slowest files (parse + check):") && text.stderr.contains("Big.cs"),
        "{}",
        text.stderr
    );
}

#[test]
fn a_finding_on_a_huge_line_shows_a_window_of_it() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let data = vec!["1"; 500_000].join(", ");
    let line = format!(
        "    static int[] D = {{ {data} }}; void M() {{ {LEAK} }} static int[] E = {{ {data} }};"
    );
    write(root, "Big.cs", format!("class A {{\n{line}\n}}\n"));
    let run = rlc(root, &["check", "Big.cs"]);
    assert_eq!(run.code, Some(1), "{}", &run.stderr);
    assert!(run.stdout.len() < 4_000, "{} bytes", run.stdout.len());
    let col = line.find("new System.IO.FileStream").unwrap() + 1;
    assert!(
        run.stdout.contains(&format!("--> Big.cs:2:{col}")),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("2 | ..., 1, 1")
            && run.stdout.contains("static int[] E = { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, ...\n")
            && run.stdout.contains("var s = new System.IO.FileStream(")
            && run.stdout.contains("^^^^"),
        "{}",
        run.stdout
    );
}

#[test]
fn utf16_without_a_byte_order_mark_is_read_as_source() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let text = format!("// Größe\r\nclass A {{\r\n    void M() {{ {LEAK} }}\r\n}}\r\n");
    let le: Vec<u8> = text.encode_utf16().flat_map(|u| u.to_le_bytes()).collect();
    let be: Vec<u8> = text.encode_utf16().flat_map(|u| u.to_be_bytes()).collect();
    write(root, "Le.cs", le);
    write(root, "Be.cs", be);
    let run = rlc(root, &["check", "--format", "json", "."]);
    let found = findings(&run.stdout);
    assert!(
        has(&found, "RLC0001", "Le.cs") && has(&found, "RLC0001", "Be.cs"),
        "{found:?}"
    );
    assert!(
        !found.iter().any(|(r, _, _)| r == "RLC9003"),
        "no file is called undecodable: {found:?}"
    );
    let leak_line = found
        .iter()
        .find(|(r, f, _)| r == "RLC0001" && f.ends_with("Le.cs"))
        .map(|(_, _, l)| *l);
    assert_eq!(leak_line, Some(3));
}

#[cfg(unix)]
#[test]
fn a_file_name_that_is_not_utf8_keeps_its_bytes_in_json_and_sarif() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let name = std::ffi::OsStr::from_bytes(b"caf\xE9 1.cs");
    let source = format!("class A {{ void M() {{ {LEAK} }} }}\n");
    if std::fs::write(root.join(name), source).is_err() {
        // A file system that only takes UTF-8 names (APFS): nothing to test.
        return;
    }
    let json = rlc(root, &["check", "--format", "json", "."]);
    let report: Value = serde_json::from_str(&json.stdout).expect("JSON");
    let leak = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule"] == "RLC0001")
        .unwrap_or_else(|| panic!("{}", json.stdout));
    assert_eq!(leak["file"], "caf\u{FFFD} 1.cs", "{leak}");
    assert_eq!(leak["file_uri"], "caf%E9%201.cs", "{leak}");
    assert_eq!(leak["labels"][0]["file_uri"], "caf%E9%201.cs", "{leak}");
    // Names that are UTF-8 have no `file_uri`.
    assert!(
        !json.stdout.contains("\"file_uri\": \"/")
            && report["findings"][0].get("file_uri").is_none(),
        "{}",
        json.stdout
    );
    let sarif = rlc(root, &["check", "--format", "sarif", "."]);
    let log: Value = serde_json::from_str(&sarif.stdout).expect("SARIF");
    let uris: Vec<&str> = log["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|r| r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].as_str())
        .collect();
    assert!(uris.contains(&"caf%E9%201.cs"), "{uris:?}");
}

/// C# the grammar alone rejects or misreads (pointer dereferences of casts,
/// `allows ref struct`, `ref partial struct`, C# 14 extension blocks, raw
/// interpolated strings with literal braces): no syntax-error note, and the
/// leaks in and around them are found.
#[test]
fn newer_csharp_syntax_is_read_without_syntax_errors() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let source = format!(
        "using System.IO;\n\
         public static class E {{\n\
         \x20   extension(string s) {{\n\
         \x20       public int Twice() {{ {LEAK} return s.Length * 2; }}\n\
         \x20   }}\n\
         \x20   extension(string) {{ public static int Z() => 1; }}\n\
         }}\n\
         public unsafe class P {{\n\
         \x20   public ref partial struct R {{ }}\n\
         \x20   float M<T>(T t, byte* b) where T : allows ref struct {{ *(int*)b = 1; {LEAK} return *(float*)b; }}\n\
         \x20   string N(int x) {{ {LEAK} return $$\"\"\"{{{{{{x}}}}}}\"\"\"; }}\n\
         }}\n"
    );
    write(root, "New.cs", source);
    assert_eq!(leak_lines_without_syntax_errors(root), [4, 10, 11]);
}

/// Constructs of real repositories tree-sitter-c-sharp 0.23.5 rejects, each
/// in a method with a leak: every leak is found, and no syntax error noted.
/// (`*--ip` alone turned sharpcompress's whole class into one ERROR node.)
#[test]
fn unsafe_code_lambda_modifiers_and_keyword_names_are_read() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let source = format!(
        "using System.Linq;\n\
         public delegate int R(in int k, ref int v);\n\
         public unsafe class P {{\n\
         \x20   static void F(byte b) {{ }}\n\
         \x20   void A(byte* ip) {{ {LEAK} F(*--ip); }}\n\
         \x20   long B(byte* p) {{ {LEAK} return ((long)*(uint*)(p + 24) << 32) | *(uint*)(p + 28); }}\n\
         \x20   void C(int** samples, int j) {{ {LEAK} *samples[j]++ = 1; *--samples[j] = 2; }}\n\
         \x20   int D() {{ {LEAK} R r = (in int k, ref int v) => k + v; R q = (in _, ref _) => 0; return 0; }}\n\
         \x20   int E(System.Collections.Generic.List<int> partial) {{ {LEAK} partial.Select(x => x); var with = partial; return with.Count; }}\n\
         \x20   void G() {{ {LEAK} }}\n\
         }}\n"
    );
    write(root, "Real.cs", source);
    assert_eq!(leak_lines_without_syntax_errors(root), [5, 6, 7, 8, 9, 10]);
}

/// A statement the parser cannot read costs that statement only: one located
/// note, the leaks before and after it in the same method and in the rest of
/// the class are found, and a value the broken statement names is not called
/// leaked (what it does with it is unknown).
#[test]
fn a_syntax_error_costs_only_its_statement() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let source = format!(
        "class A {{\n\
         \x20   void M(int y) {{\n\
         \x20       {LEAK}\n\
         \x20       if (y > 0) {{ y = (y +) * 2; }}\n\
         \x20       var t = new System.IO.FileStream(\"t\", System.IO.FileMode.Open);\n\
         \x20   }}\n\
         \x20   void N() {{\n\
         \x20       {LEAK}\n\
         \x20       Close(s +);\n\
         \x20   }}\n\
         \x20   void O() {{ {LEAK} }}\n\
         \x20   void Close(object o) {{ }}\n\
         }}\n\
         class B {{ void M() {{ {LEAK} }} }}\n"
    );
    write(root, "Broken.cs", source);
    let run = rlc(root, &["check", "--format", "json", "."]);
    let found = findings(&run.stdout);
    let at = |rule: &str| -> Vec<u64> {
        found
            .iter()
            .filter(|(r, _, _)| r == rule)
            .map(|(_, _, l)| *l)
            .collect()
    };
    assert_eq!(at("RLC9001"), [4], "{found:?}");
    assert_eq!(at("RLC0001"), [3, 5, 11, 14], "{found:?}");
}

/// A source that is not UTF-8 and has no byte-order mark (log4net's
/// `Transform.cs` has one Windows-1252 byte in a comment) is read as
/// Windows-1252, as csc reads it, and analysed: a note at that byte, and
/// findings at the file's own lines and columns.
#[test]
fn a_source_in_windows_1252_is_analysed_with_a_located_note() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let mut source =
        b"// Copyright \xA9 caf\xE9\nclass A {\n    void M() { /* \xE9\xE9 */ ".to_vec();
    source.extend_from_slice(LEAK.as_bytes());
    source.extend_from_slice(b" }\n}\n");
    write(root, "Legacy.cs", &source);
    let run = rlc(root, &["check", "--format", "json", "."]);
    let report: Value = serde_json::from_str(&run.stdout).expect("the report is JSON");
    let located: Vec<(&str, u64, u64)> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["rule"].as_str().unwrap(),
                f["line"].as_u64().unwrap(),
                f["column"].as_u64().unwrap(),
            )
        })
        // Not the note that there is no project file.
        .filter(|(rule, _, _)| *rule != "RLC9002")
        .collect();
    // `©` is byte 14 of line 1, `new` byte 33 of line 3 (after two `é`).
    assert_eq!(
        located,
        [("RLC9006", 1, 14), ("RLC0001", 3, 33)],
        "{located:?}"
    );
    assert!(!run.stdout.contains("RLC9003"), "{}", run.stdout);
    // The human report shows the line as the file has it.
    let human = rlc(root, &["check", "."]);
    assert!(human.stdout.contains("note[RLC9006]"), "{}", human.stdout);
    assert!(human.stdout.contains("/* éé */ var s"), "{}", human.stdout);
}
