//! `rlc-sharp.toml`: found upward from the checked path (or given with
//! `--config`), validated strictly, with errors that point into the file.
//!
//! ```toml
//! usings = ["System.IO"]            # for the [[type]] entries
//!
//! [check]
//! exception-model = "explicit"      # none | explicit | all
//! exclude = ["**/Generated/**"]     # globs relative to this file's directory
//! infer = true
//! foreign-suppressions = true       # CA2000, IDISP..., ReSharper suppressions count
//! test-code = "warning"             # off | note | warning | same
//!
//! [rules]
//! RLC0001 = "error"                 # error | warning | note | off; ids or names
//!
//! [[type]]                          # library specs, as in attributes/library/*.toml
//! name = "MyCompany.Db.Session"
//! must_call = ["Close"]
//! ```

use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};

use codespan_reporting::diagnostic::{Diagnostic as Report, Label};
use codespan_reporting::files::SimpleFile;
use globset::{GlobBuilder, GlobSet, GlobSetBuilder};
use rlc_attributes::library::LibraryFile;
use rlc_core::rules::Severity;
use rlc_core::rules::{RuleId, rule};
use rlc_core::{CheckOptions, ExceptionModel};
use rlc_csharp::load::LibraryText;
use rlc_csharp::suppress::{Level, RuleLevels};
use serde::Deserialize;
use toml::Spanned;
use toml::de::{DeTable, DeValue, Deserializer};

use crate::args::{CheckArgs, ExceptionModelArg};
use crate::explain::closest;
use crate::findings::TestCode;
use crate::render::{Text, emit, headline};

pub const FILE_NAME: &str = "rlc-sharp.toml";

/// What `rlc-sharp init` writes: every setting, commented out at its default.
pub const STARTER: &str = r#"# rlc-sharp settings. Run `rlc-sharp explain` for the rules.

[check]
# Which exceptions to follow: "none", "explicit" (inside try blocks and at
# `throw`) or "all" (every call may throw).
# exception-model = "explicit"
# Files not to check, as globs relative to this file's directory.
# exclude = ["**/Generated/**", "**/*.Designer.cs"]
# Use the specifications `rlc-sharp infer` would propose while checking.
# infer = true
# Honour suppressions written for other analyzers of the same bugs:
# `#pragma warning disable CA2000`, `[SuppressMessage(..., "IDISP001")]`,
# `// ReSharper disable once NotDisposedResource`.
# foreign-suppressions = true
# Findings in test projects: "off", "note", at most "warning", or the "same"
# as in production code.
# test-code = "warning"

[rules]
# Level per rule id or name: "error", "warning", "note" or "off".
# resource-leak-on-exception = "warning"

# Specifications of library types rlc-sharp cannot see the source of, in the
# format of its own library model (see `[[type]]` in the documentation).
# usings = ["System.IO"]
# [[type]]
# name = "MyCompany.Db.Session"
# bases = ["System.IDisposable"]
# must_call = ["Close"]
# members = ["static Session Open(string connectionString)"]
"#;

/// The settings of one `rlc-sharp.toml` (or none).
#[derive(Debug, Default)]
pub struct Config {
    /// The file read, if any.
    pub path: Option<PathBuf>,
    pub exception_model: Option<ExceptionModel>,
    pub method_budget: Option<usize>,
    pub infer: Option<bool>,
    pub test_code: Option<TestCode>,
    pub exclude: Exclude,
    /// Whether suppressions written for other analyzers (CA2000, IDISP...,
    /// ReSharper) count; `None`: the default, yes.
    pub foreign_suppressions: Option<bool>,
    /// Levels by rule id.
    pub levels: RuleLevels,
    /// The `usings` and `[[type]]` entries, for the front end's library model.
    pub library: Option<ConfigLibrary>,
}

/// The library part of a config: what the driver hands to the front end.
#[derive(Debug)]
pub struct ConfigLibrary {
    /// The config file, where problems with the entries are reported.
    pub path: PathBuf,
    /// The config's text with everything but `usings` and `[[type]]` blanked
    /// out, so that it reads as a library model file and its byte offsets
    /// (and so line and column numbers) are those of the config file.
    pub text: String,
    /// The entries, parsed; their spans are byte ranges in the config file.
    pub file: LibraryFile,
}

impl ConfigLibrary {
    /// The entries as the front end's loader takes library files.
    pub fn library_text(&self) -> LibraryText {
        LibraryText {
            name: self.path.display().to_string(),
            text: self.text.clone(),
            path: Some(self.path.clone()),
        }
    }
}

/// What `check` runs with once the command line has overridden the config.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckSettings {
    pub options: CheckOptions,
    /// Use inferred specifications.
    pub infer: bool,
    pub test_code: TestCode,
}

impl Config {
    /// The config for a run: `explicit` (`--config`) if given, else the nearest
    /// `rlc-sharp.toml` at or above `start`, else the defaults.
    pub fn load(explicit: Option<&Path>, start: &Path) -> Result<Config, ConfigError> {
        let Some(path) = explicit.map(Path::to_path_buf).or_else(|| find(start)) else {
            return Ok(Config::default());
        };
        let text = std::fs::read_to_string(&path).map_err(|error| ConfigError::Io {
            path: path.clone(),
            error,
        })?;
        Config::parse(&path, text)
    }

    /// Parses and validates a config's text; `path` locates the exclude globs and names the file in errors.
    pub fn parse(path: &Path, text: String) -> Result<Config, ConfigError> {
        let mut problems = Vec::new();
        match parse_document(path, &text, &mut problems) {
            Some(Document {
                mut config,
                library,
                not_library,
            }) if problems.is_empty() => {
                config.library = library.map(|file| ConfigLibrary {
                    path: path.to_path_buf(),
                    text: blank(&text, &not_library),
                    file,
                });
                Ok(config)
            }
            _ => {
                problems.sort_by_key(|p| p.span.start);
                Err(ConfigError::Invalid {
                    path: path.to_path_buf(),
                    text,
                    problems,
                })
            }
        }
    }

    /// The settings for `check`: command-line options win over the config.
    pub fn check_settings(&self, args: &CheckArgs) -> CheckSettings {
        let mut options = CheckOptions::default();
        if let Some(model) = args
            .exception_model
            .map(ExceptionModel::from)
            .or(self.exception_model)
        {
            options.exception_model = model;
        }
        options.method_budget = args
            .method_budget
            .map(|b| usize::try_from(b).unwrap_or(usize::MAX))
            .or(self.method_budget);
        CheckSettings {
            options,
            infer: !args.no_infer && self.infer.unwrap_or(true),
            test_code: args.test_code.or(self.test_code).unwrap_or_default(),
        }
    }
}

/// The nearest `rlc-sharp.toml` in `start` (or its directory, for a file) or
/// one of its ancestors, up to the filesystem root.
pub fn find(start: &Path) -> Option<PathBuf> {
    let start = start
        .canonicalize()
        .or_else(|_| std::path::absolute(start))
        .ok()?;
    let dir = if start.is_file() {
        start.parent()?
    } else {
        &start
    };
    dir.ancestors()
        .map(|d| d.join(FILE_NAME))
        .find(|p| p.is_file())
}

/// `[check] exclude` globs, matched against paths relative to the config's directory.
#[derive(Clone, Debug, Default)]
pub struct Exclude {
    base: PathBuf,
    globs: GlobSet,
}

impl Exclude {
    pub fn is_empty(&self) -> bool {
        self.globs.is_empty()
    }

    /// Whether `path` or a directory it is in matches a glob (so `tests` and
    /// `tests/**` both exclude everything under `tests/`). Paths outside the
    /// config's directory are never excluded.
    pub fn is_excluded(&self, path: &Path) -> bool {
        if self.globs.is_empty() {
            return false;
        }
        // The base is canonical (see `find`); the path may reach it through a symlink.
        let under_base = |p: PathBuf| p.strip_prefix(&self.base).ok().map(Path::to_path_buf);
        let relative = std::path::absolute(path)
            .ok()
            .and_then(under_base)
            .or_else(|| path.canonicalize().ok().and_then(under_base));
        relative.is_some_and(|relative| {
            relative
                .ancestors()
                .filter(|p| !p.as_os_str().is_empty())
                .any(|p| self.globs.is_match(p))
        })
    }
}

/// Why a config could not be used.
#[derive(Debug)]
pub enum ConfigError {
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
    Invalid {
        path: PathBuf,
        text: String,
        problems: Vec<Problem>,
    },
}

/// One mistake in a config, at a byte range of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub message: String,
    pub span: Range<usize>,
    /// Says what is wrong at the span.
    pub label: String,
    pub help: Option<String>,
}

impl Problem {
    fn new(message: impl Into<String>, span: Range<usize>, label: impl Into<String>) -> Problem {
        Problem {
            message: message.into(),
            span,
            label: label.into(),
            help: None,
        }
    }

    fn help(mut self, help: impl Into<String>) -> Problem {
        self.help = Some(help.into());
        self
    }
}

impl ConfigError {
    /// rustc-style text for standard error.
    pub fn render(&self, color: bool) -> String {
        let mut out = Text::new(color);
        match self {
            ConfigError::Io { path, error } => {
                let _ = headline(
                    &mut out,
                    Severity::Error,
                    &format!("cannot read the config file `{}`: {error}", path.display()),
                );
            }
            ConfigError::Invalid {
                path,
                text,
                problems,
            } => {
                let file = SimpleFile::new(path.display().to_string(), text.as_str());
                let reports: Vec<Report<()>> = problems
                    .iter()
                    .map(|p| {
                        let end = p.span.end.min(text.len());
                        let start = p.span.start.min(end);
                        Report::error()
                            .with_message(&p.message)
                            .with_labels(vec![
                                Label::primary((), start..end).with_message(&p.label),
                            ])
                            .with_notes(p.help.iter().map(|h| format!("help: {h}")).collect())
                    })
                    .collect();
                if emit(&mut out, &file, &reports).is_err() {
                    for p in problems {
                        let _ = headline(
                            &mut out,
                            Severity::Error,
                            &format!("{}: {}", path.display(), p.message),
                        );
                    }
                }
            }
        }
        out.into_string()
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::Io { path, error } => write!(
                f,
                "cannot read the config file `{}`: {error}",
                path.display()
            ),
            ConfigError::Invalid { path, problems, .. } => {
                write!(f, "invalid config file `{}`", path.display())?;
                for p in problems {
                    write!(f, "; {}", p.message)?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for ConfigError {}

const TOP_LEVEL: [&str; 4] = ["check", "rules", "usings", "type"];
const CHECK_KEYS: [&str; 6] = [
    "exception-model",
    "exclude",
    "infer",
    "foreign-suppressions",
    "test-code",
    "method-budget",
];

/// A config as read, before it is checked for problems.
struct Document {
    config: Config,
    library: Option<LibraryFile>,
    /// Byte ranges of the `[check]` and `[rules]` settings: what is not library model.
    not_library: Vec<Range<usize>>,
}

/// Collects every problem it can find; `None` when the TOML itself does not parse.
fn parse_document(path: &Path, text: &str, problems: &mut Vec<Problem>) -> Option<Document> {
    let root = match DeTable::parse(text) {
        Ok(root) => root,
        Err(e) => {
            let span = e.span().unwrap_or(0..0);
            problems.push(Problem::new(
                format!("this is not valid TOML: {}", e.message().trim_end()),
                span,
                "here",
            ));
            return None;
        }
    };
    let root_span = root.span();
    let mut config = Config {
        path: Some(path.to_path_buf()),
        ..Config::default()
    };
    let mut library = DeTable::new();
    let mut not_library = Vec::new();
    for (key, value) in root.into_inner() {
        match key.get_ref().as_ref() {
            name @ ("check" | "rules") => {
                let Some(table) = table(&key, &value, problems) else {
                    continue;
                };
                not_library.extend(setting_ranges(text, &key, &value, table));
                if name == "check" {
                    read_check(path, table, &mut config, problems);
                } else {
                    config.levels = read_rules(text, table, problems);
                }
            }
            "usings" | "type" => {
                library.insert(key, value);
            }
            other => problems.push(unknown_key(
                other,
                key.span(),
                &TOP_LEVEL,
                "a top-level key",
            )),
        }
    }
    let library = if library.is_empty() {
        None
    } else {
        match LibraryFile::deserialize(Deserializer::from(Spanned::new(root_span, library))) {
            Ok(file) => Some(file),
            Err(e) => {
                problems.push(
                    Problem::new(
                        e.message().trim_end().to_string(),
                        e.span().unwrap_or(0..0),
                        "here",
                    )
                    .help("`[[type]]` entries use the format of rlc-sharp's library model"),
                );
                None
            }
        }
    };
    Some(Document {
        config,
        library,
        not_library,
    })
}

/// Where a `[check]` or `[rules]` table is written: its `[header]`, or the
/// whole `key = { ... }` of an inline table, and each setting from the start of
/// its line (which a dotted `check.infer = ...` key starts) to its value's end.
/// Only meaningful for a config without problems, where every setting is a
/// plain value.
fn setting_ranges(
    text: &str,
    key: &Spanned<std::borrow::Cow<'_, str>>,
    value: &Spanned<DeValue<'_>>,
    table: &DeTable<'_>,
) -> Vec<Range<usize>> {
    let line_start = |at: usize| {
        text.get(..at)
            .and_then(|t| t.rfind('\n'))
            .map_or(0, |i| i + 1)
    };
    let written = text.get(value.span()).unwrap_or("");
    let mut ranges = Vec::new();
    if written.starts_with('{') {
        ranges.push(line_start(key.span().start)..value.span().end);
    } else if written.starts_with('[') {
        ranges.push(value.span());
    }
    ranges.extend(
        table
            .iter()
            .map(|(k, v)| line_start(k.span().start)..v.span().end),
    );
    ranges
}

/// `text` with the bytes in `ranges` replaced by spaces, line breaks kept.
fn blank(text: &str, ranges: &[Range<usize>]) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for r in ranges {
        let end = r.end.min(bytes.len());
        for b in bytes.get_mut(r.start.min(end)..end).into_iter().flatten() {
            if !matches!(*b, b'\n' | b'\r') {
                *b = b' ';
            }
        }
    }
    // Whole UTF-8 sequences become spaces, so the result stays valid UTF-8.
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

fn table<'a, 'i>(
    key: &Spanned<std::borrow::Cow<'i, str>>,
    value: &'a Spanned<DeValue<'i>>,
    problems: &mut Vec<Problem>,
) -> Option<&'a DeTable<'i>> {
    match value.get_ref() {
        DeValue::Table(t) => Some(t),
        other => {
            problems.push(Problem::new(
                format!("`{}` must be a table", key.get_ref()),
                value.span(),
                format!("this is {}", a_type(other)),
            ));
            None
        }
    }
}

fn read_check(path: &Path, table: &DeTable<'_>, config: &mut Config, problems: &mut Vec<Problem>) {
    for (key, value) in table.iter() {
        let name = key.get_ref().as_ref();
        match name {
            "exception-model" => match value.get_ref().as_str() {
                Some(s) => match <ExceptionModelArg as clap::ValueEnum>::from_str(s, false) {
                    Ok(m) => config.exception_model = Some(m.into()),
                    Err(_) => problems.push(
                        Problem::new(
                            format!("unknown exception model `{s}`"),
                            value.span(),
                            "not a model",
                        )
                        .help("use \"none\", \"explicit\" or \"all\""),
                    ),
                },
                None => problems.push(wrong_type(name, "a string", value)),
            },
            "test-code" => match value.get_ref().as_str() {
                Some(s) => match <TestCode as clap::ValueEnum>::from_str(s, false) {
                    Ok(level) => config.test_code = Some(level),
                    Err(_) => problems.push(
                        Problem::new(
                            format!("unknown test-code level `{s}`"),
                            value.span(),
                            "not a level",
                        )
                        .help("use \"off\", \"note\", \"warning\" or \"same\""),
                    ),
                },
                None => problems.push(wrong_type(name, "a string", value)),
            },
            "infer" => match value.get_ref().as_bool() {
                Some(b) => config.infer = Some(b),
                None => problems.push(wrong_type(name, "true or false", value)),
            },
            "method-budget" => match value.get_ref().as_integer() {
                Some(n) => match usize::from_str_radix(&n.as_str().replace('_', ""), n.radix()) {
                    Ok(b) if b >= 1000 => config.method_budget = Some(b),
                    _ => problems.push(Problem::new(
                        format!("`method-budget` must be at least 1000, not {n}"),
                        value.span(),
                        "out of range",
                    )),
                },
                None => problems.push(wrong_type(name, "a number of steps", value)),
            },
            "exclude" => config.exclude = read_exclude(path, value, problems),
            "foreign-suppressions" => match value.get_ref().as_bool() {
                Some(b) => config.foreign_suppressions = Some(b),
                None => problems.push(wrong_type(name, "true or false", value)),
            },
            _ => {
                problems.push(misplaced(name, key.span()).unwrap_or_else(|| {
                    unknown_key(name, key.span(), &CHECK_KEYS, "a key of [check]")
                }))
            }
        }
    }
}

fn read_exclude(path: &Path, value: &Spanned<DeValue<'_>>, problems: &mut Vec<Problem>) -> Exclude {
    let Some(items) = value.get_ref().as_array() else {
        problems.push(wrong_type("exclude", "an array of glob strings", value));
        return Exclude::default();
    };
    let mut set = GlobSetBuilder::new();
    for item in items.iter() {
        let Some(pattern) = item.get_ref().as_str() else {
            problems.push(wrong_type("exclude", "an array of glob strings", item));
            continue;
        };
        // Like .gitignore: `*` stays within a directory, `**` crosses them.
        match GlobBuilder::new(pattern.trim_end_matches('/'))
            .literal_separator(true)
            .build()
        {
            Ok(glob) => {
                set.add(glob);
            }
            Err(e) => problems.push(Problem::new(
                format!("invalid glob `{pattern}`: {}", e.kind()),
                item.span(),
                "this glob",
            )),
        }
    }
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let base = dir
        .canonicalize()
        .or_else(|_| std::path::absolute(dir))
        .unwrap_or_else(|_| dir.to_path_buf());
    match set.build() {
        Ok(globs) => Exclude { base, globs },
        Err(e) => {
            problems.push(Problem::new(
                format!("invalid globs: {e}"),
                value.span(),
                "these globs",
            ));
            Exclude::default()
        }
    }
}

fn read_rules(text: &str, table: &DeTable<'_>, problems: &mut Vec<Problem>) -> RuleLevels {
    let mut levels = RuleLevels::new();
    let mut seen: Vec<(RuleId, Range<usize>)> = Vec::new();
    // Keys come sorted; report duplicates at the later one in the file.
    let mut entries: Vec<_> = table.iter().collect();
    entries.sort_by_key(|(k, _)| k.span().start);
    for (key, value) in entries {
        let name = key.get_ref().as_ref();
        let Some(r) = rule(name) else {
            let problem = misplaced(name, key.span()).unwrap_or_else(|| {
                let ids = rlc_core::rules::RULES.iter().flat_map(|r| [r.code, r.name]);
                let p = Problem::new(
                    format!("no rule is called `{name}`"),
                    key.span(),
                    "unknown rule",
                );
                match closest(name, ids).first() {
                    Some(near) => p.help(format!(
                        "did you mean `{near}`? `rlc-sharp explain` lists every rule"
                    )),
                    None => p.help("`rlc-sharp explain` lists every rule"),
                }
            });
            problems.push(problem);
            continue;
        };
        if let Some((_, first)) = seen.iter().find(|(id, _)| *id == r.id) {
            let line = text
                .get(..first.start)
                .map_or(0, |t| t.matches('\n').count())
                + 1;
            problems.push(
                Problem::new(
                    format!("{} ({}) is set twice", r.code, r.name),
                    key.span(),
                    "set again here",
                )
                .help(format!(
                    "it is first set on line {line}; keep one of the two"
                )),
            );
            continue;
        }
        seen.push((r.id, key.span()));
        match value.get_ref().as_str().map(|s| (s, Level::parse(s))) {
            Some((_, Some(level))) => {
                levels.insert(r.id, level);
            }
            Some((s, None)) => problems.push(
                Problem::new(
                    format!("unknown level `{s}` for {}", r.id),
                    value.span(),
                    "not a level",
                )
                .help("use \"error\", \"warning\", \"note\" or \"off\""),
            ),
            None => problems.push(wrong_type(name, "a level string", value)),
        }
    }
    levels
}

/// Top-level keys written under a table header by mistake.
fn misplaced(name: &str, span: Range<usize>) -> Option<Problem> {
    matches!(name, "usings" | "type" | "check" | "rules").then(|| {
        Problem::new(
            format!("`{name}` is not allowed here"),
            span,
            "inside a table",
        )
        .help(format!(
            "`{name}` belongs at the top level: move it above the first `[table]` header"
        ))
    })
}

fn unknown_key(name: &str, span: Range<usize>, known: &[&str], what: &str) -> Problem {
    let p = Problem::new(format!("unknown key `{name}`"), span, format!("not {what}"));
    match closest(name, known.iter().copied()).first() {
        Some(near) => p.help(format!("did you mean `{near}`?")),
        None => p.help(format!(
            "expected one of {}",
            known
                .iter()
                .map(|k| format!("`{k}`"))
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

fn wrong_type(name: &str, expected: &str, value: &Spanned<DeValue<'_>>) -> Problem {
    Problem::new(
        format!("`{name}` must be {expected}"),
        value.span(),
        format!("this is {}", a_type(value.get_ref())),
    )
}

fn a_type(v: &DeValue<'_>) -> &'static str {
    match v {
        DeValue::String(_) => "a string",
        DeValue::Integer(_) => "an integer",
        DeValue::Float(_) => "a float",
        DeValue::Boolean(_) => "a boolean",
        DeValue::Datetime(_) => "a date",
        DeValue::Array(_) => "an array",
        DeValue::Table(_) => "a table",
    }
}
#[cfg(test)]
mod tests;
