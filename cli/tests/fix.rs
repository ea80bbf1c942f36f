//! `rlc-sharp fix` end to end on copies of the bundled samples: the patch
//! applies, `--apply` leaves files that parse, compile with mono's `mcs`
//! (C# 7.2, the samples' `LangVersion`) and re-check with fewer findings and
//! no new one; `--apply` refuses a dirty tree; `--rule` and `--only` choose
//! the findings.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::rlc;

const SAMPLES: [&str; 3] = ["file-tool", "data-access", "http-service"];

fn samples_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("samples")
}

fn git(dir: &Path, args: &[&str]) -> std::process::Output {
    Command::new("git")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("git runs")
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("read dir").flatten() {
        let p = e.path();
        if p.is_dir() {
            copy_dir(&p, &to.join(e.file_name()));
        } else {
            std::fs::copy(&p, to.join(e.file_name())).expect("copy");
        }
    }
}

/// The samples in a fresh git repository, committed.
fn repo() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().expect("temp dir");
    copy_dir(&samples_dir(), tmp.path());
    assert!(git(tmp.path(), &["init", "-q"]).status.success());
    git(tmp.path(), &["add", "-A"]);
    let commit = git(
        tmp.path(),
        &[
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "commit",
            "-qm",
            "samples",
        ],
    );
    assert!(
        commit.status.success(),
        "{}",
        String::from_utf8_lossy(&commit.stderr)
    );
    tmp
}

/// Findings by rule and fingerprint without its occurrence number (a fix
/// above a finding in the same member renumbers it), and how many.
fn findings(dir: &Path) -> (BTreeMap<String, usize>, serde_json::Value) {
    let run = rlc(dir, &["check", ".", "--format", "json", "--stats"]);
    let v: serde_json::Value = serde_json::from_str(&run.stdout).expect("json output");
    let mut groups = BTreeMap::new();
    for f in v["findings"].as_array().expect("findings") {
        let fp = f["fingerprint"].as_str().unwrap_or("");
        let group = fp.rsplit_once(':').map_or(fp, |(head, _)| head);
        *groups.entry(group.to_owned()).or_insert(0) += 1;
    }
    (groups, v)
}

fn mcs(dir: &Path, sample: &str) -> Result<(), String> {
    let (target, refs): (&str, &[&str]) = match sample {
        "file-tool" => ("exe", &[]),
        "data-access" => ("library", &["-r:System.Data.dll"]),
        _ => ("library", &["-r:System.Net.Http.dll"]),
    };
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| e.to_string())?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "cs"))
        .collect();
    files.sort();
    // The assembly goes outside the repository: `fix --apply` refuses a dirty tree.
    let out_dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let out = Command::new("mcs")
        .arg("-langversion:7.2")
        .arg(format!("-target:{target}"))
        .arg(format!("-out:{}", out_dir.path().join("out.bin").display()))
        .args(refs)
        .args(&files)
        .output()
        .map_err(|e| format!("cannot run mcs ({e}); install Debian's mono-mcs (CI installs it)"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

#[test]
fn applied_fixes_parse_compile_and_leave_fewer_findings() {
    let tmp = repo();
    for s in SAMPLES {
        let dir = tmp.path().join(s);
        let (before, _) = findings(&dir);
        let total_before: usize = before.values().sum();
        // The patch applies to the tree it was made from.
        let patch = rlc(&dir, &["fix", "."]);
        assert_eq!(patch.code, Some(0), "{s}: {}", patch.stderr);
        assert!(
            patch.stdout.starts_with("diff --git a/"),
            "{s}: {}",
            patch.stdout
        );
        let file = tmp.path().join(format!("{s}.patch"));
        std::fs::write(&file, &patch.stdout).expect("write patch");
        let applies = git(
            tmp.path(),
            &["apply", "--check", file.to_str().unwrap_or("")],
        );
        assert!(
            applies.status.success(),
            "{s}: {}",
            String::from_utf8_lossy(&applies.stderr)
        );
        std::fs::remove_file(&file).expect("remove patch");

        let applied = rlc(&dir, &["fix", ".", "--apply"]);
        assert_eq!(applied.code, Some(0), "{s}: {}", applied.stderr);
        assert!(
            applied.stderr.contains("each fix verified"),
            "{s}: {}",
            applied.stderr
        );
        let (after, v) = findings(&dir);
        assert_eq!(v["summary"]["stats"]["syntax_error_files"], 0, "{s}");
        let total_after: usize = after.values().sum();
        assert!(
            total_after < total_before,
            "{s}: {total_after} findings after, {total_before} before"
        );
        for (group, n) in &after {
            assert!(
                before.get(group).is_some_and(|b| n <= b),
                "{s}: a new finding after the fixes: {group}"
            );
        }
        if let Err(e) = mcs(&dir, s) {
            panic!("{s} does not compile after the fixes: {e}");
        }
        // What is left has no certain fix: a second run changes nothing.
        let again = rlc(&dir, &["fix", "."]);
        assert_eq!(again.code, Some(0), "{s}: {}", again.stderr);
        assert!(
            again.stdout.is_empty(),
            "{s}: fixes left after --apply:\n{}",
            again.stdout
        );
        git(tmp.path(), &["checkout", "-q", "--", "."]);
    }
}

#[test]
fn apply_refuses_a_dirty_tree_and_filters_choose_the_findings() {
    let tmp = repo();
    let dir = tmp.path().join("file-tool");
    let log = dir.join("LogWriter.cs");
    let text = std::fs::read_to_string(&log).expect("read");
    std::fs::write(&log, format!("{text}\n")).expect("write");
    let refused = rlc(&dir, &["fix", ".", "--apply"]);
    assert_eq!(refused.code, Some(2), "{}", refused.stderr);
    assert!(
        refused
            .stderr
            .contains("uncommitted changes: file-tool/LogWriter.cs"),
        "{}",
        refused.stderr
    );
    assert_eq!(
        std::fs::read_to_string(&log).expect("read"),
        format!("{text}\n"),
        "nothing edited"
    );
    git(tmp.path(), &["checkout", "-q", "--", "."]);

    // --rule: only the overwritten field of LogWriter.cs.
    let only_rule = rlc(&dir, &["fix", ".", "--rule", "RLC0004"]);
    assert_eq!(only_rule.code, Some(0), "{}", only_rule.stderr);
    assert!(
        only_rule
            .stdout
            .contains("+            _current?.Dispose();\n"),
        "{}",
        only_rule.stdout
    );
    assert_eq!(
        only_rule.stdout.matches("diff --git").count(),
        1,
        "{}",
        only_rule.stdout
    );
    // --only: the files of one glob.
    let only_file = rlc(&dir, &["fix", ".", "--only", "Process*.cs"]);
    assert_eq!(only_file.code, Some(0), "{}", only_file.stderr);
    let files: Vec<&str> = only_file
        .stdout
        .lines()
        .filter(|l| l.starts_with("diff --git"))
        .collect();
    assert_eq!(
        files,
        ["diff --git a/file-tool/ProcessRunner.cs b/file-tool/ProcessRunner.cs"]
    );
    // A rule without fixes is a usage error.
    let bad = rlc(&dir, &["fix", ".", "--rule", "RLC0006"]);
    assert_eq!(bad.code, Some(2));
    assert!(bad.stderr.contains("no fixes"), "{}", bad.stderr);
    // --output writes the patch to a file.
    let out = tmp.path().join("fixes.patch");
    let written = rlc(
        &dir,
        &["fix", ".", "-q", "--output", out.to_str().unwrap_or("")],
    );
    assert_eq!(written.code, Some(0), "{}", written.stderr);
    assert!(written.stderr.is_empty(), "{}", written.stderr);
    assert!(
        std::fs::read_to_string(&out)
            .expect("patch")
            .contains("using (var process")
    );
}
