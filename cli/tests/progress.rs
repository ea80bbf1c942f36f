//! Progress on standard error: shown on a terminal (a pseudo-terminal made
//! by util-linux's `script`), never when piped, with `-q`, in a machine
//! format or under CI.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

fn sample() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("samples")
        .join("file-tool")
}

/// What `rlc-sharp check <sample> <args>` writes to standard error when
/// that is a terminal (standard output goes to /dev/null); `ci` sets `CI`.
fn on_terminal(args: &str, ci: bool) -> String {
    let command = format!(
        "'{}' check '{}' {args} > /dev/null",
        env!("CARGO_BIN_EXE_rlc-sharp"),
        sample().display()
    );
    let mut script = Command::new("script");
    script
        .args(["-qec", &command, "/dev/null"])
        .env("TERM", "xterm")
        .env_remove("CI");
    if ci {
        script.env("CI", "true");
    }
    let out = script
        .output()
        .expect("util-linux's `script` runs (apt-get install bsdutils)");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn progress_is_shown_on_a_terminal_only() {
    let shown = on_terminal("", false);
    assert!(shown.contains("parse + index"), "{shown:?}");
    assert!(shown.contains(" files ("), "files per second: {shown:?}");
    assert!(shown.contains("bodies ("), "{shown:?}");
    for (args, ci) in [
        ("-q", false),
        ("--format json", false),
        ("--format sarif", false),
        ("", true),
    ] {
        let out = on_terminal(args, ci);
        assert!(!out.contains("parse + index"), "{args} CI={ci}: {out:?}");
    }
}

#[test]
fn nothing_on_a_pipe() {
    let run = common::rlc(&sample(), &["check", "."]);
    assert_eq!(run.code, Some(1));
    // The sample is not restored: the note saying so, once, is all.
    let (note, rest): (Vec<&str>, Vec<&str>) = run
        .stderr
        .lines()
        .partition(|l| l.starts_with("note: no referenced assembly was read"));
    assert_eq!(note.len(), 1, "{}", run.stderr);
    assert!(
        rest.is_empty(),
        "standard error is a pipe: no progress: {rest:?}"
    );
    let run = common::rlc(&sample(), &["fix", ".", "-q"]);
    assert_eq!(run.code, Some(0));
    assert_eq!(run.stderr, "");
}
