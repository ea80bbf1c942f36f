//! Repairs of tree-sitter-c-sharp gaps: each parses without errors and keeps
//! the names of the original text.

use rlc_csharp::hir::{BindingKind, ParamModifier};

use super::common::{assert_no_errors, body_dump, parse};

fn repaired(src: &str) -> (String, Vec<&'static str>) {
    let file = parse(src);
    assert_no_errors(&file, src);
    let kinds = file.repairs.iter().map(|r| r.kind).collect();
    (body_dump(&file, src, 0), kinds)
}

#[test]
fn async_as_an_identifier() {
    let (d, kinds) = repaired(
        "class C { Task M(bool async) { var x = async ? 1 : 2; F(async, async: async); return Q(async); } async Task N() => await M(true); }",
    );
    assert!(
        kinds.iter().all(|k| *k == "async-identifier") && kinds.len() == 6,
        "{kinds:?}"
    );
    assert!(d.contains("(local x#1 = (?: async#0 1 2))"), "{d}");
    assert!(d.contains("(expr (call F async#0 async:async#0))"), "{d}");
    assert!(d.contains("(return (call Q async#0))"), "{d}");
}

#[test]
fn required_as_an_identifier() {
    let (d, kinds) = repaired(
        "class C { void M() { bool required = false; required = true; required.ToString(); } }",
    );
    assert!(kinds.contains(&"required-identifier"), "{kinds:?}");
    assert!(d.contains("(expr (= required#0 true))"), "{d}");
    assert!(d.contains("(call (. required#0 ToString))"), "{d}");
}

#[test]
fn null_conditional_assignment() {
    let (d, kinds) =
        repaired("class C { void M() { a?.B = v; x?.Items[0]?.Name = \"n\"; a?[0] += 1; } }");
    assert!(
        kinds.iter().all(|k| *k == "null-conditional-assignment"),
        "{kinds:?}"
    );
    assert!(d.contains("(expr (= (?. a B) v))"), "{d}");
    assert!(
        d.contains("(expr (= (?. ([] (?. x Items) 0) Name) \"n\"))"),
        "{d}"
    );
    assert!(d.contains("(expr (+= (?[] a 0) 1))"), "{d}");
}

#[test]
fn verbatim_interpolated_string_ending_in_doubled_quote() {
    let (d, kinds) =
        repaired("class C { void M() { W($@\"a\"\"{p}\"\"\"); W($@\"\"\"{q}\"\"\"); } }");
    assert_eq!(
        kinds,
        ["verbatim-interpolated-quote", "verbatim-interpolated-quote"]
    );
    assert!(
        d.contains("(expr (call W (interp p)))") && d.contains("(expr (call W (interp q)))"),
        "{d}"
    );
}

#[test]
fn discard_range_variable() {
    let (d, kinds) = repaired("class C { void M() { var q = from _ in xs select 1; } }");
    assert_eq!(kinds, ["query-discard"]);
    assert!(d.contains("(query (from _#1 in xs) (select 1))"), "{d}");
}

#[test]
fn attribute_target_word_starting_brackets() {
    let (d, kinds) = repaired("class C { void M() { M([property]); M([field, 2]); } }");
    assert_eq!(kinds, ["attribute-target-word", "attribute-target-word"]);
    assert!(
        d.contains("(call M [property])") && d.contains("(call M [field 2])"),
        "{d}"
    );
}

#[test]
fn assignment_to_a_call_result_in_a_lambda() {
    let (d, kinds) = repaired("class C { void M() { G((E e, int v) => Accessor.Field(e) = v); } }");
    assert_eq!(kinds, ["call-result-assignment", "call-result-assignment"]);
    assert!(
        d.contains("(lambda (e#0 v#1) => (= (call (. Accessor Field) e#0) v#1))"),
        "{d}"
    );
}

#[test]
fn list_patterns_starting_with_a_slice() {
    let (d, kinds) = repaired(
        "class C { int M(int[] a) => a switch { [..] => 0, [.., var l] => l, [1, .. var rest] => 2, _ => 3 }; }",
    );
    assert!(
        kinds.contains(&"leading-slice-pattern") && kinds.contains(&"slice-subpattern"),
        "{kinds:?}"
    );
    assert!(
        d.contains("([..] => 0) ([.. (var l#1)] => l#1) ([1 ..(var rest#2)] => 2)"),
        "{d}"
    );
}

#[test]
fn element_access_with_a_bare_range_is_not_a_pattern() {
    let (d, kinds) = repaired("class C { void M(int[] a) { var b = a[..]; a?.X = 1; } }");
    assert_eq!(kinds, ["null-conditional-assignment"]);
    assert!(d.contains("([] a#0 (.. _ _))"), "{d}");
}

#[test]
fn dereference_of_a_parenthesised_pointer() {
    let src = "unsafe class C {\n    float M(void* p, int x) { return *(float*)p + x * (x + 1); }\n    void N(byte* b) { *(int*)b = 5; var v = *(long*)(b + 1); F(*(b + 2)); if (b != null) *(short*)b += 1; }\n}";
    let file = parse(src);
    assert_no_errors(&file, src);
    let kinds: Vec<&str> = file.repairs.iter().map(|r| r.kind).collect();
    assert!(
        kinds.len() == 5 && kinds.iter().all(|k| *k == "pointer-dereference"),
        "{kinds:?}"
    );
    let m = body_dump(&file, src, 0);
    // The multiplication stays one.
    assert!(
        m.contains("(return (+ (* (cast float* p#0)) (* x#1 (+ x#1 1))))"),
        "{m}"
    );
    let n = body_dump(&file, src, 1);
    assert!(n.contains("(expr (= (* (cast int* b#0)) 5))"), "{n}");
    assert!(
        n.contains("(local v#1 = (* (cast long* (+ b#0 1))))"),
        "{n}"
    );
    assert!(n.contains("(expr (call F (* (+ b#0 2))))"), "{n}");
    assert!(n.contains("(expr (+= (* (cast short* b#0)) 1))"), "{n}");
}

#[test]
fn assignment_through_a_dereferenced_pointer_expression() {
    let src = "unsafe class C {\n    void M(byte* p) { *(p + 1) = 1; *p++ = 2; *(int*)p = 3; if (p != null) *(p + 2) += 4; }\n}";
    let file = parse(src);
    assert_no_errors(&file, src);
    let kinds: Vec<&str> = file.repairs.iter().map(|r| r.kind).collect();
    assert!(
        !kinds.is_empty() && kinds.iter().all(|k| *k == "pointer-dereference"),
        "{kinds:?}"
    );
    let m = body_dump(&file, src, 0);
    // The cast form keeps its dereference; the others keep their assigned value.
    assert!(m.contains("(expr (= (* (cast int* p#0)) 3))"), "{m}");
    assert!(m.contains("(expr (= (* (+ p#0 1)) 1))"), "{m}");
    assert!(m.contains(" 2))"), "{m}");
    assert!(m.contains(" 4))"), "{m}");
}

#[test]
fn allows_ref_struct_anti_constraint() {
    let src = "class C<T> where T : IDisposable, allows ref struct {\n    void M<U>(U u) where U : allows\n        ref struct { var s = new S(); }\n    void N() { var t = new T(); }\n}";
    let file = parse(src);
    assert_no_errors(&file, src);
    let kinds: Vec<&str> = file.repairs.iter().map(|r| r.kind).collect();
    assert_eq!(kinds, ["allows-ref-struct", "allows-ref-struct"]);
    let d = rlc_csharp::hir::dump(&file, src);
    // The type constraint is kept, the anti-constraint adds none.
    assert!(d.contains("class C<T> scope#0 where T: IDisposable"), "{d}");
    assert!(d.contains("method M<U>(U u): void where U: body#0"), "{d}");
    assert!(d.contains("(local s#1 = (new S))"), "{d}");
}

#[test]
fn ref_partial_struct_keeps_both_modifiers() {
    let src = "public ref partial struct S { public int X; }\npublic readonly ref partial struct R { }\nclass C { void M() { var s = new S(); } }";
    let file = parse(src);
    assert_no_errors(&file, src);
    let d = rlc_csharp::hir::dump(&file, src);
    assert!(
        d.contains("struct S scope#0 [public partial ref]")
            && d.contains("struct R scope#0 [public readonly partial ref]"),
        "{d}"
    );
    assert!(d.contains("field X: int [public]"), "{d}");
    assert!(d.contains("(local s#0 = (new S))"), "{d}");
}

#[test]
fn extension_blocks() {
    let src = "public static class E {\n    extension(string s) {\n        public bool IsEmpty => s.Length == 0;\n        public int Twice() { return s.Length * 2; }\n    }\n    extension<T>(IEnumerable<T> source) where T : class {\n        public static int Zero => 0;\n    }\n    extension(string) { public static int Z() => 1; }\n    public static void Q() { var m = new MemoryStream(); }\n}";
    let file = parse(src);
    assert_no_errors(&file, src);
    let d = rlc_csharp::hir::dump(&file, src);
    assert!(
        d.contains("class extension(string s) scope#0 in type#0")
            && d.contains("class extension<T>(IEnumerable<T> source) scope#0 in type#0")
            && d.contains("class extension() scope#0 in type#0"),
        "{d}"
    );
    assert!(
        d.contains("property IsEmpty: bool [public]")
            && d.contains("method Twice(): int [public]")
            && d.contains("method Z(): int [public static]"),
        "{d}"
    );
    // The receiver is in scope in the members, the rest of the class is read.
    assert!(d.contains("(return (* (. s Length) 2))"), "{d}");
    assert!(d.contains("method Q(): void [public static]"), "{d}");
    assert!(d.contains("(local m#0 = (new MemoryStream))"), "{d}");
    let name = file.types.iter().find(|t| t.name.as_str() == "extension");
    let at = name.map(|t| t.name_range.start as usize);
    assert_eq!(at, src.find("extension"));
}

#[test]
fn extension_as_an_ordinary_name_is_left_alone() {
    let src = "class C { void extension(int x) { } void M() { extension(1); var e = extension; } }";
    let file = parse(src);
    assert_no_errors(&file, src);
    assert!(file.repairs.is_empty(), "{:?}", file.repairs);
}

#[test]
fn raw_interpolated_strings_parse() {
    let (d, kinds) = repaired(
        "class C { void M(int x) {\n var a = $\"\"\"He said \"hi\" {x}\"\"\";\n var b = $$\"\"\"{ \"k\": {{x}} }\"\"\";\n var c = $\"\"\"\n    \"q\" {x} \"\"two\"\"\n    #if X\n    \"\"\";\n var d = $\"\"\"\"a\"\"\"{x}\"\"\"\";\n var e = $\"\"\"{(x > 0 ? \"a\" : \"b\")}\"\"\".Length;\n} }",
    );
    // Only the text braces of `$$"""{ ... }"""`.
    assert_eq!(
        kinds,
        [
            "raw-interpolation-text-braces",
            "raw-interpolation-text-braces"
        ]
    );
    for local in [
        "(local a#1 = (interp x#0))",
        "(local b#2 = (interp x#0))",
        "(local c#3 = (interp x#0))",
        "(local d#4 = (interp x#0))",
        "(local e#5 = (. (interp (?: (> x#0 0) \"a\" \"b\")) Length))",
    ] {
        assert!(d.contains(local), "{local} in\n{d}");
    }
}

#[test]
fn braces_in_the_text_of_raw_interpolated_strings() {
    let src = "class C { void M(int X, int Y) {\n var p = $$\"\"\"You are at {{{X}}, {{Y}}}\"\"\";\n var j = $$\"\"\"{\"a\": {{X}}}\"\"\";\n var e = $$\"\"\"a{\"\"\";\n var f = $$$\"\"\"{{{{X:N2}}}}\"\"\";\n var s = $\"{X}{{\";\n} }";
    let file = parse(src);
    assert_no_errors(&file, src);
    let d = body_dump(&file, src, 0);
    // The hole after literal braces is kept (the grammar alone loses `X`).
    assert!(d.contains("(local p#2 = (interp X#0 Y#1))"), "{d}");
    assert!(d.contains("(local j#3 = (interp X#0))"), "{d}");
    assert!(d.contains("(local e#4 = (interp))"), "{d}");
    assert!(d.contains("(local f#5 = (interp X#0))"), "{d}");
    assert!(d.contains("(local s#6 = (interp X#0))"), "{d}");
    assert!(
        file.repairs
            .iter()
            .all(|r| r.kind == "raw-interpolation-text-braces"
                && matches!(
                    &src[r.range.start as usize..r.range.end as usize],
                    "{" | "}"
                )),
        "{:?}",
        file.repairs
    );
}

#[test]
fn with_and_partial_as_identifiers() {
    let (d, kinds) = repaired(
        "class C { int M(T t, List<int> partial) { var with = t.Next(); partial.Select(x => x); return with.Type; } R N(R r) => r with { A = 1 }; }",
    );
    assert!(
        kinds.len() == 4 && kinds.iter().all(|k| *k == "contextual-keyword-identifier"),
        "{kinds:?}"
    );
    assert!(d.contains("(local with#2 = (call (. t#0 Next)))"), "{d}");
    assert!(d.contains("(call (. partial#1 Select)"), "{d}");
    assert!(d.contains("(return (. with#2 Type))"), "{d}");
}

#[test]
fn dereference_of_an_increment_and_after_a_cast() {
    let (m, kinds) = repaired(
        "unsafe class C {\n    long M(byte* p, int** s, int j) { F(*--p); var a = *++p + *p--; *--p = 1; *s[j]++ = 2; return ((long)*(uint*)(p + 24) << 32) | (long)*(uint*)p * sizeof(int)*(j); }\n}",
    );
    assert!(
        !kinds.is_empty() && kinds.iter().all(|k| *k == "pointer-dereference"),
        "{kinds:?}"
    );
    assert!(m.contains("(call F (* (--pre p#0)))"), "{m}");
    assert!(m.contains("(local a#3 = (+ (* (++pre p#0))"), "{m}");
    // Statements assigning through a pointer keep their value.
    assert!(m.contains(" 1))") && m.contains(" 2))"), "{m}");
    assert!(
        m.contains("(<< (cast long (* (cast uint* (+ p#0 24)))) 32)"),
        "{m}"
    );
    // `sizeof(int) * (j)` stays a multiplication.
    assert!(m.contains("(sizeof int)) j#2)"), "{m}");
}

#[test]
fn lambda_parameter_modifiers() {
    let src = "class C { void M() { R r = (in int k, out int v) => v = k; S s = (ref x, scoped ref y) => x = y; } }";
    let file = parse(src);
    assert_no_errors(&file, src);
    assert!(
        !file.repairs.is_empty()
            && file
                .repairs
                .iter()
                .all(|r| r.kind == "lambda-parameter-modifier"),
        "{:?}",
        file.repairs
    );
    let modifiers: Vec<(String, ParamModifier)> = file.bodies[0]
        .bindings
        .iter()
        .filter(|b| b.kind == BindingKind::FunctionParam)
        .map(|b| (b.name.to_string(), b.modifier))
        .collect();
    assert_eq!(
        modifiers,
        [
            ("k".to_owned(), ParamModifier::In),
            ("v".to_owned(), ParamModifier::Out),
            ("x".to_owned(), ParamModifier::Ref),
            ("y".to_owned(), ParamModifier::Ref),
        ]
    );
}

#[test]
fn semicolon_after_a_type_body_with_space_before_it() {
    let src = "namespace N\n{\n    struct P { public int X; } ;\n    enum E { A } \n    ;\n    class C\n    {\n        void M() { var p = new P { } ; }\n    } ;\n}";
    let (d, kinds) = repaired(src);
    // The object initializer's `;` ends a statement: it is kept.
    assert_eq!(
        kinds,
        [
            "type-declaration-semicolon",
            "type-declaration-semicolon",
            "type-declaration-semicolon"
        ]
    );
    assert!(d.contains("(local p#0 = (new P"), "{d}");
}

#[test]
fn escaped_brace_before_a_hole_with_a_string_literal() {
    let (d, kinds) = repaired(
        "class C { string M(string[] xs, string b) {\n var s = $\" Data: {{{string.Join(\", \", xs)}}} Body: {b}\";\n var t = $@\"{{{b.Trim('\"')}}}\";\n var u = $\"{{ {b} }}\";\n return s + t + u;\n} }",
    );
    // The escapes of a text that ends in `{{` before a hole, none of the holes.
    assert_eq!(kinds.len(), 2, "{kinds:?}");
    assert!(
        kinds.iter().all(|k| *k == "interpolation-escaped-braces"),
        "{kinds:?}"
    );
    assert!(d.contains("(local s#2 = (interp (call"), "{d}");
    assert!(d.contains(" b#1))"), "{d}");
}

#[test]
fn extension_blocks_holding_only_properties() {
    // The error is inside the body, lines away from `extension`.
    let src = "using System;\nstatic class E1\n{\n\textension(Type type)\n\t{\n\t\tinternal bool IsStr =>\n\t\t\ttype.IsValueType;\n\t}\n}\nstatic class E2\n{\n\textension(Type type)\n\t{\n\t\tpublic TypeCode TypeCode => Type.GetTypeCode(type);\n\t}\n}";
    let file = parse(src);
    assert_no_errors(&file, src);
    let d = rlc_csharp::hir::dump(&file, src);
    assert!(
        d.contains("property IsStr: bool [internal]")
            && d.contains("property TypeCode: TypeCode [public]"),
        "{d}"
    );
    assert!(
        file.repairs.iter().all(|r| r.kind == "extension-block") && file.repairs.len() == 2,
        "{:?}",
        file.repairs
    );
}

#[test]
fn compound_assignment_to_a_call_result() {
    let (d, kinds) = repaired(
        "class C { object M(D d) { var v = Ref(d, out _) ??= new object(); Ref(d, out _) += 1; return v; } }",
    );
    assert_eq!(kinds, ["call-result-assignment"; 4]);
    assert!(d.contains("(??= (call Ref d#0"), "{d}");
}

#[test]
fn list_patterns_with_a_guard() {
    let src = "class C {\n  bool A(int[] a) => a switch { [var s] when s == 1 => true, [1, .., var l] when l > 2 => true, _ => false };\n  int B(string t) { switch (t) { case [var c, ..] when c == 'x': return 1; default: return 0; } }\n}";
    let (d, kinds) = repaired(src);
    assert!(kinds.contains(&"list-pattern-guard"), "{kinds:?}");
    assert!(d.contains("([(var s#1)] when (== s#1 1) => true)"), "{d}");
    assert!(
        d.contains("([1 .. (var l#2)] when (> l#2 2) => true)"),
        "{d}"
    );
    let file = parse(src);
    let d = body_dump(&file, src, 1);
    assert!(d.contains("[(var c#1) ..]"), "{d}");
}

#[test]
fn assignment_through_a_cast_of_a_parenthesised_pointer() {
    let (m, kinds) = repaired(
        "unsafe class C {\n    void M(byte* r, long v) { *(long*)(r + 8) = v; *(int*)(r) += 1; if (r != null) *(long*)(r + 16) = v; }\n}",
    );
    assert!(
        !kinds.is_empty() && kinds.iter().all(|k| *k == "pointer-dereference"),
        "{kinds:?}"
    );
    // A store through the pointer: the dereference is the target, not a call.
    assert!(
        m.contains("(expr (= (* (cast long* (+ r#0 8))) v#1))"),
        "{m}"
    );
    assert!(m.contains("(expr (+= (* (cast int* r#0)) 1))"), "{m}");
    assert!(m.contains("(= (* (cast long* (+ r#0 16))) v#1)"), "{m}");
}

#[test]
fn assignment_to_a_ref_returning_call_without_arguments() {
    let (d, kinds) = repaired(
        "class C { void M(X x, int v) { Get() = 5; x.AsRef<int>() = v; Get()\t??= 3; Get() += Get(); } }",
    );
    assert_eq!(kinds, ["call-result-assignment"; 8]);
    assert!(d.contains("(expr (= (call Get) 5))"), "{d}");
    assert!(
        d.contains("(expr (= (call (. x#0 AsRef<int>)) v#1))"),
        "{d}"
    );
    assert!(d.contains("(expr (??= (call Get) 3))"), "{d}");
    assert!(d.contains("(expr (+= (call Get) (call Get)))"), "{d}");
    // No space to take before the operator: left alone (and broken).
    let src = "class C { void M() { Get()= 5; } }";
    assert!(!parse(src).syntax_errors.is_empty());
}

#[test]
fn ref_to_a_dereference() {
    let src = "unsafe class C {\n    static ref Info G(long p) => ref *(Info*)p;\n    void M(int* t, int i) { ref var e = ref *(t + i); e = 1; }\n}";
    let (g, kinds) = repaired(src);
    assert_eq!(kinds, ["pointer-dereference"; 2]);
    assert!(g.contains("(ref (* (cast Info* p#0)))"), "{g}");
    let m = body_dump(&parse(src), src, 1);
    assert!(
        m.contains("(local e#2:ref var = (ref (* (+ t#0 i#1))))"),
        "{m}"
    );
}

#[test]
fn empty_interpolated_strings() {
    let src = "class C {\n    string M(int x) { var s = $\"\"; F($\"\", 1); return $\"\" + $\"a{x}\" + $@\"\"; }\n    int N() => 1;\n}";
    let (d, kinds) = repaired(src);
    assert_eq!(kinds, ["empty-interpolated-string"; 3]);
    assert!(d.contains("(local s#1 = \"\")"), "{d}");
    assert!(d.contains("(expr (call F \"\" 1))"), "{d}");
    assert!(d.contains("(return (+ (+ \"\" (interp x#0))"), "{d}");
    // The next member keeps its place.
    let file = parse(src);
    let n = &file.types[0].members[1];
    assert_eq!(
        &src[n.name_range.start as usize..n.name_range.end as usize],
        "N"
    );
}

#[test]
fn assignment_through_a_pointer_in_a_for_body_or_an_expression_body() {
    let (m, kinds) = repaired(
        "unsafe class C {\n    void A(byte* c, byte[] d) { for (int i = 0; i < d.Length; i++) *c++ = d[i]; }\n    void B(byte* p, byte t) => *(p + 3) = t;\n}",
    );
    assert!(
        !kinds.is_empty() && kinds.iter().all(|k| *k == "pointer-dereference"),
        "{kinds:?}"
    );
    assert!(m.contains("(expr (= c#0 ([] d#1 i#2)))"), "{m}");
    let src = "unsafe class C { void B(byte* p, byte t) => *(p + 3) = t; }";
    let b = body_dump(&parse(src), src, 0);
    assert!(b.contains("(= (* (+ p#0 3)) t#1)"), "{b}");
}
