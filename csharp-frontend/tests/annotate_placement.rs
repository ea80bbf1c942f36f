//! Where attributes go on types, members, parameters and returns.

mod annotate_support;

use annotate_support::{at, member, param, place, ret, syntax_errors, ty};
use rlc_csharp::annotate::{
    AnnotateError, AnnotateOptions, Annotation, AnnotationTarget, annotate_file_with,
};

fn placed(original: &str, annotations: &[Annotation]) -> Result<String, AnnotateError> {
    annotate_file_with(
        original,
        annotations,
        &AnnotateOptions {
            namespace: None,
            ..AnnotateOptions::default()
        },
    )
}

#[test]
fn type_attribute_goes_between_doc_comment_and_declaration() {
    let src = r#"namespace N
{
    /// <summary>A session.</summary>
    /// <remarks>Close it.</remarks>
    public sealed class Session : IDisposable
    {
    }
}
"#;
    let out = place(src, |t| {
        vec![ty(t, "class Session", "Session", "MustCall(\"Close\")")]
    });
    assert_eq!(
        out,
        r#"namespace N
{
    /// <summary>A session.</summary>
    /// <remarks>Close it.</remarks>
    [MustCall("Close")]
    public sealed class Session : IDisposable
    {
    }
}
"#
    );
}

#[test]
fn member_attributes_go_below_existing_attribute_lines() {
    let src = r#"class C
{
    /// <summary>Disposes.</summary>
    [Obsolete("old")]
    [MethodImpl(MethodImplOptions.NoInlining)]
    public void Dispose() { _b.Dispose(); _a.Dispose(); }
}
"#;
    // Given in either order, written in one.
    for order in [["_b", "_a"], ["_a", "_b"]] {
        let out = place(src, |t| {
            order
                .iter()
                .map(|f| {
                    member(
                        t,
                        "void Dispose()",
                        "Dispose",
                        &format!("Calls(\"{f}\", \"Dispose\")"),
                    )
                })
                .collect()
        });
        assert_eq!(
            out,
            r#"class C
{
    /// <summary>Disposes.</summary>
    [Obsolete("old")]
    [MethodImpl(MethodImplOptions.NoInlining)]
    [Calls("_a", "Dispose")]
    [Calls("_b", "Dispose")]
    public void Dispose() { _b.Dispose(); _a.Dispose(); }
}
"#
        );
    }
}

#[test]
fn structs_records_interfaces_and_partial_parts() {
    let src = r#"partial class P { }
partial class P : IDisposable { public void Dispose() { } }
struct S : IDisposable { public void Dispose() { } }
record R(Stream Inner) : IDisposable { public void Dispose() { } }
record struct RS(int X);
interface IResource : IDisposable { }
"#;
    let out = place(src, |t| {
        vec![
            ty(t, "partial class P :", "P", "MustCall(\"Dispose\")"),
            ty(t, "struct S", "S", "MustCall(\"Dispose\")"),
            ty(t, "record R(", "R", "MustCall(\"Dispose\")"),
            ty(t, "record struct RS", "RS", "MustCall"),
            ty(
                t,
                "interface IResource",
                "IResource",
                "MustCall(\"Dispose\")",
            ),
        ]
    });
    assert_eq!(
        out,
        r#"partial class P { }
[MustCall("Dispose")]
partial class P : IDisposable { public void Dispose() { } }
[MustCall("Dispose")]
struct S : IDisposable { public void Dispose() { } }
[MustCall("Dispose")]
record R(Stream Inner) : IDisposable { public void Dispose() { } }
[MustCall]
record struct RS(int X);
[MustCall("Dispose")]
interface IResource : IDisposable { }
"#
    );
}

#[test]
fn fields_properties_and_events() {
    let src = r#"class C
{
    private readonly Stream _s;
    [NonSerialized] private Stream _inline;
    public Stream Auto { get; private set; }
    public Stream Full
    {
        get { return _s; }
    }
    public Stream Arrow => _s;
    public event EventHandler Changed;
    public Stream this[int i] => _s;
}
"#;
    let out = place(src, |t| {
        vec![
            member(t, "Stream _s;", "_s", "Owning"),
            member(t, "Stream _inline", "_inline", "Owning"),
            member(t, "Stream Auto", "Auto", "Owning"),
            // A getter's return: on the property itself.
            ret(t, "Stream Full", "Full", "NotOwning"),
            ret(t, "Stream Arrow", "Arrow", "NotOwning"),
            member(t, "EventHandler Changed", "Changed", "NotOwning"),
            ret(t, "Stream this[", "this", "NotOwning"),
        ]
    });
    assert_eq!(
        out,
        r#"class C
{
    [Owning]
    private readonly Stream _s;
    [NonSerialized] [Owning] private Stream _inline;
    [Owning]
    public Stream Auto { get; private set; }
    [NotOwning]
    public Stream Full
    {
        get { return _s; }
    }
    [NotOwning]
    public Stream Arrow => _s;
    [NotOwning]
    public event EventHandler Changed;
    [NotOwning]
    public Stream this[int i] => _s;
}
"#
    );
}

#[test]
fn a_field_with_several_variables_is_split_when_they_differ() {
    let src = "class C\n{\n    /// <summary>Two.</summary>\n    [NonSerialized]\n    private Stream _a = Open(1, 2), _b;\n}\n";
    let out = place(src, |t| vec![member(t, "_a =", "_a", "Owning")]);
    assert_eq!(
        out,
        "class C\n{\n    /// <summary>Two.</summary>\n    [NonSerialized]\n    [Owning]\n    private Stream _a = Open(1, 2);\n    [NonSerialized]\n    private Stream _b;\n}\n"
    );
    // The same attribute on every variable: no split.
    let both = place(src, |t| {
        vec![
            member(t, "_a =", "_a", "Owning"),
            member(t, "_b;", "_b", "Owning"),
        ]
    });
    assert!(
        both.contains("    [Owning]\n    private Stream _a = Open(1, 2), _b;\n"),
        "{both}"
    );
    // A comment between the variables would be lost.
    let commented = "class C { Stream _a, /* b */ _b; }";
    let err = placed(commented, &[member(commented, "_a,", "_a", "Owning")]).unwrap_err();
    assert!(
        matches!(err, AnnotateError::UnsplittableField { .. }),
        "{err:?}"
    );
}

#[test]
fn methods_constructors_returns_and_delegates() {
    let src = r#"public interface IFactory
{
    Stream Open(string name);
}
public delegate Stream Opener(string name);
public class Wrapper
{
    [Pure]
    [return: NotNull]
    public Stream Get() => _inner;
    public static Wrapper operator +(Wrapper a, Wrapper b) => a;
    public T Create<T>() where T : new() => new T();
    /// <param name="inner">Wrapped.</param>
    public Wrapper(Stream inner) { _inner = inner; }
}
"#;
    let out = place(src, |t| {
        vec![
            ret(t, "Stream Open(", "Open", "NotOwning"),
            ret(t, "Stream Opener", "Opener", "Owning"),
            ret(t, "Stream Get", "Get", "NotOwning"),
            member(t, "Stream Get", "Get", "MustCallAlias"),
            ret(t, "operator +", "operator", "NotOwning"),
            ret(t, "T Create<T>", "Create", "NotOwning"),
            member(t, "public Wrapper(Stream", "Wrapper", "MustCallAlias"),
            // A constructor's return: on the constructor.
            ret(t, "public Wrapper(Stream", "Wrapper", "Owning"),
        ]
    });
    assert_eq!(
        out,
        r#"public interface IFactory
{
    [return: NotOwning]
    Stream Open(string name);
}
[return: Owning]
public delegate Stream Opener(string name);
public class Wrapper
{
    [Pure]
    [return: NotNull]
    [MustCallAlias]
    [return: NotOwning]
    public Stream Get() => _inner;
    [return: NotOwning]
    public static Wrapper operator +(Wrapper a, Wrapper b) => a;
    [return: NotOwning]
    public T Create<T>() where T : new() => new T();
    /// <param name="inner">Wrapped.</param>
    [Owning]
    [MustCallAlias]
    public Wrapper(Stream inner) { _inner = inner; }
}
"#
    );
}

#[test]
fn parameters_are_annotated_inline() {
    let src = r#"static class X
{
    public static void A(Stream s1, [NotNull] Stream s2, [param: NotNull] Stream s3) { }
    public static void B(this Stream s4, ref Stream s5, out Stream s6, in Stream s7) { s6 = null; }
    public static void C(params Stream[] all1) { }
    public static void D([A][B] params Stream[] all2) { }
    public static void E([CallerMemberName] string name = null, Stream s8 = null) { }
}
"#;
    let out = place(src, |t| {
        vec![
            param(t, "Stream s1", "Owning"),
            param(t, "Stream s2", "Owning"),
            param(t, "Stream s3", "Owning"),
            param(t, "Stream s4", "Owning"),
            param(t, "Stream s5", "Owning"),
            param(t, "Stream s6", "NotOwning"),
            param(t, "Stream s7", "Owning"),
            param(t, "params Stream[] all1", "Owning"),
            param(t, "params Stream[] all2", "Owning"),
            param(t, "Stream s8 = null", "Owning"),
            param(t, "Stream s8 = null", "MustCallAlias"),
        ]
    });
    assert_eq!(
        out,
        r#"static class X
{
    public static void A([Owning] Stream s1, [NotNull, Owning] Stream s2, [param: NotNull, Owning] Stream s3) { }
    public static void B([Owning] this Stream s4, [Owning] ref Stream s5, [NotOwning] out Stream s6, [Owning] in Stream s7) { s6 = null; }
    public static void C([Owning] params Stream[] all1) { }
    public static void D([A][B, Owning] params Stream[] all2) { }
    public static void E([CallerMemberName] string name = null, [Owning, MustCallAlias] Stream s8 = null) { }
}
"#
    );
}

#[test]
fn primary_constructor_and_record_parameters() {
    let src = "public class Reader(Stream stream) : IDisposable\n{\n    public void Dispose() => stream.Dispose();\n}\npublic record Wrapped([NotNull] Stream Inner);\n";
    let out = place(src, |t| {
        vec![
            param(t, "Stream stream", "Owning"),
            param(t, "Stream Inner", "Owning"),
        ]
    });
    assert_eq!(
        out,
        "public class Reader([Owning] Stream stream) : IDisposable\n{\n    public void Dispose() => stream.Dispose();\n}\npublic record Wrapped([NotNull, Owning] Stream Inner);\n"
    );
}

#[test]
fn parameter_targets_may_be_the_name_alone() {
    let src = "class C { void M([In] ref Stream s) { } }";
    let by_name = placed(
        src,
        &[Annotation {
            target: AnnotationTarget::Parameter {
                range: at(src, "Stream s", "s"),
            },
            attribute: "Owning".into(),
        }],
    )
    .unwrap();
    assert_eq!(by_name, "class C { void M([In, Owning] ref Stream s) { } }");
}

#[test]
fn attributes_already_there_are_not_added_again() {
    let src = r#"using RlcSharp.Annotations;
[MustCallAttribute("Close")]
class A
{
    [RlcSharp.Annotations.Owning] Stream _s;
    [global::RlcSharp.Annotations.OwningAttribute()] Stream _t;
    [Calls( "_s" , "Dispose" ), Calls("_t", "Dispose")]
    public void Close() { }
    [return: NotOwning] Stream Get() => _s;
    void M([Owning] Stream a) { }
}
"#;
    let out = place(src, |t| {
        vec![
            ty(t, "class A", "A", "MustCall(\"Close\")"),
            member(t, "Stream _s", "_s", "Owning"),
            member(t, "Stream _t", "_t", "Owning"),
            member(t, "void Close", "Close", "Calls(\"_s\", \"Dispose\")"),
            member(t, "void Close", "Close", "Calls(\"_t\", \"Dispose\")"),
            ret(t, "Stream Get", "Get", "NotOwning"),
            param(t, "Stream a", "Owning"),
        ]
    });
    assert_eq!(out, src);
    // `[NotOwning]` on the method is not its `[return: NotOwning]`, and
    // another `[Calls]` may join the ones there.
    let more = place(src, |t| {
        vec![
            member(t, "Stream Get", "Get", "NotOwning"),
            member(t, "void Close", "Close", "Calls(\"this\", \"Flush\")"),
        ]
    });
    assert!(
        more.contains("    [return: NotOwning] [NotOwning] Stream Get()"),
        "{more}"
    );
    assert!(
        more.contains("    [Calls(\"this\", \"Flush\")]\n    public void Close()"),
        "{more}"
    );
}

#[test]
fn contradicting_attributes_are_errors() {
    let src = "class C\n{\n    [MustCall(\"Close\")] class D { }\n    [NotOwning] Stream _s;\n}\n";
    let err = placed(src, &[ty(src, "class D", "D", "MustCall(\"Dispose\")")]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "3:31: `[MustCall(\"Dispose\")]` contradicts `[MustCall(\"Close\")]`, which is already there"
    );
    let err = placed(src, &[member(src, "Stream _s", "_s", "Owning")]).unwrap_err();
    assert!(matches!(err, AnnotateError::Conflict { .. }), "{err:?}");
    let both = placed(
        src,
        &[
            member(src, "Stream _s", "_s", "MustCall"),
            member(src, "Stream _s", "_s", "MustCall(\"Close\")"),
        ],
    )
    .unwrap_err();
    assert!(matches!(both, AnnotateError::Conflict { .. }), "{both:?}");
}

#[test]
fn crlf_bom_and_tabs_are_kept() {
    let src = "\u{feff}namespace N\r\n{\r\n\tclass C\r\n\t{\r\n\t\tStream _s;\r\n\t\tvoid M(Stream s) { }\r\n\t}\r\n}";
    let out = place(src, |t| {
        vec![
            member(t, "Stream _s", "_s", "Owning"),
            ty(t, "class C", "C", "MustCall(\"Dispose\")"),
            param(t, "Stream s", "Owning"),
        ]
    });
    assert_eq!(
        out,
        "\u{feff}namespace N\r\n{\r\n\t[MustCall(\"Dispose\")]\r\n\tclass C\r\n\t{\r\n\t\t[Owning]\r\n\t\tStream _s;\r\n\t\tvoid M([Owning] Stream s) { }\r\n\t}\r\n}"
    );
}

#[test]
fn declarations_sharing_a_line_get_inline_attributes() {
    let src = "class C { Stream _s; Stream Get() => _s; }\n";
    let out = place(src, |t| {
        vec![
            member(t, "Stream _s", "_s", "Owning"),
            ret(t, "Stream Get", "Get", "NotOwning"),
            ty(t, "class C", "C", "MustCall"),
        ]
    });
    assert_eq!(
        out,
        "[MustCall]\nclass C { [Owning] Stream _s; [return: NotOwning] Stream Get() => _s; }\n"
    );
}

#[test]
fn regions_directives_and_nesting() {
    let src = r#"class Outer
{
    #region Resources
    private class Inner
    {
#if NET
        [Obsolete]
#endif
        private Stream _s;
    }
    #endregion
}
"#;
    let out = place(src, |t| {
        vec![
            ty(t, "class Inner", "Inner", "MustCall(\"Dispose\")"),
            member(t, "Stream _s", "_s", "Owning"),
        ]
    });
    assert_eq!(
        out,
        r#"class Outer
{
    #region Resources
    [MustCall("Dispose")]
    private class Inner
    {
#if NET
        [Obsolete]
#endif
        [Owning]
        private Stream _s;
    }
    #endregion
}
"#
    );
}

#[test]
fn targets_that_name_nothing_are_errors() {
    let src = "class C\n{\n    void M(Stream s) { var local = s; }\n}\n";
    let cases = [
        (
            ty(src, "void M", "M", "Owning"),
            "3:10: this names a member, not a type",
        ),
        (
            member(src, "class C", "C", "Owning"),
            "1:7: this names a type, not a member",
        ),
        (
            member(src, "var local", "local", "Owning"),
            "3:28: this names a local variable, not a field",
        ),
        (
            member(src, "void M", "void", "Owning"),
            "3:5: no declaration has its name at this range",
        ),
        (
            ret(src, "class C", "C", "Owning"),
            "1:7: this declaration returns no value",
        ),
        (
            param(src, "= s", "Owning"),
            "3:34: no parameter at this range",
        ),
    ];
    for (annotation, message) in cases {
        assert_eq!(placed(src, &[annotation]).unwrap_err().to_string(), message);
    }
    let outside = Annotation {
        target: AnnotationTarget::Member {
            name: rlc_csharp::hir::TextRange::new(500, 501),
        },
        attribute: "Owning".into(),
    };
    assert!(matches!(
        placed(src, &[outside]).unwrap_err(),
        AnnotateError::NotFound { .. }
    ));
    let bad = Annotation {
        attribute: "Owning] class X {} [Y".into(),
        ..member(src, "void M", "M", "Owning")
    };
    assert_eq!(
        placed(src, &[bad]).unwrap_err().to_string(),
        "`Owning] class X {} [Y` is not a C# attribute"
    );
}

#[test]
fn nothing_to_add_leaves_the_text_as_it_is() {
    let src = "\u{feff}class C { }";
    assert_eq!(placed(src, &[]).unwrap(), src);
}

#[test]
fn files_with_syntax_errors_elsewhere_are_annotated() {
    let src = "class C\n{\n    void Broken( { }\n    Stream _s;\n}\n";
    let out = placed(src, &[member(src, "Stream _s", "_s", "Owning")]).unwrap();
    assert!(out.contains("    [Owning]\n    Stream _s;"), "{out}");
}

#[test]
fn files_with_grammar_gaps_are_annotated() {
    // `async` as an identifier (EF Core's tests) trips the grammar up.
    let src = "public class Queries\n{\n    public virtual Task Run(bool async, Stream s) => Query(async, s);\n\n    public virtual Stream Open(bool async) => async ? null : Stream.Null;\n}\n";
    assert!(syntax_errors(src) > 0, "no longer a grammar gap");
    let out = place(src, |t| {
        vec![
            param(t, "Stream s", "Owning"),
            ret(t, "Stream Open", "Open", "NotOwning"),
        ]
    });
    assert_eq!(
        out,
        "public class Queries\n{\n    public virtual Task Run(bool async, [Owning] Stream s) => Query(async, s);\n\n    [return: NotOwning]\n    public virtual Stream Open(bool async) => async ? null : Stream.Null;\n}\n"
    );
}

/// The parameter written as `param`, first after `context`.
fn param_after(text: &str, context: &str, param: &str, attribute: &str) -> Annotation {
    let from = text.find(context).expect("context") + context.len();
    let start = from + text[from..].find(param).expect("parameter");
    Annotation {
        target: AnnotationTarget::Parameter {
            range: rlc_csharp::hir::TextRange::new(start as u32, (start + param.len()) as u32),
        },
        attribute: attribute.into(),
    }
}

#[test]
fn declarations_tree_sitter_misreads_are_placed_as_the_front_end_reads_them() {
    // EF Core's query tests: `async` as a parameter and an argument, with
    // lambdas after it. As written, tree-sitter reads the last method as
    // something else (placing its attributes there would edit overlapping
    // text); the front end repairs the gap and finds the targets in its tree.
    let src = "public class OrderQueries : QueryFixture\n{\n    public override Task Skip_unsupported(bool async)\n        => Task.CompletedTask;\n\n    // Not translated by this provider\n    public override Task Group_then_join(bool async)\n        => AssertFails(() => base.Group_then_join(async));\n\n    [Theory, MemberData(nameof(AsyncData))]\n    public virtual Task Project_optional_name(bool async)\n        => AssertQuery(\n            async,\n            s => s.Set<Order>().Select(o => new { o.Id, Name = o.Customer!.Name.ToString() }),\n            s => s.Set<Order>().Select(o => new { o.Id, Name = o.Customer == null ? null! : o.Customer.Name.ToString() }),\n            sorter: e => e.Id,\n            asserter: (e, a) =>\n            {\n                AssertEqual(e.Id, a.Id);\n                AssertEqual(e.Name, a.Name);\n            });\n}\n";
    assert!(syntax_errors(src) > 0, "no longer a grammar gap");
    let out = place(src, |t| {
        [
            "Task Skip_unsupported(",
            "Task Group_then_join(",
            "Task Project_optional_name(",
        ]
        .iter()
        .flat_map(|header| {
            let name = header.trim_start_matches("Task ").trim_end_matches('(');
            [
                ret(t, header, name, "NotOwning"),
                member(t, header, name, "Calls(\"this\", \"Dispose\")"),
                param_after(t, header, "bool async", "Owning"),
            ]
        })
        .collect()
    });
    let expected = src
        .replace(
            "    public ",
            "    [Calls(\"this\", \"Dispose\")]\n    [return: NotOwning]\n    public ",
        )
        .replace("(bool async)", "([Owning] bool async)");
    assert_eq!(out, expected);
}

/// A method header written once per `#if` branch: tree-sitter, reading both
/// branches, loses the whole file; the front end reads the branch the
/// project's defines select, and the targets come from there.
const SPLIT_HEADER: &str = "namespace N\n{\n    public class Pool\n    {\n#if NET\n        public Stream Rent(Stream s, int size)\n        {\n#else\n        public Stream Rent(Stream s)\n        {\n#endif\n            return s;\n        }\n    }\n}\n";

#[test]
fn headers_split_by_conditional_compilation_get_attributes_above_the_if() {
    assert!(syntax_errors(SPLIT_HEADER) > 0, "tree-sitter reads it now");
    for (defines, header) in [
        (Vec::new(), "Rent(Stream s)"),
        (vec!["NET".to_owned()], "Rent(Stream s, int size)"),
    ] {
        let options = AnnotateOptions {
            namespace: None,
            defines,
            ..AnnotateOptions::default()
        };
        let targets = |t: &str, header: &str| {
            vec![
                ret(t, header, "Rent", "NotOwning"),
                annotate_support::param_in(t, header, "Stream s", "Owning"),
            ]
        };
        let out =
            annotate_file_with(SPLIT_HEADER, &targets(SPLIT_HEADER, header), &options).unwrap();
        // The return attribute holds in both branches; the parameter is the
        // selected branch's.
        let annotated_header = header.replace("Stream s", "[Owning] Stream s");
        let expected = SPLIT_HEADER
            .replace("#if NET\n", "        [return: NotOwning]\n#if NET\n")
            .replace(header, &annotated_header);
        assert_eq!(out, expected);
        assert!(syntax_errors(&out) <= syntax_errors(SPLIT_HEADER));
        assert_eq!(
            annotate_file_with(&out, &targets(&out, &annotated_header), &options).unwrap(),
            out,
            "annotating twice differs from annotating once"
        );
    }
}

#[test]
fn declarations_inside_a_conditional_group_keep_their_attributes_inside() {
    // The whole declaration is conditional, or an earlier branch holds
    // another declaration: the attributes go right above the header.
    let src = "class C\n{\n#if NET\n    Stream Open() => null;\n#endif\n#if NET\n    void Other() { }\n    Stream Get()\n    {\n#else\n    Stream Get()\n    {\n#endif\n        return null;\n    }\n}\n";
    let options = AnnotateOptions {
        namespace: None,
        defines: vec!["NET".to_owned()],
        ..AnnotateOptions::default()
    };
    let annotations = [
        ret(src, "Stream Open", "Open", "NotOwning"),
        ret(src, "void Other() { }\n    Stream Get", "Get", "NotOwning"),
    ];
    assert_eq!(
        annotate_file_with(src, &annotations, &options).unwrap(),
        src.replace(
            "    Stream Open",
            "    [return: NotOwning]\n    Stream Open"
        )
        .replacen(
            "    Stream Get",
            "    [return: NotOwning]\n    Stream Get",
            1
        )
    );
}

#[test]
fn creates_must_call_for_goes_on_its_own_line_like_other_method_attributes() {
    let src = r#"public class ReaderTests
{
    private StreamReader _reader;

    /// <summary>Opens the reader.</summary>
    [SetUp]
    public void SetUp()
    {
        _reader = new StreamReader(_path);
    }

    [CreatesMustCallFor]
    public void Reopen() { _reader = new StreamReader(_path); }

    public void YyReset(TextReader reader) { zzReader = reader; }
}
"#;
    let out = place(src, |t| {
        vec![
            member(t, "void SetUp", "SetUp", "CreatesMustCallFor(\"this\")"),
            member(t, "void Reopen", "Reopen", "CreatesMustCallFor(\"this\")"),
            member(t, "void YyReset", "YyReset", "CreatesMustCallFor(\"this\")"),
        ]
    });
    assert_eq!(
        out,
        r#"public class ReaderTests
{
    private StreamReader _reader;

    /// <summary>Opens the reader.</summary>
    [SetUp]
    [CreatesMustCallFor("this")]
    public void SetUp()
    {
        _reader = new StreamReader(_path);
    }

    [CreatesMustCallFor]
    public void Reopen() { _reader = new StreamReader(_path); }

    [CreatesMustCallFor("this")]
    public void YyReset(TextReader reader) { zzReader = reader; }
}
"#
    );
    assert_eq!(syntax_errors(&out), 0);
}

/// A multi-targeted project: the targets come from every build, and a target
/// in the `#else` branch (found by the build without `NET`) is placed though
/// the project's symbols, those of all builds together, select the `#if`.
#[test]
fn targets_from_another_builds_branch_are_found_in_that_builds_tree() {
    let src = "class Pool\n{\n#if NET\n    public Stream Get(int size)\n    {\n#else\n    public Stream Get()\n    {\n#endif\n        return _s;\n    }\n#if NET\n    public void Consume(Stream s) { s.Dispose(); }\n#else\n    public Stream Borrow(Stream s) => s;\n#endif\n}\n";
    assert!(syntax_errors(src) > 0, "tree-sitter reads it now");
    // Each build finds its own `Get`; the attribute goes above the `#if` once.
    let annotations = [
        ret(src, "Get(int size)", "Get", "NotOwning"),
        ret(src, "Get()", "Get", "NotOwning"),
        annotate_support::param_in(src, "Consume(Stream s)", "Stream s", "Owning"),
        ret(src, "Stream Borrow", "Borrow", "NotOwning"),
    ];
    let only_union = AnnotateOptions {
        namespace: None,
        defines: vec!["NET".to_owned(), "NET462".to_owned()],
        ..AnnotateOptions::default()
    };
    let err = annotate_file_with(src, &annotations, &only_union).unwrap_err();
    assert!(err.to_string().contains("no declaration"), "{err}");
    let options = AnnotateOptions {
        build_defines: vec![vec!["NET".to_owned()], vec!["NET462".to_owned()]],
        ..only_union
    };
    let out = annotate_file_with(src, &annotations, &options).unwrap();
    let expected = src
        .replacen("#if NET\n", "    [return: NotOwning]\n#if NET\n", 1)
        .replace("Consume(Stream s)", "Consume([Owning] Stream s)")
        .replace(
            "    public Stream Borrow",
            "    [return: NotOwning]\n    public Stream Borrow",
        );
    assert_eq!(out, expected);
    // Each build reads the result without a syntax error.
    for defines in [["NET"], ["NET462"]] {
        let opts = rlc_csharp::parse::ParseOptions::with_defines(defines);
        let file = rlc_csharp::parse::parse_file(&out, &opts);
        assert!(
            file.syntax_errors.is_empty(),
            "{defines:?}: {:?}",
            file.syntax_errors
        );
    }
}
