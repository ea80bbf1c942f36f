//! Algorithm 1 on hand-built IR: the paper's figures, then the C#-specific
//! rules, each with a passing and a failing variant side by side.

use crate::ir::{BodyKind, Cond, Stmt, VarKind};
use crate::options::ExceptionModel;
use crate::program::{MethodKind, Ownership, ParamMode, Provenance, Target, TypeKind};
use crate::rules::Diagnostic;
use crate::testing::{Asm, Lib, null, owning, param, rules, str_, v};

fn only(diags: &[Diagnostic], rule: &str) -> Diagnostic {
    assert_eq!(rules(diags), [rule], "{diags:#?}");
    diags[0].clone()
}

// ---- Fig. 1: a safe use of a socket, with a null test in `finally` ---------

fn fig1(lib: &mut Lib, null_check: bool, close: bool) -> Vec<Diagnostic> {
    let c = lib.class("App.Fig1", &[lib.object]);
    let m = lib.method(c, "Run", MethodKind::Ordinary, vec![], None);
    let mut a = Asm::for_method(lib, m);
    let s = a.local("s", lib.socket);
    a.copy(s, null());
    a.try_finally(
        |a| {
            a.try_catch(
                |a| {
                    a.new_(Some(s), lib.socket_new_host, &[str_("host")]);
                },
                |_| {},
            );
        },
        |a| {
            let closing = |a: &mut Asm| {
                if close {
                    a.call(None, lib.socket_close, Some(s), &[]);
                }
            };
            if null_check {
                a.if_(Cond::IsNull(s), |_| {}, closing);
            } else {
                closing(a);
            }
        },
    );
    a.scope_end(&[s]);
    let body = a.finish();
    lib.check(&[body])
}

#[test]
fn fig1_socket_closed_in_finally_behind_a_null_test() {
    assert!(fig1(&mut Lib::new(), true, true).is_empty());
    assert!(fig1(&mut Lib::new(), false, true).is_empty());
}

#[test]
fn fig1_without_close_leaks() {
    let d = only(&fig1(&mut Lib::new(), true, false), "RLC0001");
    assert!(d.message.contains("`Socket`"), "{}", d.message);
    assert!(d.message.contains("Dispose()"), "{}", d.message);
}

// ---- Fig. 3: s = null on one branch kills the only alias ----------------------

#[test]
fn fig3_alias_and_overwrite() {
    let mut lib = Lib::new();
    let c = lib.class("App.Fig3", &[lib.object]);
    let close_socket = lib.method(
        c,
        "CloseSocket",
        MethodKind::Ordinary,
        vec![owning(param("t", lib.socket))],
        None,
    );
    lib.p.methods[close_socket.index()].is_static = true;
    let m = lib.method(c, "Run", MethodKind::Ordinary, vec![], None);
    let mut a = Asm::for_method(&lib, m);
    let s = a.local("s", lib.socket);
    let t = a.local("t", lib.socket);
    let alloc = a.new_(Some(s), lib.socket_new_host, &[str_("h")]);
    let mut lost = None;
    a.if_(
        Cond::Opaque,
        |a| lost = Some(a.copy(s, null())),
        |a| {
            a.copy(t, v(s));
            a.call(None, close_socket, None, &[v(t)]);
        },
    );
    a.scope_end(&[s, t]);
    let body = a.finish();
    // Reported where it is lost, the place to fix, with the allocation beside it.
    let d = only(&lib.check(std::slice::from_ref(&body)), "RLC0004");
    let lost = lost.map(|n| body.node(n).span);
    assert_eq!(Some(d.primary.span), lost);
    assert!(d.message.contains("`s` is overwritten"), "{}", d.message);
    assert_eq!(
        d.secondary.first().map(|l| l.span),
        Some(body.node(alloc).span)
    );
    assert!(
        d.help
            .as_deref()
            .unwrap_or("")
            .contains("before assigning `s`"),
        "{:?}",
        d.help
    );
}

// ---- §3: ownership transfer through an [Owning] parameter -------------------

fn close_socket_example(param_owning: bool, callee_closes: bool) -> Vec<Diagnostic> {
    let mut lib = Lib::new();
    let c = lib.class("App.Example", &[lib.object]);
    let mut t = param("t", lib.socket);
    if param_owning {
        t = owning(t);
    }
    let close_socket = lib.method(c, "CloseSocket", MethodKind::Ordinary, vec![t], None);
    let example = lib.method(c, "Example", MethodKind::Ordinary, vec![], None);
    let mut a = Asm::for_method(&lib, example);
    let s = a.local("s", lib.socket);
    a.new_(Some(s), lib.socket_new_host, &[str_("h")]);
    let this = a.this();
    a.call(None, close_socket, Some(this), &[v(s)]);
    a.scope_end(&[s]);
    let caller = a.finish();
    let mut a = Asm::for_method(&lib, close_socket);
    let t = a.param(0);
    if callee_closes {
        a.call(None, lib.socket_close, Some(t), &[]);
    }
    let callee = a.finish();
    lib.check(&[caller, callee])
}

#[test]
fn owning_parameter_takes_the_obligation() {
    assert!(close_socket_example(true, true).is_empty());
}

#[test]
fn non_owning_parameter_leaves_it_with_the_caller() {
    let d = only(&close_socket_example(false, true), "RLC0001");
    assert!(
        d.secondary[0].message.contains("`s` goes out of scope"),
        "{:?}",
        d.secondary
    );
    assert_eq!(
        d.help.as_deref(),
        Some("declare it with `using`: `using var s = ...;`")
    );
}

#[test]
fn owning_parameter_is_an_obligation_of_the_callee() {
    let d = only(&close_socket_example(true, false), "RLC0001");
    assert!(
        d.message.contains("`[Owning]` parameter `t`"),
        "{}",
        d.message
    );
    assert!(
        d.help
            .as_deref()
            .unwrap_or("")
            .contains("`t` is `[Owning]`"),
        "{:?}",
        d.help
    );
    assert!(
        d.facts.iter().any(|f| f.fact.contains("`t` is `[Owning]`")),
        "{:?}",
        d.facts
    );
}

// ---- §4.1: wrappers share the obligation, one report per cluster -------------

fn wrapper(
    inner_memory: bool,
    dispose_reader: bool,
    dispose_inner: bool,
) -> (Vec<Diagnostic>, crate::ir::Body, [crate::ir::NodeId; 2]) {
    let mut lib = Lib::new();
    let c = lib.class("App.W", &[lib.object]);
    let m = lib.method(c, "Read", MethodKind::Ordinary, vec![], None);
    let mut a = Asm::for_method(&lib, m);
    let fs = a.local(
        "fs",
        if inner_memory {
            lib.memory_stream
        } else {
            lib.file_stream
        },
    );
    let r = a.local("reader", lib.stream_reader);
    let inner = if inner_memory {
        a.new_(Some(fs), lib.memory_stream_new, &[])
    } else {
        a.new_(Some(fs), lib.file_stream_new, &[str_("p")])
    };
    let outer = a.new_(Some(r), lib.reader_new, &[v(fs)]);
    a.call(None, lib.reader_read_line, Some(r), &[]);
    if dispose_reader {
        a.dispose(r);
    }
    if dispose_inner {
        a.dispose(fs);
    }
    a.scope_end(&[r, fs]);
    let body = a.finish();
    (lib.check(std::slice::from_ref(&body)), body, [inner, outer])
}

#[test]
fn wrapper_disposed_through_either_alias() {
    assert!(wrapper(false, true, false).0.is_empty());
    assert!(wrapper(false, false, true).0.is_empty());
}

#[test]
fn wrapper_of_a_resource_free_stream_has_no_obligation() {
    assert!(wrapper(true, false, false).0.is_empty());
}

#[test]
fn wrapper_cluster_reported_once_at_the_outermost_wrapper() {
    let (diags, body, [inner, outer]) = wrapper(false, false, false);
    let d = only(&diags, "RLC0001");
    assert_eq!(d.primary.span, body.node(outer).span);
    assert!(d.message.contains("`StreamReader`"), "{}", d.message);
    assert!(
        d.secondary
            .iter()
            .any(|l| l.span == body.node(inner).span && l.message.contains("`FileStream`"))
    );
    assert!(
        d.notes
            .iter()
            .any(|n| n.contains("also disposes the `FileStream`")),
        "{:?}",
        d.notes
    );
}

// ---- §4.2: beyond wrappers, getFD() as a receiver alias ----------------------

#[test]
fn resource_alias_through_an_intermediate_object() {
    let mut lib = Lib::new();
    let raf = lib.class("Java.RandomAccessFile", &[lib.object, lib.disposable]);
    let fd_ty = lib.class("Java.FileDescriptor", &[lib.object]);
    let raf_new = lib.method(raf, ".ctor", MethodKind::Constructor, vec![], None);
    let get_fd = lib.method(raf, "GetFD", MethodKind::Ordinary, vec![], Some(fd_ty));
    lib.p.methods[get_fd.index()].this_must_call_alias = Some(Provenance::Library);
    let fis = lib.class("Java.FileInputStream", &[lib.stream]);
    let mut fd_param = param("fd", fd_ty);
    fd_param.must_call_alias = Some(Provenance::Library);
    let fis_new = lib.method(fis, ".ctor", MethodKind::Constructor, vec![fd_param], None);
    let c = lib.class("App.Hadoop", &[lib.object]);
    let m = lib.method(c, "Run", MethodKind::Ordinary, vec![], None);
    let mut a = Asm::for_method(&lib, m);
    let file = a.local("file", raf);
    let input = a.local("input", fis);
    let fd = a.temp(Some(fd_ty));
    a.new_(Some(file), raf_new, &[]);
    a.call(Some(fd), get_fd, Some(file), &[]);
    a.new_(Some(input), fis_new, &[v(fd)]);
    a.call(None, lib.close, Some(input), &[]);
    a.scope_end(&[file, input]);
    let body = a.finish();
    assert!(lib.check(&[body]).is_empty());
}

// ---- §5: [CreatesMustCallFor] -----------------------------------------------

#[test]
fn creates_must_call_for_resets_the_obligation_at_the_call_site() {
    for (close_after, expect) in [(true, vec![]), (false, vec!["RLC0001"])] {
        let mut lib = Lib::new();
        let c = lib.class("App.User", &[lib.object]);
        let m = lib.method(c, "Run", MethodKind::Ordinary, vec![], None);
        let mut a = Asm::for_method(&lib, m);
        let s = a.local("s", lib.socket);
        a.new_(Some(s), lib.socket_new_host, &[str_("h")]);
        a.call(None, lib.socket_close, Some(s), &[]);
        let reconnect = a.call(None, lib.socket_connect, Some(s), &[]);
        if close_after {
            a.call(None, lib.socket_close, Some(s), &[]);
        }
        a.scope_end(&[s]);
        let body = a.finish();
        let diags = lib.check(std::slice::from_ref(&body));
        assert_eq!(rules(&diags), expect);
        if let Some(d) = diags.first() {
            assert_eq!(d.primary.span, body.node(reconnect).span);
            assert!(
                d.message
                    .contains("`Connect` creates a new obligation for `s`"),
                "{}",
                d.message
            );
        }
    }
}

#[test]
fn unconnected_socket_has_no_obligation_until_connected() {
    // §5.2: `new Socket()` is `[return: MustCall]`; Connect() creates the obligation.
    for (connect, expect) in [(false, vec![]), (true, vec!["RLC0001"])] {
        let mut lib = Lib::new();
        let c = lib.class("App.Zk", &[lib.object]);
        let m = lib.method(c, "CreateSocket", MethodKind::Ordinary, vec![], None);
        let mut a = Asm::for_method(&lib, m);
        let s = a.local("sock", lib.socket);
        a.new_(Some(s), lib.socket_new, &[]);
        a.use_(s);
        if connect {
            a.call(None, lib.socket_connect, Some(s), &[]);
        }
        a.scope_end(&[s]);
        let body = a.finish();
        assert_eq!(rules(&lib.check(&[body])), expect);
    }
}

#[test]
fn creates_must_call_for_this_inside_a_method_needs_the_annotation() {
    for annotated in [true, false] {
        let mut lib = Lib::new();
        let wrapper = lib.class("App.Conn", &[lib.object, lib.disposable]);
        let open = lib.method(wrapper, "Open", MethodKind::Ordinary, vec![], None);
        lib.p.methods[open.index()].creates_must_call_for =
            vec![(Target::This, Provenance::Library)];
        let reopen = lib.method(wrapper, "Reopen", MethodKind::Ordinary, vec![], None);
        if annotated {
            lib.p.methods[reopen.index()].creates_must_call_for =
                vec![(Target::This, crate::testing::src())];
        }
        let mut a = Asm::for_method(&lib, reopen);
        let this = a.this();
        a.call(None, open, Some(this), &[]);
        let body = a.finish();
        let diags = lib.check(&[body]);
        if annotated {
            assert!(diags.is_empty(), "{diags:#?}");
        } else {
            let d = only(&diags, "RLC0009");
            assert!(
                d.help
                    .as_deref()
                    .unwrap_or("")
                    .contains("[CreatesMustCallFor(\"this\")]")
            );
        }
    }
}

// ---- loops, returns, discarded results ----------------------------------------

#[test]
fn overwritten_in_a_loop() {
    for dispose in [true, false] {
        let mut lib = Lib::new();
        let c = lib.class("App.Loop", &[lib.object]);
        let m = lib.method(c, "Run", MethodKind::Ordinary, vec![], None);
        let mut a = Asm::for_method(&lib, m);
        let x = a.local("x", lib.file_stream);
        let mut alloc = None;
        a.loop_(Cond::Opaque, |a| {
            alloc = Some(a.new_(Some(x), lib.file_stream_new, &[str_("p")]));
            a.use_(x);
            if dispose {
                a.dispose(x);
            }
        });
        a.scope_end(&[x]);
        let body = a.finish();
        let diags = lib.check(std::slice::from_ref(&body));
        if dispose {
            assert!(diags.is_empty(), "{diags:#?}");
        } else {
            // Lost where it is overwritten on the next iteration: the allocation.
            let d = only(&diags, "RLC0004");
            assert_eq!(Some(d.primary.span), alloc.map(|n| body.node(n).span));
            assert!(d.message.contains("`x` is overwritten"), "{}", d.message);
        }
    }
}

fn returns(kind: MethodKind, not_owning: bool) -> Vec<Diagnostic> {
    let mut lib = Lib::new();
    let c = lib.class("App.Factory", &[lib.object]);
    let m = lib.method(c, "Open", kind, vec![], Some(lib.stream));
    if not_owning {
        lib.p.methods[m.index()].ret_ownership = Ownership::NotOwning(crate::testing::src());
    }
    let mut a = Asm::for_method(&lib, m);
    let s = a.local("s", lib.file_stream);
    a.new_(Some(s), lib.file_stream_new, &[str_("p")]);
    a.ret(Some(s));
    let body = a.finish();
    lib.check(&[body])
}

/// A not-owning return taken from the method `Open` implements: the finding
/// names that method, not an attribute `Open` does not have.
#[test]
fn an_inherited_not_owning_return_is_named_where_it_is_stated() {
    let mut lib = Lib::new();
    let source = lib.class("App.ISource", &[]);
    lib.p.types[source.index()].kind = TypeKind::Interface;
    let base = lib.method(
        source,
        "Open",
        MethodKind::Ordinary,
        vec![],
        Some(lib.stream),
    );
    lib.p.methods[base.index()].ret_ownership = Ownership::NotOwning(Provenance::Library);
    let c = lib.class("App.Factory", &[source]);
    let m = lib.method(c, "Open", MethodKind::Ordinary, vec![], Some(lib.stream));
    lib.p.methods[m.index()].ret_ownership = Ownership::NotOwning(Provenance::Library);
    lib.p.methods[m.index()].overrides = vec![base];
    let mut a = Asm::for_method(&lib, m);
    let s = a.local("s", lib.file_stream);
    a.new_(Some(s), lib.file_stream_new, &[str_("p")]);
    a.ret(Some(s));
    let body = a.finish();
    let d = only(&lib.check(&[body]), "RLC0001");
    let help = d.help.as_deref().unwrap_or("");
    assert!(
        help.contains("takes `[return: NotOwning]` from `ISource.Open`, which it implements"),
        "{help}"
    );
    assert!(!help.contains("remove"), "{help}");
    assert!(
        d.facts
            .iter()
            .any(|f| f.fact.contains("like `ISource.Open`, which it implements")),
        "{:?}",
        d.facts
    );
}

#[test]
fn returning_transfers_ownership_from_an_owning_return() {
    assert!(returns(MethodKind::Ordinary, false).is_empty());
}

#[test]
fn returning_from_a_getter_or_not_owning_method_does_not() {
    let d = only(&returns(MethodKind::Getter, false), "RLC0001");
    assert!(
        d.secondary[0]
            .message
            .contains("property getter does not pass ownership"),
        "{:?}",
        d.secondary
    );
    assert!(
        d.help
            .as_deref()
            .unwrap_or("")
            .contains("`[return: Owning]`")
    );
    let d = only(&returns(MethodKind::Ordinary, true), "RLC0001");
    assert!(d.secondary[0].message.contains("does not return ownership"));
    assert!(
        d.facts
            .iter()
            .any(|f| f.fact.contains("does not return ownership"))
    );
}

#[test]
fn discarded_results_leak_at_the_call() {
    let mut lib = Lib::new();
    let c = lib.class("App.Touch", &[lib.object]);
    let m = lib.method(c, "Touch", MethodKind::Ordinary, vec![], None);
    let mut a = Asm::for_method(&lib, m);
    let call = a.call(None, lib.open_read, None, &[str_("p")]);
    let body = a.finish();
    let d = only(&lib.check(std::slice::from_ref(&body)), "RLC0001");
    assert_eq!(d.primary.span, body.node(call).span);
    assert!(
        d.message.contains("returned by `OpenRead` is discarded"),
        "{}",
        d.message
    );
    assert!(
        d.facts
            .iter()
            .any(|f| f.fact == "`OpenRead` returns an owning value"
                && f.provenance == Provenance::Default)
    );
}

// ---- fields -----------------------------------------------------------------

#[test]
fn storing_into_owning_and_non_owning_fields() {
    for owning_field in [true, false] {
        let mut lib = Lib::new();
        let c = lib.class("App.Holder", &[lib.object, lib.disposable]);
        let f = lib.field(c, "_stream", lib.stream, owning_field, true);
        let ctor = lib.method(c, ".ctor", MethodKind::Constructor, vec![], None);
        let dispose = lib.method(c, "Dispose", MethodKind::Ordinary, vec![], None);
        let mut a = Asm::for_method(&lib, ctor);
        let t = a.temp(Some(lib.file_stream));
        let this = a.this();
        a.new_(Some(t), lib.file_stream_new, &[str_("p")]);
        a.store(this, f, v(t));
        let ctor_body = a.finish();
        let mut a = Asm::for_method(&lib, dispose);
        let this = a.this();
        let t = a.temp(Some(lib.stream));
        a.load(t, this, f);
        a.dispose(t);
        let dispose_body = a.finish();
        let diags = lib.check(&[ctor_body, dispose_body]);
        if owning_field {
            assert!(diags.is_empty(), "{diags:#?}");
        } else {
            let d = only(&diags, "RLC0001");
            assert!(
                d.help
                    .as_deref()
                    .unwrap_or("")
                    .contains("mark `_stream` `[Owning]`"),
                "{:?}",
                d.help
            );
        }
    }
}

#[test]
fn static_fields_keep_values_for_the_program_lifetime() {
    let mut lib = Lib::new();
    let c = lib.class("App.Shared", &[lib.object]);
    let f = lib.field(c, "Client", lib.http_client, false, true);
    lib.p.fields[f.index()].is_static = true;
    let cctor = lib.method(c, ".cctor", MethodKind::StaticConstructor, vec![], None);
    lib.p.methods[cctor.index()].is_static = true;
    let mut a = Asm::for_method(&lib, cctor);
    let h = a.temp(Some(lib.handler));
    let t = a.temp(Some(lib.http_client));
    a.new_(Some(h), lib.handler_new, &[]);
    a.new_(Some(t), lib.http_new, &[v(h), crate::ir::Operand::Default]);
    a.emit(Stmt::Store {
        base: None,
        field: crate::ir::FieldRef::Known(f),
        src: v(t),
    });
    let body = a.finish();
    assert!(lib.check(&[body]).is_empty());
}

// ---- ownership conditions: leaveOpen / disposeHandler -------------------------

fn leave_open(
    arg: crate::ir::Operand,
    known_local: Option<bool>,
    dispose_stream: bool,
) -> Vec<Diagnostic> {
    let mut lib = Lib::new();
    let c = lib.class("App.L", &[lib.object]);
    let m = lib.method(
        c,
        "Read",
        MethodKind::Ordinary,
        vec![param("flag", lib.boolean)],
        None,
    );
    let mut a = Asm::for_method(&lib, m);
    let fs = a.local("fs", lib.file_stream);
    let r = a.local("reader", lib.stream_reader);
    let flag = a.local("keep", lib.boolean);
    a.new_(Some(fs), lib.file_stream_new, &[str_("p")]);
    let arg = match known_local {
        Some(b) => {
            a.copy(
                flag,
                crate::ir::Operand::Const(crate::program::Const::Bool(b)),
            );
            v(flag)
        }
        None => arg,
    };
    a.new_(Some(r), lib.reader_new_leave_open, &[v(fs), arg]);
    a.dispose(r);
    if dispose_stream {
        a.dispose(fs);
    }
    a.scope_end(&[r, fs, flag]);
    let body = a.finish();
    lib.check(&[body])
}

#[test]
fn leave_open_constant_decides_the_alias() {
    use crate::ir::Operand::{Const as C, Default as D};
    use crate::program::Const::Bool;
    // leaveOpen: false (or omitted): the reader owns the stream.
    assert!(leave_open(C(Bool(false)), None, false).is_empty());
    assert!(leave_open(D, None, false).is_empty());
    // leaveOpen: true: the stream is still ours.
    let d = only(&leave_open(C(Bool(true)), None, false), "RLC0001");
    assert!(d.message.contains("`FileStream`"), "{}", d.message);
    assert!(leave_open(C(Bool(true)), None, true).is_empty());
}

#[test]
fn leave_open_from_a_known_bool_local() {
    let unused = crate::ir::Operand::Default;
    assert!(leave_open(unused.clone(), Some(false), false).is_empty());
    assert_eq!(
        rules(&leave_open(unused.clone(), Some(true), false)),
        ["RLC0001"]
    );
}

#[test]
fn leave_open_unknown_is_conservative_and_says_so() {
    // `flag` is a parameter: its value is not known.
    let mut lib = Lib::new();
    let c = lib.class("App.L", &[lib.object]);
    let m = lib.method(
        c,
        "Read",
        MethodKind::Ordinary,
        vec![param("flag", lib.boolean)],
        None,
    );
    let mut a = Asm::for_method(&lib, m);
    let flag = a.param(0);
    let fs = a.local("fs", lib.file_stream);
    let r = a.local("reader", lib.stream_reader);
    a.new_(Some(fs), lib.file_stream_new, &[str_("p")]);
    let call = a.new_(Some(r), lib.reader_new_leave_open, &[v(fs), v(flag)]);
    a.dispose(r);
    a.scope_end(&[r, fs]);
    let body = a.finish();
    let d = only(&lib.check(std::slice::from_ref(&body)), "RLC0001");
    assert!(d.message.contains("`FileStream`"));
    assert!(d.secondary.iter().any(|l| l.span == body.node(call).span && l.message.contains("depends on `leaveOpen`")));
    assert!(
        d.notes
            .iter()
            .any(|n| n.contains("`leaveOpen` is not known")),
        "{:?}",
        d.notes
    );
}

#[test]
fn dispose_handler_false_keeps_the_handler_obligation() {
    use crate::ir::Operand::Const as C;
    use crate::program::Const::Bool;
    for (dispose_handler, expect) in [(true, vec![]), (false, vec!["RLC0001"])] {
        let mut lib = Lib::new();
        let c = lib.class("App.H", &[lib.object]);
        let m = lib.method(c, "Get", MethodKind::Ordinary, vec![], None);
        let mut a = Asm::for_method(&lib, m);
        let h = a.local("handler", lib.handler);
        let client = a.local("client", lib.http_client);
        a.new_(Some(h), lib.handler_new, &[]);
        a.new_(
            Some(client),
            lib.http_new,
            &[v(h), C(Bool(dispose_handler))],
        );
        a.dispose(client);
        a.scope_end(&[client, h]);
        let body = a.finish();
        assert_eq!(rules(&lib.check(&[body])), expect);
    }
}

// ---- exception models -------------------------------------------------------

fn try_catch_body(lib: &mut Lib) -> crate::ir::Body {
    // try { var s = new FileStream(p); Use(s); s.Dispose(); } catch { }
    let c = lib.class("App.E", &[lib.object]);
    let m = lib.method(c, "Run", MethodKind::Ordinary, vec![], None);
    let mut a = Asm::for_method(lib, m);
    let s = a.local("s", lib.file_stream);
    a.try_catch(
        |a| {
            a.new_(Some(s), lib.file_stream_new, &[str_("p")]);
            a.use_(s);
            a.dispose(s);
        },
        |_| {},
    );
    a.scope_end(&[s]);
    a.finish()
}

#[test]
fn exception_models_decide_which_edges_count() {
    let mut lib = Lib::new();
    let body = try_catch_body(&mut lib);
    let d = only(
        &lib.check_with(std::slice::from_ref(&body), ExceptionModel::Explicit),
        "RLC0002",
    );
    assert!(d.notes.iter().any(|n| n.contains("exception")));
    assert!(
        d.secondary
            .iter()
            .any(|l| l.message.contains("after an exception thrown here")),
        "{:?}",
        d.secondary
    );
    assert!(
        lib.check_with(std::slice::from_ref(&body), ExceptionModel::None)
            .is_empty()
    );
    assert_eq!(
        rules(&lib.check_with(&[body], ExceptionModel::All)),
        ["RLC0002"]
    );
}

#[test]
fn exceptions_outside_a_user_try_only_count_under_all() {
    let mut lib = Lib::new();
    let c = lib.class("App.E2", &[lib.object]);
    let m = lib.method(c, "Run", MethodKind::Ordinary, vec![], None);
    let mut a = Asm::for_method(&lib, m);
    let s = a.local("s", lib.file_stream);
    a.new_(Some(s), lib.file_stream_new, &[str_("p")]);
    let throwing = a.use_(s);
    a.dispose(s);
    a.scope_end(&[s]);
    let body = a.finish();
    assert!(
        lib.check_with(std::slice::from_ref(&body), ExceptionModel::Explicit)
            .is_empty()
    );
    let d = only(
        &lib.check_with(std::slice::from_ref(&body), ExceptionModel::All),
        "RLC0002",
    );
    assert_eq!(d.secondary[0].span, body.node(throwing).span);
    assert!(
        d.secondary[0]
            .message
            .contains("an exception thrown here leaves the method")
    );
}

#[test]
fn explicit_throw_always_goes_to_its_handler() {
    let mut lib = Lib::new();
    let c = lib.class("App.E3", &[lib.object]);
    let m = lib.method(c, "Run", MethodKind::Ordinary, vec![], None);
    let mut a = Asm::for_method(&lib, m);
    let s = a.local("s", lib.file_stream);
    let ex = a.temp(Some(lib.object));
    a.new_(Some(s), lib.file_stream_new, &[str_("p")]);
    a.if_(
        Cond::Opaque,
        |a| {
            a.emit(Stmt::Opaque {
                dst: ex,
                owning: false,
            });
            a.emit(Stmt::Throw(Some(ex)));
        },
        |_| {},
    );
    a.dispose(s);
    a.scope_end(&[s]);
    let body = a.finish();
    assert_eq!(
        rules(&lib.check_with(&[body], ExceptionModel::None)),
        ["RLC0002"]
    );
}

#[test]
fn a_leak_on_both_kinds_of_path_is_one_rlc0001() {
    let mut lib = Lib::new();
    let c = lib.class("App.E4", &[lib.object]);
    let m = lib.method(c, "Run", MethodKind::Ordinary, vec![], None);
    let mut a = Asm::for_method(&lib, m);
    let s = a.local("s", lib.file_stream);
    a.try_catch(
        |a| {
            a.new_(Some(s), lib.file_stream_new, &[str_("p")]);
            a.use_(s);
        },
        |_| {},
    );
    a.scope_end(&[s]);
    let body = a.finish();
    only(&lib.check(&[body]), "RLC0001");
}

#[test]
fn using_disposes_on_the_exceptional_path_too() {
    let mut lib = Lib::new();
    let c = lib.class("App.U", &[lib.object]);
    let m = lib.method(c, "Run", MethodKind::Ordinary, vec![], None);
    let mut a = Asm::for_method(&lib, m);
    let s = a.local("s", lib.file_stream);
    a.new_(Some(s), lib.file_stream_new, &[str_("p")]);
    a.try_finally(
        |a| {
            a.use_(s);
        },
        |a| {
            a.if_(
                Cond::IsNull(s),
                |_| {},
                |a| {
                    a.dispose(s);
                },
            );
        },
    );
    a.scope_end(&[s]);
    let body = a.finish();
    assert!(lib.check_with(&[body], ExceptionModel::All).is_empty());
}

// ---- closures ---------------------------------------------------------------

fn closure(disposes: bool) -> Vec<Diagnostic> {
    let mut lib = Lib::new();
    let c = lib.class("App.C", &[lib.object]);
    let m = lib.method(c, "Run", MethodKind::Ordinary, vec![], None);
    let mut a = Asm::for_method(&lib, m);
    let s = a.local("s", lib.file_stream);
    let f = a.local("cleanup", lib.object);
    a.new_(Some(s), lib.file_stream_new, &[str_("p")]);
    a.emit(Stmt::Closure {
        dst: Some(f),
        body: crate::ir::BodyId(1),
        captures: vec![s],
    });
    a.use_(f);
    a.scope_end(&[s, f]);
    let outer = a.finish();
    let mut a = Asm::new(&lib, "C.Run.<lambda#1>", BodyKind::Lambda);
    let inner_s = a.var("s", VarKind::Captured, Some(lib.file_stream));
    a.use_(inner_s);
    if disposes {
        a.dispose(inner_s);
    }
    let mut inner = a.finish();
    inner.parent = Some(crate::ir::BodyId(0));
    lib.check(&[outer, inner])
}

#[test]
fn a_closure_that_disposes_the_capture_discharges_it() {
    assert!(closure(true).is_empty());
}

#[test]
fn a_closure_that_only_uses_the_capture_leaves_it_with_the_method() {
    // One report, in the outer method; nothing inside the lambda.
    let d = only(&closure(false), "RLC0001");
    assert!(
        d.fingerprint.starts_with("RLC0001:C.Run:FileStream:"),
        "{}",
        d.fingerprint
    );
}

// ---- out parameters ---------------------------------------------------------

#[test]
fn out_parameters_are_owning_by_default() {
    for (not_owning, caller_disposes, expect) in [
        (false, true, vec![]),
        (false, false, vec!["RLC0001"]),
        (true, false, vec![]),
    ] {
        let mut lib = Lib::new();
        let c = lib.class("App.O", &[lib.object]);
        let mut p = param("stream", lib.file_stream);
        p.mode = ParamMode::Out;
        if not_owning {
            p.ownership = Ownership::NotOwning(crate::testing::src());
        }
        let try_open = lib.method(
            c,
            "TryOpen",
            MethodKind::Ordinary,
            vec![p],
            Some(lib.boolean),
        );
        let run = lib.method(c, "Run", MethodKind::Ordinary, vec![], None);
        // bool TryOpen(out FileStream stream) { stream = new FileStream(p); return true; }
        // ([NotOwning] out: a library method without a body here.)
        let mut bodies = Vec::new();
        if !not_owning {
            let mut a = Asm::for_method(&lib, try_open);
            let out = a.param(0);
            a.new_(Some(out), lib.file_stream_new, &[str_("p")]);
            a.ret(None);
            bodies.push(a.finish());
        }
        let mut a = Asm::for_method(&lib, run);
        let s = a.local("s", lib.file_stream);
        let this = a.this();
        a.call(None, try_open, Some(this), &[v(s)]);
        if caller_disposes {
            a.dispose(s);
        }
        a.scope_end(&[s]);
        bodies.push(a.finish());
        let diags = lib.check(&bodies);
        assert_eq!(rules(&diags), expect, "{diags:#?}");
        if let Some(d) = diags.first() {
            assert!(
                d.message.contains("received through `out s`"),
                "{}",
                d.message
            );
        }
    }
}

// ---- null tests -------------------------------------------------------------

#[test]
fn null_test_true_edge_drops_the_fact() {
    for (guard, expect) in [(true, vec![]), (false, vec!["RLC0001"])] {
        let mut lib = Lib::new();
        let c = lib.class("App.N", &[lib.object]);
        let m = lib.method(c, "Run", MethodKind::Ordinary, vec![], None);
        let mut a = Asm::for_method(&lib, m);
        let s = a.local("s", lib.file_stream);
        a.call(Some(s), lib.open_read, None, &[str_("p")]);
        // if (s == null) return;  (or: if (something) return;)
        a.if_(
            if guard { Cond::IsNull(s) } else { Cond::Opaque },
            |a| {
                a.scope_end(&[s]);
                a.ret(None);
            },
            |_| {},
        );
        a.dispose(s);
        a.scope_end(&[s]);
        let body = a.finish();
        assert_eq!(rules(&lib.check(&[body])), expect);
    }
}

// ---- escapes, await using -----------------------------------------------------

#[test]
fn escape_gives_up_silently() {
    let mut lib = Lib::new();
    let c = lib.class("App.X", &[lib.object]);
    let m = lib.method(c, "Run", MethodKind::Ordinary, vec![], None);
    let mut a = Asm::for_method(&lib, m);
    let s = a.local("s", lib.file_stream);
    a.new_(Some(s), lib.file_stream_new, &[str_("p")]);
    a.emit(Stmt::Escape(vec![s]));
    a.scope_end(&[s]);
    let body = a.finish();
    assert!(lib.check(&[body]).is_empty());
}

#[test]
fn await_using_configure_await_disposes_the_original() {
    for dispose in [true, false] {
        let mut lib = Lib::new();
        let res = lib.class("App.AsyncRes", &[lib.object, lib.async_disposable]);
        let res_new = lib.method(res, ".ctor", MethodKind::Constructor, vec![], None);
        let c = lib.class("App.A", &[lib.object]);
        let m = lib.method(c, "RunAsync", MethodKind::Ordinary, vec![], None);
        let mut a = Asm::for_method(&lib, m);
        let x = a.local("x", res);
        let cfg = a.temp(Some(lib.configured));
        a.new_(Some(x), res_new, &[]);
        a.call(
            Some(cfg),
            lib.configure_await,
            Some(x),
            &[crate::ir::Operand::Const(crate::program::Const::Bool(
                false,
            ))],
        );
        if dispose {
            a.call(None, lib.dispose_async, Some(cfg), &[]);
        }
        a.scope_end(&[x]);
        let body = a.finish();
        assert_eq!(rules(&lib.check(&[body])).is_empty(), dispose);
    }
}

// ---- termination and cost ---------------------------------------------------

#[test]
fn nested_loops_with_many_variables_terminate() {
    let mut lib = Lib::new();
    let c = lib.class("App.Big", &[lib.object]);
    let m = lib.method(c, "Run", MethodKind::Ordinary, vec![], None);
    let mut a = Asm::for_method(&lib, m);
    let vars: Vec<_> = (0..40)
        .map(|i| a.local(&format!("x{i}"), lib.file_stream))
        .collect();
    a.new_(Some(vars[0]), lib.file_stream_new, &[str_("p")]);
    a.loop_(Cond::Opaque, |a| {
        a.loop_(Cond::Opaque, |a| {
            for i in 1..vars.len() {
                a.if_(
                    Cond::Opaque,
                    |a| {
                        a.copy(vars[i], v(vars[i - 1]));
                    },
                    |a| {
                        a.copy(vars[i - 1], v(vars[i]));
                    },
                );
            }
            a.loop_(Cond::Opaque, |a| {
                a.if_(
                    Cond::Opaque,
                    |a| {
                        a.new_(Some(vars[7]), lib.file_stream_new, &[str_("q")]);
                    },
                    |_| {},
                );
            });
        });
    });
    a.dispose(vars[0]);
    let body = a.finish();
    let diags = lib.check(&[body]);
    assert!(
        diags
            .iter()
            .all(|d| ["RLC0001", "RLC0004", "RLC9005"].contains(&d.rule.code())),
        "{diags:#?}"
    );
    assert!(!diags.is_empty());
}

/// `cargo test --release -p rlc-core -- --ignored --nocapture bench_10k_bodies`
#[test]
#[ignore]
fn bench_10k_bodies() {
    let mut lib = Lib::new();
    let c = lib.class("App.Bench", &[lib.object]);
    let m = lib.method(
        c,
        "Run",
        MethodKind::Ordinary,
        vec![param("flag", lib.boolean)],
        None,
    );
    let mut bodies = Vec::new();
    for i in 0..10_000 {
        let mut a = Asm::for_method(&lib, m);
        let fs = a.local("fs", lib.file_stream);
        let r = a.local("reader", lib.stream_reader);
        let t = a.local("t", lib.file_stream);
        a.new_(Some(fs), lib.file_stream_new, &[str_("p")]);
        a.new_(Some(r), lib.reader_new, &[v(fs)]);
        a.try_finally(
            |a| {
                a.loop_(Cond::Opaque, |a| {
                    a.call(None, lib.reader_read_line, Some(r), &[]);
                    a.if_(
                        Cond::Opaque,
                        |a| {
                            a.new_(Some(t), lib.file_stream_new, &[str_("q")]);
                            a.use_(t);
                            a.dispose(t);
                        },
                        |a| {
                            a.use_(r);
                        },
                    );
                });
            },
            |a| {
                a.if_(
                    Cond::IsNull(r),
                    |_| {},
                    |a| {
                        a.dispose(r);
                    },
                );
            },
        );
        if i % 3 == 0 {
            a.new_(Some(t), lib.file_stream_new, &[str_("leak")]);
        }
        a.scope_end(&[fs, r, t]);
        bodies.push(a.finish());
    }
    let nodes: usize = bodies.iter().map(|b| b.nodes.len()).sum();
    let start = std::time::Instant::now();
    let diags = lib.check(&bodies);
    let elapsed = start.elapsed();
    println!(
        "checked {} bodies ({nodes} nodes) in {:.1} ms: {} diagnostics",
        bodies.len(),
        elapsed.as_secs_f64() * 1000.0,
        diags.len()
    );
    // Every body: `t` leaks if `Use(t)` throws inside the `try` (RLC0002);
    // every third body also drops a `FileStream` (RLC0001).
    assert_eq!(
        diags.iter().filter(|d| d.rule.code() == "RLC0002").count(),
        10_000
    );
    assert_eq!(
        diags.iter().filter(|d| d.rule.code() == "RLC0001").count(),
        3334
    );
}
