//! Output formats. Each is a pure function from the findings, the files they
//! point into ([`Sources`]) and the run's [`Summary`] to the text to print.

mod excerpt;
pub mod github;
pub mod human;
pub mod json;
pub mod sarif;
mod timings;

pub use timings::timings;

use std::collections::BTreeMap;
use std::io::Write as _;
use std::ops::Range;
use std::path::{Component, Path};

use codespan_reporting::diagnostic::Diagnostic as Report;
use codespan_reporting::files::{Error as FilesError, Files};
use codespan_reporting::term::termcolor::{Ansi, ColorSpec, NoColor, WriteColor};
use codespan_reporting::term::{Chars, Config, Styles, StylesWriter, emit_to_write_style};
use rlc_core::program::Provenance;
use rlc_core::rules::{Diagnostic, Severity};
use rlc_core::rules::{RuleId, RuleKind};
use rlc_core::{FileId, Span};
use rlc_csharp::source::LineIndex;

use crate::findings::{Finding, Suppressions, TestCode};

/// What a run adds to its findings.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// Source files checked.
    pub files: usize,
    /// Findings removed by each suppression mechanism.
    pub suppressed: Suppressions,
    /// How test code is reported.
    pub test_code: TestCode,
    /// Front-end statistics (`--stats`), with the front end's keys.
    pub stats: Option<serde_json::Map<String, serde_json::Value>>,
    /// With `--baseline`: how the findings compare with it (the findings
    /// given to the renderers are then the new ones).
    pub baseline: Option<crate::baseline::BaselineCounts>,
}

/// Rules `RLC9xxx` are about the input (syntax errors, project files, skipped
/// methods), not about leaks in the code.
pub fn is_input_note(rule: RuleId) -> bool {
    rule.rule().kind == RuleKind::Input
}

/// Finding counts, as the summaries report them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub errors: usize,
    pub warnings: usize,
    pub notes: usize,
    pub by_rule: BTreeMap<&'static str, usize>,
}

impl Counts {
    pub fn of<'d>(findings: impl IntoIterator<Item = &'d Finding>) -> Counts {
        let mut c = Counts::default();
        for d in findings.into_iter().map(|f| &f.diagnostic) {
            match d.severity {
                Severity::Error => c.errors += 1,
                Severity::Warning => c.warnings += 1,
                Severity::Note => c.notes += 1,
            }
            *c.by_rule.entry(d.rule.code()).or_default() += 1;
        }
        c
    }

    pub fn total(&self) -> usize {
        self.errors + self.warnings + self.notes
    }

    /// Counts per rule and severity, errors first, then the most frequent.
    pub fn by_rule_and_severity<'d>(
        findings: impl IntoIterator<Item = &'d Finding>,
    ) -> Vec<(Severity, RuleId, usize)> {
        let mut counts: BTreeMap<(Severity, RuleId), usize> = BTreeMap::new();
        for d in findings.into_iter().map(|f| &f.diagnostic) {
            *counts.entry((d.severity, d.rule)).or_default() += 1;
        }
        let mut out: Vec<(Severity, RuleId, usize)> =
            counts.into_iter().map(|((s, r), n)| (s, r, n)).collect();
        out.sort_by(|a, b| b.0.cmp(&a.0).then(b.2.cmp(&a.2)).then(a.1.cmp(&b.1)));
        out
    }
}

/// "only when building for net8.0 and net9.0", for a finding that not every
/// build of its project has.
pub fn frameworks_note(finding: &Finding) -> Option<String> {
    let frameworks = finding.frameworks.as_ref()?;
    let list = match frameworks.as_slice() {
        [] => return None,
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    };
    Some(format!("only when building for {list}"))
}

/// The files findings point into, named relative to the checked root.
pub struct Sources<'a> {
    files: BTreeMap<FileId, Source<'a>>,
}

struct Source<'a> {
    name: String,
    /// The name's bytes when it is not valid UTF-8 (`name` then has U+FFFD
    /// in their place): see [`Sources::uri`].
    raw_name: Option<Vec<u8>>,
    text: &'a str,
    lines: LineIndex,
}

/// A 1-based region; the end column is the column after the last character, as
/// in SARIF.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Region {
    pub start_line: u32,
    pub start_column: u32,
    pub end_line: u32,
    pub end_column: u32,
}

impl<'a> Sources<'a> {
    pub fn new() -> Sources<'a> {
        Sources {
            files: BTreeMap::new(),
        }
    }

    /// The files the findings' labels and facts name, looked up with `lookup`
    /// (the driver's `FileId -> (path, text)`), named relative to `root`.
    pub fn for_findings(
        root: &Path,
        findings: &[Finding],
        lookup: impl Fn(FileId) -> Option<(&'a Path, &'a str)>,
    ) -> Sources<'a> {
        let mut sources = Sources::new();
        for span in findings.iter().flat_map(|f| spans_of(&f.diagnostic)) {
            if !sources.files.contains_key(&span.file)
                && let Some((path, text)) = lookup(span.file)
            {
                let name = relative_name_bytes(root, path);
                match String::from_utf8(name) {
                    Ok(name) => sources.add(span.file, &name, text),
                    Err(e) => sources.add_raw(span.file, e.into_bytes(), text),
                }
            }
        }
        sources
    }

    /// Adds a file under the name to show for it.
    pub fn add(&mut self, id: FileId, name: &str, text: &'a str) {
        self.files.insert(
            id,
            Source {
                name: name.to_string(),
                raw_name: None,
                text,
                lines: LineIndex::new(text),
            },
        );
    }

    /// Adds a file whose name is not valid UTF-8 (as the operating system
    /// gave its bytes).
    pub fn add_raw(&mut self, id: FileId, name: Vec<u8>, text: &'a str) {
        self.add(id, &String::from_utf8_lossy(&name), text);
        if let Some(f) = self.files.get_mut(&id) {
            f.raw_name = std::str::from_utf8(&name).is_err().then_some(name);
        }
    }

    /// The name to show; a name that is not valid UTF-8 has U+FFFD in place
    /// of its bad bytes (see [`Sources::uri`] for the exact name).
    pub fn name(&self, id: FileId) -> Option<&str> {
        self.files.get(&id).map(|f| f.name.as_str())
    }

    /// The name's bytes, exactly (whether UTF-8 or not).
    pub fn name_bytes(&self, id: FileId) -> Option<&[u8]> {
        self.files
            .get(&id)
            .map(|f| f.raw_name.as_deref().unwrap_or(f.name.as_bytes()))
    }

    /// Only for a name that is not valid UTF-8: the name percent-encoded as
    /// a URI reference (`src/caf%E9.cs`), which says every byte exactly.
    pub fn uri(&self, id: FileId) -> Option<String> {
        let f = self.files.get(&id)?;
        f.raw_name.as_deref().map(encode_path)
    }

    pub fn region(&self, span: Span) -> Option<Region> {
        let f = self.files.get(&span.file)?;
        let start = f.lines.line_col(f.text, span.start);
        let end = f.lines.line_col(f.text, span.end.max(span.start));
        Some(Region {
            start_line: start.line,
            start_column: start.col,
            end_line: end.line,
            end_column: end.col,
        })
    }

    /// `path:line:column` of a span's start, for messages.
    pub fn location(&self, span: Span) -> Option<String> {
        let r = self.region(span)?;
        Some(format!(
            "{}:{}:{}",
            self.name(span.file)?,
            r.start_line,
            r.start_column
        ))
    }

    /// The span as a byte range that is safe to slice the file's text with.
    fn byte_range(&self, span: Span) -> Option<Range<usize>> {
        let text = self.files.get(&span.file)?.text;
        let floor = |mut i: usize| {
            i = i.min(text.len());
            while !text.is_char_boundary(i) {
                i -= 1;
            }
            i
        };
        let start = floor(span.start as usize);
        Some(start..floor(span.end as usize).max(start))
    }
}

impl Default for Sources<'_> {
    fn default() -> Self {
        Sources::new()
    }
}

fn spans_of(d: &Diagnostic) -> impl Iterator<Item = Span> + '_ {
    let facts = d.facts.iter().filter_map(|f| match f.provenance {
        Provenance::Source(span)
        | Provenance::Metadata(span)
        | Provenance::Inferred { evidence: span, .. } => Some(span),
        Provenance::Default | Provenance::Library | Provenance::Config => None,
    });
    std::iter::once(d.primary.span)
        .chain(d.secondary.iter().map(|l| l.span))
        .chain(facts)
}

/// The assembly a [`Provenance::Metadata`] fact is from, by the name of its
/// generated file: `Acme.Client.dll`.
pub fn assembly_name(file: &str) -> String {
    file.rsplit(['/', '\\']).next().unwrap_or(file).to_owned()
}

/// `path` relative to `root` with `/` separators; `path` as given (with `/`)
/// when it is elsewhere. Bytes that are not UTF-8 become U+FFFD.
pub fn relative_name(root: &Path, path: &Path) -> String {
    String::from_utf8_lossy(&relative_name_bytes(root, path)).into_owned()
}

/// [`relative_name`] without loss: the bytes of the path's components as the
/// platform encodes them (on Unix, the file name's bytes).
pub fn relative_name_bytes(root: &Path, path: &Path) -> Vec<u8> {
    let clean = |p: &Path| -> Vec<Vec<u8>> {
        p.components()
            .filter(|c| !matches!(c, Component::CurDir))
            .map(|c| c.as_os_str().as_encoded_bytes().to_vec())
            .collect()
    };
    let (root, path) = (clean(root), clean(path));
    let parts = path
        .strip_prefix(root.as_slice())
        .filter(|rest| !rest.is_empty())
        .unwrap_or(&path);
    let mut name = Vec::new();
    for (i, part) in parts.iter().enumerate() {
        // The root component of an absolute path is `/` itself.
        if i > 0 && !name.ends_with(b"/") && !name.ends_with(b"\\") {
            name.push(b'/');
        }
        name.extend_from_slice(part);
    }
    name
}

/// Percent-encodes a `/`-separated path for a URI reference: every byte but
/// the unreserved ones and `/` (so any byte string, UTF-8 or not, round-trips).
pub(crate) fn encode_path(path: &[u8]) -> String {
    let mut out = String::with_capacity(path.len());
    for &b in path {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

impl<'f> Files<'f> for Sources<'_> {
    type FileId = FileId;
    type Name = &'f str;
    type Source = &'f str;

    fn name(&'f self, id: FileId) -> Result<&'f str, FilesError> {
        Sources::name(self, id).ok_or(FilesError::FileMissing)
    }

    fn source(&'f self, id: FileId) -> Result<&'f str, FilesError> {
        self.files
            .get(&id)
            .map(|f| f.text)
            .ok_or(FilesError::FileMissing)
    }

    fn line_index(&'f self, id: FileId, byte_index: usize) -> Result<usize, FilesError> {
        let f = self.files.get(&id).ok_or(FilesError::FileMissing)?;
        Ok(f.lines
            .line_of(u32::try_from(byte_index).unwrap_or(u32::MAX)))
    }

    fn line_range(&'f self, id: FileId, line_index: usize) -> Result<Range<usize>, FilesError> {
        let f = self.files.get(&id).ok_or(FilesError::FileMissing)?;
        let count = f.lines.line_count();
        if line_index >= count {
            return Err(FilesError::LineTooLarge {
                given: line_index,
                max: count.saturating_sub(1),
            });
        }
        let start = f.lines.line_start(line_index) as usize;
        let end = if line_index + 1 < count {
            f.lines.line_start(line_index + 1) as usize
        } else {
            f.text.len()
        };
        Ok(start..end)
    }
}

/// A text buffer that may carry ANSI colours.
pub(crate) enum Text {
    Plain(NoColor<Vec<u8>>),
    Colored(Ansi<Vec<u8>>),
}

impl Text {
    pub(crate) fn new(color: bool) -> Text {
        if color {
            Text::Colored(Ansi::new(Vec::new()))
        } else {
            Text::Plain(NoColor::new(Vec::new()))
        }
    }

    pub(crate) fn into_string(self) -> String {
        let bytes = match self {
            Text::Plain(w) => w.into_inner(),
            Text::Colored(w) => w.into_inner(),
        };
        // Only `str`s and ANSI sequences are ever written.
        String::from_utf8_lossy(&bytes).into_owned()
    }

    fn inner(&mut self) -> &mut dyn WriteColor {
        match self {
            Text::Plain(w) => w,
            Text::Colored(w) => w,
        }
    }
}

impl std::io::Write for Text {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.inner().write(buf)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner().flush()
    }
}

impl WriteColor for Text {
    fn supports_color(&self) -> bool {
        matches!(self, Text::Colored(_))
    }
    fn set_color(&mut self, spec: &ColorSpec) -> std::io::Result<()> {
        self.inner().set_color(spec)
    }
    fn reset(&mut self) -> std::io::Result<()> {
        self.inner().reset()
    }
}

/// Renders codespan reports, rustc style, with the files they point into.
pub(crate) fn emit<'f, F: Files<'f, FileId = I> + ?Sized, I>(
    out: &mut Text,
    files: &'f F,
    reports: &[Report<I>],
) -> Result<(), FilesError> {
    // rustc's ASCII drawing (`-->`, `|`, `^^^`) reads well in every terminal and log.
    let config = Config {
        chars: Chars::ascii(),
        ..Config::default()
    };
    let styles = Styles::default();
    let mut writer = StylesWriter::new(out, &styles);
    for r in reports {
        emit_to_write_style(&mut writer, &config, files, r)?;
    }
    Ok(())
}

/// Writes `level: message` with rustc's colours (bold level in its colour, bold message).
pub(crate) fn headline(out: &mut Text, severity: Severity, message: &str) -> std::io::Result<()> {
    use codespan_reporting::term::termcolor::Color;
    let color = match severity {
        Severity::Error => Color::Red,
        Severity::Warning => Color::Yellow,
        Severity::Note => Color::Green,
    };
    out.set_color(
        ColorSpec::new()
            .set_fg(Some(color))
            .set_bold(true)
            .set_intense(true),
    )?;
    write!(out, "{}", severity.as_str())?;
    out.set_color(ColorSpec::new().set_bold(true))?;
    write!(out, ": {message}")?;
    out.reset()?;
    writeln!(out)
}

#[cfg(test)]
pub(crate) mod tests;
