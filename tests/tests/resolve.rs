//! Resolution tests: each `tests/resolve/*.cs` file marks expressions with carets
//! and the expected static type and/or call target:
//!
//! ```text
//! var s = File.OpenRead(p);
//! //      ^^^^^^^^^^^^^^^^ FileStream -> System.IO.File.OpenRead(string)
//! ```
//!
//! The expectation is `TYPE`, `TYPE -> TARGET` or `-> TARGET`; the carets must
//! cover exactly one expression's range. Each file is loaded alone, except that
//! the files of a subdirectory are loaded together, as one project.

use std::path::PathBuf;

use rlc_csharp::index::Index;
use rlc_csharp::resolve::dump::file_facts;
use rlc_tests::{caret_markers, data_dir, files_in, load_files};

#[test]
fn resolution_markers_hold() {
    let dir = data_dir("resolve");
    let mut groups: Vec<Vec<PathBuf>> = files_in(&dir, "cs").into_iter().map(|p| vec![p]).collect();
    let mut subdirs: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("resolution test directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    subdirs.sort();
    groups.extend(subdirs.iter().map(|d| files_in(d, "cs")));
    assert!(!groups.is_empty(), "no resolution test files");
    let mut failures = Vec::new();
    let mut checked = 0;
    for group in groups {
        let files: Vec<(String, String)> = group
            .iter()
            .map(|path| {
                let name = path
                    .file_name()
                    .and_then(|n| n.to_str())
                    .unwrap_or("test.cs")
                    .to_string();
                (name, std::fs::read_to_string(path).expect("read test file"))
            })
            .collect();
        let sources: Vec<(&str, &str)> = files
            .iter()
            .map(|(n, t)| (n.as_str(), t.as_str()))
            .collect();
        let (_dir, loaded) = load_files(&sources);
        for (name, text) in &files {
            checked += check_markers(&loaded.index, name, text, &mut failures);
        }
    }
    assert!(checked > 0, "no markers found");
    assert!(
        failures.is_empty(),
        "{} of {checked} resolution markers failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Checks the markers of one loaded file; returns how many there were.
fn check_markers(index: &Index, name: &str, text: &str, failures: &mut Vec<String>) -> usize {
    let mut checked = 0;
    let file = index
        .files
        .iter()
        .find(|f| f.source.path.ends_with(name))
        .map(|f| f.source.id)
        .expect("loaded file");
    let facts = file_facts(index, file);
    let line_starts: Vec<usize> = std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    for m in caret_markers(text) {
        checked += 1;
        let start = (line_starts[m.line] + m.start) as u32;
        let end = (line_starts[m.line] + m.end) as u32;
        let (want_ty, want_target) = match m.text.split_once("->") {
            Some((t, target)) => (t.trim(), Some(target.trim())),
            None => (m.text.trim(), None),
        };
        let Some(fact) = facts
            .iter()
            .find(|f| f.range.start == start && f.range.end == end)
        else {
            let line_end = line_starts.get(m.line + 1).copied().unwrap_or(usize::MAX);
            let on_line: Vec<&str> = facts
                .iter()
                .filter(|f| {
                    (f.range.start as usize) >= line_starts[m.line]
                        && (f.range.start as usize) < line_end
                })
                .map(|f| &text[f.range.start as usize..f.range.end as usize])
                .collect();
            failures.push(format!(
                    "{name}:{}: no expression covers exactly the carets; expressions on that line: {on_line:?}",
                    m.marker_line
                ));
            continue;
        };
        if !want_ty.is_empty() && fact.ty != want_ty {
            failures.push(format!(
                "{name}:{}: type is `{}`, expected `{want_ty}`",
                m.marker_line, fact.ty
            ));
        }
        if let Some(want) = want_target
            && fact.target.as_deref() != Some(want)
        {
            failures.push(format!(
                "{name}:{}: target is {:?}, expected `{want}`",
                m.marker_line, fact.target
            ));
        }
    }
    checked
}
