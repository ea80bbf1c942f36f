//! Where the attribute text goes: own lines above a type or member, inline in
//! a parameter, merged with what is already there.

use tree_sitter::Node;

use super::AnnotateError;
use super::attr::{self, AttrSpec};
use super::edit::{self, Edit, Layout};
use super::locate::{ParamSite, Slot};
use super::syntax::{self, children};
use crate::hir::TextRange;
use crate::source::{LineCol, LineIndex};

/// Rank of attribute edits among edits at one offset: after a using.
const RANK: u8 = 1;

/// The text being annotated and its line facts.
pub(crate) struct Cx<'a> {
    pub src: &'a str,
    pub layout: Layout<'a>,
    lines: LineIndex,
}

impl<'a> Cx<'a> {
    pub(crate) fn new(src: &'a str) -> Cx<'a> {
        Cx {
            src,
            layout: Layout::new(src),
            lines: LineIndex::new(src),
        }
    }

    /// Row and byte column, as tree-sitter counts them.
    pub(crate) fn point(&self, offset: usize) -> tree_sitter::Point {
        let offset = u32::try_from(offset.min(self.src.len())).unwrap_or(u32::MAX);
        let row = self.lines.line_of(offset);
        tree_sitter::Point::new(row, (offset - self.lines.line_start(row)) as usize)
    }

    pub(crate) fn at(&self, offset: usize) -> LineCol {
        let offset = u32::try_from(offset.min(self.src.len())).unwrap_or(u32::MAX);
        self.lines.line_col(self.src, offset)
    }
}

/// One requested attribute on a declaration.
pub(crate) struct Wanted<'t> {
    pub declarator: Option<Node<'t>>,
    pub slot: Slot,
    pub spec: AttrSpec,
    pub range: TextRange,
}

/// The edit adding the attributes a declaration lacks, if any.
pub(crate) fn declaration(
    cx: &Cx,
    decl: Node,
    wanted: &[Wanted],
) -> Result<Option<Edit>, AnnotateError> {
    let kids = children(decl);
    let existing_decl = attr::existing(&kids, cx.src, |t| t != Some("return"));
    let existing_return = attr::existing(&kids, cx.src, |t| t == Some("return"));
    // Attributes go right above (or before) the first token after the
    // existing attribute lists: below doc comments and existing attributes.
    let anchor = *kids
        .iter()
        .find(|k| !attr::is_attribute_node(**k) && k.kind() != "comment")
        .ok_or(AnnotateError::NotFound {
            at: cx.at(decl.start_byte()),
            reason: "the declaration is incomplete",
        })?;
    let declarators = field_declarators(decl);
    // One list of new attributes per declarator of a field with several,
    // else one for the declaration.
    let keys: Vec<Option<Node>> = if declarators.len() > 1 {
        declarators.iter().copied().map(Some).collect()
    } else {
        vec![None]
    };
    let mut per_key = Vec::with_capacity(keys.len());
    for key in &keys {
        let mut list = Vec::new();
        for (slot, existing) in [
            (Slot::Decl, &existing_decl),
            (Slot::Return, &existing_return),
        ] {
            let requested = wanted
                .iter()
                .filter(|w| w.slot == slot && (key.is_none() || w.declarator == *key))
                .map(|w| (w.spec.clone(), w.range));
            list.extend(
                new_attributes(cx, existing, requested)?
                    .into_iter()
                    .map(|a| (slot, a)),
            );
        }
        per_key.push(list);
    }
    if per_key.iter().all(Vec::is_empty) {
        return Ok(None);
    }
    let same = |a: &[(Slot, AttrSpec)], b: &[(Slot, AttrSpec)]| {
        a.len() == b.len()
            && a.iter()
                .zip(b)
                .all(|(x, y)| x.0 == y.0 && x.1.text == y.1.text)
    };
    if per_key.windows(2).all(|w| same(&w[0], &w[1])) {
        return Ok(Some(attribute_lines(
            cx,
            anchor,
            Some(decl.end_byte()),
            &per_key[0],
        )));
    }
    split_field(cx, decl, anchor, &declarators, &per_key).map(Some)
}

/// The edit adding the attributes a parameter lacks, if any: merged into its
/// last attribute list (`[NotNull, Owning] Stream s`) or a new list before it.
pub(crate) fn parameter(
    cx: &Cx,
    site: &ParamSite,
    wanted: &[(AttrSpec, TextRange)],
) -> Result<Option<Edit>, AnnotateError> {
    let own = |t: Option<&str>| t.is_none() || t == Some("param");
    let existing = attr::existing(&site.nodes, cx.src, own);
    let new = new_attributes(cx, &existing, wanted.iter().cloned())?;
    if new.is_empty() {
        return Ok(None);
    }
    let joined = new
        .iter()
        .map(|a| a.text.as_str())
        .collect::<Vec<_>>()
        .join(", ");
    let close = attr::last_plain_list(&site.nodes, cx.src, own)
        .and_then(|list| list.child(list.child_count().checked_sub(1)?))
        .filter(|c| c.kind() == "]" && !c.is_missing());
    Ok(Some(match close {
        Some(close) => Edit::insert(close.start_byte(), format!(", {joined}"), RANK),
        None => Edit::insert(site.start, format!("[{joined}] "), RANK),
    }))
}

/// The requested attributes not already present, in a stable order; an
/// error when one contradicts what is there.
fn new_attributes(
    cx: &Cx,
    existing: &[AttrSpec],
    requested: impl Iterator<Item = (AttrSpec, TextRange)>,
) -> Result<Vec<AttrSpec>, AnnotateError> {
    let mut new: Vec<AttrSpec> = Vec::new();
    for (spec, range) in requested {
        if existing.iter().chain(&new).any(|e| e.same(&spec)) {
            continue;
        }
        if let Some(other) = existing.iter().chain(&new).find(|e| e.conflicts(&spec)) {
            return Err(AnnotateError::Conflict {
                at: cx.at(range.start as usize),
                existing: other.text.clone(),
                attribute: spec.text,
            });
        }
        new.push(spec);
    }
    new.sort_by(AttrSpec::order);
    Ok(new)
}

/// `[X]` lines with the anchor line's indentation and line ending, or
/// `[X] ` inline when the declaration does not start its line. The lines go
/// right above the anchor's, or above the `#if` line of a header written
/// once per branch (see [`conditional_header`]).
fn attribute_lines(
    cx: &Cx,
    anchor: Node,
    decl_end: Option<usize>,
    attrs: &[(Slot, AttrSpec)],
) -> Edit {
    let lists = attrs.iter().map(|(slot, a)| match slot {
        Slot::Decl => format!("[{}]", a.text),
        Slot::Return => format!("[return: {}]", a.text),
    });
    let at = anchor.start_byte();
    if cx.layout.at_line_start(at) {
        let (indent, eol) = (cx.layout.indent(at), cx.layout.eol(at));
        let line = decl_end
            .and_then(|end| conditional_header(cx, at, end))
            .unwrap_or_else(|| cx.layout.line_start(at));
        Edit::insert(
            line,
            lists.map(|l| format!("{indent}{l}{eol}")).collect(),
            RANK,
        )
    } else {
        Edit::insert(at, lists.map(|l| format!("{l} ")).collect(), RANK)
    }
}

/// For a declaration whose header each branch of an `#if` writes its own way
/// (the group opens before the first token and closes inside the
/// declaration), where its `#if` line starts: attributes above it hold in
/// every branch. Not when a branch before the anchor's holds more than a
/// header (a `;` or `}` ends something else there).
fn conditional_header(cx: &Cx, anchor: usize, decl_end: usize) -> Option<usize> {
    let line = cx.layout.line_start(anchor);
    cx.layout
        .groups_around(anchor)
        .filter(|&(_, close)| close < decl_end)
        .find(|&(open, _)| {
            cx.src
                .get(open..line)
                .is_some_and(|before| !before.contains([';', '}']))
        })
        .map(|(open, _)| open)
}

fn field_declarators(decl: Node) -> Vec<Node> {
    if !matches!(decl.kind(), "field_declaration" | "event_field_declaration") {
        return Vec::new();
    }
    children(decl)
        .into_iter()
        .filter(|c| c.kind() == "variable_declaration")
        .flat_map(children)
        .filter(|c| c.kind() == "variable_declarator")
        .collect()
}

/// `Stream a, b;` where only `a` gets an attribute: one declaration per
/// declarator, each with the original attributes, modifiers and type.
fn split_field(
    cx: &Cx,
    decl: Node,
    anchor: Node,
    declarators: &[Node],
    per: &[Vec<(Slot, AttrSpec)>],
) -> Result<Edit, AnnotateError> {
    let unsplittable = AnnotateError::UnsplittableField {
        at: cx.at(decl.start_byte()),
    };
    let (Some(first), Some(last)) = (declarators.first(), declarators.last()) else {
        return Err(unsplittable);
    };
    // Comments and directives between the declarators have no copy to go to.
    let between = first.parent().map(children).unwrap_or_default();
    if between.iter().any(|c| {
        c.start_byte() >= first.start_byte()
            && c.end_byte() <= last.end_byte()
            && (c.kind() == "comment" || c.kind().starts_with("preproc_"))
    }) {
        return Err(unsplittable);
    }
    let whole_lines = cx.layout.at_line_start(decl.start_byte());
    let from = if whole_lines {
        cx.layout.line_start(decl.start_byte())
    } else {
        decl.start_byte()
    };
    let base = cx
        .src
        .get(from..decl.end_byte())
        .ok_or(AnnotateError::UnsplittableField {
            at: cx.at(decl.start_byte()),
        })?;
    let mut copies = Vec::with_capacity(declarators.len());
    for (declarator, attrs) in declarators.iter().zip(per) {
        let mut edits = vec![Edit {
            start: first.start_byte() - from,
            end: last.end_byte() - from,
            text: syntax::text_of(*declarator, cx.src).to_owned(),
            rank: RANK,
        }];
        if !attrs.is_empty() {
            let lines = attribute_lines(cx, anchor, None, attrs);
            edits.push(Edit::insert(lines.start - from, lines.text, RANK));
        }
        copies.push(edit::apply(base, &mut edits).map_err(|_| {
            AnnotateError::UnsplittableField {
                at: cx.at(decl.start_byte()),
            }
        })?);
    }
    let separator = if whole_lines {
        cx.layout.eol(decl.end_byte())
    } else {
        " "
    };
    Ok(Edit {
        start: from,
        end: decl.end_byte(),
        text: copies.join(separator),
        rank: RANK,
    })
}
