//! rlc-sharp as a library: the check pipeline and its outputs, used by the
//! `rlc-sharp` binary and by the integration tests. The modules other than the
//! driver take data and give text back.
//!
//! - [`driver`]: the check pipeline;
//! - [`findings`]: suppressions applied, one finding per place across a
//!   project's target frameworks, test code ranked apart;
//! - [`args`]: the command line (clap);
//! - [`config`]: `rlc-sharp.toml`, found upward from the checked path;
//! - [`render`]: the output formats (human, JSON, SARIF, GitHub annotations);
//! - [`explain`]: rule pages and the rule list;
//! - [`exit`]: the exit status;
//! - [`baseline`]: `--baseline` and `--write-baseline`;
//! - [`editorconfig`]: severities from `.editorconfig` and `.globalconfig`;
//! - [`fix_cmd`]: `fix`, the fixes as a patch, each verified by a re-check;
//! - [`progress`]: the phases on a terminal while a check runs.
//!
//! Suppressions are decided by [`rlc_csharp::suppress`], which sees the syntax.

pub mod args;
pub mod baseline;
pub mod config;
pub mod driver;
pub mod editorconfig;
pub mod exit;
pub mod explain;
pub mod findings;
pub mod fix_cmd;
pub mod infer_cmd;
pub mod progress;
pub mod render;
