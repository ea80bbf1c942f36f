//! Owning fields, `[CreatesMustCallFor]`, and verification of `[Calls]`,
//! `[MustCallAlias]` and overrides, each passing and failing side by side.

use crate::ir::{Body, Cond, Operand};
use crate::program::{
    Const, FieldId, MethodId, MethodKind, MustCall, Ownership, Provenance, Target, TypeId,
};
use crate::rules::Diagnostic;
use crate::testing::{Asm, Lib, mca, owning, param, rules, src, str_, v};

/// `class Holder : IDisposable { [Owning] Stream _s; Holder() { _s = File.OpenRead(p); } ... }`
struct Holder {
    lib: Lib,
    class: TypeId,
    field: FieldId,
    bodies: Vec<Body>,
}

fn holder(disposable: bool, readonly: bool) -> Holder {
    let mut lib = Lib::new();
    let supers = if disposable {
        vec![lib.object, lib.disposable]
    } else {
        vec![lib.object]
    };
    let class = lib.class("App.Holder", &supers);
    let field = lib.field(class, "_s", lib.stream, true, readonly);
    let ctor = lib.method(class, ".ctor", MethodKind::Constructor, vec![], None);
    let mut a = Asm::for_method(&lib, ctor);
    let this = a.this();
    let t = a.temp(Some(lib.file_stream));
    a.call(Some(t), lib.open_read, None, &[str_("p")]);
    a.store(this, field, v(t));
    let body = a.finish();
    Holder {
        lib,
        class,
        field,
        bodies: vec![body],
    }
}

impl Holder {
    /// Adds a method with a body built by `build`.
    fn method(
        &mut self,
        name: &str,
        params: Vec<crate::program::ParamDef>,
        build: impl FnOnce(&mut Asm, FieldId),
    ) -> MethodId {
        let m = self
            .lib
            .method(self.class, name, MethodKind::Ordinary, params, None);
        let mut a = Asm::for_method(&self.lib, m);
        build(&mut a, self.field);
        self.bodies.push(a.finish());
        m
    }
    fn check(&self) -> Vec<Diagnostic> {
        self.lib.check(&self.bodies)
    }
}

fn dispose_field(a: &mut Asm, f: FieldId) {
    // _s?.Dispose();
    let this = a.this();
    let t = a.temp(Some(a.lib().stream));
    a.load(t, this, f);
    a.if_(
        Cond::IsNull(t),
        |_| {},
        |a| {
            a.dispose(t);
        },
    );
}

#[test]
fn owning_field_disposed_by_dispose() {
    let mut h = holder(true, true);
    h.method("Dispose", vec![], dispose_field);
    assert!(h.check().is_empty(), "{:#?}", h.check());
}

#[test]
fn owning_field_not_disposed() {
    let mut h = holder(true, true);
    h.method("Dispose", vec![], |_, _| {});
    let diags = h.check();
    assert_eq!(rules(&diags), ["RLC0003"]);
    let d = &diags[0];
    assert_eq!(Some(d.primary.span), h.lib.p.fields[h.field.index()].span);
    assert!(d.message.contains("owning field `_s`"), "{}", d.message);
    assert!(d.help.as_deref().unwrap_or("").contains("`_s?.Dispose();`"));
    assert_eq!(d.fingerprint, "RLC0003:App.Holder:_s:0");
}

#[test]
fn owning_field_in_a_class_without_must_call_method() {
    let h = holder(false, true);
    let diags = h.check();
    assert_eq!(rules(&diags), ["RLC0003"]);
    assert!(
        diags[0]
            .help
            .as_deref()
            .unwrap_or("")
            .contains("implement `IDisposable`")
    );
}

#[test]
fn owning_field_disposed_on_only_some_paths() {
    let mut h = holder(true, true);
    h.method("Dispose", vec![], |a, f| {
        a.if_(Cond::Opaque, |a| dispose_field(a, f), |_| {});
    });
    assert_eq!(rules(&h.check()), ["RLC0003"]);
}

#[test]
fn dispose_bool_pattern_by_body() {
    // void Dispose() => Dispose(true);
    // void Dispose(bool disposing) { if (disposing) _s?.Dispose(); }  -- checked with disposing == true
    for (when_disposing, expect) in [(true, vec![]), (false, vec!["RLC0003"])] {
        let mut h = holder(true, true);
        let boolean = h.lib.boolean;
        let dispose_bool = h.method("Dispose", vec![param("disposing", boolean)], |a, f| {
            let disposing = a.param(0);
            if when_disposing {
                a.if_(Cond::Bool(disposing), |a| dispose_field(a, f), |_| {});
            } else {
                a.if_(Cond::Bool(disposing), |_| {}, |a| dispose_field(a, f));
            }
        });
        h.method("Dispose", vec![], |a, _| {
            let this = a.this();
            a.call(
                None,
                dispose_bool,
                Some(this),
                &[Operand::Const(Const::Bool(true))],
            );
        });
        assert_eq!(rules(&h.check()), expect);
    }
}

#[test]
fn dispose_bool_pattern_by_calls_spec() {
    // Dispose(bool) has [Calls("_s", "Dispose")] (inference supplies it); Dispose()
    // calling Dispose(true) is verified through it.
    let mut h = holder(true, true);
    let boolean = h.lib.boolean;
    let dispose_bool = h.lib.method(
        h.class,
        "Dispose",
        MethodKind::Ordinary,
        vec![param("disposing", boolean)],
        None,
    );
    h.lib.p.methods[dispose_bool.index()].has_body = false;
    let f = h.field;
    h.lib.calls(dispose_bool, Target::Field(f), &["Dispose"]);
    h.lib.p.methods[dispose_bool.index()].calls[0].provenance = Provenance::Inferred {
        rule: crate::program::InferRule::CallsFieldDisposed,
        evidence: crate::span::Span::new(crate::span::FileId(0), 0, 0),
    };
    let dispose = h.method("Dispose", vec![], |a, _| {
        let this = a.this();
        a.call(
            None,
            dispose_bool,
            Some(this),
            &[Operand::Const(Const::Bool(true))],
        );
    });
    h.lib.calls(dispose, Target::Field(f), &["Dispose"]);
    assert!(h.check().is_empty(), "{:#?}", h.check());
}

#[test]
fn calls_spec_is_verified() {
    for (all_paths, expect) in [(true, vec![]), (false, vec!["RLC0006"])] {
        let mut h = holder(true, true);
        let close = h.method("Close", vec![], |a, f| {
            if all_paths {
                dispose_field(a, f);
            } else {
                a.if_(Cond::Opaque, |a| dispose_field(a, f), |_| {});
            }
        });
        let f = h.field;
        h.lib.calls(close, Target::Field(f), &["Dispose"]);
        h.method("Dispose", vec![], |a, _| {
            let this = a.this();
            a.call(None, close, Some(this), &[]);
        });
        let diags = h.check();
        assert_eq!(rules(&diags), expect, "{diags:#?}");
        if let Some(d) = diags.first() {
            assert!(
                d.message
                    .contains("`Close` does not guarantee its `[Calls]`"),
                "{}",
                d.message
            );
            assert_eq!(d.secondary.len(), 1);
        }
    }
}

// ---- §5.1: SocketContainer --------------------------------------------------

fn socket_container(closes_first: bool, annotated: bool) -> Vec<Diagnostic> {
    let mut lib = Lib::new();
    let c = lib.class("App.SocketContainer", &[lib.object]);
    lib.p.types[c.index()].must_call = Some((MustCall::of(["Close"]), src()));
    let sock = lib.field(c, "sock", lib.socket, true, false);
    let ctor = lib.method(c, ".ctor", MethodKind::Constructor, vec![], None);
    let close = lib.method(c, "Close", MethodKind::Ordinary, vec![], None);
    let reconnect = lib.method(c, "Reconnect", MethodKind::Ordinary, vec![], None);
    if annotated {
        lib.p.methods[reconnect.index()].creates_must_call_for = vec![(Target::This, src())];
    }
    let mut bodies = Vec::new();
    let mut a = Asm::for_method(&lib, ctor);
    let (this, t) = (a.this(), a.temp(Some(lib.socket)));
    a.new_(Some(t), lib.socket_new_host, &[str_("h")]);
    a.store(this, sock, v(t));
    bodies.push(a.finish());
    let close_sock = |a: &mut Asm| {
        let this = a.this();
        let s = a.temp(Some(lib.socket));
        a.load(s, this, sock);
        a.call(None, lib.socket_close, Some(s), &[]);
    };
    let mut a = Asm::for_method(&lib, close);
    close_sock(&mut a);
    bodies.push(a.finish());
    let mut a = Asm::for_method(&lib, reconnect);
    if closes_first {
        close_sock(&mut a);
    }
    let (this, t) = (a.this(), a.temp(Some(lib.socket)));
    a.new_(Some(t), lib.socket_new_host, &[str_("h")]);
    a.store(this, sock, v(t));
    bodies.push(a.finish());
    lib.check(&bodies)
}

#[test]
fn socket_container_reconnect_verifies() {
    let diags = socket_container(true, true);
    assert!(diags.is_empty(), "{diags:#?}");
}

#[test]
fn socket_container_reconnect_without_close_or_annotation() {
    let diags = socket_container(false, true);
    assert_eq!(rules(&diags), ["RLC0004"]);
    assert!(
        diags[0]
            .message
            .contains("owning field `sock` is overwritten"),
        "{}",
        diags[0].message
    );
    assert_eq!(
        diags[0].help.as_deref(),
        Some("dispose the old value first: `sock?.Dispose();` before assigning `sock`")
    );
    assert_eq!(rules(&socket_container(true, false)), ["RLC0009"]);
    let mut both = rules(&socket_container(false, false));
    both.sort();
    assert_eq!(both, ["RLC0004", "RLC0009"]);
}

#[test]
fn constructor_assigning_an_owning_field_twice() {
    let mut h = holder(true, false);
    h.method("Dispose", vec![], dispose_field);
    // A second assignment in the constructor overwrites the first value.
    let ctor = h.lib.p.types[h.class.index()].methods[0];
    let mut a = Asm::for_method(&h.lib, ctor);
    let this = a.this();
    let (t1, t2) = (
        a.temp(Some(h.lib.file_stream)),
        a.temp(Some(h.lib.file_stream)),
    );
    a.call(Some(t1), h.lib.open_read, None, &[str_("a")]);
    a.store(this, h.field, v(t1));
    a.call(Some(t2), h.lib.open_read, None, &[str_("b")]);
    let second = a.store(this, h.field, v(t2));
    h.bodies[0] = a.finish();
    let diags = h.check();
    assert_eq!(rules(&diags), ["RLC0004"]);
    assert_eq!(diags[0].primary.span, h.bodies[0].node(second).span);
    assert!(
        diags[0].secondary[0]
            .message
            .contains("assigned here first")
    );
}

#[test]
fn lazy_initialisation_behind_a_null_test() {
    let mut h = holder(true, false);
    h.method("Dispose", vec![], dispose_field);
    let lib_stream = h.lib.file_stream;
    let open = h.lib.open_read;
    let m = h.method("Ensure", vec![], |a, f| {
        // if (_s == null) _s = File.OpenRead(p);
        let this = a.this();
        let cur = a.temp(Some(lib_stream));
        let t = a.temp(Some(lib_stream));
        a.load(cur, this, f);
        a.if_(
            Cond::IsNull(cur),
            |a| {
                a.call(Some(t), open, None, &[str_("p")]);
                a.store(this, f, v(t));
            },
            |_| {},
        );
    });
    h.lib.p.methods[m.index()].creates_must_call_for = vec![(Target::This, src())];
    assert!(h.check().is_empty(), "{:#?}", h.check());
}

// ---- §4.3: [MustCallAlias] verification -------------------------------------

fn alias_ctor(stores: bool) -> Vec<Diagnostic> {
    let mut h = holder(true, true);
    h.method("Dispose", vec![], dispose_field);
    let mut p = param("stream", h.lib.stream);
    p.must_call_alias = Some(src());
    let ctor = h
        .lib
        .method(h.class, ".ctor", MethodKind::Constructor, vec![p], None);
    h.lib.p.methods[ctor.index()].ret_must_call_alias = Some(src());
    let mut a = Asm::for_method(&h.lib, ctor);
    let (this, s) = (a.this(), a.param(0));
    if stores {
        a.store(this, h.field, v(s));
    } else {
        a.use_(s);
    }
    h.bodies.push(a.finish());
    h.check()
}

#[test]
fn must_call_alias_constructor_storing_into_an_owning_field() {
    assert!(alias_ctor(true).is_empty(), "{:#?}", alias_ctor(true));
}

#[test]
fn must_call_alias_not_verified() {
    let diags = alias_ctor(false);
    assert_eq!(rules(&diags), ["RLC0007"]);
    assert!(
        diags[0]
            .message
            .contains("`[MustCallAlias]` on parameter `stream`")
    );
}

#[test]
fn must_call_alias_method_returning_a_wrapper() {
    for wraps in [true, false] {
        let mut lib = Lib::new();
        let c = lib.class("App.Wrap", &[lib.object]);
        let mut p = param("s", lib.stream);
        p.must_call_alias = Some(src());
        let m = lib.method(
            c,
            "Reader",
            MethodKind::Ordinary,
            vec![p],
            Some(lib.stream_reader),
        );
        lib.p.methods[m.index()].ret_must_call_alias = Some(src());
        let mut a = Asm::for_method(&lib, m);
        let s = a.param(0);
        let r = a.temp(Some(lib.stream_reader));
        if wraps {
            a.new_(Some(r), lib.reader_new, &[v(s)]);
        } else {
            a.new_(
                Some(r),
                lib.reader_new_leave_open,
                &[v(s), Operand::Const(Const::Bool(true))],
            );
        }
        a.ret(Some(r));
        let body = a.finish();
        assert_eq!(rules(&lib.check(&[body])).is_empty(), wraps);
    }
}

#[test]
fn must_call_alias_passed_to_the_base_constructor() {
    let mut lib = Lib::new();
    let base = lib.class("App.Base", &[lib.object, lib.disposable]);
    let base_ctor = lib.method(
        base,
        ".ctor",
        MethodKind::Constructor,
        vec![mca(param("s", lib.stream))],
        None,
    );
    let derived = lib.class("App.Derived", &[base]);
    let mut p = param("s", lib.stream);
    p.must_call_alias = Some(src());
    let ctor = lib.method(derived, ".ctor", MethodKind::Constructor, vec![p], None);
    let mut a = Asm::for_method(&lib, ctor);
    let s = a.param(0);
    a.base_ctor(base_ctor, &[v(s)]);
    let body = a.finish();
    assert!(lib.check(&[body]).is_empty());
}

// ---- overrides -----------------------------------------------------------------

#[test]
fn overrides_may_not_weaken() {
    let mut lib = Lib::new();
    let base = lib.class("App.Sink", &[lib.object]);
    let take = lib.method(
        base,
        "Take",
        MethodKind::Ordinary,
        vec![owning(param("s", lib.stream))],
        None,
    );
    let peek = lib.method(base, "Peek", MethodKind::Ordinary, vec![], Some(lib.stream));
    lib.p.methods[peek.index()].ret_ownership = Ownership::NotOwning(src());
    let derived = lib.class("App.FileSink", &[base]);
    let take2 = lib.method(
        derived,
        "Take",
        MethodKind::Ordinary,
        vec![param("s", lib.stream)],
        None,
    );
    let peek2 = lib.method(
        derived,
        "Peek",
        MethodKind::Ordinary,
        vec![],
        Some(lib.stream),
    );
    let ok = lib.method(
        derived,
        "Take2",
        MethodKind::Ordinary,
        vec![owning(param("s", lib.stream))],
        None,
    );
    lib.p.methods[take2.index()].overrides = vec![take];
    lib.p.methods[peek2.index()].overrides = vec![peek];
    lib.p.methods[ok.index()].overrides = vec![take];
    let diags = lib.check(&[]);
    assert_eq!(rules(&diags), ["RLC0008", "RLC0008"], "{diags:#?}");
    assert!(
        diags
            .iter()
            .any(|d| d.message.contains("parameter `s` is not `[Owning]`"))
    );
    assert!(
        diags
            .iter()
            .any(|d| d.message.contains("its return is owning"))
    );
}

#[test]
fn overrides_keep_calls() {
    let mut h = holder(true, true);
    let close = h.method("Close", vec![], dispose_field);
    let f = h.field;
    h.lib.calls(close, Target::Field(f), &["Dispose"]);
    h.method("Dispose", vec![], dispose_field);
    let derived = h.lib.class("App.SubHolder", &[h.class]);
    let close2 = h
        .lib
        .method(derived, "Close", MethodKind::Ordinary, vec![], None);
    h.lib.p.methods[close2.index()].overrides = vec![close];
    let diags = h.check();
    assert_eq!(rules(&diags), ["RLC0008"], "{diags:#?}");
    assert!(diags[0].message.contains("`[Calls]` on `_s`"));
    h.lib.calls(close2, Target::Field(f), &["Dispose"]);
    assert!(h.check().is_empty());
}
