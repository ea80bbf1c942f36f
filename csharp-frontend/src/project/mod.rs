//! Project discovery: from the paths given to `rlc-sharp check` to the list
//! of projects and, for each, exactly the C# files the build compiles, with
//! the preprocessor symbols, global usings and project references later
//! phases need. No other phase reads project files.
//!
//! Project files are evaluated with MSBuild's semantics where they decide
//! the outcome: properties and imports in document order (the SDK's props,
//! `Directory.Build.props`, the project, `Directory.Build.targets`, the SDK's
//! targets; see `sdk/`), then items against the final properties; one
//! evaluation per target framework, merged. What cannot be evaluated
//! (machine-dependent functions, item transforms, unknown SDKs) is skipped;
//! when it may change a result, a [`ProjectNote`] says so. Nothing here fails
//! on a project's content: only the inputs the user named can make
//! [`discover`] return an error.
//!
//! Deliberate choices where MSBuild depends on the machine or on files we
//! do not have:
//! - the build is Debug|AnyCPU (a solution also sets `$(SolutionDir)` and
//!   friends); `$(OS)`, `IsOSPlatform()` and environment variables are
//!   unknown (empty, with a note where it matters);
//! - item paths, wildcards, imports and project references match files
//!   without regard to case, as on Windows, where most projects are written
//!   (`Exists()` conditions stay exact);
//! - the SDK's default `**/*.cs` does not descend into a subdirectory that
//!   has its own `.csproj`: those files belong to that project;
//! - SDKs other than Microsoft.NET.Sdk and its flavours (Web, Worker, Razor,
//!   BlazorWebAssembly, WindowsDesktop) are not available: a project naming
//!   one is evaluated as Microsoft.NET.Sdk, an explicit import of one is
//!   skipped, and properties it might set are noted where they matter;
//! - `.gitignore` plays no role, as in MSBuild; symbolic links are followed,
//!   loops are noted and not followed again.

mod assets;
mod condition;
mod eval;
mod expand;
mod fileset;
mod framework;
mod input;
mod path;
mod sdk;
mod solution;
mod workspace;
mod xml;

pub use assets::{BuildAssemblies, Locations, from_assets, reference_pack};

use std::fmt;
use std::path::PathBuf;

/// Discovers the projects to check. `inputs` are directories (their
/// solution; if none, every `.csproj` below; if none, every `.cs` below as
/// one implicit project), `.sln`/`.slnx`/`.slnf` files, `.csproj` files or
/// `.cs` files. No input means the current directory.
pub fn discover(inputs: &[PathBuf]) -> Result<Workspace, DiscoverError> {
    let plan = input::plan(inputs)?;
    Ok(workspace::build(plan, None))
}

/// [`discover`] with each wildcard's directory walk bounded to
/// `walk_entries` files and directories instead of the default million (a
/// real repository's `**/*.cs` needs that many; generated project files
/// that may name `/**` do not). The fuzzer evaluates with a small bound, so
/// that a wildcard rooted at `/` costs milliseconds and still reaches the
/// note a cut walk gives.
pub fn discover_with_walk_bound(
    inputs: &[PathBuf],
    walk_entries: usize,
) -> Result<Workspace, DiscoverError> {
    let plan = input::plan(inputs)?;
    Ok(workspace::build(plan, Some(walk_entries)))
}

/// The projects to check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Workspace {
    /// The checked root: paths in reports are relative to it.
    pub root: PathBuf,
    /// Projects sorted by path; an implicit project (loose files) comes last.
    pub projects: Vec<Project>,
    /// Everything skipped or odd, sorted by location.
    pub notes: Vec<ProjectNote>,
    /// No project was found: the only project is the implicit one (all
    /// `.cs` files below the directory given, or the `.cs` files given).
    pub implicit: bool,
}

impl Workspace {
    /// The projects whose types `project` sees: its references and, as SDK
    /// projects see them, their references transitively. Sorted.
    pub fn transitive_references(&self, project: usize) -> Vec<usize> {
        let mut seen = vec![false; self.projects.len()];
        let mut stack: Vec<usize> = self
            .projects
            .get(project)
            .map(|p| p.references.clone())
            .unwrap_or_default();
        while let Some(next) = stack.pop() {
            if next == project || seen.get(next).copied().unwrap_or(true) {
                continue;
            }
            seen[next] = true;
            stack.extend(self.projects[next].references.iter().copied());
        }
        seen.iter()
            .enumerate()
            .filter(|(_, s)| **s)
            .map(|(i, _)| i)
            .collect()
    }

    /// Keeps of each project only its build for `framework` (`--framework`):
    /// the build of that framework, else of the nearest framework compatible
    /// with it (a `netstandard2.0` library in a `net8.0` build). A project
    /// with no such build is not checked, with a note; one that names no
    /// framework is kept. An error when no project has such a build.
    pub fn select_framework(&mut self, framework: &str) -> Result<(), DiscoverError> {
        let mut kept: Vec<Option<usize>> = Vec::with_capacity(self.projects.len());
        let mut available: Vec<String> = Vec::new();
        for project in &self.projects {
            let frameworks: Vec<&str> = project
                .builds
                .iter()
                .map(|b| b.target_framework.as_deref().unwrap_or(""))
                .collect();
            for f in frameworks.iter().filter(|f| !f.is_empty()) {
                if !available.iter().any(|a| a.eq_ignore_ascii_case(f)) {
                    available.push((*f).to_owned());
                }
            }
            kept.push(match frameworks.as_slice() {
                [] => None,
                [""] => Some(0),
                _ => framework::nearest(framework, &frameworks),
            });
        }
        let framework_specific =
            |p: &Project| p.builds.iter().any(|b| b.target_framework.is_some());
        let matched = self
            .projects
            .iter()
            .zip(&kept)
            .any(|(p, k)| k.is_some() && framework_specific(p));
        if !matched && self.projects.iter().any(framework_specific) {
            return Err(DiscoverError::NoSuchFramework {
                framework: framework.to_owned(),
                available,
            });
        }
        for (project, keep) in self.projects.iter_mut().zip(&kept) {
            let build = keep.and_then(|i| project.builds.get(i).cloned());
            if build.is_none() && !project.builds.is_empty() {
                self.notes.push(ProjectNote {
                    file: project.path.clone().unwrap_or_default(),
                    line: None,
                    column: None,
                    message: format!(
                        "`{}` has no build for `{framework}` or a framework compatible with it (it targets {}); not checked",
                        project.name,
                        project.target_frameworks.join(", ")
                    ),
                    severity: NoteSeverity::Note,
                });
            }
            project.builds = build.into_iter().collect();
        }
        let has_build: Vec<bool> = self.projects.iter().map(|p| !p.builds.is_empty()).collect();
        for project in &mut self.projects {
            for build in &mut project.builds {
                build.references.retain(|r| has_build[r.project]);
                for r in &mut build.references {
                    r.build = 0;
                }
            }
            let build = project.builds.first();
            project.sources = build.map(|b| b.sources.clone()).unwrap_or_default();
            project.defines = build.map(|b| b.defines.clone()).unwrap_or_default();
            project.global_usings = build.map(|b| b.global_usings.clone()).unwrap_or_default();
            project.references = build
                .map(|b| b.references.iter().map(|r| r.project).collect())
                .unwrap_or_default();
            project.target_frameworks = build
                .and_then(|b| b.target_framework.clone())
                .into_iter()
                .collect();
        }
        self.notes.sort_by(|a, b| {
            (&a.file, a.line, a.column, &a.message).cmp(&(&b.file, b.line, b.column, &b.message))
        });
        Ok(())
    }
}

/// One project, merged over its target frameworks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Project {
    /// The project file's name without extension (`MSBuildProjectName`).
    pub name: String,
    /// The `.csproj`; None for the implicit project.
    pub path: Option<PathBuf>,
    /// Every C# file compiled for any target framework: absolute, sorted,
    /// without duplicates.
    pub sources: Vec<PathBuf>,
    /// Indices into [`Workspace::projects`] of the projects it references
    /// directly (`<ProjectReference>` whose output assembly it uses) under
    /// any target framework.
    pub references: Vec<usize>,
    /// The preprocessor symbols of all target frameworks together: DEBUG,
    /// TRACE, `DefineConstants`, and the SDK's framework symbols. Sorted.
    pub defines: Vec<String>,
    /// One build per target framework, in the project's order (MSBuild's
    /// inner builds); one build when the project names none or one.
    pub builds: Vec<Build>,
    pub lang_version: Option<String>,
    /// The target framework monikers, in the project's order.
    pub target_frameworks: Vec<String>,
    /// Implicit usings of the SDK (with `ImplicitUsings`) and `<Using>`
    /// items, of all target frameworks together.
    pub global_usings: Vec<GlobalUsing>,
    /// The primary SDK (`Microsoft.NET.Sdk`, `Microsoft.NET.Sdk.Web`, ...).
    pub sdk: Option<String>,
    pub is_sdk_style: bool,
    pub assembly_name: Option<String>,
    pub root_namespace: Option<String>,
    /// Why the project is test code, if it is.
    pub test: Option<TestEvidence>,
}

/// What one target framework's build of a project compiles.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Build {
    /// None when the project names no target framework.
    pub target_framework: Option<String>,
    /// The C# files it compiles: absolute, sorted.
    pub sources: Vec<PathBuf>,
    /// Its preprocessor symbols: DEBUG, TRACE, `DefineConstants` and the
    /// SDK's symbols for the framework. Sorted.
    pub defines: Vec<String>,
    /// The projects it references, each with the build of that project it
    /// compiles against: the nearest framework, as NuGet picks it.
    pub references: Vec<BuildRef>,
    pub global_usings: Vec<GlobalUsing>,
    /// The assemblies it compiles against, from `obj/project.assets.json`:
    /// packages' compile assets and framework reference packs.
    pub assemblies: Vec<PathBuf>,
}

/// A build of a project: indices into [`Workspace::projects`] and [`Project::builds`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BuildRef {
    pub project: usize,
    pub build: usize,
}

/// Why a project counts as test code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TestEvidence {
    /// It sets `IsTestProject` to `true`.
    IsTestProject,
    /// It references a test framework: the package, SDK or assembly.
    Framework(String),
    /// Test projects reference it, and no other project does.
    ReferencedByTests,
}

impl fmt::Display for TestEvidence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TestEvidence::IsTestProject => f.write_str("sets IsTestProject"),
            TestEvidence::Framework(name) => write!(f, "references {name}"),
            TestEvidence::ReferencedByTests => f.write_str("referenced only by test projects"),
        }
    }
}

/// A `global using` the build adds to every file of a project.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum GlobalUsing {
    /// `global using System.Linq;`
    Namespace(String),
    /// `global using static System.Math;`
    Static(String),
    /// `global using Json = System.Text.Json;`
    Alias { alias: String, target: String },
}

impl GlobalUsing {
    /// The namespace or type it names.
    pub fn target(&self) -> &str {
        match self {
            GlobalUsing::Namespace(t)
            | GlobalUsing::Static(t)
            | GlobalUsing::Alias { target: t, .. } => t,
        }
    }
}

/// Something skipped or odd during discovery, with where it comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProjectNote {
    /// Absolute path of the file concerned.
    pub file: PathBuf,
    /// 1-based.
    pub line: Option<u32>,
    /// 1-based, in characters.
    pub column: Option<u32>,
    pub message: String,
    pub severity: NoteSeverity,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum NoteSeverity {
    /// Informational: nothing is lost.
    Note,
    /// Sources, symbols or usings may be missing or wrong.
    Warning,
}

/// A usage error or an input the user named that cannot be read; the CLI
/// exits with status 2.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DiscoverError {
    NotFound {
        path: PathBuf,
    },
    /// A directory holds several solutions and nothing says which to check.
    MultipleSolutions {
        dir: PathBuf,
        solutions: Vec<PathBuf>,
    },
    /// Not a directory, solution, C# project or C# file.
    Unsupported {
        path: PathBuf,
    },
    Unreadable {
        path: PathBuf,
        reason: String,
    },
    /// `--framework` names a framework no project can be built for.
    NoSuchFramework {
        framework: String,
        /// The frameworks the projects target.
        available: Vec<String>,
    },
    /// A solution the user named could not be parsed.
    Malformed {
        path: PathBuf,
        line: Option<u32>,
        column: Option<u32>,
        reason: String,
    },
}

impl fmt::Display for DiscoverError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DiscoverError::NotFound { path } => write!(f, "`{}` does not exist", path.display()),
            DiscoverError::MultipleSolutions { dir, solutions } => {
                let names: Vec<String> = solutions
                    .iter()
                    .map(|s| format!("`{}`", s.display()))
                    .collect();
                write!(
                    f,
                    "`{}` contains several solutions: {}; ",
                    dir.display(),
                    names.join(", ")
                )?;
                match solutions.first() {
                    Some(first) => {
                        write!(f, "pass one of them: `rlc-sharp check {}`", first.display())
                    }
                    None => write!(f, "pass one of them"),
                }
            }
            DiscoverError::Unsupported { path } => write!(
                f,
                "`{}` is not a directory, a solution (.sln, .slnx, .slnf), a C# project (.csproj) or a C# file (.cs)",
                path.display()
            ),
            DiscoverError::NoSuchFramework {
                framework,
                available,
            } => write!(
                f,
                "no project targets `{framework}` or a framework compatible with it; the projects target {}",
                available.join(", ")
            ),
            DiscoverError::Unreadable { path, reason } => {
                write!(f, "cannot read `{}`: {reason}", path.display())
            }
            DiscoverError::Malformed {
                path,
                line,
                column,
                reason,
            } => {
                write!(f, "cannot parse `{}`", path.display())?;
                if let Some(line) = line {
                    write!(f, " at line {line}")?;
                    if let Some(column) = column {
                        write!(f, ", column {column}")?;
                    }
                }
                write!(f, ": {reason}")
            }
        }
    }
}

impl std::error::Error for DiscoverError {}

#[cfg(test)]
mod tests {
    use super::*;

    fn project(name: &str, references: Vec<usize>) -> Project {
        Project {
            name: name.into(),
            path: None,
            sources: Vec::new(),
            references,
            defines: Vec::new(),
            builds: Vec::new(),
            lang_version: None,
            target_frameworks: Vec::new(),
            global_usings: Vec::new(),
            sdk: None,
            is_sdk_style: true,
            assembly_name: None,
            root_namespace: None,
            test: None,
        }
    }

    #[test]
    fn transitive_references_survive_cycles() {
        let workspace = Workspace {
            root: PathBuf::new(),
            projects: vec![
                project("A", vec![1]),
                project("B", vec![2, 0]),
                project("C", vec![1]),
                project("D", vec![]),
            ],
            notes: Vec::new(),
            implicit: false,
        };
        assert_eq!(workspace.transitive_references(0), [1, 2]);
        assert_eq!(workspace.transitive_references(2), [0, 1]);
        assert!(workspace.transitive_references(3).is_empty());
        assert!(workspace.transitive_references(9).is_empty());
    }
}
