//! Test support: a small model of the .NET library and an assembler that builds
//! bodies the way the lowering does (sequential statements, `if`, loops,
//! try/catch/finally with exception edges), so tests read like the C# they model.

use crate::checker::check_program;
use crate::ir::{
    Arg, Bodies, Body, BodyBuilder, BodyKind, Call, CallKind, Callee, Cond, ExcEdge, FieldRef,
    NodeId, Operand, Stmt, Succ, VarId, VarKind,
};
use crate::options::{CheckOptions, ExceptionModel};
use crate::program::{
    CallsSpec, Const, DeclaredIn, FieldDef, FieldId, MethodDef, MethodId, MethodKind, MustCall,
    Ownership, OwnershipCondition, ParamDef, ParamMode, Program, Provenance, Target, TypeDef,
    TypeId, TypeKind, ValueTy,
};
use crate::rules::Diagnostic;
use crate::span::{FileId, Span};

pub fn src() -> Provenance {
    Provenance::Source(Span::new(FileId(0), 0, 0))
}

pub fn param(name: &str, ty: TypeId) -> ParamDef {
    ParamDef::new(name, ValueTy::of(ty))
}

pub fn owning(mut p: ParamDef) -> ParamDef {
    p.ownership = Ownership::Owning(src());
    p
}

pub fn mca(mut p: ParamDef) -> ParamDef {
    p.must_call_alias = Some(Provenance::Library);
    p
}

/// The library types and members tests use.
pub struct Lib {
    pub p: Program,
    pub object: TypeId,
    pub boolean: TypeId,
    pub disposable: TypeId,
    pub async_disposable: TypeId,
    pub stream: TypeId,
    pub file_stream: TypeId,
    pub memory_stream: TypeId,
    pub stream_reader: TypeId,
    pub socket: TypeId,
    pub list: TypeId,
    pub composite: TypeId,
    pub http_client: TypeId,
    pub handler: TypeId,
    pub configured: TypeId,
    pub dispose: MethodId,
    pub dispose_async: MethodId,
    pub close: MethodId,
    pub file_stream_new: MethodId,
    pub memory_stream_new: MethodId,
    /// `StreamReader([MustCallAlias] Stream)`.
    pub reader_new: MethodId,
    /// `StreamReader([MustCallAlias] Stream, [OwnsIf(false)] bool leaveOpen = false)`.
    pub reader_new_leave_open: MethodId,
    pub reader_read_line: MethodId,
    /// `new Socket()` (unconnected: `[return: MustCall]`).
    pub socket_new: MethodId,
    /// `new Socket(string host)`.
    pub socket_new_host: MethodId,
    /// `[CreatesMustCallFor("this")] void Connect()`.
    pub socket_connect: MethodId,
    pub socket_close: MethodId,
    pub list_new: MethodId,
    pub list_add: MethodId,
    pub list_for_each: MethodId,
    pub composite_new: MethodId,
    pub composite_add: MethodId,
    pub handler_new: MethodId,
    /// `HttpClient([Owning] HttpMessageHandler h, [OwnsIf(true)] bool disposeHandler)`.
    pub http_new: MethodId,
    /// `static FileStream File.OpenRead(string)`.
    pub open_read: MethodId,
    /// `ConfiguredAsyncDisposable ConfigureAwait(this IAsyncDisposable, bool)` as a receiver alias.
    pub configure_await: MethodId,
    /// `static void Use(object)`: an ordinary call that may throw.
    pub use_: MethodId,
}

fn lib_type(p: &mut Program, name: &str, kind: TypeKind, supers: &[TypeId]) -> TypeId {
    let mut d = TypeDef::new(name, kind, DeclaredIn::Library);
    d.supertypes = supers.to_vec();
    p.add_type(d)
}

pub fn method(
    p: &mut Program,
    owner: TypeId,
    name: &str,
    kind: MethodKind,
    params: Vec<ParamDef>,
    ret: Option<TypeId>,
) -> MethodId {
    let mut m = MethodDef::new(name, owner, kind);
    m.params = params;
    m.ret = ret.map_or(ValueTy::UNKNOWN, ValueTy::of);
    m.is_static = false;
    p.add_method(m)
}

impl Lib {
    pub fn new() -> Lib {
        let mut p = Program::default();
        use TypeKind::*;
        let object = lib_type(&mut p, "System.Object", Class, &[]);
        let boolean = lib_type(&mut p, "System.Boolean", Struct, &[]);
        let string = lib_type(&mut p, "System.String", Class, &[]);
        let disposable = lib_type(&mut p, "System.IDisposable", Interface, &[]);
        p.types[disposable.index()].must_call =
            Some((MustCall::of(["Dispose"]), Provenance::Library));
        let async_disposable = lib_type(&mut p, "System.IAsyncDisposable", Interface, &[]);
        p.types[async_disposable.index()].must_call =
            Some((MustCall::of(["DisposeAsync"]), Provenance::Library));
        p.well_known.disposable = Some(disposable);
        p.well_known.async_disposable = Some(async_disposable);
        p.well_known.boolean = Some(boolean);
        p.well_known.object = Some(object);
        p.conventions = crate::program::Conventions {
            disposal_methods: rlc_attributes::vocabulary::DISPOSAL_METHODS
                .map(String::from)
                .to_vec(),
            dispose: rlc_attributes::vocabulary::DISPOSE.to_string(),
            dispose_async: rlc_attributes::vocabulary::DISPOSE_ASYNC.to_string(),
            dispose_flag: rlc_attributes::vocabulary::DISPOSE_FLAG.to_string(),
        };
        let stream = lib_type(
            &mut p,
            "System.IO.Stream",
            Class,
            &[object, disposable, async_disposable],
        );
        p.types[stream.index()].also_disposes = vec!["Close".into()];
        let file_stream = lib_type(&mut p, "System.IO.FileStream", Class, &[stream]);
        let memory_stream = lib_type(&mut p, "System.IO.MemoryStream", Class, &[stream]);
        p.types[memory_stream.index()].must_call = Some((MustCall::none(), Provenance::Library));
        let stream_reader = lib_type(
            &mut p,
            "System.IO.StreamReader",
            Class,
            &[object, disposable],
        );
        p.types[stream_reader.index()].also_disposes = vec!["Close".into()];
        let socket = lib_type(
            &mut p,
            "System.Net.Sockets.Socket",
            Class,
            &[object, disposable],
        );
        p.types[socket.index()].also_disposes = vec!["Close".into()];
        let list = lib_type(
            &mut p,
            "System.Collections.Generic.List<T>",
            Class,
            &[object],
        );
        let composite = lib_type(
            &mut p,
            "System.Reactive.Disposables.CompositeDisposable",
            Class,
            &[object, disposable],
        );
        let handler = lib_type(
            &mut p,
            "System.Net.Http.HttpMessageHandler",
            Class,
            &[object, disposable],
        );
        let http_client = lib_type(
            &mut p,
            "System.Net.Http.HttpClient",
            Class,
            &[object, disposable],
        );
        let configured = lib_type(
            &mut p,
            "System.Runtime.CompilerServices.ConfiguredAsyncDisposable",
            Struct,
            &[],
        );
        p.types[configured.index()].also_disposes = vec!["DisposeAsync".into()];
        let file = lib_type(&mut p, "System.IO.File", Class, &[object]);
        let console = lib_type(&mut p, "System.Console", Class, &[object]);

        let dispose = method(
            &mut p,
            disposable,
            "Dispose",
            MethodKind::Ordinary,
            vec![],
            None,
        );
        let dispose_async = method(
            &mut p,
            async_disposable,
            "DisposeAsync",
            MethodKind::Ordinary,
            vec![],
            None,
        );
        let close = method(&mut p, stream, "Close", MethodKind::Ordinary, vec![], None);
        let file_stream_new = method(
            &mut p,
            file_stream,
            ".ctor",
            MethodKind::Constructor,
            vec![param("path", string)],
            None,
        );
        let memory_stream_new = method(
            &mut p,
            memory_stream,
            ".ctor",
            MethodKind::Constructor,
            vec![],
            None,
        );
        let reader_new = method(
            &mut p,
            stream_reader,
            ".ctor",
            MethodKind::Constructor,
            vec![mca(param("stream", stream))],
            None,
        );
        let mut leave_open = param("leaveOpen", boolean);
        leave_open.default = Some(Const::Bool(false));
        let reader_new_leave_open = method(
            &mut p,
            stream_reader,
            ".ctor",
            MethodKind::Constructor,
            vec![mca(param("stream", stream)), leave_open],
            None,
        );
        p.methods[reader_new_leave_open.index()].ownership_condition = Some(OwnershipCondition {
            param: 1,
            holds_when: false,
            default: Some(false),
            own_resource: false,
        });
        for m in [reader_new, reader_new_leave_open] {
            p.methods[m.index()].ret_must_call_alias = Some(Provenance::Library);
        }
        let reader_read_line = method(
            &mut p,
            stream_reader,
            "ReadLine",
            MethodKind::Ordinary,
            vec![],
            Some(string),
        );
        let socket_new = method(
            &mut p,
            socket,
            ".ctor",
            MethodKind::Constructor,
            vec![],
            None,
        );
        p.methods[socket_new.index()].ret_must_call = Some((MustCall::none(), Provenance::Library));
        let socket_new_host = method(
            &mut p,
            socket,
            ".ctor",
            MethodKind::Constructor,
            vec![param("host", string)],
            None,
        );
        let socket_connect = method(
            &mut p,
            socket,
            "Connect",
            MethodKind::Ordinary,
            vec![],
            None,
        );
        p.methods[socket_connect.index()].creates_must_call_for =
            vec![(Target::This, Provenance::Library)];
        let socket_close = method(&mut p, socket, "Close", MethodKind::Ordinary, vec![], None);
        let list_new = method(&mut p, list, ".ctor", MethodKind::Constructor, vec![], None);
        let mut item = param("item", object);
        item.collection_element = true;
        let list_add = method(
            &mut p,
            list,
            "Add",
            MethodKind::Ordinary,
            vec![item.clone()],
            None,
        );
        let list_for_each = method(
            &mut p,
            list,
            "ForEach",
            MethodKind::Ordinary,
            vec![param("action", object)],
            None,
        );
        let composite_new = method(
            &mut p,
            composite,
            ".ctor",
            MethodKind::Constructor,
            vec![],
            None,
        );
        let composite_add = method(
            &mut p,
            composite,
            "Add",
            MethodKind::Ordinary,
            vec![item],
            None,
        );
        let handler_new = method(
            &mut p,
            handler,
            ".ctor",
            MethodKind::Constructor,
            vec![],
            None,
        );
        let http_new = method(
            &mut p,
            http_client,
            ".ctor",
            MethodKind::Constructor,
            vec![
                owning(param("handler", handler)),
                param("disposeHandler", boolean),
            ],
            None,
        );
        p.methods[http_new.index()].params[0].ownership = Ownership::Owning(Provenance::Library);
        p.methods[http_new.index()].ownership_condition = Some(OwnershipCondition {
            param: 1,
            holds_when: true,
            default: Some(true),
            own_resource: false,
        });
        let open_read = method(
            &mut p,
            file,
            "OpenRead",
            MethodKind::Ordinary,
            vec![param("path", string)],
            Some(file_stream),
        );
        p.methods[open_read.index()].is_static = true;
        let configure_await = method(
            &mut p,
            async_disposable,
            "ConfigureAwait",
            MethodKind::Ordinary,
            vec![param("continueOnCapturedContext", boolean)],
            Some(configured),
        );
        p.methods[configure_await.index()].this_must_call_alias = Some(Provenance::Library);
        let use_ = method(
            &mut p,
            console,
            "Use",
            MethodKind::Ordinary,
            vec![param("o", object)],
            None,
        );
        p.methods[use_.index()].is_static = true;
        Lib {
            p,
            object,
            boolean,
            disposable,
            async_disposable,
            stream,
            file_stream,
            memory_stream,
            stream_reader,
            socket,
            list,
            composite,
            http_client,
            handler,
            configured,
            dispose,
            dispose_async,
            close,
            file_stream_new,
            memory_stream_new,
            reader_new,
            reader_new_leave_open,
            reader_read_line,
            socket_new,
            socket_new_host,
            socket_connect,
            socket_close,
            list_new,
            list_add,
            list_for_each,
            composite_new,
            composite_add,
            handler_new,
            http_new,
            open_read,
            configure_await,
            use_,
        }
    }

    /// A source class `name` with these supertypes.
    pub fn class(&mut self, name: &str, supers: &[TypeId]) -> TypeId {
        let mut d = TypeDef::new(name, TypeKind::Class, DeclaredIn::Source);
        d.supertypes = supers.to_vec();
        self.p.add_type(d)
    }

    pub fn method(
        &mut self,
        owner: TypeId,
        name: &str,
        kind: MethodKind,
        params: Vec<ParamDef>,
        ret: Option<TypeId>,
    ) -> MethodId {
        let id = method(&mut self.p, owner, name, kind, params, ret);
        self.p.methods[id.index()].has_body = true;
        self.p.methods[id.index()].span = Some(Span::new(FileId(0), 10_000 + id.0, 10_001 + id.0));
        id
    }

    pub fn field(
        &mut self,
        owner: TypeId,
        name: &str,
        ty: TypeId,
        owning: bool,
        readonly: bool,
    ) -> FieldId {
        let mut f = FieldDef::new(name, owner, ValueTy::of(ty));
        if owning {
            f.ownership = Ownership::Owning(src());
        }
        f.is_readonly = readonly;
        f.span = Some(Span::new(FileId(0), 20_000, 20_001));
        self.p.add_field(f)
    }

    pub fn calls(&mut self, m: MethodId, target: Target, methods: &[&str]) {
        self.p.methods[m.index()].calls.push(CallsSpec {
            target,
            methods: methods.iter().map(|s| s.to_string()).collect(),
            provenance: src(),
        });
    }

    pub fn check(&self, bodies: &[Body]) -> Vec<Diagnostic> {
        self.check_with(bodies, ExceptionModel::Explicit)
    }

    pub fn check_with(&self, bodies: &[Body], model: ExceptionModel) -> Vec<Diagnostic> {
        check_program(
            &self.p,
            &Bodies::from(bodies.to_vec()),
            &CheckOptions {
                exception_model: model,
                ..CheckOptions::default()
            },
        )
    }
}

/// The rule ids of some diagnostics, in order.
pub fn rules(diags: &[Diagnostic]) -> Vec<&'static str> {
    diags.iter().map(|d| d.rule.code()).collect()
}

/// Builds a body statement by statement.
pub struct Asm<'l> {
    lib: &'l Lib,
    b: BodyBuilder,
    cur: Option<NodeId>,
    /// Innermost handler first: (handler entry, explicit).
    handlers: Vec<(NodeId, bool)>,
    next_pos: u32,
}

impl<'l> Asm<'l> {
    pub fn new(lib: &'l Lib, name: &str, kind: BodyKind) -> Asm<'l> {
        let span = Span::new(FileId(0), 0, 5000);
        let mut b = BodyBuilder::new(name, kind, span);
        b.body_mut().nodes[1].span = Span::new(FileId(0), 4999, 5000);
        let entry = b.entry();
        Asm {
            lib,
            b,
            cur: Some(entry),
            handlers: Vec::new(),
            next_pos: 100,
        }
    }

    /// A body implementing `m`, with `this` (unless static) and its parameters.
    pub fn for_method(lib: &'l Lib, m: MethodId) -> Asm<'l> {
        let def = &lib.p.methods[m.index()];
        let kind = match def.kind {
            MethodKind::Constructor => BodyKind::Constructor,
            MethodKind::StaticConstructor => BodyKind::StaticConstructor,
            MethodKind::Getter | MethodKind::Setter => BodyKind::Accessor,
            _ => BodyKind::Method,
        };
        let name = format!("{}.{}", lib.p.ty(def.owner).short_name(), def.name);
        let mut a = Asm::new(lib, &name, kind);
        a.b.body_mut().method = Some(m);
        if !def.is_static {
            a.var("this", VarKind::This, Some(def.owner));
        }
        for (i, p) in def.params.iter().enumerate() {
            a.var(&p.name, VarKind::Param(i as u32), p.ty.ty);
        }
        a
    }

    pub fn lib(&self) -> &'l Lib {
        self.lib
    }

    pub fn var(&mut self, name: &str, kind: VarKind, ty: Option<TypeId>) -> VarId {
        let span = self.span();
        self.b
            .var(name, kind, ty.map_or(ValueTy::UNKNOWN, ValueTy::of), span)
    }
    pub fn local(&mut self, name: &str, ty: TypeId) -> VarId {
        self.var(name, VarKind::Local, Some(ty))
    }
    pub fn temp(&mut self, ty: Option<TypeId>) -> VarId {
        let n = self.b.body().vars.len();
        self.var(&format!("$t{n}"), VarKind::Temp, ty)
    }
    pub fn this(&self) -> VarId {
        self.b.body().this_var().expect("body has this")
    }
    pub fn param(&self, i: u32) -> VarId {
        self.b.body().param_var(i).expect("body has the parameter")
    }

    fn span(&mut self) -> Span {
        self.next_pos += 10;
        Span::new(FileId(0), self.next_pos, self.next_pos + 5)
    }

    fn link(&mut self, from: Option<NodeId>, to: NodeId) {
        if let Some(f) = from {
            self.b.goto(f, to);
        }
    }

    /// Appends a statement after the current one; calls and throws get an
    /// exception edge to the innermost handler (explicit inside a user `try`).
    pub fn emit(&mut self, stmt: Stmt) -> NodeId {
        let may_throw = matches!(stmt, Stmt::Call(_) | Stmt::Throw(_));
        let is_throw = matches!(stmt, Stmt::Throw(_));
        let is_return = matches!(stmt, Stmt::Return(_));
        let span = self.span();
        let n = self.b.node(stmt, span);
        let cur = self.cur;
        self.link(cur, n);
        if may_throw {
            let (target, explicit) = self
                .handlers
                .last()
                .copied()
                .unwrap_or((self.b.exc_exit(), false));
            self.b.set_exc(n, Some(ExcEdge { target, explicit }));
        }
        self.cur = if is_throw {
            None
        } else if is_return {
            let exit = self.b.exit();
            self.b.goto(n, exit);
            None
        } else {
            Some(n)
        };
        n
    }

    pub fn nop(&mut self) -> NodeId {
        self.emit(Stmt::Nop)
    }

    fn call_stmt(
        &mut self,
        dst: Option<VarId>,
        m: MethodId,
        kind: CallKind,
        recv: Option<VarId>,
        args: &[Operand],
    ) -> NodeId {
        let def = &self.lib.p.methods[m.index()];
        let new_type = (kind == CallKind::New).then_some(def.owner);
        let ty = if kind == CallKind::New {
            ValueTy::of(def.owner)
        } else {
            def.ret.clone()
        };
        let args = args
            .iter()
            .enumerate()
            .map(|(i, v)| Arg {
                param: Some(i as u32),
                value: v.clone(),
                mode: def.params.get(i).map_or(ParamMode::Value, |p| p.mode),
            })
            .collect();
        self.emit(Stmt::Call(Box::new(Call {
            dst,
            callee: Callee::Method(m),
            kind,
            receiver: recv,
            args,
            awaited: false,
            ty,
            new_type,
        })))
    }

    pub fn new_(&mut self, dst: Option<VarId>, ctor: MethodId, args: &[Operand]) -> NodeId {
        self.call_stmt(dst, ctor, CallKind::New, None, args)
    }
    pub fn call(
        &mut self,
        dst: Option<VarId>,
        m: MethodId,
        recv: Option<VarId>,
        args: &[Operand],
    ) -> NodeId {
        self.call_stmt(dst, m, CallKind::Ordinary, recv, args)
    }
    pub fn base_ctor(&mut self, ctor: MethodId, args: &[Operand]) -> NodeId {
        let this = self.this();
        self.call_stmt(None, ctor, CallKind::BaseConstructor, Some(this), args)
    }
    pub fn dispose(&mut self, x: VarId) -> NodeId {
        let d = self.lib.dispose;
        self.call(None, d, Some(x), &[])
    }
    pub fn use_(&mut self, x: VarId) -> NodeId {
        let u = self.lib.use_;
        self.call(None, u, None, &[v(x)])
    }
    pub fn copy(&mut self, dst: VarId, src: Operand) -> NodeId {
        self.emit(Stmt::Copy { dst, src })
    }
    pub fn load(&mut self, dst: VarId, base: VarId, f: FieldId) -> NodeId {
        self.emit(Stmt::Load {
            dst,
            base: Some(base),
            field: FieldRef::Known(f),
        })
    }
    pub fn store(&mut self, base: VarId, f: FieldId, src: Operand) -> NodeId {
        self.emit(Stmt::Store {
            base: Some(base),
            field: FieldRef::Known(f),
            src,
        })
    }
    pub fn ret(&mut self, value: Option<VarId>) -> NodeId {
        self.emit(Stmt::Return(value.map(Operand::Var)))
    }
    pub fn scope_end(&mut self, vars: &[VarId]) -> NodeId {
        self.emit(Stmt::ScopeEnd(vars.to_vec()))
    }

    /// `if (cond) { then } else { otherwise }`.
    pub fn if_(
        &mut self,
        cond: Cond,
        then: impl FnOnce(&mut Self),
        otherwise: impl FnOnce(&mut Self),
    ) -> NodeId {
        let branch = self.nop();
        let (t, e) = (self.fresh_nop(), self.fresh_nop());
        self.b.set_succ(
            branch,
            Succ::Branch {
                cond,
                if_true: t,
                if_false: e,
            },
        );
        self.cur = Some(t);
        then(self);
        let t_end = self.cur;
        self.cur = Some(e);
        otherwise(self);
        let e_end = self.cur;
        let join = self.fresh_nop();
        self.link(t_end, join);
        self.link(e_end, join);
        self.cur = Some(join);
        branch
    }

    /// `while (cond) { body }`; returns the loop header.
    pub fn loop_(&mut self, cond: Cond, body: impl FnOnce(&mut Self)) -> NodeId {
        let head = self.nop();
        let (start, exit) = (self.fresh_nop(), self.fresh_nop());
        self.b.set_succ(
            head,
            Succ::Branch {
                cond,
                if_true: start,
                if_false: exit,
            },
        );
        self.cur = Some(start);
        body(self);
        let end = self.cur;
        self.link(end, head);
        self.cur = Some(exit);
        head
    }

    /// `foreach (var x in c) { body }` as the lowering shows it.
    pub fn foreach(&mut self, x: VarId, c: VarId, body: impl FnOnce(&mut Self)) -> NodeId {
        self.loop_(Cond::Opaque, |a| {
            a.emit(Stmt::Element {
                dst: x,
                collection: c,
            });
            body(a);
        })
    }

    /// `try { body } catch { handler }`.
    pub fn try_catch(&mut self, body: impl FnOnce(&mut Self), handler: impl FnOnce(&mut Self)) {
        let h = self.fresh_nop();
        self.handlers.push((h, true));
        body(self);
        self.handlers.pop();
        let after = self.fresh_nop();
        let end = self.cur;
        self.link(end, after);
        self.cur = Some(h);
        handler(self);
        let end = self.cur;
        self.link(end, after);
        self.cur = Some(after);
    }

    /// `try { body } finally { fin }`: the finally block is lowered once for
    /// the normal path and once for the exceptional one (ending in a rethrow).
    pub fn try_finally(&mut self, body: impl FnOnce(&mut Self), fin: impl Fn(&mut Self)) {
        let h = self.fresh_nop();
        self.handlers.push((h, true));
        body(self);
        self.handlers.pop();
        fin(self);
        let normal = self.cur;
        self.cur = Some(h);
        fin(self);
        self.emit(Stmt::Throw(None));
        self.cur = normal;
    }

    fn fresh_nop(&mut self) -> NodeId {
        let span = self.span();
        self.b.node(Stmt::Nop, span)
    }

    pub fn finish(mut self) -> Body {
        let exit = self.b.exit();
        let cur = self.cur;
        self.link(cur, exit);
        self.b.finish()
    }
}

pub fn v(x: VarId) -> Operand {
    Operand::Var(x)
}

pub fn null() -> Operand {
    Operand::Const(Const::Null)
}

pub fn str_(s: &str) -> Operand {
    Operand::Const(Const::Str(s.into()))
}
