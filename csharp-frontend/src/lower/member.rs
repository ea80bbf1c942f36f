//! Which bodies a type has and how each is put together: methods, accessors,
//! constructors with the field initializers they run, static constructors with
//! static initializers, primary constructors, top-level statements.

use rlc_core::FileId;
use rlc_core::ir::{self, BodyKind, CallKind, Callee, FieldRef, Operand, Stmt as IrStmt, VarKind};
use rlc_core::program::{MethodId, TypeId};

use super::Lowerer;
use crate::hir::{AccessorKind, BodyId, BodyRoot, CtorInitKind, MemberKind, ScopeId, TextRange};
use crate::index::{Index, MemberId, Origin};
use crate::resolve::{BodyOwner, BodyTypes, ResolveStats, resolve_body};

/// The bodies of one type (or of a file's top-level statements).
#[derive(Debug, Default)]
pub struct LoweredType {
    pub bodies: ir::Bodies,
    pub stats: ResolveStats,
}

/// An initializer a constructor runs: the member it initializes and its body.
#[derive(Clone, Copy, Debug)]
struct Init {
    member: MemberId,
    file: FileId,
    body: BodyId,
    scope: ScopeId,
}

/// One body to lower.
struct FnSpec<'s> {
    file: FileId,
    /// The HIR body; `None` for a constructor that only runs initializers.
    body: Option<BodyId>,
    scope: ScopeId,
    member: Option<MemberId>,
    name: String,
    /// What fingerprints call the body (see [`ir::Body::key`]).
    key: String,
    kind: BodyKind,
    method: Option<MethodId>,
    is_static: bool,
    is_setter: bool,
    /// Constructors: the initializers to run first (unless `: this(..)`).
    inits: &'s [Init],
    /// The type's primary constructor: it declares the type's primary
    /// parameters and stores those its type keeps.
    is_primary: bool,
    range: TextRange,
}

struct Ctx<'a> {
    index: &'a Index,
    ty: Option<TypeId>,
    out: LoweredType,
}

/// Lowers every body of a type declared in the analysed source.
pub fn lower_type(index: &Index, ty: TypeId) -> LoweredType {
    let data = index.ty(ty);
    let mut ctx = Ctx {
        index,
        ty: Some(ty),
        out: LoweredType::default(),
    };
    if data.origin == Origin::Library {
        return ctx.out;
    }
    let mut members: Vec<MemberId> = data.members.values().flatten().copied().collect();
    members.extend(data.ctors.iter().copied());
    members.sort();
    let mut instance_inits = Vec::new();
    let mut static_inits = Vec::new();
    for &m in &members {
        let md = index.member(m);
        if let (Some(syntax), Some(decl)) = (index.member_syntax(m), md.decl)
            && let Some(body) = syntax.initializer
            && matches!(
                md.kind,
                MemberKind::Field | MemberKind::Property | MemberKind::Event
            )
        {
            let scope = index.file(decl.file).syntax.ty(decl.ty_decl).scope;
            let init = Init {
                member: m,
                file: decl.file,
                body,
                scope,
            };
            if md.is_static() {
                static_inits.push(init);
            } else {
                instance_inits.push(init);
            }
        }
    }
    let type_name = data.name.to_string();
    let full_name = &data.full_name;
    let mut has_static_ctor = false;
    for &m in &members {
        let md = index.member(m);
        let Some(decl) = md.decl else { continue };
        let syntax = index.member_syntax(m);
        let type_decl = index.file(decl.file).syntax.ty(decl.ty_decl);
        let scope = type_decl.scope;
        let base = FnSpec {
            file: decl.file,
            body: None,
            scope,
            member: Some(m),
            name: format!("{type_name}.{}", md.name),
            key: format!("{full_name}.{}", member_signature(index, m)),
            kind: BodyKind::Method,
            method: md.method,
            is_static: md.is_static(),
            is_setter: false,
            inits: &[],
            is_primary: false,
            range: syntax.map(|s| s.range).unwrap_or(type_decl.name_range),
        };
        match md.kind {
            MemberKind::Method
            | MemberKind::Operator
            | MemberKind::Conversion
            | MemberKind::Finalizer => {
                if let Some(body) = syntax.and_then(|s| s.body) {
                    ctx.lower(FnSpec {
                        body: Some(body),
                        ..base
                    });
                }
            }
            MemberKind::StaticConstructor => {
                has_static_ctor = true;
                ctx.lower(FnSpec {
                    body: syntax.and_then(|s| s.body),
                    name: format!("{type_name}..cctor"),
                    key: format!("{full_name}..cctor"),
                    kind: BodyKind::StaticConstructor,
                    is_static: true,
                    inits: &static_inits,
                    ..base
                });
            }
            MemberKind::Constructor => {
                // A struct's parameterless constructor has no syntax either.
                let is_primary = syntax.is_none()
                    && type_decl
                        .primary_ctor
                        .as_ref()
                        .is_some_and(|p| p.len() == md.params.len());
                let body = match syntax {
                    Some(s) => s.body,
                    // A primary constructor runs the base-call arguments of the type.
                    None => type_decl.primary_base_args,
                };
                let stores = is_primary && !data.param_members.is_empty();
                if body.is_none() && instance_inits.is_empty() && !stores {
                    continue;
                }
                ctx.lower(FnSpec {
                    body,
                    name: format!("{type_name}..ctor"),
                    key: format!("{full_name}..{}", member_signature(index, m)),
                    kind: BodyKind::Constructor,
                    inits: &instance_inits,
                    is_primary,
                    ..base
                });
            }
            MemberKind::Property | MemberKind::Indexer | MemberKind::Event => {
                let Some(s) = syntax else { continue };
                if let Some(body) = s.body {
                    ctx.lower(FnSpec {
                        body: Some(body),
                        kind: BodyKind::Accessor,
                        method: md.getter,
                        name: format!("{type_name}.{}.get", md.name),
                        key: format!("{}.get", base.key),
                        ..base
                    });
                }
                for a in &s.accessors {
                    let Some(body) = a.body else { continue };
                    let (method, suffix, is_setter) = match a.kind {
                        AccessorKind::Get => (md.getter, "get", false),
                        AccessorKind::Set => (md.setter, "set", true),
                        AccessorKind::Init => (md.setter, "init", true),
                        AccessorKind::Add => (None, "add", true),
                        AccessorKind::Remove => (None, "remove", true),
                    };
                    ctx.lower(FnSpec {
                        body: Some(body),
                        kind: BodyKind::Accessor,
                        method,
                        is_setter,
                        name: format!("{type_name}.{}.{suffix}", md.name),
                        key: format!("{}.{suffix}", base.key),
                        range: a.range,
                        file: decl.file,
                        scope,
                        member: Some(m),
                        is_static: md.is_static(),
                        inits: &[],
                        is_primary: false,
                    });
                }
            }
            _ => {}
        }
    }
    if !has_static_ctor && let Some(first) = static_inits.first() {
        let range = index
            .file(first.file)
            .syntax
            .ty(data.parts[0].decl)
            .name_range;
        ctx.lower(FnSpec {
            file: first.file,
            body: None,
            scope: first.scope,
            member: None,
            name: format!("{type_name}..cctor"),
            key: format!("{full_name}..cctor"),
            kind: BodyKind::StaticConstructor,
            method: None,
            is_static: true,
            is_setter: false,
            inits: &static_inits,
            is_primary: false,
            range,
        });
    }
    ctx.out
}

/// Lowers the top-level statements of a file, if it has any.
pub fn lower_top_level(index: &Index, file: FileId) -> LoweredType {
    let mut ctx = Ctx {
        index,
        ty: None,
        out: LoweredType::default(),
    };
    let syntax = &index.file(file).syntax;
    if let Some(body) = syntax.top_level {
        let range = syntax.body(body).range;
        ctx.lower(FnSpec {
            file,
            body: Some(body),
            scope: ScopeId(0),
            member: None,
            name: "<top-level>".into(),
            key: "<top-level>".into(),
            kind: BodyKind::TopLevel,
            method: None,
            is_static: true,
            is_setter: false,
            inits: &[],
            is_primary: false,
            range,
        });
    }
    ctx.out
}

/// A member as fingerprints name it, without its type: name, type
/// parameters and parameter types as written (`Run<T>(ref int, Stream)`,
/// `this[int]`, `ctor(Stream)`), so that overloads differ and an edit
/// elsewhere does not change it.
fn member_signature(index: &Index, m: MemberId) -> String {
    use crate::hir::ParamModifier;
    use crate::hir::dump::type_ref;
    let md = index.member(m);
    let mut out = String::new();
    let syntax = index.member_syntax(m);
    if let Some(i) = syntax.and_then(|s| s.explicit_interface.as_ref()) {
        out.push_str(&type_ref(i));
        out.push('.');
    }
    out.push_str(match md.kind {
        MemberKind::Constructor => "ctor",
        _ => &md.name,
    });
    if !md.type_params.is_empty() {
        let names: Vec<&str> = md.type_params.iter().map(|n| n.as_str()).collect();
        out.push_str(&format!("<{}>", names.join(", ")));
    }
    let (open, close) = match md.kind {
        MemberKind::Indexer => ('[', ']'),
        // A property or event has no parameter list to tell apart.
        MemberKind::Property | MemberKind::Event | MemberKind::Field => return out,
        _ => ('(', ')'),
    };
    let modifier = |m: ParamModifier| match m {
        ParamModifier::Ref => "ref ",
        ParamModifier::Out => "out ",
        ParamModifier::In => "in ",
        ParamModifier::RefReadonly => "ref readonly ",
        ParamModifier::None | ParamModifier::Params | ParamModifier::This => "",
    };
    // The declaration's text when there is one (a primary or default
    // constructor has none): it names the types even when they are unresolved.
    let params: Vec<String> = match syntax {
        Some(s) => s
            .params
            .iter()
            .map(|p| {
                let ty = p.ty.as_ref().map_or_else(|| "?".to_string(), type_ref);
                format!("{}{ty}", modifier(p.modifier))
            })
            .collect(),
        None => md
            .params
            .iter()
            .map(|p| format!("{}{}", modifier(p.modifier), index.display(&p.ty)))
            .collect(),
    };
    let mut out = format!("{out}{open}{}{close}", params.join(", "));
    // Conversions from one type differ only by what they convert to.
    if md.kind == MemberKind::Conversion
        && let Some(t) = syntax.and_then(|s| s.ty.as_ref())
    {
        out.push_str(&format!(" -> {}", type_ref(t)));
    }
    out
}

impl Ctx<'_> {
    fn owner(
        &self,
        file: FileId,
        scope: ScopeId,
        member: Option<MemberId>,
        is_setter: bool,
    ) -> BodyOwner {
        BodyOwner {
            file,
            ty: self.ty,
            member,
            scope,
            is_setter,
        }
    }

    fn lower(&mut self, spec: FnSpec) {
        let index = self.index;
        let hir_file = &index.file(spec.file).syntax;
        let hir = match spec.body {
            Some(b) => match hir_file.bodies.get(b.index()) {
                Some(h) => Some(h),
                None => return,
            },
            None => None,
        };
        // Skipped bodies were reported when they were read.
        if hir.is_some_and(|h| h.skip.is_some()) {
            return;
        }
        let types = match spec.body {
            Some(b) => resolve_body(
                index,
                self.owner(spec.file, spec.scope, spec.member, spec.is_setter),
                b,
            ),
            None => BodyTypes::default(),
        };
        self.out.stats.merge(&types.stats);
        // Initializers run only when the constructor does not chain to `this(..)`.
        let chains_to_this = hir
            .and_then(|h| h.ctor_init.as_ref())
            .is_some_and(|c| c.kind == CtorInitKind::This);
        let mut inits = Vec::new();
        if !chains_to_this {
            for init in spec.inits {
                let Some(h) = index.file(init.file).syntax.bodies.get(init.body.index()) else {
                    continue;
                };
                if h.skip.is_some() {
                    continue;
                }
                let t = resolve_body(
                    index,
                    self.owner(init.file, init.scope, Some(init.member), false),
                    init.body,
                );
                self.out.stats.merge(&t.stats);
                inits.push((*init, h, t));
            }
        }
        let empty = crate::hir::Body::default();
        let hir_body = hir.unwrap_or(&empty);
        let mut bodies = ir::Bodies::new();
        {
            let mut l = Lowerer::new(
                index,
                spec.file,
                hir_body,
                spec.body.unwrap_or(BodyId(u32::MAX)),
                &types,
                spec.name,
                spec.kind,
                spec.range,
                &mut bodies,
            );
            l.b.body_mut().key = spec.key;
            for (i, &b) in hir_body.params.iter().enumerate() {
                l.own.insert(b);
                let data = hir_body.binding(b);
                let ty = types.binding_ty(b).clone();
                let v = l.new_var(
                    data.name.to_string(),
                    VarKind::Param(i as u32),
                    &ty,
                    data.range,
                );
                l.vars.insert(b, v);
            }
            // A primary constructor without base arguments has no HIR body to
            // declare its parameters, but its initializers read them.
            if hir_body.params.is_empty()
                && spec.is_primary
                && let Some(t) = self.ty
            {
                for (i, (name, ty)) in index.ty(t).primary_params.iter().enumerate() {
                    l.new_var(name.to_string(), VarKind::Param(i as u32), ty, spec.range);
                }
            }
            if !spec.is_static
                && let Some(t) = self.ty
            {
                let ty = index.ty(t).self_ty(t);
                let vt = index.value_ty(&ty);
                let span = l.b.body().span;
                l.this_var = Some(l.b.var("this", VarKind::This, vt, span));
            }
            // The compiler stores the parameters it keeps before anything else runs.
            if spec.is_primary
                && let Some(t) = self.ty
            {
                for &(i, m) in &index.ty(t).param_members {
                    if let (Some(v), Some(field)) = (l.b.body().param_var(i), index.member(m).field)
                    {
                        let store = IrStmt::Store {
                            base: l.this_var,
                            field: FieldRef::Known(field),
                            src: Operand::Var(v),
                        };
                        l.emit(store, spec.range);
                    }
                }
            }
            for (init, h, t) in &inits {
                l.initializer_store(*init, h, t, spec.is_static);
            }
            if let Some(ci) = &hir_body.ctor_init {
                let (member, binding) = match &types.ctor_init {
                    Some((m, b)) => (Some(*m), Some(b.arg_params.clone())),
                    None => (None, None),
                };
                let args = l.args_mapped(&ci.args, member, binding);
                let callee = match member.and_then(|m| index.member(m).method) {
                    Some(m) => Callee::Method(m),
                    None => Callee::Unresolved(match ci.kind {
                        CtorInitKind::Base => "base".into(),
                        CtorInitKind::This => "this".into(),
                    }),
                };
                let kind = match ci.kind {
                    CtorInitKind::Base => CallKind::BaseConstructor,
                    CtorInitKind::This => CallKind::ThisConstructor,
                };
                let call = ir::Call {
                    dst: None,
                    callee,
                    kind,
                    receiver: l.this_var,
                    args,
                    awaited: false,
                    ty: Default::default(),
                    new_type: None,
                };
                l.emit_throwing(IrStmt::Call(Box::new(call)), ci.range);
                l.end_temps(ci.range);
            }
            match &hir_body.root {
                Some(BodyRoot::Block(s)) => l.stmt(*s),
                Some(BodyRoot::Expr(e)) => {
                    let range = hir_body.expr_range(*e);
                    let returns = spec.member.is_some_and(|m| {
                        let md = index.member(m);
                        !matches!(md.ty, crate::index::Ty::Void)
                            && !matches!(md.kind, MemberKind::Constructor)
                            && !spec.is_setter
                    });
                    let v = l.expr_value(*e);
                    if returns {
                        if let Operand::Var(t) = &v {
                            l.temps.retain(|x| x != t);
                        }
                        l.end_temps(range);
                        if l.cur.is_some() {
                            l.emit(IrStmt::Return(Some(v)), range);
                        }
                    } else {
                        l.end_temps(range);
                    }
                }
                Some(BodyRoot::None) | None => {}
            }
            l.finish(spec.method, None, hir_body.is_async, hir_body.is_iterator);
        }
        self.out.bodies.append(bodies);
    }
}

impl<'a> Lowerer<'a> {
    /// Runs a field or auto-property initializer: `this.f = value` (or the static
    /// field), lowering its expression in the initializer body's own context.
    fn initializer_store(
        &mut self,
        init: Init,
        hir: &'a crate::hir::Body,
        types: &'a BodyTypes,
        is_static: bool,
    ) {
        let Some(BodyRoot::Expr(root)) = hir.root.clone() else {
            return;
        };
        let saved = (self.hir, self.types, self.file, self.hir_id);
        let saved_vars = std::mem::take(&mut self.vars);
        // A field initializer declares the primary constructor's parameters
        // again: they are the constructor's.
        for (i, &b) in hir.params.iter().enumerate() {
            if let Some(v) = self.b.body().param_var(i as u32) {
                self.vars.insert(b, v);
            }
        }
        (self.hir, self.types, self.file, self.hir_id) = (hir, types, init.file, init.body);
        let range = hir.expr_range(root);
        let value = self.expr_value(root);
        let md = self.index.member(init.member);
        let base = if is_static { None } else { self.this_var };
        let field = match md.field {
            Some(f) => FieldRef::Known(f),
            None => FieldRef::Unknown(md.name.to_string()),
        };
        self.emit(
            IrStmt::Store {
                base,
                field,
                src: value,
            },
            range,
        );
        self.end_temps(range);
        (self.hir, self.types, self.file, self.hir_id) = saved;
        self.vars = saved_vars;
    }
}
