//! Keeping a broken member's failure to itself.
//!
//! Some errors make tree-sitter's recovery give up on far more than the
//! construct at fault: one ERROR node then holds several members, or the
//! whole file (garnet's `LogRecord.cs` lost its type to a `ref *(T*)p` and two
//! dereferences). When an error spans two members or more, each member it
//! spans is parsed alone, inside an empty class, with the repairs: a member
//! that parses there keeps the repaired text; one that fails has its body (or,
//! if that is not enough, all of it) blanked, and is [`Quarantined`]. The
//! file is reparsed and kept when its errors shrank. Blanking keeps every byte
//! offset and line break, so later code keeps its place.

use std::borrow::Cow;

use tree_sitter::{Node, Tree};

use super::lexer::{Lexer, TokKind, Token};
use super::repair::{RepairKind, declared_at, error_weight, repair_rounds};
use crate::hir::{Repair, TextRange};

/// A member blanked because it does not parse even on its own.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Quarantined {
    /// The whole member (attributes to last token).
    pub member: TextRange,
    /// The statement (or member) holding its first syntax error.
    pub error: TextRange,
}

/// What a member is parsed inside: a class body.
const PREFIX: &[u8] = b"class _{";
const SUFFIX: &[u8] = b"}";

/// `tree` unchanged, or reparsed with the members that fail on their own
/// blanked, when an error of `tree` spans two members or more.
pub(crate) fn isolate_broken_members(
    text: &[u8],
    tree: Tree,
    repairs: &mut Vec<Repair>,
) -> (Tree, Vec<Quarantined>) {
    if !tree.root_node().has_error() {
        return (tree, Vec::new());
    }
    let toks: Vec<Token> = Lexer::new(text).collect();
    let members = members(&toks, text);
    let spread = members_under_spreading_errors(tree.root_node(), &members);
    if spread.is_empty() {
        return (tree, Vec::new());
    }
    let mut candidate = text.to_vec();
    let mut found = Vec::new();
    let mut quarantined = Vec::new();
    for &(start, end) in &spread {
        let (start, end) = (start as usize, end as usize);
        let Some(alone) = parse_alone(&text[start..end]) else {
            continue;
        };
        let offset = start as u32;
        found.extend(alone.repairs.iter().map(|r| Repair {
            range: TextRange::new(r.range.start + offset, r.range.end + offset),
            kind: r.kind,
        }));
        let mut bytes = alone.text;
        if let Some(error) = alone.error {
            let blank = blank_body(&bytes)
                .filter(|b| parse_alone(b).is_some_and(|p| p.error.is_none()))
                .unwrap_or_else(|| blanked(&bytes));
            // Record only the bytes the blanking changed, as one range.
            let changed = bytes.iter().zip(&blank).position(|(a, b)| a != b);
            let last = bytes.iter().zip(&blank).rposition(|(a, b)| a != b);
            if let (Some(first), Some(last)) = (changed, last) {
                found.push(Repair {
                    range: TextRange::new(offset + first as u32, offset + last as u32 + 1),
                    kind: RepairKind::BROKEN_MEMBER,
                });
            }
            bytes = blank;
            quarantined.push(Quarantined {
                member: TextRange::new(offset, end as u32),
                error: TextRange::new(error.start + offset, error.end + offset),
            });
        }
        candidate[start..end].copy_from_slice(&bytes);
    }
    if quarantined.is_empty() && found.is_empty() {
        return (tree, Vec::new());
    }
    let Some(new_tree) = super::parse_tree(&candidate, None) else {
        return (tree, Vec::new());
    };
    if error_weight(new_tree.root_node()) >= error_weight(tree.root_node()) {
        return (tree, Vec::new());
    }
    repairs.extend(found);
    (new_tree, quarantined)
}

/// A member parsed alone: its repaired text, the repairs (offsets in the
/// member) and where its first error is, if any.
struct Alone {
    text: Vec<u8>,
    repairs: Vec<Repair>,
    error: Option<TextRange>,
}

fn parse_alone(member: &[u8]) -> Option<Alone> {
    let mut snippet = Vec::with_capacity(PREFIX.len() + member.len() + SUFFIX.len());
    snippet.extend_from_slice(PREFIX);
    snippet.extend_from_slice(member);
    snippet.extend_from_slice(SUFFIX);
    let tree = super::parse_tree(&snippet, None)?;
    let mut repairs = Vec::new();
    let (snippet, tree) = repair_rounds(Cow::Owned(snippet), tree, &mut repairs);
    let shift = PREFIX.len() as u32;
    let len = member.len() as u32;
    let error = first_error(tree.root_node()).map(|e| {
        let (s, e) = holder_range(e);
        let clamp = |p: usize| (p as u32).saturating_sub(shift).min(len);
        TextRange::new(clamp(s), clamp(e))
    });
    let repairs = repairs
        .into_iter()
        .filter(|r| r.range.start >= shift && r.range.end <= shift + len)
        .map(|r| Repair {
            range: TextRange::new(r.range.start - shift, r.range.end - shift),
            kind: r.kind,
        })
        .collect();
    let text = snippet
        .get(PREFIX.len()..PREFIX.len() + member.len())?
        .to_vec();
    Some(Alone {
        text,
        repairs,
        error,
    })
}

/// The first ERROR or MISSING node in text order.
fn first_error(root: Node) -> Option<Node> {
    super::convert::nodes_with_errors(root).find(|n| super::convert::is_error_node(*n))
}

/// The statement or member holding `error` (the error itself when it stands
/// in a block), from its first child that is not a comment or attribute.
fn holder_range(error: Node) -> (usize, usize) {
    let mut n = error;
    while let Some(p) = n.parent() {
        if matches!(
            p.kind(),
            "block" | "declaration_list" | "switch_section" | "compilation_unit"
        ) {
            break;
        }
        n = p;
    }
    let mut cursor = n.walk();
    let start = n
        .children(&mut cursor)
        .find(|c| !matches!(c.kind(), "comment" | "attribute_list"))
        .map_or(n.start_byte(), |c| c.start_byte());
    (start, n.end_byte())
}

/// `member` with its body emptied, braces kept (`=> e;` becomes `{    }`);
/// `None` when it has none. The body starts at the first `{` or `=>` outside
/// parentheses and brackets.
fn blank_body(member: &[u8]) -> Option<Vec<u8>> {
    let toks: Vec<Token> = Lexer::new(member).collect();
    let mut depth = 0usize;
    let mut open = None;
    for (i, t) in toks.iter().enumerate() {
        if t.kind != TokKind::Punct {
            continue;
        }
        match t.text(member) {
            b"(" | b"[" => depth += 1,
            b")" | b"]" => depth = depth.saturating_sub(1),
            b"{" | b"=>" if depth == 0 => {
                open = Some(i);
                break;
            }
            _ => {}
        }
    }
    let open = toks[open?];
    let close = toks.iter().rev().find(|t| t.kind == TokKind::Punct)?;
    let arrow = open.text(member) == b"=>";
    let fits = if arrow {
        close.text(member) == b";"
    } else {
        close.text(member) == b"}"
    };
    if !fits || close.start <= open.start {
        return None;
    }
    let mut out = member.to_vec();
    let inner = &mut out[open.end as usize..close.start as usize];
    blank(inner);
    if arrow {
        out[open.start as usize..open.end as usize].copy_from_slice(b"{ ");
        out[close.start as usize] = b'}';
    }
    Some(out)
}

/// `member` as blanks, line breaks kept.
fn blanked(member: &[u8]) -> Vec<u8> {
    let mut out = member.to_vec();
    blank(&mut out);
    out
}

fn blank(bytes: &mut [u8]) {
    for b in bytes {
        if !matches!(*b, b'\n' | b'\r') {
            *b = b' ';
        }
    }
}

/// The members (byte ranges) that some ERROR node spreads over together
/// with at least one other member.
fn members_under_spreading_errors(root: Node, members: &[(u32, u32)]) -> Vec<(u32, u32)> {
    let mut out: Vec<(u32, u32)> = Vec::new();
    let mut cursor = root.walk();
    loop {
        let node = cursor.node();
        if node.is_error() {
            let (s, e) = (node.start_byte() as u32, node.end_byte() as u32);
            let first = members.partition_point(|&(_, end)| end <= s);
            let last = members.partition_point(|&(start, _)| start < e);
            if last > first + 1 {
                out.extend_from_slice(&members[first..last]);
            }
        } else if node.has_error() && cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                out.sort_unstable();
                out.dedup();
                return out;
            }
        }
    }
}

/// The members of the type bodies in `toks`, as byte ranges in text order:
/// from a member's first token to its `;` or to the `}` of its body (when no
/// `;`, `=`, `.`, `,` or `)` follows). Nested types are not members but hold
/// theirs; an enum is one member.
fn members(toks: &[Token], text: &[u8]) -> Vec<(u32, u32)> {
    // Per open brace: whether it opens a type or namespace body.
    let mut open: Vec<bool> = Vec::new();
    let mut start: Option<usize> = None;
    let mut out = Vec::new();
    for (j, t) in toks.iter().enumerate() {
        let in_body = open.last() == Some(&true);
        let punct = if t.kind == TokKind::Punct {
            t.text(text)
        } else {
            b""
        };
        if in_body
            && start.is_none()
            && t.kind != TokKind::Directive
            && !matches!(punct, b"}" | b";")
        {
            start = Some(j);
        }
        match punct {
            b"{" => {
                let body = declared_at(toks, text, j).is_some_and(|k| k != b"enum");
                if body && in_body {
                    // A nested type: its members are the members.
                    start = None;
                }
                open.push(body);
            }
            b"}" => {
                let was_body = open.pop() == Some(true);
                if was_body {
                    start = None;
                } else if open.last() == Some(&true)
                    && let Some(s) = start
                {
                    let continues = toks.get(j + 1).is_some_and(|n| {
                        n.kind == TokKind::Punct
                            && matches!(n.text(text), b";" | b"=" | b"." | b"," | b")")
                    });
                    if !continues {
                        out.push((toks[s].start, t.end));
                        start = None;
                    }
                }
            }
            b";" if in_body => {
                if let Some(s) = start.take() {
                    out.push((toks[s].start, t.end));
                }
            }
            _ => {}
        }
    }
    out
}
