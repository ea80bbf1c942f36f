//! The symbol table: every namespace, type and member of the analysed projects
//! and of the library model, with resolved signatures, plus the core's spec table
//! ([`Program`]) built from them. `TypeId`s are shared with the `Program`.
//!
//! Built once per run from all parsed files ([`build::build`]); read-only afterwards,
//! so bodies can be resolved in parallel.

mod build;
mod local_fns;
mod scope;
mod specs;
pub(crate) use specs::param_mode;
pub mod ty;

use std::sync::Arc;

use rayon::prelude::*;
use rlc_core::FileId;
use rlc_core::program::{FieldId, MethodId, Program, TypeId};
use rustc_hash::FxHashMap;
use smol_str::SmolStr;

use crate::hir::{
    ConstValue, FileSyntax, MemberKind, Modifiers, Name, ParamModifier, ScopeId, TypeDeclId,
    TypeKind,
};
use crate::source::SourceFile;

pub use build::{
    BaseMark, GlobalUsingSpec, IndexInput, LibraryFacts, LibraryTypeFacts, ProjectInput, build,
    build_on,
};
pub use scope::{Resolved, ScopeCtx, TypeParamScope};
pub use ty::{ParamOwner, Subst, TupleNames, Ty};

/// A member (field, property, method, constructor, ...) of a type.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MemberId(pub u32);

impl MemberId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NsId(pub u32);

/// Which project declares something; the library model is visible everywhere.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Origin {
    Project(u32),
    Library,
}

/// A parsed file and where it belongs. Compilations of one file with the
/// same active code (a project's target frameworks) share its syntax.
#[derive(Clone, Debug)]
pub struct FileEntry {
    pub source: SourceFile,
    pub syntax: Arc<FileSyntax>,
    pub origin: Origin,
}

#[derive(Clone, Debug)]
pub struct NsData {
    pub name: Name,
    pub parent: Option<NsId>,
    /// `System.Collections.Generic`; empty for the global namespace.
    pub full_name: String,
    pub children: FxHashMap<Name, NsId>,
    pub types: FxHashMap<Name, Vec<TypeId>>,
    /// The origins that declare a type in it or in a namespace inside it:
    /// a namespace only another, unreferenced project declares is not a name
    /// in this one (it would hide a type of the same name).
    pub origins: Vec<Origin>,
}

/// One `partial` part of a type.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TypePart {
    pub file: FileId,
    pub decl: TypeDeclId,
}

#[derive(Clone, Debug)]
pub struct TypeData {
    pub name: Name,
    /// `System.Collections.Generic.List<T>`, `App.Outer.Inner`.
    pub full_name: String,
    pub ns: NsId,
    pub parent: Option<TypeId>,
    pub kind: TypeKind,
    pub type_params: Vec<Name>,
    /// Constraint types per type parameter.
    pub bounds: Vec<Vec<Ty>>,
    pub origin: Origin,
    pub parts: Vec<TypePart>,
    pub modifiers: Modifiers,
    /// The base class (`System.Object` for classes without one, when modelled).
    pub base: Option<Ty>,
    pub interfaces: Vec<Ty>,
    pub nested: FxHashMap<Name, Vec<TypeId>>,
    pub members: FxHashMap<Name, Vec<MemberId>>,
    pub ctors: Vec<MemberId>,
    /// Parameters of a primary constructor (`class C(Stream s)`), in scope in members.
    pub primary_params: Vec<(Name, Ty)>,
    /// The members the primary constructor stores its parameters into (by
    /// parameter index): a positional record's properties, or the private
    /// fields of the parameters member bodies use (captured).
    pub param_members: Vec<(u32, MemberId)>,
}

impl TypeData {
    pub fn arity(&self) -> usize {
        self.type_params.len()
    }
    pub fn is_static(&self) -> bool {
        self.modifiers.contains(Modifiers::STATIC)
    }
    /// The type with its own parameters as arguments (`List<T>` inside `List<T>`).
    pub fn self_ty(&self, id: TypeId) -> Ty {
        Ty::Named {
            def: id,
            args: (0..self.type_params.len() as u32)
                .map(|index| Ty::Param {
                    owner: ParamOwner::Type(id),
                    index,
                })
                .collect(),
        }
    }
}

/// Where a member is declared.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MemberDecl {
    pub file: FileId,
    pub ty_decl: TypeDeclId,
    /// Index in `TypeDecl::members`; `None` for synthesized members (a default
    /// constructor, a primary constructor, record properties).
    pub index: Option<u32>,
}

#[derive(Clone, Debug)]
pub struct ParamData {
    pub name: Name,
    pub ty: Ty,
    pub modifier: ParamModifier,
    pub default: Option<ConstValue>,
}

#[derive(Clone, Debug)]
pub struct MemberData {
    pub owner: TypeId,
    pub kind: MemberKind,
    pub name: Name,
    pub type_params: Vec<Name>,
    /// Constraint types per own type parameter.
    pub bounds: Vec<Vec<Ty>>,
    /// Field/property/event type, method return type, conversion target.
    pub ty: Ty,
    pub params: Vec<ParamData>,
    pub modifiers: Modifiers,
    pub decl: Option<MemberDecl>,
    /// `static T M(this X x)`.
    pub is_extension: bool,
    pub explicit_interface: Option<Ty>,
    /// The core method of a method, constructor, operator or accessor-less member.
    pub method: Option<MethodId>,
    pub getter: Option<MethodId>,
    pub setter: Option<MethodId>,
    /// The core field of a field or auto-property.
    pub field: Option<FieldId>,
}

impl MemberData {
    /// A member without a member declaration of its own (an implicit or
    /// primary constructor, a record's positional property, a captured
    /// primary-constructor parameter, a local function), located at `decl`.
    pub fn synthesized(
        owner: TypeId,
        kind: MemberKind,
        name: Name,
        ty: Ty,
        params: Vec<ParamData>,
        modifiers: Modifiers,
        decl: Option<MemberDecl>,
    ) -> MemberData {
        MemberData {
            owner,
            kind,
            name,
            type_params: Vec::new(),
            bounds: Vec::new(),
            ty,
            params,
            modifiers,
            decl,
            is_extension: false,
            explicit_interface: None,
            method: None,
            getter: None,
            setter: None,
            field: None,
        }
    }
    /// Called without a receiver; a local function captures what it uses of `this`.
    pub fn is_static(&self) -> bool {
        self.modifiers
            .intersects(Modifiers::STATIC | Modifiers::CONST)
            || matches!(
                self.kind,
                MemberKind::EnumMember | MemberKind::LocalFunction
            )
    }
    pub fn is_method_like(&self) -> bool {
        matches!(
            self.kind,
            MemberKind::Method
                | MemberKind::Constructor
                | MemberKind::Operator
                | MemberKind::Conversion
                | MemberKind::DelegateInvoke
                | MemberKind::LocalFunction
        )
    }
    /// Minimum and maximum number of arguments (`None`: unbounded, `params`).
    pub fn arg_range(&self) -> (usize, Option<usize>) {
        let params = if self.is_extension {
            &self.params[1.min(self.params.len())..]
        } else {
            &self.params[..]
        };
        let required = params
            .iter()
            .filter(|p| p.default.is_none() && p.modifier != ParamModifier::Params)
            .count();
        let max = if params.iter().any(|p| p.modifier == ParamModifier::Params) {
            None
        } else {
            Some(params.len())
        };
        (required, max)
    }
}

/// Using directives of one namespace scope, resolved.
#[derive(Debug, Default, Clone)]
pub struct ResolvedUsings {
    pub namespaces: Vec<NsId>,
    pub statics: Vec<TypeId>,
    pub aliases: FxHashMap<Name, Resolved>,
}

/// Where a type is declared ([`Index::type_source`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TypeSource {
    /// The checked sources.
    Repository,
    /// A referenced assembly, declared in this generated file.
    Metadata(FileId),
    /// rlc-sharp's library model (or the user's `[[type]]`s).
    Model,
}

/// Counters of what name resolution in declarations could and could not resolve.
#[derive(Debug, Default, Clone)]
pub struct TypeRefStats {
    /// Type names resolved, from any source; of them, to types of
    /// referenced assemblies and to types of the library model.
    pub resolved: u64,
    pub resolved_metadata: u64,
    pub resolved_model: u64,
    pub unresolved: u64,
    /// Unresolved type names with how often they were used.
    pub unknown: FxHashMap<SmolStr, u64>,
}

impl TypeRefStats {
    pub fn merge(&mut self, other: &TypeRefStats) {
        self.resolved += other.resolved;
        self.resolved_metadata += other.resolved_metadata;
        self.resolved_model += other.resolved_model;
        self.unresolved += other.unresolved;
        for (k, v) in &other.unknown {
            *self.unknown.entry(k.clone()).or_default() += v;
        }
    }
}

/// Well-known types the resolver needs by name.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct WellKnownTypes {
    pub object: Option<TypeId>,
    pub string: Option<TypeId>,
    pub boolean: Option<TypeId>,
    pub int32: Option<TypeId>,
    pub int64: Option<TypeId>,
    pub double: Option<TypeId>,
    pub char: Option<TypeId>,
    pub value_type: Option<TypeId>,
    pub enum_: Option<TypeId>,
    pub delegate: Option<TypeId>,
    pub array: Option<TypeId>,
    pub type_: Option<TypeId>,
    pub exception: Option<TypeId>,
    pub argument_exception: Option<TypeId>,
    pub task: Option<TypeId>,
    pub task_t: Option<TypeId>,
    pub value_task: Option<TypeId>,
    pub value_task_t: Option<TypeId>,
    pub nullable: Option<TypeId>,
    pub ienumerable: Option<TypeId>,
    pub ienumerable_t: Option<TypeId>,
    pub iasync_enumerable_t: Option<TypeId>,
    pub idisposable: Option<TypeId>,
    pub iasync_disposable: Option<TypeId>,
    pub func: Vec<TypeId>,
    pub action: Vec<TypeId>,
}

/// The symbol table of a whole run.
#[derive(Clone, Debug)]
pub struct Index {
    pub files: Vec<FileEntry>,
    pub namespaces: Vec<NsData>,
    pub types: Vec<TypeData>,
    pub members: Vec<MemberData>,
    /// The core's view of the same declarations, with their specs.
    pub program: Program,
    /// For each core method, the member it belongs to.
    pub method_members: Vec<MemberId>,
    /// The member of each local function, by the body declaring it and its name's binding.
    pub local_functions: FxHashMap<(FileId, crate::hir::BodyId, crate::hir::BindingId), MemberId>,
    /// Resolved usings per file and namespace scope.
    pub usings: Vec<Vec<ResolvedUsings>>,
    /// Global usings per project (from the project file and `global using` directives).
    pub global_usings: Vec<ResolvedUsings>,
    /// `visible[p][q]`: project `p` sees the declarations of project `q`.
    pub visible: Vec<Vec<bool>>,
    pub well_known: WellKnownTypes,
    /// Extension-method containers per namespace.
    pub extension_classes: FxHashMap<NsId, Vec<TypeId>>,
    /// How type names in declarations resolved.
    pub decl_stats: TypeRefStats,
    /// Problems found while indexing (a library model signature that does not parse, ...).
    pub notes: Vec<IndexNote>,
}

#[derive(Debug, Clone)]
pub struct IndexNote {
    pub file: FileId,
    pub range: crate::hir::TextRange,
    pub message: String,
}

pub const GLOBAL_NS: NsId = NsId(0);

impl Index {
    pub fn ty(&self, id: TypeId) -> &TypeData {
        &self.types[id.index()]
    }
    pub fn member(&self, id: MemberId) -> &MemberData {
        &self.members[id.index()]
    }
    pub fn ns(&self, id: NsId) -> &NsData {
        &self.namespaces[id.0 as usize]
    }
    pub fn file(&self, id: FileId) -> &FileEntry {
        &self.files[id.0 as usize]
    }
    /// The member of the local function `binding` names in `body` of `file`.
    pub fn local_function(
        &self,
        file: FileId,
        body: crate::hir::BodyId,
        binding: crate::hir::BindingId,
    ) -> Option<MemberId> {
        self.local_functions.get(&(file, body, binding)).copied()
    }

    /// Where a type is declared: the checked sources, a referenced
    /// assembly (with the generated file that declares it) or the library model.
    pub fn type_source(&self, t: TypeId) -> TypeSource {
        let data = self.ty(t);
        match (data.origin, data.parts.first()) {
            (Origin::Project(_), _) => TypeSource::Repository,
            (Origin::Library, Some(part))
                if crate::metadata::is_metadata_file(&self.file(part.file).source.path) =>
            {
                TypeSource::Metadata(part.file)
            }
            (Origin::Library, _) => TypeSource::Model,
        }
    }

    /// Whether code of `from` may see declarations of `origin`.
    pub fn is_visible(&self, from: Origin, origin: Origin) -> bool {
        match (from, origin) {
            (_, Origin::Library) => true,
            (Origin::Library, Origin::Project(_)) => false,
            (Origin::Project(p), Origin::Project(q)) => self
                .visible
                .get(p as usize)
                .and_then(|v| v.get(q as usize))
                .copied()
                .unwrap_or(p == q),
        }
    }

    /// The namespace `name` directly in `ns`, if code of `from` sees it.
    pub fn ns_child(&self, from: Origin, ns: NsId, name: &str) -> Option<NsId> {
        let child = *self.ns(ns).children.get(name)?;
        self.ns(child)
            .origins
            .iter()
            .any(|&o| self.is_visible(from, o))
            .then_some(child)
    }

    /// The namespace with this dotted name, if declared anywhere.
    pub fn ns_by_name(&self, dotted: &str) -> Option<NsId> {
        let mut ns = GLOBAL_NS;
        for seg in dotted.split('.').filter(|s| !s.is_empty()) {
            ns = *self.ns(ns).children.get(seg)?;
        }
        Some(ns)
    }

    /// A type by full name and arity (`System.IO.Stream`, 0), searching every origin.
    pub fn type_by_name(&self, dotted: &str, arity: usize) -> Option<TypeId> {
        let (ns, name) = match dotted.rfind('.') {
            Some(i) => (self.ns_by_name(&dotted[..i])?, &dotted[i + 1..]),
            None => (GLOBAL_NS, dotted),
        };
        self.ns(ns)
            .types
            .get(name)?
            .iter()
            .copied()
            .find(|&t| self.ty(t).arity() == arity)
    }

    /// Direct supertypes (base class, then interfaces) with their arguments.
    pub fn supertypes(&self, ty: &Ty) -> Vec<Ty> {
        let Ty::Named { def, args } = ty else {
            return match ty {
                Ty::Array { .. } => self.well_known.array.map(Ty::named).into_iter().collect(),
                _ => Vec::new(),
            };
        };
        let data = self.ty(*def);
        let mut subst = Subst::new();
        subst.bind_all(ParamOwner::Type(*def), args);
        data.base
            .iter()
            .chain(data.interfaces.iter())
            .map(|t| t.subst(&subst))
            .collect()
    }

    /// `ty` and all its supertypes, breadth-first, without repeats.
    pub fn ancestors(&self, ty: &Ty) -> Vec<Ty> {
        let mut out = vec![ty.clone()];
        let mut i = 0;
        while i < out.len() && out.len() < 256 {
            for s in self.supertypes(&out[i]) {
                if !out
                    .iter()
                    .any(|o| o.def() == s.def() && o.args() == s.args())
                {
                    out.push(s);
                }
            }
            i += 1;
        }
        if let (Some(obj), false) = (
            self.well_known.object,
            out.iter().any(|t| t.def() == self.well_known.object),
        ) && matches!(ty, Ty::Named { .. } | Ty::Array { .. })
        {
            out.push(Ty::named(obj));
        }
        out
    }

    /// Whether `sub` is `sup` or derives from / implements it (by definition, ignoring arguments).
    pub fn is_subtype_def(&self, sub: TypeId, sup: TypeId) -> bool {
        if sub == sup {
            return true;
        }
        let data = self.ty(sub);
        let mut stack: Vec<TypeId> = Vec::new();
        let mut seen: Vec<TypeId> = vec![sub];
        stack.extend(data.base.iter().chain(&data.interfaces).filter_map(Ty::def));
        while let Some(t) = stack.pop() {
            if t == sup {
                return true;
            }
            if seen.contains(&t) || seen.len() > 512 {
                continue;
            }
            seen.push(t);
            let d = self.ty(t);
            stack.extend(d.base.iter().chain(&d.interfaces).filter_map(Ty::def));
        }
        false
    }

    /// The instantiation of generic definition `target` among the ancestors of `ty`
    /// (`IEnumerable<T>` of a `List<int>` is `IEnumerable<int>`).
    pub fn find_ancestor(&self, ty: &Ty, target: TypeId) -> Option<Ty> {
        self.ancestors(ty)
            .into_iter()
            .find(|t| t.def() == Some(target))
    }

    /// A readable name of a type (`List<int>`, `Stream`, `string[]`).
    pub fn display(&self, ty: &Ty) -> String {
        match ty {
            Ty::Unknown => "?".into(),
            Ty::Void => "void".into(),
            Ty::Null => "null".into(),
            Ty::Dynamic => "dynamic".into(),
            Ty::Function => "<lambda>".into(),
            Ty::Named { def, args } => {
                let d = self.ty(*def);
                let short = match d.full_name.as_str() {
                    "System.String" => "string",
                    "System.Int32" => "int",
                    "System.Int64" => "long",
                    "System.Boolean" => "bool",
                    "System.Object" => "object",
                    "System.Double" => "double",
                    "System.Char" => "char",
                    "System.Byte" => "byte",
                    _ => d.name.as_str(),
                };
                if args.is_empty() {
                    short.to_string()
                } else {
                    let a: Vec<String> = args.iter().map(|a| self.display(a)).collect();
                    format!("{short}<{}>", a.join(", "))
                }
            }
            Ty::Param { owner, index } => match owner {
                ParamOwner::Type(t) => self
                    .ty(*t)
                    .type_params
                    .get(*index as usize)
                    .map(|n| n.to_string())
                    .unwrap_or_else(|| "?".into()),
                ParamOwner::Method(m) => self
                    .member(*m)
                    .type_params
                    .get(*index as usize)
                    .map(|n| n.to_string())
                    .unwrap_or_else(|| "?".into()),
                ParamOwner::Local => "?".into(),
            },
            Ty::Array { elem, rank } => {
                format!(
                    "{}[{}]",
                    self.display(elem),
                    ",".repeat(rank.saturating_sub(1) as usize)
                )
            }
            Ty::Tuple(items, _) => {
                let a: Vec<String> = items.iter().map(|a| self.display(a)).collect();
                format!("({})", a.join(", "))
            }
            Ty::Pointer(t) => format!("{}*", self.display(t)),
        }
    }

    /// The metadata-style name the library model keys types by:
    /// ``System.Collections.Generic.List`1+Enumerator``.
    pub fn metadata_key(&self, t: TypeId) -> String {
        let mut segments = Vec::new();
        let mut cur = Some(t);
        while let Some(x) = cur {
            let d = self.ty(x);
            let outer = d.parent.map(|p| self.ty(p).arity()).unwrap_or(0);
            let own = d.arity().saturating_sub(outer);
            segments.push(if own == 0 {
                d.name.to_string()
            } else {
                format!("{}`{own}", d.name)
            });
            cur = d.parent;
        }
        segments.reverse();
        let ns = &self.ns(self.ty(t).ns).full_name;
        if ns.is_empty() {
            segments.join("+")
        } else {
            format!("{ns}.{}", segments.join("+"))
        }
    }

    /// Scope of a declaration: its file, namespace scope and enclosing types.
    pub fn type_scope(&self, ty: TypeId) -> Option<(FileId, ScopeId)> {
        let part = self.ty(ty).parts.first()?;
        Some((part.file, self.file(part.file).syntax.ty(part.decl).scope))
    }
}

/// A body of a member and how it runs.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MemberBody {
    pub body: crate::hir::BodyId,
    pub kind: MemberBodyKind,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum MemberBodyKind {
    /// The method, constructor or operator body, or a property's `=> expr`.
    Main,
    Initializer,
    Accessor(crate::hir::AccessorKind),
}

impl MemberBodyKind {
    /// Whether the body sees an implicit `value` parameter.
    pub fn is_setter(self) -> bool {
        use crate::hir::AccessorKind::*;
        matches!(self, MemberBodyKind::Accessor(Set | Init | Add | Remove))
    }
}

impl Index {
    /// The bodies a member declares in source.
    pub fn member_bodies(&self, id: MemberId) -> Vec<MemberBody> {
        let Some(syntax) = self.member_syntax(id) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        if let Some(b) = syntax.body {
            out.push(MemberBody {
                body: b,
                kind: MemberBodyKind::Main,
            });
        }
        if let Some(b) = syntax.initializer {
            out.push(MemberBody {
                body: b,
                kind: MemberBodyKind::Initializer,
            });
        }
        for a in &syntax.accessors {
            if let Some(b) = a.body {
                out.push(MemberBody {
                    body: b,
                    kind: MemberBodyKind::Accessor(a.kind),
                });
            }
        }
        out
    }

    /// Frees the syntax of the files' bodies (what lowering reads; the
    /// declarations stay). For a run that has lowered every body and will
    /// neither lower again nor [`crate::load::reload`]: a body's syntax is
    /// about as large as its IR.
    pub fn free_body_syntax(&mut self) {
        // Files of several compilations share one syntax: each is freed
        // once every entry has let go of it.
        let mut shared: FxHashMap<*const FileSyntax, Vec<usize>> = FxHashMap::default();
        for (i, f) in self.files.iter().enumerate() {
            shared.entry(Arc::as_ptr(&f.syntax)).or_default().push(i);
        }
        let mut syntaxes: Vec<(Arc<FileSyntax>, Vec<usize>)> = shared
            .into_values()
            .map(|entries| {
                let mut taken: Vec<Arc<FileSyntax>> = entries
                    .iter()
                    .map(|&i| std::mem::take(&mut self.files[i].syntax))
                    .collect();
                (taken.pop().unwrap_or_default(), entries)
            })
            .collect();
        syntaxes.par_iter_mut().for_each(|(syntax, _)| {
            if let Some(s) = Arc::get_mut(syntax) {
                s.bodies = Vec::new();
                s.top_level = None;
            }
        });
        for (syntax, entries) in syntaxes {
            for i in entries {
                self.files[i].syntax = syntax.clone();
            }
        }
    }

    /// `System.IO.File.OpenRead(string)`, `App.Reader.Stream`.
    pub fn display_member(&self, id: MemberId) -> String {
        let m = self.member(id);
        let owner = &self.ty(m.owner).full_name;
        if m.is_method_like() {
            let params: Vec<String> = m.params.iter().map(|p| self.display(&p.ty)).collect();
            format!("{owner}.{}({})", m.name, params.join(", "))
        } else {
            format!("{owner}.{}", m.name)
        }
    }
}
