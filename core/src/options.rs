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

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckOptions {
    pub exception_model: ExceptionModel,
}
