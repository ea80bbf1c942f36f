//! Which identifiers become which binding (C# scoping).

use super::common::{bindings, stmts};

#[test]
fn out_var_in_if_condition_is_visible_after_the_if() {
    assert_eq!(
        stmts("if (!int.TryParse(s, out var n)) return; Use(n);"),
        "(if (! (call (. int TryParse) s#1 out (decl var n#2)))\n  (return))\n(expr (call Use n#2))"
    );
}

#[test]
fn loop_and_using_variables_stay_in_their_statement() {
    assert_eq!(
        stmts("while (Read(out var w)) Use(w); Use(w);"),
        "(while (call Read out (decl var w#2))\n  (expr (call Use w#2)))\n(expr (call Use w))"
    );
    assert_eq!(
        stmts("for (var i = 0; i < 3; i++) Use(i); Use(i);"),
        "(for (\n  (local i#2 = 0)) (< i#2 3) ((post++ i#2))\n  (expr (call Use i#2)))\n(expr (call Use i))"
    );
    assert_eq!(
        stmts("foreach (var x in xs) Use(x); Use(x);"),
        "(foreach x#2 in xs\n  (expr (call Use x#2)))\n(expr (call Use x))"
    );
    assert_eq!(
        stmts("using (var r = new R()) Use(r); Use(r);"),
        "(using r#2 = (new R)\n  (expr (call Use r#2)))\n(expr (call Use r))"
    );
    assert_eq!(
        stmts("try { } catch (Exception e) { Use(e); } Use(e);"),
        "(try\n  (block)\n  (catch Exception e#2\n    (block\n      (expr (call Use e#2)))))\n(expr (call Use e))"
    );
}

#[test]
fn block_locals_end_with_their_block() {
    assert_eq!(
        stmts("{ int a = 1; } Use(a);"),
        "(block\n  (local a#2:int = 1))\n(expr (call Use a))"
    );
    assert_eq!(
        stmts("if (o is string t) Use(t); Use(t);"),
        "(if (is o#0 (string t#2))\n  (expr (call Use t#2)))\n(expr (call Use t#2))"
    );
}

#[test]
fn lambda_parameters_shadow_and_end_with_the_lambda() {
    assert_eq!(
        stmts("var x = 1; Func<int, int> g = x => x; Use(x);"),
        "(local x#2 = 1)\n(local g#3:Func<int,int> = (lambda (x#4) => x#4))\n(expr (call Use x#2))"
    );
    assert_eq!(
        stmts("Action a = () => { int z = 1; }; Use(z);"),
        "(local a#2:Action = (lambda ()\n  (block\n    (local z#3:int = 1))))\n(expr (call Use z))"
    );
}

#[test]
fn local_functions_are_visible_in_their_whole_block() {
    assert_eq!(
        stmts("Use(f); int f() => 1;"),
        "(expr (call Use f#2))\n(local-fn f#2 (): int => 1)"
    );
    assert_eq!(
        stmts("{ int g() => 2; } g();"),
        "(block\n  (local-fn g#2 (): int => 2))\n(expr (call g))"
    );
}

#[test]
fn switch_arm_and_section_variables_are_local_to_them() {
    assert_eq!(
        stmts("var t = o switch { int v => v, _ => 0 }; Use(v);"),
        "(local t#2 = (switch o#0 ((int v#3) => v#3) (_ => 0)))\n(expr (call Use v))"
    );
    assert_eq!(
        stmts("switch (o) { case int k: Use(k); break; case string k: Use(k); break; }"),
        "(switch o#0\n  (case (int k#2):\n    (expr (call Use k#2))\n    (break))\n  (case (string k#3):\n    (expr (call Use k#3))\n    (break)))"
    );
}

#[test]
fn member_names_and_named_arguments_are_not_lookups() {
    // `s` is a parameter, but `x.s`, `s:` and `{ s = 1 }` name members.
    assert_eq!(
        stmts("Use(x.s, s: 1, new C { s = 1 }, s);"),
        "(expr (call Use (. x s) s:1 (new C { s = 1 }) s#1))"
    );
}

#[test]
fn declared_before_initializer_as_in_csharp() {
    assert_eq!(stmts("var x = x + 1;"), "(local x#2 = (+ x#2 1))");
}

#[test]
fn query_range_variables_end_with_the_query() {
    assert_eq!(
        stmts("var q = from a in xs select a; Use(a);"),
        "(local q#2 = (query (from a#3 in xs) (select a#3)))\n(expr (call Use a))"
    );
}

#[test]
fn binding_kinds_and_types() {
    let src = "class C { int M(Stream p, ref int r) { var l = 1; int.TryParse(\"1\", out int o); \
        foreach (var f in xs) { } try { } catch (E c) { } if (p is FileStream fs) { } \
        Func<int, int> fn = x => x; int lf() => 1; var q = from rv in xs select rv; return 0; } }";
    assert_eq!(
        bindings(src),
        "(bindings p#0=param0:Stream r#1=param1:int lf#2=local-fn l#3=local o#4=out:int f#5=foreach c#6=catch:E fs#7=pattern:FileStream fn#8=local:Func<int,int> x#9=fn-param q#10=local rv#11=range)"
    );
}

#[test]
fn accessors_get_an_implicit_value_parameter() {
    let src = "class C { int this[int i] { set { _a[i] = value; } } event EventHandler E { add { _h += value; } remove { } } }";
    assert_eq!(
        bindings(src),
        "(bindings i#0=param0:int value#1=param1:int)"
    );
}

#[test]
fn primary_constructor_parameters_bind_in_initializers_only() {
    let src = "class C(Stream s) : Base(s) { Stream _s = s; void M() => s.Dispose(); }";
    let file = super::common::parse(src);
    let d = rlc_csharp::hir::dump(&file, src);
    assert!(d.contains("body#0 params=(s#0)\n  (: base s#0)"), "{d}");
    assert!(d.contains("body#1 params=(s#0)\n  s#0"), "{d}");
    assert!(d.contains("body#2\n  (call (. s Dispose))"), "{d}");
}
