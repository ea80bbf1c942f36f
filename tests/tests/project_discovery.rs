//! Project discovery on the MSBuild fixtures in `tests/fixtures/projects/`:
//! exact source lists, preprocessor symbols, global usings, references and
//! notes for each rule of the evaluation.

use std::path::{Path, PathBuf};

use rlc_csharp::project::{
    BuildRef, DiscoverError, GlobalUsing, NoteSeverity, Project, ProjectNote, TestEvidence,
    Workspace, discover,
};

fn fixture(case: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/projects")
        .join(case)
}

fn discover_case(case: &str) -> Workspace {
    discover(&[fixture(case)]).unwrap_or_else(|e| panic!("discovering {case}: {e}"))
}

fn rel(root: &Path, path: &Path) -> String {
    let relative = path.strip_prefix(root).unwrap_or(path);
    relative.to_string_lossy().replace('\\', "/")
}

fn project<'w>(workspace: &'w Workspace, name: &str) -> &'w Project {
    workspace
        .projects
        .iter()
        .find(|p| p.name == name)
        .unwrap_or_else(|| {
            let names: Vec<_> = workspace.projects.iter().map(|p| &p.name).collect();
            panic!("no project {name} among {names:?}")
        })
}

fn sources(workspace: &Workspace, name: &str) -> Vec<String> {
    project(workspace, name)
        .sources
        .iter()
        .map(|s| rel(&workspace.root, s))
        .collect()
}

fn names(workspace: &Workspace) -> Vec<&str> {
    workspace.projects.iter().map(|p| p.name.as_str()).collect()
}

/// Notes as `file:line: message`, relative to the root.
fn notes(workspace: &Workspace) -> Vec<String> {
    workspace
        .notes
        .iter()
        .map(|n| {
            format!(
                "{}:{}: {}",
                rel(&workspace.root, &n.file),
                n.line.unwrap_or(0),
                n.message
            )
        })
        .collect()
}

fn has(list: &[String], item: &str) -> bool {
    list.iter().any(|s| s == item)
}

fn namespaces(items: &[&str]) -> Vec<GlobalUsing> {
    items
        .iter()
        .map(|n| GlobalUsing::Namespace((*n).to_owned()))
        .collect()
}

const BASE_USINGS: &[&str] = &[
    "System",
    "System.Collections.Generic",
    "System.IO",
    "System.Linq",
    "System.Net.Http",
    "System.Threading",
    "System.Threading.Tasks",
];

#[test]
fn default_globs_skip_output_hidden_and_nested_projects() {
    let ws = discover_case("sdk_default_globs");
    assert_eq!(names(&ws), ["App", "Nested"]);
    assert_eq!(sources(&ws, "App"), ["App/Program.cs", "App/Sub/Helper.cs"]);
    assert_eq!(
        sources(&ws, "Nested"),
        ["App/Nested/Deeper/Deep.cs", "App/Nested/Inner.cs"]
    );
    let app = project(&ws, "App");
    assert!(app.is_sdk_style);
    assert_eq!(app.sdk.as_deref(), Some("Microsoft.NET.Sdk"));
    assert_eq!(app.assembly_name.as_deref(), Some("App"));
    assert_eq!(app.root_namespace.as_deref(), Some("App"));
    assert_eq!(app.target_frameworks, ["net8.0"]);
    assert!(app.global_usings.is_empty());
    assert!(!ws.implicit);
    assert_eq!(notes(&ws), Vec::<String>::new());
}

#[test]
fn compile_include_exclude_remove_update() {
    let ws = discover_case("compile_items");
    assert_eq!(
        sources(&ws, "Lib"),
        [
            "Extra/Extra1.cs",
            "Lib/Kept.cs",
            "Linked/File.cs",
            "Recursive/R.cs",
            "Recursive/Sub/R2.cs",
            "Shared/A.cs",
            "Shared/B.cs",
        ]
    );
    let missing = fixture("compile_items/Lib/Missing.cs");
    assert_eq!(
        notes(&ws),
        [format!(
            "Lib/Lib.csproj:15: Compile item `{}` does not exist",
            missing.display()
        )]
    );
}

#[test]
fn enable_default_items_switches() {
    let ws = discover_case("default_items_disabled");
    assert_eq!(sources(&ws, "NoCompile"), ["NoCompile/Only.cs"]);
    assert_eq!(sources(&ws, "NoItems"), ["NoItems/Explicit/E.cs"]);
}

#[test]
fn output_paths_and_default_item_excludes() {
    let ws = discover_case("output_paths");
    // bin/ and obj/ are only excluded as BaseOutputPath and
    // BaseIntermediateOutputPath, which Directory.Build.props moved.
    assert_eq!(
        sources(&ws, "P"),
        [
            "P/Main.cs",
            "P/bin/NotOutput.cs",
            "P/obj/NotIntermediate.cs"
        ]
    );
}

#[test]
fn project_references_are_transitive_and_checked() {
    let ws = discover_case("references");
    // Lib and Core are not in the solution, Tool is only a build dependency:
    // all are loaded; Unreferenced is not.
    assert_eq!(names(&ws), ["App", "Core", "Lib", "Tool"]);
    let index = |name: &str| ws.projects.iter().position(|p| p.name == name).unwrap();
    assert_eq!(project(&ws, "App").references, [index("Lib")]);
    assert_eq!(project(&ws, "Lib").references, [index("Core")]);
    assert_eq!(
        ws.transitive_references(index("App")),
        [index("Core"), index("Lib")]
    );
    assert!(ws.transitive_references(index("Core")).is_empty());
    let missing = fixture("references/Missing/Missing.csproj");
    let native = fixture("references/Native/Native.vcxproj");
    assert_eq!(
        notes(&ws),
        [
            format!(
                "App/App.csproj:7: referenced project `{}` does not exist",
                missing.display()
            ),
            format!(
                "Lib/Lib.csproj:7: `{}` is not a C# project; skipped",
                native.display()
            ),
        ]
    );
    let note = &ws.notes[0];
    assert_eq!(
        (note.column, note.severity),
        (Some(5), NoteSeverity::Warning)
    );
}

#[test]
fn directory_build_props_and_targets_chain() {
    let ws = discover_case("directory_build");
    let lib = project(&ws, "Lib");
    let tests = project(&ws, "Lib.Tests");
    for (p, extra) in [(lib, None), (tests, Some("TESTS_PROPS"))] {
        for symbol in [
            "ROOT_PROPS",
            "SRC_PROPS",
            "MODERN",
            "DEBUG",
            "TRACE",
            "NET8_0",
            "NET",
        ] {
            assert!(
                has(&p.defines, symbol),
                "{symbol} missing from {:?}",
                p.defines
            );
        }
        assert_eq!(has(&p.defines, "TESTS_PROPS"), extra.is_some());
        assert_eq!(p.lang_version.as_deref(), Some("12.0"));
    }
    assert_eq!(lib.root_namespace.as_deref(), Some("Acme.Lib"));
    assert_eq!(tests.root_namespace.as_deref(), Some("Acme.Lib.Tests"));
    // The Remove in Directory.Build.props runs before the SDK's glob adds the
    // file, so Early.cs stays; the one in Directory.Build.targets works.
    assert_eq!(sources(&ws, "Lib"), ["src/Lib/Early.cs", "src/Lib/Lib.cs"]);
    assert_eq!(notes(&ws), Vec::<String>::new());
}

#[test]
fn implicit_usings_per_sdk_and_using_items() {
    let ws = discover_case("implicit_usings");
    assert_eq!(
        project(&ws, "Console").global_usings,
        namespaces(BASE_USINGS)
    );

    let mut web = BASE_USINGS.to_vec();
    web.extend([
        "System.Net.Http.Json",
        "Microsoft.AspNetCore.Builder",
        "Microsoft.AspNetCore.Hosting",
        "Microsoft.AspNetCore.Http",
        "Microsoft.AspNetCore.Routing",
        "Microsoft.Extensions.Configuration",
        "Microsoft.Extensions.DependencyInjection",
        "Microsoft.Extensions.Hosting",
        "Microsoft.Extensions.Logging",
    ]);
    assert_eq!(project(&ws, "Web").global_usings, namespaces(&web));
    assert_eq!(
        project(&ws, "Web").sdk.as_deref(),
        Some("Microsoft.NET.Sdk.Web")
    );

    let mut worker = BASE_USINGS.to_vec();
    worker.extend([
        "Microsoft.Extensions.Configuration",
        "Microsoft.Extensions.DependencyInjection",
        "Microsoft.Extensions.Hosting",
        "Microsoft.Extensions.Logging",
    ]);
    assert_eq!(project(&ws, "Worker").global_usings, namespaces(&worker));

    let framework: Vec<&str> = BASE_USINGS
        .iter()
        .copied()
        .filter(|n| *n != "System.Net.Http")
        .collect();
    assert_eq!(
        project(&ws, "Framework").global_usings,
        namespaces(&framework)
    );
    assert_eq!(
        project(&ws, "Framework").lang_version.as_deref(),
        Some("10")
    );

    let mut custom = namespaces(&[
        "System",
        "System.Collections.Generic",
        "System.Linq",
        "System.Threading",
        "System.Threading.Tasks",
        "Acme.Core",
    ]);
    custom.extend([
        GlobalUsing::Static("System.Math".into()),
        GlobalUsing::Alias {
            alias: "Json".into(),
            target: "System.Text.Json".into(),
        },
        GlobalUsing::Alias {
            alias: "Imm".into(),
            target: "System.Collections.Immutable".into(),
        },
    ]);
    assert_eq!(project(&ws, "Custom").global_usings, custom);

    // `<Using>` items apply without ImplicitUsings.
    assert_eq!(
        project(&ws, "NoImplicit").global_usings,
        namespaces(&["Acme.Only"])
    );

    let wpf = project(&ws, "Wpf");
    assert_eq!(
        wpf.global_usings,
        namespaces(&[
            "System",
            "System.Collections.Generic",
            "System.Linq",
            "System.Threading",
            "System.Threading.Tasks",
            "System.Drawing",
            "System.Windows.Forms",
        ])
    );
    assert!(has(&wpf.defines, "WINDOWS") && has(&wpf.defines, "NET8_0"));
}

#[test]
fn multi_targeting_unions_sources_and_keeps_per_framework_symbols() {
    let ws = discover_case("multi_target");
    let multi = project(&ws, "Multi");
    assert_eq!(
        multi.target_frameworks,
        ["net8.0", "netstandard2.0", "net462"]
    );
    assert_eq!(
        sources(&ws, "Multi"),
        [
            "Multi/Common.cs",
            "Multi/Platform/Legacy.cs",
            "Multi/Platform/Modern.cs"
        ]
    );
    let index = |name: &str| ws.projects.iter().position(|p| p.name == name).unwrap();
    assert_eq!(multi.references, [index("Polyfill")]);

    let per: Vec<(&str, &Vec<String>)> = multi
        .builds
        .iter()
        .map(|b| (b.target_framework.as_deref().unwrap_or(""), &b.defines))
        .collect();
    // Each build compiles its own items and references its own projects.
    let build_sources: Vec<Vec<String>> = multi
        .builds
        .iter()
        .map(|b| b.sources.iter().map(|s| rel(&ws.root, s)).collect())
        .collect();
    assert_eq!(
        build_sources,
        [
            vec!["Multi/Common.cs", "Multi/Platform/Modern.cs"],
            vec!["Multi/Common.cs"],
            vec!["Multi/Common.cs", "Multi/Platform/Legacy.cs"],
        ]
    );
    let build_refs: Vec<Vec<BuildRef>> =
        multi.builds.iter().map(|b| b.references.clone()).collect();
    assert_eq!(
        build_refs,
        [
            vec![],
            vec![BuildRef {
                project: index("Polyfill"),
                build: 0
            }],
            vec![]
        ]
    );
    assert_eq!(
        per.iter().map(|(t, _)| *t).collect::<Vec<_>>(),
        ["net8.0", "netstandard2.0", "net462"]
    );
    let (_, net8) = per[0];
    let (_, standard) = per[1];
    let (_, framework) = per[2];
    for symbol in [
        "DEBUG",
        "TRACE",
        "SHARED",
        "NOT_STANDARD",
        "NET",
        "NET8_0",
        "NETCOREAPP",
        "NET8_0_OR_GREATER",
        "NETCOREAPP3_1_OR_GREATER",
    ] {
        assert!(has(net8, symbol), "net8.0 lacks {symbol}: {net8:?}");
    }
    assert!(!has(net8, "NET9_0_OR_GREATER") && !has(net8, "STANDARD_ONLY"));
    for symbol in [
        "SHARED",
        "STANDARD_ONLY",
        "NETSTANDARD",
        "NETSTANDARD2_0",
        "NETSTANDARD1_6_OR_GREATER",
    ] {
        assert!(
            has(standard, symbol),
            "netstandard2.0 lacks {symbol}: {standard:?}"
        );
    }
    assert!(!has(standard, "NOT_STANDARD") && !has(standard, "NETSTANDARD2_1_OR_GREATER"));
    for symbol in [
        "FEATURE_APPDOMAIN",
        "NETFRAMEWORK",
        "NET462",
        "NET461_OR_GREATER",
        "NOT_STANDARD",
    ] {
        assert!(
            has(framework, symbol),
            "net462 lacks {symbol}: {framework:?}"
        );
    }
    assert!(!has(framework, "NET47_OR_GREATER"));
    for symbol in [
        "NET8_0",
        "NETSTANDARD2_0",
        "NET462",
        "STANDARD_ONLY",
        "FEATURE_APPDOMAIN",
    ] {
        assert!(has(&multi.defines, symbol), "union lacks {symbol}");
    }
    let mut sorted = multi.defines.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted, multi.defines);
}

#[test]
fn legacy_project_uses_explicit_items_and_its_own_defines() {
    let ws = discover_case("legacy");
    let legacy = project(&ws, "Legacy");
    assert!(!legacy.is_sdk_style);
    assert_eq!(legacy.sdk, None);
    // Link is only how the IDE shows the file.
    assert_eq!(
        sources(&ws, "Legacy"),
        [
            "Legacy/Program.cs",
            "Legacy/Properties/AssemblyInfo.cs",
            "Shared/Linked.cs"
        ]
    );
    assert_eq!(legacy.defines, ["DEBUG", "LEGACY", "TRACE"]);
    assert_eq!(legacy.target_frameworks, ["net472"]);
    assert_eq!(legacy.assembly_name.as_deref(), Some("Acme.Legacy"));
    assert_eq!(legacy.root_namespace.as_deref(), Some("Acme.Legacy"));
    // Directory.Build.props comes through the toolset's Microsoft.Common.props.
    assert_eq!(legacy.lang_version.as_deref(), Some("7.3"));
    assert!(legacy.global_usings.is_empty());
    // An unconditional import from Visual Studio's installation is noted;
    // the conditional one is skipped by its condition.
    assert_eq!(
        notes(&ws),
        [
            r"Legacy/Legacy.csproj:31: `Microsoft\VisualStudio\v\TextTemplating\Microsoft.TextTemplating.targets` of the MSBuild installation is not modelled by rlc-sharp; skipped"
        ]
    );
    assert_eq!(ws.notes[0].severity, NoteSeverity::Note);
}

#[test]
fn sdk_forms_explicit_imports_elements_unknown_and_non_compiling() {
    let ws = discover_case("sdk_forms");
    let explicit = project(&ws, "ExplicitImport");
    assert!(explicit.is_sdk_style);
    assert_eq!(explicit.sdk.as_deref(), Some("Microsoft.NET.Sdk.Web"));
    assert!(explicit.global_usings.contains(&GlobalUsing::Namespace(
        "Microsoft.AspNetCore.Builder".into()
    )));
    assert_eq!(
        sources(&ws, "ExplicitImport"),
        ["ExplicitImport/Program.cs"]
    );

    let element = project(&ws, "SdkElement");
    assert_eq!(element.sdk.as_deref(), Some("Microsoft.NET.Sdk.Worker"));
    assert_eq!(sources(&ws, "SdkElement"), ["SdkElement/Program.cs"]);

    // An SDK we do not know is evaluated as Microsoft.NET.Sdk, with a note.
    let extras = project(&ws, "Extras");
    assert_eq!(extras.sdk.as_deref(), Some("MSBuild.Sdk.Extras"));
    assert_eq!(extras.target_frameworks, ["netstandard2.0", "net6.0"]);
    assert_eq!(sources(&ws, "Extras"), ["Extras/Lib.cs"]);

    // NoTargets projects compile nothing.
    assert!(project(&ws, "Docs").sources.is_empty());

    assert_eq!(
        notes(&ws),
        [
            "Docs/Docs.csproj:1: the SDK `Microsoft.Build.NoTargets` compiles no C#; the project's sources are not checked",
            "Extras/Extras.csproj:1: the MSBuild SDK `MSBuild.Sdk.Extras` is not known to rlc-sharp; \
             the project is evaluated as a Microsoft.NET.Sdk project",
        ]
    );
}

#[test]
fn sln_lists_csharp_projects_only() {
    let ws = discover(&[fixture("solution_sln/X.sln")]).unwrap();
    assert_eq!(ws.root, fixture("solution_sln"));
    assert_eq!(names(&ws), ["A"]);
    let vb = fixture("solution_sln/src/B/B.vbproj");
    let gone = fixture("solution_sln/src/Gone/Gone.csproj");
    assert_eq!(
        notes(&ws),
        [
            format!("X.sln:6: `{}` is not a C# project; skipped", vb.display()),
            format!(
                "X.sln:8: the project `{}` listed here does not exist",
                gone.display()
            ),
        ]
    );
    assert_eq!(ws.notes[1].severity, NoteSeverity::Warning);
}

#[test]
fn slnx_and_solution_filter() {
    let ws = discover_case("solution_slnx");
    assert_eq!(names(&ws), ["A", "B"]);
    // $(SolutionName) is a global property of solution builds.
    assert!(has(&project(&ws, "A").defines, "FROM_X"));

    let filtered = discover(&[fixture("solution_slnx/filters/OnlyB.slnf")]).unwrap();
    assert_eq!(names(&filtered), ["B"]);
    assert!(has(&project(&filtered, "B").defines, "FROM_X"));
}

#[test]
fn several_solutions_in_a_directory_is_an_error_naming_them() {
    let dir = fixture("multiple_solutions");
    let error = discover(std::slice::from_ref(&dir)).unwrap_err();
    let DiscoverError::MultipleSolutions { solutions, .. } = &error else {
        panic!("unexpected error {error:?}");
    };
    assert_eq!(solutions, &[dir.join("First.sln"), dir.join("Second.slnx")]);
    let message = error.to_string();
    assert!(
        message.contains("First.sln") && message.contains("Second.slnx"),
        "{message}"
    );
    assert!(
        message.contains(&format!(
            "pass one of them: `rlc-sharp check {}`",
            dir.join("First.sln").display()
        )),
        "{message}"
    );
}

#[test]
fn directory_without_solution_takes_every_project_below() {
    let ws = discover_case("no_solution");
    assert_eq!(names(&ws), ["One", "Two"]);
    assert_eq!(sources(&ws, "Two"), ["two/deep/Two.cs"]);
}

#[test]
fn directory_without_projects_is_one_implicit_project() {
    let ws = discover_case("no_projects");
    assert!(ws.implicit);
    assert_eq!(ws.projects.len(), 1);
    let implicit = &ws.projects[0];
    assert_eq!(implicit.path, None);
    assert_eq!(implicit.name, "no_projects");
    assert_eq!(sources(&ws, "no_projects"), ["a.cs", "sub/b.cs"]);
    assert_eq!(ws.notes.len(), 1);
    assert!(
        ws.notes[0].message.contains("checking the 2 C# file(s)"),
        "{:?}",
        ws.notes
    );
    assert_eq!(ws.notes[0].severity, NoteSeverity::Note);
}

#[test]
fn loose_files_form_the_implicit_project() {
    let a = fixture("no_projects/a.cs");
    let b = fixture("no_projects/sub/b.cs");
    let ws = discover(&[b.clone(), a.clone(), a.clone()]).unwrap();
    assert!(ws.implicit);
    assert_eq!(ws.root, fixture("no_projects"));
    assert_eq!(ws.projects[0].sources, [a, b]);
}

#[test]
fn projects_and_loose_files_together() {
    let ws = discover(&[
        fixture("no_solution/one/One.csproj"),
        fixture("no_projects/a.cs"),
    ])
    .unwrap();
    assert!(!ws.implicit);
    assert_eq!(ws.root, fixture(""));
    assert_eq!(ws.projects.len(), 2);
    assert_eq!(ws.projects[0].name, "One");
    assert_eq!(ws.projects[1].path, None);
}

#[test]
fn malformed_project_is_checked_with_default_globs() {
    let ws = discover_case("malformed");
    assert_eq!(
        sources(&ws, "Broken"),
        ["Broken/Code.cs", "Broken/Sub/More.cs"]
    );
    let broken = project(&ws, "Broken");
    assert!(broken.is_sdk_style);
    let note = ws
        .notes
        .iter()
        .find(|n| n.file.ends_with("Broken.csproj"))
        .expect("a note on the malformed project");
    assert_eq!((note.line, note.severity), (Some(5), NoteSeverity::Warning));
    assert!(note.column.is_some());
    assert!(
        note.message.starts_with("malformed XML"),
        "{}",
        note.message
    );

    // A malformed Directory.Build.props is skipped with a note; the project
    // itself is fine.
    assert_eq!(sources(&ws, "Ok"), ["BadProps/Ok/Ok.cs"]);
    assert!(!has(&project(&ws, "Ok").defines, "NEVER"));
    let props: Vec<&ProjectNote> = ws
        .notes
        .iter()
        .filter(|n| n.file.ends_with("BadProps/Directory.Build.props"))
        .collect();
    assert_eq!(props.len(), 1, "{:?}", ws.notes);
    assert!(
        props[0]
            .message
            .contains("malformed XML, file not imported")
    );
}

#[test]
fn conditions_and_property_functions() {
    let ws = discover_case("conditions");
    let cond = project(&ws, "Cond");
    assert_eq!(cond.assembly_name.as_deref(), Some("COND.Debug"));
    for symbol in [
        "HAS_MARKER",
        "SLASHES",
        "DEBUG_ANYCPU",
        "FLAVORED",
        "COMPARED",
    ] {
        assert!(
            has(&cond.defines, symbol),
            "{symbol} missing from {:?}",
            cond.defines
        );
    }
    for symbol in ["HAS_ABSENT", "NOT_BLUE", "ON_CI"] {
        assert!(
            !has(&cond.defines, symbol),
            "{symbol} should not be defined"
        );
    }
    let notes = notes(&ws);
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(
        notes[0].starts_with("Cond/Cond.csproj:29: `DefineConstants` (and with it the preprocessor symbols) may be wrong: "),
        "{}",
        notes[0]
    );
    assert!(
        notes[0].contains("[System.Environment]::GetEnvironmentVariable"),
        "{}",
        notes[0]
    );
}

/// `tests/fixtures/projects/repo_root`: a repository root computed as
/// open-telemetry-dotnet does, `GetParent($(MSBuildThisFileDirectory)).Parent.FullName`
/// from `build/`, names a project reference and a shared source file. Both
/// are followed, without a note, and the checker sees the referenced type
/// that adopts the resource (without it the exporter would be a leak).
#[test]
fn repo_root_from_directory_get_parent_is_followed() {
    let ws = discover_case("repo_root");
    assert_eq!(names(&ws), ["App", "Lib"]);
    let lib = ws.projects.iter().position(|p| p.name == "Lib").unwrap();
    assert_eq!(project(&ws, "App").references, [lib]);
    assert_eq!(
        sources(&ws, "App"),
        ["src/App/Program.cs", "src/Shared/Guard.cs"]
    );
    assert_eq!(notes(&ws), Vec::<String>::new());
    let run = rlc_sharp::driver::run(&rlc_sharp::driver::RunOptions {
        paths: vec![fixture("repo_root/Repo.slnx")],
        // As `check` runs: the processor's adoption of its argument is inferred.
        infer: true,
        ..Default::default()
    })
    .expect("run");
    let found: Vec<_> = run
        .diagnostics
        .iter()
        .map(|d| format!("{}: {}", d.rule, d.message))
        .collect();
    assert_eq!(found, Vec::<String>::new());
}

/// `tests/fixtures/projects/frameworks`: a library built for netstandard2.0
/// and net8.0 (symbols, items and project references per framework), and
/// test projects recognised by each signal.
#[test]
fn builds_follow_target_framework_conditions() {
    let ws = discover_case("frameworks");
    let lib = project(&ws, "Lib");
    let per_build: Vec<(Option<&str>, Vec<String>)> = lib
        .builds
        .iter()
        .map(|b| {
            (
                b.target_framework.as_deref(),
                b.sources.iter().map(|s| rel(&ws.root, s)).collect(),
            )
        })
        .collect();
    assert_eq!(
        per_build,
        [
            (
                Some("netstandard2.0"),
                vec![
                    "Lib/Common.cs".to_owned(),
                    "Lib/Legacy/Polyfill.cs".to_owned(),
                    "Lib/Owner.cs".to_owned(),
                    "Lib/Streams.cs".to_owned(),
                ]
            ),
            (
                Some("net8.0"),
                vec![
                    "Lib/Common.cs".to_owned(),
                    "Lib/Modern/Spans.cs".to_owned(),
                    "Lib/Owner.cs".to_owned(),
                    "Lib/Streams.cs".to_owned(),
                ]
            ),
        ]
    );
    assert!(
        has(&lib.builds[0].defines, "LEGACY_IO") && has(&lib.builds[0].defines, "NETSTANDARD2_0")
    );
    assert!(
        !has(&lib.builds[1].defines, "LEGACY_IO")
            && has(&lib.builds[1].defines, "NET8_0_OR_GREATER")
    );
    assert_eq!(sources(&ws, "Lib").len(), 5, "the union of the builds");

    // A reference from each build goes to the build NuGet would pick.
    let index = |name: &str| ws.projects.iter().position(|p| p.name == name).unwrap();
    let tests = project(&ws, "Tests.Package");
    let lib_build = |b: &rlc_csharp::project::Build| {
        b.references
            .iter()
            .find(|r| r.project == index("Lib"))
            .map(|r| r.build)
    };
    assert_eq!(tests.target_frameworks, ["net8.0", "net472"]);
    assert_eq!(
        lib_build(&tests.builds[0]),
        Some(1),
        "net8.0 uses Lib's net8.0"
    );
    assert_eq!(
        lib_build(&tests.builds[1]),
        Some(0),
        "net472 uses netstandard2.0"
    );
    assert_eq!(notes(&ws), Vec::<String>::new());
}

#[test]
fn test_projects_by_each_signal() {
    let ws = discover_case("frameworks");
    let test = |name: &str| project(&ws, name).test.clone();
    assert_eq!(test("Tests.Property"), Some(TestEvidence::IsTestProject));
    assert_eq!(
        test("Tests.Package"),
        Some(TestEvidence::Framework("xunit".into()))
    );
    assert_eq!(test("TestSupport"), Some(TestEvidence::ReferencedByTests));
    // Only test projects reference Lib too, but it is packable: the library
    // under test, not a test helper.
    assert_eq!(test("Lib"), None);
}

/// `tests/fixtures/projects/test_signals`: a runner's package (a benchmark
/// harness's too) decides whatever the name; a test framework alone is a product's (a game's in-game test
/// browser) unless the project's name says tests.
#[test]
fn a_test_framework_alone_is_no_test_project() {
    let ws = discover_case("test_signals");
    let test = |name: &str| project(&ws, name).test.clone();
    assert_eq!(
        test("Runner"),
        Some(TestEvidence::Framework("Microsoft.NET.Test.Sdk".into()))
    );
    assert_eq!(
        test("Perf"),
        Some(TestEvidence::Framework("BenchmarkDotNet".into()))
    );
    assert_eq!(test("Game"), None);
    assert_eq!(
        test("Game.Tests.Support"),
        Some(TestEvidence::Framework("NUnit".into()))
    );
}

#[test]
fn one_framework_selected() {
    let mut ws = discover_case("frameworks");
    ws.select_framework("net472").expect("a compatible build");
    let frameworks = |ws: &Workspace, name: &str| -> Vec<Option<String>> {
        project(ws, name)
            .builds
            .iter()
            .map(|b| b.target_framework.clone())
            .collect()
    };
    assert_eq!(frameworks(&ws, "Lib"), [Some("netstandard2.0".to_owned())]);
    assert_eq!(
        frameworks(&ws, "Tests.Package"),
        [Some("net472".to_owned())]
    );
    assert!(frameworks(&ws, "Tests.Property").is_empty());
    assert!(project(&ws, "Tests.Property").sources.is_empty());
    assert_eq!(
        notes(&ws),
        [
            "Tests.Property/Tests.Property.csproj:0: `Tests.Property` has no build for `net472` or a framework compatible with it (it targets net8.0); not checked"
        ]
    );
    let lib = ws.projects.iter().position(|p| p.name == "Lib").unwrap();
    assert_eq!(
        project(&ws, "Tests.Package").builds[0].references,
        [
            BuildRef {
                project: lib,
                build: 0
            },
            BuildRef {
                project: ws
                    .projects
                    .iter()
                    .position(|p| p.name == "TestSupport")
                    .unwrap(),
                build: 0
            }
        ]
    );

    let mut ws = discover_case("frameworks");
    let err = ws
        .select_framework("uap10.0")
        .expect_err("nothing targets it");
    assert_eq!(
        err.to_string(),
        "no project targets `uap10.0` or a framework compatible with it; the projects target netstandard2.0, net8.0, net472"
    );
}

#[test]
fn bad_inputs_are_errors() {
    let missing = fixture("does/not/exist");
    assert_eq!(
        discover(std::slice::from_ref(&missing)).unwrap_err(),
        DiscoverError::NotFound {
            path: missing.clone()
        }
    );
    assert_eq!(
        DiscoverError::NotFound {
            path: missing.clone()
        }
        .to_string(),
        format!("`{}` does not exist", missing.display())
    );
    let readme = fixture("no_projects/readme.txt");
    let error = discover(std::slice::from_ref(&readme)).unwrap_err();
    assert_eq!(error, DiscoverError::Unsupported { path: readme });
    assert!(error.to_string().contains(".csproj"));
}

#[test]
fn malformed_named_solution_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let slnx = dir.path().join("Bad.slnx");
    std::fs::write(
        &slnx,
        "<Solution>\n  <Project Path=\"a.csproj\">\n</Solution>\n",
    )
    .unwrap();
    let error = discover(&[slnx]).unwrap_err();
    assert!(
        matches!(error, DiscoverError::Malformed { line: Some(3), .. }),
        "{error:?}"
    );
    assert!(error.to_string().contains("line 3"), "{error}");
}

#[test]
fn unreadable_project_is_checked_with_default_globs() {
    let dir = tempfile::tempdir().unwrap();
    let project_file = dir.path().join("Bin.csproj");
    std::fs::write(&project_file, [0x3c, 0xff, 0xfe, 0x00, 0x80, 0x81]).unwrap();
    std::fs::write(dir.path().join("A.cs"), "class A {}").unwrap();
    let ws = discover(&[project_file]).unwrap();
    assert_eq!(ws.projects.len(), 1);
    assert_eq!(ws.projects[0].sources, [dir.path().join("A.cs")]);
    assert_eq!(ws.notes.len(), 1, "{:?}", ws.notes);
    assert!(
        ws.notes[0].message.starts_with("cannot read the project"),
        "{:?}",
        ws.notes
    );
}

#[cfg(unix)]
#[test]
fn symlink_loop_terminates_with_a_note() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::write(
        root.join("P.csproj"),
        "<Project Sdk=\"Microsoft.NET.Sdk\"><PropertyGroup><TargetFramework>net8.0</TargetFramework></PropertyGroup></Project>",
    )
    .unwrap();
    std::fs::create_dir(root.join("src")).unwrap();
    std::fs::write(root.join("src/A.cs"), "class A {}").unwrap();
    std::os::unix::fs::symlink(root, root.join("src/loop")).unwrap();
    let ws = discover(&[root.to_path_buf()]).unwrap();
    assert_eq!(ws.projects.len(), 1);
    assert_eq!(ws.projects[0].sources, [root.join("src/A.cs")]);
    assert!(
        ws.notes
            .iter()
            .any(|n| n.message.contains("symbolic link loop")),
        "{:?}",
        ws.notes
    );
}

#[test]
fn discovery_is_deterministic() {
    let first = discover_case("references");
    for _ in 0..3 {
        assert_eq!(discover_case("references"), first);
    }
}

/// A property that doubles itself 30 times (a "billion laughs" of MSBuild
/// properties) and an XML entity bomb: each is refused with a located note,
/// in bounded time and memory, and the project's sources are still found.
#[test]
fn property_and_entity_bombs_are_refused_with_a_note() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let props: String = (1..=30)
        .map(|i| format!("<P{i}>$(P{p})$(P{p})</P{i}>\n", p = i - 1))
        .collect();
    std::fs::create_dir_all(root.join("Bomb")).unwrap();
    std::fs::write(
        root.join("Bomb/Bomb.csproj"),
        format!(
            "<Project Sdk=\"Microsoft.NET.Sdk\"><PropertyGroup>\n<P0>0123456789</P0>\n{props}\
             <DefineConstants>$(P30)</DefineConstants>\n</PropertyGroup></Project>"
        ),
    )
    .unwrap();
    std::fs::write(root.join("Bomb/A.cs"), "class A { }").unwrap();
    let laughs: String = (1..=9)
        .map(|i| {
            let p = format!("&l{};", i - 1);
            format!("<!ENTITY l{i} \"{}\">", p.repeat(10))
        })
        .collect();
    std::fs::create_dir_all(root.join("Xml")).unwrap();
    std::fs::write(
        root.join("Xml/Xml.csproj"),
        format!(
            "<?xml version=\"1.0\"?><!DOCTYPE Project [<!ENTITY l0 \"lol\">{laughs}]>\n\
             <Project Sdk=\"Microsoft.NET.Sdk\"><PropertyGroup><P>&l9;</P></PropertyGroup></Project>"
        ),
    )
    .unwrap();
    std::fs::write(root.join("Xml/B.cs"), "class B { }").unwrap();

    let ws = discover(&[root.to_path_buf()]).unwrap();
    let notes = notes(&ws);
    assert!(
        notes.iter().any(|n| n.starts_with("Bomb/Bomb.csproj:")
            && n.contains("expands to more than 1048576 bytes")),
        "{notes:?}"
    );
    assert!(
        notes.iter().any(|n| n.starts_with("Xml/Xml.csproj:")),
        "{notes:?}"
    );
    assert_eq!(sources(&ws, "Bomb"), ["Bomb/A.cs"]);
    assert_eq!(sources(&ws, "Xml"), ["Xml/B.cs"]);
    assert!(ws.notes.iter().all(|n| n.message.len() < 1000), "{notes:?}");
}

/// A nested `Directory.Build.props` (and `.targets`) that imports its parent
/// the way MSBuild's documentation shows, through the well-known
/// `_DirectoryBuildPropsFile` / `_DirectoryBuildTargetsFile` properties:
/// both levels apply, and nothing is reported.
#[test]
fn nested_directory_build_files_import_their_parents_by_the_well_known_properties() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let write = |rel: &str, text: &str| {
        let path = root.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write(
        "Directory.Build.props",
        "<Project><PropertyGroup><DefineConstants>$(DefineConstants);ROOT_PROPS</DefineConstants>\
         <PropsFileSeen>$(_DirectoryBuildPropsFile)</PropsFileSeen></PropertyGroup>\
         <ItemGroup><ProjectReference Include=\"$(MSBuildThisFileDirectory)lib/Lib/Lib.csproj\" \
         Condition=\"'$(MSBuildProjectName)' != 'Lib'\" /></ItemGroup></Project>",
    );
    write(
        "src/Directory.Build.props",
        "<Project><Import Project=\"$([MSBuild]::GetPathOfFileAbove('$(_DirectoryBuildPropsFile)', \
         '$(MSBuildThisFileDirectory)../'))\" />\
         <PropertyGroup><DefineConstants>$(DefineConstants);SRC_PROPS;$(PropsFileSeen)</DefineConstants>\
         </PropertyGroup></Project>",
    );
    write(
        "Directory.Build.targets",
        "<Project><PropertyGroup><DefineConstants>$(DefineConstants);ROOT_TARGETS</DefineConstants>\
         </PropertyGroup></Project>",
    );
    write(
        "src/Directory.Build.targets",
        "<Project><Import Project=\"$([MSBuild]::GetPathOfFileAbove('$(_DirectoryBuildTargetsFile)', \
         '$(MSBuildThisFileDirectory)..'))\" />\
         <PropertyGroup><DefineConstants>$(DefineConstants);SRC_TARGETS</DefineConstants>\
         </PropertyGroup></Project>",
    );
    let sdk = "<Project Sdk=\"Microsoft.NET.Sdk\"><PropertyGroup>\
               <TargetFramework>net8.0</TargetFramework></PropertyGroup></Project>";
    write("src/App/App.csproj", sdk);
    write("src/App/A.cs", "class A { }");
    write("lib/Lib/Lib.csproj", sdk);
    write("lib/Lib/L.cs", "class L { }");

    let ws = discover(&[root.join("src/App/App.csproj")]).unwrap();
    let app = project(&ws, "App");
    for symbol in [
        "ROOT_PROPS",
        "SRC_PROPS",
        "Directory.Build.props",
        "ROOT_TARGETS",
        "SRC_TARGETS",
    ] {
        assert!(
            has(&app.defines, symbol),
            "{symbol} missing from {:?}",
            app.defines
        );
    }
    let lib = ws.projects.iter().position(|p| p.name == "Lib");
    assert!(
        lib.is_some_and(|l| app.references.contains(&l)),
        "{:?}",
        names(&ws)
    );
    assert_eq!(notes(&ws), Vec::<String>::new());
}

/// A wildcard import of more files than an evaluation takes: the first are
/// imported, a note at the `Import` says where it stopped, and the project's
/// sources are still found.
#[test]
fn imports_are_bounded_with_a_located_note() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir_all(root.join("App/props")).unwrap();
    for i in 0..1100 {
        std::fs::write(
            root.join(format!("App/props/P{i:04}.props")),
            format!("<Project><PropertyGroup><Seen{i}>1</Seen{i}></PropertyGroup></Project>"),
        )
        .unwrap();
    }
    std::fs::write(
        root.join("App/App.csproj"),
        "<Project Sdk=\"Microsoft.NET.Sdk\">\n<PropertyGroup><TargetFramework>net8.0</TargetFramework></PropertyGroup>\n\
         <Import Project=\"props/*.props\" />\n</Project>",
    )
    .unwrap();
    std::fs::write(root.join("App/A.cs"), "class A { }").unwrap();
    let ws = discover(&[root.join("App/App.csproj")]).unwrap();
    assert_eq!(sources(&ws, "App"), ["A.cs"]);
    let notes = notes(&ws);
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(
        notes[0].starts_with("App.csproj:3:") && notes[0].contains("more than 1024 files imported"),
        "{notes:?}"
    );
}

#[test]
fn directory_build_props_named_in_another_case_is_imported() {
    // Written on Windows, where `Directory.build.props` is the same file.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("Directory.build.props"),
        "<Project><PropertyGroup><LangVersion>9.0</LangVersion>\
         <ImplicitUsings>enable</ImplicitUsings></PropertyGroup></Project>",
    )
    .unwrap();
    let app = dir.path().join("App");
    std::fs::create_dir(&app).unwrap();
    std::fs::write(
        app.join("App.csproj"),
        "<Project Sdk=\"Microsoft.NET.Sdk\"><PropertyGroup>\
         <TargetFramework>net8.0</TargetFramework></PropertyGroup></Project>",
    )
    .unwrap();
    std::fs::write(app.join("A.cs"), "class A {}").unwrap();
    let ws = discover(&[app.join("App.csproj")]).unwrap();
    assert_eq!(ws.projects.len(), 1);
    assert_eq!(ws.projects[0].lang_version.as_deref(), Some("9.0"));
    assert!(
        ws.projects[0]
            .global_usings
            .contains(&GlobalUsing::Namespace("System.IO".into())),
        "{:?}",
        ws.projects[0].global_usings
    );
}
