//! Shared support for the integration tests: load C# text as a project and
//! find the markers test files use.

use std::path::{Path, PathBuf};

use rlc_csharp::load::{Loaded, ProjectSpec, embedded_library, load};

pub mod fuzz;

/// Loads C# files (name, text) as one project with the embedded library model.
/// The files are written to a temporary directory that lives as long as the result.
pub fn load_files(files: &[(&str, &str)]) -> (tempfile::TempDir, Loaded) {
    let dir = tempfile::tempdir().expect("temporary directory");
    let mut sources = Vec::new();
    for (name, text) in files {
        let path = dir.path().join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("create directory");
        }
        std::fs::write(&path, text).expect("write source");
        sources.push(path);
    }
    let project = ProjectSpec::single(
        "test",
        sources,
        vec![
            "DEBUG".into(),
            "TRACE".into(),
            "NET".into(),
            "NET8_0_OR_GREATER".into(),
        ],
    );
    let loaded = load(&[project], &embedded_library());
    (dir, loaded)
}

/// The test data directory `tests/<name>`.
pub fn data_dir(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(name)
}

/// All files with extension `ext` in a directory, sorted.
pub fn files_in(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == ext))
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

/// A caret marker: `//    ^^^^ expectation` under a line of code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CaretMarker {
    /// 0-based line the carets point into.
    pub line: usize,
    /// Byte columns (start inclusive, end exclusive) on that line.
    pub start: usize,
    pub end: usize,
    pub text: String,
    /// 1-based line of the marker itself, for messages.
    pub marker_line: usize,
}

/// Finds caret markers: a comment line `//` whose first non-space character after
/// the slashes is `^`; the carets point at the nearest preceding non-marker line.
pub fn caret_markers(text: &str) -> Vec<CaretMarker> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut target: Option<usize> = None;
    for (i, line) in lines.iter().enumerate() {
        let trimmed = line.trim_start();
        let is_marker = trimmed.starts_with("//") && trimmed[2..].trim_start().starts_with('^');
        if !is_marker {
            target = Some(i);
            continue;
        }
        let Some(t) = target else { continue };
        let start = line.find('^').unwrap_or(0);
        let end = start + line[start..].chars().take_while(|c| *c == '^').count();
        out.push(CaretMarker {
            line: t,
            start,
            end,
            text: line[end..].trim().to_string(),
            marker_line: i + 1,
        });
    }
    out
}

/// `// expect: RLC0001, RLC0004` markers: (1-based line, rule ids).
pub fn expect_markers(text: &str) -> Vec<(usize, Vec<String>)> {
    text.lines()
        .enumerate()
        .filter_map(|(i, line)| {
            let at = line.find("// expect:")?;
            let ids = line[at + "// expect:".len()..]
                .split([',', ' '])
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect();
            Some((i + 1, ids))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_caret_markers_under_code() {
        let text = "var s = File.OpenRead(p);\n//      ^^^^^^^^^^^^^^^^ FileStream\n";
        let m = caret_markers(text);
        assert_eq!(m.len(), 1);
        assert_eq!((m[0].line, m[0].start, m[0].end), (0, 8, 24));
        assert_eq!(m[0].text, "FileStream");
        assert_eq!(&text[m[0].start..m[0].end], "File.OpenRead(p)");
    }

    #[test]
    fn finds_expect_markers() {
        let text = "a\nvar s = new X(); // expect: RLC0001, RLC0004\n";
        assert_eq!(
            expect_markers(text),
            vec![(2, vec!["RLC0001".to_string(), "RLC0004".to_string()])]
        );
    }
}
