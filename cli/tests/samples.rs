//! The bundled samples, end to end through the binary:
//! - `check` reports exactly the lines marked `// LEAK:` (human and SARIF output
//!   are golden files);
//! - `infer` gives a patch that `git apply` takes, after which the files still
//!   parse, still compile with mono's `mcs` (C# 7.2), inferring again gives an
//!   empty patch, and `check --no-infer` reports no more than `check` did.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{assert_golden, rlc};

const SAMPLES: [&str; 3] = ["file-tool", "data-access", "http-service"];

fn samples_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("samples")
}

/// `file.cs:line` of every `// LEAK:` marker in a sample.
fn leak_markers(sample: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut files: Vec<PathBuf> = std::fs::read_dir(sample)
        .expect("sample directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "cs"))
        .collect();
    files.sort();
    for f in files {
        let text = std::fs::read_to_string(&f).expect("read sample");
        let name = f
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("")
            .to_string();
        for (i, line) in text.lines().enumerate() {
            if line.contains("// LEAK:") {
                out.push(format!("{name}:{}", i + 1));
            }
        }
    }
    out
}

/// `file.cs:line` of every finding in JSON output.
fn finding_lines(json: &str) -> Vec<String> {
    let v: serde_json::Value = serde_json::from_str(json).expect("json output");
    let mut out: Vec<String> = v["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| {
            let file = f["file"].as_str().unwrap_or("");
            let name = file.rsplit('/').next().unwrap_or(file);
            format!("{name}:{}", f["line"])
        })
        .collect();
    out.sort();
    // Several rules may describe one leak (an overwritten owning field is RLC0004 and RLC0009).
    out.dedup();
    out
}

#[test]
fn check_reports_exactly_the_marked_leaks() {
    for s in SAMPLES {
        let dir = samples_dir().join(s);
        let run = rlc(&dir, &["check", ".", "--format", "json"]);
        assert_eq!(run.code, Some(1), "{s}: {}", run.stderr);
        let mut want = leak_markers(&dir);
        want.sort();
        assert_eq!(finding_lines(&run.stdout), want, "{s}");
    }
}

#[test]
fn check_output_matches_the_golden_files() {
    for s in SAMPLES {
        let dir = samples_dir().join(s);
        let human = rlc(&dir, &["check", "."]);
        assert_golden(&format!("{s}.txt"), &human.stdout_for_golden(&dir));
        let sarif = rlc(&dir, &["check", ".", "--format", "sarif"]);
        let root = std::fs::canonicalize(&dir).unwrap_or(dir.clone());
        assert_golden(&format!("{s}.sarif"), &sarif.stdout_for_golden(&root));
    }
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

fn count_findings(dir: &Path, extra: &[&str]) -> usize {
    let mut args = vec!["check", ".", "--format", "json"];
    args.extend_from_slice(extra);
    let run = rlc(dir, &args);
    let v: serde_json::Value = serde_json::from_str(&run.stdout).expect("json output");
    v["findings"].as_array().map_or(0, Vec::len)
}

/// Compiles a sample with mono's C# compiler at C# 7.2.
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
    let out = Command::new("mcs")
        .arg("-langversion:7.2")
        .arg(format!("-target:{target}"))
        .arg(format!("-out:{}", dir.join("out.bin").display()))
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
fn inferred_patches_apply_compile_and_round_trip() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let repo = tmp.path();
    copy_dir(&samples_dir(), repo);
    assert!(git(repo, &["init", "-q"]).status.success());
    git(repo, &["add", "-A"]);
    let commit = git(
        repo,
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
    for s in SAMPLES {
        let dir = repo.join(s);
        let before = count_findings(&dir, &[]);
        let patch = rlc(&dir, &["infer", "."]);
        assert_eq!(patch.code, Some(0), "{s}: {}", patch.stderr);
        assert!(!patch.stdout.is_empty(), "{s}: inference proposed nothing");
        let patch_file = repo.join(format!("{s}.patch"));
        std::fs::write(&patch_file, &patch.stdout).expect("write patch");
        let check = git(
            repo,
            &["apply", "--check", patch_file.to_str().unwrap_or("")],
        );
        assert!(
            check.status.success(),
            "{s}: {}",
            String::from_utf8_lossy(&check.stderr)
        );
        assert!(
            git(repo, &["apply", patch_file.to_str().unwrap_or("")])
                .status
                .success()
        );
        // The patched sources parse cleanly: no syntax-error notes.
        let json = rlc(&dir, &["check", ".", "--format", "json", "--stats"]);
        let v: serde_json::Value = serde_json::from_str(&json.stdout).expect("json");
        assert_eq!(v["summary"]["stats"]["syntax_error_files"], 0, "{s}");
        // Inferring again finds everything in place.
        let again = rlc(&dir, &["infer", ".", "--check"]);
        assert_eq!(
            again.code,
            Some(0),
            "{s}: patch not idempotent:\n{}",
            again.stdout
        );
        assert!(again.stdout.is_empty(), "{s}: {}", again.stdout);
        // The written specs do what the inferred ones did.
        let after = count_findings(&dir, &["--no-infer"]);
        assert!(
            after <= before,
            "{s}: {after} findings with the written specs, {before} with inferred ones"
        );
        if let Err(e) = mcs(&dir, s) {
            panic!("{s} does not compile after the patch: {e}");
        }
    }
}
