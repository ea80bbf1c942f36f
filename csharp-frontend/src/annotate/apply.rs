//! `--apply`: edit files in place, as `cargo fix` does: only over a clean git
//! tree (the caller decides whether to insist), one atomic write per file.

use std::fmt;
use std::fs;
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::source::{DecodeError, decode};

/// Why a file's text could not be read for editing.
#[derive(Debug)]
pub enum ReadError {
    Io(io::Error),
    Decode(DecodeError),
    /// A text patch cannot express a UTF-16 file (git diffs it as binary).
    Utf16,
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Io(e) => e.fmt(f),
            ReadError::Decode(e) => e.fmt(f),
            ReadError::Utf16 => f.write_str(
                "is UTF-16; only UTF-8 files are annotated (git diffs UTF-16 as binary)",
            ),
        }
    }
}

impl std::error::Error for ReadError {}

/// The file's text as it is on disk, for [`super::FileEdits::original`]: UTF-8,
/// a byte-order mark kept as U+FEFF (so that writing it back or diffing it
/// keeps the bytes).
pub fn read_source_text(path: &Path) -> Result<String, ReadError> {
    let bytes =
        crate::source::read_regular(path, crate::source::MAX_SOURCE_LEN).map_err(ReadError::Io)?;
    if bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF]) {
        return Err(ReadError::Utf16);
    }
    let text = decode(&bytes).map_err(ReadError::Decode)?;
    Ok(if bytes.starts_with(b"\xEF\xBB\xBF") {
        format!("\u{feff}{text}")
    } else {
        text
    })
}

/// The working tree holding `path`: the nearest directory with a `.git`
/// entry (a directory, or a file in worktrees and submodules).
pub fn repository_root(path: &Path) -> Option<PathBuf> {
    path.ancestors()
        .find(|dir| dir.join(".git").exists())
        .map(Path::to_path_buf)
}

/// Why the state of the git tree is unknown.
#[derive(Debug)]
pub enum VcsError {
    /// git could not be run.
    NoGit(io::Error),
    /// git failed: not a repository, or another problem (its message).
    Status(String),
}

impl fmt::Display for VcsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VcsError::NoGit(e) => write!(f, "cannot run git: {e}"),
            VcsError::Status(message) => write!(f, "git failed: {message}"),
        }
    }
}

impl std::error::Error for VcsError {}

/// What stops `--apply`: every path of the working tree that holds
/// `repo_dir` with changes git does not know of (modified, staged, untracked,
/// conflicted), and those of `files` that lie outside it: edits there could
/// not be told apart or undone with git. Sorted.
pub fn dirty_files(repo_dir: &Path, files: &[PathBuf]) -> Result<Vec<PathBuf>, VcsError> {
    let top = git(repo_dir, &["rev-parse", "--show-toplevel"])?;
    let top = PathBuf::from(String::from_utf8_lossy(&top).trim_end_matches(['\n', '\r']));
    let top = top.canonicalize().unwrap_or(top);
    // Porcelain paths are relative to the top of the working tree.
    let status = git(
        &top,
        &[
            "status",
            "--porcelain=v1",
            "-z",
            "--untracked-files=all",
            "--ignored=no",
        ],
    )?;
    let mut changed = Vec::new();
    let mut entries = status.split(|b| *b == 0);
    while let Some(entry) = entries.next() {
        let (Some(status), Some(path)) = (entry.get(..2), entry.get(3..)) else {
            continue;
        };
        changed.push(top.join(String::from_utf8_lossy(path).as_ref()));
        // A rename or copy names its source next.
        if matches!(status.first(), Some(b'R' | b'C'))
            && let Some(source) = entries.next()
        {
            changed.push(top.join(String::from_utf8_lossy(source).as_ref()));
        }
    }
    changed.extend(
        files
            .iter()
            .filter(|file| !canonical_or_parent(file).starts_with(&top))
            .cloned(),
    );
    changed.sort();
    changed.dedup();
    Ok(changed)
}

fn git(dir: &Path, args: &[&str]) -> Result<Vec<u8>, VcsError> {
    let output = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .map_err(VcsError::NoGit)?;
    if output.status.success() {
        Ok(output.stdout)
    } else {
        Err(VcsError::Status(
            String::from_utf8_lossy(&output.stderr).trim().to_owned(),
        ))
    }
}

/// A file's canonical path; for a file not yet created, its directory's.
fn canonical_or_parent(path: &Path) -> PathBuf {
    path.canonicalize()
        .unwrap_or_else(|_| match (path.parent(), path.file_name()) {
            (Some(dir), Some(name)) => dir
                .canonicalize()
                .map(|d| d.join(name))
                .unwrap_or_else(|_| path.to_path_buf()),
            _ => path.to_path_buf(),
        })
}

/// Replaces the file's contents in one step: write a temporary file next to
/// it, then rename it over the original, whose permissions it keeps. A new
/// file is created the same way.
pub fn write_atomically(path: &Path, contents: &str) -> io::Result<()> {
    write_atomically_at(path, contents, &mut CrashPoints::none())
}

/// The prefix of the temporary files [`write_atomically`] writes.
pub const TEMP_PREFIX: &str = ".rlc-sharp-";

/// A test hook: with `RLC_SHARP_TEST_CRASH_AT=N`, [`apply_changes`] aborts
/// the process at the N-th point of its writes (a temporary file half
/// written, written in full, renamed into place), as a kill would, with no
/// clean-up. The tests check what such a run leaves and that a re-run
/// repairs it. Unset, it costs one lookup per `--apply`.
struct CrashPoints {
    left: Option<u64>,
}

impl CrashPoints {
    fn none() -> CrashPoints {
        CrashPoints { left: None }
    }

    fn from_env() -> CrashPoints {
        CrashPoints {
            left: std::env::var("RLC_SHARP_TEST_CRASH_AT")
                .ok()
                .and_then(|v| v.parse().ok()),
        }
    }

    fn point(&mut self) {
        if let Some(left) = &mut self.left {
            *left = left.saturating_sub(1);
            if *left == 0 {
                std::process::abort();
            }
        }
    }
}

fn write_atomically_at(path: &Path, contents: &str, crash: &mut CrashPoints) -> io::Result<()> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut temp = tempfile::Builder::new()
        .prefix(TEMP_PREFIX)
        .tempfile_in(dir)?;
    let (first, rest) = contents.as_bytes().split_at(contents.len() / 2);
    temp.write_all(first)?;
    temp.flush()?;
    crash.point();
    temp.write_all(rest)?;
    temp.as_file().sync_all()?;
    let permissions = match fs::metadata(path) {
        Ok(meta) => meta.permissions(),
        Err(e) if e.kind() == io::ErrorKind::NotFound => new_file_permissions(temp.as_file())?,
        Err(e) => return Err(e),
    };
    temp.as_file().set_permissions(permissions)?;
    crash.point();
    temp.persist(path).map_err(|e| e.error)?;
    crash.point();
    Ok(())
}

/// Removes the temporary files a killed run of [`write_atomically`] left in
/// `dir` (a kill skips the clean-up its drop does).
fn remove_stale_temps(dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let stale = entry.file_name().to_string_lossy().starts_with(TEMP_PREFIX)
            && entry.file_type().is_ok_and(|t| t.is_file());
        if stale {
            // Best effort: one that cannot be removed is only clutter.
            let _ = fs::remove_file(entry.path());
        }
    }
}

#[cfg(unix)]
fn new_file_permissions(_temp: &fs::File) -> io::Result<fs::Permissions> {
    use std::os::unix::fs::PermissionsExt as _;
    Ok(fs::Permissions::from_mode(0o644))
}

#[cfg(not(unix))]
fn new_file_permissions(temp: &fs::File) -> io::Result<fs::Permissions> {
    Ok(temp.metadata()?.permissions())
}

/// Why the changes were not (all) written.
#[derive(Debug)]
pub enum ApplyError {
    /// The file's contents are no longer those the patch was made from.
    Changed(PathBuf),
    /// A file to create exists already.
    Exists(PathBuf),
    Io(PathBuf, io::Error),
}

impl fmt::Display for ApplyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ApplyError::Changed(p) => {
                write!(f, "{} changed since it was read; run again", p.display())
            }
            ApplyError::Exists(p) => write!(f, "{} exists already", p.display()),
            ApplyError::Io(p, e) => write!(f, "{}: {e}", p.display()),
        }
    }
}

impl std::error::Error for ApplyError {}

/// Writes `changes` (path, old text, new text) and creates `new_files`, after
/// checking that every file still holds its old text and that no new file
/// exists, so that nothing is written over edits made meanwhile.
pub fn apply_changes(
    changes: &[(PathBuf, String, String)],
    new_files: &[(PathBuf, String)],
) -> Result<(), ApplyError> {
    for (path, old, _) in changes {
        let current = fs::read(path).map_err(|e| ApplyError::Io(path.clone(), e))?;
        if current != old.as_bytes() {
            return Err(ApplyError::Changed(path.clone()));
        }
    }
    if let Some((path, _)) = new_files.iter().find(|(p, _)| p.exists()) {
        return Err(ApplyError::Exists(path.clone()));
    }
    // The definitions first: a run stopped midway then leaves sources that
    // still compile, and a re-run finds the file and completes the edits.
    let writes: Vec<(&PathBuf, &String)> = new_files
        .iter()
        .map(|(p, text)| (p, text))
        .chain(changes.iter().map(|(p, _, new)| (p, new)))
        .collect();
    // A run killed while writing left its temporary files where a re-run
    // writes again.
    let mut dirs: Vec<&Path> = writes.iter().filter_map(|(p, _)| p.parent()).collect();
    dirs.sort();
    dirs.dedup();
    for dir in dirs {
        remove_stale_temps(if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        });
    }
    let mut crash = CrashPoints::from_env();
    for (path, text) in writes {
        write_atomically_at(path, text, &mut crash).map_err(|e| ApplyError::Io(path.clone(), e))?;
    }
    Ok(())
}
