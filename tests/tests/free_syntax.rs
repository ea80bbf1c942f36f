//! `rlc-sharp check` frees the bodies' syntax once they are lowered
//! (`RunOptions::free_lowered_syntax`): the findings must be those of a run
//! that keeps it, and the syntax must be gone, also where the builds of a
//! multi-framework project share a file's syntax.

use rlc_sharp::driver::{RunOptions, run};
use rlc_tests::{data_dir, files_in};

fn findings(path: std::path::PathBuf, free: bool) -> rlc_sharp::driver::CheckRun {
    let opts = RunOptions {
        paths: vec![path],
        infer: true,
        free_lowered_syntax: free,
        ..Default::default()
    };
    run(&opts).expect("run")
}

#[test]
fn freeing_the_lowered_syntax_changes_no_finding() {
    let mut inputs = vec![
        data_dir("fixtures/projects/frameworks"),
        data_dir("fixtures/projects/framework-callers"),
        data_dir("fixtures/projects/multi_target"),
    ];
    inputs.extend(files_in(&data_dir("cases"), "cs").into_iter().take(8));
    for input in inputs {
        let kept = findings(input.clone(), false);
        let freed = findings(input.clone(), true);
        assert_eq!(kept.diagnostics, freed.diagnostics, "{}", input.display());
        assert!(
            kept.index()
                .files
                .iter()
                .any(|f| !f.syntax.bodies.is_empty()),
            "{} has bodies",
            input.display()
        );
        for f in &freed.index().files {
            assert!(
                f.syntax.bodies.is_empty() && f.syntax.top_level.is_none(),
                "{}: {} keeps its bodies' syntax",
                input.display(),
                f.source.path.display()
            );
        }
    }
}
