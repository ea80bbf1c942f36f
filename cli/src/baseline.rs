//! Baselines: adopt rlc-sharp on a mature code base by accepting today's
//! findings and failing only on new ones, as Qodana does.
//!
//! `check --write-baseline FILE` writes the findings as SARIF (the format
//! `--format sarif` prints, without GitHub's limits); `check --baseline FILE`
//! reads it back and keeps only the findings it does not hold. Findings are
//! matched by their `partialFingerprints` (`rlcSharp/v2`, the diagnostic's
//! fingerprint: rule, member with its parameter types, resource type and
//! occurrence, no line numbers),
//! as a multiset: a baseline holding a fingerprint twice accepts two findings
//! with it.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use rlc_core::rules::Diagnostic;
use serde::Serialize;
use serde_json::Value;

use crate::render::sarif::FINGERPRINT_KEY;

/// What a baseline matches a finding by: its fingerprint.
pub trait Fingerprinted {
    fn fingerprint(&self) -> &str;
}

impl Fingerprinted for Diagnostic {
    fn fingerprint(&self) -> &str {
        &self.fingerprint
    }
}

impl Fingerprinted for crate::findings::Finding {
    fn fingerprint(&self) -> &str {
        &self.diagnostic.fingerprint
    }
}

/// The fingerprints a baseline accepts, with how many findings each.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Baseline {
    counts: BTreeMap<String, usize>,
}

/// How the findings of a run compare with a baseline.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct BaselineCounts {
    /// Findings the baseline does not hold: the ones reported.
    pub new: usize,
    /// Findings the baseline holds.
    pub unchanged: usize,
    /// Baseline entries no finding matches any more.
    pub fixed: usize,
}

/// Why a baseline could not be read.
#[derive(Debug)]
pub enum BaselineError {
    Io(PathBuf, std::io::Error),
    /// Not a SARIF log rlc-sharp can read.
    Invalid(PathBuf, String),
}

impl fmt::Display for BaselineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BaselineError::Io(p, e) => write!(f, "cannot read the baseline `{}`: {e}", p.display()),
            BaselineError::Invalid(p, why) => write!(
                f,
                "`{}` is not a baseline: {why}; write one with `rlc-sharp check --write-baseline FILE`",
                p.display()
            ),
        }
    }
}

impl std::error::Error for BaselineError {}

impl Baseline {
    pub fn read(path: &Path) -> Result<Baseline, BaselineError> {
        let text =
            std::fs::read_to_string(path).map_err(|e| BaselineError::Io(path.to_path_buf(), e))?;
        Baseline::parse(&text).map_err(|why| BaselineError::Invalid(path.to_path_buf(), why))
    }

    /// Reads the fingerprints of every result of every run of a SARIF log.
    /// Results without an rlc-sharp fingerprint are skipped: they cannot match.
    pub fn parse(text: &str) -> Result<Baseline, String> {
        let log: Value = serde_json::from_str(text).map_err(|e| format!("invalid JSON ({e})"))?;
        let runs = log
            .get("runs")
            .and_then(Value::as_array)
            .ok_or("it has no `runs`")?;
        let mut counts = BTreeMap::new();
        for run in runs {
            let Some(results) = run.get("results").and_then(Value::as_array) else {
                return Err("a run has no `results`".into());
            };
            for r in results {
                if let Some(fp) = r
                    .pointer(&format!(
                        "/partialFingerprints/{}",
                        escape_pointer(FINGERPRINT_KEY)
                    ))
                    .and_then(Value::as_str)
                {
                    *counts.entry(fp.to_owned()).or_default() += 1;
                } else if let Some(old) = r
                    .get("partialFingerprints")
                    .and_then(Value::as_object)
                    .and_then(|p| p.keys().find(|k| k.starts_with("rlcSharp/")))
                {
                    // Fingerprints of another recipe never match: saying so
                    // beats reporting every finding as new.
                    return Err(format!(
                        "its fingerprints are `{old}`, this version writes `{FINGERPRINT_KEY}`; \
                         write the baseline again"
                    ));
                }
            }
        }
        Ok(Baseline { counts })
    }

    /// The baseline of a run's findings.
    pub fn of<T: Fingerprinted>(findings: &[T]) -> Baseline {
        let mut counts = BTreeMap::new();
        for f in findings {
            *counts.entry(f.fingerprint().to_owned()).or_default() += 1;
        }
        Baseline { counts }
    }

    /// Number of findings the baseline accepts.
    pub fn len(&self) -> usize {
        self.counts.values().sum()
    }

    pub fn is_empty(&self) -> bool {
        self.counts.is_empty()
    }

    /// The findings the baseline does not hold, in their order, and the counts.
    /// Of several findings with one fingerprint the first ones are taken as
    /// the baseline's (occurrence numbers make that rare).
    pub fn new_findings<T: Fingerprinted>(&self, findings: Vec<T>) -> (Vec<T>, BaselineCounts) {
        let mut left = self.counts.clone();
        let mut counts = BaselineCounts::default();
        let mut new = Vec::new();
        for d in findings {
            match left.get_mut(d.fingerprint()).filter(|n| **n > 0) {
                Some(n) => {
                    *n -= 1;
                    counts.unchanged += 1;
                }
                None => new.push(d),
            }
        }
        counts.new = new.len();
        counts.fixed = left.values().sum();
        (new, counts)
    }
}

/// `~` and `/` in a JSON pointer token.
fn escape_pointer(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

#[cfg(test)]
mod tests {
    use rlc_core::rules::{Label, RuleId};
    use rlc_core::{FileId, Span};

    use super::*;

    fn finding(fp: &str) -> Diagnostic {
        let label = Label {
            span: Span::new(FileId(0), 0, 1),
            message: String::new(),
        };
        let mut d = Diagnostic::new(RuleId::ResourceLeak, "leak", label);
        d.fingerprint = fp.to_owned();
        d
    }

    fn sarif(fps: &[&str]) -> String {
        let results: Vec<Value> = fps
            .iter()
            .map(|fp| serde_json::json!({"ruleId": "RLC0001", "partialFingerprints": {FINGERPRINT_KEY: fp}}))
            .collect();
        serde_json::json!({"version": "2.1.0", "runs": [{"results": results}]}).to_string()
    }

    #[test]
    fn only_findings_beyond_the_baseline_are_new() {
        let base = Baseline::parse(&sarif(&["a", "b", "b", "gone"])).unwrap();
        assert_eq!(base.len(), 4);
        let (new, counts) = base.new_findings(vec![
            finding("b"),
            finding("a"),
            finding("b"),
            finding("b"),
            finding("c"),
        ]);
        let fps: Vec<&str> = new.iter().map(|d| d.fingerprint.as_str()).collect();
        assert_eq!(fps, ["b", "c"]);
        assert_eq!(
            counts,
            BaselineCounts {
                new: 2,
                unchanged: 3,
                fixed: 1
            }
        );
    }

    #[test]
    fn a_run_matches_its_own_baseline() {
        let diags = vec![finding("x"), finding("x"), finding("y")];
        let (new, counts) = Baseline::of(&diags).new_findings(diags);
        assert!(new.is_empty());
        assert_eq!((counts.unchanged, counts.fixed), (3, 0));
    }

    #[test]
    fn bad_baselines_are_errors() {
        assert!(Baseline::parse("not json").is_err());
        assert!(Baseline::parse("{\"version\": \"2.1.0\"}").is_err());
        assert!(Baseline::parse("{\"runs\": [{}]}").is_err());
        // Foreign results are skipped, not errors.
        let foreign = r#"{"runs": [{"results": [{"ruleId": "CA2000"}]}]}"#;
        assert!(Baseline::parse(foreign).unwrap().is_empty());
    }
}
