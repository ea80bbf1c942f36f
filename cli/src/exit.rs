//! Exit statuses (docs/design.md): 0 when no error-level finding, 1 when there is
//! one, 2 on a usage, configuration or input/output error.

use rlc_core::rules::Severity;

use crate::findings::Finding;

pub const SUCCESS: u8 = 0;
pub const FINDINGS: u8 = 1;
/// Also clap's status for usage errors.
pub const USAGE_ERROR: u8 = 2;

/// How a command ended.
#[derive(Copy, Clone, Debug)]
pub enum Outcome<'a> {
    /// `check` ran; these are the findings left after suppression, at their final severity.
    Checked(&'a [Finding]),
    /// `infer --check` ran; whether it would add attributes.
    InferChecked { would_change: bool },
    /// Any other command that did its job (`explain`, `init`, `infer` without `--check`).
    Done,
    /// A usage, configuration or input/output error stopped the command.
    Failed,
}

/// The one place that decides the exit status.
pub fn status(outcome: Outcome<'_>) -> u8 {
    match outcome {
        Outcome::Checked(findings)
            if findings
                .iter()
                .any(|f| f.diagnostic.severity == Severity::Error) =>
        {
            FINDINGS
        }
        Outcome::InferChecked { would_change: true } => FINDINGS,
        Outcome::Checked(_) | Outcome::InferChecked { .. } | Outcome::Done => SUCCESS,
        Outcome::Failed => USAGE_ERROR,
    }
}

/// [`status`] as the process's exit code.
pub fn code(outcome: Outcome<'_>) -> std::process::ExitCode {
    std::process::ExitCode::from(status(outcome))
}

#[cfg(test)]
mod tests {
    use rlc_core::rules::{Diagnostic, Label};
    use rlc_core::{FileId, Span};

    use super::*;

    fn finding(severity: Severity) -> Finding {
        let label = Label {
            span: Span::new(FileId(0), 0, 1),
            message: String::new(),
        };
        let mut d = Diagnostic::new(rlc_core::rules::RuleId::ResourceLeak, "leak", label);
        d.severity = severity;
        Finding {
            diagnostic: d,
            frameworks: None,
            test_code: false,
        }
    }

    #[test]
    fn only_error_level_findings_fail_a_check() {
        assert_eq!(status(Outcome::Checked(&[])), SUCCESS);
        let soft = [finding(Severity::Warning), finding(Severity::Note)];
        assert_eq!(status(Outcome::Checked(&soft)), SUCCESS);
        let hard = [finding(Severity::Note), finding(Severity::Error)];
        assert_eq!(status(Outcome::Checked(&hard)), FINDINGS);
    }

    #[test]
    fn other_outcomes() {
        assert_eq!(
            status(Outcome::InferChecked { would_change: true }),
            FINDINGS
        );
        assert_eq!(
            status(Outcome::InferChecked {
                would_change: false
            }),
            SUCCESS
        );
        assert_eq!(status(Outcome::Done), SUCCESS);
        assert_eq!(status(Outcome::Failed), USAGE_ERROR);
    }
}
