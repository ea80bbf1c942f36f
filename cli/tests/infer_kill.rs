//! `infer --apply` killed at any point leaves a tree that is either
//! untouched or that a re-run (`--apply --allow-dirty`, the tree being dirty)
//! brings to exactly the result of an uninterrupted run, with no temporary
//! `.rlc-sharp-*` file left. Kills come at every write point, through the
//! binary's crash hook (`RLC_SHARP_TEST_CRASH_AT`), and as SIGKILLs after
//! seeded random delays.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn git(dir: &Path, args: &[&str]) {
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
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A class whose field, constructor and `Dispose` inference annotates.
fn holder(name: &str) -> String {
    format!(
        "using System;\nusing System.IO;\n\nnamespace App\n{{\n    class {name} : IDisposable\n    {{\n        \
         private readonly Stream _s;\n        public {name}(Stream s) {{ _s = s; }}\n        \
         public void Dispose() {{ _s.Dispose(); }}\n    }}\n}}\n"
    )
}

/// A committed repository with a project whose files in two directories get
/// attributes, and the definitions file `infer` adds.
fn repo(dir: &Path) {
    write(
        &dir.join("src/App.csproj"),
        "<Project Sdk=\"Microsoft.NET.Sdk\"><PropertyGroup>\
         <TargetFramework>net8.0</TargetFramework></PropertyGroup></Project>",
    );
    write(&dir.join("src/Alpha.cs"), &holder("Alpha"));
    write(&dir.join("src/Beta.cs"), &holder("Beta"));
    write(&dir.join("src/Sub/Gamma.cs"), &holder("Gamma"));
    git(dir, &["init", "-q"]);
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", "base"]);
}

/// Every file of the tree but `.git`, by relative path.
fn snapshot(root: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<PathBuf, Vec<u8>>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let entry = entry.unwrap();
            let path = entry.path();
            if entry.file_name() == ".git" {
                continue;
            }
            if entry.file_type().unwrap().is_dir() {
                walk(root, &path, out);
            } else {
                let rel = path.strip_prefix(root).unwrap().to_path_buf();
                out.insert(rel, std::fs::read(&path).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(root, root, &mut out);
    out
}

fn infer(dir: &Path, extra: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_rlc-sharp"));
    cmd.args(["infer", "--apply"])
        .args(extra)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env_remove("RLC_SHARP_TEST_CRASH_AT")
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    cmd
}

/// After a killed run: untouched, or repaired by a re-run into `expected`.
/// Returns whether the tree had been touched.
fn check_after_kill(
    dir: &Path,
    pristine: &BTreeMap<PathBuf, Vec<u8>>,
    expected: &BTreeMap<PathBuf, Vec<u8>>,
    what: &str,
) -> bool {
    let left = snapshot(dir);
    if &left == pristine {
        return false;
    }
    let out = infer(dir, &["--allow-dirty"]).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{what}: the re-run failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let repaired = snapshot(dir);
    let temps: Vec<&PathBuf> = repaired
        .keys()
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with(".rlc-sharp-"))
        })
        .collect();
    assert!(temps.is_empty(), "{what}: left {temps:?}");
    if &repaired != expected {
        let differ: Vec<&PathBuf> = expected
            .keys()
            .chain(repaired.keys())
            .filter(|p| expected.get(*p) != repaired.get(*p))
            .collect();
        panic!(
            "{what}: the re-run's tree differs from an uninterrupted run's in {differ:?}:\n{}",
            differ
                .iter()
                .map(|p| format!(
                    "--- {}\n{}",
                    p.display(),
                    String::from_utf8_lossy(repaired.get(*p).map_or(&[][..], |v| v))
                ))
                .collect::<String>()
        );
    }
    true
}

#[cfg(unix)]
#[test]
fn a_killed_apply_is_untouched_or_repaired_by_a_rerun() {
    let base = tempfile::tempdir().unwrap();
    let reference = base.path().join("reference");
    repo(&reference);
    let pristine = snapshot(&reference);
    let started = Instant::now();
    let out = infer(&reference, &[]).output().unwrap();
    let full_run = started.elapsed();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let expected = snapshot(&reference);
    // Three sources and the definitions file.
    let written = expected
        .iter()
        .filter(|(p, v)| pristine.get(*p) != Some(*v))
        .count();
    assert_eq!(written, 4, "{:?}", expected.keys());

    // Every write point: a temporary file half written, written, renamed.
    let mut touched = 0;
    for point in 1..=3 * written {
        let dir = base.path().join(format!("crash-{point}"));
        repo(&dir);
        let out = infer(&dir, &[])
            .env("RLC_SHARP_TEST_CRASH_AT", point.to_string())
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            None,
            "crash point {point} was not reached"
        );
        touched += usize::from(check_after_kill(
            &dir,
            &pristine,
            &expected,
            &format!("crash point {point}"),
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }
    // The first point leaves a temporary file: each one touches the tree.
    assert_eq!(touched, 3 * written);

    // SIGKILL at seeded random moments of a run (most fall before the writes).
    let mut rng = fastrand::Rng::with_seed(14);
    for attempt in 0..6 {
        let dir = base.path().join(format!("kill-{attempt}"));
        repo(&dir);
        let delay = full_run.mul_f64(rng.f64() * 1.2);
        let mut child = infer(&dir, &[]).spawn().unwrap();
        std::thread::sleep(delay.max(Duration::from_millis(1)));
        // It may have finished already; then the tree is the expected one.
        let _ = child.kill();
        let status = child.wait().unwrap();
        let what = format!("SIGKILL after {delay:?} (exit {status})");
        if status.success() {
            assert_eq!(snapshot(&dir), expected, "{what}");
        } else {
            check_after_kill(&dir, &pristine, &expected, &what);
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
