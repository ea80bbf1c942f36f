//! `rlc-sharp infer`: run inference and propose the inferred specifications.

use std::process::ExitCode;

use crate::args::{ColorChoice, InferArgs};

pub fn run(_args: InferArgs, _color: ColorChoice) -> ExitCode {
    eprintln!("error: `infer` is being wired");
    ExitCode::from(2)
}
