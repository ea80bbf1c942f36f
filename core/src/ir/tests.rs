use super::*;
use crate::program::MethodKind;
use crate::testing::{Asm, Lib, str_, v};

#[test]
fn dump_reads_like_three_address_code() {
    let mut lib = Lib::new();
    let c = lib.class("App.C", &[lib.object]);
    let m = lib.method(c, "M", MethodKind::Ordinary, vec![], None);
    let mut a = Asm::for_method(&lib, m);
    let s = a.local("s", lib.file_stream);
    let r = a.local("reader", lib.stream_reader);
    a.new_(Some(s), lib.file_stream_new, &[str_("p")]);
    a.new_(Some(r), lib.reader_new, &[v(s)]);
    a.try_catch(
        |a| {
            a.call(None, lib.reader_read_line, Some(r), &[]);
        },
        |_| {},
    );
    a.if_(
        Cond::IsNull(r),
        |_| {},
        |a| {
            a.dispose(r);
        },
    );
    a.scope_end(&[r, s]);
    let body = a.finish();
    let expected = "\
body C.M (method)
  var this: C [this]
  var s: FileStream [local]
  var reader: StreamReader [local]
  n0: nop -> n3
  n3: s = new FileStream(\"p\") -> n4 !exc n2
  n4: reader = new StreamReader(s) -> n6 !exc n2
  n5: nop -> n7
  n6: reader.ReadLine() -> n7 !exc n5 (explicit)
  n7: nop -> n8
  n8: nop -> if reader == null then n9 else n10
  n9: nop -> n12
  n10: nop -> n11
  n11: reader.Dispose() -> n12 !exc n2
  n12: nop -> n13
  n13: scope end reader, s -> n1
  n1: exit
  n2: exceptional exit
";
    assert_eq!(body.dump(Some(&lib.p)).to_string(), expected);
    // Without the program, ids stand in for names.
    let bare = body.to_string();
    assert!(bare.contains("n3: s = new t#"), "{bare}");
    assert!(bare.contains("var s: t#"), "{bare}");
}

#[test]
fn validation_rejects_dangling_ids() {
    let lib = Lib::new();
    let mut a = Asm::new(&lib, "C.M", BodyKind::Method);
    let x = a.local("x", lib.file_stream);
    a.dispose(x);
    let good = a.finish();
    assert_eq!(good.validate(&lib.p, 1), Ok(()));
    let mut bad = good.clone();
    bad.nodes[3].succ = Succ::Goto(NodeId(99));
    assert!(bad.validate(&lib.p, 1).unwrap_err().contains("edge"));
    let mut bad = good.clone();
    bad.nodes[3].stmt = Stmt::ScopeEnd(vec![VarId(7)]);
    assert!(bad.validate(&lib.p, 1).is_err());
    let mut bad = good.clone();
    bad.nodes[3].stmt = Stmt::Closure {
        dst: None,
        body: crate::ir::BodyId(3),
        captures: vec![],
    };
    assert!(bad.validate(&lib.p, 1).is_err());
    let mut bad = good;
    bad.vars[0].ty = ValueTy::of(TypeId(12345));
    assert!(bad.validate(&lib.p, 1).is_err());
    // The checker reports a malformed body instead of failing.
    let diags = crate::check_program(
        &lib.p,
        &crate::ir::Bodies::from(vec![bad]),
        &Default::default(),
    );
    assert_eq!(crate::testing::rules(&diags), ["RLC9004"]);
}
