//! Declarations: namespaces, usings, types, members, attributes, parameters.

use super::common::{assert_no_errors, dump, parse};

fn decls(src: &str) -> String {
    let file = parse(src);
    assert_no_errors(&file, src);
    // Everything before the bodies.
    dump(src)
        .lines()
        .take_while(|l| !l.starts_with("body#") && !l.starts_with("top-level"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn usings_aliases_and_file_scoped_namespace() {
    let src = "extern alias Old;\nglobal using global::System;\nusing static System.Math;\nusing Pair = (int A, string B);\n\
        using Map = System.Collections.Generic.Dictionary<string, int>;\nnamespace N.M;\nusing Inner;\nclass C { }\n";
    assert_eq!(
        decls(src),
        "scope#0 (extern alias Old) (global using System) (using static System.Math) (using Pair = (int A, string B)) (using Map = System.Collections.Generic.Dictionary<string,int>)\n\
         scope#1 N.M in scope#0 (using Inner)\n\
         type#0 class C scope#1"
    );
}

#[test]
fn block_namespaces_nest() {
    let src = "namespace A { using X; namespace B.C { class D { class E { } } } }";
    assert_eq!(
        decls(src),
        "scope#0\nscope#1 A in scope#0 (using X)\nscope#2 B.C in scope#1\ntype#0 class D scope#2\ntype#1 class E scope#2 in type#0"
    );
}

#[test]
fn global_attributes() {
    let src = "[assembly: InternalsVisibleTo(\"Tests\"), AssemblyVersion(@\"1.0\")]\n[module: SuppressMessage(\"Cat\", \"CA2000\", Justification = \"ok\")]";
    assert!(decls(src).contains(
        "global [assembly: InternalsVisibleTo(\"Tests\")] [assembly: AssemblyVersion(\"1.0\")] [module: SuppressMessage(\"Cat\", \"CA2000\", Justification=\"ok\")]"
    ));
}

#[test]
fn records_and_primary_constructors() {
    let src = "public record Person(string Name, [property: JsonIgnore] int Age = 0) : Base(Name), IEquatable<Person>;\n\
        public record struct Point(int X, int Y);\npublic readonly ref struct SpanLike { }\n\
        sealed class Reader(Stream stream, bool leaveOpen = false) : TextReader(stream), IDisposable { }";
    assert_eq!(
        decls(src),
        "scope#0\n\
         type#0 record Person(string Name, [property: JsonIgnore] int Age = 0) scope#0 [public] : Base, IEquatable<Person> base-args=body#0\n\
         type#1 record-struct Point(int X, int Y) scope#0 [public]\n\
         type#2 struct SpanLike scope#0 [public readonly ref]\n\
         type#3 class Reader(Stream stream, bool leaveOpen = false) scope#0 [sealed] : TextReader, IDisposable base-args=body#1"
    );
    assert!(dump(src).contains("body#1 params=(stream#0 leaveOpen#1)\n  (: base stream#0)"));
}

#[test]
fn members_of_every_kind() {
    let src = r#"class C<T> : B where T : class, IDisposable, new() {
    private readonly Stream _s = new MemoryStream(), _t;
    public const int K = 5;
    public required string Id { get; init; }
    public int P { get; private set; } = 3;
    public string Q => _s.ToString();
    public int this[int i] { get => i; set { } }
    public event EventHandler E, F;
    public event EventHandler G { add { } remove { } }
    public C(Stream s) : base(s) { }
    static C() { }
    ~C() { }
    [return: NotNull] public async Task<int> M<U>(ref int a, out string b, params object[] rest) where U : T => 0;
    void IDisposable.Dispose() { }
    partial void OnX();
    public static C operator +(C a, C b) => a;
    public static C operator -(C a) => a;
    public static C operator checked -(C a, C b) => a;
    public static implicit operator int(C c) => 0;
    public static explicit operator Stream(C c) => null;
    public static bool operator true(C c) => true;
}"#;
    assert_eq!(
        decls(src),
        "scope#0\n\
         type#0 class C<T> scope#0 : B where T: IDisposable\n\
         \x20 field _s: Stream [private readonly] init=body#0\n\
         \x20 field _t: Stream [private readonly]\n\
         \x20 const K: int [public const] init=body#1\n\
         \x20 property Id: string [public required] { get init }\n\
         \x20 property P: int [public] init=body#2 { get private set }\n\
         \x20 property Q: string [public] body#3\n\
         \x20 indexer this(int i): int [public] { get=body#4 set=body#5 }\n\
         \x20 event E: EventHandler [public]\n\
         \x20 event F: EventHandler [public]\n\
         \x20 event G: EventHandler [public] { add=body#6 remove=body#7 }\n\
         \x20 ctor C(Stream s) [public] body#8\n\
         \x20 static-ctor C() [static] body#9\n\
         \x20 finalizer C() body#10\n\
         \x20 method M<U>(ref int a, out string b, params object[] rest): Task<int> where U: T [public async] [return: NotNull] body#11\n\
         \x20 method IDisposable.Dispose(): void body#12\n\
         \x20 method OnX(): void [partial]\n\
         \x20 operator op_Addition(C a, C b): C [public static] body#13\n\
         \x20 operator op_UnaryNegation(C a): C [public static] body#14\n\
         \x20 operator op_CheckedSubtraction(C a, C b): C [public static] body#15\n\
         \x20 conversion op_Implicit(C c): int [public static] body#16\n\
         \x20 conversion op_Explicit(C c): Stream [public static] body#17\n\
         \x20 operator op_True(C c): bool [public static] body#18"
    );
}

#[test]
fn auto_properties_are_recognised() {
    let file = parse("class C { int A { get; set; } int B { get => 1; } abstract int D { get; } }");
    let members = &file.types[0].members;
    assert!(members[0].is_auto_property());
    assert!(!members[1].is_auto_property());
    assert!(!members[2].is_auto_property());
}

#[test]
fn enums_delegates_interfaces() {
    let src = "public enum Color : byte { Red = 1, [Obsolete] Green, Blue = Red | Green, }\n\
        public delegate TR Func2<in T, out TR>(T arg);\n\
        public interface IFoo<T> : IDisposable where T : class { void M(); int P { get; } }";
    assert_eq!(
        decls(src),
        "scope#0\n\
         type#0 enum Color scope#0 [public] : byte\n\
         \x20 enum-member Red init=body#0\n\
         \x20 enum-member Green [Obsolete]\n\
         \x20 enum-member Blue init=body#1\n\
         type#1 delegate Func2<in T, out TR> scope#0 [public]\n\
         \x20 invoke Invoke(T arg): TR\n\
         type#2 interface IFoo<T> scope#0 [public] : IDisposable where T:\n\
         \x20 method M(): void\n\
         \x20 property P: int { get }"
    );
}

#[test]
fn attribute_arguments_are_constants() {
    let src = r#"class C {
    [Generic<int>(typeof(string), nameof(C.Id), new[] { "a", "b" }, -5, 0x10, true, null, "a" + "b", @"x""y", """raw""", E.V, Named: 1)]
    [MustCall("Close"), Calls("this._s", "Dispose")] void G() { } }"#;
    assert!(
        decls(src).contains(
            "method G(): void [Generic<int>(typeof(string), nameof(Id), [\"a\", \"b\"], -5, 16, true, null, \"ab\", \"x\\\"y\", \"raw\", `E.V`, Named=1)] [MustCall(\"Close\")] [Calls(\"this._s\", \"Dispose\")] body#0"
        ),
        "{}",
        decls(src)
    );
    let file = parse(src);
    let attr = &file.types[0].members[0].attrs[1];
    assert_eq!(attr.simple_name(), "MustCall");
}

#[test]
fn parameter_modifiers_and_defaults() {
    let src = "static class X { static void M(this Stream s, in int a, ref readonly int b, scoped ref int c, string d = \"x\", \
        object e = null, bool f = true, long g = -1, Color h = Color.Red, [Owning] Stream i = default) { } }";
    assert!(decls(src).contains(
        "method M(this Stream s, in int a, ref readonly int b, ref int c, string d = \"x\", object e = null, bool f = true, long g = -1, Color h = …, [Owning] Stream i = …): void [static] body#0"
    ), "{}", decls(src));
}

#[test]
fn type_refs() {
    let src = "class C { A.B<int, string[]>.D x1; int?[,] x2; (int a, string) x3; delegate*<int, void> x4; \
        int* x5; global::System.IO.Stream x6; dynamic x7; List<(int, int)> x8; }";
    let d = decls(src);
    for ty in [
        "A.B<int,string[]>.D",
        "int?[,]",
        "(int a, string)",
        "delegate*",
        "int*",
        "global::System.IO.Stream",
        "dynamic",
        "List<(int, int)>",
    ] {
        assert!(
            d.contains(&format!(": {ty} ["))
                || d.contains(&format!(": {ty}\n"))
                || d.ends_with(&format!(": {ty}")),
            "{ty} in {d}"
        );
    }
}

#[test]
fn top_level_statements_form_one_body() {
    let src =
        "using System;\nvar x = args.Length;\nConsole.WriteLine(x);\nint F() => 1;\nclass C { }\n";
    let d = dump(src);
    assert!(d.contains("top-level body#0"), "{d}");
    assert!(
        d.contains("body#0 params=(args#0)\n  (block\n    (local x#2 = (. args#0 Length))\n    (expr (call (. Console WriteLine) x#2))\n    (local-fn F#1 (): int => 1))"),
        "{d}"
    );
}

#[test]
fn name_ranges_point_at_names() {
    let src = "class Foo { void Bar() { } int this[int i] => i; }";
    let file = parse(src);
    let t = &file.types[0];
    assert_eq!(
        &src[t.name_range.start as usize..t.name_range.end as usize],
        "Foo"
    );
    assert_eq!(
        &src[t.members[0].name_range.start as usize..t.members[0].name_range.end as usize],
        "Bar"
    );
    assert_eq!(
        &src[t.members[1].name_range.start as usize..t.members[1].name_range.end as usize],
        "this"
    );
}

#[test]
fn top_level_await_makes_the_body_async() {
    let file = parse("await Task.Delay(1);\n");
    assert!(file.top_level.is_some_and(|b| file.body(b).is_async));
    let file = parse("Func<Task> f = async () => await Task.Delay(1);\n");
    assert!(file.top_level.is_some_and(|b| file.body(b).is_async));
    let file = parse("System.Console.WriteLine();\n");
    assert!(file.top_level.is_some_and(|b| !file.body(b).is_async));
}
