//! Loading projects and their references (breadth first, each level in
//! parallel), one evaluation per target framework, and merging the
//! evaluations of a project into a [`Project`].

use std::path::{Path, PathBuf};
use std::sync::Arc;

use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};

use super::eval::{self, Env, Evaluation, Reference};
use super::expand::unescape;
use super::framework::{self, Framework};
use super::input::Plan;
use super::path;
use super::xml::{Element, LoadError, XmlFile};
use super::{FrameworkDefines, NoteSeverity, Project, ProjectNote, Workspace};

/// A loaded project before references become indices.
struct Loaded {
    project: Project,
    references: Vec<Reference>,
    notes: Vec<ProjectNote>,
}

pub(crate) fn build(plan: Plan) -> Workspace {
    let env = Env::default();
    let mut notes = plan.notes;
    let mut loaded: FxHashMap<PathBuf, Loaded> = FxHashMap::default();
    let mut frontier: Vec<PathBuf> = Vec::new();
    let mut queued: FxHashSet<PathBuf> = FxHashSet::default();
    for seed in plan.seeds {
        if queued.insert(seed.clone()) {
            frontier.push(seed);
        }
    }
    while !frontier.is_empty() {
        let level: Vec<(PathBuf, Loaded)> = frontier
            .par_iter()
            .map(|p| (p.clone(), load(&env, p, &plan.globals)))
            .collect();
        frontier = Vec::new();
        for (project_path, project) in level {
            for reference in &project.references {
                if path::extension_lowercase(&reference.path) != "csproj" {
                    notes.push(located(
                        &reference.at,
                        NoteSeverity::Note,
                        format!(
                            "`{}` is not a C# project; skipped",
                            reference.path.display()
                        ),
                    ));
                } else if queued.insert(reference.path.clone()) {
                    frontier.push(reference.path.clone());
                }
            }
            loaded.insert(project_path, project);
        }
    }

    let mut paths: Vec<PathBuf> = loaded.keys().cloned().collect();
    paths.sort();
    let index: FxHashMap<&Path, usize> = paths
        .iter()
        .enumerate()
        .map(|(i, p)| (p.as_path(), i))
        .collect();
    let mut projects = Vec::with_capacity(paths.len() + 1);
    for project_path in &paths {
        let Some(entry) = loaded.remove(project_path) else {
            continue;
        };
        let mut project = entry.project;
        let mut references: Vec<usize> = entry
            .references
            .iter()
            .filter(|r| r.output_assembly)
            .filter_map(|r| index.get(r.path.as_path()).copied())
            .collect();
        references.sort_unstable();
        references.dedup();
        project.references = references;
        notes.extend(entry.notes);
        projects.push(project);
    }
    let implicit = projects.is_empty() && !plan.loose.is_empty();
    if !plan.loose.is_empty() {
        projects.push(implicit_project(&plan.root, plan.loose));
    }
    notes.sort_by(|a, b| {
        (&a.file, a.line, a.column, &a.message).cmp(&(&b.file, b.line, b.column, &b.message))
    });
    notes.dedup();
    Workspace {
        root: plan.root,
        projects,
        notes,
        implicit,
    }
}

fn located(loc: &super::expand::Loc, severity: NoteSeverity, message: String) -> ProjectNote {
    ProjectNote {
        file: loc.file.to_path_buf(),
        line: Some(loc.pos.line),
        column: Some(loc.pos.col),
        message,
        severity,
    }
}

fn implicit_project(root: &Path, sources: Vec<PathBuf>) -> Project {
    Project {
        name: root
            .file_name()
            .map_or_else(|| "files".to_owned(), |n| n.to_string_lossy().into_owned()),
        path: None,
        sources,
        references: Vec::new(),
        defines: Vec::new(),
        frameworks: Vec::new(),
        lang_version: None,
        target_frameworks: Vec::new(),
        global_usings: Vec::new(),
        sdk: None,
        is_sdk_style: false,
        assembly_name: None,
        root_namespace: None,
    }
}

/// Loads one project: an evaluation without target framework, then one per
/// framework of `TargetFrameworks` (MSBuild's inner builds), merged.
fn load(env: &Env, project: &Path, globals: &[(String, String)]) -> Loaded {
    let mut notes = Vec::new();
    let file = env.files.load(project);
    // A project we cannot parse is still checked: as an SDK project with the
    // default globs, so no file is lost.
    let fallback = Element::synthetic("Project", &[("Sdk", "Microsoft.NET.Sdk")]);
    let root: &Element = match file.as_ref() {
        Ok(parsed) => &parsed.root,
        Err(error) => {
            notes.push(load_failure(project, error));
            &fallback
        }
    };
    let outer = eval::evaluate(env, project, root, globals, false);
    let frameworks: Vec<String> = if outer.sdk_style {
        split_list(outer.props.value("TargetFrameworks"))
    } else {
        Vec::new()
    };
    let evaluations: Vec<Evaluation> = if frameworks.is_empty() {
        vec![eval::evaluate(env, project, root, globals, true)]
    } else {
        frameworks
            .iter()
            .map(|tfm| {
                let mut inner = globals.to_vec();
                inner.retain(|(n, _)| !n.eq_ignore_ascii_case("TargetFramework"));
                inner.push(("TargetFramework".to_owned(), tfm.clone()));
                eval::evaluate(env, project, root, &inner, true)
            })
            .collect()
    };
    notes.extend(outer.notes.iter().cloned());
    merge(
        project,
        &outer,
        evaluations,
        notes,
        file.as_ref().as_ref().ok(),
    )
}

fn load_failure(project: &Path, error: &LoadError) -> ProjectNote {
    let (line, column, what) = match error {
        LoadError::Malformed { pos, message } => (
            Some(pos.line),
            Some(pos.col),
            format!("malformed XML: {message}"),
        ),
        LoadError::Unreadable(message) => {
            (None, None, format!("cannot read the project: {message}"))
        }
    };
    ProjectNote {
        file: project.to_path_buf(),
        line,
        column,
        message: format!(
            "{what}; checking it as an SDK-style project with the default `**/*.cs` sources"
        ),
        severity: NoteSeverity::Warning,
    }
}

/// `a; b;;c` -> [a, b, c], without duplicates (case-insensitive).
fn split_list(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for part in text.split(';').map(str::trim).filter(|p| !p.is_empty()) {
        if !out.iter().any(|o| o.eq_ignore_ascii_case(part)) {
            out.push(part.to_owned());
        }
    }
    out
}

fn merge(
    project: &Path,
    outer: &Evaluation,
    evaluations: Vec<Evaluation>,
    mut notes: Vec<ProjectNote>,
    file: Option<&Arc<XmlFile>>,
) -> Loaded {
    let mut sources: Vec<PathBuf> = Vec::new();
    let mut references: Vec<Reference> = Vec::new();
    let mut global_usings = Vec::new();
    let mut frameworks: Vec<FrameworkDefines> = Vec::new();
    let mut target_frameworks = Vec::new();
    for evaluation in &evaluations {
        if evaluation.compiles {
            sources.extend(
                evaluation
                    .compile
                    .iter()
                    .filter(|f| path::extension_lowercase(f) == "cs")
                    .cloned(),
            );
        }
        for reference in &evaluation.references {
            if !references.iter().any(|r| r.path == reference.path) {
                references.push(reference.clone());
            }
        }
        if evaluation.sdk_style {
            for using in &evaluation.usings {
                if !global_usings.contains(using) {
                    global_usings.push(using.clone());
                }
            }
        }
        let tfm = target_framework(evaluation);
        let defines = defines(evaluation, tfm.as_deref(), &mut notes);
        if let Some(tfm) = &tfm
            && !target_frameworks.contains(tfm)
        {
            target_frameworks.push(tfm.clone());
        }
        frameworks.push(FrameworkDefines {
            target_framework: tfm,
            defines,
        });
        notes.extend(evaluation.notes.iter().cloned());
    }
    sources.sort();
    sources.dedup();
    let mut all_defines: Vec<String> = frameworks
        .iter()
        .flat_map(|f| f.defines.iter().cloned())
        .collect();
    all_defines.sort();
    all_defines.dedup();
    let framework_tainted = ["TargetFramework", "TargetFrameworks"]
        .iter()
        .any(|name| outer.props.get(name).is_some_and(|p| p.taint.is_some()));
    // A tainted framework property has its own note saying why, and so has
    // a project file we could not load.
    if let (Some(file), true) = (
        file,
        outer.sdk_style && target_frameworks.is_empty() && !framework_tainted,
    ) {
        notes.push(no_framework_note(project, outer, file));
    }
    let first_set = |name: &str| {
        evaluations
            .iter()
            .map(|e| e.props.value(name).trim())
            .find(|v| !v.is_empty())
            .map(str::to_owned)
    };
    Loaded {
        project: Project {
            name: project
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default(),
            path: Some(project.to_path_buf()),
            sources,
            references: Vec::new(),
            defines: all_defines,
            frameworks,
            lang_version: first_set("LangVersion"),
            target_frameworks,
            global_usings,
            sdk: outer.sdks.first().cloned(),
            is_sdk_style: outer.sdk_style,
            assembly_name: first_set("AssemblyName"),
            root_namespace: first_set("RootNamespace"),
        },
        references,
        notes,
    }
}

/// The evaluation's target framework: `TargetFramework`, or for legacy
/// projects the moniker of `TargetFrameworkIdentifier`/`TargetFrameworkVersion`.
fn target_framework(evaluation: &Evaluation) -> Option<String> {
    let tfm = evaluation.props.value("TargetFramework").trim();
    if !tfm.is_empty() {
        return Some(tfm.to_owned());
    }
    if evaluation.sdk_style {
        return None;
    }
    Framework::moniker_of(
        evaluation.props.value("TargetFrameworkIdentifier"),
        evaluation.props.value("TargetFrameworkVersion"),
    )
}

/// `DefineConstants` (split at `;` and `,`, as the compiler does) plus, for
/// SDK projects, the target framework's implicit symbols.
fn defines(
    evaluation: &Evaluation,
    tfm: Option<&str>,
    notes: &mut Vec<ProjectNote>,
) -> Vec<String> {
    let mut defines: Vec<String> = evaluation
        .props
        .value("DefineConstants")
        .split([';', ','])
        .map(|d| unescape(d.trim()))
        .filter(|d| !d.is_empty())
        .collect();
    let implicit =
        evaluation.sdk_style && !evaluation.props.is_true("DisableImplicitFrameworkDefines");
    if let (true, Some(tfm)) = (implicit, tfm) {
        match framework::parse(tfm) {
            Some(framework) => defines.extend(framework.implicit_defines()),
            None => {
                let at = evaluation
                    .props
                    .get("TargetFramework")
                    .and_then(|p| p.set_at.clone());
                notes.push(ProjectNote {
                    file: at.as_ref().map(|l| l.file.to_path_buf()).unwrap_or_default(),
                    line: at.as_ref().map(|l| l.pos.line),
                    column: at.as_ref().map(|l| l.pos.col),
                    message: format!(
                        "the target framework `{tfm}` is not one rlc-sharp knows (.NET, .NET Core, .NET Standard, .NET Framework); its preprocessor symbols are not defined"
                    ),
                    severity: NoteSeverity::Note,
                });
            }
        }
    }
    defines.sort();
    defines.dedup();
    defines
}

fn no_framework_note(project: &Path, outer: &Evaluation, file: &XmlFile) -> ProjectNote {
    let at = outer
        .props
        .get("TargetFramework")
        .and_then(|p| p.set_at.clone())
        .or_else(|| {
            outer
                .props
                .get("TargetFrameworks")
                .and_then(|p| p.set_at.clone())
        });
    let message = "no target framework: `TargetFramework` and `TargetFrameworks` are empty; \
                   framework symbols such as NET or NETFRAMEWORK are not defined"
        .to_owned();
    let (file, line, column) = match at {
        Some(loc) => (
            loc.file.to_path_buf(),
            Some(loc.pos.line),
            Some(loc.pos.col),
        ),
        None => (
            project.to_path_buf(),
            Some(file.root.pos.line),
            Some(file.root.pos.col),
        ),
    };
    ProjectNote {
        file,
        line,
        column,
        message,
        severity: NoteSeverity::Warning,
    }
}
