//! Unified diffs in the form `git diff` writes and `git apply` takes.

use std::fmt::Write as _;
use std::path::{Component, Path};

use similar::TextDiff;

/// Lines of context around each change, as `git diff` and `diff -u`.
const CONTEXT: usize = 3;

/// A patch that changes `files` (path, old text, new text) and creates
/// `new_files` (path, text). Paths are written relative to `root` with `/`
/// separators (a path outside `root` climbs out with `..`, which `git apply`
/// refuses, so pass the repository root). Files come sorted by path;
/// unchanged files are left out, so an empty string means nothing to do.
/// Text is copied byte for byte: CRLF lines stay CRLF, a byte-order mark
/// stays part of the first line, and a last line without a line break is
/// marked `\ No newline at end of file`.
pub fn unified_diff(
    root: &Path,
    files: &[(std::path::PathBuf, String, String)],
    new_files: &[(std::path::PathBuf, String)],
) -> String {
    let mut entries: Vec<(String, Option<&str>, &str)> = files
        .iter()
        .filter(|(_, old, new)| old != new)
        .map(|(path, old, new)| (relative(root, path), Some(old.as_str()), new.as_str()))
        .chain(
            new_files
                .iter()
                .map(|(path, text)| (relative(root, path), None, text.as_str())),
        )
        .collect();
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    let mut out = String::new();
    for (path, old, new) in entries {
        let a = quote(&format!("a/{path}"));
        let b = quote(&format!("b/{path}"));
        let _ = writeln!(out, "diff --git {a} {b}");
        // GNU patch reads a name up to a tab; git writes one after a name
        // with a space.
        let tab = if path.contains(' ') { "\t" } else { "" };
        match old {
            Some(_) => {
                let _ = writeln!(out, "--- {a}{tab}");
            }
            None => {
                let _ = writeln!(out, "new file mode 100644");
                let _ = writeln!(out, "--- /dev/null");
            }
        }
        let _ = writeln!(out, "+++ {b}{tab}");
        let old = old.unwrap_or("");
        let old_lines: Vec<&str> = old.split_inclusive('\n').collect();
        let diff = TextDiff::from_lines(old, new);
        for hunk in diff.unified_diff().context_radius(CONTEXT).iter_hunks() {
            let first = hunk.ops().first().map_or(0, |op| op.old_range().start);
            let _ = match function_line(&old_lines, first) {
                Some(context) => writeln!(out, "{} {context}", hunk.header()),
                None => writeln!(out, "{}", hunk.header()),
            };
            for change in hunk.iter_changes() {
                let _ = write!(out, "{}{}", change.tag(), change.value());
                if change.missing_newline() {
                    out.push_str("\n\\ No newline at end of file\n");
                }
            }
        }
    }
    out
}

/// What git shows after a hunk's header by default: the nearest line above
/// the hunk that starts with a letter, `_` or `$` (in C#, usually the
/// namespace or type), cut to 80 bytes, trailing whitespace trimmed.
fn function_line<'a>(old_lines: &[&'a str], hunk_start: usize) -> Option<&'a str> {
    const MAX: usize = 80;
    let line = old_lines
        .get(..hunk_start)?
        .iter()
        .rev()
        .find(|l| l.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_' || c == '$'))?;
    let mut end = line.len().min(MAX);
    while !line.is_char_boundary(end) {
        end -= 1;
    }
    Some(line[..end].trim_end())
}

/// `path` relative to `root`, `/`-separated.
fn relative(root: &Path, path: &Path) -> String {
    let parts = |p: &Path| -> Vec<String> {
        p.components()
            .filter(|c| !matches!(c, Component::CurDir))
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect()
    };
    let (root, path) = (parts(root), parts(path));
    let common = root.iter().zip(&path).take_while(|(a, b)| a == b).count();
    let up = std::iter::repeat_n("..".to_owned(), root.len() - common);
    up.chain(path[common..].iter().cloned())
        .collect::<Vec<_>>()
        .join("/")
}

/// Git's quoting of a path in a patch header: C-style in double quotes when
/// it holds a quote, a backslash, a control character or non-ASCII bytes.
fn quote(name: &str) -> String {
    let needs = name
        .bytes()
        .any(|b| b == b'"' || b == b'\\' || !(0x20..0x7f).contains(&b));
    if !needs {
        return name.to_owned();
    }
    let mut out = String::from("\"");
    for b in name.bytes() {
        match b {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'\t' => out.push_str("\\t"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            0x07 => out.push_str("\\a"),
            0x08 => out.push_str("\\b"),
            0x0b => out.push_str("\\v"),
            0x0c => out.push_str("\\f"),
            b if !(0x20..0x7f).contains(&b) => {
                let _ = write!(out, "\\{b:03o}");
            }
            b => out.push(b as char),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_relative_with_slashes() {
        assert_eq!(
            relative(Path::new("/r"), Path::new("/r/src/A.cs")),
            "src/A.cs"
        );
        assert_eq!(
            relative(Path::new("/r/x"), Path::new("/r/y/A.cs")),
            "../y/A.cs"
        );
        assert_eq!(relative(Path::new("/r/./"), Path::new("/r/A.cs")), "A.cs");
    }

    #[test]
    fn quotes_like_git() {
        assert_eq!(quote("a/b c.cs"), "a/b c.cs");
        assert_eq!(quote("a/café.cs"), "\"a/caf\\303\\251.cs\"");
        assert_eq!(quote("a/x\"y.cs"), "\"a/x\\\"y.cs\"");
    }

    #[test]
    fn writes_git_headers_and_hunks() {
        let root = Path::new("/r");
        let files = vec![
            (
                "/r/A.cs".into(),
                "a\nb\n".to_owned(),
                "a\nx\nb\n".to_owned(),
            ),
            ("/r/B.cs".into(), "same".to_owned(), "same".to_owned()),
        ];
        let new_files = vec![("/r/N.cs".into(), "n\n".to_owned())];
        assert_eq!(
            unified_diff(root, &files, &new_files),
            "diff --git a/A.cs b/A.cs\n--- a/A.cs\n+++ b/A.cs\n@@ -1,2 +1,3 @@\n a\n+x\n b\n\
             diff --git a/N.cs b/N.cs\nnew file mode 100644\n--- /dev/null\n+++ b/N.cs\n@@ -0,0 +1 @@\n+n\n"
        );
        assert_eq!(unified_diff(root, &files[1..], &[]), "");
    }
}
