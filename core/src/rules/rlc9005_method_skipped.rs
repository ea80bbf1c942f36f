//! RLC9005 method-skipped: a method was not analysed, or only in part: it is
//! nested too deeply for the front end to lower, or its consistency analysis
//! ran out of its step budget (pathological control flow).

use crate::rules::{Diagnostic, Keyed, Label};
use crate::facts::BodyFacts;
use crate::rules::RuleId;

/// Algorithm 1 stopped at its budget; its findings for the body are partial.
pub(super) fn over_budget(cx: &BodyFacts<'_>) -> Keyed {
    let d = Diagnostic::new(
        RuleId::MethodSkipped,
        format!(
            "`{}` is too complex to analyse within the budget; it was checked only in part",
            cx.body.name
        ),
        Label {
            span: cx.body.span,
            message: "analysis stopped in this member".into(),
        },
    );
    (d, String::new())
}
