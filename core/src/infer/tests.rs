use crate::ir::Cond;
use crate::program::{MethodKind, Ownership, Target};
use crate::testing::{Asm, Lib, param, v};

use super::{InferredAttr, SpecTarget, infer};

/// The paper's Fig. 1 (`MySqlCon`) without annotations: a helper that closes its
/// parameter, a `dispose` that hands the field to it, a constructor that stores
/// its parameter.
#[test]
fn infers_the_papers_figure_1() {
    let mut lib = Lib::new();
    let con = lib.socket;
    let c = lib.class("App.MySqlCon", &[lib.object]);
    let f = lib.field(c, "con", con, false, true);
    let ctor = lib.method(
        c,
        ".ctor",
        MethodKind::Constructor,
        vec![param("con", con)],
        None,
    );
    let close_con = lib.method(
        c,
        "closeCon",
        MethodKind::Ordinary,
        vec![param("obj", con)],
        None,
    );
    lib.p.methods[close_con.index()].is_static = true;
    let dispose = lib.method(c, "dispose", MethodKind::Ordinary, vec![], None);
    let mut bodies = Vec::new();
    {
        let mut a = Asm::for_method(&lib, ctor);
        let this = a.this();
        let p0 = a.param(0);
        a.store(this, f, v(p0));
        bodies.push(a.finish());
    }
    {
        let mut a = Asm::for_method(&lib, close_con);
        let p0 = a.param(0);
        a.call(None, lib.socket_close, Some(p0), &[]);
        bodies.push(a.finish());
    }
    {
        let mut a = Asm::for_method(&lib, dispose);
        let this = a.this();
        let t = a.temp(Some(con));
        a.load(t, this, f);
        a.call(None, close_con, None, &[v(t)]);
        bodies.push(a.finish());
    }
    let out = infer(&lib.p, &bodies);
    let has = |target: SpecTarget, attr: InferredAttr| {
        out.specs
            .iter()
            .any(|s| s.target == target && s.attr == attr)
    };
    assert!(
        has(SpecTarget::Param(close_con, 0), InferredAttr::Owning),
        "{:#?}",
        out.specs
    );
    assert!(has(
        SpecTarget::Method(dispose),
        InferredAttr::Calls {
            target: "this.con".into(),
            methods: vec!["Dispose".into()]
        }
    ));
    assert!(has(SpecTarget::Field(f), InferredAttr::Owning));
    assert!(has(
        SpecTarget::Type(c),
        InferredAttr::MustCall(vec!["dispose".into()])
    ));
    assert!(has(SpecTarget::Method(ctor), InferredAttr::MustCallAlias));
    assert!(has(SpecTarget::Param(ctor, 0), InferredAttr::MustCallAlias));
    // Deterministic: the same input gives the same output.
    assert_eq!(out.specs, infer(&lib.p, &bodies).specs);
}

#[test]
fn stated_specs_are_never_contradicted() {
    let mut lib = Lib::new();
    let c = lib.class("App.Helper", &[lib.object]);
    let mut p = param("s", lib.stream);
    p.ownership = Ownership::NotOwning(crate::testing::src());
    let m = lib.method(c, "Close", MethodKind::Ordinary, vec![p], None);
    let mut a = Asm::for_method(&lib, m);
    let p0 = a.param(0);
    a.dispose(p0);
    let out = infer(&lib.p, &[a.finish()]);
    assert!(out.specs.is_empty(), "{:#?}", out.specs);
}

#[test]
fn optimistic_disposal_on_one_path_is_enough() {
    let mut lib = Lib::new();
    let c = lib.class("App.Helper", &[lib.object]);
    let m = lib.method(
        c,
        "MaybeClose",
        MethodKind::Ordinary,
        vec![param("s", lib.stream)],
        None,
    );
    let mut a = Asm::for_method(&lib, m);
    let p0 = a.param(0);
    a.if_(
        Cond::Opaque,
        |a| {
            a.dispose(p0);
        },
        |_| {},
    );
    let out = infer(&lib.p, &[a.finish()]);
    assert_eq!(out.specs.len(), 1);
    assert_eq!(out.specs[0].target, SpecTarget::Param(m, 0));
    assert_eq!(out.specs[0].rule, "owning-param-disposed");
}

#[test]
fn a_field_reassigned_after_disposal_gets_no_calls() {
    let mut lib = Lib::new();
    let c = lib.class("App.Holder", &[lib.object]);
    let f = lib.field(c, "s", lib.stream, false, false);
    let m = lib.method(c, "Reset", MethodKind::Ordinary, vec![], None);
    let mut a = Asm::for_method(&lib, m);
    let this = a.this();
    let t = a.temp(Some(lib.stream));
    a.load(t, this, f);
    a.dispose(t);
    let n = a.temp(Some(lib.file_stream));
    a.new_(Some(n), lib.file_stream_new, &[crate::testing::str_("x")]);
    a.store(this, f, v(n));
    let out = infer(&lib.p, &[a.finish()]);
    assert!(
        !out.specs
            .iter()
            .any(|s| matches!(s.attr, InferredAttr::Calls { .. })),
        "{:#?}",
        out.specs
    );
}

#[test]
fn a_disposable_that_releases_nothing_has_no_obligation() {
    let mut lib = Lib::new();
    let c = lib.class("App.Scope", &[lib.object, lib.disposable]);
    let dispose = lib.method(c, "Dispose", MethodKind::Ordinary, vec![], None);
    let counter = lib.class("App.Counter", &[lib.object]);
    let _ = counter;
    let a = Asm::for_method(&lib, dispose);
    let out = infer(&lib.p, &[a.finish()]);
    assert!(
        out.specs
            .iter()
            .any(|s| s.target == SpecTarget::Type(c) && s.attr == InferredAttr::MustCall(vec![]))
    );
    assert_eq!(
        out.program
            .ty(c)
            .must_call
            .as_ref()
            .map(|(m, _)| m.is_empty()),
        Some(true)
    );
}

#[test]
fn a_disposable_with_a_stream_field_keeps_its_obligation() {
    let mut lib = Lib::new();
    let c = lib.class("App.Owner", &[lib.object, lib.disposable]);
    let f = lib.field(c, "s", lib.stream, false, false);
    let dispose = lib.method(c, "Dispose", MethodKind::Ordinary, vec![], None);
    let mut a = Asm::for_method(&lib, dispose);
    let this = a.this();
    let t = a.temp(Some(lib.stream));
    a.load(t, this, f);
    a.dispose(t);
    let out = infer(&lib.p, &[a.finish()]);
    assert!(!out.specs.iter().any(|s| s.rule == "no-obligation"));
    // Instead its field is owning and Dispose calls it.
    assert!(out.specs.iter().any(|s| s.target == SpecTarget::Field(f)));
    assert!(
        out.program
            .method(dispose)
            .calls
            .iter()
            .any(|c| c.target == Target::Field(f))
    );
}
