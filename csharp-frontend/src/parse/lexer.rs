//! A light C# tokenizer: enough to tell code from strings, characters and
//! comments (so that the preprocessor only sees real directives) and to give the
//! repairs a token stream with byte offsets. It never fails: anything it does not
//! know becomes a one-byte punctuation token.

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum TokKind {
    /// Identifier or keyword (`@name` included).
    Ident,
    Number,
    Char,
    /// A whole string literal without holes (regular, verbatim, raw).
    Str,
    /// The opening delimiter of an interpolated string (`$"`, `$@"`, `$$"""`).
    InterpStart,
    /// Literal text between the holes of an interpolated string.
    InterpText,
    /// The closing delimiter of an interpolated string.
    InterpEnd {
        verbatim: bool,
    },
    Punct,
    /// A `#` line (to the end of the line, without the line break).
    Directive,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Token {
    pub kind: TokKind,
    pub start: u32,
    pub end: u32,
}

impl Token {
    pub fn text<'a>(&self, src: &'a [u8]) -> &'a [u8] {
        src.get(self.start as usize..self.end as usize)
            .unwrap_or_default()
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum StrKind {
    Regular,
    Verbatim,
    /// Raw: number of `$` (braces that open a hole) and of quotes that close it.
    Raw {
        dollars: u32,
        quotes: u32,
    },
}

#[derive(Copy, Clone, Debug)]
enum Mode {
    /// Code; inside an interpolation hole when `hole` is set.
    Code {
        hole: Option<StrKind>,
        braces: u32,
        parens: u32,
    },
    /// The literal part of an interpolated string.
    Interp(StrKind),
}

/// Multi-byte operators, longest first.
const OPERATORS: &[&[u8]] = &[
    b"??=", b"<<=", b"=>", b"==", b"!=", b"<=", b">=", b"&&", b"||", b"??", b"+=", b"-=", b"*=",
    b"/=", b"%=", b"&=", b"|=", b"^=", b"::", b"..", b"->", b"++", b"--", b"<<",
];

pub(crate) struct Lexer<'a> {
    src: &'a [u8],
    pos: usize,
    stack: Vec<Mode>,
    at_line_start: bool,
}

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80
}

impl<'a> Lexer<'a> {
    pub fn new(src: &'a [u8]) -> Lexer<'a> {
        Lexer {
            src,
            pos: 0,
            stack: vec![Mode::Code {
                hole: None,
                braces: 0,
                parens: 0,
            }],
            at_line_start: true,
        }
    }

    /// Continues in plain code at `pos`, which must be a line start (used after
    /// an inactive `#if` region).
    pub fn reset(&mut self, pos: usize) {
        self.pos = pos.min(self.src.len());
        self.stack.truncate(1);
        self.stack[0] = Mode::Code {
            hole: None,
            braces: 0,
            parens: 0,
        };
        self.at_line_start = true;
    }

    /// Whether the lexer is in top-level code (not inside a string or hole).
    pub fn in_plain_code(&self) -> bool {
        self.stack.len() == 1
    }

    fn at(&self, i: usize) -> u8 {
        self.src.get(i).copied().unwrap_or(0)
    }

    fn count_run(&self, from: usize, b: u8) -> usize {
        self.src[from.min(self.src.len())..]
            .iter()
            .take_while(|&&c| c == b)
            .count()
    }

    fn tok(&mut self, kind: TokKind, start: usize) -> Option<Token> {
        self.at_line_start = false;
        Some(Token {
            kind,
            start: start as u32,
            end: self.pos as u32,
        })
    }

    pub fn next_token(&mut self) -> Option<Token> {
        loop {
            match self.stack.last().copied() {
                Some(Mode::Interp(kind)) => return self.interp_text(kind),
                Some(Mode::Code {
                    hole,
                    braces,
                    parens,
                }) => {
                    if let Some(t) = self.skip_trivia() {
                        return Some(t);
                    }
                    if self.pos >= self.src.len() {
                        return None;
                    }
                    if let Some(kind) = hole
                        && braces == 0
                    {
                        let b = self.at(self.pos);
                        if b == b'}' {
                            self.stack.pop();
                            self.pos += match kind {
                                StrKind::Raw { dollars, .. } => {
                                    self.count_run(self.pos, b'}').min(dollars as usize).max(1)
                                }
                                _ => 1,
                            };
                            continue;
                        }
                        if b == b':' && parens == 0 && self.at(self.pos + 1) != b':' {
                            // Format specifier: literal text up to the closing brace.
                            let start = self.pos;
                            while self.pos < self.src.len()
                                && self.src[self.pos] != b'}'
                                && !(kind == StrKind::Regular && self.src[self.pos] == b'\n')
                            {
                                self.pos += 1;
                            }
                            return self.tok(TokKind::InterpText, start);
                        }
                    }
                    return self.code_token();
                }
                None => return None,
            }
        }
    }

    /// Skips whitespace and comments; returns a directive token when a `#` starts a line.
    fn skip_trivia(&mut self) -> Option<Token> {
        while self.pos < self.src.len() {
            let b = self.src[self.pos];
            match b {
                b'\n' => {
                    self.pos += 1;
                    self.at_line_start = true;
                }
                b' ' | b'\t' | b'\r' | 0x0b | 0x0c => self.pos += 1,
                b'/' if self.at(self.pos + 1) == b'/' => {
                    while self.pos < self.src.len() && self.src[self.pos] != b'\n' {
                        self.pos += 1;
                    }
                }
                b'/' if self.at(self.pos + 1) == b'*' => {
                    self.pos += 2;
                    while self.pos < self.src.len()
                        && !(self.src[self.pos] == b'*' && self.at(self.pos + 1) == b'/')
                    {
                        self.pos += 1;
                    }
                    self.pos = (self.pos + 2).min(self.src.len());
                    self.at_line_start = false;
                }
                b'#' if self.at_line_start && self.in_plain_code() => {
                    let start = self.pos;
                    while self.pos < self.src.len() && self.src[self.pos] != b'\n' {
                        self.pos += 1;
                    }
                    let mut end = self.pos;
                    if end > start && self.src[end - 1] == b'\r' {
                        end -= 1;
                    }
                    self.at_line_start = false;
                    return Some(Token {
                        kind: TokKind::Directive,
                        start: start as u32,
                        end: end as u32,
                    });
                }
                // U+00A0 and U+FEFF count as whitespace for the grammar too.
                0xC2 if self.at(self.pos + 1) == 0xA0 => self.pos += 2,
                0xEF if self.at(self.pos + 1) == 0xBB && self.at(self.pos + 2) == 0xBF => {
                    self.pos += 3
                }
                _ => break,
            }
        }
        None
    }

    fn code_token(&mut self) -> Option<Token> {
        let start = self.pos;
        let b = self.src[start];
        // String prefixes: `$`*, `@`, in either order, then quotes.
        if matches!(b, b'$' | b'@' | b'"') {
            let dollars = self.count_run(start, b'$');
            let mut p = start + dollars;
            let mut verbatim = false;
            if self.at(p) == b'@' {
                verbatim = true;
                p += 1;
            }
            let mut dollars = dollars;
            if verbatim && dollars == 0 && self.at(p) == b'$' {
                dollars = self.count_run(p, b'$');
                p += dollars;
            }
            if self.at(p) == b'"' {
                return self.string(start, p, dollars as u32, verbatim);
            }
        }
        if b == b'\'' {
            self.pos += 1;
            if self.at(self.pos) == b'\\' {
                self.pos += 2;
            }
            while self.pos < self.src.len() && !matches!(self.src[self.pos], b'\'' | b'\n') {
                self.pos += 1;
            }
            if self.at(self.pos) == b'\'' {
                self.pos += 1;
            }
            return self.tok(TokKind::Char, start);
        }
        if b.is_ascii_digit() || (b == b'.' && self.at(start + 1).is_ascii_digit()) {
            self.pos += 1;
            while self.pos < self.src.len() {
                let c = self.src[self.pos];
                let prev = self.src[self.pos - 1];
                let is_hex = self.src[start..self.pos].starts_with(b"0x")
                    || self.src[start..self.pos].starts_with(b"0X");
                let continues = c.is_ascii_alphanumeric()
                    || c == b'_'
                    || (c == b'.' && self.at(self.pos + 1).is_ascii_digit())
                    // An exponent sign: `1e-5` (not `0xE-1`).
                    || (matches!(c, b'+' | b'-') && matches!(prev, b'e' | b'E') && !is_hex);
                if !continues {
                    break;
                }
                self.pos += 1;
            }
            return self.tok(TokKind::Number, start);
        }
        if is_ident_byte(b) || (b == b'@' && is_ident_byte(self.at(start + 1))) || b == b'\\' {
            self.pos += 1;
            while self.pos < self.src.len()
                && (is_ident_byte(self.src[self.pos]) || self.src[self.pos] == b'\\')
            {
                self.pos += 1;
            }
            return self.tok(TokKind::Ident, start);
        }
        let rest = &self.src[start..];
        let len = OPERATORS
            .iter()
            .find(|op| rest.starts_with(op))
            .map_or(1, |op| op.len());
        self.pos += len;
        if let Some(Mode::Code { braces, parens, .. }) = self.stack.last_mut() {
            match b {
                b'{' => *braces += 1,
                b'}' => *braces = braces.saturating_sub(1),
                b'(' | b'[' => *parens += 1,
                b')' | b']' => *parens = parens.saturating_sub(1),
                _ => {}
            }
        }
        self.tok(TokKind::Punct, start)
    }

    /// A string literal whose first quote is at `quote`.
    fn string(
        &mut self,
        start: usize,
        quote: usize,
        dollars: u32,
        verbatim: bool,
    ) -> Option<Token> {
        let quotes = self.count_run(quote, b'"');
        let kind = if quotes >= 3 && !verbatim {
            StrKind::Raw {
                dollars,
                quotes: quotes as u32,
            }
        } else if verbatim {
            StrKind::Verbatim
        } else {
            StrKind::Regular
        };
        if dollars > 0 {
            self.pos = quote
                + if matches!(kind, StrKind::Raw { .. }) {
                    quotes
                } else {
                    1
                };
            self.stack.push(Mode::Interp(kind));
            return self.tok(TokKind::InterpStart, start);
        }
        match kind {
            StrKind::Raw { quotes, .. } => {
                self.pos = quote + quotes as usize;
                self.pos = self.raw_end(quotes as usize);
            }
            StrKind::Verbatim => {
                self.pos = quote + 1;
                while self.pos < self.src.len() {
                    if self.src[self.pos] == b'"' {
                        if self.at(self.pos + 1) == b'"' {
                            self.pos += 2;
                            continue;
                        }
                        self.pos += 1;
                        break;
                    }
                    self.pos += 1;
                }
            }
            StrKind::Regular => {
                // `""` is an empty string, not the start of a raw one.
                self.pos = quote + 1;
                while self.pos < self.src.len() {
                    match self.src[self.pos] {
                        b'\\' => self.pos += 2,
                        b'"' => {
                            self.pos += 1;
                            break;
                        }
                        b'\n' => break,
                        _ => self.pos += 1,
                    }
                }
                self.pos = self.pos.min(self.src.len());
            }
        }
        self.tok(TokKind::Str, start)
    }

    /// The end of a raw string's content plus its closing quotes, from `self.pos`.
    fn raw_end(&self, quotes: usize) -> usize {
        let mut p = self.pos;
        while p < self.src.len() {
            if self.src[p] == b'"' {
                let run = self.count_run(p, b'"');
                if run >= quotes {
                    return p + run;
                }
                p += run;
            } else {
                p += 1;
            }
        }
        p
    }

    fn interp_text(&mut self, kind: StrKind) -> Option<Token> {
        let start = self.pos;
        let len = self.src.len();
        while self.pos < len {
            let b = self.src[self.pos];
            match (b, kind) {
                (b'\\', StrKind::Regular) => self.pos += 2,
                (b'\n', StrKind::Regular) => {
                    // Unterminated: stop the string here.
                    self.stack.pop();
                    return self.text_or_next(start);
                }
                (b'"', StrKind::Verbatim) if self.at(self.pos + 1) == b'"' => self.pos += 2,
                (b'"', StrKind::Regular | StrKind::Verbatim) => {
                    if self.pos > start {
                        return self.tok(TokKind::InterpText, start);
                    }
                    self.pos += 1;
                    self.stack.pop();
                    return self.tok(
                        TokKind::InterpEnd {
                            verbatim: kind == StrKind::Verbatim,
                        },
                        start,
                    );
                }
                (b'"', StrKind::Raw { quotes, .. }) => {
                    let run = self.count_run(self.pos, b'"');
                    if run < quotes as usize {
                        self.pos += run;
                        continue;
                    }
                    if self.pos > start {
                        return self.tok(TokKind::InterpText, start);
                    }
                    self.pos += run;
                    self.stack.pop();
                    return self.tok(TokKind::InterpEnd { verbatim: false }, start);
                }
                (b'{', StrKind::Raw { dollars, .. }) => {
                    let run = self.count_run(self.pos, b'{');
                    if run < dollars as usize {
                        self.pos += run;
                        continue;
                    }
                    // Extra braces before the hole are literal text.
                    self.pos += run - dollars as usize;
                    return self.open_hole(start, kind, dollars as usize);
                }
                (b'{', _) => {
                    if self.at(self.pos + 1) == b'{' {
                        self.pos += 2;
                        continue;
                    }
                    return self.open_hole(start, kind, 1);
                }
                _ => self.pos += 1,
            }
        }
        self.pos = self.pos.min(len);
        self.stack.pop();
        self.text_or_next(start)
    }

    fn open_hole(&mut self, text_start: usize, kind: StrKind, braces: usize) -> Option<Token> {
        let text_end = self.pos;
        self.pos += braces;
        self.stack.push(Mode::Code {
            hole: Some(kind),
            braces: 0,
            parens: 0,
        });
        if text_end > text_start {
            self.at_line_start = false;
            return Some(Token {
                kind: TokKind::InterpText,
                start: text_start as u32,
                end: text_end as u32,
            });
        }
        self.next_token()
    }

    fn text_or_next(&mut self, start: usize) -> Option<Token> {
        if self.pos > start {
            self.tok(TokKind::InterpText, start)
        } else {
            self.next_token()
        }
    }
}

impl Iterator for Lexer<'_> {
    type Item = Token;
    fn next(&mut self) -> Option<Token> {
        self.next_token()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(src: &str) -> Vec<(TokKind, String)> {
        Lexer::new(src.as_bytes())
            .map(|t| {
                (
                    t.kind,
                    String::from_utf8_lossy(t.text(src.as_bytes())).into_owned(),
                )
            })
            .collect()
    }

    #[test]
    fn strings_hide_directives_and_comments() {
        let src = "var s = @\"\n#if X\n\"\"\"; // c\n#if Y\n";
        let toks = kinds(src);
        assert_eq!(toks[3].0, TokKind::Str);
        assert_eq!(toks.last().map(|t| t.0), Some(TokKind::Directive));
        assert_eq!(toks.iter().filter(|t| t.0 == TokKind::Directive).count(), 1);
    }

    #[test]
    fn raw_and_interpolated_strings() {
        let src = "a = \"\"\"\n#x \"\" \n\"\"\"; b = $\"x{c + \"}\"}y{d:N2}\"; e = $$\"\"\"{{f}}{g}\"\"\";";
        let toks = kinds(src);
        let idents: Vec<&str> = toks
            .iter()
            .filter(|t| t.0 == TokKind::Ident)
            .map(|t| t.1.as_str())
            .collect();
        assert_eq!(idents, ["a", "b", "c", "d", "e", "f"]);
        assert!(!toks.iter().any(|t| t.0 == TokKind::Directive));
    }

    #[test]
    fn verbatim_interpolated_with_doubled_quotes() {
        let src = "x = $@\"a\"\"{b}\"\"\"; y";
        let toks = kinds(src);
        assert!(toks.contains(&(TokKind::InterpEnd { verbatim: true }, "\"".into())));
        assert_eq!(toks.last().map(|t| t.1.as_str()), Some("y"));
    }

    #[test]
    fn unterminated_constructs_end() {
        for src in [
            "\"abc",
            "@\"abc",
            "$\"{",
            "$@\"{(",
            "/* x",
            "'",
            "\"\"\"",
            "$$\"\"\"{{",
        ] {
            let n = Lexer::new(src.as_bytes()).count();
            assert!(n < 10, "{src}");
        }
    }
}
