//! Resolving type names as C# does: type parameters, enclosing types and their
//! (inherited) nested types, then each enclosing namespace from the innermost out
//! (its members first, then its using aliases and using directives), and at the
//! top the compilation unit's usings together with the project's global usings.

use rlc_core::FileId;
use rlc_core::program::TypeId;

use super::ty::{ParamOwner, TupleNames, Ty};
use super::{GLOBAL_NS, Index, MemberId, NsId, Origin, ResolvedUsings, TypeRefStats, TypeSource};
use crate::hir::{Name, PathSegment, Predefined, ScopeId, TypeRef};

/// What a name resolved to.
#[derive(Clone, Debug, PartialEq)]
pub enum Resolved {
    Ns(NsId),
    Type(Ty),
}

/// Type parameters in scope that are not a type's or a member's (local functions).
#[derive(Clone, Debug, Default)]
pub struct TypeParamScope {
    pub names: Vec<Name>,
}

/// Where a name is being resolved.
#[derive(Clone, Debug)]
pub struct ScopeCtx<'a> {
    pub file: FileId,
    pub scope: ScopeId,
    pub origin: Origin,
    /// The innermost enclosing type (its parents are found through `TypeData::parent`).
    pub enclosing: Option<TypeId>,
    /// The method whose type parameters are in scope.
    pub method: Option<MemberId>,
    pub locals: Option<&'a TypeParamScope>,
    /// While resolving base lists, inherited nested types are not searched (the bases
    /// are what is being resolved).
    pub search_bases: bool,
}

impl<'a> ScopeCtx<'a> {
    pub fn new(file: FileId, scope: ScopeId, origin: Origin) -> ScopeCtx<'a> {
        ScopeCtx {
            file,
            scope,
            origin,
            enclosing: None,
            method: None,
            locals: None,
            search_bases: true,
        }
    }
}

impl Index {
    /// Where names in a body resolve: the declaration's namespace scope, the
    /// enclosing type and the type parameters of the member the body implements.
    pub fn body_scope<'a>(
        &self,
        file: FileId,
        scope: ScopeId,
        ty: Option<TypeId>,
        member: Option<MemberId>,
    ) -> ScopeCtx<'a> {
        let mut ctx = ScopeCtx::new(file, scope, self.file(file).origin);
        ctx.enclosing = ty;
        ctx.method = member.filter(|m| !self.member(*m).type_params.is_empty());
        ctx
    }

    /// Resolves a type as written; unknown names become [`Ty::Unknown`] and are counted.
    pub fn resolve_type_ref(&self, ctx: &ScopeCtx, tr: &TypeRef, stats: &mut TypeRefStats) -> Ty {
        match tr {
            TypeRef::Predefined(p) => self.predefined(*p),
            TypeRef::Array(elem, rank) => Ty::Array {
                elem: Box::new(self.resolve_type_ref(ctx, elem, stats)),
                rank: *rank,
            },
            TypeRef::Nullable(inner) => {
                let t = self.resolve_type_ref(ctx, inner, stats);
                // `int?` is `Nullable<int>`; `string?` is just `string`.
                match (&t, self.well_known.nullable) {
                    (Ty::Named { def, .. }, Some(n)) if self.is_value_type(*def) => Ty::Named {
                        def: n,
                        args: Box::new([t]),
                    },
                    _ => t,
                }
            }
            TypeRef::Tuple(items) => Ty::Tuple(
                items
                    .iter()
                    .map(|(t, _)| self.resolve_type_ref(ctx, t, stats))
                    .collect(),
                TupleNames::new(items.iter().map(|(_, n)| n.clone())),
            ),
            TypeRef::Pointer(t) => Ty::Pointer(Box::new(self.resolve_type_ref(ctx, t, stats))),
            TypeRef::Ref(t) => self.resolve_type_ref(ctx, t, stats),
            TypeRef::FunctionPointer | TypeRef::Var | TypeRef::Error => Ty::Unknown,
            TypeRef::Path {
                qualifier,
                segments,
            } => match self.resolve_path(ctx, qualifier.as_ref(), segments, stats) {
                Some(Resolved::Type(t)) => {
                    stats.resolved += 1;
                    if let Ty::Named { def, .. } = &t {
                        match self.type_source(*def) {
                            TypeSource::Repository => {}
                            TypeSource::Metadata(_) => stats.resolved_metadata += 1,
                            TypeSource::Model => stats.resolved_model += 1,
                        }
                    }
                    t
                }
                _ => {
                    stats.unresolved += 1;
                    let key = segments
                        .iter()
                        .map(|s| s.name.as_str())
                        .collect::<Vec<_>>()
                        .join(".");
                    *stats.unknown.entry(key.into()).or_default() += 1;
                    Ty::Unknown
                }
            },
        }
    }

    pub fn predefined(&self, p: Predefined) -> Ty {
        match p {
            Predefined::Void => Ty::Void,
            Predefined::Dynamic => Ty::Dynamic,
            _ => p
                .clr_name()
                .and_then(|n| self.type_by_name(n, 0))
                .map(Ty::named)
                .unwrap_or(Ty::Unknown),
        }
    }

    pub fn is_value_type(&self, def: TypeId) -> bool {
        use crate::hir::TypeKind::*;
        matches!(self.ty(def).kind, Struct | Enum | RecordStruct)
    }

    /// Resolves `A.B<C>.D` (or `global::A.B`, `alias::B`) to a namespace or a type.
    pub fn resolve_path(
        &self,
        ctx: &ScopeCtx,
        qualifier: Option<&Name>,
        segments: &[PathSegment],
        stats: &mut TypeRefStats,
    ) -> Option<Resolved> {
        let (first, rest) = segments.split_first()?;
        let mut cur = match qualifier.map(|q| q.as_str()) {
            Some("global") => self.member_of_ns(ctx, GLOBAL_NS, first, stats)?,
            Some(alias) => match self.lookup_alias(ctx, alias)? {
                Resolved::Ns(ns) => self.member_of_ns(ctx, ns, first, stats)?,
                Resolved::Type(t) => self.nested_of(ctx, &t, first, stats)?,
            },
            None => self.lookup_first(ctx, first, stats)?,
        };
        for seg in rest {
            cur = match cur {
                Resolved::Ns(ns) => self.member_of_ns(ctx, ns, seg, stats)?,
                Resolved::Type(t) => self.nested_of(ctx, &t, seg, stats)?,
            };
        }
        Some(cur)
    }

    fn resolve_args(
        &self,
        ctx: &ScopeCtx,
        seg: &PathSegment,
        stats: &mut TypeRefStats,
    ) -> Box<[Ty]> {
        seg.args
            .iter()
            .map(|a| self.resolve_type_ref(ctx, a, stats))
            .collect()
    }

    /// A type or namespace named `seg` directly in namespace `ns`.
    fn member_of_ns(
        &self,
        ctx: &ScopeCtx,
        ns: NsId,
        seg: &PathSegment,
        stats: &mut TypeRefStats,
    ) -> Option<Resolved> {
        if let Some(t) = self.type_in_ns(ctx.origin, ns, &seg.name, seg.args.len()) {
            let args = self.resolve_args(ctx, seg, stats);
            return Some(Resolved::Type(Ty::Named { def: t, args }));
        }
        if seg.args.is_empty() {
            return self.ns_child(ctx.origin, ns, &seg.name).map(Resolved::Ns);
        }
        None
    }

    /// A visible type named `name` with `arity` declared in `ns`.
    pub fn type_in_ns(&self, from: Origin, ns: NsId, name: &str, arity: usize) -> Option<TypeId> {
        let candidates = self.ns(ns).types.get(name)?;
        candidates
            .iter()
            .copied()
            .filter(|&t| {
                let d = self.ty(t);
                d.arity() == arity && d.parent.is_none() && self.is_visible(from, d.origin)
            })
            .min_by_key(|&t| self.declaration_rank(from, t))
    }

    /// Of two declarations a name could mean, the one code in `from` means:
    /// the project's own over a referenced project's, both over the model's.
    /// The model has types the build may not reference (`System.Drawing.Region`
    /// in a net8.0 project), so where a project's type and a model type are both
    /// imported, the program compiles only because it means its own.
    fn declaration_rank(&self, from: Origin, t: TypeId) -> u8 {
        match self.ty(t).origin {
            o if o == from => 0,
            Origin::Project(_) => 1,
            Origin::Library => 2,
        }
    }

    /// A nested type of `owner` (or of its bases) named like `seg`.
    fn nested_of(
        &self,
        ctx: &ScopeCtx,
        owner: &Ty,
        seg: &PathSegment,
        stats: &mut TypeRefStats,
    ) -> Option<Resolved> {
        let def = owner.def()?;
        let found = self.nested_type(def, &seg.name, seg.args.len(), ctx.search_bases)?;
        // A nested type of a generic type gets the outer type's arguments first.
        let mut args: Vec<Ty> = owner.args().to_vec();
        args.truncate(self.ty(found).arity().saturating_sub(seg.args.len()));
        args.extend(self.resolve_args(ctx, seg, stats).into_vec());
        Some(Resolved::Type(Ty::Named {
            def: found,
            args: args.into(),
        }))
    }

    /// A nested type named `name` declared in `owner` (or inherited from its bases).
    /// Nested types of generic types carry the outer type's parameters first, so the
    /// arity to match is the outer arity plus the written one.
    pub fn nested_type(
        &self,
        owner: TypeId,
        name: &str,
        written_arity: usize,
        search_bases: bool,
    ) -> Option<TypeId> {
        let mut cur = Some(owner);
        let mut guard = 0;
        while let Some(t) = cur {
            let d = self.ty(t);
            if let Some(list) = d.nested.get(name) {
                let want = d.arity() + written_arity;
                if let Some(&n) = list.iter().find(|&&n| self.ty(n).arity() == want) {
                    return Some(n);
                }
            }
            if !search_bases {
                return None;
            }
            cur = d.base.as_ref().and_then(Ty::def);
            guard += 1;
            if guard > 64 {
                return None;
            }
        }
        None
    }

    fn lookup_alias(&self, ctx: &ScopeCtx, alias: &str) -> Option<Resolved> {
        for (_, usings) in self.scope_chain(ctx) {
            for u in usings {
                if let Some(r) = u.aliases.get(alias) {
                    return Some(r.clone());
                }
            }
        }
        None
    }

    /// The namespaces enclosing a scope, innermost first, each with the usings that
    /// apply at that level (a scope's usings apply at its innermost namespace; the
    /// compilation unit's and the project's global usings at the global namespace).
    pub fn scope_chain<'s>(&'s self, ctx: &ScopeCtx) -> Vec<(NsId, Vec<&'s ResolvedUsings>)> {
        let file = ctx.file.0 as usize;
        let Some(entry) = self.files.get(file) else {
            return vec![(GLOBAL_NS, Vec::new())];
        };
        let syntax = &entry.syntax;
        // Scopes from the innermost to the compilation unit.
        let mut scopes = Vec::new();
        let mut cur = Some(ctx.scope);
        while let Some(s) = cur {
            let Some(data) = syntax.scopes.get(s.0 as usize) else {
                break;
            };
            scopes.push(s);
            cur = data.parent;
            if scopes.len() > 256 {
                break;
            }
        }
        // Full namespace path of the innermost scope.
        let mut path: Vec<Name> = Vec::new();
        for s in scopes.iter().rev() {
            path.extend(syntax.scopes[s.0 as usize].name.iter().cloned());
        }
        let usings_of = |s: ScopeId| self.usings.get(file).and_then(|u| u.get(s.0 as usize));
        let mut chain = Vec::new();
        // Walk namespace levels from the innermost prefix to the global namespace.
        let mut depth_of_scope: Vec<(usize, ScopeId)> = Vec::new();
        {
            let mut depth = 0;
            for s in scopes.iter().rev() {
                depth += syntax.scopes[s.0 as usize].name.len();
                depth_of_scope.push((depth, *s));
            }
        }
        for level in (0..=path.len()).rev() {
            let Some(ns) = self.ns_by_path(&path[..level]) else {
                continue;
            };
            let mut usings: Vec<&ResolvedUsings> = depth_of_scope
                .iter()
                .filter(|(d, _)| *d == level)
                .filter_map(|(_, s)| usings_of(*s))
                .collect();
            if level == 0
                && let Origin::Project(p) = ctx.origin
                && let Some(g) = self.global_usings.get(p as usize)
            {
                usings.push(g);
            }
            chain.push((ns, usings));
        }
        chain
    }

    fn ns_by_path(&self, path: &[Name]) -> Option<NsId> {
        let mut ns = GLOBAL_NS;
        for seg in path {
            ns = *self.ns(ns).children.get(seg)?;
        }
        Some(ns)
    }

    /// Looks up the first segment of a name: type parameters, enclosing types and
    /// their nested types, then namespaces outward with their usings.
    fn lookup_first(
        &self,
        ctx: &ScopeCtx,
        seg: &PathSegment,
        stats: &mut TypeRefStats,
    ) -> Option<Resolved> {
        let name = seg.name.as_str();
        let arity = seg.args.len();
        if arity == 0 {
            if let Some(locals) = ctx.locals
                && locals.names.iter().any(|n| n == name)
            {
                return Some(Resolved::Type(Ty::Param {
                    owner: ParamOwner::Local,
                    index: 0,
                }));
            }
            if let Some(m) = ctx.method
                && let Some(i) = self.member(m).type_params.iter().position(|n| n == name)
            {
                return Some(Resolved::Type(Ty::Param {
                    owner: ParamOwner::Method(m),
                    index: i as u32,
                }));
            }
        }
        let mut enclosing = ctx.enclosing;
        let mut guard = 0;
        while let Some(t) = enclosing {
            let d = self.ty(t);
            if arity == 0
                && let Some(i) = d.type_params.iter().position(|n| n == name)
            {
                // Nested types repeat their outer types' parameters first, so the
                // innermost enclosing type that has it owns it.
                return Some(Resolved::Type(Ty::Param {
                    owner: ParamOwner::Type(t),
                    index: i as u32,
                }));
            }
            if let Some(n) = self.nested_type(t, name, arity, ctx.search_bases) {
                let self_ty = self.ty(t).self_ty(t);
                return self
                    .nested_of(ctx, &self_ty, seg, stats)
                    .or(Some(Resolved::Type(Ty::named(n))));
            }
            enclosing = d.parent;
            guard += 1;
            if guard > 64 {
                break;
            }
        }
        for (ns, usings) in self.scope_chain(ctx) {
            if let Some(r) = self.member_of_ns(ctx, ns, seg, stats) {
                return Some(r);
            }
            if arity == 0 {
                for u in &usings {
                    if let Some(r) = u.aliases.get(name) {
                        return Some(r.clone());
                    }
                }
            }
            let imported = usings
                .iter()
                .flat_map(|u| &u.namespaces)
                .filter_map(|&ns| self.type_in_ns(ctx.origin, ns, name, arity))
                .min_by_key(|&t| self.declaration_rank(ctx.origin, t));
            if let Some(t) = imported {
                let args = self.resolve_args(ctx, seg, stats);
                return Some(Resolved::Type(Ty::Named { def: t, args }));
            }
            for u in &usings {
                // `using static T;` also brings T's nested types into scope.
                for &st in &u.statics {
                    if let Some(n) = self.nested_type(st, name, arity, true) {
                        let args = self.resolve_args(ctx, seg, stats);
                        return Some(Resolved::Type(Ty::Named { def: n, args }));
                    }
                }
            }
        }
        None
    }
}
