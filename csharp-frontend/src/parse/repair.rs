//! Offset-preserving repairs of known tree-sitter-c-sharp 0.23.5 gaps.
//!
//! A file is parsed as it is; only when the tree has errors do we look for the
//! known gaps near them, rewrite those tokens in place (same byte length, so
//! every offset stays that of the file), reparse, and keep the result when it
//! has fewer errors. The conversion reads names from the original text, and
//! recognises the few rewrites that change a node's kind by their [`Repair`]
//! records (see [`RepairKind`]).

use rustc_hash::FxHashSet;
use std::borrow::Cow;

use tree_sitter::{InputEdit, Node, Point, Tree};

use super::isolate::Quarantined;
use super::lexer::{Lexer, TokKind, Token};
use crate::hir::{Repair, TextRange};

/// The known gaps, as recorded in [`Repair::kind`].
pub(crate) struct RepairKind;

impl RepairKind {
    /// `async` used as an identifier (`bool async`, `M(async)`, `async ? a : b`).
    pub const ASYNC_IDENT: &'static str = "async-identifier";
    /// `required` used as an identifier.
    pub const REQUIRED_IDENT: &'static str = "required-identifier";
    /// `with` (not before `{`) or `partial` (not before a type or member)
    /// used as an identifier: `var with = ..;`, `partial.Select(..)`.
    pub const KEYWORD_IDENT: &'static str = "contextual-keyword-identifier";
    /// `a?.B = v`: the `?` is rewritten to `!` (null-forgiving, same shape).
    pub const CONDITIONAL_ASSIGN: &'static str = "null-conditional-assignment";
    /// `$@"..{x}"""`: the doubled quotes after the last hole are blanked.
    pub const VERBATIM_QUOTE: &'static str = "verbatim-interpolated-quote";
    /// `from _ in`: the discard is rewritten to an identifier.
    pub const QUERY_DISCARD: &'static str = "query-discard";
    /// `[property]`, `x[type]`: an attribute-target word starting brackets.
    pub const TARGET_WORD: &'static str = "attribute-target-word";
    /// `[..]` / `[.., x]`: a leading bare slice (or any bare slice of a
    /// [`Self::LIST_PATTERN_GUARD`]) is rewritten to a discard.
    pub const LEADING_SLICE: &'static str = "leading-slice-pattern";
    /// `.. var rest`: the `..` of a slice with a subpattern is blanked.
    pub const SLICE_SUBPATTERN: &'static str = "slice-subpattern";
    /// `[var s] when s > 0`: a list pattern followed by a guard is rewritten
    /// to a positional one, `(var s) when s > 0`; the conversion reads the
    /// brackets back from the original text.
    pub const LIST_PATTERN_GUARD: &'static str = "list-pattern-guard";
    /// `M(x) = v`, `M(x) ??= v` (a ref-returning call assigned to): the
    /// parentheses become brackets, an element access having the same shape.
    /// `M() = v` needs an argument: `M[_]= v` takes the space before the
    /// operator; the conversion drops the argument, which reads `)`.
    pub const CALL_ASSIGN: &'static str = "call-result-assignment";
    /// `*(T*)p`, `*(p + 1)`: a dereference of a parenthesised operand; the
    /// `*` becomes `&` (a prefix operator of the same shape). The conversion
    /// reads the operator from the original text, so the tree says `Deref`.
    /// At the head of a statement or expression body (`*(p + 1) = v;`,
    /// `*p++ = v;`, `=> *(p + 3) = v;`) it is blanked (`_[p + 1] = v`, read
    /// back as a dereference).
    /// Also `*--p`, `*p++`, `ref *(T*)p` and `(long)*(uint*)p` (after a cast
    /// to a keyword or pointer type); `*--p = v;` and `*a[i]++ = v;` head a
    /// statement. `*(T*)(p + 1) = v;` also gets brackets for the operand's
    /// parentheses (`&(T*)[p + 1] = v;`): only an lvalue takes the assignment
    /// the grammar nests under the cast, and the conversion reads the
    /// parentheses back.
    pub const POINTER_DEREF: &'static str = "pointer-dereference";
    /// `(in int k) =>`, `(out int k) =>`, `(ref x) =>` (C# 14): the grammar
    /// takes only `ref` before a typed lambda parameter. The modifier is
    /// blanked; the conversion reads it back from the original text before
    /// the parameter.
    pub const LAMBDA_PARAM_MODIFIER: &'static str = "lambda-parameter-modifier";
    /// `where T : allows ref struct` (C# 13): the anti-constraint becomes
    /// `new()` and blanks, a constraint the conversion drops like this one.
    pub const ALLOWS_REF_STRUCT: &'static str = "allows-ref-struct";
    /// `ref partial struct`: `partial` is blanked; the conversion gives the
    /// type the `partial` modifier from the original text after `ref`.
    pub const REF_PARTIAL: &'static str = "ref-partial-struct";
    /// `extension(Receiver r) { ... }` (C# 14): `extension` becomes `class ext`,
    /// a nested class whose primary constructor holds the receiver, so the
    /// members parse and see `r`; the conversion names it `extension`. A
    /// receiver without a name (`extension(string)`) is blanked.
    pub const EXTENSION_BLOCK: &'static str = "extension-block";
    /// `$$"""{{{x}}}"""`, `$$"""a{"""`: the braces in the text of a raw
    /// interpolated string with two or more dollars are blanked (before
    /// parsing: the grammar loses a hole after them without an error).
    pub const RAW_TEXT_BRACES: &'static str = "raw-interpolation-text-braces";
    /// `$"{{{M("a")}}}"`: the escaped braces of a regular interpolated string
    /// are blanked (before parsing: the grammar ends the string early when
    /// `{{` precedes a hole holding a string literal).
    pub const INTERPOLATION_ESCAPES: &'static str = "interpolation-escaped-braces";
    /// `$""`: an empty interpolated string, which 0.23.5 cannot parse (it
    /// ends the string at the second quote and may swallow the file), loses
    /// its `$` before parsing: the plain `""` has the same value.
    pub const EMPTY_INTERPOLATION: &'static str = "empty-interpolated-string";
    /// A member that fails to parse on its own, in a file whose error
    /// swallowed other members: its body (or all of it) is blanked.
    pub const BROKEN_MEMBER: &'static str = "broken-member-blanked";
    /// `struct P { .. } ;`: the optional `;` after a type or namespace body,
    /// which the grammar takes only right after the brace, is blanked.
    pub const TYPE_SEMICOLON: &'static str = "type-declaration-semicolon";
}

pub(crate) struct Repaired {
    pub tree: Tree,
    pub repairs: Vec<Repair>,
    /// Members that fail to parse on their own, blanked (see [`super::isolate`]).
    pub quarantined: Vec<Quarantined>,
}

/// Repair rounds: a repair can reveal a second gap the first error hid.
const MAX_ROUNDS: usize = 3;

pub(crate) fn parse_repaired(text: Cow<[u8]>) -> Option<Repaired> {
    let (text, mut repairs) = rename_async_identifiers(text);
    let (text, braces) = blank_interpolation_text_braces(text);
    repairs.extend(braces);
    let (text, empty) = blank_empty_interpolation(text);
    repairs.extend(empty);
    let tree = super::parse_tree(&text, None)?;
    let (text, tree) = repair_rounds(text, tree, &mut repairs);
    let (tree, quarantined) = super::isolate::isolate_broken_members(&text, tree, &mut repairs);
    repairs.sort_by_key(|r| r.range.start);
    repairs.dedup();
    Some(Repaired {
        tree,
        repairs,
        quarantined,
    })
}

/// Repairs the gaps found near the errors of `tree`, reparsing after each
/// round; the repairs kept are added to `repairs`.
pub(crate) fn repair_rounds<'a>(
    mut text: Cow<'a, [u8]>,
    mut tree: Tree,
    repairs: &mut Vec<Repair>,
) -> (Cow<'a, [u8]>, Tree) {
    for _ in 0..MAX_ROUNDS {
        let root = tree.root_node();
        if !root.has_error() {
            break;
        }
        let weight = error_weight(root);
        let edits = find_edits(&text, &error_windows(root));
        if edits.is_empty() {
            break;
        }
        // All candidates at once; if that is no better, each kind on its own
        // (one wrong guess must not veto the others).
        let mut accepted = false;
        let mut kinds: Vec<&str> = edits.iter().map(|e| e.kind).collect();
        kinds.sort_unstable();
        kinds.dedup();
        let mut groups: Vec<Vec<&Edit>> = vec![edits.iter().collect()];
        if kinds.len() > 1 {
            groups.extend(
                kinds
                    .iter()
                    .map(|k| edits.iter().filter(|e| e.kind == *k).collect()),
            );
        }
        let mut weight = weight;
        for group in groups {
            let Some((candidate, new_tree)) = apply(&text, &tree, &group) else {
                continue;
            };
            let new_weight = error_weight(new_tree.root_node());
            if new_weight >= weight {
                continue;
            }
            repairs.extend(group.iter().map(|e| Repair {
                range: TextRange::new(e.start, e.start + e.bytes.len() as u32),
                kind: e.kind,
            }));
            text = Cow::Owned(candidate);
            tree = new_tree;
            weight = new_weight;
            accepted = true;
            if repairs.len() == edits.len() || !tree.root_node().has_error() {
                break;
            }
        }
        if !accepted {
            break;
        }
    }
    (text, tree)
}

/// `async` used as an identifier is the one gap frequent enough to repair
/// before parsing rather than after: EF Core's tests pass a `bool async` around
/// in 430 files, a parse with errors is twice as slow as a clean one, and the
/// repaired reparse comes on top. The next token alone tells an identifier from
/// the modifier (a modifier is followed by a type, a name or a parameter list),
/// so the up-front rewrite never guesses.
fn rename_async_identifiers(text: Cow<[u8]>) -> (Cow<[u8]>, Vec<Repair>) {
    if !text.windows(5).any(|w| w == b"async") {
        return (text, Vec::new());
    }
    let toks: Vec<Token> = Lexer::new(&text).collect();
    let mut repairs = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        if t.kind == TokKind::Ident
            && t.text(&text) == b"async"
            && is_identifier_use(&toks, &text, i)
        {
            repairs.push(Repair {
                range: TextRange::new(t.start, t.end),
                kind: RepairKind::ASYNC_IDENT,
            });
        }
    }
    if repairs.is_empty() {
        return (text, repairs);
    }
    let mut owned = text.into_owned();
    for r in &repairs {
        if let Some(first) = owned.get_mut(r.range.start as usize) {
            *first = b'_';
        }
    }
    (Cow::Owned(owned), repairs)
}

/// In a raw interpolated string with two or more dollars, single braces are
/// text (`$$"""{"a": {{x}}}"""` is `{"a": `, then `x`, then `}`), and a run
/// of more braces than dollars before a hole is text then the hole's opener.
/// tree-sitter-c-sharp 0.23.5 reads such a run as text and loses the hole
/// (without an error), and rejects a brace right before the closing quotes.
/// The text's braces are blanked before parsing; the holes' own stay.
///
/// In a regular interpolated string, an escaped `{{` right before a hole
/// whose expression holds a string literal (`$"{{{string.Join(", ", xs)}}}"`)
/// makes 0.23.5's scanner end the string early; the escapes (`{{`, `}}`) of
/// a text ending in `{{` before a hole are blanked too. Their text never
/// matters to the analysis.
fn blank_interpolation_text_braces(text: Cow<[u8]>) -> (Cow<[u8]>, Vec<Repair>) {
    let raw_strings = text.windows(3).any(|w| w == b"$$\"");
    let escapes = text.windows(3).any(|w| w == b"{{{");
    if !raw_strings && !escapes {
        return (text, Vec::new());
    }
    let toks: Vec<Token> = Lexer::new(&text).collect();
    let mut strings: Vec<usize> = Vec::new();
    let mut repairs = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        match t.kind {
            TokKind::InterpStart => {
                let opener = t.text(&text);
                let dollars = opener.iter().take_while(|&&b| b == b'$').count();
                let raw = opener.ends_with(b"\"\"\"");
                strings.push(if raw { dollars } else { 0 });
            }
            TokKind::InterpEnd { .. } => {
                strings.pop();
            }
            TokKind::InterpText
                if escapes
                    && strings.last() == Some(&0)
                    && t.text(&text).ends_with(b"{{")
                    && toks
                        .get(i + 1)
                        .is_some_and(|n| !matches!(n.kind, TokKind::InterpEnd { .. })) =>
            {
                let bytes = t.text(&text);
                let mut k = 0;
                while k + 1 < bytes.len() {
                    if matches!(&bytes[k..k + 2], b"{{" | b"}}") {
                        let at = t.start + k as u32;
                        repairs.push(Repair {
                            range: TextRange::new(at, at + 2),
                            kind: RepairKind::INTERPOLATION_ESCAPES,
                        });
                        k += 2;
                    } else {
                        k += 1;
                    }
                }
            }
            TokKind::InterpText if strings.last().is_some_and(|&d| d >= 2) => {
                let mut run: Option<usize> = None;
                for (k, &b) in t.text(&text).iter().enumerate() {
                    let at = t.start as usize + k;
                    match (matches!(b, b'{' | b'}'), run) {
                        (true, None) => run = Some(at),
                        (false, Some(start)) => {
                            repairs.push(Repair {
                                range: TextRange::new(start as u32, at as u32),
                                kind: RepairKind::RAW_TEXT_BRACES,
                            });
                            run = None;
                        }
                        _ => {}
                    }
                }
                if let Some(start) = run {
                    repairs.push(Repair {
                        range: TextRange::new(start as u32, t.end),
                        kind: RepairKind::RAW_TEXT_BRACES,
                    });
                }
            }
            _ => {}
        }
    }
    if repairs.is_empty() {
        return (text, repairs);
    }
    let mut owned = text.into_owned();
    for r in &repairs {
        if let Some(bytes) = owned.get_mut(r.range.start as usize..r.range.end as usize) {
            bytes.fill(b' ');
        }
    }
    (Cow::Owned(owned), repairs)
}

/// `$""` becomes ` ""` before parsing: 0.23.5 reads the `$` alone and, when
/// another string follows on the line, takes the text between for a string.
fn blank_empty_interpolation(text: Cow<[u8]>) -> (Cow<[u8]>, Vec<Repair>) {
    if !text.windows(3).any(|w| w == b"$\"\"") {
        return (text, Vec::new());
    }
    let toks: Vec<Token> = Lexer::new(&text).collect();
    let repairs: Vec<Repair> = toks
        .windows(2)
        .filter(|w| {
            w[0].kind == TokKind::InterpStart
                && w[0].text(&text) == b"$\""
                && w[1].kind == (TokKind::InterpEnd { verbatim: false })
        })
        .map(|w| Repair {
            range: TextRange::new(w[0].start, w[0].start + 1),
            kind: RepairKind::EMPTY_INTERPOLATION,
        })
        .collect();
    if repairs.is_empty() {
        return (text, repairs);
    }
    let mut owned = text.into_owned();
    for r in &repairs {
        owned[r.range.start as usize] = b' ';
    }
    (Cow::Owned(owned), repairs)
}

/// Whether the contextual keyword at token `i` is used as an identifier: it is
/// not followed by a name, a type or a parameter list.
fn is_identifier_use(toks: &[Token], text: &[u8], i: usize) -> bool {
    match toks.get(i + 1) {
        Some(next) => next.kind != TokKind::Ident && next.text(text) != b"(",
        None => true,
    }
}

/// The text with `edits` applied and its tree, reparsed incrementally from `tree`
/// (the edits keep lengths, so only the touched regions are parsed again).
fn apply(text: &[u8], tree: &Tree, edits: &[&Edit]) -> Option<(Vec<u8>, Tree)> {
    let mut candidate = text.to_vec();
    let mut edited = tree.clone();
    // Edits are in text order: track rows and line starts as we go.
    let (mut row, mut line_start, mut scanned) = (0, 0, 0);
    for e in edits {
        let start = e.start as usize;
        let end = start + e.bytes.len();
        let dst = candidate.get_mut(start..end)?;
        dst.copy_from_slice(&e.bytes);
        for (i, &b) in text.get(scanned..start)?.iter().enumerate() {
            if b == b'\n' {
                row += 1;
                line_start = scanned + i + 1;
            }
        }
        scanned = start;
        let point = |offset: usize| Point {
            row,
            column: offset - line_start,
        };
        edited.edit(&InputEdit {
            start_byte: start,
            old_end_byte: end,
            new_end_byte: end,
            start_position: point(start),
            old_end_position: point(end),
            new_end_position: point(end),
        });
    }
    let new_tree = super::parse_tree(&candidate, Some(&edited))?;
    Some((candidate, new_tree))
}

/// Error nodes looked at per round: a file with more is not one of the known
/// gaps, and the windows below cost time per error.
const MAX_WINDOWS: usize = 256;

/// Where to look for the cause of each ERROR or MISSING node: from the start of
/// the statement or declaration before the one holding it (tree-sitter often
/// reports a gap one construct after the token at fault) to the node's end.
/// One cursor walk: `Node::parent` and sibling lookups cost a walk from the
/// root each, which deep broken trees turn quadratic.
fn error_windows(root: Node) -> Vec<(u32, u32)> {
    struct Level {
        /// The parent holds statements or declarations.
        in_container: bool,
        /// Start of the previous named sibling (comments skipped).
        prev: Option<usize>,
        /// The window start of the parent, inherited when not in a container.
        inherited: usize,
    }
    let mut out = Vec::new();
    let mut cursor = root.walk();
    let mut levels = vec![Level {
        in_container: false,
        prev: None,
        inherited: 0,
    }];
    loop {
        let node = cursor.node();
        let Some(level) = levels.last_mut() else {
            return out;
        };
        let anchor = if level.in_container {
            level.prev.unwrap_or(node.start_byte())
        } else {
            level.inherited
        };
        if node.is_named() && node.kind() != "comment" {
            level.prev = Some(node.start_byte());
        }
        let is_error = super::convert::is_error_node(node);
        if is_error {
            out.push((anchor.min(node.start_byte()) as u32, node.end_byte() as u32));
            if out.len() >= MAX_WINDOWS {
                return out;
            }
        }
        if !is_error && node.has_error() && cursor.goto_first_child() {
            let in_container = matches!(
                node.kind(),
                "block"
                    | "declaration_list"
                    | "compilation_unit"
                    | "switch_section"
                    | "switch_body"
            );
            levels.push(Level {
                in_container,
                prev: None,
                inherited: anchor,
            });
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return out;
            }
            levels.pop();
        }
    }
}

/// How bad a tree is: bytes under ERROR nodes plus one per error node.
pub(crate) fn error_weight(root: Node) -> u64 {
    let mut weight = 0;
    let mut cursor = root.walk();
    loop {
        let node = cursor.node();
        let is_error = super::convert::is_error_node(node);
        if is_error {
            weight += 1 + (node.end_byte() - node.start_byte()) as u64;
        }
        if !is_error && node.has_error() && cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return weight;
            }
        }
    }
}

struct Edit {
    start: u32,
    bytes: Vec<u8>,
    kind: &'static str,
}

/// Lines around an error that a repair may touch.
struct Windows(Vec<(u32, u32)>);

impl Windows {
    fn new(text: &[u8], errors: &[(u32, u32)]) -> Windows {
        let breaks: Vec<u32> = text
            .iter()
            .enumerate()
            .filter(|&(_, &b)| b == b'\n')
            .map(|(i, _)| i as u32)
            .collect();
        let line_start = |p: u32| {
            let i = breaks.partition_point(|&b| b < p);
            i.checked_sub(1).map_or(0, |i| breaks[i] + 1)
        };
        let line_end = |p: u32| {
            let i = breaks.partition_point(|&b| b < p);
            breaks.get(i).copied().unwrap_or(text.len() as u32)
        };
        let mut ranges: Vec<(u32, u32)> = errors
            .iter()
            .map(|&(s, e)| (line_start(s), line_end(e)))
            .collect();
        ranges.sort_unstable();
        let mut merged: Vec<(u32, u32)> = Vec::with_capacity(ranges.len());
        for (s, e) in ranges {
            match merged.last_mut() {
                Some(last) if s <= last.1 => last.1 = last.1.max(e),
                _ => merged.push((s, e)),
            }
        }
        Windows(merged)
    }

    fn contains(&self, pos: u32) -> bool {
        let i = self.0.partition_point(|&(s, _)| s <= pos);
        i > 0 && pos <= self.0[i - 1].1
    }

    /// Whether a window meets `start..=end`.
    fn overlaps(&self, start: u32, end: u32) -> bool {
        let i = self.0.partition_point(|&(_, e)| e < start);
        self.0.get(i).is_some_and(|&(s, _)| s <= end)
    }
}

/// The end of the brace block that follows token `i` (the text's end if it
/// is not closed).
fn block_end(toks: &[Token], text: &[u8], i: usize) -> u32 {
    let mut depth = 0usize;
    for t in toks.iter().skip(i) {
        if t.kind != TokKind::Punct {
            continue;
        }
        match t.text(text) {
            b"{" => depth += 1,
            b"}" if depth > 1 => depth -= 1,
            b"}" if depth == 1 => return t.end,
            b";" if depth == 0 => return t.end,
            _ => {}
        }
    }
    text.len() as u32
}

/// Identifier used in place of a contextual keyword: same length, never a keyword.
fn renamed(word: &[u8]) -> Vec<u8> {
    let mut out = word.to_vec();
    if let Some(first) = out.first_mut() {
        *first = if *first == b'_' { b'x' } else { b'_' };
    }
    out
}

fn find_edits(text: &[u8], errors: &[(u32, u32)]) -> Vec<Edit> {
    let windows = Windows::new(text, errors);
    let toks: Vec<Token> = Lexer::new(text).collect();
    let mut edits = Vec::new();
    let word = |i: usize| -> &[u8] { toks.get(i).map_or(&[][..], |t| t.text(text)) };
    let is = |i: usize, kind: TokKind, s: &str| {
        toks.get(i)
            .is_some_and(|t| t.kind == kind && t.text(text) == s.as_bytes())
    };
    let adjacent = |i: usize| toks.get(i + 1).is_some_and(|n| toks[i].end == n.start);
    let mut type_bodies: Option<FxHashSet<usize>> = None;
    for (i, t) in toks.iter().enumerate() {
        // An extension block whose members parse as statements of a method
        // named `extension` errs inside its body, far from the keyword.
        let in_window = windows.contains(t.start)
            || t.kind == TokKind::Ident
                && t.text(text) == b"extension"
                && at_member_start(&toks, text, i)
                && windows.overlaps(t.start, block_end(&toks, text, i));
        if !in_window {
            continue;
        }
        let mut push = |start: u32, bytes: Vec<u8>, kind: &'static str| {
            edits.push(Edit { start, bytes, kind });
        };
        match t.kind {
            TokKind::Ident => {
                let w = t.text(text);
                match w {
                    b"required" if is_identifier_use(&toks, text, i) => {
                        push(t.start, renamed(w), RepairKind::REQUIRED_IDENT)
                    }
                    b"with" | b"partial"
                        if is_identifier_use(&toks, text, i) && !is(i + 1, TokKind::Punct, "{") =>
                    {
                        push(t.start, renamed(w), RepairKind::KEYWORD_IDENT)
                    }
                    b"ref" | b"out" | b"in" | b"scoped"
                        if i > 0
                            && (is(i - 1, TokKind::Punct, "(")
                                || is(i - 1, TokKind::Punct, ",")
                                || is(i - 1, TokKind::Ident, "scoped"))
                            && enclosing_close(&toks, text, i)
                                .is_some_and(|close| is(close + 1, TokKind::Punct, "=>")) =>
                    {
                        push(
                            t.start,
                            vec![b' '; w.len()],
                            RepairKind::LAMBDA_PARAM_MODIFIER,
                        )
                    }
                    b"_" if i > 0
                        && (is(i - 1, TokKind::Ident, "from")
                            || is(i - 1, TokKind::Ident, "join"))
                        && is(i + 1, TokKind::Ident, "in") =>
                    {
                        push(t.start, renamed(w), RepairKind::QUERY_DISCARD)
                    }
                    b"allows"
                        if i > 0
                            && (is(i - 1, TokKind::Punct, ":")
                                || is(i - 1, TokKind::Punct, ","))
                            && is(i + 1, TokKind::Ident, "ref")
                            && is(i + 2, TokKind::Ident, "struct") =>
                    {
                        // `new()` then blanks, line breaks kept (rows must not move).
                        let end = toks[i + 2].end as usize;
                        let mut bytes: Vec<u8> = text[t.start as usize..end]
                            .iter()
                            .map(|&b| if b == b'\n' { b'\n' } else { b' ' })
                            .collect();
                        bytes[..5].copy_from_slice(b"new()");
                        push(t.start, bytes, RepairKind::ALLOWS_REF_STRUCT)
                    }
                    b"partial"
                        if i > 0
                            && is(i - 1, TokKind::Ident, "ref")
                            && is(i + 1, TokKind::Ident, "struct") =>
                    {
                        push(t.start, vec![b' '; w.len()], RepairKind::REF_PARTIAL)
                    }
                    b"extension" => {
                        for (start, bytes) in extension_block(&toks, text, i) {
                            push(start, bytes, RepairKind::EXTENSION_BLOCK);
                        }
                    }
                    b"field" | b"method" | b"param" | b"property" | b"type" | b"typevar"
                        if i > 0
                            && is(i - 1, TokKind::Punct, "[")
                            && !is(i + 1, TokKind::Punct, ":") =>
                    {
                        push(t.start, renamed(w), RepairKind::TARGET_WORD)
                    }
                    _ => {}
                }
            }
            TokKind::Punct => match t.text(text) {
                // `*(p + 1) = v;`, `*p++ = v;`: a statement assigning through a
                // pointer; the grammar takes no such target. `_[p + 1] = v;`
                // and `p = v;` are assignments of the same length, and a write
                // through a pointer holds no resource.
                b"*" if starts_statement(&toks, text, i)
                    && is(i + 1, TokKind::Punct, "(")
                    && skip_balanced(&toks, text, i + 1, b"(", b")").is_some_and(|after| {
                        toks.get(after).is_some_and(|n| {
                            n.kind == TokKind::Punct && n.text(text).ends_with(b"=")
                        })
                    }) =>
                {
                    let close = skip_balanced(&toks, text, i + 1, b"(", b")").unwrap_or(i + 2) - 1;
                    push(t.start, b"_".to_vec(), RepairKind::POINTER_DEREF);
                    push(toks[i + 1].start, b"[".to_vec(), RepairKind::POINTER_DEREF);
                    push(toks[close].start, b"]".to_vec(), RepairKind::POINTER_DEREF);
                }
                // `*p++ = v;`, `*a[i]++ = v;`
                b"*" if starts_statement(&toks, text, i)
                    && access_chain_end(&toks, text, i + 1).is_some_and(|end| {
                        is(end, TokKind::Punct, "++") || is(end, TokKind::Punct, "--")
                    }) =>
                {
                    let end = access_chain_end(&toks, text, i + 1).unwrap_or(i + 2);
                    push(t.start, b" ".to_vec(), RepairKind::POINTER_DEREF);
                    push(toks[end].start, b"  ".to_vec(), RepairKind::POINTER_DEREF);
                }
                // `*--p = v;`
                b"*" if starts_statement(&toks, text, i)
                    && (is(i + 1, TokKind::Punct, "++") || is(i + 1, TokKind::Punct, "--"))
                    && access_chain_end(&toks, text, i + 2).is_some_and(|end| {
                        toks.get(end).is_some_and(|n| is_assignment(n.text(text)))
                    }) =>
                {
                    push(t.start, b" ".to_vec(), RepairKind::POINTER_DEREF);
                    push(toks[i + 1].start, b"  ".to_vec(), RepairKind::POINTER_DEREF);
                }
                b"*" if (is(i + 1, TokKind::Punct, "(")
                    || is(i + 1, TokKind::Punct, "++")
                    || is(i + 1, TokKind::Punct, "--"))
                    && starts_operand(&toks, text, i) =>
                {
                    push(t.start, b"&".to_vec(), RepairKind::POINTER_DEREF);
                    // `*(T*)(p + 1) = v;`: the operand's parentheses become brackets.
                    if starts_statement(&toks, text, i)
                        && let Some(cast_end) = skip_balanced(&toks, text, i + 1, b"(", b")")
                        && closes_cast(&toks, text, cast_end - 1)
                        && is(cast_end, TokKind::Punct, "(")
                        && let Some(after) = skip_balanced(&toks, text, cast_end, b"(", b")")
                        && toks.get(after).is_some_and(|n| is_assignment(n.text(text)))
                    {
                        push(
                            toks[cast_end].start,
                            b"[".to_vec(),
                            RepairKind::POINTER_DEREF,
                        );
                        push(
                            toks[after - 1].start,
                            b"]".to_vec(),
                            RepairKind::POINTER_DEREF,
                        );
                    }
                }
                b"?" if adjacent(i)
                    && (is(i + 1, TokKind::Punct, "[")
                        || (is(i + 1, TokKind::Punct, ".")
                            && toks.get(i + 2).is_some_and(|n| n.kind == TokKind::Ident)))
                    && chain_is_assigned(&toks, text, i + 1) =>
                {
                    push(t.start, b"!".to_vec(), RepairKind::CONDITIONAL_ASSIGN)
                }
                b".." if i > 1 && is(i - 1, TokKind::Punct, "[") && starts_pattern(word(i - 2)) => {
                    if is(i + 1, TokKind::Punct, "]") || is(i + 1, TokKind::Punct, ",") {
                        push(t.start, b"_ ".to_vec(), RepairKind::LEADING_SLICE)
                    } else if starts_subpattern(word(i + 1)) {
                        push(t.start, b"  ".to_vec(), RepairKind::SLICE_SUBPATTERN)
                    }
                }
                // `[var s] when s > 0`: the grammar takes `when` for the list
                // pattern's designation, and a positional pattern of the same
                // length takes the guard; bare slices in it become discards.
                b"]" if is(i + 1, TokKind::Ident, "when") => {
                    if let Some(open) = matching_bracket(&toks, text, i, b"[", b"]")
                        && open > 0
                        && starts_pattern(word(open - 1))
                    {
                        push(
                            toks[open].start,
                            b"(".to_vec(),
                            RepairKind::LIST_PATTERN_GUARD,
                        );
                        push(t.start, b")".to_vec(), RepairKind::LIST_PATTERN_GUARD);
                        let mut depth = 0usize;
                        for (k, tok) in toks.iter().enumerate().take(i).skip(open + 1) {
                            match tok.text(text) {
                                b"(" | b"[" | b"{" => depth += 1,
                                b")" | b"]" | b"}" => depth = depth.saturating_sub(1),
                                b".."
                                    if depth == 0
                                        && (is(k + 1, TokKind::Punct, ",")
                                            || is(k + 1, TokKind::Punct, "]")) =>
                                {
                                    push(tok.start, b"_ ".to_vec(), RepairKind::LEADING_SLICE)
                                }
                                _ => {}
                            }
                        }
                    }
                }
                b")" if toks
                    .get(i + 1)
                    .is_some_and(|n| n.kind == TokKind::Punct && is_assignment(n.text(text))) =>
                {
                    let empty = is(i - 1, TokKind::Punct, "(");
                    // `M() = v` becomes `M[_]= v`: only with a space or tab to take.
                    let room = matches!(text.get(t.end as usize), Some(b' ' | b'\t'));
                    if let Some(open) = matching_open(&toks, text, i)
                        && open > 0
                        && (!empty || room)
                        && ((toks[open - 1].kind == TokKind::Ident
                            && toks[open - 1].text(text) != b"var")
                            || is(open - 1, TokKind::Punct, ">"))
                    {
                        push(toks[open].start, b"[".to_vec(), RepairKind::CALL_ASSIGN);
                        if empty {
                            push(t.start, b"_]".to_vec(), RepairKind::CALL_ASSIGN);
                        } else {
                            push(t.start, b"]".to_vec(), RepairKind::CALL_ASSIGN);
                        }
                    }
                }
                b".."
                    if i > 0
                        && is(i - 1, TokKind::Punct, ",")
                        && starts_subpattern(word(i + 1)) =>
                {
                    push(t.start, b"  ".to_vec(), RepairKind::SLICE_SUBPATTERN)
                }
                b";" if i > 0
                    && is(i - 1, TokKind::Punct, "}")
                    && type_bodies
                        .get_or_insert_with(|| type_body_closes(&toks, text))
                        .contains(&(i - 1)) =>
                {
                    push(t.start, b" ".to_vec(), RepairKind::TYPE_SEMICOLON)
                }
                _ => {}
            },
            TokKind::InterpEnd { verbatim: true } if i >= 2 => {
                // `{x}"""`: text right after a hole made only of doubled quotes.
                let piece = toks[i - 1];
                let after_hole = toks[i - 2].kind != TokKind::InterpStart;
                let quotes = piece.text(text);
                if piece.kind == TokKind::InterpText
                    && after_hole
                    && !quotes.is_empty()
                    && quotes.iter().all(|&b| b == b'"')
                {
                    push(
                        piece.start,
                        vec![b' '; quotes.len()],
                        RepairKind::VERBATIM_QUOTE,
                    )
                }
            }
            _ => {}
        }
    }
    edits.sort_by_key(|e| e.start);
    edits.dedup_by_key(|e| e.start);
    edits
}

/// Whether token `i` starts a statement: it follows `;`, `{`, `}`, `else`,
/// `do`, or the head of an `if`/`while`/`for`/... ([`closes_statement_head`]);
/// or an expression body's `=>` (`=> *(p + 3) = v;`).
fn starts_statement(toks: &[Token], text: &[u8], i: usize) -> bool {
    let Some(prev) = i.checked_sub(1).and_then(|p| toks.get(p)) else {
        return false;
    };
    match (prev.kind, prev.text(text)) {
        (TokKind::Punct, b";" | b"{" | b"}" | b"=>") => true,
        (TokKind::Ident, b"else" | b"do") => true,
        (TokKind::Punct, b")") => closes_statement_head(toks, text, i - 1),
        _ => false,
    }
}

/// Whether the `)` at token `close` ends the head of a statement that takes
/// an embedded statement: `if (..)`, `while (..)`, `for`, `foreach`, `fixed`,
/// `lock`, `using`.
fn closes_statement_head(toks: &[Token], text: &[u8], close: usize) -> bool {
    matching_open(toks, text, close)
        .and_then(|open| open.checked_sub(1))
        .and_then(|k| toks.get(k))
        .is_some_and(|k| {
            k.kind == TokKind::Ident
                && matches!(
                    k.text(text),
                    b"if" | b"while" | b"for" | b"foreach" | b"fixed" | b"lock" | b"using"
                )
        })
}

/// Whether token `i` (a `*`) stands where an operand starts, so that it is a
/// prefix dereference rather than a multiplication: the token before it ends
/// no operand (an operator, an opening bracket, `return`, the condition of an
/// `if`, ...).
fn starts_operand(toks: &[Token], text: &[u8], i: usize) -> bool {
    let Some(prev) = i.checked_sub(1).and_then(|p| toks.get(p)) else {
        return true;
    };
    match prev.kind {
        TokKind::Ident => matches!(
            prev.text(text),
            b"return" | b"case" | b"throw" | b"in" | b"await" | b"else" | b"do" | b"when" | b"ref"
        ),
        TokKind::Number | TokKind::Char | TokKind::Str | TokKind::InterpEnd { .. } => false,
        TokKind::Punct => match prev.text(text) {
            b"]" | b"++" | b"--" => false,
            // `if (c) *(int*)p = 1;`: a statement's head, not an operand;
            // `(long)*p`: a cast's operand.
            b")" => closes_statement_head(toks, text, i - 1) || closes_cast(toks, text, i - 1),
            _ => true,
        },
        _ => true,
    }
}

/// The edits turning a C# 14 `extension(...)` block header at token `i` into
/// a nested class with a primary constructor: `extension` becomes
/// `class ext`, and a receiver without a name has its type blanked. Empty
/// when the tokens are not such a header (a type member position, an
/// optional type parameter list, the parameter list, then `{` or `where`).
/// Whether token `i` may start a member: it follows a body's brace, a `;`
/// or an attribute list.
fn at_member_start(toks: &[Token], text: &[u8], i: usize) -> bool {
    i == 0
        || toks.get(i - 1).is_some_and(|t| {
            t.kind == TokKind::Punct && matches!(t.text(text), b"{" | b"}" | b";" | b"]")
        })
}

fn extension_block(toks: &[Token], text: &[u8], i: usize) -> Vec<(u32, Vec<u8>)> {
    let punct = |k: usize, s: &str| {
        toks.get(k)
            .is_some_and(|t| t.kind == TokKind::Punct && t.text(text) == s.as_bytes())
    };
    if !at_member_start(toks, text, i) {
        return Vec::new();
    }
    let mut open = i + 1;
    if punct(open, "<") {
        match skip_balanced(toks, text, open, b"<", b">") {
            Some(next) => open = next,
            None => return Vec::new(),
        }
    }
    if !punct(open, "(") {
        return Vec::new();
    }
    let Some(after) = skip_balanced(toks, text, open, b"(", b")") else {
        return Vec::new();
    };
    let opens_body = punct(after, "{")
        || toks
            .get(after)
            .is_some_and(|t| t.kind == TokKind::Ident && t.text(text) == b"where");
    if !opens_body {
        return Vec::new();
    }
    let mut edits = vec![(toks[i].start, b"class ext".to_vec())];
    // `(T name)`: the last token is the name, after a type's last token.
    let close = after - 1;
    let named = close >= open + 3
        && toks[close - 1].kind == TokKind::Ident
        && (toks[close - 2].kind == TokKind::Ident
            || [">", "]", "?", "*"].iter().any(|p| punct(close - 2, p)));
    if !named && close > open + 1 {
        let (start, end) = (toks[open + 1].start as usize, toks[close].start as usize);
        let blank = text[start..end]
            .iter()
            .map(|&b| if b == b'\n' { b'\n' } else { b' ' })
            .collect();
        edits.push((start as u32, blank));
    }
    edits
}

/// Whether a `[` after this token opens a list pattern rather than an element
/// access (`a[..]`) or a collection expression.
fn starts_pattern(prev: &[u8]) -> bool {
    matches!(
        prev,
        b"is" | b"case" | b"not" | b"and" | b"or" | b"(" | b"," | b"{" | b":" | b"["
    )
}

/// Whether a token starts the subpattern of a slice (`.. var x`); others are spreads.
fn starts_subpattern(word: &[u8]) -> bool {
    word == b"var"
}

/// Whether the access chain starting at token `i` (just after a `?`) ends in an
/// assignment: `?.B.C[i] = v`.
fn chain_is_assigned(toks: &[Token], text: &[u8], mut i: usize) -> bool {
    let punct = |i: usize| {
        toks.get(i)
            .filter(|t| t.kind == TokKind::Punct)
            .map(|t| t.text(text))
    };
    loop {
        match punct(i) {
            Some(b".") | Some(b"->") => {
                if toks.get(i + 1).is_none_or(|t| t.kind != TokKind::Ident) {
                    return false;
                }
                i += 2;
                // Generic method names: `?.M<T>()`.
                if punct(i) == Some(b"<") {
                    let Some(close) = skip_balanced(toks, text, i, b"<", b">") else {
                        return false;
                    };
                    i = close;
                }
            }
            Some(b"?") if matches!(punct(i + 1), Some(b".") | Some(b"[")) => i += 1,
            Some(b"!") => i += 1,
            Some(b"[") => match skip_balanced(toks, text, i, b"[", b"]") {
                Some(next) => i = next,
                None => return false,
            },
            Some(b"(") => match skip_balanced(toks, text, i, b"(", b")") {
                Some(next) => i = next,
                None => return false,
            },
            Some(op) => return is_assignment(op) || (op == b">" && punct(i + 1) == Some(b">=")),
            None => return false,
        }
    }
}

/// Whether a token is an assignment operator (`>>=` is lexed as `>`, `>=`).
fn is_assignment(op: &[u8]) -> bool {
    matches!(
        op,
        b"=" | b"+=" | b"-=" | b"*=" | b"/=" | b"%=" | b"&=" | b"|=" | b"^=" | b"<<=" | b"??="
    )
}

/// The index after an access chain starting at token `i`: a name, then
/// element accesses and member accesses (`a[i].b->c`).
fn access_chain_end(toks: &[Token], text: &[u8], mut i: usize) -> Option<usize> {
    let punct = |k: usize, s: &str| {
        toks.get(k)
            .is_some_and(|t| t.kind == TokKind::Punct && t.text(text) == s.as_bytes())
    };
    let ident = |k: usize| toks.get(k).is_some_and(|t| t.kind == TokKind::Ident);
    if !ident(i) {
        return None;
    }
    i += 1;
    loop {
        if punct(i, "[") {
            i = skip_balanced(toks, text, i, b"[", b"]")?;
        } else if (punct(i, ".") || punct(i, "->")) && ident(i + 1) {
            i += 2;
        } else {
            return Some(i);
        }
    }
}

/// Whether the `)` at token `close` ends a cast whose operand may start with
/// `*`: the type is a keyword (`(long)*p`) or a pointer (`(uint*)*pp`); other
/// parenthesised names before `*` are multiplied (C# spec, cast expressions).
fn closes_cast(toks: &[Token], text: &[u8], close: usize) -> bool {
    let Some(open) = matching_open(toks, text, close) else {
        return false;
    };
    // `sizeof(int) * n`: the operand of an operator, not a cast.
    if open > 0
        && toks[open - 1].kind == TokKind::Ident
        && matches!(
            toks[open - 1].text(text),
            b"sizeof" | b"typeof" | b"default" | b"nameof" | b"checked" | b"unchecked"
        )
    {
        return false;
    }
    let inner = &toks[open + 1..close];
    let is_keyword_type = |t: &Token| {
        t.kind == TokKind::Ident
            && matches!(
                t.text(text),
                b"bool"
                    | b"byte"
                    | b"sbyte"
                    | b"char"
                    | b"short"
                    | b"ushort"
                    | b"int"
                    | b"uint"
                    | b"long"
                    | b"ulong"
                    | b"nint"
                    | b"nuint"
                    | b"float"
                    | b"double"
                    | b"decimal"
                    | b"object"
                    | b"string"
                    | b"void"
            )
    };
    match inner {
        [ty, rest @ ..] if is_keyword_type(ty) => rest
            .iter()
            .all(|t| t.kind == TokKind::Punct && matches!(t.text(text), b"*" | b"?")),
        [.., last] => last.kind == TokKind::Punct && last.text(text) == b"*",
        [] => false,
    }
}

/// The `}` tokens that close the body of a type or namespace declaration
/// ([`declared_at`]). One pass with a stack of open braces.
fn type_body_closes(toks: &[Token], text: &[u8]) -> FxHashSet<usize> {
    let mut open: Vec<bool> = Vec::new();
    let mut closes = FxHashSet::default();
    for (j, t) in toks.iter().enumerate() {
        if t.kind != TokKind::Punct {
            continue;
        }
        match t.text(text) {
            b"{" => open.push(declared_at(toks, text, j).is_some()),
            // Every `}` pops its brace; a type body's is recorded.
            b"}" if open.pop() == Some(true) => {
                closes.insert(j);
            }
            _ => {}
        }
    }
    closes
}

/// The keyword declaring what the `{` at token `open` is the body of, when
/// its header (back to the previous `;`, `{` or `}`) names `class`,
/// `struct`, `interface`, `record`, `enum` or `namespace`, not as a
/// constraint (`where T : class`).
pub(crate) fn declared_at<'a>(toks: &[Token], text: &'a [u8], open: usize) -> Option<&'a [u8]> {
    let mut declared = None;
    for k in (open.saturating_sub(256)..open).rev() {
        let h = toks[k];
        let w = h.text(text);
        if h.kind == TokKind::Punct && matches!(w, b";" | b"{" | b"}") {
            break;
        }
        let constraint = k > 0
            && toks[k - 1].kind == TokKind::Punct
            && matches!(toks[k - 1].text(text), b":" | b"," | b".");
        if h.kind == TokKind::Ident
            && !constraint
            && matches!(
                w,
                b"class" | b"struct" | b"interface" | b"record" | b"enum" | b"namespace"
            )
        {
            declared = Some(w);
        }
    }
    declared
}

/// The index of the `)` closing the parentheses token `i` is in.
fn enclosing_close(toks: &[Token], text: &[u8], i: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (j, t) in toks.iter().enumerate().skip(i).take(4096) {
        if t.kind != TokKind::Punct {
            continue;
        }
        match t.text(text) {
            b"(" => depth += 1,
            b")" if depth == 0 => return Some(j),
            b")" => depth -= 1,
            b";" | b"{" | b"}" => return None,
            _ => {}
        }
    }
    None
}

/// The index after the token closing the bracket opened at `i`.
fn skip_balanced(
    toks: &[Token],
    text: &[u8],
    i: usize,
    open: &[u8],
    close: &[u8],
) -> Option<usize> {
    let mut depth = 0usize;
    for (j, t) in toks.iter().enumerate().skip(i).take(4096) {
        if t.kind != TokKind::Punct {
            continue;
        }
        let s = t.text(text);
        if s == open {
            depth += 1;
        } else if s == close {
            depth -= 1;
            if depth == 0 {
                return Some(j + 1);
            }
        } else if matches!(s, b";" | b"{" | b"}") {
            return None;
        }
    }
    None
}

/// The index of the `(` matching the `)` at `i`.
fn matching_open(toks: &[Token], text: &[u8], i: usize) -> Option<usize> {
    matching_bracket(toks, text, i, b"(", b")")
}

/// The index of the `open` matching the `close` at `i`, within a statement
/// (parentheses may hold the `;` of a `for` header).
fn matching_bracket(
    toks: &[Token],
    text: &[u8],
    i: usize,
    open: &[u8],
    close: &[u8],
) -> Option<usize> {
    let mut depth = 0usize;
    for j in (i.saturating_sub(4096)..=i).rev() {
        let t = toks[j];
        if t.kind != TokKind::Punct {
            continue;
        }
        let s = t.text(text);
        if s == close {
            depth += 1;
        } else if s == open {
            depth -= 1;
            if depth == 0 {
                return Some(j);
            }
        } else if matches!(s, b"{" | b"}") || (s == b";" && open != b"(") {
            return None;
        }
    }
    None
}
