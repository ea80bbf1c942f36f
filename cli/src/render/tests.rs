use std::path::Path;

use codespan_reporting::files::Files;
use rlc_core::{FileId, Span};

use super::*;

#[test]
fn names_are_relative_to_the_root_with_slashes() {
    let root = Path::new("/work/repo");
    assert_eq!(
        relative_name(root, Path::new("/work/repo/src/A.cs")),
        "src/A.cs"
    );
    assert_eq!(
        relative_name(Path::new("./repo"), Path::new("repo/./src/A.cs")),
        "src/A.cs"
    );
    assert_eq!(
        relative_name(Path::new("."), Path::new("src/A.cs")),
        "src/A.cs"
    );
    assert_eq!(
        relative_name(root, Path::new("/elsewhere/B.cs")),
        "/elsewhere/B.cs"
    );
    assert_eq!(relative_name(root, Path::new("/work/repo")), "/work/repo");
}

#[test]
fn regions_are_one_based_in_characters() {
    let mut s = Sources::new();
    s.add(FileId(3), "a.cs", "ab\nçd = x;\n");
    let r = s.region(Span::new(FileId(3), 5, 9)).expect("known file");
    assert_eq!(
        r,
        Region {
            start_line: 2,
            start_column: 2,
            end_line: 2,
            end_column: 6
        }
    );
    assert_eq!(
        s.location(Span::new(FileId(3), 0, 1)).as_deref(),
        Some("a.cs:1:1")
    );
    assert_eq!(s.region(Span::new(FileId(4), 0, 1)), None);
}

#[test]
fn byte_ranges_are_clamped_to_the_text_and_char_boundaries() {
    let mut s = Sources::new();
    s.add(FileId(0), "a.cs", "çç");
    assert_eq!(s.byte_range(Span::new(FileId(0), 1, 99)), Some(0..4));
    assert_eq!(s.byte_range(Span::new(FileId(0), 3, 1)), Some(2..2));
}

#[test]
fn codespan_line_ranges() {
    let mut s = Sources::new();
    s.add(FileId(0), "a.cs", "one\ntwo");
    assert_eq!(s.line_range(FileId(0), 0).ok(), Some(0..4));
    assert_eq!(s.line_range(FileId(0), 1).ok(), Some(4..7));
    assert!(s.line_range(FileId(0), 2).is_err());
    assert_eq!(s.line_index(FileId(0), 5).ok(), Some(1));
    assert!(s.source(FileId(1)).is_err());
}
