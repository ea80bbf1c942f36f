//! Owning collections: element obligations, element-wise disposal loops,
//! `ForEach`, disposable containers, owning collection fields.

use crate::ir::{Body, BodyKind, Stmt, VarId, VarKind};
use crate::program::MethodKind;
use crate::rules::Diagnostic;
use crate::testing::{Asm, Lib, owning, param, rules, str_, v};

/// `var list = new List<FileStream>(); list.Add(new FileStream(p)); <after>`.
fn local_list(
    after: impl FnOnce(&mut Asm, VarId),
    in_loop: bool,
) -> (Vec<Diagnostic>, Body, crate::ir::NodeId) {
    let mut lib = Lib::new();
    let c = lib.class("App.Coll", &[lib.object]);
    let m = lib.method(c, "Run", MethodKind::Ordinary, vec![], Some(lib.list));
    let mut a = Asm::for_method(&lib, m);
    let list = a.local("list", lib.list);
    let t = a.temp(Some(lib.file_stream));
    a.new_(Some(list), lib.list_new, &[]);
    let mut add = None;
    let mut body = |a: &mut Asm| {
        a.new_(Some(t), lib.file_stream_new, &[str_("p")]);
        add = Some(a.call(None, lib.list_add, Some(list), &[v(t)]));
    };
    if in_loop {
        a.loop_(crate::ir::Cond::Opaque, body);
    } else {
        body(&mut a);
    }
    after(&mut a, list);
    a.scope_end(&[list]);
    let b = a.finish();
    let add = add.unwrap_or(b.entry);
    (lib.check(std::slice::from_ref(&b)), b, add)
}

#[test]
fn local_collection_disposed_element_wise() {
    let (diags, ..) = local_list(
        |a, list| {
            let x = a.local("x", a.lib().file_stream);
            a.foreach(x, list, |a| {
                a.dispose(x);
            });
        },
        true,
    );
    assert!(diags.is_empty(), "{diags:#?}");
}

#[test]
fn local_collection_never_disposed_is_reported_once_at_the_store() {
    let (diags, body, add) = local_list(|_, _| {}, true);
    assert_eq!(rules(&diags), ["RLC0005"], "{diags:#?}");
    let d = &diags[0];
    assert_eq!(d.primary.span, body.node(add).span);
    assert!(
        d.message.contains("`FileStream` is stored in a collection"),
        "{}",
        d.message
    );
    assert!(
        d.secondary[0].message.contains("`list` goes out of scope"),
        "{:?}",
        d.secondary
    );
}

#[test]
fn a_loop_that_disposes_only_some_elements_does_not_count() {
    let (diags, ..) = local_list(
        |a, list| {
            let x = a.local("x", a.lib().file_stream);
            a.foreach(x, list, |a| {
                a.if_(
                    crate::ir::Cond::Opaque,
                    |a| {
                        a.dispose(x);
                    },
                    |_| {},
                );
            });
        },
        false,
    );
    assert_eq!(rules(&diags), ["RLC0005"]);
}

#[test]
fn returning_the_collection_hands_the_elements_on() {
    let (diags, ..) = local_list(
        |a, list| {
            a.ret(Some(list));
        },
        false,
    );
    assert!(diags.is_empty(), "{diags:#?}");
}

#[test]
fn for_each_with_a_disposing_lambda() {
    for disposes in [true, false] {
        let mut lib = Lib::new();
        let c = lib.class("App.Coll", &[lib.object]);
        let m = lib.method(c, "Run", MethodKind::Ordinary, vec![], None);
        let mut a = Asm::for_method(&lib, m);
        let list = a.local("list", lib.list);
        let t = a.temp(Some(lib.file_stream));
        let f = a.temp(Some(lib.object));
        a.new_(Some(list), lib.list_new, &[]);
        a.new_(Some(t), lib.file_stream_new, &[str_("p")]);
        a.call(None, lib.list_add, Some(list), &[v(t)]);
        a.emit(Stmt::Closure {
            dst: Some(f),
            body: crate::ir::BodyId(1),
            captures: vec![],
        });
        a.call(None, lib.list_for_each, Some(list), &[v(f)]);
        a.scope_end(&[list]);
        let outer = a.finish();
        let mut a = Asm::new(&lib, "Coll.Run.<lambda#1>", BodyKind::Lambda);
        let d = a.var("d", VarKind::Param(0), Some(lib.file_stream));
        if disposes {
            a.dispose(d);
        } else {
            a.use_(d);
        }
        let inner = a.finish();
        assert_eq!(rules(&lib.check(&[outer, inner])).is_empty(), disposes);
    }
}

#[test]
fn disposable_container_owns_its_elements() {
    for dispose_container in [true, false] {
        let mut lib = Lib::new();
        let c = lib.class("App.Coll", &[lib.object]);
        let m = lib.method(c, "Run", MethodKind::Ordinary, vec![], None);
        let mut a = Asm::for_method(&lib, m);
        let bag = a.local("bag", lib.composite);
        let t = a.temp(Some(lib.file_stream));
        a.new_(Some(bag), lib.composite_new, &[]);
        a.new_(Some(t), lib.file_stream_new, &[str_("p")]);
        a.call(None, lib.composite_add, Some(bag), &[v(t)]);
        if dispose_container {
            a.dispose(bag);
        }
        a.scope_end(&[bag]);
        let body = a.finish();
        let diags = lib.check(&[body]);
        if dispose_container {
            assert!(diags.is_empty(), "{diags:#?}");
        } else {
            // The container leaks, not the element.
            assert_eq!(rules(&diags), ["RLC0001"]);
            assert!(diags[0].message.contains("`CompositeDisposable`"));
        }
    }
}

/// A class whose `Dispose()` disposes the elements of its `_items` list (or not),
/// and a method adding to it.
fn owning_collection_field(dispose_elements: bool) -> Vec<Diagnostic> {
    let mut lib = Lib::new();
    let c = lib.class("App.Pool", &[lib.object, lib.disposable]);
    let items = lib.field(c, "_items", lib.list, false, true);
    let dispose = lib.method(c, "Dispose", MethodKind::Ordinary, vec![], None);
    let add = lib.method(c, "Open", MethodKind::Ordinary, vec![], None);
    let mut a = Asm::for_method(&lib, dispose);
    let (this, l, x) = (
        a.this(),
        a.temp(Some(lib.list)),
        a.local("x", lib.file_stream),
    );
    a.load(l, this, items);
    if dispose_elements {
        a.foreach(x, l, |a| {
            a.dispose(x);
        });
    }
    let dispose_body = a.finish();
    let mut a = Asm::for_method(&lib, add);
    let (this, l, t) = (
        a.this(),
        a.temp(Some(lib.list)),
        a.temp(Some(lib.file_stream)),
    );
    a.new_(Some(t), lib.file_stream_new, &[str_("p")]);
    a.load(l, this, items);
    a.call(None, lib.list_add, Some(l), &[v(t)]);
    let add_body = a.finish();
    lib.check(&[dispose_body, add_body])
}

#[test]
fn owning_collection_field_disposed_in_dispose() {
    let diags = owning_collection_field(true);
    assert!(diags.is_empty(), "{diags:#?}");
}

#[test]
fn collection_field_nobody_disposes() {
    let diags = owning_collection_field(false);
    assert_eq!(rules(&diags), ["RLC0005"]);
    assert!(
        diags[0].notes[0].contains("not owned by this method"),
        "{:?}",
        diags[0].notes
    );
}

#[test]
fn collection_parameters_owning_or_not() {
    for is_owning in [true, false] {
        let mut lib = Lib::new();
        let c = lib.class("App.Fill", &[lib.object]);
        let p = if is_owning {
            owning(param("into", lib.list))
        } else {
            param("into", lib.list)
        };
        let m = lib.method(c, "Fill", MethodKind::Ordinary, vec![p], None);
        let mut a = Asm::for_method(&lib, m);
        let into = a.param(0);
        let t = a.temp(Some(lib.file_stream));
        a.new_(Some(t), lib.file_stream_new, &[str_("p")]);
        a.emit(Stmt::StoreElement {
            collection: into,
            src: v(t),
        });
        let body = a.finish();
        let diags = lib.check(&[body]);
        assert_eq!(rules(&diags).is_empty(), is_owning, "{diags:#?}");
    }
}

#[test]
fn array_elements_disposed_in_a_loop() {
    let mut lib = Lib::new();
    let c = lib.class("App.Arr", &[lib.object]);
    let m = lib.method(c, "Run", MethodKind::Ordinary, vec![], None);
    let mut a = Asm::for_method(&lib, m);
    let arr = a.local("streams", lib.object);
    let t = a.temp(Some(lib.file_stream));
    a.emit(Stmt::Opaque {
        dst: arr,
        owning: false,
    });
    a.loop_(crate::ir::Cond::Opaque, |a| {
        a.new_(Some(t), lib.file_stream_new, &[str_("p")]);
        a.emit(Stmt::StoreElement {
            collection: arr,
            src: v(t),
        });
    });
    a.scope_end(&[]);
    let body = a.finish();
    // `streams` comes from somewhere else (opaque): reported at the store.
    assert_eq!(rules(&lib.check(&[body])), ["RLC0005"]);
    // A fresh array, disposed element-wise.
    let mut a = Asm::for_method(&lib, m);
    let arr = a.local("streams", lib.object);
    let t = a.temp(Some(lib.file_stream));
    let e = a.temp(Some(lib.file_stream));
    a.new_(Some(arr), lib.list_new, &[]);
    a.new_(Some(t), lib.file_stream_new, &[str_("p")]);
    a.emit(Stmt::StoreElement {
        collection: arr,
        src: v(t),
    });
    a.foreach(e, arr, |a| {
        a.if_(
            crate::ir::Cond::IsNull(e),
            |_| {},
            |a| {
                a.dispose(e);
            },
        );
    });
    let body = a.finish();
    assert!(lib.check(&[body]).is_empty());
}

#[test]
fn a_collection_a_getter_exposes_is_not_ours() {
    let mut lib = Lib::new();
    let c = lib.class("App.Form", &[lib.object]);
    let items = lib.method(c, "get_Items", MethodKind::Getter, vec![], Some(lib.list));
    let m = lib.method(c, "Build", MethodKind::Ordinary, vec![], None);
    let mut a = Asm::for_method(&lib, m);
    let (this, l, t) = (
        a.this(),
        a.temp(Some(lib.list)),
        a.temp(Some(lib.file_stream)),
    );
    a.call(Some(l), items, Some(this), &[]);
    a.new_(Some(t), lib.file_stream_new, &[str_("p")]);
    let add = a.call(None, lib.list_add, Some(l), &[v(t)]);
    let body = a.finish();
    let diags = lib.check(std::slice::from_ref(&body));
    assert_eq!(rules(&diags), ["RLC0005"]);
    assert_eq!(diags[0].primary.span, body.node(add).span);
    assert!(diags[0].secondary.is_empty());
}
