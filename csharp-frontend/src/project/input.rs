//! From the paths a user typed to what to load: project files, loose C#
//! files, directories checked as one implicit project, and the root that
//! reported paths are relative to.

use std::path::{Path, PathBuf};

use ignore::WalkBuilder;

use super::fileset;
use super::path;
use super::solution::{self, Solution};
use super::{DiscoverError, NoteSeverity, ProjectNote};

#[derive(Debug, Default)]
pub(crate) struct Plan {
    pub root: PathBuf,
    /// Project files to load, as given or listed by solutions.
    pub seeds: Vec<PathBuf>,
    /// C# files named directly, or found under a directory without projects.
    pub loose: Vec<PathBuf>,

    /// `$(SolutionDir)` and friends when exactly one solution was given.
    pub globals: Vec<(String, String)>,
    pub notes: Vec<ProjectNote>,
}

pub(crate) fn plan(inputs: &[PathBuf]) -> Result<Plan, DiscoverError> {
    let defaulted = [PathBuf::from(".")];
    let inputs = if inputs.is_empty() {
        &defaulted[..]
    } else {
        inputs
    };
    let mut plan = Plan::default();
    let mut solutions: Vec<Solution> = Vec::new();
    let mut anchors: Vec<PathBuf> = Vec::new();
    for input in inputs {
        let absolute = path::absolute(input).map_err(|e| DiscoverError::Unreadable {
            path: input.clone(),
            reason: e.to_string(),
        })?;
        let metadata = std::fs::metadata(&absolute).map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => DiscoverError::NotFound {
                path: input.clone(),
            },
            _ => DiscoverError::Unreadable {
                path: input.clone(),
                reason: e.to_string(),
            },
        })?;
        if metadata.is_dir() {
            anchors.push(absolute.clone());
            directory(input, &absolute, &mut plan, &mut solutions)?;
            continue;
        }
        anchors.push(absolute.parent().map(Path::to_path_buf).unwrap_or_default());
        let unreadable = |reason: String| DiscoverError::Unreadable {
            path: input.clone(),
            reason,
        };
        // A device or FIFO named on the command line is refused before it is
        // opened (a FIFO would block); a named file must at least be readable,
        // what it contains is the evaluation's business.
        let readable = || {
            if !metadata.is_file() {
                return Err(unreadable("not a regular file".into()));
            }
            std::fs::File::open(&absolute)
                .map(drop)
                .map_err(|e| unreadable(e.to_string()))
        };
        match path::extension_lowercase(&absolute).as_str() {
            "sln" | "slnx" | "slnf" => solutions.push(solution::read(&absolute)?),
            "csproj" => {
                readable()?;
                plan.seeds.push(absolute)
            }
            "cs" => {
                readable()?;
                plan.loose.push(absolute)
            }
            _ => {
                return Err(DiscoverError::Unsupported {
                    path: input.clone(),
                });
            }
        }
    }
    if let [only] = solutions.as_slice() {
        plan.globals = solution_properties(&only.solution);
    }
    for solution in &solutions {
        add_solution_entries(solution, &mut plan);
    }
    plan.root = common_ancestor(&anchors);
    plan.loose.sort();
    plan.loose.dedup();
    Ok(plan)
}

/// A directory: its solution, else every project below it, else every C#
/// file below it.
fn directory(
    input: &Path,
    dir: &Path,
    plan: &mut Plan,
    solutions: &mut Vec<Solution>,
) -> Result<(), DiscoverError> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| DiscoverError::Unreadable {
            path: input.to_path_buf(),
            reason: e.to_string(),
        })?
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|p| matches!(path::extension_lowercase(p).as_str(), "sln" | "slnx") && p.is_file())
        .collect();
    found.sort();
    match found.len() {
        0 => {}
        1 => {
            solutions.push(solution::read(&found[0])?);
            return Ok(());
        }
        _ => {
            let solutions = found
                .iter()
                .filter_map(|p| p.file_name())
                .map(|n| input.join(n))
                .collect();
            return Err(DiscoverError::MultipleSolutions {
                dir: input.to_path_buf(),
                solutions,
            });
        }
    }
    let (projects, sources) = scan(dir, &mut plan.notes);
    if !projects.is_empty() {
        plan.seeds.extend(projects);
        return Ok(());
    }
    plan.notes.push(ProjectNote {
        file: dir.to_path_buf(),
        line: None,
        column: None,
        message: format!(
            "no solution (.sln, .slnx) or C# project (.csproj) found; checking the {} C# file(s) below this directory as one project, without preprocessor symbols or global usings",
            sources.len()
        ),
        severity: NoteSeverity::Note,
    });

    plan.loose.extend(sources);
    Ok(())
}

/// Every `.csproj` and `.cs` below `dir`, skipping build output (`bin`,
/// `obj`) and hidden directories (`.git`, `.vs`).
fn scan(dir: &Path, notes: &mut Vec<ProjectNote>) -> (Vec<PathBuf>, Vec<PathBuf>) {
    let mut builder = WalkBuilder::new(dir);
    builder
        .standard_filters(false)
        .follow_links(true)
        .filter_entry(|entry| {
            let is_dir = entry.file_type().is_some_and(|t| t.is_dir());
            let name = entry.file_name().to_string_lossy();
            !(is_dir
                && entry.depth() > 0
                && (name.starts_with('.')
                    || name.eq_ignore_ascii_case("bin")
                    || name.eq_ignore_ascii_case("obj")))
        });
    let (mut projects, mut sources) = (Vec::new(), Vec::new());
    for entry in builder.build() {
        match entry {
            Ok(entry) if entry.file_type().is_some_and(|t| t.is_file()) => {
                match path::extension_lowercase(entry.path()).as_str() {
                    "csproj" => projects.push(entry.into_path()),
                    "cs" => sources.push(entry.into_path()),
                    _ => {}
                }
            }
            Ok(_) => {}
            Err(error) => {
                let (file, message) = fileset::describe(dir, error);
                notes.push(ProjectNote {
                    file,
                    line: None,
                    column: None,
                    message,
                    severity: NoteSeverity::Warning,
                });
            }
        }
    }
    projects.sort();
    sources.sort();
    (projects, sources)
}

fn add_solution_entries(solution: &Solution, plan: &mut Plan) {
    for entry in &solution.entries {
        let note = |message: String, severity| ProjectNote {
            file: solution.listed_in.clone(),
            line: entry.line,
            column: entry.line.map(|_| 1),
            message,
            severity,
        };
        if path::extension_lowercase(&entry.path) != "csproj" {
            let message = format!("`{}` is not a C# project; skipped", entry.path.display());
            plan.notes.push(note(message, NoteSeverity::Note));
            continue;
        }
        match path::find_ignoring_case(&entry.path) {
            Some(found) if found.is_file() => plan.seeds.push(found),
            _ => {
                let message = format!(
                    "the project `{}` listed here does not exist",
                    entry.path.display()
                );
                plan.notes.push(note(message, NoteSeverity::Warning));
            }
        }
    }
}

/// The properties MSBuild passes to every project of a solution build.
fn solution_properties(solution: &Path) -> Vec<(String, String)> {
    let dir = solution.parent().unwrap_or(Path::new(""));
    vec![
        ("SolutionDir".into(), path::with_trailing_separator(dir)),
        (
            "SolutionPath".into(),
            solution.to_string_lossy().into_owned(),
        ),
        ("SolutionName".into(), path::os_text(solution.file_stem())),
        (
            "SolutionFileName".into(),
            path::os_text(solution.file_name()),
        ),
        ("SolutionExt".into(), path::dotted_extension(solution)),
    ]
}

fn common_ancestor(paths: &[PathBuf]) -> PathBuf {
    let mut iter = paths.iter();
    let Some(first) = iter.next() else {
        return PathBuf::new();
    };
    let mut common = first.clone();
    for other in iter {
        while !other.starts_with(&common) {
            if !common.pop() {
                break;
            }
        }
    }
    common
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn common_ancestor_of_paths() {
        let paths = [
            PathBuf::from("/r/a/b"),
            PathBuf::from("/r/a/c/d"),
            PathBuf::from("/r/a"),
        ];
        assert_eq!(common_ancestor(&paths), PathBuf::from("/r/a"));
        assert_eq!(
            common_ancestor(&[PathBuf::from("/x/y")]),
            PathBuf::from("/x/y")
        );
    }
}
