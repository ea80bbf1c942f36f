//! Helpers for tests that run the built `rlc-sharp` and compare its output with
//! golden files under `cli/tests/golden/`. Set `UPDATE_GOLDEN=1` to rewrite the
//! golden files from the current output (then review the diff).

#![allow(dead_code)] // Each test binary uses a different part of this module.

use std::path::{Path, PathBuf};
use std::process::Command;

/// What one run of the binary printed, and how it exited.
#[derive(Debug)]
pub struct Run {
    pub stdout: String,
    pub stderr: String,
    /// `None` when killed by a signal.
    pub code: Option<i32>,
}

impl Run {
    /// `stdout` with `root` (the checked directory, however the binary printed
    /// it) replaced by `$ROOT` and Windows line endings and separators unified.
    pub fn stdout_for_golden(&self, root: &Path) -> String {
        normalize(&self.stdout, root)
    }
}

/// Runs `rlc-sharp args...` in `dir`, without colours and with a fixed terminal width.
pub fn rlc(dir: &Path, args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_rlc-sharp"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env("COLUMNS", "100")
        .output()
        .expect("the rlc-sharp binary runs");
    Run {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        code: out.status.code(),
    }
}

/// `cli/tests/golden/<name>`.
pub fn golden_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("golden")
        .join(name)
}

/// Compares `actual` with the golden file `name`, or rewrites the file when
/// `UPDATE_GOLDEN=1`.
pub fn assert_golden(name: &str, actual: &str) {
    let update = std::env::var_os("UPDATE_GOLDEN").is_some_and(|v| v == "1");
    if let Err(msg) = check_golden(&golden_path(name), actual, update) {
        panic!("{msg}");
    }
}

/// The comparison behind [`assert_golden`]: `Err` with a line diff when `actual`
/// differs from the file (or the file is missing) and `update` is off.
pub fn check_golden(path: &Path, actual: &str, update: bool) -> Result<(), String> {
    if update {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        return std::fs::write(path, actual).map_err(|e| format!("{}: {e}", path.display()));
    }
    let expected = std::fs::read_to_string(path).map_err(|e| {
        format!(
            "golden file {}: {e}; run with UPDATE_GOLDEN=1 to create it",
            path.display()
        )
    })?;
    let expected = expected.replace("\r\n", "\n");
    if expected == actual {
        return Ok(());
    }
    let diff = similar::TextDiff::from_lines(&expected, actual)
        .unified_diff()
        .header("golden", "actual")
        .to_string();
    Err(format!(
        "output differs from {}; run with UPDATE_GOLDEN=1 to accept it\n{diff}",
        path.display()
    ))
}

/// Replaces `root` by `$ROOT` and unifies line endings and path separators after it.
pub fn normalize(text: &str, root: &Path) -> String {
    let text = text.replace("\r\n", "\n");
    let mut roots = vec![root.display().to_string()];
    if let Ok(canonical) = root.canonicalize() {
        roots.push(canonical.display().to_string());
    }
    // Longest first, so that a canonical path is not half-replaced by a shorter alias.
    roots.sort_by_key(|r| std::cmp::Reverse(r.len()));
    roots
        .iter()
        .fold(text, |t, r| t.replace(r.as_str(), "$ROOT"))
        .replace("$ROOT\\", "$ROOT/")
}
