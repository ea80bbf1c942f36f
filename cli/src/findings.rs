//! From the checker's diagnostics to the findings a run reports: suppressions
//! applied, one finding per place across the target frameworks a project is
//! built for (naming them when not all), and test code ranked apart.

use std::path::PathBuf;

use clap::ValueEnum;
use rlc_core::FileId;
use rlc_core::rules::{Diagnostic, RuleId, Severity};
use rlc_csharp::suppress::{self, SuppressionCounts};
use rustc_hash::{FxHashMap, FxHashSet};
use serde::Serialize;

use crate::driver::CheckRun;

/// How findings in test projects are reported (`[check] test-code`,
/// `--test-code`): not at all, as notes, at most as warnings, or as in
/// production code.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, ValueEnum, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TestCode {
    Off,
    Note,
    #[default]
    Warning,
    Same,
}

impl TestCode {
    pub fn as_str(self) -> &'static str {
        match self {
            TestCode::Off => "off",
            TestCode::Note => "note",
            TestCode::Warning => "warning",
            TestCode::Same => "same",
        }
    }

    /// The severity a test finding of `severity` gets; None for `off`.
    fn cap(self, severity: Severity) -> Option<Severity> {
        match self {
            TestCode::Off => None,
            TestCode::Note => Some(Severity::Note),
            TestCode::Warning => Some(severity.min(Severity::Warning)),
            TestCode::Same => Some(severity),
        }
    }
}

/// A finding as reported.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    pub diagnostic: Diagnostic,
    /// The target frameworks whose builds have it, when not all of its
    /// project's builds do.
    pub frameworks: Option<Vec<String>>,
    /// It is in a test project.
    pub test_code: bool,
}

/// Findings removed, by mechanism: the sources' and config's suppressions,
/// and `test-code = "off"`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Suppressions {
    #[serde(flatten)]
    pub sources: SuppressionCounts,
    pub test_code: usize,
}

impl Suppressions {
    pub fn total(&self) -> usize {
        self.sources.total() + self.test_code
    }
}

/// What a run reports.
#[derive(Clone, Debug, Default)]
pub struct Reported {
    /// Production findings first, then test findings; each part ordered by
    /// file, position and rule.
    pub findings: Vec<Finding>,
    pub suppressed: Suppressions,
}

/// Where a diagnostic is, for merging: rule, file and range. Not the
/// project: a file compiled into several projects (a linked file) has each
/// finding once. A leak only on exceptional paths is a leak: an allocation
/// that one build leaks on every path and another only on exceptional
/// paths is one finding, the stronger one ([`strongest`]).
type Place = (RuleId, PathBuf, u32, u32);

fn place_rule(rule: RuleId) -> RuleId {
    match rule {
        RuleId::ResourceLeakOnException => RuleId::ResourceLeak,
        other => other,
    }
}

/// The diagnostic a group is reported as: a leak on every path over one
/// only on exceptional paths, else the first.
fn strongest<'a>(
    mut members: impl Iterator<Item = &'a Diagnostic> + Clone,
) -> Option<&'a Diagnostic> {
    members
        .clone()
        .find(|d| d.rule == RuleId::ResourceLeak)
        .or_else(|| members.next())
}

/// The diagnostics at one place, each with what suppresses it, if anything.
type Group = Vec<(Diagnostic, Option<suppress::Suppression>)>;

/// Applies suppressions and levels (`rlc-sharp.toml`, `.editorconfig`, as
/// [`crate::driver::kept_findings`]), merges the builds' and projects'
/// findings, ranks test code.
pub fn report(run: &CheckRun, config: &crate::config::Config, test_code: TestCode) -> Reported {
    let loaded = &run.loaded;
    let classified = crate::driver::classified_findings(run, config);
    // Group by place, in the diagnostics' order.
    let mut groups: Vec<(Place, Group)> = Vec::new();
    let mut group_of: FxHashMap<Place, usize> = FxHashMap::default();
    for (d, mechanism) in classified {
        let span = d.primary.span;
        let path = run
            .file(span.file)
            .map(|(p, _)| p.to_path_buf())
            .unwrap_or_default();
        let place = (place_rule(d.rule), path, span.start, span.end);
        let i = *group_of.entry(place.clone()).or_insert_with(|| {
            groups.push((place, Vec::new()));
            groups.len() - 1
        });
        groups[i].1.push((d, mechanism));
    }
    let mut out = Reported::default();
    let mut production = Vec::new();
    let mut tests = Vec::new();
    for (_, members) in groups {
        let (kept, suppressed): (Vec<_>, Vec<_>) =
            members.into_iter().partition(|(_, m)| m.is_none());
        if kept.is_empty() {
            if let Some((_, Some(suppression))) = suppressed.first() {
                out.suppressed.sources.add(*suppression);
            }
            continue;
        }
        // The projects that have it, each with the files it was reported in
        // (one per build).
        let mut projects: Vec<(Option<u32>, Vec<FileId>)> = Vec::new();
        for (d, _) in &kept {
            let file = d.primary.span.file;
            let project = loaded.project_of(file);
            match projects.iter_mut().find(|(p, _)| *p == project) {
                Some((_, files)) => files.push(file),
                None => projects.push((project, vec![file])),
            }
        }
        // Production code when any project that has it is; but a file a test
        // project holds in its directory stays test code where another
        // project links it in (a device's test head: `<Compile
        // Include="..\App.Tests\**\*.cs" />`).
        let home_is_test = run
            .file(kept[0].0.primary.span.file)
            .is_some_and(|(path, _)| home_project_is_test(run, path));
        let in_production = projects
            .iter()
            .find(|(p, files)| !home_is_test && !is_test(run, *p, files[0]));
        let test = in_production.is_none();
        let members = kept.iter().map(|(d, _)| d).filter(|d| {
            in_production.is_none_or(|(_, files)| files.contains(&d.primary.span.file))
        });
        let Some(mut diagnostic) = strongest(members).cloned() else {
            continue;
        };
        if test {
            match test_code.cap(diagnostic.severity) {
                Some(severity) => diagnostic.severity = severity,
                None => {
                    out.suppressed.test_code += 1;
                    continue;
                }
            }
        }
        let finding = Finding {
            frameworks: frameworks_of(run, &projects),
            diagnostic,
            test_code: test,
        };
        if test {
            tests.push(finding);
        } else {
            production.push(finding);
        }
    }
    out.findings = production;
    out.findings.append(&mut tests);
    unique_fingerprints(run, &mut out.findings);
    out
}

/// Whether a finding in `file` is test code (see [`is_test`]).
pub fn in_test_code(run: &CheckRun, file: FileId) -> bool {
    is_test(run, run.loaded.project_of(file), file)
}

/// Whether a finding is test code: in a test project's source, or about a
/// test project's file.
fn is_test(run: &CheckRun, project: Option<u32>, file: FileId) -> bool {
    let projects = &run.workspace.projects;
    match project {
        Some(p) => projects.get(p as usize).is_some_and(|p| p.test.is_some()),
        None => run.file(file).is_some_and(|(path, _)| {
            projects
                .iter()
                .any(|p| p.test.is_some() && p.path.as_deref() == Some(path))
        }),
    }
}

/// Whether the project whose directory holds `path` (the innermost, when
/// projects nest) is a test project.
fn home_project_is_test(run: &CheckRun, path: &std::path::Path) -> bool {
    run.workspace
        .projects
        .iter()
        .filter_map(|p| Some((p.path.as_deref()?.parent()?, p)))
        .filter(|(dir, _)| path.starts_with(dir))
        .max_by_key(|(dir, _)| dir.components().count())
        .is_some_and(|(_, p)| p.test.is_some())
}

/// The frameworks of the builds that have a finding, over the projects that
/// have it: none when some project has it in every build.
fn frameworks_of(run: &CheckRun, projects: &[(Option<u32>, Vec<FileId>)]) -> Option<Vec<String>> {
    let mut names: Vec<String> = Vec::new();
    for (project, files) in projects {
        for name in frameworks(run, *project, files)? {
            if !names.contains(&name) {
                names.push(name);
            }
        }
    }
    (!names.is_empty()).then_some(names)
}

/// The frameworks of the builds that have the files a finding was reported
/// in, when not all of the project's builds (with a framework) do.
fn frameworks(run: &CheckRun, project: Option<u32>, files: &[FileId]) -> Option<Vec<String>> {
    let builds = &run.workspace.projects.get(project? as usize)?.builds;
    if builds.len() < 2 {
        return None;
    }
    let mut found: FxHashSet<u32> = FxHashSet::default();
    for file in files {
        found.extend(run.loaded.unit_of(*file)?.builds.iter().copied());
    }
    let names: Vec<String> = builds
        .iter()
        .enumerate()
        .filter(|(b, _)| found.contains(&(*b as u32)))
        .map(|(_, b)| b.target_framework.clone())
        .collect::<Option<_>>()?;
    (names.len() < builds.len()).then_some(names)
}

/// Keeps fingerprints unique in the run. Two findings at different places
/// may share one when a later build has only one of them (its occurrence
/// number, `...:0`, counts differently), when two projects declare the same
/// member (two programs' top-level statements), or when a note repeats a
/// message in one file. The finding of the earliest compilation (then the
/// first reported) keeps it; each other gets the next free occurrence number.
fn unique_fingerprints(run: &CheckRun, findings: &mut [Finding]) {
    let compilation = |f: &Finding| {
        let file = f.diagnostic.primary.span.file;
        match run.index().files.get(file.0 as usize).map(|e| e.origin) {
            Some(rlc_csharp::index::Origin::Project(c)) => c,
            _ => u32::MAX,
        }
    };
    let mut used: FxHashSet<String> = FxHashSet::default();
    let mut owner: FxHashMap<String, (u32, usize)> = FxHashMap::default();
    for (i, f) in findings.iter().enumerate() {
        let c = compilation(f);
        let key = f.diagnostic.fingerprint.clone();
        used.insert(key.clone());
        let entry = owner.entry(key).or_insert((c, i));
        if c < entry.0 {
            *entry = (c, i);
        }
    }
    for (i, finding) in findings.iter_mut().enumerate() {
        let fingerprint = finding.diagnostic.fingerprint.clone();
        if owner.get(&fingerprint).is_none_or(|&(_, owner)| owner == i) {
            continue;
        }
        // Findings end in an occurrence number; notes get one appended.
        let (stem, n) = match fingerprint.rsplit_once(':') {
            Some((stem, n)) if n.parse::<u32>().is_ok() => (stem, n.parse::<u32>().unwrap_or(0)),
            _ => (fingerprint.as_str(), 0),
        };
        if let Some(free) = (n + 1..).find(|m| !used.contains(&format!("{stem}:{m}"))) {
            let fresh = format!("{stem}:{free}");
            used.insert(fresh.clone());
            finding.diagnostic.fingerprint = fresh;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_code_levels_cap_severities() {
        assert_eq!(TestCode::Off.cap(Severity::Error), None);
        assert_eq!(TestCode::Note.cap(Severity::Error), Some(Severity::Note));
        assert_eq!(
            TestCode::Warning.cap(Severity::Error),
            Some(Severity::Warning)
        );
        assert_eq!(TestCode::Warning.cap(Severity::Note), Some(Severity::Note));
        assert_eq!(TestCode::Same.cap(Severity::Error), Some(Severity::Error));
        assert_eq!(TestCode::default(), TestCode::Warning);
    }
}
