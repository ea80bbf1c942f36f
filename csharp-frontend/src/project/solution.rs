//! Solutions: `.sln` (text), `.slnx` (XML) and `.slnf` (JSON filter over a
//! `.sln`/`.slnx`). They only contribute a list of project paths.

use std::path::{Path, PathBuf};

use super::DiscoverError;
use super::path;
use super::xml::{self, LoadError};

/// A project path listed by a solution, with the line that lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Entry {
    pub path: PathBuf,
    pub line: Option<u32>,
}

#[derive(Debug)]
pub(crate) struct Solution {
    /// The file that lists the projects.
    pub listed_in: PathBuf,
    /// The `.sln`/`.slnx` whose directory is `$(SolutionDir)` (for a filter,
    /// the solution it filters).
    pub solution: PathBuf,
    pub entries: Vec<Entry>,
}

/// The type of solution folders in `.sln` files.
const SOLUTION_FOLDER: &str = "2150E333-8FDC-42A3-9474-1A3956D46DE8";

pub(crate) fn read(file: &Path) -> Result<Solution, DiscoverError> {
    let text = read_text(file)?;
    let entries = match path::extension_lowercase(file).as_str() {
        "sln" => read_sln(file, &text),
        "slnx" => read_slnx(file, &text)?,
        _ => return read_slnf(file, &text),
    };
    Ok(Solution {
        listed_in: file.to_path_buf(),
        solution: file.to_path_buf(),
        entries,
    })
}

fn read_text(file: &Path) -> Result<String, DiscoverError> {
    let unreadable = |reason: String| DiscoverError::Unreadable {
        path: file.to_path_buf(),
        reason,
    };
    let bytes = crate::source::read_regular(file, crate::source::MAX_PROJECT_LEN)
        .map_err(|e| unreadable(e.to_string()))?;
    crate::source::decode(&bytes).map_err(|e| unreadable(e.to_string()))
}

/// `Project("{type}") = "Name", "relative\path.csproj", "{guid}"` lines.
fn read_sln(file: &Path, text: &str) -> Vec<Entry> {
    let dir = file.parent().unwrap_or(Path::new(""));
    let mut entries = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let Some(rest) = line.trim_start().strip_prefix("Project(") else {
            continue;
        };
        let quoted: Vec<&str> = rest.split('"').skip(1).step_by(2).collect();
        let [kind, _name, relative, ..] = quoted.as_slice() else {
            continue;
        };
        if kind
            .trim_matches(['{', '}'])
            .eq_ignore_ascii_case(SOLUTION_FOLDER)
        {
            continue;
        }
        entries.push(Entry {
            path: path::resolve(dir, relative),
            line: u32::try_from(number + 1).ok(),
        });
    }
    entries
}

/// `<Solution>` with `<Project Path="...">` anywhere below (in `<Folder>`s).
fn read_slnx(file: &Path, text: &str) -> Result<Vec<Entry>, DiscoverError> {
    let parsed = xml::parse(file, text).map_err(|e| malformed(file, e))?;
    let dir = file.parent().unwrap_or(Path::new(""));
    let mut entries = Vec::new();
    let mut stack = vec![&parsed.root];
    while let Some(element) = stack.pop() {
        if element.name == "Project"
            && let Some(relative) = element.attr("Path")
        {
            entries.push(Entry {
                path: path::resolve(dir, relative),
                line: Some(element.pos.line),
            });
        }
        stack.extend(element.children.iter().rev());
    }
    Ok(entries)
}

fn malformed(file: &Path, error: LoadError) -> DiscoverError {
    match error {
        LoadError::Malformed { pos, message } => DiscoverError::Malformed {
            path: file.to_path_buf(),
            line: Some(pos.line),
            column: Some(pos.col),
            reason: message,
        },
        LoadError::Unreadable(reason) => DiscoverError::Unreadable {
            path: file.to_path_buf(),
            reason,
        },
    }
}

/// `{"solution": {"path": "X.sln", "projects": ["a\\b.csproj", ...]}}`;
/// project paths are relative to the filtered solution's directory.
fn read_slnf(file: &Path, text: &str) -> Result<Solution, DiscoverError> {
    let bad = |reason: String, line: Option<u32>, column: Option<u32>| DiscoverError::Malformed {
        path: file.to_path_buf(),
        line,
        column,
        reason,
    };
    let json: serde_json::Value = serde_json::from_str(text).map_err(|e| {
        bad(
            e.to_string(),
            u32::try_from(e.line()).ok(),
            u32::try_from(e.column()).ok(),
        )
    })?;
    let solution = &json["solution"];
    let solution_path = solution["path"].as_str().ok_or_else(|| {
        bad(
            "no `solution.path` naming the filtered solution".into(),
            None,
            None,
        )
    })?;
    let dir = file.parent().unwrap_or(Path::new(""));
    let solution_path = path::resolve(dir, solution_path);
    let solution_dir = solution_path
        .parent()
        .unwrap_or(Path::new(""))
        .to_path_buf();
    let projects = solution["projects"]
        .as_array()
        .ok_or_else(|| bad("no `solution.projects` list".into(), None, None))?;
    let entries = projects
        .iter()
        .filter_map(|p| p.as_str())
        .map(|p| Entry {
            path: path::resolve(&solution_dir, p),
            line: None,
        })
        .collect();
    Ok(Solution {
        listed_in: file.to_path_buf(),
        solution: solution_path,
        entries,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sln_skips_folders() {
        let text = "Microsoft Visual Studio Solution File, Format Version 12.00\n\
            Project(\"{2150E333-8FDC-42A3-9474-1A3956D46DE8}\") = \"src\", \"src\", \"{1}\"\nEndProject\n\
            Project(\"{9A19103F-16F7-4668-BE54-9A1E7A4F7556}\") = \"A\", \"src\\A\\A.csproj\", \"{2}\"\nEndProject\n";
        let entries = read_sln(Path::new("/r/X.sln"), text);
        assert_eq!(
            entries,
            vec![Entry {
                path: PathBuf::from("/r/src/A/A.csproj"),
                line: Some(4)
            }]
        );
    }

    #[test]
    fn slnx_finds_nested_projects() {
        let text = "<Solution>\n  <Folder Name=\"/src/\">\n    <Project Path=\"src/A/A.csproj\" />\n  </Folder>\n  <Project Path=\"B.csproj\" />\n</Solution>";
        let entries = read_slnx(Path::new("/r/X.slnx"), text).unwrap();
        let paths: Vec<_> = entries.iter().map(|e| e.path.clone()).collect();
        assert_eq!(
            paths,
            vec![
                PathBuf::from("/r/src/A/A.csproj"),
                PathBuf::from("/r/B.csproj")
            ]
        );
    }

    #[test]
    fn slnf_paths_are_relative_to_the_solution() {
        let text =
            r#"{ "solution": { "path": "..\\X.slnx", "projects": [ "src\\A\\A.csproj" ] } }"#;
        let filter = read_slnf(Path::new("/r/filters/F.slnf"), text).unwrap();
        assert_eq!(filter.solution, PathBuf::from("/r/X.slnx"));
        assert_eq!(filter.entries[0].path, PathBuf::from("/r/src/A/A.csproj"));
        assert!(read_slnf(Path::new("/r/F.slnf"), "{ nope").is_err());
    }
}
