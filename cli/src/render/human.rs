//! The human format: rustc-style reports (codespan-reporting) and a summary line.

use std::collections::BTreeSet;
use std::io::Write as _;

use codespan_reporting::diagnostic::{Diagnostic as Report, Label, Severity as Level};
use rlc_core::FileId;
use rlc_core::program::Provenance;
use rlc_core::rules::{Diagnostic, Severity, SpecFact};

use super::excerpt::Windowed;
use super::{
    Counts, Sources, Summary, Text, assembly_name, emit, frameworks_note, headline, is_input_note,
};
use crate::findings::{Finding, TestCode};

#[derive(Copy, Clone, Debug, Default)]
pub struct HumanOptions {
    /// ANSI colours (see [`crate::args::ColorChoice::enabled`]).
    pub color: bool,
    /// Only the findings, no summary.
    pub quiet: bool,
}

/// The report for standard output: the findings (production code first,
/// then test code), then the summary.
pub fn render(
    findings: &[Finding],
    sources: &Sources<'_>,
    summary: &Summary,
    opts: HumanOptions,
) -> String {
    let mut out = Text::new(opts.color);
    let mut in_tests = false;
    for f in findings {
        if f.test_code && !in_tests && !opts.quiet {
            in_tests = true;
            let _ = headline(
                &mut out,
                Severity::Note,
                "the findings below are in test projects",
            );
            let _ = writeln!(out);
        }
        let d = &f.diagnostic;
        let report = report(d, frameworks_note(f), sources);
        // A report touching an over-long line shows windows of it.
        let emitted = match Windowed::new(sources, &report) {
            Some((windowed, moved)) => emit(&mut out, &windowed, &[moved]),
            None => emit(&mut out, sources, std::slice::from_ref(&report)),
        };
        if emitted.is_err() {
            // Labels are clamped to the files' text, so this is a file the driver
            // did not name: show the finding without its snippet.
            let _ = writeln!(out, "{}[{}]: {}", d.severity.as_str(), d.rule, d.message);
        }
    }
    // codespan ends each report with a blank line, which separates the summary.
    if !opts.quiet {
        let _ = write_summary(&mut out, findings, sources, summary);
    }
    out.into_string()
}

fn report(d: &Diagnostic, frameworks: Option<String>, sources: &Sources<'_>) -> Report<FileId> {
    let level = match d.severity {
        Severity::Error => Level::Error,
        Severity::Warning => Level::Warning,
        Severity::Note => Level::Note,
    };
    let primary = std::iter::once((&d.primary, true));
    let labels = primary
        .chain(d.secondary.iter().map(|l| (l, false)))
        .filter_map(|(l, is_primary)| {
            let range = sources.byte_range(l.span)?;
            let label = if is_primary {
                Label::primary(l.span.file, range)
            } else {
                Label::secondary(l.span.file, range)
            };
            Some(label.with_message(&l.message))
        })
        .collect();
    let mut notes: Vec<String> = d
        .notes
        .iter()
        .chain(&frameworks)
        .map(|n| format!("note: {n}"))
        .collect();
    if !d.facts.is_empty() {
        let facts: Vec<String> = d
            .facts
            .iter()
            .map(|f| format!("- {}", fact_text(f, sources)))
            .collect();
        notes.push(format!("note: this relies on\n{}", facts.join("\n")));
    }
    notes.extend(d.help.iter().map(|h| format!("help: {h}")));
    Report::new(level)
        .with_code(d.rule.code())
        .with_message(&d.message)
        .with_labels(labels)
        .with_notes(notes)
}

fn fact_text(f: &SpecFact, sources: &Sources<'_>) -> String {
    let at = |span| {
        sources
            .location(span)
            .unwrap_or_else(|| "an unknown place".to_string())
    };
    let origin = match &f.provenance {
        Provenance::Default => "default".to_string(),
        Provenance::Source(span) => format!("written at {}", at(*span)),
        Provenance::Library => "library model".to_string(),
        Provenance::Metadata(span) => format!(
            "metadata: {}",
            sources
                .name(span.file)
                .map_or_else(|| "a referenced assembly".to_owned(), assembly_name)
        ),
        Provenance::Config => "rlc-sharp.toml".to_string(),
        Provenance::Inferred { evidence, .. } => {
            // "taken as [Owning] because the method disposes it, at Foo.cs:42"
            return match &f.reason {
                Some(reason) => format!(
                    "{}, inferred because {reason} (at {})",
                    f.fact,
                    at(*evidence)
                ),
                None => format!("{}, inferred from {}", f.fact, at(*evidence)),
            };
        }
    };
    match &f.reason {
        Some(reason) => format!("{} ({origin}: {reason})", f.fact),
        None => format!("{} ({origin})", f.fact),
    }
}

/// Production code first (its errors, then its warnings, by rule), then
/// test code, then what was suppressed and the notes about the input.
fn write_summary(
    out: &mut Text,
    findings: &[Finding],
    sources: &Sources<'_>,
    summary: &Summary,
) -> std::io::Result<()> {
    let leaks = |test: bool| -> Vec<&Finding> {
        findings
            .iter()
            .filter(|f| f.test_code == test && !is_input_note(f.diagnostic.rule))
            .collect()
    };
    let (production, tests) = (leaks(false), leaks(true));
    let mut suppressed = match summary.suppressed.total() {
        0 => String::new(),
        n => format!("; {n} suppressed ({})", suppressed_by(&summary.suppressed)),
    };
    // With a baseline the findings are the new ones; say what else it held.
    let new = if summary.baseline.is_some() {
        "new "
    } else {
        ""
    };
    if let Some(b) = &summary.baseline {
        suppressed = format!(
            "; {} unchanged (in the baseline), {} fixed{suppressed}",
            b.unchanged, b.fixed
        );
    }
    if production.is_empty() {
        let place = if tests.is_empty() {
            format!("in {}", plural(summary.files, "file"))
        } else {
            "in production code".to_owned()
        };
        writeln!(
            out,
            "no {new}leaks found {place}{}",
            std::mem::take(&mut suppressed)
        )?;
    }
    let parts = [(&production, "production code"), (&tests, "test code")];
    for (group, what) in parts {
        if group.is_empty() {
            continue;
        }
        let counts = Counts::of(group.iter().copied());
        let severities: Vec<String> = [
            (counts.errors, "error"),
            (counts.warnings, "warning"),
            (counts.notes, "note"),
        ]
        .into_iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, what)| plural(n, what))
        .collect();
        let files: BTreeSet<&str> = group
            .iter()
            .filter_map(|f| sources.name(f.diagnostic.primary.span.file))
            .collect();
        let worst = group
            .iter()
            .map(|f| f.diagnostic.severity)
            .max()
            .unwrap_or(Severity::Note);
        let place = if tests.is_empty() {
            String::new()
        } else {
            format!(" in {what}")
        };
        let level = match (group[0].test_code, summary.test_code) {
            (true, TestCode::Note | TestCode::Warning) => format!(
                " (at most {}s: `test-code = \"{}\"`)",
                summary.test_code.as_str(),
                summary.test_code.as_str()
            ),
            _ => String::new(),
        };
        let message = format!(
            "{} found{place} ({}) in {}{level}{}",
            plural(group.len(), &format!("{new}resource leak")),
            severities.join(", "),
            plural(files.len(), "file"),
            std::mem::take(&mut suppressed),
        );
        headline(out, worst, &message)?;
        for (severity, rule, n) in Counts::by_rule_and_severity(group.iter().copied()) {
            writeln!(
                out,
                "  {} {}: {}",
                rule.code(),
                rule.name(),
                plural(n, severity.as_str())
            )?;
        }
    }
    let input_notes = findings
        .iter()
        .filter(|f| is_input_note(f.diagnostic.rule))
        .count();
    if input_notes > 0 {
        let message = format!(
            "{} above about input that was not fully analysed",
            plural(input_notes, "report")
        );
        headline(out, Severity::Note, &message)?;
    }
    Ok(())
}

/// "2 by #pragma, 1 written for CA2000/CA2213": the mechanisms that removed findings.
fn suppressed_by(s: &crate::findings::Suppressions) -> String {
    let c = &s.sources;
    [
        (c.config, "by rlc-sharp.toml"),
        (c.editorconfig, "by .editorconfig"),
        (c.generated, "in generated code"),
        (c.pragma, "by #pragma"),
        (c.attribute, "by [SuppressMessage]"),
        (c.global, "by [assembly: SuppressMessage]"),
        (c.net_analyzers, "written for CA2000/CA2213"),
        (c.idisposable_analyzers, "written for IDisposableAnalyzers"),
        (c.resharper, "written for ReSharper"),
        (s.test_code, "in test code"),
    ]
    .into_iter()
    .filter(|(n, _)| *n > 0)
    .map(|(n, how)| format!("{n} {how}"))
    .collect::<Vec<_>>()
    .join(", ")
}

fn plural(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}
