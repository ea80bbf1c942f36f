use crate::ir::Cond;
use crate::program::{MethodKind, Ownership, Target};
use crate::testing::{Asm, Lib, param, v};

use super::{Inference, InferredAttr, SpecTarget};
use crate::ir::{Bodies, Body};
use crate::program::InferRule;

fn infer(p: &crate::program::Program, bodies: &[Body]) -> Inference {
    super::infer(p, &Bodies::from(bodies.to_vec()))
}

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
    assert_eq!(out.specs[0].rule, InferRule::OwningParamDisposed);
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
    // For checking, the verdict keeps the obligation, marked as releasing
    // nothing, so that leaks are reported apart instead of hidden.
    assert!(out.program.ty(c).must_call.is_none());
    assert!(out.program.ty(c).harmless.is_some());
    let types = crate::must_call::MustCallTypes::compute(&out.program);
    let ob = types.of_type(c).expect("still an obligation");
    assert!(ob.harmless.is_some());
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
    assert!(!out.specs.iter().any(|s| s.rule == InferRule::NoObligation));
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

/// `App.Channel : IDisposable` with a non-readonly field `s` that `Dispose`
/// disposes, a `Reopen` that replaces it, a `Reset` that calls `Reopen` on
/// `this`, and a constructor that assigns it first.
struct Channel {
    lib: Lib,
    f: crate::program::FieldId,
    ctor: crate::program::MethodId,
    dispose: crate::program::MethodId,
    reopen: crate::program::MethodId,
    reset: crate::program::MethodId,
}

fn channel() -> Channel {
    let mut lib = Lib::new();
    let c = lib.class("App.Channel", &[lib.object, lib.disposable]);
    let f = lib.field(c, "s", lib.stream, false, false);
    let ctor = lib.method(c, ".ctor", MethodKind::Constructor, vec![], None);
    let dispose = lib.method(c, "Dispose", MethodKind::Ordinary, vec![], None);
    let reopen = lib.method(c, "Reopen", MethodKind::Ordinary, vec![], None);
    let reset = lib.method(c, "Reset", MethodKind::Ordinary, vec![], None);
    Channel {
        lib,
        f,
        ctor,
        dispose,
        reopen,
        reset,
    }
}

fn channel_bodies(ch: &Channel) -> Vec<crate::ir::Body> {
    let lib = &ch.lib;
    let open = |a: &mut Asm| {
        let this = a.this();
        let n = a.temp(Some(lib.file_stream));
        a.new_(Some(n), lib.file_stream_new, &[crate::testing::str_("x")]);
        a.store(this, ch.f, v(n));
    };
    let close = |a: &mut Asm| {
        let this = a.this();
        let t = a.temp(Some(lib.stream));
        a.load(t, this, ch.f);
        a.dispose(t);
    };
    let mut bodies = Vec::new();
    let mut a = Asm::for_method(lib, ch.ctor);
    open(&mut a);
    bodies.push(a.finish());
    let mut a = Asm::for_method(lib, ch.dispose);
    close(&mut a);
    bodies.push(a.finish());
    let mut a = Asm::for_method(lib, ch.reopen);
    close(&mut a);
    open(&mut a);
    bodies.push(a.finish());
    let mut a = Asm::for_method(lib, ch.reset);
    let this = a.this();
    a.call(None, ch.reopen, Some(this), &[]);
    bodies.push(a.finish());
    bodies
}

#[test]
fn reassigning_an_owning_field_creates_must_call_for_this_and_callers_follow() {
    let ch = channel();
    let bodies = channel_bodies(&ch);
    let out = infer(&ch.lib.p, &bodies);
    let cmcf: Vec<_> = out
        .specs
        .iter()
        .filter(|s| s.attr == InferredAttr::CreatesMustCallFor)
        .map(|s| (s.target.clone(), s.rule))
        .collect();
    assert_eq!(
        cmcf,
        vec![
            (SpecTarget::Method(ch.reopen), InferRule::CreatesMustCallFor),
            (
                SpecTarget::Method(ch.reset),
                InferRule::CreatesMustCallForCallee
            ),
        ],
        "{:#?}",
        out.specs
    );
    // The field became owning in the same run (owning-field), which the rule needs.
    assert!(out.program.field(ch.f).is_owning());
    for m in [ch.reopen, ch.reset] {
        let md = out.program.method(m);
        assert!(
            matches!(
                md.creates_must_call_for.as_slice(),
                [(Target::This, crate::program::Provenance::Inferred { .. })]
            ),
            "{:?}",
            md.creates_must_call_for
        );
    }
    for m in [ch.ctor, ch.dispose] {
        assert!(out.program.method(m).creates_must_call_for.is_empty());
    }
    let attr = InferredAttr::CreatesMustCallFor;
    assert_eq!(attr.kind(), "CreatesMustCallFor");
    assert!(
        InferRule::CreatesMustCallFor
            .reason()
            .contains("owning field")
    );
    assert!(
        InferRule::CreatesMustCallForCallee
            .reason()
            .contains("CreatesMustCallFor")
    );
    assert_eq!(out.specs, infer(&ch.lib.p, &bodies).specs);
    // The checker, given the inferred specs, no longer asks for the attribute.
    let mut checked = Lib::new();
    checked.p = out.program.clone();
    let diags = checked.check(&bodies);
    assert!(
        !diags.iter().any(|d| d.rule.code() == "RLC0009"),
        "{diags:#?}"
    );
}

#[test]
fn a_stated_creates_must_call_for_is_kept_and_propagates() {
    let mut ch = channel();
    ch.lib.p.methods[ch.reopen.index()].creates_must_call_for =
        vec![(Target::This, crate::testing::src())];
    let bodies = channel_bodies(&ch);
    let out = infer(&ch.lib.p, &bodies);
    let cmcf: Vec<_> = out
        .specs
        .iter()
        .filter(|s| s.attr == InferredAttr::CreatesMustCallFor)
        .map(|s| (s.target.clone(), s.rule))
        .collect();
    assert_eq!(
        cmcf,
        vec![(
            SpecTarget::Method(ch.reset),
            InferRule::CreatesMustCallForCallee
        )]
    );
    assert!(matches!(
        out.program
            .method(ch.reopen)
            .creates_must_call_for
            .as_slice(),
        [(Target::This, crate::program::Provenance::Source(_))]
    ));
}

#[test]
fn storing_null_a_free_value_or_into_a_readonly_field_or_in_a_setter_creates_nothing() {
    let mut lib = Lib::new();
    let c = lib.class("App.Holder", &[lib.object, lib.disposable]);
    let f = lib.field(c, "s", lib.stream, true, false);
    let r = lib.field(c, "r", lib.stream, true, true);
    let clear = lib.method(c, "Clear", MethodKind::Ordinary, vec![], None);
    let ro = lib.method(c, "Readonly", MethodKind::Ordinary, vec![], None);
    let free = lib.method(c, "Free", MethodKind::Ordinary, vec![], None);
    let setter = lib.method(c, "set_S", MethodKind::Setter, vec![], None);
    let mut bodies = Vec::new();
    let mut a = Asm::for_method(&lib, clear);
    let this = a.this();
    a.store(this, f, crate::testing::null());
    bodies.push(a.finish());
    let mut a = Asm::for_method(&lib, ro);
    let this = a.this();
    let n = a.temp(Some(lib.file_stream));
    a.new_(Some(n), lib.file_stream_new, &[crate::testing::str_("x")]);
    a.store(this, r, v(n));
    bodies.push(a.finish());
    let mut a = Asm::for_method(&lib, free);
    let this = a.this();
    let n = a.temp(Some(lib.object));
    a.store(this, f, v(n));
    bodies.push(a.finish());
    // A setter cannot carry the attribute where the checker reads it.
    let mut a = Asm::for_method(&lib, setter);
    let this = a.this();
    let n = a.temp(Some(lib.file_stream));
    a.new_(Some(n), lib.file_stream_new, &[crate::testing::str_("x")]);
    a.store(this, f, v(n));
    bodies.push(a.finish());
    let out = infer(&lib.p, &bodies);
    assert!(
        !out.specs
            .iter()
            .any(|s| s.attr == InferredAttr::CreatesMustCallFor),
        "{:#?}",
        out.specs
    );
}
