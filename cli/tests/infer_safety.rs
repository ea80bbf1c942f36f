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
