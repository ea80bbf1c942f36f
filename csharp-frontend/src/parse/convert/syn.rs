//! Reading a tree-sitter node: kind, fields, children and text. Text always
//! comes from the original file, never from the repaired copy tree-sitter saw.

use std::cell::RefCell;

use tree_sitter::{Node, TreeCursor};

use super::kinds::{F, K, Tables, tables};
use crate::hir::{Name, SyntaxError, TextRange};

pub(crate) struct Syn<'a, 't> {
    pub src: &'a str,
    /// Roughly where the stack was when the conversion started.
    stack_base: usize,
    t: &'static Tables,
    /// One cursor for every child walk: creating one allocates.
    cursor: RefCell<TreeCursor<'t>>,
    /// Constructs dropped because they exceed a limit ([`crate::hir::FileSyntax::limits`]).
    limits: RefCell<Vec<SyntaxError>>,
}

impl<'a, 't> Syn<'a, 't> {
    pub fn new(src: &'a str, root: Node<'t>) -> Syn<'a, 't> {
        Syn {
            src,
            stack_base: stack_position(),
            t: tables(),
            cursor: RefCell::new(root.walk()),
            limits: RefCell::new(Vec::new()),
        }
    }

    /// Notes that `n` exceeds a limit and is dropped (once per range).
    pub fn limit(&self, n: Node<'t>, message: String) {
        self.limit_at(Self::range(n), message);
    }

    pub fn limit_at(&self, range: TextRange, message: String) {
        self.limits
            .borrow_mut()
            .push(SyntaxError { range, message });
    }

    /// The notes of [`Syn::limit`], in order, one per range.
    pub fn take_limits(&self) -> Vec<SyntaxError> {
        let mut limits = std::mem::take(&mut *self.limits.borrow_mut());
        limits.sort_by_key(|l| (l.range.start, l.range.end));
        limits.dedup_by_key(|l| l.range);
        limits
    }

    /// Calls `f` on each child of `n` (comments skipped) until it returns `false`.
    fn each_child(&self, n: Node<'t>, mut f: impl FnMut(Option<u16>, Node<'t>) -> bool) {
        let Ok(mut cursor) = self.cursor.try_borrow_mut() else {
            // Re-entered from `f`: walk with a fresh cursor.
            let mut cursor = n.walk();
            return walk(&mut cursor, n, f);
        };
        walk(&mut cursor, n, &mut f)
    }

    /// Calls `f` on each child of `n` but comments.
    pub fn for_each_child(&self, n: Node<'t>, mut f: impl FnMut(Node<'t>)) {
        self.each_child(n, |_, c| {
            f(c);
            true
        });
    }

    /// Bytes of stack used since the conversion started.
    pub fn stack_used(&self) -> usize {
        self.stack_base.abs_diff(stack_position())
    }

    pub fn kind(&self, n: Node<'t>) -> K {
        self.t.kind(n)
    }

    pub fn field(&self, n: Node<'t>, f: F) -> Option<Node<'t>> {
        n.child_by_field_id(self.t.field(f))
    }

    pub fn field_id(&self, f: F) -> u16 {
        self.t.field(f)
    }

    pub fn text(&self, n: Node<'t>) -> &'a str {
        self.src.get(n.start_byte()..n.end_byte()).unwrap_or("")
    }

    pub fn range(n: Node<'t>) -> TextRange {
        TextRange::new(n.start_byte() as u32, n.end_byte() as u32)
    }

    /// An identifier's name, without the `@` of a verbatim identifier.
    pub fn name(&self, n: Node<'t>) -> Name {
        let t = self.text(n);
        Name::new(t.strip_prefix('@').unwrap_or(t))
    }

    /// The original byte at `offset` (repairs are recognised by it).
    pub fn byte_at(&self, offset: usize) -> u8 {
        self.src.as_bytes().get(offset).copied().unwrap_or(0)
    }

    /// All children but comments, with their field ids (0 when none).
    pub fn children_fields(&self, n: Node<'t>) -> Vec<(u16, Node<'t>)> {
        let mut out = Vec::with_capacity(n.child_count() as usize);
        self.each_child(n, |f, c| {
            out.push((f.unwrap_or(0), c));
            true
        });
        out
    }

    /// All children (anonymous tokens included) but comments.
    pub fn children(&self, n: Node<'t>) -> Vec<Node<'t>> {
        let mut out = Vec::with_capacity(n.child_count() as usize);
        self.each_child(n, |_, c| {
            out.push(c);
            true
        });
        out
    }

    /// Whether a child is a syntax node rather than punctuation: named nodes,
    /// errors, and the `this`/`base` keywords.
    pub fn is_node(&self, c: Node<'t>) -> bool {
        c.is_named() || c.is_error() || matches!(self.kind(c), K::This | K::Base)
    }

    /// Named children but comments.
    pub fn named(&self, n: Node<'t>) -> Vec<Node<'t>> {
        let mut out = Vec::with_capacity(n.named_child_count());
        self.each_child(n, |_, c| {
            if self.is_node(c) {
                out.push(c);
            }
            true
        });
        out
    }

    /// The first named child (comments skipped).
    pub fn first_named(&self, n: Node<'t>) -> Option<Node<'t>> {
        let mut found = None;
        self.each_child(n, |_, c| {
            if self.is_node(c) {
                found = Some(c);
            }
            found.is_none()
        });
        found
    }

    /// The text of the first token child (an operator before its operand).
    pub fn first_token(&self, n: Node<'t>) -> &'a str {
        n.child(0).map_or("", |c| self.text(c))
    }

    /// The last child (an operator after its operand).
    pub fn last_child(&self, n: Node<'t>) -> Option<Node<'t>> {
        n.child(n.child_count().checked_sub(1)?)
    }

    /// The first named child of a kind.
    pub fn child_of(&self, n: Node<'t>, kind: K) -> Option<Node<'t>> {
        let mut found = None;
        self.each_child(n, |_, c| {
            if c.is_named() && self.kind(c) == kind {
                found = Some(c);
            }
            found.is_none()
        });
        found
    }

    /// Whether an anonymous token with this text is a direct child.
    pub fn has_token(&self, n: Node<'t>, token: &str) -> bool {
        let mut found = false;
        self.each_child(n, |_, c| {
            found = !c.is_named() && self.text(c) == token;
            !found
        });
        found
    }
}

/// The address of a local: where the stack is now, give or take a frame.
#[inline(never)]
fn stack_position() -> usize {
    let marker = 0u8;
    std::hint::black_box(&marker) as *const u8 as usize
}

fn walk<'t>(
    cursor: &mut TreeCursor<'t>,
    n: Node<'t>,
    mut f: impl FnMut(Option<u16>, Node<'t>) -> bool,
) {
    cursor.reset(n);
    if !cursor.goto_first_child() {
        return;
    }
    loop {
        let node = cursor.node();
        if !node.is_extra() && !f(cursor.field_id().map(|id| id.get()), node) {
            return;
        }
        if !cursor.goto_next_sibling() {
            return;
        }
    }
}
