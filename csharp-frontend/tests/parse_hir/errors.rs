//! Broken and hostile input: located errors, skipped bodies, no panics.

use super::common::{body_dump, dump, parse};
use rlc_csharp::hir::SkipReason;

#[test]
fn errors_are_located_and_only_their_statement_is_cut() {
    let src = "class C {\n  void Good() { x = 1; }\n  void Bad() { x = ; }\n  void Missing() { Foo( }\n  int Arrow() => (1 +);\n}\nclass D { }\n";
    let file = parse(src);
    let names: Vec<&str> = file.types.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["C", "D"]);
    let members = &file.types[0].members;
    assert_eq!(members.len(), 4);
    let skip = |i: usize| members[i].body.map(|b| file.body(b).skip);
    assert_eq!(skip(0), Some(None));
    // A block's broken statement is cut; an expression body is all there is.
    assert_eq!(skip(1), Some(None));
    assert!(body_dump(&file, src, 1).contains("(broken)"));
    assert_eq!(skip(3), Some(Some(SkipReason::SyntaxError)));
    assert!(members[1].has_error && !members[0].has_error);
    let bad_line = src.find("x = ;").unwrap_or(0) as u32;
    assert!(
        file.syntax_errors
            .iter()
            .any(|e| e.range.start >= bad_line && e.range.start < bad_line + 6),
        "{:?}",
        file.syntax_errors
    );
    assert!(file.syntax_errors.iter().all(|e| !e.message.is_empty()));
}

#[test]
fn messages_name_the_token() {
    let messages = |src: &str| -> Vec<String> {
        parse(src)
            .syntax_errors
            .into_iter()
            .map(|e| e.message)
            .collect()
    };
    assert_eq!(
        messages("class C { void M() { F(1)); } }"),
        ["unexpected `)`"]
    );
    assert_eq!(
        messages("class C { void M() { G(1, 2; } }"),
        ["expected `)`"]
    );
    assert_eq!(
        messages("class C { void M() { x = ; } }"),
        ["expected identifier"]
    );
    assert_eq!(
        messages("class C { void M() { var x = 1 } }"),
        ["cannot parse `var x = 1`"]
    );
}

fn assert_too_deep(src: &str) {
    let file = parse(src);
    assert!(
        file.bodies
            .iter()
            .any(|b| b.skip == Some(SkipReason::TooDeep)),
        "no body marked too deep"
    );
    assert!(
        file.limits
            .iter()
            .any(|e| e.message.contains("nested too deeply"))
    );
    // The dump walks the HIR recursively too.
    assert!(!rlc_csharp::hir::dump(&file, src).is_empty());
}

#[test]
fn ten_thousand_levels_of_nesting_do_not_overflow_the_stack() {
    let n = 10_000;
    assert_too_deep(&format!(
        "class C {{ int M() => {}1{}; }}",
        "(".repeat(n),
        ")".repeat(n)
    ));
    assert_too_deep(&format!("class C {{ int M() => {}a; }}", "a+".repeat(n)));
    assert_too_deep(&format!(
        "class C {{ void M() {{ {}{} }} }}",
        "{".repeat(n),
        "}".repeat(n)
    ));
    assert_too_deep(&format!(
        "class C {{ void M() {{ {} x(); }} }}",
        "if (a) ".repeat(n)
    ));
    assert_too_deep(&format!(
        "class C {{ void M() {{ if (a) x(); {} }} }}",
        "else if (a) x(); ".repeat(n)
    ));
    assert_too_deep(&format!("class C {{ object M() => a{}; }}", ".b".repeat(n)));
    assert_too_deep(&format!("class C {{ object M() => a{}; }}", "()".repeat(n)));
    assert_too_deep(&format!(
        "class C {{ object M() => {}1; }}",
        "x => ".repeat(n)
    ));
    assert_too_deep(&format!("class C {{ int M() => {}1; }}", "-".repeat(n)));
    assert_too_deep(&format!(
        "class C {{ bool M() => o is {}1; }}",
        "not ".repeat(n)
    ));
    assert_too_deep(&format!(
        "class C {{ bool M() => o is {}1{}; }}",
        "{ A: ".repeat(n),
        " }".repeat(n)
    ));
    assert_too_deep(&format!(
        "class C {{ object f = {}1{}; }}",
        "new X { A = ".repeat(n),
        " }".repeat(n)
    ));
    assert_too_deep(&format!(
        "class C {{ object f = {}{}; }}",
        "new[] { ".repeat(n),
        " }".repeat(n)
    ));
}

#[test]
fn deep_declarations_and_types_are_cut_without_overflow() {
    let n = 10_000;
    let file = parse(&format!("{}{}", "class A { ".repeat(n), "}".repeat(n)));
    assert!(file.types.len() < 100);
    assert!(
        file.limits
            .iter()
            .any(|e| e.message.contains("nested too deeply"))
    );
    let file = parse(&format!("{}{}", "namespace A { ".repeat(n), "}".repeat(n)));
    assert!(file.scopes.len() < 100);
    let src = format!(
        "class C {{ {}int{} f; [A({}1{})] void M() {{ }} }}",
        "A<".repeat(n),
        ">".repeat(n),
        "(".repeat(n),
        ")".repeat(n)
    );
    let file = parse(&src);
    assert_eq!(file.types[0].members.len(), 2);
    let file = parse(&format!(
        "#if {}A{}\nclass C {{}}\n#endif\n",
        "(".repeat(n),
        ")".repeat(n)
    ));
    assert!(
        file.syntax_errors
            .iter()
            .any(|e| e.message.contains("cannot evaluate"))
    );
}

#[test]
fn long_literal_concatenations_are_one_constant() {
    let src = format!(
        "class C {{ string s = {}\"a\"; }}",
        "\"a\" + ".repeat(10_000)
    );
    let file = parse(&src);
    assert!(file.syntax_errors.is_empty());
    assert!(file.bodies[0].skip.is_none());
}

#[test]
fn fifty_thousand_lines_parse_quickly() {
    let mut src = String::from("namespace N {\nclass Big {\n");
    let mut lines = 2;
    let mut i = 0;
    while lines < 50_000 {
        src.push_str(&format!(
            "  public int M{i}(int a, string s)\n  {{\n    using var r = new StreamReader(s);\n    if (a > {i}) return r.Read() + a;\n    var x = s?.Length ?? 0;\n    return x;\n  }}\n"
        ));
        lines += 7;
        i += 1;
    }
    src.push_str("}\n}\n");
    let start = std::time::Instant::now();
    let file = parse(&src);
    let elapsed = start.elapsed();
    assert!(file.syntax_errors.is_empty());
    assert_eq!(file.types[0].members.len(), i);
    assert_eq!(file.bodies.len(), i);
    // Generous bound: debug build on a loaded 2-core machine.
    assert!(elapsed.as_secs() < 60, "{elapsed:?}");
}

#[test]
fn garbage_never_panics() {
    let samples = [
        "",
        "\0",
        "}",
        "{{{{",
        "class",
        "class C : { void",
        "#if",
        "#if A\n#elif\n#else\n#else\n",
        "\"",
        "@\"",
        "$\"{",
        "$@\"{\"",
        "\"\"\"",
        "'",
        "/*",
        "class C { void M() { a?.; ?. = ; x => => ; } }",
        "[[[[",
        "namespace ;",
        "using = ;",
        "class C { int this[] { } }",
        "enum E { , , }",
        "delegate;",
        "record R(;",
        "a ?. b ?[ c",
        "class C { void M() { switch { case : } } }",
        "class C { object o = new { = }; }",
        "æøå 漢字 \u{feff} \u{a0}",
        "class C { void M() { var (a, (b, ) = ; } }",
        "#pragma warning disable\n#region\n#endregion\n#line 1 \"x\"\n",
    ];
    for s in samples {
        let file = parse(s);
        assert!(!file.scopes.is_empty(), "{s:?}");
        let _ = dump(s);
    }
    // Every prefix of a realistic file.
    let src = "using System;\nnamespace N {\n  [A(\"x\")] public class C<T> : IDisposable where T : new() {\n    private Stream _s = new MemoryStream();\n    public async Task<int> M(bool async, int[] xs) { foreach (var (a, b) in Pairs()) { if (a?.B is { C: > 1 } p) return p.C; } return xs switch { [..] => 0, _ => $@\"{async}\"\"\".Length }; }\n    public void Dispose() => _s?.Dispose();\n  }\n}\n";
    for end in 0..=src.len() {
        if src.is_char_boundary(end) {
            let _ = parse(&src[..end]);
        }
    }
}

#[test]
fn hir_expressions_stay_compact() {
    assert!(std::mem::size_of::<rlc_csharp::hir::Expr>() <= 48);
    assert!(std::mem::size_of::<rlc_csharp::hir::Stmt>() <= 48);
    assert!(std::mem::size_of::<rlc_csharp::hir::Pat>() <= 48);
}

#[test]
fn parses_from_many_threads_at_once() {
    let srcs: Vec<String> = (0..64)
        .map(|i| format!("class C{i} {{ void M() {{ var x = {i}; }} }}"))
        .collect();
    let handles: Vec<_> = srcs
        .chunks(16)
        .map(|chunk| {
            let chunk = chunk.to_vec();
            std::thread::spawn(move || {
                chunk
                    .iter()
                    .map(|s| parse(s).types[0].name.to_string())
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    let names: Vec<String> = handles
        .into_iter()
        .flat_map(|h| h.join().unwrap_or_default())
        .collect();
    assert_eq!(names.len(), 64);
    assert!(names.iter().enumerate().all(|(i, n)| *n == format!("C{i}")));
}

/// A name of 22,000 dotted parts in each position a name can take is dropped
/// with a note located at the name, and the declarations beside it are read.
#[test]
fn long_dotted_names_are_dropped_with_a_located_note() {
    let dotted = (0..22_000)
        .map(|i| format!("A{i}"))
        .collect::<Vec<_>>()
        .join(".");
    for first in [
        format!("namespace {dotted} {{ class X {{ }} }}"),
        format!("using {dotted};"),
        format!("class X : {dotted} {{ }}"),
        format!("class X {{ {dotted} f; }}"),
        format!("class X {{ object M() => {dotted}; }}"),
    ] {
        let src = format!("{first}\nclass Ok {{ void M() {{ }} }}\n");
        let file = parse(&src);
        let [limit] = &file.limits[..] else {
            panic!("one note expected: {:?}", file.limits);
        };
        assert!(limit.range.start < first.len() as u32, "{limit:?}");
        assert!(file.types.iter().any(|t| t.name == "Ok"), "{first:.40}");
    }
    // A file-scoped namespace holds the rest of the file, which is skipped.
    let file = parse(&format!("namespace {dotted};\nclass Ok {{ }}\n"));
    assert_eq!(file.limits.len(), 1);
    assert!(file.types.is_empty());
}

/// Each broken statement is cut on its own, however deep, with the names in
/// scope it mentions; the statements around it and the compound statements
/// holding it are kept. An error in a statement's own header costs it whole.
#[test]
fn a_broken_statement_is_cut_alone_and_names_its_locals() {
    let src = "class C { void M(int p) {\n  var a = 1;\n  if (p > 0) { var b = a; b = (a +); F(b); }\n  try { } finally { G(p +); }\n  switch (p) { case 1: H(a +); break; }\n  while (p +) { F(a); }\n  F(a);\n} }";
    let file = parse(src);
    let d = body_dump(&file, src, 0);
    assert_eq!(file.body(rlc_csharp::hir::BodyId(0)).skip, None, "{d}");
    assert!(d.contains("(local b#2 = a#1)"), "{d}");
    assert!(d.contains("(broken b#2 a#1)"), "{d}");
    assert!(d.contains("(expr (call F b#2))"), "{d}");
    assert!(
        d.contains("(finally\n      (block\n        (broken p#0))))"),
        "{d}"
    );
    assert!(d.contains("(broken a#1)"), "{d}");
    assert!(d.contains("(break)"), "{d}");
    // The loop's condition is its own: the loop is cut with its body.
    assert!(!d.contains("(while"), "{d}");
    assert!(d.contains("(broken p#0 a#1)"), "{d}");
    assert!(
        d.contains("(broken p#0 a#1)\n  (expr (call F a#1)))"),
        "{d}"
    );
}

/// Found by `rlc-fuzz source --seed 202`: a parameter right after a
/// character of several bytes that is not a letter (`¦`, `é`) sliced the
/// text inside that character while looking for a blanked lambda modifier.
#[test]
fn a_parameter_after_a_multibyte_character_has_no_modifier() {
    for src in [
        "class C { void M(¦int x) {} }",
        "class C { void M(int a, é int x) {} }",
        "class C { void M() { var f = (¦int x) => x; } }",
        "class C { void M() { var f = (é x) => x; } }",
        "class C { void M() { F(é (int x) => x); } }",
    ] {
        let file = parse(src);
        assert!(!file.scopes.is_empty(), "{src}");
    }
}

/// tree-sitter's recovery turned garnet's `LogRecord.cs` into one ERROR node
/// for a broken expression body next to pointer dereferences.
const ONE_BROKEN_MEMBER: &str = "// Copyright header.
using System;
using System.IO;

namespace N
{
    public unsafe struct Rec
    {
        public static ref Info GetRef(long p) => ref *(Info*) *(p;

        internal static Span<byte> Key(long p)
        {
            var h = *(Header*)(p + 8);
            return new((byte*)h.Address, h.Length);
        }

        public Stream Open(string path)
        {
            return File.OpenRead(path);
        }
    }
}
";

#[test]
fn a_broken_member_does_not_lose_its_file() {
    let src = ONE_BROKEN_MEMBER;
    let file = parse(src);
    let names: Vec<&str> = file.types.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["Rec"]);
    let members: Vec<&str> = file.types[0]
        .members
        .iter()
        .map(|m| m.name.as_str())
        .collect();
    assert_eq!(members, ["GetRef", "Key", "Open"]);
    let skip = |i: usize| {
        let m = &file.types[0].members[i];
        (m.has_error, m.body.map(|b| file.body(b).skip))
    };
    assert_eq!(skip(0), (true, Some(Some(SkipReason::SyntaxError))));
    assert_eq!(skip(1), (false, Some(None)));
    assert_eq!(skip(2), (false, Some(None)));
    assert!(
        body_dump(&file, src, 1).contains("(local h#1 = (* (cast Header* (+ p#0 8))))"),
        "{}",
        dump(src)
    );
    // The one error names the broken member, where it is.
    assert_eq!(file.syntax_errors.len(), 1, "{:?}", file.syntax_errors);
    let e = &file.syntax_errors[0];
    assert_eq!(
        e.message,
        "cannot parse `public static ref Info GetRef(long p) =>…`"
    );
    assert_eq!(
        e.range.start as usize,
        src.find("public static ref").unwrap_or(0)
    );
    // Later code keeps its offsets.
    let open = &file.types[0].members[2];
    assert_eq!(
        open.name_range.start as usize,
        src.find("Open(").unwrap_or(0)
    );
}
