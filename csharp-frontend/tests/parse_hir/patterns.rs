//! Patterns, including forms tree-sitter reads as expressions.

use super::common::expr;

#[test]
fn type_declaration_and_logical_patterns() {
    assert_eq!(
        expr("o is int i and > 0 or null"),
        "(is o#0 (or (and (int i#3) (> 0)) null))"
    );
    assert_eq!(expr("o is not string"), "(is o#0 (not (type string)))");
    assert_eq!(expr("x is >= 1 and <= 9"), "(is x (and (>= 1) (<= 9)))");
    assert_eq!(expr("o is (not null)"), "(is o#0 (not null))");
    assert_eq!(expr("o is string _"), "(is o#0 (string _))");
}

#[test]
fn recursive_patterns_with_extended_property_paths() {
    assert_eq!(
        expr("o is (1, var b) { Length: 2 } t"),
        "(is o#0 (rec (pos 1 (var b#3)) (props Length: 2) t#4))"
    );
    assert_eq!(expr("o is { A.B.C: 1 }"), "(is o#0 (rec (props A.B.C: 1)))");
    assert_eq!(
        expr("o is Point { X: var x } p"),
        "(is o#0 (rec Point (props X: (var x#3)) p#4))"
    );
    // Read by tree-sitter as calls; a call is never a constant.
    assert_eq!(
        expr("o is Point(X: 1, Y: _)"),
        "(is o#0 (rec Point (pos X: 1 Y: _)))"
    );
    assert_eq!(
        expr("o is Point(var x, int y, Inner(2, _))"),
        "(is o#0 (rec Point (pos (var x#3) (int y#4) (rec Inner (pos 2 _)))))"
    );
    // ... except `nameof(X)`, a string constant, not a type named `nameof`.
    assert_eq!(
        expr("s is nameof(Queryable.First) or \"x\""),
        "(is s#1 (or <string> \"x\"))"
    );
}

#[test]
fn var_patterns_flatten_designations() {
    assert_eq!(expr("o is var (p, (q, _))"), "(is o#0 (var p#3 q#4 _))");
    assert_eq!(expr("o is var v"), "(is o#0 (var v#3))");
}

#[test]
fn list_and_slice_patterns() {
    assert_eq!(
        expr("o is [1, .., var last]"),
        "(is o#0 [1 .. (var last#3)])"
    );
    assert_eq!(expr("o is [_, ..] all"), "(is o#0 [_ ..] all#3)");
    assert_eq!(expr("o is []"), "(is o#0 [])");
}

#[test]
fn not_binds_tighter_than_and_and_or() {
    // The grammar reads these as `not (null and not string)` and `A and not (B or C)`.
    assert_eq!(
        expr("o is not null and not string"),
        "(is o#0 (and (not null) (not (type string))))"
    );
    assert_eq!(
        expr("o is A and not B or C"),
        "(is o#0 (or (and A (not B)) C))"
    );
    assert_eq!(
        expr("o is not not A and B or C"),
        "(is o#0 (or (and (not (not A)) B) C))"
    );
    assert_eq!(expr("o is A or B and C"), "(is o#0 (or A (and B C)))");
    assert_eq!(expr("o is not (A or B)"), "(is o#0 (not (or A B)))");
}

#[test]
fn a_constant_pattern_does_not_swallow_a_looser_operator() {
    // tree-sitter reads these as `o is not (null || x)`: the test binds tighter.
    assert_eq!(expr("o is not null || x"), "(|| (is o#0 (not null)) x)");
    assert_eq!(expr("o is null && x || y"), "(|| (&& (is o#0 null) x) y)");
    assert_eq!(expr("o is not null"), "(is o#0 (not null))");
}
