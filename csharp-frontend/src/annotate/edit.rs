//! Text edits and the line layout they copy (indentation, line endings).

use tree_sitter::{InputEdit, Point, Tree};

/// Replaces `start..end` (empty for an insertion) with `text`. Insertions
/// at one offset keep their `rank` order, then the order they were made in.
#[derive(Clone, Debug)]
pub(crate) struct Edit {
    pub start: usize,
    pub end: usize,
    pub text: String,
    pub rank: u8,
}

impl Edit {
    pub(crate) fn insert(at: usize, text: String, rank: u8) -> Edit {
        Edit {
            start: at,
            end: at,
            text,
            rank,
        }
    }
}

/// Applies edits, leaving them sorted; `Err` with the offset of the first
/// overlap.
pub(crate) fn apply(text: &str, edits: &mut [Edit]) -> Result<String, usize> {
    edits.sort_by_key(|e| (e.start, e.rank));
    let mut out =
        String::with_capacity(text.len() + edits.iter().map(|e| e.text.len()).sum::<usize>());
    let mut at = 0;
    for e in edits.iter() {
        if e.start < at || e.end < e.start {
            return Err(e.start);
        }
        out.push_str(text.get(at..e.start).ok_or(e.start)?);
        out.push_str(&e.text);
        at = e.end;
    }
    out.push_str(text.get(at..).ok_or(at)?);
    Ok(out)
}

/// Tells `tree`, the tree of the text before `edits` (sorted by [`apply`]),
/// what changed, so that parsing the result can reuse the rest. `point`
/// gives the row and byte column of an offset in that text.
pub(crate) fn report(tree: &mut Tree, edits: &[Edit], point: impl Fn(usize) -> Point) {
    // Last first: positions before an edit stay valid after it.
    for e in edits.iter().rev() {
        let start = point(e.start);
        let rows = e.text.matches('\n').count();
        let new_end = match e.text.rfind('\n') {
            Some(last) => Point::new(start.row + rows, e.text.len() - last - 1),
            None => Point::new(start.row, start.column + e.text.len()),
        };
        tree.edit(&InputEdit {
            start_byte: e.start,
            old_end_byte: e.end,
            new_end_byte: e.start + e.text.len(),
            start_position: start,
            old_end_position: point(e.end),
            new_end_position: new_end,
        });
    }
}

/// Line facts of a text.
pub(crate) struct Layout<'a> {
    text: &'a str,
    /// The file's most common line ending, for a line that has none.
    default_eol: &'static str,
    /// `#if` ... `#endif` groups: where the `#if` line starts and where the
    /// `#endif` line does, outer groups before the groups they hold.
    groups: Vec<(usize, usize)>,
}

impl<'a> Layout<'a> {
    pub(crate) fn new(text: &'a str) -> Layout<'a> {
        let lf = text.matches('\n').count();
        let crlf = text.matches("\r\n").count();
        Layout {
            text,
            default_eol: if crlf * 2 > lf { "\r\n" } else { "\n" },
            groups: conditional_groups(text),
        }
    }

    /// The `#if` groups that open before `offset` and close after it.
    pub(crate) fn groups_around(&self, offset: usize) -> impl Iterator<Item = (usize, usize)> {
        self.groups
            .iter()
            .copied()
            .filter(move |&(open, close)| open < offset && offset < close)
    }

    pub(crate) fn line_start(&self, offset: usize) -> usize {
        self.text
            .get(..offset)
            .and_then(|s| s.rfind('\n'))
            .map_or(0, |i| i + 1)
    }

    /// Where the line after the one holding `offset` starts (the text's end
    /// on the last line).
    pub(crate) fn next_line_start(&self, offset: usize) -> usize {
        self.text
            .get(offset..)
            .and_then(|s| s.find('\n'))
            .map_or(self.text.len(), |i| offset + i + 1)
    }

    /// Only spaces and tabs stand before `offset` on its line.
    pub(crate) fn at_line_start(&self, offset: usize) -> bool {
        self.text
            .get(self.line_start(offset)..offset)
            .is_some_and(|s| s.bytes().all(|b| b == b' ' || b == b'\t'))
    }

    /// The leading spaces and tabs of the line holding `offset`.
    pub(crate) fn indent(&self, offset: usize) -> &'a str {
        let start = self.line_start(offset);
        let rest = self.text.get(start..).unwrap_or("");
        let len = rest
            .bytes()
            .take_while(|b| *b == b' ' || *b == b'\t')
            .count();
        rest.get(..len).unwrap_or("")
    }

    /// The line ending of the line holding `offset`, or the file's usual one.
    pub(crate) fn eol(&self, offset: usize) -> &'static str {
        let next = self.next_line_start(offset);
        if !self.eol_terminated(offset) {
            self.default_eol
        } else if self.text[..next].ends_with("\r\n") {
            "\r\n"
        } else {
            "\n"
        }
    }

    /// The line holding `offset` ends with a line break.
    pub(crate) fn eol_terminated(&self, offset: usize) -> bool {
        self.text[..self.next_line_start(offset)].ends_with('\n')
    }

    /// The text after `offset` up to the end of its line, terminator excluded.
    pub(crate) fn rest_of_line(&self, offset: usize) -> &'a str {
        let next = self.next_line_start(offset);
        self.text
            .get(offset..next)
            .unwrap_or("")
            .trim_end_matches(['\n', '\r'])
    }

    /// A line with nothing but whitespace lies between the lines of the two offsets.
    pub(crate) fn blank_line_between(&self, from: usize, to: usize) -> bool {
        let Some(between) = self.text.get(from..to) else {
            return false;
        };
        let lines: Vec<&str> = between.split('\n').collect();
        lines
            .get(1..lines.len().saturating_sub(1))
            .is_some_and(|whole| whole.iter().any(|l| l.trim().is_empty()))
    }
}

/// The `#if` groups of a text, by a scan of its lines (a directive starts
/// its line); unbalanced directives are left out.
fn conditional_groups(text: &str) -> Vec<(usize, usize)> {
    let mut groups = Vec::new();
    let mut open: Vec<usize> = Vec::new();
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        if let Some(directive) = line.trim_start().strip_prefix('#') {
            let word: String = directive
                .trim_start()
                .chars()
                .take_while(char::is_ascii_alphabetic)
                .collect();
            match word.as_str() {
                "if" => open.push(at),
                "endif" => {
                    if let Some(start) = open.pop() {
                        groups.push((start, at));
                    }
                }
                _ => {}
            }
        }
        at += line.len();
    }
    groups.sort_unstable();
    groups
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn applies_sorted_edits_and_refuses_overlaps() {
        let mut edits = vec![
            Edit::insert(4, "b".into(), 1),
            Edit::insert(0, "a".into(), 1),
            Edit::insert(4, "0".into(), 0),
        ];
        assert_eq!(apply("xxxxyy", &mut edits).unwrap(), "axxxx0byy");
        let mut overlap = vec![
            Edit {
                start: 0,
                end: 3,
                text: String::new(),
                rank: 1,
            },
            Edit::insert(2, "z".into(), 1),
        ];
        assert_eq!(apply("abcd", &mut overlap), Err(2));
    }

    #[test]
    fn reported_edits_give_the_tree_of_a_fresh_parse() {
        use crate::annotate::syntax::parse;
        use crate::source::LineIndex;
        let text = "class C\r\n{\r\n    Stream _a, _b;\r\n    void M(Stream s) { }\r\n}";
        let mut tree = parse(text, None).unwrap();
        let field = text.find("Stream _a").unwrap();
        let mut edits = vec![
            Edit::insert(text.find("Stream s").unwrap(), "[Owning] ".into(), 1),
            Edit::insert(0, "using X;\r\n\r\n".into(), 0),
            Edit {
                start: field,
                end: field + "Stream _a, _b;".len(),
                text: "[A]\r\n    Stream _a;\r\n    [C] Stream _b;".into(),
                rank: 1,
            },
            Edit::insert(0, "[B]\n".into(), 1),
        ];
        let edited = apply(text, &mut edits).unwrap();
        let lines = LineIndex::new(text);
        report(&mut tree, &edits, |o| {
            let row = lines.line_of(o as u32);
            Point::new(row, o - lines.line_start(row) as usize)
        });
        let incremental = parse(&edited, Some(&tree)).unwrap();
        let fresh = parse(&edited, None).unwrap();
        assert_eq!(
            incremental.root_node().to_sexp(),
            fresh.root_node().to_sexp()
        );
        assert!(!fresh.root_node().has_error(), "{edited}");
        assert_eq!(
            incremental.root_node().end_position(),
            fresh.root_node().end_position()
        );
    }

    #[test]
    fn reads_line_layout() {
        let text = "a\r\n\t  b c\r\nlast";
        let l = Layout::new(text);
        assert_eq!(l.line_start(7), 3);
        assert_eq!(l.next_line_start(7), 11);
        assert_eq!(l.indent(7), "\t  ");
        assert!(l.at_line_start(6));
        assert!(!l.at_line_start(8));
        assert_eq!(l.eol(7), "\r\n");
        assert_eq!(l.eol(12), "\r\n", "last line takes the file's line ending");
        assert_eq!(l.rest_of_line(7), " c");
        assert_eq!(Layout::new("x\ny\r\nz\n").eol(0), "\n");
    }

    #[test]
    fn finds_conditional_groups() {
        let text = "a\n#if X\n  # if Y\nb\n  #endif\n#elif Z\n#endif // X\n#endif\n#ifdef\nc";
        let l = Layout::new(text);
        assert_eq!(l.groups, [(2, 36), (8, 19)]);
        assert_eq!(l.groups_around(17).collect::<Vec<_>>(), [(2, 36), (8, 19)]);
        assert_eq!(l.groups_around(30).collect::<Vec<_>>(), [(2, 36)]);
        assert_eq!(l.groups_around(0).count(), 0);
    }

    #[test]
    fn finds_blank_lines() {
        let l = Layout::new("a\n\n  \nb\nc");
        assert!(l.blank_line_between(0, 6));
        assert!(!l.blank_line_between(6, 8));
    }
}
