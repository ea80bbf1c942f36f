//! Mechanical fixes for leaks, as edits of the text the user wrote: what
//! `rlc-sharp fix` proposes. The caller (the CLI) says what to fix and what
//! the analysis knows about the types involved; this module finds the code
//! in a tree-sitter tree of the original text and plans the edit, or says
//! why it cannot be certain.
//!
//! - A local that leaks: `using var` (C# 8 and later), `await using var` in
//!   an async method when the type is `IAsyncDisposable`, or a
//!   `using (...) { }` block around the rest of its block (older C#). Only
//!   when the variable never escapes the method: it is not returned (unless
//!   the method returns plain values: numbers, `bool`, `string`), stored in a
//!   field, passed by `ref`/`out`, assigned again or captured by a lambda, and
//!   neither is any local derived from it ([`escape`]).
//! - A temporary that leaks (an allocation inside a larger expression): it is
//!   hoisted into a `using var` declaration before its statement, when what
//!   the statement evaluates before it has no side effects.
//! - A local that leaks only when an exception is thrown, with a `Dispose()`
//!   or `Close()` statement later in its block: the statements between go
//!   into `try`, the disposal into `finally`.
//! - An owning field no disposal method disposes: `field?.Dispose();` at the
//!   end of the class's `Dispose()` (inside `if (disposing)` of
//!   `Dispose(bool disposing)`), or `IDisposable` and the dispose pattern
//!   added to a class that has none.
//! - An owning field overwritten: `field?.Dispose();` before the assignment,
//!   when the new value cannot be the old one.
//!
//! The edits are small (insertions and replacements) so that fixes of one
//! file compose: [`FileFixer`] applies them one after another and maps the
//! next request's ranges through the edits made so far. Every fix is
//! checked by the caller afterwards (the file re-checks without the finding).

mod escape;
mod field;
mod leak;
mod syntax;

use std::fmt;

use crate::annotate::edit::Edit;
use crate::hir::TextRange;

pub use field::{DisposalMethod, FieldRequest, OverwriteRequest};
pub use leak::LeakRequest;

/// What the analysis knows about a type, for choosing the fix.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct TypeFacts {
    /// Implements `System.IDisposable`.
    pub disposable: bool,
    /// Implements `System.IAsyncDisposable`.
    pub async_disposable: bool,
    /// A value type or `string`: a value that cannot hold a resource.
    pub plain: bool,
    /// A value type (`?.` does not apply).
    pub value_type: bool,
}

/// Answers about declarations of the file being fixed.
pub trait Context {
    /// The type of the local declared with `name` inside `declaration` (a
    /// variable declarator, a pattern, an `out var`, a `foreach` variable),
    /// when the analysis resolved it. Ranges are in the text being fixed.
    fn local(&self, name: &str, declaration: TextRange) -> Option<TypeFacts>;
}

/// Project settings that choose between fixes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FixOptions {
    /// C# 8 or later: `using var` and `await using`.
    pub using_declarations: bool,
    /// `System` is imported in every file (`ImplicitUsings`, a global using).
    pub global_system_using: bool,
    /// The project's preprocessor symbols: where tree-sitter cannot read the
    /// text as written (a known grammar gap, both branches of an `#if`), the
    /// fixes read the tree the front end read, which these select.
    pub defines: Vec<String>,
}

impl Default for FixOptions {
    fn default() -> FixOptions {
        FixOptions {
            using_declarations: true,
            global_system_using: false,
            defines: Vec::new(),
        }
    }
}

/// One fix to make.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    Leak(LeakRequest),
    DisposeField(FieldRequest),
    DisposeBeforeOverwrite(OverwriteRequest),
}

impl Request {
    /// The ranges the request names, for mapping through earlier edits.
    fn ranges_mut(&mut self) -> Vec<&mut TextRange> {
        match self {
            Request::Leak(r) => vec![&mut r.alloc],
            Request::DisposeField(r) => {
                let mut v = vec![&mut r.field];
                v.extend(r.class.as_mut());
                v.extend(r.method.as_mut().map(|m| &mut m.name));
                v
            }
            Request::DisposeBeforeOverwrite(r) => vec![&mut r.store],
        }
    }
}

/// Why a finding gets no fix: the fix would not be certain.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoFix {
    /// The code the finding points at is not where the file says, or does not parse.
    NotFound,
    /// The method has syntax errors or preprocessor branches tree-sitter cannot read.
    SyntaxErrors,
    /// The value is discarded where it is made; disposing it at once may end
    /// what it was made for (a timer, a process).
    Discarded,
    /// The value's type does not implement `IDisposable` (or only
    /// `IAsyncDisposable` outside an async method or before C# 8).
    NotDisposable,
    /// The value escapes: why.
    Escapes(&'static str),
    /// The code's shape is not one the fixes handle: which.
    Shape(&'static str),
    /// Another fix of the file edited the same code.
    Overlap,
}

impl fmt::Display for NoFix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NoFix::NotFound => f.write_str("the code is not where the finding points"),
            NoFix::SyntaxErrors => f.write_str("the code around it does not parse as written"),
            NoFix::Discarded => f.write_str("the value is discarded where it is created"),
            NoFix::NotDisposable => {
                f.write_str("its type cannot be used with `using` here (not IDisposable)")
            }
            NoFix::Escapes(why) => write!(f, "the value may outlive the method: {why}"),
            NoFix::Shape(what) => f.write_str(what),
            NoFix::Overlap => f.write_str("another fix in the file changes the same code"),
        }
    }
}

/// A planned fix: edits of the text it was planned on, sorted, not overlapping.
#[derive(Clone, Debug)]
pub struct Planned {
    edits: Vec<Edit>,
    /// What the fix does, for messages (`using var reader`).
    pub summary: String,
}

/// Plans one fix on `text` (without a byte-order mark).
pub fn plan(
    text: &str,
    request: &Request,
    cx: &dyn Context,
    options: &FixOptions,
) -> Result<Planned, NoFix> {
    let mut tree = syntax::parse(text).ok_or(NoFix::NotFound)?;
    if tree.root_node().has_error() {
        // The front end's tree: same offsets, with the grammar's gaps repaired.
        let defines = options.defines.iter().cloned().collect();
        if let Some(repaired) =
            crate::parse::syntax_tree(text, &crate::parse::ParseOptions { defines })
        {
            tree = repaired;
        }
    }
    let file = syntax::File::new(text, &tree);
    let mut planned = match request {
        Request::Leak(r) => leak::plan(&file, r, cx, options)?,
        Request::DisposeField(r) => field::dispose_field(&file, r, options)?,
        Request::DisposeBeforeOverwrite(r) => field::dispose_before_overwrite(&file, r)?,
    };
    planned.edits.sort_by_key(|e| (e.start, e.rank));
    Ok(planned)
}

/// The fixes of one file, applied one after another.
pub struct FileFixer {
    /// The text with the fixes so far, without a byte-order mark.
    text: String,
    /// The edits so far, each list in the coordinates of the text before it.
    history: Vec<Vec<Edit>>,
}

impl FileFixer {
    pub fn new(text: &str) -> FileFixer {
        FileFixer {
            text: text.to_owned(),
            history: Vec::new(),
        }
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    /// Plans `request` (in the original text's coordinates) on the text as
    /// fixed so far and applies it; `cx` answers in the original's
    /// coordinates too.
    pub fn fix(
        &mut self,
        request: &Request,
        cx: &dyn Context,
        options: &FixOptions,
    ) -> Result<String, NoFix> {
        let mut request = request.clone();
        for range in request.ranges_mut() {
            *range = self.map_range(*range).ok_or(NoFix::Overlap)?;
        }
        let original = Unmapped {
            history: &self.history,
            cx,
        };
        let mut planned = plan(&self.text, &request, &original, options)?;
        let edited = crate::annotate::edit::apply(&self.text, &mut planned.edits)
            .map_err(|_| NoFix::Overlap)?;
        self.text = edited;
        self.history.push(planned.edits);
        Ok(planned.summary)
    }

    /// Where a range of the original text is in the text as fixed so far.
    pub fn map_range(&self, range: TextRange) -> Option<TextRange> {
        map_through(&self.history, range)
    }

    /// The span of the text as fixed so far that the `i`-th fix applied
    /// (counting successful ones) edited.
    pub fn touched(&self, i: usize) -> Option<TextRange> {
        let edits = self.history.get(i)?;
        let mut delta: isize = 0;
        let mut span: Option<(usize, usize)> = None;
        for e in edits {
            let start = (e.start as isize + delta) as usize;
            let end = start + e.text.len();
            span = Some(span.map_or((start, end), |(s, t)| (s.min(start), t.max(end))));
            delta += e.text.len() as isize - (e.end - e.start) as isize;
        }
        let (start, end) = span?;
        map_through(
            &self.history[i + 1..],
            TextRange::new(start as u32, end as u32),
        )
    }
}

fn map_through(history: &[Vec<Edit>], range: TextRange) -> Option<TextRange> {
    let mut start = range.start as usize;
    let mut end = range.end as usize;
    for edits in history {
        start = map_offset(edits, start, true)?;
        end = map_offset(edits, end, false)?.max(start);
    }
    Some(TextRange::new(start as u32, end as u32))
}

/// A [`Context`] asked in the coordinates of a text as fixed so far,
/// answering from one that knows the original.
struct Unmapped<'a> {
    history: &'a [Vec<Edit>],
    cx: &'a dyn Context,
}

impl Context for Unmapped<'_> {
    fn local(&self, name: &str, declaration: TextRange) -> Option<TypeFacts> {
        let mut start = declaration.start as usize;
        let mut end = declaration.end as usize;
        for edits in self.history.iter().rev() {
            start = unmap_offset(edits, start)?;
            end = unmap_offset(edits, end)?.max(start);
        }
        self.cx
            .local(name, TextRange::new(start as u32, end as u32))
    }
}

/// Where `p` (after `edits`) was before them; `None` inside inserted text.
fn unmap_offset(edits: &[Edit], p: usize) -> Option<usize> {
    let mut delta: isize = 0;
    for e in edits {
        let new_start = (e.start as isize + delta) as usize;
        let new_end = new_start + e.text.len();
        if p < new_start || (p == new_start && e.text.is_empty()) {
            break;
        }
        if p < new_end {
            return None;
        }
        delta += e.text.len() as isize - (e.end - e.start) as isize;
    }
    Some((p as isize - delta) as usize)
}

/// The member (method, constructor, accessor, property, ...) or, outside
/// members, the type declaration holding `range` of `text`.
pub fn enclosing_member(text: &str, range: TextRange) -> Option<TextRange> {
    const MEMBERS: &[&str] = &[
        "method_declaration",
        "constructor_declaration",
        "destructor_declaration",
        "operator_declaration",
        "conversion_operator_declaration",
        "property_declaration",
        "indexer_declaration",
        "event_declaration",
        "class_declaration",
        "struct_declaration",
        "record_declaration",
        "global_statement",
    ];
    let tree = syntax::parse(text)?;
    let node = tree
        .root_node()
        .descendant_for_byte_range(range.start as usize, range.end as usize)?;
    let member =
        std::iter::successors(Some(node), |n| n.parent()).find(|n| MEMBERS.contains(&n.kind()))?;
    Some(TextRange::new(
        member.start_byte() as u32,
        member.end_byte() as u32,
    ))
}

/// Syntax errors tree-sitter finds in `text` as written.
pub fn syntax_error_count(text: &str) -> usize {
    syntax::parse(text).map_or(usize::MAX, |t| {
        crate::annotate::syntax::error_count(t.root_node())
    })
}

/// Where `p` is after `edits` (sorted): past insertions at `p` when it starts
/// a range, before them when it ends one; `None` inside a replaced span.
fn map_offset(edits: &[Edit], p: usize, is_start: bool) -> Option<usize> {
    let mut delta: isize = 0;
    for e in edits {
        let shifts = if e.start == e.end {
            e.start < p || (e.start == p && is_start)
        } else if e.end <= p {
            true
        } else if e.start >= p {
            false
        } else {
            return None;
        };
        if shifts {
            delta += e.text.len() as isize - (e.end - e.start) as isize;
        }
    }
    Some((p as isize + delta) as usize)
}

#[cfg(test)]
mod tests;
