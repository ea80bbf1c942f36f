//! The preprocessor: conditional regions, defines, pragmas, offsets.

use super::common::{assert_no_errors, parse, parse_with};
use rlc_csharp::hir::FileSyntax;

fn type_names(file: &FileSyntax) -> Vec<&str> {
    file.types.iter().map(|t| t.name.as_str()).collect()
}

#[test]
fn nested_if_elif_else_with_defines() {
    let src = "#if A\nclass A1 {}\n#if B\nclass AB {}\n#else\nclass ANotB {}\n#endif\n#elif B || (C && !D)\nclass B1 {}\n#else\nclass Other {}\n#endif\n";
    assert_eq!(type_names(&parse_with(src, &["A", "B"])), ["A1", "AB"]);
    assert_eq!(type_names(&parse_with(src, &["A"])), ["A1", "ANotB"]);
    assert_eq!(type_names(&parse_with(src, &["B"])), ["B1"]);
    assert_eq!(type_names(&parse_with(src, &["C"])), ["B1"]);
    assert_eq!(type_names(&parse_with(src, &["C", "D"])), ["Other"]);
    assert_eq!(type_names(&parse_with(src, &[])), ["Other"]);
}

#[test]
fn expressions_with_equality_and_literals() {
    let src = "#if (A == true) && (B != false) && !false\nclass Yes {}\n#endif\n#if A == B\nclass Same {}\n#endif\n";
    assert_eq!(type_names(&parse_with(src, &["A", "B"])), ["Yes", "Same"]);
    assert_eq!(type_names(&parse_with(src, &[])), ["Same"]);
}

#[test]
fn define_and_undef_in_the_file() {
    let src = "#define X\n#undef DEBUG\n#if X && !DEBUG\nclass C {}\n#endif\n";
    assert_eq!(type_names(&parse_with(src, &["DEBUG"])), ["C"]);
}

#[test]
fn branches_that_each_open_a_construct_parse() {
    // Each branch opens the class differently; only the active one is seen.
    let src = "#if NET\npublic sealed class C : IAsyncDisposable\n#else\ninternal class C : IDisposable\n#endif\n{\n    void M(\n#if NET\n        int a\n#else\n        long a\n#endif\n    ) { }\n}\n";
    for defines in [&["NET"][..], &[]] {
        let file = parse_with(src, defines);
        assert_no_errors(&file, src);
        assert_eq!(file.types[0].members.len(), 1);
    }
    let file = parse_with(src, &["NET"]);
    assert_eq!(file.types[0].bases.len(), 1);
    assert_eq!(
        rlc_csharp::hir::dump::type_ref(&file.types[0].bases[0]),
        "IAsyncDisposable"
    );
}

#[test]
fn offsets_and_lines_are_preserved() {
    let src = "#if X\r\nclass Hidden { void M() { } }\r\n#endif\r\nclass Visible { }\r\n";
    let file = parse(src);
    assert_eq!(type_names(&file), ["Visible"]);
    let t = &file.types[0];
    assert_eq!(
        &src[t.name_range.start as usize..t.name_range.end as usize],
        "Visible"
    );
    assert_eq!(file.inactive_lines, 1);
}

#[test]
fn inactive_region_spanning_braces_and_strings() {
    let src = "class C {\n#if NEVER\n  void M() { var s = \"unterminated;\n  }\n#else\n  void N() { }\n#endif\n}\n";
    let file = parse(src);
    assert_no_errors(&file, src);
    assert_eq!(file.types[0].members[0].name, "N");
    assert_eq!(file.inactive_lines, 2);
}

#[test]
fn directives_inside_strings_and_comments_are_text() {
    let src = "class C {\n  string a = @\"\n#if X\n\";\n  string b = \"\"\"\n    #endif\n    \"\"\";\n  /*\n#if Y\n  */\n  int c;\n}\n";
    let file = parse(src);
    assert_no_errors(&file, src);
    assert_eq!(file.types[0].members.len(), 3);
}

#[test]
fn pragmas_are_recorded_with_their_offsets() {
    let src = "#pragma warning disable RLC0001, CA2000 // why\nclass C {\n#pragma warning restore RLC0001\n#pragma warning disable\n#nullable enable\n#region R\n}\n#endregion\n";
    let file = parse(src);
    assert_no_errors(&file, src);
    let p: Vec<(u32, bool, Vec<String>)> = file
        .pragmas
        .iter()
        .map(|p| (p.offset, p.disable, p.ids.clone()))
        .collect();
    let second = src.find("#pragma warning restore").unwrap_or(0) as u32;
    assert_eq!(
        p[0],
        (0, true, vec!["RLC0001".to_string(), "CA2000".to_string()])
    );
    assert_eq!(p[1], (second, false, vec!["RLC0001".to_string()]));
    assert!(p[2].1 && p[2].2.is_empty());
    // Pragmas in inactive regions do not count.
    let file = parse("#if NO\n#pragma warning disable X\n#endif\n");
    assert!(file.pragmas.is_empty());
}

#[test]
fn unbalanced_directives_are_reported_not_fatal() {
    let file = parse("#if A\nclass C {}\n");
    assert!(
        file.syntax_errors
            .iter()
            .any(|e| e.message.contains("without `#endif`"))
    );
    let file = parse("class C {}\n#endif\n#else\n#elif X\n#frob\n#if (A\n#endif\n");
    let messages: Vec<&str> = file
        .syntax_errors
        .iter()
        .map(|e| e.message.as_str())
        .collect();
    assert!(
        messages
            .iter()
            .any(|m| m.contains("`#endif` without `#if`")),
        "{messages:?}"
    );
    assert!(
        messages.iter().any(|m| m.contains("`#else` without `#if`")),
        "{messages:?}"
    );
    assert!(
        messages
            .iter()
            .any(|m| m.contains("unknown preprocessor directive `#frob`")),
        "{messages:?}"
    );
    assert!(
        messages.iter().any(|m| m.contains("cannot evaluate")),
        "{messages:?}"
    );
    assert_eq!(type_names(&file), ["C"]);
}
