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
use super::{Build, BuildRef, NoteSeverity, Project, ProjectNote, TestEvidence, Workspace};

/// A loaded project before references become indices.
struct Loaded {
    project: Project,
    references: Vec<Reference>,
    /// The referenced project files of each build (output assemblies only).
    build_references: Vec<Vec<PathBuf>>,
    /// `IsPackable` is not false.
    packable: bool,
    notes: Vec<ProjectNote>,
}

pub(crate) fn build(plan: Plan, walk_entries: Option<usize>) -> Workspace {
    let mut env = Env::default();
    if let Some(n) = walk_entries {
        env.filesets.limits.walk_entries = n;
    }
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
    let mut build_references = Vec::with_capacity(paths.len());
    let mut packable = Vec::with_capacity(paths.len());
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
        build_references.push(
            entry
                .build_references
                .iter()
                .map(|paths| {
                    let mut refs: Vec<usize> = paths
                        .iter()
                        .filter_map(|p| index.get(p.as_path()).copied())
                        .collect();
                    refs.sort_unstable();
                    refs.dedup();
                    refs
                })
                .collect::<Vec<_>>(),
        );
        packable.push(entry.packable);
        notes.extend(entry.notes);
        projects.push(project);
    }
    resolve_build_references(&mut projects, &build_references);
    mark_test_support(&mut projects, &packable);
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

/// Gives each build's references the build of the referenced project it
/// compiles against: the one NuGet would pick for its framework, else (a
/// build MSBuild would refuse) the referenced project's first.
fn resolve_build_references(projects: &mut [Project], references: &[Vec<Vec<usize>>]) {
    let frameworks: Vec<Vec<String>> = projects
        .iter()
        .map(|p| {
            p.builds
                .iter()
                .map(|b| b.target_framework.clone().unwrap_or_default())
                .collect()
        })
        .collect();
    for (project, per_build) in projects.iter_mut().zip(references) {
        for (build, targets) in project.builds.iter_mut().zip(per_build) {
            build.references = targets
                .iter()
                .map(|&q| {
                    let candidates: Vec<&str> = frameworks[q].iter().map(String::as_str).collect();
                    let chosen = build
                        .target_framework
                        .as_deref()
                        .and_then(|tfm| framework::nearest(tfm, &candidates))
                        .unwrap_or(0);
                    BuildRef {
                        project: q,
                        build: chosen,
                    }
                })
                .collect();
        }
    }
}

/// Marks as test code the projects that only test projects reference
/// (test utilities, shared fixtures), to a fixed point. A packable project
/// is exempt: that is the library the tests exercise, in a repository with
/// no other project using it; a project nothing references stays as it is.
fn mark_test_support(projects: &mut [Project], packable: &[bool]) {
    loop {
        let mut changed = false;
        for q in 0..projects.len() {
            if projects[q].test.is_some() || packable[q] {
                continue;
            }
            let mut referrers = projects.iter().filter(|p| p.references.contains(&q));
            let first = referrers.next();
            if first.is_some_and(|p| p.test.is_some()) && referrers.all(|p| p.test.is_some()) {
                projects[q].test = Some(TestEvidence::ReferencedByTests);
                changed = true;
            }
        }
        if !changed {
            return;
        }
    }
}

fn implicit_project(root: &Path, sources: Vec<PathBuf>) -> Project {
    Project {
        name: root
            .file_name()
            .map_or_else(|| "files".to_owned(), |n| n.to_string_lossy().into_owned()),
        path: None,
        builds: vec![Build {
            target_framework: None,
            sources: sources.clone(),
            defines: Vec::new(),
            references: Vec::new(),
            global_usings: Vec::new(),
            assemblies: Vec::new(),
        }],
        sources,
        references: Vec::new(),
        defines: Vec::new(),
        lang_version: None,
        target_frameworks: Vec::new(),
        global_usings: Vec::new(),
        sdk: None,
        is_sdk_style: false,
        assembly_name: None,
        root_namespace: None,
        test: None,
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
    let mut builds: Vec<Build> = Vec::new();
    let mut build_references: Vec<Vec<PathBuf>> = Vec::new();
    let mut target_frameworks = Vec::new();
    for evaluation in &evaluations {
        let mut build_sources: Vec<PathBuf> = if evaluation.compiles {
            evaluation
                .compile
                .iter()
                .filter(|f| path::extension_lowercase(f) == "cs")
                .cloned()
                .collect()
        } else {
            Vec::new()
        };
        build_sources.sort();
        build_sources.dedup();
        sources.extend(build_sources.iter().cloned());
        for reference in &evaluation.references {
            if !references.iter().any(|r| r.path == reference.path) {
                references.push(reference.clone());
            }
        }
        build_references.push(
            evaluation
                .references
                .iter()
                .filter(|r| r.output_assembly)
                .map(|r| r.path.clone())
                .collect(),
        );
        let build_usings = if evaluation.sdk_style {
            evaluation.usings.clone()
        } else {
            Vec::new()
        };
        for using in &build_usings {
            if !global_usings.contains(using) {
                global_usings.push(using.clone());
            }
        }
        let tfm = target_framework(evaluation);
        let defines = defines(evaluation, tfm.as_deref(), &mut notes);
        if let Some(tfm) = &tfm
            && !target_frameworks.contains(tfm)
        {
            target_frameworks.push(tfm.clone());
        }
        builds.push(Build {
            target_framework: tfm,
            sources: build_sources,
            defines,
            references: Vec::new(),
            global_usings: build_usings,
            assemblies: evaluation.assemblies.clone(),
        });
        notes.extend(evaluation.notes.iter().cloned());
    }
    referenced_assemblies(project, outer, &mut builds, &mut notes);
    sources.sort();
    sources.dedup();
    let mut all_defines: Vec<String> = builds
        .iter()
        .flat_map(|b| b.defines.iter().cloned())
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
    let name = project
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let test = test_evidence(&name, outer, &evaluations);
    Loaded {
        project: Project {
            name,
            path: Some(project.to_path_buf()),
            sources,
            references: Vec::new(),
            defines: all_defines,
            builds,
            lang_version: first_set("LangVersion"),
            target_frameworks,
            global_usings,
            sdk: outer.sdks.first().cloned(),
            is_sdk_style: outer.sdk_style,
            assembly_name: first_set("AssemblyName"),
            root_namespace: first_set("RootNamespace"),
            test,
        },
        references,
        build_references,
        packable: !std::iter::once(outer).chain(&evaluations).any(|e| {
            e.props
                .value("IsPackable")
                .trim()
                .eq_ignore_ascii_case("false")
        }),
        notes,
    }
}

/// Packages, SDKs (or, in a legacy project, assemblies) that make a project
/// one a test runner runs: the test SDK, the adapters, the self-running
/// `NUnitLite`, MSTest's and TUnit's all-in-one packages and SDK, the legacy
/// MSTest assembly, and BenchmarkDotNet. Names, or prefixes ending in `.`.
const TEST_RUNNERS: &[&str] = &[
    "Microsoft.NET.Test.Sdk",
    "NUnit3TestAdapter",
    "NUnitLite",
    "xunit.runner.",
    "MSTest",
    "MSTest.Sdk",
    "MSTest.TestAdapter",
    "TUnit",
    "Microsoft.VisualStudio.QualityTools.UnitTestFramework",
    // A benchmark harness: run as a runner runs tests, shipped nowhere.
    "BenchmarkDotNet",
];

/// The test frameworks' own packages (or assemblies): referenced by test
/// projects and test helpers, but also by products (a game's in-game test
/// browser, a testing toolkit shipped to users).
const TEST_FRAMEWORKS: &[&str] = &[
    "xunit",
    "xunit.",
    "NUnit",
    "NUnit.",
    "MSTest.",
    "Microsoft.VisualStudio.TestPlatform.TestFramework",
    "TUnit.",
];

fn named_in(list: &[&str], name: &str) -> bool {
    list.iter().any(|known| {
        if known.ends_with('.') {
            name.len() > known.len()
                && name
                    .get(..known.len())
                    .is_some_and(|p| p.eq_ignore_ascii_case(known))
        } else {
            name.eq_ignore_ascii_case(known)
        }
    })
}

/// A project name that says tests: a part (between `.`, `-`, `_`) naming
/// tests (`App.Tests`, `UnitTests`, `TestUtilities`) or specs.
fn test_like_name(name: &str) -> bool {
    name.split(['.', '-', '_']).any(|part| {
        let part = part.to_ascii_lowercase();
        part.contains("test") || part == "spec" || part == "specs"
    })
}

/// The first of the signals that make a project test code: `IsTestProject`
/// set to true (by any build), a test runner's package or SDK, or a test
/// framework's package or assembly in a project whose name says tests.
/// `IsTestProject=false` is no signal: test libraries that are not run
/// themselves set it. A framework alone is none in a product that ships it.
fn test_evidence(
    project_name: &str,
    outer: &Evaluation,
    evaluations: &[Evaluation],
) -> Option<TestEvidence> {
    let all = || std::iter::once(outer).chain(evaluations);
    if all().any(|e| e.props.is_true("IsTestProject")) {
        return Some(TestEvidence::IsTestProject);
    }
    let references = || all().flat_map(|e| e.sdks.iter().chain(&e.packages));
    references()
        .find(|name| named_in(TEST_RUNNERS, name))
        .or_else(|| {
            references()
                .find(|name| named_in(TEST_FRAMEWORKS, name))
                .filter(|_| test_like_name(project_name))
        })
        .map(|name| TestEvidence::Framework(name.clone()))
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

/// Where NuGet's restore output is: `ProjectAssetsFile`, else
/// `project.assets.json` in `MSBuildProjectExtensionsPath` (which follows
/// `BaseIntermediateOutputPath`), else in `obj/`; relative to the project.
fn assets_file(project_dir: &Path, outer: &Evaluation) -> PathBuf {
    let set = |name: &str| Some(unescape(outer.props.value(name).trim())).filter(|v| !v.is_empty());
    match set("ProjectAssetsFile") {
        Some(file) => path::resolve(project_dir, &file),
        None => path::resolve(
            project_dir,
            &set("MSBuildProjectExtensionsPath").unwrap_or_else(|| "obj".to_owned()),
        )
        .join("project.assets.json"),
    }
}

/// Adds to each build the assemblies of the project's restore output, when
/// it was restored, before those of its `<Reference>`s; what is missing is a note.
fn referenced_assemblies(
    project: &Path,
    outer: &Evaluation,
    builds: &mut [Build],
    notes: &mut Vec<ProjectNote>,
) {
    static LOCATIONS: std::sync::OnceLock<super::Locations> = std::sync::OnceLock::new();
    let Some(dir) = project.parent() else { return };
    let assets = assets_file(dir, outer);
    let text = match std::fs::metadata(&assets) {
        Ok(m) if m.is_file() && m.len() <= 256 << 20 => std::fs::read_to_string(&assets),
        _ => return,
    };
    let note = |message: String| ProjectNote {
        file: assets.clone(),
        line: None,
        column: None,
        message,
        severity: NoteSeverity::Note,
    };
    let text = match text {
        Ok(t) => t,
        Err(e) => {
            notes.push(note(format!("cannot read the restore output: {e}")));
            return;
        }
    };
    let locations = LOCATIONS.get_or_init(super::Locations::from_env);
    for build in builds {
        match super::from_assets(&text, build.target_framework.as_deref(), locations) {
            Ok(found) => {
                let hinted = std::mem::replace(&mut build.assemblies, found.paths);
                for path in hinted {
                    if !build.assemblies.contains(&path) {
                        build.assemblies.push(path);
                    }
                }
                notes.extend(
                    found
                        .missing
                        .into_iter()
                        .map(|m| note(format!("referenced assembly not read: {m}"))),
                );
            }
            Err(e) => notes.push(note(format!("restore output not used: {e}"))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(path: &Path, text: &str) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    /// A legacy project's `<Reference>`s with a `HintPath` (child or
    /// attribute, through a property, in another letter case) or a DLL path
    /// as `Include`; and a restore output moved by `BaseIntermediateOutputPath`.
    #[test]
    fn hint_paths_and_a_moved_restore_output() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let hinted = root.join("packages/Acme.Client.1.0.0/lib/net45/Acme.Client.dll");
        let other = root.join("packages/other/Other.dll");
        let direct = root.join("App/lib/Direct.dll");
        let restored = root.join("nuget/acme.json/2.0.0/lib/net472/Acme.Json.dll");
        for dll in [&hinted, &other, &direct, &restored] {
            write(dll, "MZ");
        }
        write(
            &root.join("Directory.Build.props"),
            r"<Project><PropertyGroup><BaseIntermediateOutputPath>build\obj\</BaseIntermediateOutputPath></PropertyGroup></Project>",
        );
        let project = root.join("App/App.csproj");
        write(
            &project,
            r#"<Project ToolsVersion="15.0" xmlns="http://schemas.microsoft.com/developer/msbuild/2003">
  <Import Project="$(MSBuildExtensionsPath)\$(MSBuildToolsVersion)\Microsoft.Common.props" />
  <PropertyGroup>
    <TargetFrameworkVersion>v4.7.2</TargetFrameworkVersion>
    <PackagesDir>..\packages</PackagesDir>
  </PropertyGroup>
  <ItemGroup>
    <Reference Include="System" />
    <Reference Include="Acme.Client, Version=1.0.0.0, Culture=neutral">
      <HintPath>$(PackagesDir)\Acme.Client.1.0.0\lib\net45\Acme.Client.dll</HintPath>
    </Reference>
    <Reference Include="Other" HintPath="..\PACKAGES\other\Other.dll" />
    <Reference Include="lib\Direct.dll" />
    <Reference Include="Gone, Version=2.0.0.0"><HintPath>..\packages\Gone\Gone.dll</HintPath></Reference>
  </ItemGroup>
  <Import Project="$(MSBuildToolsPath)\Microsoft.CSharp.targets" />
</Project>"#,
        );
        let assets = serde_json::json!({
            "targets": { ".NETFramework,Version=v4.7.2": { "Acme.Json/2.0.0": {
                "type": "package",
                "compile": { "lib/net472/Acme.Json.dll": {} }
            } } },
            "libraries": { "Acme.Json/2.0.0": { "type": "package", "path": "acme.json/2.0.0" } },
            "packageFolders": { root.join("nuget").to_string_lossy(): {} }
        });
        write(
            &root.join("App/build/obj/project.assets.json"),
            &assets.to_string(),
        );
        let ws = super::super::discover(std::slice::from_ref(&project)).unwrap();
        let build = &ws.projects[0].builds[0];
        assert_eq!(build.target_framework.as_deref(), Some("net472"));
        assert_eq!(build.assemblies, [restored, hinted, other, direct]);
        let notes: Vec<(Option<u32>, &str)> = ws
            .notes
            .iter()
            .map(|n| (n.line, n.message.as_str()))
            .collect();
        let gone = root.join("packages/Gone/Gone.dll");
        assert_eq!(
            notes,
            [(
                Some(14),
                format!(
                    "referenced assembly not read: `{}` of the reference `Gone` does not exist; its types stay unknown",
                    gone.display()
                )
                .as_str()
            )]
        );
        assert!(ws.notes.iter().all(|n| n.severity == NoteSeverity::Note));
    }
}
