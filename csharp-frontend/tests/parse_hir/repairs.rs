//! Repairs of tree-sitter-c-sharp gaps: each parses without errors and keeps
//! the names of the original text.

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
