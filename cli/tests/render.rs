//! The output formats on diagnostics built by hand.

use std::path::Path;

use rlc_core::diagnostics::{Diagnostic, Label, Severity, SpecFact};
use rlc_core::program::Provenance;
use rlc_core::{FileId, Span};
use rlc_sharp::render::{Sources, Summary, github, human, json, sarif};

const READER: &str = "using System.IO;\n\nclass Reader\n{\n    string First(string path)\n    {\n        var s = new StreamReader(path);\n        return s.ReadLine();\n    }\n}\n";

fn span(text: &str, needle: &str) -> Span {
    let start = text.find(needle).expect("needle") as u32;
    Span::new(FileId(0), start, start + needle.len() as u32)
}

fn leak() -> Diagnostic {
    let mut d = Diagnostic::new(
        "RLC0001",
        "`s` (a StreamReader) is not disposed",
        Label { span: span(READER, "new StreamReader(path)"), message: "allocated here".into() },
    )
    .with_secondary(span(READER, "return s.ReadLine();"), "leaks here: the method returns")
    .with_note("`StreamReader` must call `Dispose()`")
    .with_help("declare it with `using var s = ...`");
    d.facts.push(SpecFact { fact: "`StreamReader` must call `Dispose()`".into(), provenance: Provenance::Library, reason: None });
    d.fingerprint = "RLC0001:Reader.First(string):StreamReader:0".into();
    d
}

#[test]
fn show() {
    let diags = vec![leak()];
    let mut sources = Sources::new();
    sources.add(FileId(0), "src/Reader.cs", READER);
    let summary = Summary { files: 3, ..Summary::default() };
    println!("{}", human::render(&diags, &sources, &summary, human::HumanOptions::default()));
    println!("{}", json::render(&diags, &sources, &summary));
    println!("{}", sarif::render(&diags, &sources, &summary, Path::new("/work/repo")));
    println!("{}", github::render(&diags, &sources));
}
