//! RLC9004 internal-error: rlc-sharp failed on one member, which is skipped;
//! the rest of the run goes on. A bug in rlc-sharp, reported so that it is
//! neither silent nor fatal.

use crate::rules::{Diagnostic, Label};
use crate::rules::RuleId;
use crate::span::Span;

/// A body whose IR the checker found inconsistent before analysing it.
pub fn malformed_ir(body: &str, problem: &str, span: Span) -> Diagnostic {
    Diagnostic::new(
        RuleId::InternalError,
        format!("internal error: the IR of `{body}` is malformed ({problem}); it was not checked"),
        Label {
            span,
            message: "this member was skipped".into(),
        },
    )
}

/// A declaration the front end failed on while resolving or lowering it.
pub fn front_end_failed(what: &str, message: &str, span: Span) -> Diagnostic {
    Diagnostic::new(
        RuleId::InternalError,
        format!("internal error while analysing `{what}`: {message}; it is skipped"),
        Label {
            span,
            message: "in this declaration".into(),
        },
    )
    .with_help(
        "please report this at https://github.com/rlc-sharp/rlc-sharp/issues with the code that triggers it",
    )
}
