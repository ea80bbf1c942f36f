//! Writing inferred attributes into C# source as a reviewable patch.
//!
//! `rlc-sharp infer` decides *what* to annotate; this module decides *how it
//! looks*: each attribute is placed the way a C# developer writes it, and the
//! result is a unified diff that `git apply` takes.
//!
//! - Types and members get the attribute on a line of its own, with the
//!   declaration's indentation and line ending, below its doc comment and
//!   existing attribute lists (`[X] ` inline when the declaration shares its
//!   line with other code). Returns get `[return: X]`; on properties,
//!   indexers and constructors, which have no such target, the attribute
//!   goes on the declaration, where the checker reads it.
//! - Parameters get it inline, merged into their attribute list
//!   (`[NotNull, Owning] Stream s`) or as a new one (`[Owning] ref Stream s`).
//! - A field declaring several variables of which only some get an attribute
//!   is split into one declaration per variable.
//! - An attribute already there (same simple name, with or without the
//!   `Attribute` suffix and namespace, same arguments) is not added again, so
//!   annotating twice is annotating once; one that contradicts an attribute
//!   already there (`[MustCall("Close")]` next to `[MustCall("Dispose")]`,
//!   `[Owning]` next to `[NotOwning]`) is an error.
//! - `using RlcSharp.Annotations;` joins the file's usings (in order when they
//!   are sorted, inside the namespace when they are) where a file needs it.
//! - Byte-order mark, line endings and indentation (tabs or spaces) are kept,
//!   and an edit that would add a syntax error is refused.
//!
//! Around that: [`unified_diff`], the helpers of `--apply` ([`dirty_files`],
//! [`apply_changes`]) and of `--patch-dir` ([`project_of_each`],
//! [`patch_file_names`]), and the attribute definitions for a project that
//! lacks them ([`definitions_for`]).

mod apply;
mod attr;
mod diff;
pub(crate) mod edit;
mod locate;
mod place;
mod project;
pub(crate) mod syntax;
mod usings;

use std::cell::OnceCell;
use std::fmt;
use std::path::PathBuf;

use indexmap::IndexMap;
use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};

pub use apply::{
    ApplyError, ReadError, VcsError, apply_changes, dirty_files, read_source_text, repository_root,
    write_atomically,
};
pub use attr::csharp_attribute;
pub use diff::unified_diff;
pub use project::{
    DEFINITIONS_FILE_NAME, Definitions, DefinitionsError, definitions_for, patch_file_names,
    project_of_each,
};

use crate::hir::TextRange;
use crate::source::LineCol;
use locate::Site;
use place::{Cx, Wanted};

/// The namespace of the attributes in `rlc_attributes::ANNOTATIONS_CS`.
pub const ANNOTATIONS_NAMESPACE: &str = "RlcSharp.Annotations";

/// What to annotate, located by byte ranges of the original text (after its
/// byte-order mark, as [`crate::source::decode`] yields it).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum AnnotationTarget {
    /// The type's name identifier (`TypeDecl::name_range`).
    Type { name: TextRange },
    /// A method, constructor, property, indexer, event or field name
    /// (`Member::name_range`; for fields, the variable's name).
    Member { name: TextRange },
    /// The parameter (`Param::range`): any range covering its name and
    /// lying within the parameter.
    Parameter { range: TextRange },
    /// `[return: X]` on the method whose name this is.
    Return { member_name: TextRange },
}

impl AnnotationTarget {
    pub fn range(&self) -> TextRange {
        match *self {
            AnnotationTarget::Type { name }
            | AnnotationTarget::Member { name }
            | AnnotationTarget::Parameter { range: name }
            | AnnotationTarget::Return { member_name: name } => name,
        }
    }
}

/// One attribute to add.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Annotation {
    pub target: AnnotationTarget,
    /// As written between the brackets: `Owning`, `MustCall("Close")`,
    /// `Calls("_stream", "Dispose")`.
    pub attribute: String,
}

/// The annotations of one file.
#[derive(Clone, Debug)]
pub struct FileEdits {
    /// Absolute.
    pub path: PathBuf,
    /// The file's text as on disk (see [`read_source_text`]): a UTF-8
    /// byte-order mark, if any, is kept as U+FEFF.
    pub original: String,
    pub annotations: Vec<Annotation>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnnotateOptions {
    /// The namespace to import where the added attributes need it; `None`
    /// when their simple names resolve already (a `global using` of the
    /// namespace in the project, or attributes declared without a namespace).
    pub namespace: Option<String>,
    /// The project's preprocessor symbols. A target in code that tree-sitter
    /// cannot parse as written (both branches of an `#if` that splits a
    /// declaration, a known grammar gap) is looked up in the tree the front
    /// end read, which these select.
    pub defines: Vec<String>,
    /// The symbols of each build of the project (one per target framework)
    /// where they may differ from `defines`: a target that only one build
    /// compiles (in an `#if` branch that `defines` leaves out) is looked up
    /// in the tree of a build that has it.
    pub build_defines: Vec<Vec<String>>,
}

impl Default for AnnotateOptions {
    fn default() -> AnnotateOptions {
        AnnotateOptions {
            namespace: Some(ANNOTATIONS_NAMESPACE.to_owned()),
            defines: Vec::new(),
            build_defines: Vec::new(),
        }
    }
}

/// Why a file could not be annotated. Locations are 1-based, in the text
/// after the byte-order mark.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnnotateError {
    /// The parser returned no tree.
    Parse,
    /// The text is not one C# attribute (`Owning`, `MustCall("Close")`).
    InvalidAttribute { attribute: String },
    /// The target names no declaration of the expected kind.
    NotFound { at: LineCol, reason: &'static str },
    /// An attribute already on the declaration contradicts the new one.
    Conflict {
        at: LineCol,
        existing: String,
        attribute: String,
    },
    /// A field whose variables need different attributes cannot be split
    /// without losing a comment or directive between them.
    UnsplittableField { at: LineCol },
    /// Two targets' edits overlap.
    Overlap { at: LineCol },
    /// The edited text has more syntax errors than the original (a safety
    /// net: no placement rule should cause this).
    NewSyntaxErrors { before: usize, after: usize },
}

impl AnnotateError {
    pub fn location(&self) -> Option<LineCol> {
        match self {
            AnnotateError::NotFound { at, .. }
            | AnnotateError::Conflict { at, .. }
            | AnnotateError::UnsplittableField { at }
            | AnnotateError::Overlap { at } => Some(*at),
            AnnotateError::Parse
            | AnnotateError::InvalidAttribute { .. }
            | AnnotateError::NewSyntaxErrors { .. } => None,
        }
    }
}

impl fmt::Display for AnnotateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(at) = self.location() {
            write!(f, "{}:{}: ", at.line, at.col)?;
        }
        match self {
            AnnotateError::Parse => f.write_str("the file could not be parsed"),
            AnnotateError::InvalidAttribute { attribute } => write!(f, "`{attribute}` is not a C# attribute"),
            AnnotateError::NotFound { reason, .. } => f.write_str(reason),
            AnnotateError::Conflict { existing, attribute, .. } => {
                write!(f, "`[{attribute}]` contradicts `[{existing}]`, which is already there")
            }
            AnnotateError::UnsplittableField { .. } => f.write_str(
                "the field's variables need different attributes, and a comment or directive between them keeps it from being split",
            ),
            AnnotateError::Overlap { .. } => f.write_str("two annotations edit overlapping text"),
            AnnotateError::NewSyntaxErrors { before, after } => write!(
                f,
                "the annotated text would have {after} syntax errors instead of {before}; left unchanged"
            ),
        }
    }
}

impl std::error::Error for AnnotateError {}

/// The text with the attributes added, with the default options.
pub fn annotate_file(original: &str, annotations: &[Annotation]) -> Result<String, AnnotateError> {
    annotate_file_with(original, annotations, &AnnotateOptions::default())
}

/// The text with the attributes added. Unchanged (equal to `original`) when
/// every attribute is already there.
pub fn annotate_file_with(
    original: &str,
    annotations: &[Annotation],
    options: &AnnotateOptions,
) -> Result<String, AnnotateError> {
    let (bom, text) = match original.strip_prefix('\u{feff}') {
        Some(rest) => ("\u{feff}", rest),
        None => ("", original),
    };
    if annotations.is_empty() {
        return Ok(original.to_owned());
    }
    let mut tree = syntax::parse(text, None).ok_or(AnnotateError::Parse)?;
    let root = tree.root_node();
    // The front end's trees: with the project's symbols, then with each
    // build's (parsed when a target needs them).
    let mut define_sets: Vec<&[String]> = vec![&options.defines];
    for d in &options.build_defines {
        if !define_sets.contains(&d.as_slice()) {
            define_sets.push(d);
        }
    }
    let front_ends: Vec<OnceCell<Option<tree_sitter::Tree>>> =
        define_sets.iter().map(|_| OnceCell::new()).collect();
    let front_end_tree_of = |i: usize| {
        front_ends[i]
            .get_or_init(|| front_end_tree(text, define_sets[i]))
            .as_ref()
    };
    let cx = Cx::new(text);
    // Most annotations of a file repeat a few attributes.
    let mut specs: FxHashMap<&str, attr::AttrSpec> = FxHashMap::default();

    // Keyed by the tree a site was found in (0 for tree-sitter's, 1 + i for
    // the front end's `i`th) and its start.
    let mut decls: IndexMap<(usize, usize), (tree_sitter::Node, Vec<Wanted>)> = IndexMap::new();
    let mut params = IndexMap::new();
    for annotation in annotations {
        let spec = match specs.get(annotation.attribute.as_str()) {
            Some(spec) => spec.clone(),
            None => {
                let spec = attr::AttrSpec::parse(&annotation.attribute).ok_or_else(|| {
                    AnnotateError::InvalidAttribute {
                        attribute: annotation.attribute.clone(),
                    }
                })?;
                specs.insert(&annotation.attribute, spec.clone());
                spec
            }
        };
        let range = annotation.target.range();
        let (site, in_tree) = match locate::locate(root, &annotation.target) {
            Ok(site) if !root.has_error() || site.sound() => (site, 0),
            // Where tree-sitter cannot read the text as written (a grammar
            // gap, both branches of an `#if`), the front end's tree (same
            // offsets) holds the declaration as the target was found: the
            // project's, or that of the build whose `#if` branch has it.
            raw => {
                let repaired = if root.has_error() {
                    (0..define_sets.len()).find_map(|i| {
                        let tree = front_end_tree_of(i)?;
                        let site = locate::locate(tree.root_node(), &annotation.target).ok()?;
                        Some((site, i + 1))
                    })
                } else {
                    None
                };
                match (repaired, raw) {
                    (Some(found), _) => found,
                    (None, Ok(site)) => (site, 0),
                    (None, Err(reason)) => {
                        return Err(AnnotateError::NotFound {
                            at: cx.at(range.start as usize),
                            reason,
                        });
                    }
                }
            }
        };
        match site {
            Site::Decl {
                decl,
                declarator,
                slot,
            } => decls
                .entry((in_tree, decl.start_byte()))
                .or_insert_with(|| (decl, Vec::new()))
                .1
                .push(Wanted {
                    declarator,
                    slot,
                    spec,
                    range,
                }),
            Site::Param(p) => params
                .entry((in_tree, p.start))
                .or_insert_with(|| (p, Vec::new()))
                .1
                .push((spec, range)),
        }
    }

    let mut edits = Vec::new();
    let mut sites = Vec::new();
    for (decl, wanted) in decls.values() {
        if let Some(e) = place::declaration(&cx, *decl, wanted)? {
            edits.push(e);
            sites.push(*decl);
        }
    }
    for (site, wanted) in params.values() {
        if let Some(e) = place::parameter(&cx, site, wanted)? {
            edits.push(e);
            sites.extend(site.nodes.first().copied());
        }
    }
    if edits.is_empty() {
        return Ok(original.to_owned());
    }
    dedup_attribute_lines(&mut edits);
    if let Some(namespace) = &options.namespace {
        edits.extend(usings::import(root, text, &cx.layout, &sites, namespace));
    }
    let edited = edit::apply(text, &mut edits)
        .map_err(|offset| AnnotateError::Overlap { at: cx.at(offset) })?;
    let before = syntax::error_count(root);
    edit::report(&mut tree, &edits, |offset| cx.point(offset));
    let after = syntax::parse(&edited, Some(&tree))
        .map(|t| syntax::error_count(t.root_node()))
        .ok_or(AnnotateError::Parse)?;
    // A file tree-sitter cannot read as written recovers differently after
    // any edit: there the front end's view, which reads it, is the judge.
    let worse = after > before
        && (before == 0
            || match (
                front_end_tree_of(0),
                front_end_tree(&edited, &options.defines),
            ) {
                (Some(old), Some(new)) => {
                    syntax::error_count(new.root_node()) > syntax::error_count(old.root_node())
                }
                _ => true,
            });
    if worse {
        return Err(AnnotateError::NewSyntaxErrors { before, after });
    }
    Ok(format!("{bom}{edited}"))
}

/// A header that an `#if` splits, found in two builds' trees (one per
/// branch), gets the attributes of both above the `#if`, at one point: an
/// attribute line both want is written once (C# rejects a repeated one).
fn dedup_attribute_lines(edits: &mut Vec<edit::Edit>) {
    let mut seen: FxHashSet<(usize, String)> = FxHashSet::default();
    for e in edits.iter_mut() {
        if e.start != e.end || !e.text.ends_with('\n') {
            continue;
        }
        let kept: String = e
            .text
            .split_inclusive('\n')
            .filter(|line| seen.insert((e.start, line.trim().to_owned())))
            .collect();
        e.text = kept;
    }
    edits.retain(|e| e.start != e.end || !e.text.is_empty());
}

/// The tree the front end read the text from (preprocessed, repaired).
fn front_end_tree(text: &str, defines: &[String]) -> Option<tree_sitter::Tree> {
    let defines = defines.iter().cloned().collect();
    crate::parse::syntax_tree(text, &crate::parse::ParseOptions { defines })
}

/// The outcome of annotating many files.
#[derive(Clone, Debug, Default)]
pub struct Annotated {
    /// Files that change: path, old text, new text; in input order.
    pub changed: Vec<(PathBuf, String, String)>,
    /// Files left unchanged because of an error.
    pub errors: Vec<(PathBuf, AnnotateError)>,
}

/// Annotates files in parallel; `options` gives each file's options (they
/// differ between projects with and without a `global using`).
pub fn annotate_files(
    files: &[FileEdits],
    options: impl Fn(&FileEdits) -> AnnotateOptions + Sync,
) -> Annotated {
    let results: Vec<_> = files
        .par_iter()
        .map(|f| {
            (
                f,
                annotate_file_with(&f.original, &f.annotations, &options(f)),
            )
        })
        .collect();
    let mut out = Annotated::default();
    for (file, result) in results {
        match result {
            Ok(new) if new != file.original => {
                out.changed
                    .push((file.path.clone(), file.original.clone(), new))
            }
            Ok(_) => {}
            Err(e) => out.errors.push((file.path.clone(), e)),
        }
    }
    out
}
