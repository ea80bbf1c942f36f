//! Suppressions written for other analyzers of the same bugs: the .NET
//! analyzers' CA2000 and CA2213, IDisposableAnalyzers' IDISP rules and
//! ReSharper's disposal inspections. A team that triaged those findings
//! (`#pragma warning disable CA2000`, `[SuppressMessage(..., "IDISP001")]`,
//! `// ReSharper disable once NotDisposedResource`) should not triage them
//! again; each id maps to the rlc-sharp rules that report the same thing.

use rlc_core::rules::RuleId;
use serde::Serialize;

/// The analyzer a suppression was written for.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Tool {
    /// Microsoft.CodeAnalysis.NetAnalyzers (`CA2000`, `CA2213`).
    NetAnalyzers,
    /// IDisposableAnalyzers (`IDISP001`, ...).
    IDisposableAnalyzers,
    /// JetBrains ReSharper and Rider inspections.
    ReSharper,
}

use RuleId::{
    MissingCreatesMustCallFor, OwningFieldNotDisposed, ResourceLeak, ResourceLeakOnException,
    ResourceOverwritten,
};

/// Other analyzers' ids and the rules that report the same bug.
const FOREIGN: &[(&str, Tool, &[RuleId])] = &[
    // "Dispose objects before losing scope", exceptional paths included.
    (
        "CA2000",
        Tool::NetAnalyzers,
        &[ResourceLeak, ResourceLeakOnException],
    ),
    // "Disposable fields should be disposed".
    ("CA2213", Tool::NetAnalyzers, &[OwningFieldNotDisposed]),
    // "Dispose created".
    (
        "IDISP001",
        Tool::IDisposableAnalyzers,
        &[ResourceLeak, ResourceLeakOnException],
    ),
    // "Dispose member".
    (
        "IDISP002",
        Tool::IDisposableAnalyzers,
        &[OwningFieldNotDisposed],
    ),
    // "Dispose previous before re-assigning".
    (
        "IDISP003",
        Tool::IDisposableAnalyzers,
        &[ResourceOverwritten, MissingCreatesMustCallFor],
    ),
    // "Don't ignore created IDisposable".
    ("IDISP004", Tool::IDisposableAnalyzers, &[ResourceLeak]),
    // "Implement IDisposable" (a class that owns a disposable member).
    (
        "IDISP006",
        Tool::IDisposableAnalyzers,
        &[OwningFieldNotDisposed],
    ),
    (
        "NotDisposedResource",
        Tool::ReSharper,
        &[ResourceLeak, ResourceLeakOnException],
    ),
    (
        "NotDisposedResourceIsReturned",
        Tool::ReSharper,
        &[ResourceLeak],
    ),
    (
        "NotDisposedResourceIsReturnedByProperty",
        Tool::ReSharper,
        &[ResourceLeak],
    ),
];

/// The tool of a foreign id as written (`CA2000`, `CA2000:Dispose objects...`,
/// `NotDisposedResource`) when it reports `rule`'s bug.
pub(super) fn tool_for(written: &str, rule: RuleId) -> Option<Tool> {
    let id = written.split_once(':').map_or(written, |(id, _)| id).trim();
    FOREIGN
        .iter()
        .find(|(f, _, rules)| f.eq_ignore_ascii_case(id) && rules.contains(&rule))
        .map(|(_, tool, _)| *tool)
}

/// A `// ReSharper disable ...` comment's reach: byte offsets and inspection names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct ReSharperRegion {
    pub start: u32,
    pub end: u32,
    /// Inspection names as written; `All` covers every inspection.
    pub names: Vec<String>,
}

impl ReSharperRegion {
    /// Whether this region suppresses `rule` at `offset`.
    pub fn covers(&self, offset: u32, rule: RuleId) -> bool {
        self.start <= offset
            && offset < self.end
            && self.names.iter().any(|n| {
                n.eq_ignore_ascii_case("All") || tool_for(n, rule) == Some(Tool::ReSharper)
            })
    }
}

/// The regions ReSharper's comments suppress in a file:
/// `// ReSharper disable once X, Y` covers the next statement (from the next
/// line with code to its `;` or opening `{`), `// ReSharper disable X` runs to
/// `// ReSharper restore X` or the end of the file. Comments are recognised
/// at the start of a line.
pub(super) fn resharper_regions(text: &str) -> Vec<ReSharperRegion> {
    let mut out: Vec<ReSharperRegion> = Vec::new();
    // Open `disable` regions: name, start.
    let mut open: Vec<(String, u32)> = Vec::new();
    let mut at = 0usize;
    for line in text.split_inclusive('\n') {
        let line_start = at;
        at += line.len();
        let Some(rest) = line.trim_start().strip_prefix("//") else {
            continue;
        };
        let mut words = rest.split_whitespace();
        if words.next() != Some("ReSharper") {
            continue;
        }
        let verb = words.next();
        let once = verb == Some("disable") && rest.split_whitespace().nth(2) == Some("once");
        if once {
            words.next();
        }
        let names: Vec<String> = words
            .flat_map(|w| w.split(','))
            .map(str::trim)
            .filter(|n| !n.is_empty())
            .map(str::to_owned)
            .collect();
        if names.is_empty() {
            continue;
        }
        match verb {
            Some("disable") if once => {
                let (start, end) = next_statement(text, at);
                out.push(ReSharperRegion {
                    start: start as u32,
                    end: end as u32,
                    names,
                });
            }
            Some("disable") => {
                open.extend(names.into_iter().map(|n| (n, line_start as u32)));
            }
            Some("restore") => {
                for name in names {
                    let closing: Vec<(String, u32)> = open
                        .iter()
                        .filter(|(n, _)| n.eq_ignore_ascii_case(&name))
                        .cloned()
                        .collect();
                    open.retain(|(n, _)| !n.eq_ignore_ascii_case(&name));
                    out.extend(closing.into_iter().map(|(n, start)| ReSharperRegion {
                        start,
                        end: line_start as u32,
                        names: vec![n],
                    }));
                }
            }
            _ => {}
        }
    }
    out.extend(open.into_iter().map(|(n, start)| ReSharperRegion {
        start,
        end: text.len() as u32,
        names: vec![n],
    }));
    out
}

/// The statement after `from`: from the first line that is not blank or a
/// `//` comment to its first `;` or `{` outside brackets, strings and chars.
fn next_statement(text: &str, from: usize) -> (usize, usize) {
    let mut start = from;
    for line in text.get(from..).unwrap_or("").split_inclusive('\n') {
        let trimmed = line.trim_start();
        if !trimmed.is_empty() && !trimmed.starts_with("//") {
            start += line.len() - trimmed.len();
            break;
        }
        start += line.len();
    }
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut i = start;
    while i < bytes.len() {
        match bytes[i] {
            b'(' | b'[' => depth += 1,
            b')' | b']' => depth = depth.saturating_sub(1),
            b'{' if depth == 0 => return (start, i + 1),
            b'{' => depth += 1,
            b'}' => depth = depth.saturating_sub(1),
            b';' if depth == 0 => return (start, i + 1),
            b'"' | b'\'' => {
                let quote = bytes[i];
                i += 1;
                while i < bytes.len() && bytes[i] != quote && bytes[i] != b'\n' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
            }
            _ => {}
        }
        i += 1;
    }
    (start, text.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn foreign_ids_map_to_the_rules_of_the_same_bug() {
        assert_eq!(tool_for("CA2000", ResourceLeak), Some(Tool::NetAnalyzers));
        assert_eq!(
            tool_for(
                "CA2000:Dispose objects before losing scope",
                ResourceLeakOnException
            ),
            Some(Tool::NetAnalyzers)
        );
        assert_eq!(
            tool_for("ca2213", OwningFieldNotDisposed),
            Some(Tool::NetAnalyzers)
        );
        assert_eq!(tool_for("CA2213", ResourceLeak), None);
        assert_eq!(
            tool_for(
                "IDISP003:Dispose previous before re-assigning",
                ResourceOverwritten
            ),
            Some(Tool::IDisposableAnalyzers)
        );
        assert_eq!(
            tool_for("NotDisposedResource", ResourceLeak),
            Some(Tool::ReSharper)
        );
        assert_eq!(tool_for("CA1001", OwningFieldNotDisposed), None);
    }

    #[test]
    fn resharper_comments_cover_the_next_statement_or_a_region() {
        let text = "class C {\n  void M() {\n    // ReSharper disable once NotDisposedResource\n    var a = new A(\n        x);\n    var b = new B();\n    // ReSharper disable NotDisposedResource, InconsistentNaming\n    var c = new C();\n    // ReSharper restore NotDisposedResource\n    var d = new D();\n  }\n}\n";
        let regions = resharper_regions(text);
        let at = |needle: &str| text.find(needle).unwrap() as u32;
        let covered = |needle: &str| regions.iter().any(|r| r.covers(at(needle), ResourceLeak));
        assert!(covered("new A") && covered("x);"));
        assert!(!covered("new B"));
        assert!(covered("new C"));
        assert!(!covered("new D"));
        // InconsistentNaming stays open to the end, but is not a leak inspection.
        assert!(
            regions
                .iter()
                .any(|r| r.names == ["InconsistentNaming"] && r.end == text.len() as u32)
        );
        assert!(
            !regions
                .iter()
                .any(|r| r.covers(at("new A"), OwningFieldNotDisposed))
        );
    }

    #[test]
    fn disable_once_skips_blank_and_comment_lines_and_all_covers_everything() {
        let text = "// ReSharper disable once All\n\n// why\nFoo(\"a;b\", ';');\nBar();\n";
        let regions = resharper_regions(text);
        assert_eq!(regions.len(), 1);
        let r = &regions[0];
        assert_eq!(
            &text[r.start as usize..r.end as usize],
            "Foo(\"a;b\", ';');"
        );
        assert!(r.covers(r.start, ResourceOverwritten));
    }
}
