//! Helpers shared by the annotate tests: targets found by text, and the
//! checks every annotated text must pass.
#![allow(dead_code)]

use rlc_csharp::annotate::{AnnotateOptions, Annotation, AnnotationTarget, annotate_file_with};
use rlc_csharp::hir::TextRange;

/// The range of `needle` inside the first occurrence of `context` (offsets
/// after a byte-order mark, as targets are given).
pub fn at(text: &str, context: &str, needle: &str) -> TextRange {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let c = text
        .find(context)
        .unwrap_or_else(|| panic!("{context:?} not in:\n{text}"));
    let n = context
        .find(needle)
        .unwrap_or_else(|| panic!("{needle:?} not in {context:?}"));
    TextRange::new((c + n) as u32, (c + n + needle.len()) as u32)
}

pub fn ty(text: &str, context: &str, name: &str, attribute: &str) -> Annotation {
    annotation(
        AnnotationTarget::Type {
            name: at(text, context, name),
        },
        attribute,
    )
}

pub fn member(text: &str, context: &str, name: &str, attribute: &str) -> Annotation {
    annotation(
        AnnotationTarget::Member {
            name: at(text, context, name),
        },
        attribute,
    )
}

pub fn ret(text: &str, context: &str, name: &str, attribute: &str) -> Annotation {
    annotation(
        AnnotationTarget::Return {
            member_name: at(text, context, name),
        },
        attribute,
    )
}

/// The parameter written as `context`.
pub fn param(text: &str, context: &str, attribute: &str) -> Annotation {
    annotation(
        AnnotationTarget::Parameter {
            range: at(text, context, context),
        },
        attribute,
    )
}

/// The parameter written as `needle` inside `context`.
pub fn param_in(text: &str, context: &str, needle: &str, attribute: &str) -> Annotation {
    annotation(
        AnnotationTarget::Parameter {
            range: at(text, context, needle),
        },
        attribute,
    )
}

fn annotation(target: AnnotationTarget, attribute: &str) -> Annotation {
    Annotation {
        target,
        attribute: attribute.to_owned(),
    }
}

/// ERROR and MISSING nodes of the text's syntax tree.
pub fn syntax_errors(text: &str) -> usize {
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
        if node.is_error() || node.is_missing() {
            count += 1;
        }
        let mut cursor = node.walk();
        stack.extend(node.children(&mut cursor));
    }
    count
}

/// Annotates with targets found by `targets` in the text, checks that the
/// result has no new syntax errors and that annotating it again (targets
/// found anew) changes nothing, and returns it.
pub fn annotate_with(
    original: &str,
    options: &AnnotateOptions,
    targets: impl Fn(&str) -> Vec<Annotation>,
) -> String {
    let once = annotate_file_with(original, &targets(original), options)
        .unwrap_or_else(|e| panic!("{e}\n{original}"));
    assert!(
        syntax_errors(&once) <= syntax_errors(original),
        "new syntax errors in:\n{once}"
    );
    let twice = annotate_file_with(&once, &targets(&once), options)
        .unwrap_or_else(|e| panic!("second run: {e}\n{once}"));
    assert_eq!(once, twice, "annotating twice differs from annotating once");
    once
}

pub fn annotate(original: &str, targets: impl Fn(&str) -> Vec<Annotation>) -> String {
    annotate_with(original, &AnnotateOptions::default(), targets)
}

/// The same with the namespace already imported, to look at placement alone.
pub fn place(original: &str, targets: impl Fn(&str) -> Vec<Annotation>) -> String {
    annotate_with(
        original,
        &AnnotateOptions {
            namespace: None,
            ..AnnotateOptions::default()
        },
        targets,
    )
}
