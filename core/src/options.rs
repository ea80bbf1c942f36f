//! What a user can choose about checking.

use serde::{Deserialize, Serialize};

/// Which exceptional edges the analysis believes (the Tracker paper's rule).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ExceptionModel {
    /// Ignore exceptions thrown by calls (a `throw` still goes to its handler).
    None,
    /// Follow exceptions where the code shows it expects them: inside a `try`
    /// with `catch`/`finally` the user wrote, and `throw` statements.
    #[default]
    Explicit,
    /// Every call may throw.
    All,
}

/// Steps Algorithm 1 takes on one method at most, by default: far above what
/// real methods need (tens of thousands), and about a second's work.
pub const DEFAULT_METHOD_BUDGET: usize = 1_000_000;

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckOptions {
    pub exception_model: ExceptionModel,
    /// Steps the analysis of one method may take before it stops with a note
    /// (RLC9005); `None`: [`DEFAULT_METHOD_BUDGET`].
    #[serde(default)]
    pub method_budget: Option<usize>,
}
