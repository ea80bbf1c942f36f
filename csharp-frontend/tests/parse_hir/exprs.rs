//! Expressions: every kind, and the normalisation of `?.` chains.

use super::common::expr;

#[test]
fn conditional_access_chains_carry_the_flag_on_their_link() {
    assert_eq!(expr("a?.B.C()"), "(call (. (?. a B) C))");
    assert_eq!(expr("a?.B?.C"), "(?. (?. a B) C)");
    assert_eq!(expr("a.B?.C(d)?[0]"), "(?[] (call (?. (. a B) C) d) 0)");
}

#[test]
fn conditional_access_is_moved_back_under_operators() {
    // tree-sitter reads these as `(x ?? a)?.B`, `(!a)?.B`, `(await a)?.M()`.
    assert_eq!(expr("x ?? a?.B"), "(?? x (?. a B))");
    assert_eq!(expr("!a?.B"), "(! (?. a B))");
    assert_eq!(expr("await a?.M()"), "(await (call (?. a M)))");
    assert_eq!(expr("(T)a?.B"), "(cast T (?. a B))");
    assert_eq!(expr("y && a?.B == true"), "(&& y (== (?. a B) true))");
}

#[test]
fn member_access_and_calls() {
    assert_eq!(
        expr("x.M<int>(ref y, out var z, in w, name: 1)"),
        "(call (. x M<int>) ref y out (decl var z#3) in w name:1)"
    );
    assert_eq!(expr("Foo<int>.Bar"), "(. Foo<int> Bar)");
    assert_eq!(
        expr("global::System.Console.Out"),
        "(. (. global::System Console) Out)"
    );
    assert_eq!(expr("int.Parse(s)"), "(call (. int Parse) s#1)");
    assert_eq!(expr("this.x + base.y"), "(+ (. this x) (. base y))");
    assert_eq!(expr("p->X"), "(. (* p) X)");
    assert_eq!(expr("a!.B"), "(. (forgive a) B)");
    assert_eq!(expr("nameof(s.Length)"), "(call nameof (. s#1 Length))");
}

#[test]
fn object_creation_and_initializers() {
    assert_eq!(
        expr("new Foo(1) { A = 1, B = { X = 2 }, [3] = 4, C = { 5, 6 } }"),
        "(new Foo 1 { A = 1, B = (nested { X = 2 }), [ 3 ] = 4, C = (nested { (add 5), (add 6) }) })"
    );
    assert_eq!(
        expr("new List<int> { 1, 2, { 3, 4 } }"),
        "(new List<int> { (add 1), (add 2), (add 3 4) })"
    );
    assert_eq!(expr("new() { A = 1 }"), "(new { A = 1 })");
    assert_eq!(
        expr("new { A = 1, s.Length }"),
        "(new-anon A=1 (. s#1 Length))"
    );
    assert_eq!(expr("s with { Length = 1 }"), "(with s#1 { Length = 1 })");
}

#[test]
fn arrays_and_collections() {
    assert_eq!(expr("new int[2, 3]"), "(new-array int [2 3])");
    assert_eq!(expr("new int[3][]"), "(new-array int[] [3])");
    assert_eq!(expr("new[] { 1, 2 }"), "(new-array {1 2})");
    assert_eq!(expr("stackalloc int[4]"), "(new-array int [4])");
    assert_eq!(expr("stackalloc[] { 1 }"), "(new-array {1})");
    assert_eq!(expr("[1, ..xs, 2]"), "[1 ..xs 2]");
    assert_eq!(expr("[]"), "[]");
    assert_eq!(expr("xs[1..^1]"), "([] xs (.. 1 (^ 1)))");
    assert_eq!(expr("xs[..2]"), "([] xs (.. _ 2))");
    assert_eq!(expr("xs[..]"), "([] xs (.. _ _))");
}

#[test]
fn literals_keep_short_plain_strings_only() {
    assert_eq!(expr("\"plain\""), "\"plain\"");
    assert_eq!(expr("@\"verbatim\""), "\"verbatim\"");
    assert_eq!(expr("\"\"\"raw\"\"\""), "\"raw\"");
    assert_eq!(expr("\"esc\\n\""), "<string>");
    assert_eq!(expr(&format!("\"{}\"", "x".repeat(100))), "<string>");
    assert_eq!(expr("'c'"), "<char>");
    assert_eq!(expr("1.5e3"), "<real>");
    assert_eq!(expr("0xFF_FF"), "65535");
    assert_eq!(expr("99999999999999999999"), "<real>");
    assert_eq!(expr("null"), "null");
    assert_eq!(expr("true"), "true");
    // Generated tables concatenate thousands of literals: one constant.
    assert_eq!(expr("\"a\" + \"b\" + \"c\""), "<string>");
    assert_eq!(expr("$\"x{a,5:N2}y{b}\""), "(interp a 5 b)");
    assert_eq!(expr("$$\"\"\"{{a}}{{b}}\"\"\""), "(interp a b)");
}

#[test]
fn operators() {
    assert_eq!(
        expr("-a + +b - ~c * !d"),
        "(- (+ (- a) (+ b)) (* (~ c) (! d)))"
    );
    assert_eq!(expr("++x + x-- + ^x"), "(+ (+ (++pre x) (post-- x)) (^ x))");
    assert_eq!(expr("a > b ? c : d"), "(?: (> a b) c d)");
    assert_eq!(expr("a ?? b"), "(?? a b)");
    assert_eq!(expr("a << 1 >> 2 >>> 3"), "(>>> (>> (<< a 1) 2) 3)");
    assert_eq!(expr("(x, y) = (y, x)"), "(= (tuple x y) (tuple y x))");
    assert_eq!(expr("x ??= y"), "(??= x y)");
    assert_eq!(expr("x += y"), "(+= x y)");
    assert_eq!(expr("x >>>= 1"), "(>>>= x 1)");
    assert_eq!(expr("(int)x"), "(cast int x)");
    assert_eq!(expr("x as string"), "(as x string)");
    assert_eq!(expr("x is string"), "(is x (type string))");
    assert_eq!(expr("o ?? throw new X()"), "(?? o#0 (throw (new X)))");
    assert_eq!(expr("checked(a + 1)"), "(checked (+ a 1))");
    assert_eq!(expr("ref x"), "(ref x)");
    assert_eq!(expr("__makeref(x)"), "(other x)");
}

#[test]
fn type_expressions() {
    assert_eq!(expr("default(int)"), "(default int)");
    assert_eq!(expr("default"), "default");
    assert_eq!(expr("typeof(Dictionary<,>)"), "(typeof Dictionary<,>)");
    assert_eq!(expr("typeof(int?[])"), "(typeof int?[])");
    assert_eq!(expr("sizeof(int)"), "(sizeof int)");
    assert_eq!(expr("(a: 1, 2)"), "(tuple a:1 2)");
}

#[test]
fn lambdas_and_anonymous_methods() {
    assert_eq!(
        expr("static (int a, ref int b) => a"),
        "(lambda static (a#3 b#4) => a#3)"
    );
    assert_eq!(
        expr("async x => await x"),
        "(lambda async (x#3) => (await x#3))"
    );
    assert_eq!(
        expr("(a, _) => { return a; }"),
        "(lambda (a#3 _#4)\n  (block\n    (return a#3)))"
    );
    assert_eq!(
        expr("delegate (int a) { return a; }"),
        "(lambda (a#3)\n  (block\n    (return a#3)))"
    );
    assert_eq!(expr("delegate { }"), "(lambda ()\n  (block))");
    assert_eq!(
        expr("int (string x) => x.Length"),
        "(lambda (x#3): int => (. x#3 Length))"
    );
    assert_eq!(expr("[Pure] () => 1"), "(lambda [Pure] () => 1)");
}

#[test]
fn queries_bind_range_variables() {
    assert_eq!(
        expr(
            "from a in xs from b in a.Ys where b > 0 let c = b * 2 orderby c descending, a select new { a, c }"
        ),
        "(query (from a#3 in xs) (from b#4 in (. a#3 Ys)) (filter (> b#4 0)) (let c#5 (* b#4 2)) (filter c#5 a#3) (select (new-anon a#3 c#5)))"
    );
    assert_eq!(
        expr("from g in xs group g by g.K into grp select grp.Key"),
        "(query (from g#3 in xs) (select g#3 by (. g#3 K) into grp#4) (select (. grp#4 Key)))"
    );
    assert_eq!(
        expr("from int a in xs join b in ys on a equals b.A into bs select bs"),
        "(query (from a#3 in xs) (from b#4 in ys on a#3 (. b#4 A) into bs#5) (select bs#5))"
    );
}

#[test]
fn switch_expressions() {
    assert_eq!(
        expr("o switch { 1 => \"a\", int n when n > 1 => \"b\", _ => \"c\" }"),
        "(switch o#0 (1 => \"a\") ((int n#3) when (> n#3 1) => \"b\") (_ => \"c\"))"
    );
}

#[test]
fn operators_after_a_misnested_conditional_access_bind_to_it() {
    assert_eq!(expr("x || y && a?.B == c"), "(|| x (&& y (== (?. a B) c)))");
    assert_eq!(expr("y && a?.B + 1 == c"), "(&& y (== (+ (?. a B) 1) c))");
    assert_eq!(expr("y && a?.B is null"), "(&& y (is (?. a B) null))");
    assert_eq!(expr("(y && a?.B) == c"), "(== (&& y (?. a B)) c)");
    assert_eq!(expr("y && a?.B || z"), "(|| (&& y (?. a B)) z)");
}
