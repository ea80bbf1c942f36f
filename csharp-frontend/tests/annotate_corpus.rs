//! Stress runs over a real repository (ignored by default):
//!
//!     RLC_ANNOTATE_CORPUS=/work/corpus/lucenenet \
//!         cargo test -p rlc-csharp --release --test annotate_corpus -- --ignored --nocapture
//!
//! Every declaration of every file gets attributes of each placement kind
//! (type, member, return, parameter, field variables of every other name, so
//! that declarations get split), with targets taken either from the front
//! end's syntax (`parse_file`, as inference gives them: the preprocessor and
//! grammar repairs applied) or straight from a tree-sitter parse of the file.
//! Checks: no file gets new syntax errors, annotating the result again changes
//! nothing, and the whole patch passes `git apply --check` against the
//! untouched tree.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use rayon::prelude::*;
use rlc_csharp::annotate::{
    AnnotateError, AnnotateOptions, Annotation, AnnotationTarget, FileEdits, annotate_file,
    annotate_files, read_source_text, unified_diff,
};
use rlc_csharp::hir::{MemberKind, Param, TextRange, TypeKind};
use rlc_csharp::parse::{ParseOptions, parse_file};
use tree_sitter::Node;

fn push(out: &mut Vec<Annotation>, target: AnnotationTarget, attribute: &str) {
    out.push(Annotation {
        target,
        attribute: attribute.to_owned(),
    });
}

/// Targets as inference gives them: ranges of the front end's syntax.
fn from_hir(text: &str) -> Vec<Annotation> {
    let body = text.strip_prefix('\u{feff}').unwrap_or(text);
    let file = parse_file(body, &ParseOptions::default());
    let mut out = Vec::new();
    let params = |out: &mut Vec<Annotation>, ps: &[Param]| {
        for p in ps.iter().filter(|p| !p.range.is_empty()) {
            push(
                out,
                AnnotationTarget::Parameter { range: p.range },
                "Owning",
            );
        }
    };
    for ty in &file.types {
        if matches!(
            ty.kind,
            TypeKind::Class
                | TypeKind::Struct
                | TypeKind::Record
                | TypeKind::RecordStruct
                | TypeKind::Interface
        ) {
            push(
                &mut out,
                AnnotationTarget::Type {
                    name: ty.name_range,
                },
                "MustCall(\"Dispose\")",
            );
        }
        params(&mut out, ty.primary_ctor.as_deref().unwrap_or(&[]));
        for m in &ty.members {
            let name = m.name_range;
            match m.kind {
                MemberKind::Method | MemberKind::Operator | MemberKind::Conversion => {
                    push(
                        &mut out,
                        AnnotationTarget::Return { member_name: name },
                        "NotOwning",
                    );
                    if m.kind == MemberKind::Method {
                        push(
                            &mut out,
                            AnnotationTarget::Member { name },
                            "Calls(\"this\", \"Dispose\")",
                        );
                    }
                }
                MemberKind::DelegateInvoke => push(
                    &mut out,
                    AnnotationTarget::Return { member_name: name },
                    "Owning",
                ),
                MemberKind::Constructor => {
                    push(&mut out, AnnotationTarget::Member { name }, "MustCallAlias")
                }
                MemberKind::Property | MemberKind::Indexer => push(
                    &mut out,
                    AnnotationTarget::Return { member_name: name },
                    "NotOwning",
                ),
                MemberKind::Field if name.len() % 2 == 0 => {
                    push(&mut out, AnnotationTarget::Member { name }, "Owning")
                }
                _ => {}
            }
            params(&mut out, &m.params);
        }
    }
    out
}

fn range(n: Node) -> TextRange {
    TextRange::new(n.start_byte() as u32, n.end_byte() as u32)
}

/// Targets read off a tree-sitter parse of the text as it is, outside
/// syntax errors.
fn from_syntax(text: &str) -> Vec<Annotation> {
    let body = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut parser = tree_sitter::Parser::new();
    parser
        .set_language(&tree_sitter_c_sharp::LANGUAGE.into())
        .unwrap();
    let tree = parser.parse(body, None).unwrap();
    let mut out = Vec::new();
    let mut stack = vec![tree.root_node()];
    while let Some(node) = stack.pop() {
        if node.is_error() || node.is_missing() {
            continue;
        }
        let mut cursor = node.walk();
        stack.extend(node.children(&mut cursor));
        let name = node
            .child_by_field_name("name")
            .filter(|n| !n.is_missing() && n.start_byte() < n.end_byte());
        match (node.kind(), name) {
            (
                "class_declaration"
                | "struct_declaration"
                | "record_declaration"
                | "interface_declaration",
                Some(n),
            ) => push(
                &mut out,
                AnnotationTarget::Type { name: range(n) },
                "MustCall(\"Dispose\")",
            ),
            ("method_declaration", Some(n)) => {
                push(
                    &mut out,
                    AnnotationTarget::Return {
                        member_name: range(n),
                    },
                    "NotOwning",
                );
                push(
                    &mut out,
                    AnnotationTarget::Member { name: range(n) },
                    "Calls(\"this\", \"Dispose\")",
                );
            }
            ("constructor_declaration", Some(n)) => push(
                &mut out,
                AnnotationTarget::Member { name: range(n) },
                "MustCallAlias",
            ),
            ("property_declaration", Some(n)) => push(
                &mut out,
                AnnotationTarget::Return {
                    member_name: range(n),
                },
                "NotOwning",
            ),
            ("indexer_declaration", _) => {
                if let Some(this) = (0..node.child_count())
                    .filter_map(|i| node.child(i))
                    .find(|c| c.kind() == "this")
                {
                    push(
                        &mut out,
                        AnnotationTarget::Return {
                            member_name: range(this),
                        },
                        "NotOwning",
                    );
                }
            }
            ("variable_declarator", Some(n))
                if n.byte_range().len() % 2 == 0
                    && node
                        .parent()
                        .and_then(|v| v.parent())
                        .is_some_and(|f| f.kind() == "field_declaration") =>
            {
                push(
                    &mut out,
                    AnnotationTarget::Member { name: range(n) },
                    "Owning",
                )
            }
            ("parameter", Some(n))
                if node
                    .parent()
                    .is_some_and(|l| l.kind() != "lambda_expression") =>
            {
                push(
                    &mut out,
                    AnnotationTarget::Parameter { range: range(n) },
                    "Owning",
                )
            }
            // A `params` array: its name is a field of the parameter list.
            ("parameter_list", _) => {
                for i in 0..node.child_count() {
                    if node.field_name_for_child(i) == Some("name")
                        && let Some(n) = node.child(i)
                    {
                        push(
                            &mut out,
                            AnnotationTarget::Parameter { range: range(n) },
                            "Owning",
                        );
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// Syntax errors the front end finds in the text.
fn front_end_errors(text: &str) -> usize {
    let body = text.strip_prefix('\u{feff}').unwrap_or(text);
    parse_file(body, &ParseOptions::default())
        .syntax_errors
        .len()
}

/// ERROR and MISSING nodes of a tree-sitter parse of the text.
fn syntax_errors(text: &str) -> usize {
    let mut parser = tree_sitter::Parser::new();
    parser
        .set_language(&tree_sitter_c_sharp::LANGUAGE.into())
        .unwrap();
    let tree = parser
        .parse(text.strip_prefix('\u{feff}').unwrap_or(text), None)
        .unwrap();
    let mut count = 0;
    let mut stack = vec![tree.root_node()];
    while let Some(node) = stack.pop() {
        count += usize::from(node.is_error() || node.is_missing());
        if node.has_error() {
            let mut cursor = node.walk();
            stack.extend(node.children(&mut cursor));
        }
    }
    count
}

fn cs_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            cs_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "cs") {
            out.push(path);
        }
    }
}

/// The corpus, or `None` (the test is skipped) when it is not there.
fn corpus() -> Option<PathBuf> {
    let root = PathBuf::from(
        std::env::var("RLC_ANNOTATE_CORPUS").unwrap_or_else(|_| "/work/corpus/lucenenet".into()),
    );
    if root.is_dir() {
        Some(root)
    } else {
        println!("skipped: {} does not exist", root.display());
        None
    }
}

#[test]
#[ignore = "needs a corpus: RLC_ANNOTATE_CORPUS=<repository>"]
fn annotates_a_real_repository_at_front_end_targets() {
    if let Some(root) = corpus() {
        run(&root, from_hir);
    }
}

#[test]
#[ignore = "needs a corpus: RLC_ANNOTATE_CORPUS=<repository>"]
fn annotates_a_real_repository_at_syntax_targets() {
    if let Some(root) = corpus() {
        run(&root, from_syntax);
    }
}

fn run(root: &Path, synthesize: fn(&str) -> Vec<Annotation>) {
    let mut paths = Vec::new();
    cs_files(root, &mut paths);
    paths.sort();
    let files: Vec<FileEdits> = paths
        .par_iter()
        .filter_map(|p| {
            let original = read_source_text(p).ok()?;
            let annotations = synthesize(&original);
            Some(FileEdits {
                path: p.clone(),
                original,
                annotations,
            })
        })
        .collect();
    let annotations: usize = files.iter().map(|f| f.annotations.len()).sum();
    let bytes: usize = files.iter().map(|f| f.original.len()).sum();

    // The floor: parsing every file once, as annotating does twice.
    let started = Instant::now();
    let parsed: usize = files
        .par_iter()
        .map(|f| {
            let mut parser = tree_sitter::Parser::new();
            parser
                .set_language(&tree_sitter_c_sharp::LANGUAGE.into())
                .unwrap();
            parser
                .parse(&f.original, None)
                .map_or(0, |t| t.root_node().child_count() as usize)
        })
        .sum();
    let parse_time = started.elapsed();
    let started = Instant::now();
    let annotated = annotate_files(&files, |_| AnnotateOptions::default());
    let annotate_time = started.elapsed();
    let started = Instant::now();
    let patch = unified_diff(root, &annotated.changed, &[]);
    let diff_time = started.elapsed();
    println!(
        "{} files ({:.1} MB), {annotations} annotations: {} files changed, {} files with errors; \
         parse once {parse_time:.2?} ({parsed} top-level nodes), annotate {annotate_time:.2?}, \
         diff {diff_time:.2?} ({:.1} MB)",
        files.len(),
        bytes as f64 / 1e6,
        annotated.changed.len(),
        annotated.errors.len(),
        patch.len() as f64 / 1e6
    );
    let mut kinds: BTreeMap<String, usize> = BTreeMap::new();
    for (path, e) in &annotated.errors {
        println!("  {}:{e}", path.display());
        let kind = format!("{e:?}");
        *kinds
            .entry(kind.split([' ', '{']).next().unwrap_or("").to_owned())
            .or_default() += 1;
    }
    println!("errors by kind: {kinds:?}");
    // Only fields that cannot be split without losing a comment may fail,
    // and files the front end cannot read either (untranslated sources the
    // build excludes), where targets may name nothing and the parser's error
    // recovery may change with any edit.
    let originals: BTreeMap<&Path, &str> = files
        .iter()
        .map(|f| (f.path.as_path(), f.original.as_str()))
        .collect();
    let unexpected: Vec<_> = annotated
        .errors
        .iter()
        .filter(|(path, e)| {
            let broken =
                || front_end_errors(originals.get(path.as_path()).copied().unwrap_or("")) > 0;
            // Fields declared together cannot take separate attributes; a
            // file the front end cannot read may defeat placement.
            let excused = match e {
                AnnotateError::UnsplittableField { .. } => true,
                AnnotateError::NotFound { .. } | AnnotateError::NewSyntaxErrors { .. } => broken(),
                _ => false,
            };
            !excused
        })
        .collect();
    assert!(unexpected.is_empty(), "unexpected errors: {unexpected:#?}");

    // The patched files re-parse without new syntax errors (as tree-sitter
    // reads them; for files it cannot read as written, grammar gaps, as the
    // front end does), and annotating them again changes nothing.
    let started = Instant::now();
    annotated.changed.par_iter().for_each(|(path, old, new)| {
        let (before, after) = (syntax_errors(old), syntax_errors(new));
        assert!(
            after <= before || (before > 0 && front_end_errors(new) <= front_end_errors(old)),
            "{}: new syntax errors",
            path.display()
        );
        let again = annotate_file(new, &synthesize(new))
            .unwrap_or_else(|e| panic!("{}: second run: {e}", path.display()));
        assert!(
            again == *new,
            "{}: a second run changes the file",
            path.display()
        );
    });
    println!("second run {:.2?}", started.elapsed());

    let patch_file = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(patch_file.path(), &patch).unwrap();
    let check = Command::new("git")
        .current_dir(root)
        .args(["apply", "--check", "--unsafe-paths"])
        .arg(patch_file.path())
        .output()
        .unwrap();
    assert!(
        check.status.success(),
        "git apply --check: {}",
        String::from_utf8_lossy(&check.stderr)
    );
    println!("git apply --check: ok");
}
