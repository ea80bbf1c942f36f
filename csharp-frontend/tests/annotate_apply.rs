//! `--apply`: dirty-tree detection with git, atomic writes, and reading
//! files so that writing them back keeps their bytes.

use std::fs;
use std::path::Path;
use std::process::Command;

use rlc_csharp::annotate::{
    ApplyError, ReadError, VcsError, apply_changes, dirty_files, read_source_text, repository_root,
    write_atomically,
};

fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn dirty_files_are_those_git_would_lose() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    git(root, &["init", "-q"]);
    fs::create_dir_all(root.join("src/sub")).unwrap();
    for name in ["Clean.cs", "Modified.cs", "Staged.cs", "sub/Renamed.cs"] {
        fs::write(root.join("src").join(name), "class C { }\n").unwrap();
    }
    git(root, &["add", "-A"]);
    git(
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
    fs::write(root.join("src/Modified.cs"), "class D { }\n").unwrap();
    fs::write(root.join("src/Staged.cs"), "class E { }\n").unwrap();
    git(root, &["add", "src/Staged.cs"]);
    git(root, &["mv", "src/sub/Renamed.cs", "src/sub/New name.cs"]);
    fs::write(root.join("src/Untracked.cs"), "class F { }\n").unwrap();
    // Every change in the tree counts, not only those of the files to edit.
    let dirty = dirty_files(&root.join("src"), &[root.join("src/Clean.cs")]).unwrap();
    let real_root = root.canonicalize().unwrap();
    let names: Vec<String> = dirty
        .iter()
        .map(|p| {
            let p = p.strip_prefix(&real_root).unwrap();
            p.to_string_lossy().replace('\\', "/")
        })
        .collect();
    assert_eq!(
        names,
        [
            "src/Modified.cs",
            "src/Staged.cs",
            "src/Untracked.cs",
            "src/sub/New name.cs",
            "src/sub/Renamed.cs",
        ]
    );
    // A file outside the working tree cannot be restored with git either.
    let elsewhere = tempfile::tempdir().unwrap();
    let outside = elsewhere.path().join("X.cs");
    assert!(
        dirty_files(root, std::slice::from_ref(&outside))
            .unwrap()
            .contains(&outside)
    );
    assert_eq!(
        repository_root(&root.join("src/sub/New name.cs")).as_deref(),
        Some(root)
    );
}

#[test]
fn outside_a_repository_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    if repository_root(dir.path()).is_some() {
        println!("skipped: the temporary directory is inside a git repository");
        return;
    }
    match dirty_files(dir.path(), &[dir.path().join("A.cs")]) {
        Err(VcsError::Status(message)) => {
            assert!(message.contains("not a git repository"), "{message}")
        }
        other => panic!("expected a git error, got {other:?}"),
    }
}

#[test]
fn source_text_keeps_the_byte_order_mark() {
    let dir = tempfile::tempdir().unwrap();
    let bom = dir.path().join("Bom.cs");
    fs::write(&bom, b"\xEF\xBB\xBFclass C { }\r\n").unwrap();
    let text = read_source_text(&bom).unwrap();
    assert_eq!(text, "\u{feff}class C { }\r\n");
    write_atomically(&bom, &text).unwrap();
    assert_eq!(fs::read(&bom).unwrap(), b"\xEF\xBB\xBFclass C { }\r\n");
    let utf16 = dir.path().join("Wide.cs");
    fs::write(&utf16, b"\xFF\xFEc\x00").unwrap();
    assert!(matches!(read_source_text(&utf16), Err(ReadError::Utf16)));
    let latin1 = dir.path().join("Latin.cs");
    fs::write(&latin1, b"// caf\xE9\n").unwrap();
    assert!(matches!(
        read_source_text(&latin1),
        Err(ReadError::Decode(_))
    ));
    assert!(matches!(
        read_source_text(&dir.path().join("None.cs")),
        Err(ReadError::Io(_))
    ));
}

#[test]
fn atomic_writes_keep_permissions_and_leave_no_temporary_files() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("A.cs");
    fs::write(&path, "old").unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).unwrap();
    }
    write_atomically(&path, "new").unwrap();
    assert_eq!(fs::read_to_string(&path).unwrap(), "new");
    let created = dir.path().join("B.cs");
    write_atomically(&created, "b").unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        assert_eq!(
            fs::metadata(&path).unwrap().permissions().mode() & 0o777,
            0o640
        );
        assert_eq!(
            fs::metadata(&created).unwrap().permissions().mode() & 0o777,
            0o644
        );
    }
    let mut names: Vec<String> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["A.cs", "B.cs"]);
}

#[test]
fn apply_refuses_files_changed_since_they_were_read() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("A.cs");
    let n = dir.path().join("N.cs");
    fs::write(&a, "class A { }\n").unwrap();
    let changes = vec![(
        a.clone(),
        "class A { }\n".to_owned(),
        "[X]\nclass A { }\n".to_owned(),
    )];
    let new_files = vec![(n.clone(), "class N { }\n".to_owned())];
    fs::write(&a, "class A { int edited; }\n").unwrap();
    assert!(matches!(apply_changes(&changes, &new_files), Err(ApplyError::Changed(p)) if p == a));
    assert!(!n.exists(), "nothing is written when a check fails");
    fs::write(&a, "class A { }\n").unwrap();
    apply_changes(&changes, &new_files).unwrap();
    assert_eq!(fs::read_to_string(&a).unwrap(), "[X]\nclass A { }\n");
    assert_eq!(fs::read_to_string(&n).unwrap(), "class N { }\n");
    // Applying again: the file is no longer what the change was made from.
    assert!(matches!(
        apply_changes(&changes, &[]),
        Err(ApplyError::Changed(_))
    ));
    assert!(matches!(
        apply_changes(&[], &new_files),
        Err(ApplyError::Exists(_))
    ));
}
