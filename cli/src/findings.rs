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

/// Where a diagnostic is, for merging: the project (None for notes about
/// project files), rule, file and range.
type Place = (Option<u32>, RuleId, PathBuf, u32, u32);

/// The diagnostics at one place, each with what suppresses it, if anything.
type Group = Vec<(Diagnostic, Option<suppress::Suppression>)>;

/// Applies suppressions and levels (`rlc-sharp.toml`, `.editorconfig`, as
/// [`crate::driver::kept_findings`]), merges the builds' findings, ranks
/// test code.
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
        let place = (
            loaded.project_of(span.file),
            d.rule,
            path,
            span.start,
            span.end,
        );
        let i = *group_of.entry(place.clone()).or_insert_with(|| {
            groups.push((place, Vec::new()));
            groups.len() - 1
        });
        groups[i].1.push((d, mechanism));
    }
    let mut out = Reported::default();
    let mut production = Vec::new();
    let mut tests = Vec::new();
    for ((project, ..), members) in groups {
        let (kept, suppressed): (Vec<_>, Vec<_>) =
            members.into_iter().partition(|(_, m)| m.is_none());
        let Some((first, _)) = kept.first() else {
            if let Some((_, Some(suppression))) = suppressed.first() {
                out.suppressed.sources.add(*suppression);
            }
            continue;
        };
        let mut diagnostic = first.clone();
        let files: Vec<FileId> = kept.iter().map(|(d, _)| d.primary.span.file).collect();
        let test = is_test(run, project, diagnostic.primary.span.file);
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
            frameworks: frameworks(run, project, &files),
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

/// Keeps fingerprints unique within a project. Two findings at different
/// places may share one when a later build of the project has only one of
/// them (its occurrence number, `...:0`, counts differently): the finding of
/// the earlier compilation keeps it, the other gets the next free number.
fn unique_fingerprints(run: &CheckRun, findings: &mut [Finding]) {
    let place = |f: &Finding| {
        let file = f.diagnostic.primary.span.file;
        let compilation = match run.index().files.get(file.0 as usize).map(|e| e.origin) {
            Some(rlc_csharp::index::Origin::Project(c)) => c,
            _ => u32::MAX,
        };
        (run.loaded.project_of(file), compilation)
    };
    let mut used: FxHashSet<(Option<u32>, String)> = FxHashSet::default();
    let mut owner: FxHashMap<(Option<u32>, String), (u32, usize)> = FxHashMap::default();
    for (i, f) in findings.iter().enumerate() {
        let (project, compilation) = place(f);
        let key = (project, f.diagnostic.fingerprint.clone());
        used.insert(key.clone());
        let entry = owner.entry(key).or_insert((compilation, i));
        if compilation < entry.0 {
            *entry = (compilation, i);
        }
    }
    for (i, finding) in findings.iter_mut().enumerate() {
        let (project, compilation) = place(finding);
        let fingerprint = finding.diagnostic.fingerprint.clone();
        let Some(&(owner_compilation, owner_index)) = owner.get(&(project, fingerprint.clone()))
        else {
            continue;
        };
        // A repeat within one compilation is the checker's own affair.
        if owner_index == i || owner_compilation == compilation {
            continue;
        }
        let Some((stem, n)) = fingerprint.rsplit_once(':') else {
            continue;
        };
        let Ok(n) = n.parse::<u32>() else {
            continue;
        };
        if let Some(free) = (n + 1..).find(|m| !used.contains(&(project, format!("{stem}:{m}")))) {
            let fresh = format!("{stem}:{free}");
            used.insert((project, fresh.clone()));
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
