//! The golden-file helper itself, and the binary's handling of a missing input.

mod common;

use common::{check_golden, normalize, rlc};

#[test]
fn golden_files_are_compared_and_updated() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("nested").join("out.txt");
    let missing = check_golden(&path, "a\n", false).expect_err("no golden yet");
    assert!(missing.contains("UPDATE_GOLDEN=1"), "{missing}");
    check_golden(&path, "a\nb\n", true).expect("written");
    check_golden(&path, "a\nb\n", false).expect("same");
    let diff = check_golden(&path, "a\nc\n", false).expect_err("differs");
    assert!(diff.contains("-b") && diff.contains("+c"), "{diff}");
    std::fs::write(&path, "a\r\nb\r\n").expect("write");
    check_golden(&path, "a\nb\n", false).expect("line endings do not matter");
}

#[test]
fn the_root_is_replaced() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    let text = format!(
        "{}/src/A.cs:1:1\r\n{}\\B.cs\n",
        root.display(),
        root.display()
    );
    assert_eq!(normalize(&text, root), "$ROOT/src/A.cs:1:1\n$ROOT/B.cs\n");
}

#[test]
fn a_missing_input_is_an_error_with_status_2() {
    let dir = tempfile::tempdir().expect("tempdir");
    let run = rlc(dir.path(), &["check", "does-not-exist.csproj"]);
    assert_eq!(run.code, Some(2), "{run:?}");
    assert!(run.stdout.is_empty(), "{run:?}");
    assert!(!run.stderr.is_empty(), "{run:?}");
}
