//! Building the index from parsed files, in the order C# needs: namespaces and
//! types first, then usings, then base lists and constraints, then member
//! signatures, then the core's spec table.

use std::sync::Arc;

use rlc_core::FileId;
use rlc_core::program::{Program, TypeId};
use rustc_hash::FxHashMap;

use super::scope::ScopeCtx;
use super::ty::Ty;
use super::{
    FileEntry, GLOBAL_NS, Index, MemberBodyKind, MemberData, MemberDecl, MemberId, NsData, NsId,
    Origin, ParamData, Resolved, ResolvedUsings, TypeData, TypePart, TypeRefStats, WellKnownTypes,
};
use crate::hir::{
    Expr, Member, MemberKind, Modifiers, Name, Param, ParamModifier, PathSegment, ScopeId,
    TypeDecl, TypeDeclId, TypeKind, TypeRef, UsingKind,
};
use crate::resolve::{BodyOwner, ExprTarget, resolve_body};

/// A project as the index needs it.
#[derive(Clone, Debug, Default)]
pub struct ProjectInput {
    /// Direct project references (indices into the project list).
    pub references: Vec<u32>,
    pub global_usings: Vec<GlobalUsingSpec>,
}

/// A global using that comes from the project file (`ImplicitUsings`, `<Using>`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GlobalUsingSpec {
    Namespace(String),
    Static(String),
    Alias { alias: String, target: String },
}

/// Type-level facts of the library model that are not C# syntax.
#[derive(Clone, Debug, Default)]
pub struct LibraryTypeFacts {
    pub must_call: Option<Vec<String>>,
    pub also_disposes: Vec<String>,
    /// What its disposal releases, when that is only managed state.
    pub releases_only_managed: Option<String>,
}

/// The library model's facts per type, shared by every index of a run.
pub type LibraryFacts = std::sync::Arc<FxHashMap<String, LibraryTypeFacts>>;

pub struct IndexInput {
    /// All files; a file's position is its `FileId`.
    pub files: Vec<FileEntry>,
    pub projects: Vec<ProjectInput>,
    /// Per library type (by full CLR-ish name `System.IO.Stream`, `List`1`-free: the
    /// display name the index computes), its model facts.
    pub library_facts: LibraryFacts,
}

pub fn build(input: IndexInput) -> Index {
    build_on(empty(), input)
}

/// An index without declarations but the global namespace.
fn empty() -> Index {
    Index {
        usings: Vec::new(),
        files: Vec::new(),
        namespaces: vec![NsData {
            name: Name::default(),
            parent: None,
            full_name: String::new(),
            children: FxHashMap::default(),
            types: FxHashMap::default(),
            origins: Vec::new(),
        }],
        types: Vec::new(),
        members: Vec::new(),
        program: Program::default(),
        method_members: Vec::new(),
        local_functions: FxHashMap::default(),
        global_usings: Vec::new(),
        visible: Vec::new(),
        well_known: WellKnownTypes::default(),
        extension_classes: FxHashMap::default(),
        decl_stats: TypeRefStats::default(),
        notes: Vec::new(),
    }
}

/// Where the declarations a build adds start: those before are the base's.
#[derive(Copy, Clone, Debug, Default)]
pub(super) struct Start {
    pub file: usize,
    pub ty: usize,
    pub member: usize,
}

/// Builds the index of `input` on top of `base`, the index of the library
/// model alone ([`build`] of its files, without projects), which is reused
/// as is: its names resolve only among themselves, so the sources cannot
/// change them. `input.files` are the files after the base's (their ids
/// follow). The result is the index [`build`] makes of all the files, which
/// it falls back to when the sources declare one of the types the resolver
/// knows by name (`System.Object`, ...) that the model does not.
pub fn build_on(base: Index, input: IndexInput) -> Index {
    let IndexInput {
        files,
        projects,
        library_facts,
    } = input;
    let start = Start {
        file: base.files.len(),
        ty: base.types.len(),
        member: base.members.len(),
    };
    let mut index = base;
    let base_well_known = index.well_known.clone();
    index.usings.extend(
        files
            .iter()
            .map(|f| vec![ResolvedUsings::default(); f.syntax.scopes.len()]),
    );
    index.files.extend(files);
    index.global_usings = vec![ResolvedUsings::default(); projects.len()];
    index.visible = visibility(&projects);
    let base_stats = std::mem::take(&mut index.decl_stats);
    let mut b = Builder {
        index: &mut index,
        type_of_decl: FxHashMap::default(),
        stats: base_stats,
        start,
    };
    b.collect_types();
    let well_known = well_known(b.index);
    if start.ty > 0 && well_known != base_well_known {
        // The model's members were resolved with other well-known types.
        return build(IndexInput {
            files: std::mem::take(&mut index.files),
            projects,
            library_facts,
        });
    }
    b.index.well_known = well_known;
    b.resolve_usings(&projects);
    b.resolve_bases();
    b.collect_members();
    b.capture_primary_params();
    b.index.decl_stats = std::mem::take(&mut b.stats);
    super::specs::build_program(&mut index, &library_facts, start);
    index
}

/// What [`Index::rollback`] restores: an index as it was before
/// [`build_on`] added to it.
#[derive(Clone, Debug)]
pub struct BaseMark {
    files: usize,
    types: usize,
    members: usize,
    methods: usize,
    fields: usize,
    notes: usize,
    // Small, and changed in place by a build: kept whole.
    namespaces: Vec<NsData>,
    extension_classes: FxHashMap<NsId, Vec<TypeId>>,
    local_functions: usize,
    well_known: WellKnownTypes,
    decl_stats: TypeRefStats,
}

impl Index {
    /// The mark to roll an index built on this one back to.
    pub fn mark(&self) -> BaseMark {
        BaseMark {
            files: self.files.len(),
            types: self.types.len(),
            members: self.members.len(),
            methods: self.program.methods.len(),
            fields: self.program.fields.len(),
            notes: self.notes.len(),
            namespaces: self.namespaces.clone(),
            extension_classes: self.extension_classes.clone(),
            local_functions: self.local_functions.len(),
            well_known: self.well_known.clone(),
            decl_stats: self.decl_stats.clone(),
        }
    }

    /// Drops what [`build_on`] added to the index `mark` was taken of, which
    /// then is that index again, without copying it: a caller loading many
    /// times (the fuzzer) reuses the library model's index so. The analysis
    /// changes only what the sources declare. False, with the index left in
    /// part, when it was not built on that base (it fell back to building
    /// every file): then it must not be used.
    pub fn rollback(&mut self, mark: &BaseMark) -> bool {
        // Local functions are the sources' (the model has none): all go.
        // Referenced assemblies' files are indexed with the model, after its
        // files: an index with any was built anew, not on the mark's.
        let built_on = self.files.len() >= mark.files
            && self.types.len() >= mark.types
            && self.well_known == mark.well_known
            && mark.local_functions == 0
            && self.files[mark.files..]
                .iter()
                .all(|f| f.origin != Origin::Library);
        if !built_on {
            return false;
        }
        self.files.truncate(mark.files);
        self.usings.truncate(mark.files);
        self.types.truncate(mark.types);
        self.members.truncate(mark.members);
        self.program.types.truncate(mark.types);
        self.program.methods.truncate(mark.methods);
        self.program.fields.truncate(mark.fields);
        self.method_members.truncate(mark.methods);
        self.notes.truncate(mark.notes);
        self.namespaces.clone_from(&mark.namespaces);
        self.extension_classes.clone_from(&mark.extension_classes);
        self.local_functions.clear();
        self.global_usings.clear();
        self.visible.clear();
        self.decl_stats.clone_from(&mark.decl_stats);
        true
    }
}

/// `visible[p][q]`: q is p or reachable through project references.
fn visibility(projects: &[ProjectInput]) -> Vec<Vec<bool>> {
    let n = projects.len();
    let mut vis = vec![vec![false; n]; n];
    for (p, row) in vis.iter_mut().enumerate() {
        let mut stack = vec![p as u32];
        while let Some(q) = stack.pop() {
            let Some(slot) = row.get_mut(q as usize) else {
                continue;
            };
            if *slot {
                continue;
            }
            *slot = true;
            stack.extend(projects[q as usize].references.iter().copied());
        }
    }
    vis
}

fn well_known(index: &Index) -> WellKnownTypes {
    let t = |name: &str, arity: usize| index.type_by_name(name, arity);
    WellKnownTypes {
        object: t("System.Object", 0),
        string: t("System.String", 0),
        boolean: t("System.Boolean", 0),
        int32: t("System.Int32", 0),
        int64: t("System.Int64", 0),
        double: t("System.Double", 0),
        char: t("System.Char", 0),
        value_type: t("System.ValueType", 0),
        enum_: t("System.Enum", 0),
        delegate: t("System.MulticastDelegate", 0).or_else(|| t("System.Delegate", 0)),
        array: t("System.Array", 0),
        type_: t("System.Type", 0),
        exception: t("System.Exception", 0),
        argument_exception: t("System.ArgumentException", 0),
        task: t("System.Threading.Tasks.Task", 0),
        task_t: t("System.Threading.Tasks.Task", 1),
        value_task: t("System.Threading.Tasks.ValueTask", 0),
        value_task_t: t("System.Threading.Tasks.ValueTask", 1),
        nullable: t("System.Nullable", 1),
        ienumerable: t("System.Collections.IEnumerable", 0),
        ienumerable_t: t("System.Collections.Generic.IEnumerable", 1),
        iasync_enumerable_t: t("System.Collections.Generic.IAsyncEnumerable", 1),
        idisposable: t("System.IDisposable", 0),
        iasync_disposable: t("System.IAsyncDisposable", 0),
        func: (1..=17).filter_map(|n| t("System.Func", n)).collect(),
        action: (0..=16).filter_map(|n| t("System.Action", n)).collect(),
    }
}

struct Builder<'a> {
    index: &'a mut Index,
    type_of_decl: FxHashMap<(FileId, TypeDeclId), TypeId>,
    stats: TypeRefStats,
    /// What the base index holds already.
    start: Start,
}

/// Where a type is declared: a namespace or an enclosing type.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
enum Container {
    Ns(NsId),
    Type(TypeId),
}

impl Builder<'_> {
    fn ns_child(&mut self, parent: NsId, name: &Name) -> NsId {
        if let Some(&c) = self.index.namespaces[parent.0 as usize].children.get(name) {
            return c;
        }
        let id = NsId(self.index.namespaces.len() as u32);
        let parent_full = &self.index.namespaces[parent.0 as usize].full_name;
        let full_name = if parent_full.is_empty() {
            name.to_string()
        } else {
            format!("{parent_full}.{name}")
        };
        self.index.namespaces.push(NsData {
            name: name.clone(),
            parent: Some(parent),
            full_name,
            children: FxHashMap::default(),
            types: FxHashMap::default(),
            origins: Vec::new(),
        });
        self.index.namespaces[parent.0 as usize]
            .children
            .insert(name.clone(), id);
        id
    }

    /// The namespace a scope of a file stands for, creating it.
    fn ns_of_scope(&mut self, file: FileId, scope: ScopeId) -> NsId {
        let mut chain = Vec::new();
        let mut cur = Some(scope);
        while let Some(s) = cur {
            let Some(data) = self.index.files[file.0 as usize]
                .syntax
                .scopes
                .get(s.0 as usize)
            else {
                break;
            };
            chain.push(data.name.clone());
            cur = data.parent;
            if chain.len() > 256 {
                break;
            }
        }
        let origin = self.index.files[file.0 as usize].origin;
        let mut ns = GLOBAL_NS;
        for names in chain.iter().rev() {
            for n in names {
                ns = self.ns_child(ns, n);
                let origins = &mut self.index.namespaces[ns.0 as usize].origins;
                if !origins.contains(&origin) {
                    origins.push(origin);
                }
            }
        }
        ns
    }

    fn collect_types(&mut self) {
        let mut by_key: FxHashMap<(Origin, Container, Name, usize), TypeId> = FxHashMap::default();
        for f in self.start.file..self.index.files.len() {
            let file = FileId(f as u32);
            for d in 0..self.index.files[f].syntax.types.len() {
                self.ensure_type(file, TypeDeclId(d as u32), &mut by_key, 0);
            }
        }
    }

    fn ensure_type(
        &mut self,
        file: FileId,
        decl_id: TypeDeclId,
        by_key: &mut FxHashMap<(Origin, Container, Name, usize), TypeId>,
        depth: usize,
    ) -> Option<TypeId> {
        if let Some(&t) = self.type_of_decl.get(&(file, decl_id)) {
            return Some(t);
        }
        if depth > 64 {
            return None;
        }
        let entry = &self.index.files[file.0 as usize];
        let origin = entry.origin;
        // The file's syntax, not the declaration, is copied: a reference.
        let syntax = Arc::clone(&entry.syntax);
        let decl = syntax.types.get(decl_id.0 as usize)?;
        let (container, ns, parent_params) = match decl.parent {
            Some(p) => {
                let parent = self.ensure_type(file, p, by_key, depth + 1)?;
                let pd = &self.index.types[parent.index()];
                (Container::Type(parent), pd.ns, pd.type_params.clone())
            }
            None => {
                let ns = self.ns_of_scope(file, decl.scope);
                (Container::Ns(ns), ns, Vec::new())
            }
        };
        let mut type_params = parent_params;
        type_params.extend(decl.type_params.iter().map(|p| p.name.clone()));
        let key = (origin, container, decl.name.clone(), type_params.len());
        let part = TypePart {
            file,
            decl: decl_id,
        };
        if let Some(&existing) = by_key.get(&key) {
            let t = &mut self.index.types[existing.index()];
            t.parts.push(part);
            t.modifiers |= decl.modifiers;
            self.type_of_decl.insert((file, decl_id), existing);
            return Some(existing);
        }
        let id = TypeId(self.index.types.len() as u32);
        let full_name = match container {
            Container::Ns(ns) => {
                let nsname = &self.index.namespaces[ns.0 as usize].full_name;
                if nsname.is_empty() {
                    decl.name.to_string()
                } else {
                    format!("{nsname}.{}", decl.name)
                }
            }
            Container::Type(p) => {
                format!("{}.{}", self.index.types[p.index()].full_name, decl.name)
            }
        };
        self.index.types.push(TypeData {
            name: decl.name.clone(),
            full_name,
            ns,
            parent: match container {
                Container::Type(p) => Some(p),
                Container::Ns(_) => None,
            },
            kind: decl.kind,
            bounds: vec![Vec::new(); type_params.len()],
            type_params,
            origin,
            parts: vec![part],
            modifiers: decl.modifiers,
            base: None,
            interfaces: Vec::new(),
            nested: FxHashMap::default(),
            members: FxHashMap::default(),
            ctors: Vec::new(),
            primary_params: Vec::new(),
            param_members: Vec::new(),
        });
        match container {
            Container::Ns(ns) => self.index.namespaces[ns.0 as usize]
                .types
                .entry(decl.name.clone())
                .or_default()
                .push(id),
            Container::Type(p) => self.index.types[p.index()]
                .nested
                .entry(decl.name.clone())
                .or_default()
                .push(id),
        }
        by_key.insert(key, id);
        self.type_of_decl.insert((file, decl_id), id);
        Some(id)
    }

    fn resolve_usings(&mut self, projects: &[ProjectInput]) {
        // Project-level global usings first: they apply in every file.
        for (p, project) in projects.iter().enumerate() {
            let mut r = ResolvedUsings::default();
            for g in &project.global_usings {
                self.add_global_using(Origin::Project(p as u32), &mut r, g);
            }
            self.index.global_usings[p] = r;
        }
        // `global using` directives in any file of a project join its global usings.
        for f in self.start.file..self.index.files.len() {
            let file = FileId(f as u32);
            let Origin::Project(p) = self.index.files[f].origin else {
                continue;
            };
            let usings: Vec<_> = self.index.files[f]
                .syntax
                .scopes
                .first()
                .map(|s| s.usings.iter().filter(|u| u.global).cloned().collect())
                .unwrap_or_default();
            for u in usings {
                let ctx = ScopeCtx::new(file, ScopeId(0), Origin::Project(p));
                let mut stats = TypeRefStats::default();
                let mut target = std::mem::take(&mut self.index.global_usings[p as usize]);
                self.add_using(&ctx, &mut target, &u.kind, &mut stats);
                self.index.global_usings[p as usize] = target;
            }
        }
        for f in self.start.file..self.index.files.len() {
            let file = FileId(f as u32);
            let origin = self.index.files[f].origin;
            let nscopes = self.index.files[f].syntax.scopes.len();
            // Parents precede children in the scope list.
            for s in 0..nscopes {
                let scope = &self.index.files[f].syntax.scopes[s];
                let directives: Vec<_> =
                    scope.usings.iter().filter(|u| !u.global).cloned().collect();
                // C# resolves a using directive in its own namespace (`using C;` in
                // `namespace A.B` is `A.B.C`, then `A.C`, then `C`) but without its peer
                // directives: this scope's usings are still empty while they are resolved
                // here, and the outer scopes' are already done (parents come first).
                let ctx = ScopeCtx::new(file, ScopeId(s as u32), origin);
                let mut r = ResolvedUsings::default();
                for u in directives {
                    let mut stats = TypeRefStats::default();
                    self.add_using(&ctx, &mut r, &u.kind, &mut stats);
                }
                self.index.usings[f][s] = r;
            }
        }
    }

    fn add_using(
        &self,
        ctx: &ScopeCtx,
        into: &mut ResolvedUsings,
        kind: &UsingKind,
        stats: &mut TypeRefStats,
    ) {
        match kind {
            UsingKind::Namespace(path) => {
                let segs: Vec<PathSegment> = path
                    .iter()
                    .map(|n| PathSegment {
                        name: n.clone(),
                        args: Box::new([]),
                    })
                    .collect();
                if let Some(Resolved::Ns(ns)) = self.index.resolve_path(ctx, None, &segs, stats) {
                    into.namespaces.push(ns);
                }
            }
            UsingKind::Static(tr) => {
                if let Some(def) = self.index.resolve_type_ref(ctx, tr, stats).def() {
                    into.statics.push(def);
                }
            }
            UsingKind::Alias { alias, target } => {
                let resolved = match target {
                    TypeRef::Path {
                        qualifier,
                        segments,
                    } => self
                        .index
                        .resolve_path(ctx, qualifier.as_ref(), segments, stats),
                    other => Some(Resolved::Type(
                        self.index.resolve_type_ref(ctx, other, stats),
                    )),
                };
                if let Some(r) = resolved {
                    into.aliases.insert(alias.clone(), r);
                }
            }
        }
    }

    /// A project's `<Using>` item, resolved as the project sees names.
    fn add_global_using(&self, origin: Origin, into: &mut ResolvedUsings, g: &GlobalUsingSpec) {
        let dotted = |s: &str| -> Vec<PathSegment> {
            s.trim_start_matches("global::")
                .split('.')
                .filter(|x| !x.is_empty())
                .map(|n| PathSegment {
                    name: n.trim().into(),
                    args: Box::new([]),
                })
                .collect()
        };
        let ctx = ScopeCtx::new(FileId(u32::MAX), ScopeId(0), origin);
        let mut stats = TypeRefStats::default();
        match g {
            GlobalUsingSpec::Namespace(n) => {
                if let Some(Resolved::Ns(ns)) =
                    self.index.resolve_path(&ctx, None, &dotted(n), &mut stats)
                {
                    into.namespaces.push(ns);
                }
            }
            GlobalUsingSpec::Static(t) => {
                if let Some(Resolved::Type(ty)) =
                    self.index.resolve_path(&ctx, None, &dotted(t), &mut stats)
                    && let Some(def) = ty.def()
                {
                    into.statics.push(def);
                }
            }
            GlobalUsingSpec::Alias { alias, target } => {
                if let Some(r) = self
                    .index
                    .resolve_path(&ctx, None, &dotted(target), &mut stats)
                {
                    into.aliases.insert(alias.as_str().into(), r);
                }
            }
        }
    }

    /// The scope to resolve names of a type's declaration part in.
    fn type_ctx(&self, ty: TypeId, part: TypePart) -> ScopeCtx<'static> {
        let syntax = &self.index.files[part.file.0 as usize].syntax;
        let decl = syntax.ty(part.decl);
        ScopeCtx {
            file: part.file,
            scope: decl.scope,
            origin: self.index.types[ty.index()].origin,
            enclosing: Some(ty),
            method: None,
            locals: None,
            search_bases: true,
        }
    }

    fn resolve_bases(&mut self) {
        for t in self.start.ty..self.index.types.len() {
            // Only the analysed source counts in the statistics, not the model.
            let library = self.index.types[t].origin == Origin::Library;
            let counted = library.then(|| std::mem::take(&mut self.stats));
            self.resolve_bases_of(t);
            if let Some(saved) = counted {
                self.stats = saved;
            }
        }
    }

    fn resolve_bases_of(&mut self, t: usize) {
        let wk = &self.index.well_known;
        let id = TypeId(t as u32);
        let parts = self.index.types[t].parts.clone();
        let kind = self.index.types[t].kind;
        let mut base: Option<Ty> = None;
        let mut interfaces: Vec<Ty> = Vec::new();
        let mut bounds = self.index.types[t].bounds.clone();
        let own_offset = self.index.types[t]
            .parent
            .map(|p| self.index.types[p.index()].type_params.len())
            .unwrap_or(0);
        for part in parts {
            let syntax = Arc::clone(&self.index.files[part.file.0 as usize].syntax);
            let decl = syntax.ty(part.decl);
            let mut ctx = self.type_ctx(id, part);
            ctx.search_bases = false;
            for (i, b) in decl.bases.iter().enumerate() {
                let ty = self.index.resolve_type_ref(&ctx, b, &mut self.stats);
                let is_class = ty
                    .def()
                    .map(|d| {
                        matches!(
                            self.index.types[d.index()].kind,
                            TypeKind::Class | TypeKind::Record
                        )
                    })
                    .unwrap_or(false);
                // Only the first entry of a class's base list can be its base class.
                if i == 0
                    && is_class
                    && matches!(kind, TypeKind::Class | TypeKind::Record)
                    && base.is_none()
                {
                    base = Some(ty);
                } else if !ty.is_unknown() && !interfaces.contains(&ty) {
                    interfaces.push(ty);
                } else if ty.is_unknown() && i == 0 && base.is_none() {
                    // An unknown base class still matters: the type derives from
                    // something we cannot see.
                    base = Some(Ty::Unknown);
                }
            }
            for c in &decl.constraints {
                if let Some(pi) = decl.type_params.iter().position(|p| p.name == c.param) {
                    let slot = own_offset + pi;
                    let resolved: Vec<Ty> = c
                        .bounds
                        .iter()
                        .map(|b| self.index.resolve_type_ref(&ctx, b, &mut self.stats))
                        .collect();
                    // A model type and its metadata overlay may both state a bound.
                    if let Some(bs) = bounds.get_mut(slot) {
                        for b in resolved {
                            if !b.is_unknown() && !bs.contains(&b) {
                                bs.push(b);
                            }
                        }
                    }
                }
            }
        }
        if base.is_none() {
            base = match kind {
                TypeKind::Class | TypeKind::Record => wk.object.filter(|&o| o != id).map(Ty::named),
                TypeKind::Struct | TypeKind::RecordStruct => wk.value_type.map(Ty::named),
                TypeKind::Enum => wk.enum_.map(Ty::named),
                TypeKind::Delegate => wk.delegate.map(Ty::named),
                TypeKind::Interface => None,
            };
        }
        let data = &mut self.index.types[t];
        data.base = base.filter(|b| b.def() != Some(id));
        data.interfaces = interfaces;
        data.bounds = bounds;
    }

    fn collect_members(&mut self) {
        for t in self.start.ty..self.index.types.len() {
            // Only the analysed source counts in the statistics, not the model.
            let library = self.index.types[t].origin == Origin::Library;
            let counted = library.then(|| std::mem::take(&mut self.stats));
            self.collect_members_of(t);
            if let Some(saved) = counted {
                self.stats = saved;
            }
        }
    }

    fn collect_members_of(&mut self, t: usize) {
        let id = TypeId(t as u32);
        let parts = self.index.types[t].parts.clone();
        for part in parts {
            let syntax = Arc::clone(&self.index.files[part.file.0 as usize].syntax);
            let decl = syntax.ty(part.decl);
            let ctx = self.type_ctx(id, part);
            if let Some(params) = &decl.primary_ctor {
                self.add_primary_ctor(id, part, &ctx, decl, params);
            }
            for (i, m) in decl.members.iter().enumerate() {
                self.add_member(id, part, &ctx, m, i as u32);
            }
        }
        self.add_default_ctor(id);
        let data = &self.index.types[t];
        let has_extensions = data.is_static()
            && data.parent.is_none()
            && data
                .members
                .values()
                .flatten()
                .any(|m| self.index.members[m.index()].is_extension);
        if has_extensions {
            let ns = data.ns;
            self.index.extension_classes.entry(ns).or_default().push(id);
        }
    }

    fn resolve_params(&mut self, ctx: &ScopeCtx, params: &[Param]) -> Vec<ParamData> {
        params
            .iter()
            .map(|p| ParamData {
                name: p.name.clone(),
                ty: p
                    .ty
                    .as_ref()
                    .map(|t| self.index.resolve_type_ref(ctx, t, &mut self.stats))
                    .unwrap_or(Ty::Unknown),
                modifier: p.modifier,
                default: p.default.clone(),
            })
            .collect()
    }

    fn push_member(&mut self, data: MemberData) -> MemberId {
        let id = MemberId(self.index.members.len() as u32);
        let owner = data.owner;
        let name = data.name.clone();
        let is_ctor = data.kind == MemberKind::Constructor;
        self.index.members.push(data);
        let t = &mut self.index.types[owner.index()];
        if is_ctor {
            t.ctors.push(id);
        } else {
            t.members.entry(name).or_default().push(id);
        }
        id
    }

    fn add_member(
        &mut self,
        owner: TypeId,
        part: TypePart,
        type_ctx: &ScopeCtx,
        m: &Member,
        index: u32,
    ) {
        let kind = m.kind;
        let name = match kind {
            MemberKind::Constructor => self.index.types[owner.index()].name.clone(),
            _ => m.name.clone(),
        };
        let id = self.push_member(MemberData {
            owner,
            kind,
            name,
            type_params: m.type_params.iter().map(|p| p.name.clone()).collect(),
            bounds: Vec::new(),
            ty: Ty::Unknown,
            params: Vec::new(),
            modifiers: m.modifiers,
            decl: Some(MemberDecl {
                file: part.file,
                ty_decl: part.decl,
                index: Some(index),
            }),
            is_extension: m
                .params
                .first()
                .is_some_and(|p| p.modifier == ParamModifier::This),
            explicit_interface: None,
            method: None,
            getter: None,
            setter: None,
            field: None,
        });
        let mut ctx = type_ctx.clone();
        if !m.type_params.is_empty() {
            ctx.method = Some(id);
        }
        let ty = match (kind, &m.ty) {
            (MemberKind::EnumMember, _) => Ty::named(owner),
            (
                MemberKind::Constructor | MemberKind::StaticConstructor | MemberKind::Finalizer,
                _,
            ) => Ty::Void,
            (_, Some(t)) => self.index.resolve_type_ref(&ctx, t, &mut self.stats),
            (_, None) => Ty::Unknown,
        };
        let params = self.resolve_params(&ctx, &m.params);
        let explicit_interface = m
            .explicit_interface
            .as_ref()
            .map(|t| self.index.resolve_type_ref(&ctx, t, &mut self.stats));
        let bounds: Vec<Vec<Ty>> = m
            .type_params
            .iter()
            .map(|tp| {
                m.constraints
                    .iter()
                    .filter(|c| c.param == tp.name)
                    .flat_map(|c| c.bounds.iter())
                    .map(|b| self.index.resolve_type_ref(&ctx, b, &mut self.stats))
                    .filter(|t| !t.is_unknown())
                    .collect()
            })
            .collect();
        let data = &mut self.index.members[id.index()];
        data.bounds = bounds;
        data.ty = ty;
        data.params = params;
        data.explicit_interface = explicit_interface;
    }

    fn add_primary_ctor(
        &mut self,
        owner: TypeId,
        part: TypePart,
        ctx: &ScopeCtx,
        decl: &TypeDecl,
        params: &[Param],
    ) {
        let resolved = self.resolve_params(ctx, params);
        let is_record = matches!(decl.kind, TypeKind::Record | TypeKind::RecordStruct);
        if is_record {
            // Positional records get a public property per parameter unless
            // declared, which the primary constructor assigns.
            for (i, p) in resolved.iter().enumerate() {
                let declared = decl.members.iter().any(|m| m.name == p.name);
                if !declared {
                    let m = self.push_member(MemberData::synthesized(
                        owner,
                        MemberKind::Property,
                        p.name.clone(),
                        p.ty.clone(),
                        Vec::new(),
                        Modifiers::PUBLIC,
                        Some(MemberDecl {
                            file: part.file,
                            ty_decl: part.decl,
                            index: None,
                        }),
                    ));
                    self.index.types[owner.index()]
                        .param_members
                        .push((i as u32, m));
                }
            }
        }
        self.index.types[owner.index()].primary_params = resolved
            .iter()
            .map(|p| (p.name.clone(), p.ty.clone()))
            .collect();
        let name = self.index.types[owner.index()].name.clone();
        self.push_member(MemberData::synthesized(
            owner,
            MemberKind::Constructor,
            name,
            Ty::Void,
            resolved,
            Modifiers::PUBLIC,
            Some(MemberDecl {
                file: part.file,
                ty_decl: part.decl,
                index: None,
            }),
        ));
    }

    /// A primary-constructor parameter that a member body uses (not only an
    /// initializer or the base call) is kept as object state: the compiler
    /// makes it a private field of the parameter's name, and so does this.
    /// Added after every type's members exist, since a member of the same name
    /// (also an inherited one) shadows the parameter in member bodies.
    fn capture_primary_params(&mut self) {
        let index = &*self.index;
        let mut captured = Vec::new();
        for t in self.start.ty..index.types.len() {
            let id = TypeId(t as u32);
            let data = &index.types[t];
            if data.primary_params.is_empty() || data.origin == Origin::Library {
                continue;
            }
            let mut used = vec![false; data.primary_params.len()];
            for &m in data.members.values().flatten().chain(&data.ctors) {
                let Some(decl) = index.member(m).decl else {
                    continue;
                };
                let syntax = &index.file(decl.file).syntax;
                for mb in index.member_bodies(m) {
                    let body = syntax.body(mb.body);
                    // Only bodies naming a parameter are worth resolving.
                    let names_one = body.exprs.iter().any(|e| {
                        matches!(e, Expr::Name { name, .. }
                            if data.primary_params.iter().any(|(p, _)| p == name))
                    });
                    if mb.kind == MemberBodyKind::Initializer || body.skip.is_some() || !names_one {
                        continue;
                    }
                    let owner = BodyOwner {
                        file: decl.file,
                        ty: Some(id),
                        member: Some(m),
                        scope: syntax.ty(decl.ty_decl).scope,
                        is_setter: mb.kind.is_setter(),
                    };
                    for target in resolve_body(index, owner, mb.body).targets.values() {
                        if let ExprTarget::PrimaryParam(i) = target {
                            used[*i as usize] = true;
                        }
                    }
                }
            }
            for (i, _) in used.iter().enumerate().filter(|(_, u)| **u) {
                captured.push((id, i as u32));
            }
        }
        for (owner, i) in captured {
            let data = &self.index.types[owner.index()];
            let (name, ty) = data.primary_params[i as usize].clone();
            let part = data.parts.iter().copied().find(|p| {
                self.index.files[p.file.0 as usize]
                    .syntax
                    .ty(p.decl)
                    .primary_ctor
                    .is_some()
            });
            let m = self.push_member(MemberData::synthesized(
                owner,
                MemberKind::Field,
                name,
                ty,
                Vec::new(),
                Modifiers::PRIVATE,
                part.map(|p| MemberDecl {
                    file: p.file,
                    ty_decl: p.decl,
                    index: None,
                }),
            ));
            self.index.types[owner.index()].param_members.push((i, m));
        }
    }

    /// Classes and structs without an instance constructor get the implicit one.
    fn add_default_ctor(&mut self, owner: TypeId) {
        let data = &self.index.types[owner.index()];
        let instantiable = matches!(
            data.kind,
            TypeKind::Class | TypeKind::Struct | TypeKind::Record | TypeKind::RecordStruct
        ) && !data.is_static();
        let has_instance_ctor = data.ctors.iter().any(|c| {
            !self.index.members[c.index()]
                .modifiers
                .contains(Modifiers::STATIC)
        });
        // Structs always have the parameterless one.
        let is_struct = matches!(data.kind, TypeKind::Struct | TypeKind::RecordStruct);
        if !instantiable || (has_instance_ctor && !is_struct) {
            return;
        }
        if is_struct
            && data
                .ctors
                .iter()
                .any(|c| self.index.members[c.index()].params.is_empty())
        {
            return;
        }
        let part = data.parts[0];
        let name = data.name.clone();
        self.push_member(MemberData::synthesized(
            owner,
            MemberKind::Constructor,
            name,
            Ty::Void,
            Vec::new(),
            Modifiers::PUBLIC,
            Some(MemberDecl {
                file: part.file,
                ty_decl: part.decl,
                index: None,
            }),
        ));
    }
}
