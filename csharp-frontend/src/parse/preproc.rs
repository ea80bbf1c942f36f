//! The C# preprocessor, evaluated before parsing: directive lines and inactive
//! `#if` regions become spaces (line breaks stay), so byte offsets and line
//! numbers of the text handed to tree-sitter are those of the file.

use std::borrow::Cow;

use rustc_hash::FxHashSet;

use super::lexer::{Lexer, TokKind};
use crate::hir::{PragmaWarning, SyntaxError, TextRange};

pub(crate) struct Preprocessed<'a> {
    /// The text with directives and inactive regions blanked (borrowed when
    /// the file has no directive).
    pub text: Cow<'a, [u8]>,
    pub pragmas: Vec<PragmaWarning>,
    pub errors: Vec<SyntaxError>,
    pub inactive_lines: u32,
    /// Byte ranges of the inactive regions, each from the start of its first
    /// line to the start of the first active line after it (or the end).
    pub inactive: Vec<(u32, u32)>,
}

/// One open `#if`.
struct Cond {
    /// Whether the enclosing region is active.
    parent_active: bool,
    /// Some branch was taken already.
    taken: bool,
    active: bool,
    seen_else: bool,
    start: u32,
}

/// The symbols defined: the build's, copied only when the file itself
/// `#define`s or `#undef`s one (building a set per file cost more than the
/// rest of preprocessing).
struct Symbols<'a> {
    build: &'a FxHashSet<String>,
    edited: Option<FxHashSet<&'a str>>,
}

impl<'a> Symbols<'a> {
    fn contains(&self, symbol: &str) -> bool {
        match &self.edited {
            Some(set) => set.contains(symbol),
            None => self.build.contains(symbol),
        }
    }

    fn edit(&mut self) -> &mut FxHashSet<&'a str> {
        let build = self.build;
        self.edited
            .get_or_insert_with(|| build.iter().map(String::as_str).collect())
    }
}

struct State<'a> {
    defines: Symbols<'a>,
    conds: Vec<Cond>,
    out: Preprocessed<'a>,
}

impl State<'_> {
    fn active(&self) -> bool {
        self.conds.last().is_none_or(|c| c.active)
    }

    fn error(&mut self, start: usize, end: usize, message: impl Into<String>) {
        self.out.errors.push(SyntaxError {
            range: TextRange::new(start as u32, end as u32),
            message: message.into(),
        });
    }
}

fn blank(text: &mut Cow<[u8]>, start: usize, end: usize) {
    let end = end.min(text.len());
    if start >= end {
        return;
    }
    for b in &mut text.to_mut()[start..end] {
        if *b != b'\n' && *b != b'\r' {
            *b = b' ';
        }
    }
}

pub(crate) fn preprocess<'a>(src: &'a str, defines: &'a FxHashSet<String>) -> Preprocessed<'a> {
    let bytes = src.as_bytes();
    let mut st = State {
        defines: Symbols {
            build: defines,
            edited: None,
        },
        conds: Vec::new(),
        out: Preprocessed {
            text: Cow::Borrowed(bytes),
            pragmas: Vec::new(),
            errors: Vec::new(),
            inactive_lines: 0,
            inactive: Vec::new(),
        },
    };
    // Only lines starting with `#` can be directives: lex up to the last one.
    let Some(last) = last_hash_line(bytes) else {
        return st.out;
    };
    let mut lexer = Lexer::new(bytes);
    while let Some(tok) = lexer.next_token() {
        if tok.start as usize > last {
            break;
        }
        if tok.kind != TokKind::Directive {
            continue;
        }
        let (start, end) = (tok.start as usize, tok.end as usize);
        directive(&mut st, src, start, end);
        blank(&mut st.out.text, start, end);
        if !st.active() {
            let resume = skip_inactive(&mut st, src, end);
            lexer.reset(resume);
        }
    }
    for c in std::mem::take(&mut st.conds) {
        let end = (c.start as usize + 3).min(src.len());
        st.error(c.start as usize, end, "`#if` without `#endif`");
    }
    st.out
}

/// Whether a line of `src` may be an `#if`: without one, the symbols defined
/// change nothing. (A false positive in a string or comment costs only time.)
pub(crate) fn may_have_conditions(src: &str) -> bool {
    src.lines().any(|line| {
        line.trim_start_matches([' ', '\t'])
            .strip_prefix('#')
            .map(|rest| rest.trim_start_matches([' ', '\t']))
            .and_then(|rest| rest.strip_prefix("if"))
            .is_some_and(|rest| !rest.starts_with(|c: char| c.is_alphanumeric() || c == '_'))
    })
}

/// The offset of the last `#` that is the first non-blank byte of its line.
fn last_hash_line(bytes: &[u8]) -> Option<usize> {
    let mut last = None;
    let mut at_line_start = true;
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'\n' => at_line_start = true,
            b' ' | b'\t' | b'\r' => {}
            b'#' if at_line_start => {
                last = Some(i);
                at_line_start = false;
            }
            _ => at_line_start = false,
        }
    }
    last
}

/// Blanks the inactive lines after a directive ending at `from`, handling the
/// directives among them, and returns the start of the first active line.
fn skip_inactive<'a>(st: &mut State<'a>, src: &'a str, from: usize) -> usize {
    let bytes = src.as_bytes();
    let start = match bytes[from.min(bytes.len())..]
        .iter()
        .position(|&b| b == b'\n')
    {
        Some(i) => from + i + 1,
        None => return bytes.len(),
    };
    let resume = skip_inactive_lines(st, src, start);
    if resume > start {
        st.out.inactive.push((start as u32, resume as u32));
    }
    resume
}

fn skip_inactive_lines<'a>(st: &mut State<'a>, src: &'a str, start: usize) -> usize {
    let bytes = src.as_bytes();
    let mut line_start = start;
    while line_start < bytes.len() {
        let line_end = bytes[line_start..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(bytes.len(), |i| line_start + i);
        let content = &bytes[line_start..line_end];
        let indent = content
            .iter()
            .take_while(|b| matches!(b, b' ' | b'\t'))
            .count();
        let mut end = line_end;
        if end > line_start && bytes[end - 1] == b'\r' {
            end -= 1;
        }
        if content.get(indent) == Some(&b'#') {
            directive(st, src, line_start + indent, end);
        } else {
            st.out.inactive_lines += 1;
        }
        blank(&mut st.out.text, line_start, end);
        line_start = line_end + 1;
        if st.active() {
            return line_start.min(bytes.len());
        }
    }
    bytes.len()
}

/// Handles the directive `src[start..end]` (starting at `#`).
fn directive<'a>(st: &mut State<'a>, src: &'a str, start: usize, end: usize) {
    let line = &src[start + 1..end];
    let line = line.trim_start();
    let name_len = line.bytes().take_while(u8::is_ascii_alphabetic).count();
    let (name, rest) = line.split_at(name_len);
    let rest = strip_comment(rest).trim();
    let active = st.active();
    match name {
        "if" => {
            let value = active && eval(st, rest, start, end);
            st.conds.push(Cond {
                parent_active: active,
                taken: value,
                active: value,
                seen_else: false,
                start: start as u32,
            });
        }
        "elif" | "else" => {
            let Some((parent, taken, seen_else)) = st
                .conds
                .last()
                .map(|c| (c.parent_active, c.taken, c.seen_else))
            else {
                st.error(start, end, format!("`#{name}` without `#if`"));
                return;
            };
            if seen_else {
                st.error(start, end, format!("`#{name}` after `#else`"));
            }
            let value = parent && !taken && (name == "else" || eval(st, rest, start, end));
            if let Some(c) = st.conds.last_mut() {
                c.active = value;
                c.taken |= value;
                c.seen_else |= name == "else";
            }
        }
        "endif" => {
            if st.conds.pop().is_none() {
                st.error(start, end, "`#endif` without `#if`");
            }
        }
        _ if !active => {}
        "define" | "undef" => {
            let symbol = rest.split_whitespace().next().unwrap_or("");
            if symbol.is_empty() {
                st.error(start, end, format!("`#{name}` needs a symbol"));
            } else if name == "define" {
                st.defines.edit().insert(symbol);
            } else {
                st.defines.edit().remove(symbol);
            }
        }
        "pragma" => pragma(st, rest, start),
        "region" | "endregion" | "nullable" | "line" | "error" | "warning" => {}
        _ => st.error(
            start,
            end,
            format!("unknown preprocessor directive `#{name}`"),
        ),
    }
}

fn strip_comment(s: &str) -> &str {
    s.find("//").map_or(s, |i| &s[..i])
}

fn pragma(st: &mut State, rest: &str, start: usize) {
    let mut words = rest.split_whitespace();
    if words.next() != Some("warning") {
        return;
    }
    let disable = match words.next() {
        Some("disable") => true,
        Some("restore") => false,
        _ => return,
    };
    let ids = words
        .flat_map(|w| w.split(','))
        .filter(|id| !id.is_empty())
        .map(str::to_owned)
        .collect();
    st.out.pragmas.push(PragmaWarning {
        offset: start as u32,
        disable,
        ids,
    });
}

/// Evaluates a `#if`/`#elif` condition; a malformed one is false, with an error.
fn eval(st: &mut State, expr: &str, start: usize, end: usize) -> bool {
    let mut p = CondParser {
        toks: tokenize(expr),
        pos: 0,
        defines: &st.defines,
        depth: 0,
    };
    match p.or() {
        Some(v) if p.pos == p.toks.len() => v,
        _ => {
            st.error(
                start,
                end,
                format!("cannot evaluate preprocessor condition `{expr}`"),
            );
            false
        }
    }
}

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum CondTok<'a> {
    Ident(&'a str),
    Op(&'static str),
    Bad,
}

fn tokenize(s: &str) -> Vec<CondTok<'_>> {
    let mut toks = Vec::new();
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if c.is_ascii_alphanumeric() || c == b'_' || c >= 0x80 {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] >= 0x80) {
                i += 1;
            }
            toks.push(CondTok::Ident(&s[start..i]));
            continue;
        }
        let op = ["&&", "||", "==", "!=", "!", "(", ")"]
            .into_iter()
            .find(|op| b[i..].starts_with(op.as_bytes()));
        match op {
            Some(op) => {
                toks.push(CondTok::Op(op));
                i += op.len();
            }
            None => {
                toks.push(CondTok::Bad);
                i += 1;
            }
        }
    }
    toks
}

struct CondParser<'a, 'd> {
    toks: Vec<CondTok<'a>>,
    pos: usize,
    defines: &'d Symbols<'d>,
    depth: u32,
}

impl CondParser<'_, '_> {
    fn eat(&mut self, op: &'static str) -> bool {
        if self.toks.get(self.pos) == Some(&CondTok::Op(op)) {
            self.pos += 1;
            return true;
        }
        false
    }

    fn or(&mut self) -> Option<bool> {
        let mut v = self.and()?;
        while self.eat("||") {
            v |= self.and()?;
        }
        Some(v)
    }

    fn and(&mut self) -> Option<bool> {
        let mut v = self.equality()?;
        while self.eat("&&") {
            v &= self.equality()?;
        }
        Some(v)
    }

    fn equality(&mut self) -> Option<bool> {
        let mut v = self.unary()?;
        loop {
            if self.eat("==") {
                v = v == self.unary()?;
            } else if self.eat("!=") {
                v = v != self.unary()?;
            } else {
                return Some(v);
            }
        }
    }

    fn unary(&mut self) -> Option<bool> {
        self.depth += 1;
        if self.depth > 100 {
            return None;
        }
        let v = if self.eat("!") {
            self.unary().map(|v| !v)
        } else if self.eat("(") {
            let v = self.or()?;
            self.eat(")").then_some(v)
        } else {
            match self.toks.get(self.pos).copied() {
                Some(CondTok::Ident(id)) => {
                    self.pos += 1;
                    Some(match id {
                        "true" => true,
                        "false" => false,
                        _ => self.defines.contains(id),
                    })
                }
                _ => None,
            }
        };
        self.depth -= 1;
        v
    }
}
