//! From a file's text to [`FileSyntax`]: the preprocessor ([`preproc`]), offset-
//! preserving repairs of known grammar gaps ([`repair`]), tree-sitter, and the
//! conversion of the tree into the front end's own syntax ([`convert`]).
//!
//! Every identifier and literal is read from the original text by byte range,
//! so the rewrites done for the grammar never show in names.

mod convert;
mod isolate;
mod lexer;
mod preproc;
mod repair;

pub(crate) use convert::nodes_with_errors;

use std::cell::RefCell;

use rustc_hash::FxHashSet;
use tree_sitter::{Parser, Tree};

use crate::hir::{FileSyntax, NamespaceScope, SkipReason, SyntaxError, TextRange};

/// What the preprocessor starts from.
#[derive(Clone, Debug, Default)]
pub struct ParseOptions {
    /// Preprocessor symbols defined (`DEBUG`, `NET8_0_OR_GREATER`, ...).
    pub defines: FxHashSet<String>,
}

impl ParseOptions {
    pub fn with_defines<I: IntoIterator<Item = S>, S: Into<String>>(defines: I) -> ParseOptions {
        ParseOptions {
            defines: defines.into_iter().map(Into::into).collect(),
        }
    }
}

thread_local! {
    static PARSER: RefCell<Option<Parser>> = const { RefCell::new(None) };
}

/// Parses `text` with this thread's parser; `None` when tree-sitter gives up
/// (it does not, without a timeout) or the grammar cannot be loaded. With
/// `old` (edited to match `text`), parses incrementally.
fn parse_tree(text: &[u8], old: Option<&Tree>) -> Option<Tree> {
    PARSER.with(|cell| {
        let mut slot = cell.try_borrow_mut().ok()?;
        if slot.is_none() {
            let mut parser = Parser::new();
            parser
                .set_language(&tree_sitter_c_sharp::LANGUAGE.into())
                .ok()?;
            *slot = Some(parser);
        }
        slot.as_mut()?.parse(text, old)
    })
}

/// Parses one file. Never panics, whatever the input; callable from many
/// threads at once (each keeps its own parser).
pub fn parse_file(text: &str, opts: &ParseOptions) -> FileSyntax {
    if u32::try_from(text.len()).is_err() {
        return failed(text, "file too large to parse (over 4 GiB)");
    }
    let pre = preproc::preprocess(text, &opts.defines);
    let Some(repaired) = repair::parse_repaired(pre.text) else {
        return failed(text, "the C# parser failed on this file");
    };
    let mut file = convert::convert(text, &repaired.tree);
    drop(repaired.tree);
    file.pragmas = pre.pragmas;
    file.inactive_lines = pre.inactive_lines;
    file.repairs = repaired.repairs;
    for q in &repaired.quarantined {
        quarantine(&mut file, text, q);
    }
    file.syntax_errors.extend(pre.errors);
    file.syntax_errors
        .sort_by_key(|e| (e.range.start, e.range.end));
    file
}

/// A member blanked for the parser: its syntax error, and its bodies (an
/// empty one may be left) are not analysed.
fn quarantine(file: &mut FileSyntax, text: &str, q: &isolate::Quarantined) {
    let what = convert::shortened(text, q.error).unwrap_or_else(|| "this member".to_owned());
    file.syntax_errors.push(SyntaxError {
        range: q.error,
        message: format!("cannot parse `{what}`"),
    });
    let meets = |r: TextRange| r.start < q.member.end && q.member.start < r.end;
    for body in file.bodies.iter_mut().filter(|b| meets(b.range)) {
        body.skip = Some(SkipReason::SyntaxError);
    }
    for member in file.types.iter_mut().flat_map(|t| t.members.iter_mut()) {
        if meets(member.range) {
            member.has_error = true;
        }
    }
}

/// The byte ranges of `text` the preprocessor blanks as inactive under
/// `opts`: two sets of symbols with the same ranges give the same parse.
pub fn inactive_regions(text: &str, opts: &ParseOptions) -> Vec<(u32, u32)> {
    preproc::preprocess(text, &opts.defines).inactive
}

/// Whether the symbols defined may change how `text` parses: false when no
/// line is an `#if`.
pub fn has_conditions(text: &str) -> bool {
    preproc::may_have_conditions(text)
}

/// The tree [`parse_file`] reads declarations from: directives and inactive
/// regions blanked, known grammar gaps repaired, byte offsets those of `text`.
/// For tools that edit the file where the front end found something.
pub(crate) fn syntax_tree(text: &str, opts: &ParseOptions) -> Option<Tree> {
    let pre = preproc::preprocess(text, &opts.defines);
    repair::parse_repaired(pre.text).map(|r| r.tree)
}

/// A file that could not be parsed at all: only its compilation unit, and why.
fn failed(text: &str, message: &str) -> FileSyntax {
    let range = TextRange::new(0, text.len().min(u32::MAX as usize) as u32);
    FileSyntax {
        scopes: vec![NamespaceScope {
            parent: None,
            name: Vec::new(),
            usings: Vec::new(),
            extern_aliases: Vec::new(),
            range,
        }],
        syntax_errors: vec![SyntaxError {
            range,
            message: message.to_owned(),
        }],
        ..FileSyntax::default()
    }
}
