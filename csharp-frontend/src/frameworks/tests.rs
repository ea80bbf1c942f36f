use std::path::{Path, PathBuf};

use super::*;
use crate::index::Origin;
use crate::load::{BuildSpec, Loaded, ProjectSpec, load};

fn build(framework: &str, sources: &[PathBuf], defines: &[&str]) -> BuildSpec {
    BuildSpec {
        framework: Some(framework.to_owned()),
        sources: sources.to_vec(),
        defines: defines.iter().map(|d| (*d).to_owned()).collect(),
        references: Vec::new(),
        global_usings: Vec::new(),
        assemblies: Vec::new(),
    }
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write source");
    path
}

/// The project files of the index, as (compilation, file name, analysed).
fn entries(loaded: &Loaded) -> Vec<(u32, String, bool)> {
    loaded
        .index
        .files
        .iter()
        .enumerate()
        .filter_map(|(i, f)| match f.origin {
            Origin::Project(c) => Some((
                c,
                f.source.path.file_name()?.to_string_lossy().into_owned(),
                loaded.is_analysed(rlc_core::FileId(i as u32)),
            )),
            Origin::Library => None,
        })
        .collect()
}

#[test]
fn files_are_parsed_and_analysed_once_per_set_of_active_regions() {
    let dir = tempfile::tempdir().expect("temp dir");
    let plain = write(dir.path(), "Plain.cs", "class Plain { }\n");
    // The same active code under both frameworks.
    let same = write(
        dir.path(),
        "Same.cs",
        "class Same {\n#if NET\n  int a;\n#endif\n}\n",
    );
    let differs = write(
        dir.path(),
        "Differs.cs",
        "class Differs {\n#if NET8_0_OR_GREATER\n  Plain p;\n#else\n  int q;\n#endif\n}\n",
    );
    let sources = vec![plain, same, differs];
    let project = ProjectSpec {
        name: "P".into(),
        builds: vec![
            build("net6.0", &sources, &["NET"]),
            build("net7.0", &sources, &["NET"]),
            build("net8.0", &sources, &["NET", "NET8_0_OR_GREATER"]),
        ],
    };
    let loaded = load(&[project], &[]);
    assert_eq!(loaded.variants, 4, "Differs.cs twice, the others once");
    assert_eq!(loaded.files, 3);
    // net6.0 and net7.0 compile the same code: one compilation.
    let builds: Vec<&[u32]> = loaded
        .compilations
        .iter()
        .map(|c| c.builds.as_slice())
        .collect();
    assert_eq!(builds, [&[0, 1][..], &[2][..]]);
    assert_eq!(loaded.stages, [vec![0], vec![1]]);
    // The net8.0 compilation analyses only its own variant, and has of the
    // rest only what that variant names (`Plain`).
    assert_eq!(
        entries(&loaded),
        [
            (0, "Plain.cs".to_owned(), true),
            (0, "Same.cs".to_owned(), true),
            (0, "Differs.cs".to_owned(), true),
            (1, "Plain.cs".to_owned(), false),
            (1, "Differs.cs".to_owned(), true),
        ]
    );
    let differs_units: Vec<&Unit> = loaded
        .index
        .files
        .iter()
        .enumerate()
        .filter(|(_, f)| f.source.path.ends_with("Differs.cs"))
        .filter_map(|(i, _)| loaded.unit_of(rlc_core::FileId(i as u32)))
        .collect();
    assert_eq!(differs_units[0].builds, [0, 1]);
    assert_eq!(differs_units[1].builds, [2]);
    let stats: Vec<(Option<u32>, u64)> = loaded.builds[0]
        .iter()
        .map(|b| (b.compilation, b.files))
        .collect();
    assert_eq!(stats, [(Some(0), 3), (Some(0), 3), (Some(1), 3)]);
    // Lines 3 and 5 of Differs.cs are each active somewhere; `#if`-free
    // files are wholly active.
    assert_eq!(loaded.lines_active, loaded.lines);
    assert!(loaded.builds[0][2].lines_active < loaded.lines);
}

#[test]
fn builds_that_differ_in_usings_share_nothing() {
    let dir = tempfile::tempdir().expect("temp dir");
    let a = write(dir.path(), "A.cs", "class A { }\n");
    let mut modern = build("net8.0", std::slice::from_ref(&a), &[]);
    modern
        .global_usings
        .push(crate::index::GlobalUsingSpec::Namespace(
            "System.Net.Http".into(),
        ));
    let project = ProjectSpec {
        name: "P".into(),
        builds: vec![build("net48", std::slice::from_ref(&a), &[]), modern],
    };
    let loaded = load(&[project], &[]);
    assert_eq!(loaded.variants, 1, "one parse");
    assert_eq!(
        entries(&loaded),
        [(0, "A.cs".to_owned(), true), (1, "A.cs".to_owned(), true)],
        "resolved, and so analysed, in each"
    );
}

#[test]
fn code_inactive_everywhere_is_counted_once() {
    let text = "a\n#if X\nb\nc\n#endif\nd\n#if Y\ne\n#endif\n";
    let regions = |defines: &[&str]| {
        inactive_regions(text, &ParseOptions::with_defines(defines.iter().copied()))
    };
    let (none, x, y) = (regions(&[]), regions(&["X"]), regions(&["Y"]));
    assert_eq!(none.len(), 2);
    assert_eq!(
        inactive_in_all(text, &[&none]),
        3,
        "b, c and e; not the directives"
    );
    assert_eq!(inactive_in_all(text, &[&none, &x]), 1, "e");
    assert_eq!(inactive_in_all(text, &[&x, &y]), 0);
    assert_eq!(inactive_in_all(text, &[]), 0);
    assert_eq!(
        intersect(&[(0, 10), (20, 30)], &[(5, 25), (28, 40)]),
        [(5, 10), (20, 25), (28, 30)]
    );
}
