//! GitHub Actions workflow commands: one `::error file=..::message` annotation
//! per finding, shown on the pull request's diff. GitHub places an annotation
//! by its path from the repository root, so the [`Sources`] given here should
//! name files relative to the working directory of the job (the checkout), not
//! to the checked root when that is a subdirectory.

use rlc_core::rules::Severity;

use super::{Sources, frameworks_note};
use crate::findings::Finding;

/// One workflow command per line.
pub fn render(findings: &[Finding], sources: &Sources<'_>) -> String {
    let mut out = String::new();
    for f in findings {
        let d = &f.diagnostic;
        let command = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "notice",
        };
        let mut props = Vec::new();
        if let (Some(file), Some(r)) = (
            sources.name(d.primary.span.file),
            sources.region(d.primary.span),
        ) {
            props.push(format!("file={}", escape_property(file)));
            props.push(format!("line={}", r.start_line));
            props.push(format!("col={}", r.start_column));
            props.push(format!("endLine={}", r.end_line));
            props.push(format!("endColumn={}", r.end_column));
        }
        let title = format!("{} {}", d.rule, d.rule.name());
        props.push(format!("title={}", escape_property(&title)));
        let mut message = d.message.clone();
        for label in &d.secondary {
            match sources.location(label.span) {
                Some(at) => message.push_str(&format!("\n{} ({at})", label.message)),
                None => message.push_str(&format!("\n{}", label.message)),
            }
        }
        for note in d.notes.iter().chain(&frameworks_note(f)) {
            message.push_str(&format!("\nnote: {note}"));
        }
        if let Some(help) = &d.help {
            message.push_str(&format!("\nhelp: {help}"));
        }
        out.push_str(&format!(
            "::{command} {}::{}\n",
            props.join(","),
            escape_data(&message)
        ));
    }
    out
}

/// Escapes a command's message.
fn escape_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a property value, where `:` and `,` are delimiters too.
fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping() {
        assert_eq!(
            escape_data("100% done\r\nnext: a, b"),
            "100%25 done%0D%0Anext: a, b"
        );
        assert_eq!(escape_property("a:b,c%\n"), "a%3Ab%2Cc%25%0A");
    }
}
