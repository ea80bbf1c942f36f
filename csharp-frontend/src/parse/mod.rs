//! Parsing (placeholder until the parser branch lands).
use rustc_hash::FxHashSet;

use crate::hir::FileSyntax;

#[derive(Clone, Debug, Default)]
pub struct ParseOptions {
    pub defines: FxHashSet<String>,
}

pub fn parse_file(_text: &str, _opts: &ParseOptions) -> FileSyntax {
    FileSyntax::default()
}
