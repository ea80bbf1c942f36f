//! The index of a run is built on the library model's index, prepared once
//! (`index::build_on`): it must be the index that building every file
//! together makes (`index::build`), for one project of the case corpus and
//! for the multi-project, multi-framework fixture; one prepared model serves
//! many loads; and a full run's index, rolled back, is the model's again.

use std::path::Path;

use rlc_csharp::index::{Index, IndexInput, build};
use rlc_csharp::load::{
    Loaded, ProjectSpec, embedded_library, load, load_prepared, prepare_library, project_specs,
};
use rlc_tests::{data_dir, files_in};

/// The index of all the files of `loaded` built in one go.
fn built_at_once(loaded: &Loaded) -> Index {
    build(IndexInput {
        files: loaded.index.files.clone(),
        projects: loaded.compilation_inputs.clone(),
        library_facts: loaded.library_facts.clone(),
    })
}

fn assert_same(layered: &Index, at_once: &Index, what: &str) {
    assert_eq!(layered.files.len(), at_once.files.len(), "{what}");
    assert_eq!(layered.types.len(), at_once.types.len(), "{what}");
    assert_eq!(layered.members.len(), at_once.members.len(), "{what}");
    // Everything else too: names, usings, members, the core's program.
    let (a, b) = (format!("{layered:?}"), format!("{at_once:?}"));
    if a != b {
        let line = a
            .lines()
            .zip(b.lines())
            .position(|(x, y)| x != y)
            .unwrap_or(0);
        let at = a
            .char_indices()
            .zip(b.chars())
            .find(|((_, x), y)| x != y)
            .map_or(0, |((i, _), _)| i);
        panic!(
            "{what}: the indexes differ (line {line}) near\n{}\nvs\n{}",
            &a[at.saturating_sub(300)..(at + 300).min(a.len())],
            &b[at.saturating_sub(300)..(at + 300).min(b.len())]
        );
    }
}

#[test]
fn the_layered_index_is_the_index_of_all_files() {
    let cases = files_in(&data_dir("cases"), "cs");
    assert!(cases.len() > 10, "{cases:?}");
    let project = ProjectSpec::single("cases", cases, vec!["NET".into()]);
    let loaded = load(std::slice::from_ref(&project), &embedded_library());
    assert_same(&loaded.index, &built_at_once(&loaded), "the case corpus");

    let fixture = data_dir("fixtures/projects/frameworks");
    let workspace = rlc_csharp::project::discover(&[fixture]).expect("the fixture is found");
    let specs = project_specs(&workspace);
    assert!(specs.len() > 2, "{specs:?}");
    let loaded = load(&specs, &embedded_library());
    assert_same(
        &loaded.index,
        &built_at_once(&loaded),
        "the frameworks fixture",
    );
}

#[test]
fn one_prepared_model_serves_many_loads() {
    let library = prepare_library(&embedded_library());
    let case = |name: &str| {
        let path = data_dir("cases").join(name);
        assert!(Path::new(&path).is_file(), "{}", path.display());
        ProjectSpec::single(name, vec![path], Vec::new())
    };
    for name in ["ado_net.cs", "async_patterns.cs", "ado_net.cs"] {
        let projects = [case(name)];
        let prepared = load_prepared(&projects, library.clone(), &|| {});
        let fresh = load(&projects, &embedded_library());
        assert_same(&prepared.index, &fresh.index, name);
    }
}

#[test]
fn a_runs_index_rolled_back_is_the_models_again() {
    use rlc_sharp::driver::{RunOptions, prepare_library, run_with_library};
    let opts = |path: std::path::PathBuf| RunOptions {
        paths: vec![path],
        infer: true,
        ..Default::default()
    };
    let fixture = data_dir("fixtures/projects/frameworks");
    let pristine = prepare_library(&opts(fixture.clone()));
    let mut spare = pristine.clone();
    for path in [
        fixture,
        data_dir("cases/ado_net.cs"),
        data_dir("cases/async_patterns.cs"),
    ] {
        let what = path.display().to_string();
        let run = run_with_library(&opts(path.clone()), spare).expect("the run");
        let findings = format!("{:?}", run.diagnostics);
        // The same run on a fresh copy of the model finds the same.
        let fresh = run_with_library(&opts(path), pristine.clone()).expect("the run");
        assert_eq!(findings, format!("{:?}", fresh.diagnostics), "{what}");
        spare = pristine
            .reclaim(run.into_index())
            .unwrap_or_else(|| panic!("{what}: not built on the model"));
        assert_same(&spare.index, &pristine.index, &what);
    }
}
