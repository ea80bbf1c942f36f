//! A short fuzz campaign on fixed seeds: every mutated input is answered
//! without a panic, an internal error or a stall, and the inputs reach some
//! way into the pipeline. `rlc-fuzz` runs long ones.

use std::time::Duration;

use rlc_tests::fuzz::{Target, campaign};

fn short_campaign(target: Target, executions: u64) {
    let dir = tempfile::tempdir().unwrap();
    let report = campaign(
        target,
        14,
        executions,
        Duration::from_secs(60),
        Duration::from_secs(20),
        dir.path(),
    );
    assert!(report.executions > 0);
    // The inputs reach past the parser: kinds of syntax, IR or notes.
    assert!(
        report.coverage.features.len() >= 10,
        "{:?}",
        report.coverage.features
    );
    let failures: Vec<String> = report
        .failures
        .iter()
        .map(|(path, failure)| {
            let input = std::fs::read(path).unwrap_or_default();
            format!(
                "{failure:?} on {:?}",
                String::from_utf8_lossy(&input[..input.len().min(300)])
            )
        })
        .collect();
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn mutated_sources_are_answered() {
    short_campaign(Target::Source, 300);
}

#[test]
fn mutated_project_files_are_answered() {
    short_campaign(Target::Project, 1_000);
}
