//! Patches that `git apply` takes: in a temporary repository, the patch
//! applies (and reverses) cleanly and gives exactly the annotated files.

mod annotate_support;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use annotate_support::{member, param, param_in, ret, syntax_errors, ty};
use rlc_csharp::annotate::{Annotation, annotate_file, definitions_for, unified_diff};
use rlc_csharp::project::Project;

fn git(dir: &Path, args: &[&str]) -> std::process::Output {
    Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .expect("git runs")
}

fn git_ok(dir: &Path, args: &[&str]) {
    let out = git(dir, args);
    assert!(
        out.status.success(),
        "git {args:?} failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

fn repo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    git_ok(dir.path(), &["init", "-q"]);
    // Byte-exact: no line-ending conversion whatever the user's config says.
    git_ok(dir.path(), &["config", "core.autocrlf", "false"]);
    dir
}

struct Case {
    rel: &'static str,
    text: String,
    annotations: fn(&str) -> Vec<Annotation>,
}

fn cases() -> Vec<Case> {
    vec![
        Case {
            rel: "src/Store/Lucene.cs",
            text: "using Lucene.Net.Support;\r\nusing System;\r\nusing System.IO;\r\n\r\nnamespace Lucene.Net.Store\r\n{\r\n    /*\r\n     * License.\r\n     */\r\n\r\n    /// <summary>Reads.</summary>\r\n    public sealed class Reader : IDisposable\r\n    {\r\n        private readonly Stream input;\r\n\r\n        public Reader(Stream input)\r\n        {\r\n            this.input = input;\r\n        }\r\n\r\n        public void Dispose()\r\n        {\r\n            input.Dispose();\r\n        }\r\n    }\r\n}\r\n".into(),
            annotations: |t| {
                vec![
                    ty(t, "class Reader", "Reader", "MustCall(\"Dispose\")"),
                    member(t, "Stream input;", "input", "Owning"),
                    param_in(t, "Reader(Stream input", "Stream input", "Owning"),
                    member(t, "void Dispose", "Dispose", "Calls(\"input\", \"Dispose\")"),
                ]
            },
        },
        Case {
            rel: "src/Ef/Context.cs",
            text: "\u{feff}// Licensed to the .NET Foundation.\n\nusing System.Data.Common;\n\nnamespace Microsoft.EntityFrameworkCore;\n\npublic class Context\n{\n    public DbConnection Connection => _connection;\n    private DbConnection _connection;\n}".into(),
            annotations: |t| vec![ret(t, "Connection =>", "Connection", "NotOwning")],
        },
        Case {
            rel: "src/With Space.cs",
            text: "class Spaced\n{\n    Stream Open() => null;\n}\n".into(),
            annotations: |t| vec![ret(t, "Stream Open", "Open", "NotOwning")],
        },
        Case {
            rel: "src/Café.cs",
            text: "class Café { void Use(Stream s) { s.Dispose(); } }\n".into(),
            annotations: |t| vec![param(t, "Stream s", "Owning")],
        },
    ]
}

fn project(dir: &Path, sdk: bool) -> Project {
    Project {
        name: dir.file_name().unwrap().to_string_lossy().into_owned(),
        path: Some(dir.join(format!(
            "{}.csproj",
            dir.file_name().unwrap().to_string_lossy()
        ))),
        sources: Vec::new(),
        references: Vec::new(),
        defines: Vec::new(),
        builds: Vec::new(),
        lang_version: None,
        target_frameworks: Vec::new(),
        global_usings: Vec::new(),
        sdk: None,
        is_sdk_style: sdk,
        assembly_name: None,
        root_namespace: None,
        test: None,
    }
}

#[test]
fn patch_applies_with_git_and_gives_the_annotated_files() {
    let repo = repo();
    let root = repo.path();
    let mut changes: Vec<(PathBuf, String, String)> = Vec::new();
    for case in cases() {
        let path = root.join(case.rel);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, &case.text).unwrap();
        let new = annotate_file(&case.text, &(case.annotations)(&case.text)).unwrap();
        assert_ne!(new, case.text, "{}", case.rel);
        assert!(
            syntax_errors(&new) <= syntax_errors(&case.text),
            "{}",
            case.rel
        );
        changes.push((path, case.text, new));
    }
    // Two projects without the definitions: SDK style (new file only) and
    // pre-SDK (new file plus a `<Compile Include>`).
    let sdk_dir = root.join("Sdk");
    let old_dir = root.join("Old");
    fs::create_dir_all(&sdk_dir).unwrap();
    fs::create_dir_all(&old_dir).unwrap();
    fs::write(
        sdk_dir.join("Sdk.csproj"),
        "<Project Sdk=\"Microsoft.NET.Sdk\">\n</Project>\n",
    )
    .unwrap();
    let old_csproj = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\r\n<Project ToolsVersion=\"15.0\" xmlns=\"http://schemas.microsoft.com/developer/msbuild/2003\">\r\n  <ItemGroup>\r\n    <Compile Include=\"Program.cs\" />\r\n  </ItemGroup>\r\n</Project>\r\n";
    fs::write(old_dir.join("Old.csproj"), old_csproj).unwrap();
    let mut new_files = Vec::new();
    for p in [project(&sdk_dir, true), project(&old_dir, false)] {
        let defs = definitions_for(&p, root).unwrap();
        assert_eq!(defs.project_file.is_some(), !p.is_sdk_style);
        changes.extend(defs.project_file);
        new_files.push(defs.file);
    }
    // A non-empty new file too, whatever the definitions hold on this branch.
    new_files.push((
        root.join("Sdk/Extra.cs"),
        "// extra\r\nclass Extra { }".into(),
    ));
    git_ok(root, &["add", "-A"]);
    git_ok(
        root,
        &[
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "commit",
            "-q",
            "-m",
            "base",
        ],
    );

    let patch = unified_diff(root, &changes, &new_files);
    assert!(
        patch.contains("--- a/src/With Space.cs\t\n+++ b/src/With Space.cs\t\n"),
        "{patch}"
    );
    assert!(
        patch.contains("diff --git \"a/src/Caf\\303\\251.cs\" \"b/src/Caf\\303\\251.cs\"\n"),
        "{patch}"
    );
    assert!(
        patch.contains("\n\\ No newline at end of file\n"),
        "{patch}"
    );
    let patch_path = root.join("rlc.patch");
    fs::write(&patch_path, &patch).unwrap();
    let patch_arg = patch_path.to_str().unwrap();
    // No whitespace errors (a CR before LF is the file's line ending, not one).
    git_ok(
        root,
        &[
            "-c",
            "core.whitespace=cr-at-eol",
            "apply",
            "--check",
            "--whitespace=error-all",
            patch_arg,
        ],
    );
    git_ok(root, &["apply", "--index", patch_arg]);
    for (path, _, new) in &changes {
        assert_eq!(
            fs::read_to_string(path).unwrap(),
            *new,
            "{}",
            path.display()
        );
    }
    for (path, text) in &new_files {
        assert_eq!(
            fs::read_to_string(path).unwrap(),
            *text,
            "{}",
            path.display()
        );
    }
    assert!(fs::read_to_string(old_dir.join("Old.csproj")).unwrap().contains("    <Compile Include=\"Program.cs\" />\r\n    <Compile Include=\"RlcSharpAnnotations.cs\" />\r\n"));
    // The same patch reverses cleanly, back to the committed files.
    git_ok(root, &["apply", "-R", "--index", patch_arg]);
    let status = git(root, &["status", "--porcelain"]);
    assert_eq!(String::from_utf8_lossy(&status.stdout), "?? rlc.patch\n");
}

#[test]
fn git_diff_agrees_on_what_changed() {
    // Cross-check with git's own diff of the same change: the same hunks,
    // function context included.
    let repo = repo();
    let root = repo.path();
    let case = &cases()[0];
    let path = root.join(case.rel);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(&path, &case.text).unwrap();
    git_ok(root, &["add", "-A"]);
    let new = annotate_file(&case.text, &(case.annotations)(&case.text)).unwrap();
    fs::write(&path, &new).unwrap();
    let theirs =
        String::from_utf8(git(root, &["diff", "--no-color", "--no-ext-diff", "-U3"]).stdout)
            .unwrap();
    let ours = unified_diff(root, &[(path, case.text.clone(), new)], &[]);
    let hunks = |d: &str| {
        d.lines()
            .filter(|l| !l.starts_with("index ") && !l.starts_with("diff "))
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    assert_eq!(hunks(&ours), hunks(&theirs));
}

#[test]
fn nothing_to_change_is_an_empty_patch() {
    let text = "using RlcSharp.Annotations;\nclass C { [Owning] Stream _s; }\n".to_owned();
    let new = annotate_file(&text, &[member(&text, "Stream _s", "_s", "Owning")]).unwrap();
    assert_eq!(
        unified_diff(
            Path::new("/r"),
            &[(PathBuf::from("/r/C.cs"), text, new)],
            &[]
        ),
        ""
    );
}
