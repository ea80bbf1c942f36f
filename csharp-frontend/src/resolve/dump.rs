//! What the resolver believes about a file, for `rlc-sharp debug model` and tests.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use rlc_core::FileId;
use rlc_core::program::TypeId;

use super::{BodyOwner, BodyTypes, ExprTarget, resolve_body};
use crate::hir::{Expr, TextRange};
use crate::index::{Index, MemberBodyKind, MemberId, Origin, Ty, TypeSource};

/// The resolved type and target of one expression.
#[derive(Clone, Debug, PartialEq)]
pub struct ExprFact {
    pub range: TextRange,
    pub ty: String,
    pub target: Option<String>,
}

/// Every body of a file with its owner, in declaration order.
pub fn file_bodies(index: &Index, file: FileId) -> Vec<(BodyOwner, crate::hir::BodyId, String)> {
    let mut out = Vec::new();
    for (t, data) in index.types.iter().enumerate() {
        if data.origin == Origin::Library {
            continue;
        }
        let tid = TypeId(t as u32);
        let mut members: Vec<MemberId> = data.members.values().flatten().copied().collect();
        members.extend(data.ctors.iter().copied());
        members.sort();
        for m in members {
            let md = index.member(m);
            let Some(decl) = md.decl.filter(|d| d.file == file) else {
                continue;
            };
            let scope = index.file(file).syntax.ty(decl.ty_decl).scope;
            for mb in index.member_bodies(m) {
                let owner = BodyOwner {
                    file,
                    ty: Some(tid),
                    member: Some(m),
                    scope,
                    is_setter: mb.kind.is_setter(),
                };
                let what = match mb.kind {
                    MemberBodyKind::Main => String::new(),
                    MemberBodyKind::Initializer => " (initializer)".into(),
                    MemberBodyKind::Accessor(k) => format!(" ({k:?} accessor)").to_lowercase(),
                };
                out.push((owner, mb.body, format!("{}{what}", index.display_member(m))));
            }
        }
        for part in &data.parts {
            let decl = index.file(part.file).syntax.ty(part.decl);
            if part.file == file
                && let Some(b) = decl.primary_base_args
            {
                let owner = BodyOwner {
                    file,
                    ty: Some(tid),
                    member: None,
                    scope: decl.scope,
                    is_setter: false,
                };
                out.push((
                    owner,
                    b,
                    format!("{} (primary constructor)", data.full_name),
                ));
            }
        }
    }
    if let Some(b) = index.file(file).syntax.top_level {
        let owner = BodyOwner {
            file,
            ty: None,
            member: None,
            scope: crate::hir::ScopeId(0),
            is_setter: false,
        };
        out.push((owner, b, "<top-level statements>".into()));
    }
    out
}

fn target_text(index: &Index, t: &ExprTarget) -> String {
    match t {
        ExprTarget::Member(m) => index.display_member(*m),
        ExprTarget::Type(ty) => format!("type {}", index.display(ty)),
        ExprTarget::Ns(ns) => format!("namespace {}", index.ns(*ns).full_name),
        ExprTarget::PrimaryParam(i) => format!("primary parameter #{i}"),
        ExprTarget::DelegateInvoke => "delegate invocation".into(),
    }
}

/// The type and target of every expression of every body in a file.
pub fn file_facts(index: &Index, file: FileId) -> Vec<ExprFact> {
    let mut out = Vec::new();
    for (owner, body_id, _) in file_bodies(index, file) {
        let types = resolve_body(index, owner, body_id);
        let body = index.file(file).syntax.body(body_id);
        for (i, range) in body.expr_ranges.iter().enumerate() {
            let e = crate::hir::ExprId(i as u32);
            out.push(ExprFact {
                range: *range,
                ty: index.display(types.ty(e)),
                target: types.target(e).map(|t| target_text(index, t)),
            });
        }
    }
    out
}

/// Where each type is declared, for the listing's last section.
fn source_text(index: &Index, t: TypeId) -> String {
    let path = |f: FileId| index.file(f).source.path.display().to_string();
    let first_file = || index.ty(t).parts.first().map(|p| path(p.file));
    match index.type_source(t) {
        TypeSource::Repository => format!("repository ({})", first_file().unwrap_or_default()),
        TypeSource::Metadata(f) => {
            let name = index
                .file(f)
                .source
                .path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned());
            format!("metadata ({})", name.unwrap_or_default())
        }
        TypeSource::Model => match first_file() {
            Some(file) => format!("library model ({file})"),
            None => "library model".to_owned(),
        },
    }
}

/// The named types in `ty`, its type arguments and element types.
fn named_types(ty: &Ty, out: &mut BTreeSet<TypeId>) {
    match ty {
        Ty::Named { def, args } => {
            out.insert(*def);
            args.iter().for_each(|a| named_types(a, out));
        }
        Ty::Array { elem: t, .. } | Ty::Pointer(t) => named_types(t, out),
        Ty::Tuple(items, _) => items.iter().for_each(|a| named_types(a, out)),
        _ => {}
    }
}

/// A readable listing: declared types and members, then for each body its locals
/// and calls with their resolved types and targets, then where each type the
/// file's declarations and bodies resolve to is declared.
pub fn dump_file(index: &Index, file: FileId) -> String {
    let entry = index.file(file);
    let text = &entry.source.text;
    let mut out = String::new();
    let mut used: BTreeSet<TypeId> = BTreeSet::new();
    let _ = writeln!(out, "file {}", entry.source.path.display());
    for (t, data) in index.types.iter().enumerate() {
        if !data.parts.iter().any(|p| p.file == file) {
            continue;
        }
        let tid = TypeId(t as u32);
        let bases: Vec<String> = data
            .base
            .iter()
            .chain(&data.interfaces)
            .map(|b| index.display(b))
            .collect();
        used.insert(tid);
        for b in data.base.iter().chain(&data.interfaces) {
            named_types(b, &mut used);
        }
        let must_call = index
            .program
            .types
            .get(t)
            .and_then(|d| d.must_call.as_ref())
            .map(|(m, _)| format!(" [MustCall({})]", m.methods.join(", ")))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "{:?} {}{}{}",
            data.kind,
            index
                .display(&data.self_ty(tid))
                .replace(data.name.as_str(), &data.full_name),
            if bases.is_empty() {
                String::new()
            } else {
                format!(" : {}", bases.join(", "))
            },
            must_call
        );
        let mut members: Vec<MemberId> = data.members.values().flatten().copied().collect();
        members.extend(data.ctors.iter().copied());
        members.sort();
        for m in members {
            let md = index.member(m);
            named_types(&md.ty, &mut used);
            let _ = writeln!(
                out,
                "  {:?} {} : {}",
                md.kind,
                index.display_member(m),
                index.display(&md.ty)
            );
        }
    }
    for (owner, body_id, name) in file_bodies(index, file) {
        let types = resolve_body(index, owner, body_id);
        let body = entry.syntax.body(body_id);
        let _ = writeln!(out, "body {name}");
        for (i, b) in body.bindings.iter().enumerate() {
            let ty = types.binding_ty(crate::hir::BindingId(i as u32));
            named_types(ty, &mut used);
            let _ = writeln!(out, "  local {} : {}", b.name, index.display(ty));
        }
        for (i, e) in body.exprs.iter().enumerate() {
            let id = crate::hir::ExprId(i as u32);
            named_types(types.ty(id), &mut used);
            let interesting = matches!(e, Expr::Call { .. } | Expr::New { .. } | Expr::Await(_));
            if !interesting {
                continue;
            }
            let range = body.expr_range(id);
            let snippet: String = text
                .get(range.start as usize..range.end as usize)
                .unwrap_or("")
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            let snippet = if snippet.chars().count() > 60 {
                format!("{}...", snippet.chars().take(57).collect::<String>())
            } else {
                snippet
            };
            let line = entry.source.lines.line_col(text, range.start).line;
            let target = types
                .target(id)
                .map(|t| target_text(index, t))
                .unwrap_or_else(|| "<unresolved>".into());
            let _ = writeln!(
                out,
                "  {line}: {snippet} : {} -> {target}",
                index.display(types.ty(id))
            );
        }
        report_stats(&mut out, &types);
    }
    if !used.is_empty() {
        let _ = writeln!(out, "types, by where they are declared");
        let mut lines: Vec<(String, String)> = used
            .iter()
            .map(|&t| (index.ty(t).full_name.clone(), source_text(index, t)))
            .collect();
        lines.sort();
        for (name, source) in lines {
            let _ = writeln!(out, "  {name}: {source}");
        }
    }
    out
}

fn report_stats(out: &mut String, types: &BodyTypes) {
    let s = &types.stats;
    if s.calls > 0 {
        let _ = writeln!(out, "  calls resolved: {}/{}", s.calls_resolved, s.calls);
    }
}
