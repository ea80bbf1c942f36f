//! Statements.

use super::common::stmts;

#[test]
fn locals_using_and_const() {
    assert_eq!(
        stmts("using var st = File.Open(s); await using var a2 = Make(); const int K = 1;"),
        "(local using st#2 = (call (. File Open) s#1))\n(local await-using a2#3 = (call Make))\n(local const K#4:int = 1)"
    );
    assert_eq!(
        stmts("ref int r = ref arr[0]; int a = 1, b;"),
        "(local r#2:ref int = (ref ([] arr 0)))\n(local a#3:int = 1 b#4:int)"
    );
    assert_eq!(
        stmts("int[] xs = { 1, 2 };"),
        "(local xs#2:int[] = (new-array {1 2}))"
    );
}

#[test]
fn using_statements() {
    assert_eq!(
        stmts("using (Make()) { } await using (var c = Make()) { } using (var a = A(), b = B()) ;"),
        "(using (call Make)\n  (block))\n(await-using c#2 = (call Make)\n  (block))\n(using a#3 = (call A) b#4 = (call B)\n  (empty))"
    );
}

#[test]
fn deconstruction() {
    assert_eq!(
        stmts("var (a, (b, _)) = t; (var c, int d) = t; (c, d) = (d, c);"),
        "(expr (= (tuple (decl var a#2) (decl var b#3 _)) t))\n(expr (= (tuple (decl var c#4) (decl int d#5)) t))\n(expr (= (tuple c#4 d#5) (tuple d#5 c#4)))"
    );
    assert_eq!(
        stmts(
            "foreach (var (k, v) in m) { } foreach ((var k2, var v2) in m) { } await foreach (var x in xs) { }"
        ),
        "(foreach (decl var k#2 v#3) in m\n  (block))\n(foreach (tuple (decl var k2#4) (decl var v2#5)) in m\n  (block))\n(await-foreach x#6 in xs\n  (block))"
    );
}

#[test]
fn loops_and_branches() {
    assert_eq!(
        stmts("for (int i = 0, j = 1; i < 10; i++, j--) { } for (;;) break;"),
        "(for (\n  (local i#2:int = 0 j#3:int = 1)) (< i#2 10) ((post++ i#2) (post-- j#3))\n  (block))\n(for () _ ()\n  (break))"
    );
    assert_eq!(
        stmts("do x++; while (x < 3);"),
        "(do (< x 3)\n  (expr (post++ x)))"
    );
    assert_eq!(
        stmts("while (true) continue;"),
        "(while true\n  (continue))"
    );
    assert_eq!(
        stmts("if (a) x(); else if (b) y(); else { }"),
        "(if a\n  (expr (call x))\n  (if b\n    (expr (call y))\n    (block)))"
    );
}

#[test]
fn switch_sections_share_labels() {
    assert_eq!(
        stmts(
            "switch (x) { case 1: case 2: goto case 3; case int i when i > 5: goto default; default: break; }"
        ),
        "(switch x\n  (case 1: case 2:\n    (goto case 3))\n  (case (int i#2) when (> i#2 5):\n    (goto default))\n  (default:\n    (break)))"
    );
    assert_eq!(
        stmts("switch (x, y) { case (1, 2) when x > 0: case (_, _): break; }"),
        "(switch (tuple x y)\n  (case (rec (pos 1 2)) when (> x 0): case (rec (pos _ _)):\n    (break)))"
    );
}

#[test]
fn try_catch_finally() {
    assert_eq!(
        stmts(
            "try { } catch (IOException ex) when (ex.HResult == 1) { throw; } catch { } finally { }"
        ),
        "(try\n  (block)\n  (catch IOException ex#2 when (== (. ex#2 HResult) 1)\n    (block\n      (throw)))\n  (catch\n    (block))\n  (finally\n    (block)))"
    );
}

#[test]
fn other_statements() {
    assert_eq!(
        stmts("lock (this) { } fixed (byte* p = buf) { } checked { } unchecked { } unsafe { } ;"),
        "(lock this\n  (block))\n(fixed p#2:byte* = buf\n  (block))\n(block)\n(block)\n(block)\n(empty)"
    );
    assert_eq!(
        stmts("lbl: x++; goto lbl;"),
        "(lbl:\n  (expr (post++ x)))\n(goto lbl)"
    );
    assert_eq!(stmts("throw new Exception();"), "(throw (new Exception))");
    assert_eq!(stmts("return;"), "(return)");
}

#[test]
fn local_functions() {
    assert_eq!(
        stmts("int Fact(int n) => n <= 1 ? 1 : n * Fact(n - 1);"),
        "(local-fn Fact#2 (n#3): int => (?: (<= n#3 1) 1 (* n#3 (call Fact#2 (- n#3 1)))))"
    );
    assert_eq!(
        stmts("static async Task<T> Go<T>(T a) { await Task.Yield(); return a; }"),
        "(local-fn Go#2 async static<T> (a#3): Task<T>\n  (block\n    (expr (await (call (. Task Yield))))\n    (return a#3)))"
    );
}
