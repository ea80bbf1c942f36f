//! Helpers: parse a snippet and render (part of) its HIR.

use rlc_csharp::hir::{self, FileSyntax};
use rlc_csharp::parse::{ParseOptions, parse_file};

pub fn parse(src: &str) -> FileSyntax {
    parse_file(src, &ParseOptions::default())
}

pub fn parse_with(src: &str, defines: &[&str]) -> FileSyntax {
    parse_file(src, &ParseOptions::with_defines(defines.iter().copied()))
}

/// The whole file's dump.
pub fn dump(src: &str) -> String {
    hir::dump(&parse(src), src)
}

/// The dump of one body (its header line dropped, indentation removed).
pub fn body_dump(file: &FileSyntax, src: &str, body: usize) -> String {
    let all = hir::dump(file, src);
    let header = format!("body#{body}");
    let mut out = Vec::new();
    let mut inside = false;
    for line in all.lines() {
        if line.starts_with("body#") || !line.starts_with(' ') {
            inside = line == header || line.starts_with(&format!("{header} "));
            continue;
        }
        if inside {
            out.push(line.strip_prefix("  ").unwrap_or(line));
        }
    }
    out.join("\n")
}

/// Statements in `void M(object o, string s) { ... }`: the method body's
/// dump, without the `(bindings ...)` line.
pub fn stmts(body: &str) -> String {
    let src = format!("class C {{ void M(object o, string s) {{\n{body}\n}} }}");
    let file = parse(&src);
    assert_no_errors(&file, &src);
    let d = body_dump(&file, &src, 0);
    let lines: Vec<&str> = d
        .lines()
        .filter(|l| !l.trim_start().starts_with("(bindings"))
        .collect();
    // Drop the outer `(block` and its closing parenthesis.
    let inner: Vec<String> = lines
        .iter()
        .skip(1)
        .map(|l| l.strip_prefix("  ").unwrap_or(l).to_string())
        .collect();
    let mut text = inner.join("\n");
    if text.ends_with(')') {
        text.pop();
    }
    text
}

/// One expression: `var r = <expr>;`, the initializer's rendering.
pub fn expr(e: &str) -> String {
    let s = stmts(&format!("var r = {e};"));
    let s = s.trim();
    s.strip_prefix("(local r#2 = ")
        .and_then(|s| s.strip_suffix(')'))
        .unwrap_or(s)
        .to_string()
}

/// The bindings line of the first body.
pub fn bindings(src: &str) -> String {
    let file = parse(src);
    assert_no_errors(&file, src);
    body_dump(&file, src, 0)
        .lines()
        .find(|l| l.trim_start().starts_with("(bindings"))
        .unwrap_or("")
        .trim()
        .to_string()
}

pub fn assert_no_errors(file: &FileSyntax, src: &str) {
    assert!(
        file.syntax_errors.is_empty(),
        "unexpected syntax errors: {:?}\n{}",
        file.syntax_errors,
        hir::dump(file, src)
    );
}
