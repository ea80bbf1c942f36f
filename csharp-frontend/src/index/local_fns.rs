//! Local functions as methods: each gets a member of the enclosing type (found
//! through [`Index::local_function`], not by name lookup in the type) and a core
//! method with the specs its attributes state, so calls to it bind like method
//! calls and its body owns its `[Owning]` parameters. Local functions of
//! top-level statements have no enclosing type and stay unbound.

use rlc_core::program::MethodKind;

use super::scope::TypeParamScope;
use super::specs::{MethodParts, method_def};
use super::{Index, MemberData, MemberId, ParamData, Ty, TypeRefStats};
use crate::hir::{BodyId, Function, MemberKind, Modifiers, Stmt};

pub(super) fn add_local_functions(index: &mut Index, first: usize) {
    let mut found: Vec<(MemberId, BodyId, Function)> = Vec::new();
    for m in first..index.members.len() {
        let id = MemberId(m as u32);
        let Some(decl) = index.member(id).decl else {
            continue;
        };
        let syntax = &index.file(decl.file).syntax;
        for mb in index.member_bodies(id) {
            // Nested ones too: a body's statements include its lambdas' and local functions'.
            let fns = syntax.bodies[mb.body.index()]
                .stmts
                .iter()
                .filter_map(|s| match s {
                    Stmt::LocalFunction(f) => Some((id, mb.body, (**f).clone())),
                    _ => None,
                });
            found.extend(fns);
        }
    }
    for (member, body, f) in found {
        add_local_function(index, member, body, &f);
    }
}

fn add_local_function(index: &mut Index, enclosing: MemberId, body_id: BodyId, f: &Function) {
    let Some(binding) = f.binding else { return };
    let m = index.member(enclosing);
    let (owner, Some(decl)) = (m.owner, m.decl) else {
        return;
    };
    let scope = index.file(decl.file).syntax.ty(decl.ty_decl).scope;
    let body = index.file(decl.file).syntax.body(body_id);
    let type_params = TypeParamScope {
        names: f.type_params.iter().map(|p| p.name.clone()).collect(),
    };
    let mut ctx = index.body_scope(decl.file, scope, Some(owner), Some(enclosing));
    ctx.locals = Some(&type_params);
    // Counted where the body is resolved.
    let mut stats = TypeRefStats::default();
    let mut resolve = |t: Option<&crate::hir::TypeRef>| {
        t.map_or(Ty::Unknown, |t| index.resolve_type_ref(&ctx, t, &mut stats))
    };
    let params: Vec<ParamData> = f
        .params
        .iter()
        .map(|&p| {
            let b = body.binding(p);
            ParamData {
                name: b.name.clone(),
                ty: resolve(b.ty.as_ref()),
                modifier: b.modifier,
                default: None,
            }
        })
        .collect();
    let ret = resolve(f.ret.as_ref());
    let name = body.binding(binding).name.clone();
    let span = Some(index.span_of(decl.file, body.binding(binding).range));
    let parts = MethodParts {
        kind: MethodKind::LocalFunction,
        name: name.to_string(),
        params: params.clone(),
        param_attrs: f.param_attrs.iter().map(Vec::as_slice).collect(),
        param_ranges: f.params.iter().map(|&p| body.binding(p).range).collect(),
        ret: ret.clone(),
        attrs: &f.attrs,
        return_attrs: &f.return_attrs,
        property: None,
        has_body: f.body.is_some(),
        // Called without a receiver: what it uses of `this` it captures.
        extra_modifiers: Modifiers::STATIC,
    };
    let def = method_def(index, owner, decl.file, f.modifiers, false, span, parts);
    let id = MemberId(index.members.len() as u32);
    index.members.push(MemberData {
        type_params: type_params.names,
        ..MemberData::synthesized(
            owner,
            MemberKind::LocalFunction,
            name,
            ret,
            params,
            f.modifiers,
            None,
        )
    });
    let method = index.program.add_method(def);
    index.method_members.push(id);
    index.members[id.index()].method = Some(method);
    index
        .local_functions
        .insert((decl.file, body_id, binding), id);
}
