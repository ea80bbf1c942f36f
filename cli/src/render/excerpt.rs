//! Over-long source lines in the human format: a report shows a window around
//! each label's ends instead of the whole line (a finding on a 1 MiB line of
//! generated code would otherwise print the megabyte, once per label).
//!
//! codespan-reporting prints the lines it gets from [`Files`]. For a report
//! that touches a long line, [`Windowed`] stands in for [`Sources`]: an excerpt
//! of each file made of the lines the report can show (with the original line
//! numbers), each long one cut to windows joined by `...`, and the labels moved
//! to the excerpt's offsets. Columns are still counted on the original line.

use std::ops::Range;

use codespan_reporting::diagnostic::Diagnostic as Report;
use codespan_reporting::files::{Error as FilesError, Files};
use rlc_core::FileId;

use super::Sources;

/// Lines longer than this (in bytes, line break excluded) are cut.
pub(crate) const MAX_LINE: usize = 300;
/// Bytes kept on each side of a label's start or end on a long line.
pub(crate) const CONTEXT: usize = 80;
/// Marks the text left out.
const ELLIPSIS: &str = "...";

/// The files of one report, as the report shows them.
pub(crate) struct Windowed<'s, 'a> {
    sources: &'s Sources<'a>,
    files: Vec<(FileId, Excerpt)>,
}

struct Excerpt {
    text: String,
    /// Original 0-based line index and its range in `text`, in line order.
    lines: Vec<(usize, Range<usize>)>,
    /// Pieces of the original text copied to `text`: original start, original
    /// end, start in `text`; in order.
    segments: Vec<(usize, usize, usize)>,
    /// Whether a line was cut.
    cut: bool,
}

impl<'s, 'a> Windowed<'s, 'a> {
    /// The excerpts for `report` and the report moved onto them; `None` when
    /// no line it can show is long (the report is printed as it is).
    pub(crate) fn new(
        sources: &'s Sources<'a>,
        report: &Report<FileId>,
    ) -> Option<(Windowed<'s, 'a>, Report<FileId>)> {
        let mut ids: Vec<FileId> = report.labels.iter().map(|l| l.file_id).collect();
        ids.sort_unstable();
        ids.dedup();
        let mut files = Vec::new();
        let mut long = false;
        for id in ids {
            let source = sources.files.get(&id)?;
            let labels: Vec<&Range<usize>> = report
                .labels
                .iter()
                .filter(|l| l.file_id == id)
                .map(|l| &l.range)
                .collect();
            // Lines a label covers, and one on each side (codespan shows a
            // single line between two shown ones rather than a break).
            let last_line = source.lines.line_count().saturating_sub(1);
            let line_of = |offset: usize| source.lines.line_of(offset as u32);
            let mut spans: Vec<(usize, usize)> = labels
                .iter()
                .map(|r| {
                    (
                        line_of(r.start).saturating_sub(1),
                        (line_of(r.end) + 1).min(last_line),
                    )
                })
                .collect();
            spans.sort_unstable();
            let mut wanted: Vec<usize> = Vec::new();
            for (start, end) in spans {
                let from = wanted.last().map_or(start, |&l| start.max(l + 1));
                wanted.extend(from..=end);
            }
            // Most reports show no long line: find that out without copying.
            let count = source.lines.line_count();
            long |= wanted.iter().any(|&line| {
                let start = source.lines.line_start(line) as usize;
                let end = if line + 1 < count {
                    source.lines.line_start(line + 1) as usize
                } else {
                    source.text.len()
                };
                end.saturating_sub(start) > MAX_LINE
            });
            let mut points: Vec<usize> = labels.iter().flat_map(|r| [r.start, r.end]).collect();
            points.sort_unstable();
            points.dedup();
            files.push((id, wanted, points));
        }
        if !long {
            return None;
        }
        let files: Vec<(FileId, Excerpt)> = files
            .into_iter()
            .filter_map(|(id, wanted, points)| {
                let source = sources.files.get(&id)?;
                Some((
                    id,
                    Excerpt::new(source.text, &source.lines, &wanted, &points),
                ))
            })
            .collect();
        if files.iter().all(|(_, e)| !e.cut) {
            return None;
        }
        let mut moved = report.clone();
        for label in &mut moved.labels {
            if let Some((_, e)) = files.iter().find(|(id, _)| *id == label.file_id) {
                label.range = e.to_excerpt(label.range.start)..e.to_excerpt(label.range.end);
            }
        }
        Some((Windowed { sources, files }, moved))
    }

    fn excerpt(&self, id: FileId) -> Result<&Excerpt, FilesError> {
        self.files
            .iter()
            .find(|(f, _)| *f == id)
            .map(|(_, e)| e)
            .ok_or(FilesError::FileMissing)
    }
}

impl Excerpt {
    fn new(
        text: &str,
        index: &rlc_csharp::source::LineIndex,
        wanted: &[usize],
        points: &[usize],
    ) -> Excerpt {
        let mut e = Excerpt {
            text: String::new(),
            lines: Vec::with_capacity(wanted.len()),
            segments: Vec::new(),
            cut: false,
        };
        let count = index.line_count();
        for &line in wanted {
            let start = (index.line_start(line) as usize).min(text.len());
            let end = if line + 1 < count {
                (index.line_start(line + 1) as usize).min(text.len())
            } else {
                text.len()
            };
            let content_end = start + text[start..end].trim_end_matches(['\n', '\r']).len();
            let excerpt_start = e.text.len();
            if content_end - start <= MAX_LINE {
                e.copy(text, start, end);
            } else {
                e.cut_line(text, start, content_end, points);
                e.copy(text, content_end, end);
            }
            e.lines.push((line, excerpt_start..e.text.len()));
        }
        e
    }

    /// Windows of `text[start..end]` (a line without its break) around the
    /// `points` on it, or its beginning when there is none.
    fn cut_line(&mut self, text: &str, start: usize, end: usize, points: &[usize]) {
        self.cut = true;
        let floor = |mut i: usize| {
            while !text.is_char_boundary(i) {
                i -= 1;
            }
            i
        };
        let ceil = |mut i: usize| {
            while !text.is_char_boundary(i) {
                i += 1;
            }
            i
        };
        let first = points.partition_point(|&p| p < start);
        let last = points.partition_point(|&p| p <= end);
        let mut windows: Vec<(usize, usize)> = points[first..last]
            .iter()
            .map(|&p| {
                (
                    floor(p.saturating_sub(CONTEXT).max(start)),
                    ceil((p + CONTEXT).min(end)),
                )
            })
            .collect();
        if windows.is_empty() {
            windows.push((start, ceil((start + 2 * CONTEXT).min(end))));
        }
        let mut at = start;
        for (i, &(from, to)) in windows.iter().enumerate() {
            let from = from.max(at);
            if to <= from && i > 0 {
                continue;
            }
            if from > at {
                self.text.push_str(ELLIPSIS);
            }
            self.copy(text, from, to);
            at = to;
        }
        if at < end {
            self.text.push_str(ELLIPSIS);
        }
    }

    fn copy(&mut self, text: &str, from: usize, to: usize) {
        self.segments.push((from, to, self.text.len()));
        self.text.push_str(&text[from..to]);
    }

    /// An original offset in the excerpt (the nearest kept one when it was
    /// left out).
    fn to_excerpt(&self, offset: usize) -> usize {
        let i = self.segments.partition_point(|s| s.0 <= offset);
        match i.checked_sub(1).map(|i| self.segments[i]) {
            Some((from, to, at)) => at + offset.min(to) - from,
            None => 0,
        }
    }

    /// An excerpt offset in the original.
    fn to_original(&self, offset: usize) -> usize {
        let i = self.segments.partition_point(|s| s.2 <= offset);
        match i.checked_sub(1).map(|i| self.segments[i]) {
            Some((from, to, at)) => (from + (offset - at)).min(to),
            None => 0,
        }
    }
}

impl<'f> Files<'f> for Windowed<'_, '_> {
    type FileId = FileId;
    type Name = &'f str;
    type Source = &'f str;

    fn name(&'f self, id: FileId) -> Result<&'f str, FilesError> {
        self.sources.name(id).ok_or(FilesError::FileMissing)
    }

    fn source(&'f self, id: FileId) -> Result<&'f str, FilesError> {
        Ok(self.excerpt(id)?.text.as_str())
    }

    fn line_index(&'f self, id: FileId, byte_index: usize) -> Result<usize, FilesError> {
        let e = self.excerpt(id)?;
        let i = e.lines.partition_point(|(_, r)| r.start <= byte_index);
        i.checked_sub(1)
            .map(|i| e.lines[i].0)
            .ok_or(FilesError::FileMissing)
    }

    fn line_range(&'f self, id: FileId, line_index: usize) -> Result<Range<usize>, FilesError> {
        let e = self.excerpt(id)?;
        let i = e.lines.partition_point(|(l, _)| *l < line_index);
        match e.lines.get(i) {
            Some((l, r)) if *l == line_index => Ok(r.clone()),
            _ => Err(FilesError::LineTooLarge {
                given: line_index,
                max: e.lines.last().map_or(0, |(l, _)| *l),
            }),
        }
    }

    /// Counted on the original line, so that `-->` names the real column.
    fn column_number(
        &'f self,
        id: FileId,
        line_index: usize,
        byte_index: usize,
    ) -> Result<usize, FilesError> {
        let e = self.excerpt(id)?;
        let source = self.sources.files.get(&id).ok_or(FilesError::FileMissing)?;
        let start = source.lines.line_start(line_index) as usize;
        let end = e.to_original(byte_index);
        Ok(source
            .text
            .get(start..end)
            .map_or(1, |s| s.chars().count() + 1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use codespan_reporting::diagnostic::Label;

    fn render(text: &str, labels: &[(Range<usize>, bool)]) -> String {
        let mut sources = Sources::new();
        sources.add(FileId(0), "A.cs", text);
        let report = Report::error().with_message("m").with_labels(
            labels
                .iter()
                .map(|(r, primary)| {
                    if *primary {
                        Label::primary(FileId(0), r.clone()).with_message("here")
                    } else {
                        Label::secondary(FileId(0), r.clone()).with_message("there")
                    }
                })
                .collect(),
        );
        let mut out = super::super::Text::new(false);
        match Windowed::new(&sources, &report) {
            Some((w, moved)) => super::super::emit(&mut out, &w, &[moved]),
            None => super::super::emit(&mut out, &sources, &[report]),
        }
        .expect("renders");
        out.into_string()
    }

    #[test]
    fn short_lines_are_shown_whole() {
        let text = "class C {\n    void M() { var s = new S(); }\n}\n";
        let at = text.find("new S()").unwrap();
        let out = render(text, &[(at..at + 7, true)]);
        assert!(out.contains("    void M() { var s = new S(); }"), "{out}");
        assert!(!out.contains(ELLIPSIS), "{out}");
    }

    #[test]
    fn a_long_line_is_cut_around_the_labels() {
        let filler = "x".repeat(1 << 20);
        let text = format!("class C {{\n  int[] a = {{ {filler}, F(new S()), {filler} }};\n}}\n");
        let at = text.find("new S()").unwrap();
        let out = render(&text, &[(at..at + 7, true)]);
        assert!(out.len() < 2000, "{} bytes:\n{}", out.len(), &out[..2000]);
        assert!(
            out.contains("...xxxx") && out.contains("F(new S()), xxx"),
            "{out}"
        );
        // The real line and column, the underline under the allocation.
        let col = at - text.find('\n').unwrap();
        assert!(out.contains(&format!("A.cs:2:{col}")), "{out}");
        let line = out.lines().find(|l| l.contains("new S()")).unwrap();
        let marks = out.lines().find(|l| l.contains("^^^^^^^ here")).unwrap();
        assert_eq!(line.find("new S()"), marks.find('^'), "{out}");
    }

    #[test]
    fn labels_far_apart_on_one_line_get_a_window_each() {
        let filler = "y".repeat(5000);
        let text = format!("var a = new S(); {filler} a.Dispose(); {filler} return;\n");
        let alloc = text.find("new S()").unwrap();
        let ret = text.find("return;").unwrap();
        let out = render(&text, &[(alloc..alloc + 7, true), (ret..ret + 7, false)]);
        assert!(out.len() < 2000, "{out}");
        assert!(
            out.contains("var a = new S();") && out.contains("return;"),
            "{out}"
        );
        assert!(out.contains("A.cs:1:9"), "{out}");
        assert!(!out.contains("a.Dispose()"), "{out}");
    }

    #[test]
    fn multi_byte_text_is_cut_on_character_boundaries() {
        let filler = "é".repeat(3000);
        let text = format!("{filler}new S(){filler}\n");
        let at = text.find("new S()").unwrap();
        let out = render(&text, &[(at..at + 7, true)]);
        assert!(out.contains("ééé...") || out.contains("...ééé"), "{out}");
        assert!(out.contains("A.cs:1:3001"), "{out}");
    }

    #[test]
    fn a_label_over_many_long_lines_shows_their_beginnings() {
        let long = "z".repeat(1000);
        let text = format!("a({long}\n{long}\n{long}\nb);\n");
        let end = text.find("b);").unwrap() + 2;
        let out = render(&text, &[(0..end, true)]);
        assert!(out.len() < 3000, "{out}");
        assert!(out.contains("A.cs:1:1") && out.contains("b);"), "{out}");
    }
}
