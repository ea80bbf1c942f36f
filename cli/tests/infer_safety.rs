//! `infer` edits only what it may: one edit per file however many projects
//! compile it, never a file outside the repository or behind a symlink, and
//! `--apply` only on a clean tree, leaving no temporary files.

mod common;

use std::path::Path;
use std::process::Command;

use common::rlc;

fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@t"])
        .args(args)
        .current_dir(dir)
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A class whose field inference makes `[Owning]`.
fn holder(name: &str) -> String {
    format!(
        "using System;\nusing System.IO;\n\nclass {name} : IDisposable\n{{\n    \
         private readonly Stream _s;\n    public {name}(Stream s) {{ _s = s; }}\n    \
         public void Dispose() {{ _s.Dispose(); }}\n}}\n"
    )
}

#[cfg(unix)]
#[test]
fn shared_outside_and_linked_files_are_patched_safely() {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("repo");
    let project = |extra: &str| {
        format!(
            "<Project Sdk=\"Microsoft.NET.Sdk\"><ItemGroup>\
             <Compile Include=\"../Shared/Holder.cs\" />{extra}</ItemGroup></Project>"
        )
    };
    write(
        &repo.join("A/A.csproj"),
        &project("<Compile Include=\"../../outside/Ext.cs\" />"),
    );
    write(&repo.join("B/B.csproj"), &project(""));
    write(&repo.join("Shared/Holder.cs"), &holder("Holder"));
    write(&repo.join("Linked/Target.txt"), &holder("Linked"));
    std::os::unix::fs::symlink("../Linked/Target.txt", repo.join("A/Link.cs")).unwrap();
    write(&dir.path().join("outside/Ext.cs"), &holder("Ext"));
    git(&repo, &["init", "-q"]);
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-q", "-m", "base"]);

    let run = rlc(&repo, &["infer"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let patch = &run.stdout;
    assert_eq!(
        patch.matches("+++ b/Shared/Holder.cs").count(),
        1,
        "{patch}"
    );
    assert!(
        !patch.contains("Ext.cs") && !patch.contains("Link"),
        "{patch}"
    );
    assert!(
        run.stderr.contains("outside the repository"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("symbolic link"), "{}", run.stderr);
    let patch_file = dir.path().join("infer.patch");
    std::fs::write(&patch_file, patch).unwrap();
    git(&repo, &["apply", "--check", patch_file.to_str().unwrap()]);

    // Any untracked or changed file stops `--apply`, not only those it edits.
    write(&repo.join("notes.txt"), "mine");
    let run = rlc(&repo, &["infer", "--apply"]);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(run.stderr.contains("notes.txt"), "{}", run.stderr);
    assert_eq!(git(&repo, &["status", "--porcelain"]), "?? notes.txt\n");

    std::fs::remove_file(repo.join("notes.txt")).unwrap();
    let run = rlc(&repo, &["infer", "--apply"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let status = git(&repo, &["status", "--porcelain", "--untracked-files=all"]);
    assert!(status.contains(" M Shared/Holder.cs"), "{status}");
    assert!(!status.contains(".rlc-sharp-"), "{status}");
    assert!(
        !status.contains("Link") && !status.contains("Linked"),
        "{status}"
    );
    assert!(
        std::fs::symlink_metadata(repo.join("A/Link.cs"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("outside/Ext.cs")).unwrap(),
        holder("Ext")
    );
}

/// A multi-targeted project whose declarations sit in `#if` branches: the
/// targets found by each build are placed (the `#else` branch's too), a
/// header split by `#if` gets one attribute above it, the patch applies, and
/// the result compiles under both builds' symbols.
#[test]
fn declarations_inside_conditional_regions_are_annotated_in_place() {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path();
    write(
        &repo.join("App/App.csproj"),
        "<Project Sdk=\"Microsoft.NET.Sdk\"><PropertyGroup>\
         <TargetFrameworks>net462;net6.0</TargetFrameworks></PropertyGroup></Project>",
    );
    let source = "using System;\nusing System.IO;\n\nnamespace N\n{\n    public class Pool : IDisposable\n    {\n        private Stream _s = new MemoryStream();\n\n#if NET5_0_OR_GREATER\n        public Stream Get(int size)\n        {\n#else\n        public Stream Get()\n        {\n#endif\n            return _s;\n        }\n\n#if NET5_0_OR_GREATER\n        public void Consume(Stream s) { s.Dispose(); }\n#else\n        public Stream Borrow() => _s;\n#endif\n\n        public void Dispose() { _s.Dispose(); }\n    }\n}\n";
    write(&repo.join("App/Pool.cs"), source);
    git(repo, &["init", "-q"]);
    git(repo, &["add", "-A"]);
    git(repo, &["commit", "-q", "-m", "base"]);

    let run = rlc(repo, &["infer"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(!run.stderr.contains("not annotated"), "{}", run.stderr);
    let patch = &run.stdout;
    for line in [
        "+        [return: NotOwning]\n #if NET5_0_OR_GREATER\n         public Stream Get(int size)",
        "+        public void Consume([Owning] Stream s) { s.Dispose(); }",
        " #else\n+        [return: NotOwning]\n         public Stream Borrow() => _s;",
    ] {
        assert!(patch.contains(line), "{line} in\n{patch}");
    }
    let pool = patch
        .split("diff --git a/App/RlcSharpAnnotations.cs")
        .next();
    assert_eq!(
        pool.map(|p| p.matches("[return: NotOwning]").count()),
        Some(2),
        "{patch}"
    );
    let patch_file = dir.path().join("infer.patch");
    std::fs::write(&patch_file, patch).unwrap();
    git(repo, &["apply", patch_file.to_str().unwrap()]);
    if Command::new("mcs").arg("--version").output().is_err() {
        eprintln!("mcs is not installed: the patched code is not compiled");
        return;
    }
    for defines in [&["-d:NET5_0_OR_GREATER"][..], &[]] {
        let out = Command::new("mcs")
            .args(["-nologo", "-target:library"])
            .arg(format!("-out:{}", dir.path().join("out.dll").display()))
            .args(defines)
            .arg(repo.join("App/Pool.cs"))
            .arg(repo.join("App/RlcSharpAnnotations.cs"))
            .output()
            .expect("mcs runs");
        assert!(
            out.status.success(),
            "{defines:?}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// A tree an interrupted or older `infer --apply` left: sources that say
/// `using RlcSharp.Annotations;` without the definitions file, then with an
/// empty one. A re-run writes the definitions, and the run after that has
/// nothing to do.
#[test]
fn a_rerun_repairs_missing_or_empty_attribute_definitions() {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path();
    write(
        &repo.join("App/App.csproj"),
        "<Project Sdk=\"Microsoft.NET.Sdk\"><PropertyGroup>\
         <TargetFramework>net8.0</TargetFramework></PropertyGroup></Project>",
    );
    write(&repo.join("App/Holder.cs"), &holder("Holder"));
    git(repo, &["init", "-q"]);
    git(repo, &["add", "-A"]);
    git(repo, &["commit", "-q", "-m", "base"]);
    let run = rlc(repo, &["infer", "--apply"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let definitions = repo.join("App/RlcSharpAnnotations.cs");
    let full = std::fs::read_to_string(&definitions).expect("definitions written");
    assert!(
        std::fs::read_to_string(repo.join("App/Holder.cs"))
            .unwrap()
            .contains("using RlcSharp.Annotations;")
    );
    git(repo, &["add", "-A"]);
    git(repo, &["commit", "-q", "-m", "annotated"]);

    // Definitions missing: written again, nothing else changes.
    git(repo, &["rm", "-q", "App/RlcSharpAnnotations.cs"]);
    git(repo, &["commit", "-q", "-m", "lost"]);
    let run = rlc(repo, &["infer", "--apply"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(
        git(repo, &["status", "--porcelain"]),
        "?? App/RlcSharpAnnotations.cs\n",
        "{}",
        run.stderr
    );
    assert_eq!(std::fs::read_to_string(&definitions).unwrap(), full);
    git(repo, &["add", "-A"]);
    git(repo, &["commit", "-q", "-m", "repaired"]);

    // Empty, and cut short: rewritten in place (the patch modifies the file).
    for broken in ["", &full[..full.len() / 2]] {
        std::fs::write(&definitions, broken).unwrap();
        git(repo, &["commit", "-q", "-am", "broken"]);
        let patch = rlc(repo, &["infer"]);
        assert_eq!(patch.code, Some(0), "{}", patch.stderr);
        assert!(
            patch.stdout.contains("+++ b/App/RlcSharpAnnotations.cs")
                && !patch.stdout.contains("new file mode"),
            "{}",
            patch.stdout
        );
        let run = rlc(repo, &["infer", "--apply"]);
        assert_eq!(run.code, Some(0), "{}", run.stderr);
        assert_eq!(std::fs::read_to_string(&definitions).unwrap(), full);
        git(repo, &["commit", "-q", "-am", "repaired"]);
    }

    // A complete tree: nothing to do.
    let run = rlc(repo, &["infer", "--apply"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(run.stderr.contains("nothing to change"), "{}", run.stderr);
    assert_eq!(git(repo, &["status", "--porcelain"]), "");

    // A file of that name that is someone else's is left alone, with a warning.
    std::fs::write(&definitions, "// my own notes\nclass Mine { }\n").unwrap();
    git(repo, &["commit", "-q", "-am", "mine"]);
    let run = rlc(repo, &["infer", "--apply"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        run.stderr.contains("does not declare the attributes"),
        "{}",
        run.stderr
    );
    assert_eq!(git(repo, &["status", "--porcelain"]), "");
}
