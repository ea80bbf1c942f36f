//! From the index to the core's spec table: every type, method and field with
//! the specification its attributes (or the library model) state.

use rlc_attributes::vocabulary::{self, SpecAttr};
use rlc_core::Span;
use rlc_core::program::{
    CallsSpec, Const, Conventions, DeclaredIn, FieldDef, FieldId, Harmless, MethodDef, MethodId,
    MethodKind, MustCall, Ownership, OwnershipCondition, ParamDef, ParamMode, Provenance, Target,
    TypeDef, TypeId, TypeKind as CoreKind, ValueTy,
};
use rustc_hash::{FxHashMap, FxHashSet};

use super::build::LibraryTypeFacts;
use super::ty::Ty;
use super::{Index, MemberData, MemberId, Origin};
use crate::hir::{
    AccessorKind, AttrValue, Attribute, ConstValue, Member, MemberKind, Modifiers, Param,
    ParamModifier, TextRange, TypeKind,
};

/// Adds the declarations after `start` (those of the base index are there).
pub(super) fn build_program(
    index: &mut Index,
    facts: &FxHashMap<String, LibraryTypeFacts>,
    start: super::build::Start,
) {
    for t in start.ty..index.types.len() {
        let def = type_def(index, TypeId(t as u32), facts);
        index.program.types.push(def);
    }
    // Fields first: `[Calls("this.f", ..)]` on methods names them.
    for m in start.member..index.members.len() {
        add_fields(index, MemberId(m as u32));
    }
    for m in start.member..index.members.len() {
        add_methods(index, MemberId(m as u32));
    }
    super::local_fns::add_local_functions(index, start.member);
    link_overrides(index, start.ty);
    inherit_not_owning_returns(&mut index.program);
    index.program.well_known.disposable = index.well_known.idisposable;
    index.program.well_known.async_disposable = index.well_known.iasync_disposable;
    index.program.well_known.boolean = index.well_known.boolean;
    index.program.well_known.object = index.well_known.object;
    index.program.well_known.argument_exception = index.well_known.argument_exception;
    index.program.conventions = Conventions {
        disposal_methods: vocabulary::DISPOSAL_METHODS.map(String::from).to_vec(),
        dispose: vocabulary::DISPOSE.to_string(),
        dispose_async: vocabulary::DISPOSE_ASYNC.to_string(),
        dispose_flag: vocabulary::DISPOSE_FLAG.to_string(),
    };
}

impl Index {
    /// The core's view of a static type.
    pub fn value_ty(&self, ty: &Ty) -> ValueTy {
        match ty {
            // `CancellationTokenRegistration?` holds what the struct holds.
            Ty::Named { def, args }
                if Some(*def) == self.well_known.nullable && args.len() == 1 =>
            {
                self.value_ty(&args[0])
            }
            Ty::Named { def, args } => ValueTy {
                ty: Some(*def),
                element: if args.is_empty() {
                    None
                } else {
                    self.element_type(ty).and_then(|e| self.value_ty(&e).ty)
                },
            },
            Ty::Array { elem, .. } => ValueTy {
                ty: self.well_known.array,
                element: self.value_ty(elem).ty,
            },
            Ty::Param {
                owner: super::ParamOwner::Type(t),
                index,
            } => self
                .ty(*t)
                .bounds
                .get(*index as usize)
                .and_then(|b| b.iter().find_map(|b| self.value_ty(b).ty))
                .map(ValueTy::of)
                .unwrap_or_default(),
            Ty::Param {
                owner: super::ParamOwner::Method(m),
                index,
            } => self
                .member(*m)
                .bounds
                .get(*index as usize)
                .and_then(|b| b.iter().find_map(|b| self.value_ty(b).ty))
                .map(ValueTy::of)
                .unwrap_or_default(),
            _ => ValueTy::default(),
        }
    }

    /// The element type of an array, a string, anything implementing
    /// `IEnumerable<T>`, or `object` for the other `IEnumerable`s (`Hashtable`).
    pub fn element_type(&self, ty: &Ty) -> Option<Ty> {
        match ty {
            Ty::Array { elem, .. } => Some((**elem).clone()),
            Ty::Named { def, .. } if Some(*def) == self.well_known.string => {
                self.well_known.char.map(Ty::named)
            }
            Ty::Named { .. } => {
                let generic = self
                    .well_known
                    .ienumerable_t
                    .and_then(|target| self.find_ancestor(ty, target));
                match generic {
                    Some(found) => found.args().first().cloned(),
                    None => {
                        let plain = self.well_known.ienumerable?;
                        self.find_ancestor(ty, plain)?;
                        self.well_known.object.map(Ty::named)
                    }
                }
            }
            _ => None,
        }
    }

    pub(super) fn span_of(&self, file: rlc_core::FileId, range: crate::hir::TextRange) -> Span {
        Span::new(file, range.start, range.end)
    }

    fn provenance(&self, origin: Origin, file: rlc_core::FileId, attr: &Attribute) -> Provenance {
        let span = self.span_of(file, attr.range);
        match origin {
            Origin::Library if crate::metadata::is_metadata_file(&self.file(file).source.path) => {
                Provenance::Metadata(span)
            }
            Origin::Library => Provenance::Library,
            Origin::Project(_) => Provenance::Source(span),
        }
    }

    /// The declaration of a member, if it has one in source.
    pub fn member_syntax(&self, id: MemberId) -> Option<&Member> {
        let decl = self.member(id).decl?;
        let ty = self
            .file(decl.file)
            .syntax
            .types
            .get(decl.ty_decl.0 as usize)?;
        ty.members.get(decl.index? as usize)
    }

    /// The value of a `const` of the program written as a literal or `default`
    /// (`const long Active = default(long);`, `const int Disposed = 1;`):
    /// read as the literal, so that a flag compared with it or set to it is
    /// read as one compared with or set to `0` or `1`.
    pub fn constant_value(&self, id: MemberId) -> Option<Const> {
        let m = self.member(id);
        if !m.modifiers.contains(Modifiers::CONST) {
            return None;
        }
        let decl = m.decl?;
        let body = self
            .file(decl.file)
            .syntax
            .bodies
            .get(self.member_syntax(id)?.initializer?.index())?;
        let Some(crate::hir::BodyRoot::Expr(e)) = body.root else {
            return None;
        };
        match body.exprs.get(e.index())? {
            crate::hir::Expr::Literal(crate::hir::Literal::Int(k)) => Some(Const::Int(*k)),
            crate::hir::Expr::Literal(crate::hir::Literal::Bool(b)) => Some(Const::Bool(*b)),
            crate::hir::Expr::Default(_) => {
                let wk = &self.well_known;
                let t = m.ty.def();
                if t.is_some() && (t == wk.int32 || t == wk.int64) {
                    Some(Const::Int(0))
                } else if t.is_some() && t == wk.boolean {
                    Some(Const::Bool(false))
                } else {
                    None
                }
            }
            _ => None,
        }
    }

    /// The primary-constructor parameter a member holds (a captured
    /// parameter's field, a positional record's property).
    pub fn primary_param_of(&self, id: MemberId) -> Option<&Param> {
        let m = self.member(id);
        let (i, _) = self
            .ty(m.owner)
            .param_members
            .iter()
            .find(|(_, f)| *f == id)?;
        let decl = m.decl?;
        let ty = self
            .file(decl.file)
            .syntax
            .types
            .get(decl.ty_decl.0 as usize)?;
        ty.primary_ctor.as_ref()?.get(*i as usize)
    }
}

fn spec_attrs(attrs: &[Attribute]) -> impl Iterator<Item = (SpecAttr, &Attribute)> {
    attrs
        .iter()
        .filter_map(|a| SpecAttr::from_name(&a.name).map(|k| (k, a)))
}

fn string_args(attr: &Attribute) -> Vec<String> {
    let mut out = Vec::new();
    for arg in &attr.args {
        collect_strings(&arg.value, &mut out);
    }
    out
}

fn collect_strings(v: &AttrValue, out: &mut Vec<String>) {
    match v {
        AttrValue::Str(s) => out.push(s.clone()),
        AttrValue::NameOf(n) => out.push(n.to_string()),
        AttrValue::Array(items) => items.iter().for_each(|i| collect_strings(i, out)),
        _ => {}
    }
}

fn bool_arg(attr: &Attribute) -> Option<bool> {
    attr.args.iter().find_map(|a| match a.value {
        AttrValue::Bool(b) => Some(b),
        _ => None,
    })
}

fn core_kind(k: TypeKind) -> CoreKind {
    match k {
        TypeKind::Class => CoreKind::Class,
        TypeKind::Struct => CoreKind::Struct,
        TypeKind::Interface => CoreKind::Interface,
        TypeKind::Enum => CoreKind::Enum,
        TypeKind::Record => CoreKind::Record,
        TypeKind::RecordStruct => CoreKind::RecordStruct,
        TypeKind::Delegate => CoreKind::Delegate,
    }
}

fn type_def(index: &Index, id: TypeId, facts: &FxHashMap<String, LibraryTypeFacts>) -> TypeDef {
    let data = index.ty(id);
    let mut must_call = None;
    let mut also_disposes = Vec::new();
    let mut harmless = None;
    let mut decl_spans = Vec::new();
    let mut has_finalizer = false;
    for part in &data.parts {
        let decl = index.file(part.file).syntax.ty(part.decl);
        decl_spans.push(index.span_of(part.file, decl.name_range));
        has_finalizer |= decl.members.iter().any(|m| m.kind == MemberKind::Finalizer);
        for (kind, attr) in spec_attrs(&decl.attrs) {
            let prov = index.provenance(data.origin, part.file, attr);
            match kind {
                SpecAttr::MustCall => must_call = Some((MustCall::of(string_args(attr)), prov)),
                SpecAttr::MustDisposeResource => {
                    let methods: Vec<&str> = if bool_arg(attr) == Some(false) {
                        vec![]
                    } else {
                        vec!["Dispose"]
                    };
                    must_call = Some((MustCall::of(methods), prov));
                }
                _ => {}
            }
        }
        // JetBrains' [HandlesResourceDisposal] on a method makes it a disposal method.
        for m in &decl.members {
            if m.kind == MemberKind::Method
                && spec_attrs(&m.attrs).any(|(k, _)| k == SpecAttr::HandlesResourceDisposal)
            {
                also_disposes.push(m.name.to_string());
            }
        }
    }
    // A `ref struct` cannot implement `IDisposable` (before C# 13), yet `using`
    // disposes it through a public `Dispose()`: that method is its obligation.
    if must_call.is_none()
        && data.kind == TypeKind::Struct
        && data.modifiers.contains(Modifiers::REF)
    {
        let pattern_dispose = data.parts.iter().any(|part| {
            let decl = index.file(part.file).syntax.ty(part.decl);
            decl.members.iter().any(|m| {
                m.kind == MemberKind::Method
                    && &*m.name == vocabulary::DISPOSE
                    && m.params.is_empty()
                    && m.modifiers.contains(Modifiers::PUBLIC)
                    && !m.modifiers.contains(Modifiers::STATIC)
            })
        });
        if pattern_dispose {
            must_call = Some((MustCall::of([vocabulary::DISPOSE]), Provenance::Default));
        }
    }
    if data.origin == Origin::Library
        && let Some(f) = facts.get(&index.metadata_key(id))
    {
        if let Some(mc) = &f.must_call {
            must_call = Some((MustCall::of(mc.iter().cloned()), Provenance::Library));
        }
        also_disposes.extend(f.also_disposes.iter().cloned());
        harmless = f.releases_only_managed.as_ref().map(|what| {
            let what = what.clone();
            (Harmless::ReleasesOnlyManaged { what }, Provenance::Library)
        });
    }
    let mut supertypes: Vec<TypeId> = data
        .base
        .iter()
        .chain(&data.interfaces)
        .filter_map(Ty::def)
        .collect();
    // A source class whose base list names a type nothing describes (WinForms'
    // `Form`, `ServiceBase` without their reference assemblies) yet which
    // overrides `Dispose(bool disposing)` or `Dispose()`: what it overrides is
    // the dispose pattern of a disposable base.
    if data.origin != Origin::Library
        && data
            .base
            .iter()
            .chain(&data.interfaces)
            .any(|t| *t == Ty::Unknown)
        && let Some(disposable) = index.well_known.idisposable
        && !supertypes.contains(&disposable)
    {
        let overrides_dispose = data.parts.iter().any(|part| {
            let decl = index.file(part.file).syntax.ty(part.decl);
            decl.members.iter().any(|m| {
                m.kind == MemberKind::Method
                    && &*m.name == vocabulary::DISPOSE
                    && m.params.len() <= 1
                    && m.modifiers.contains(Modifiers::OVERRIDE)
            })
        });
        if overrides_dispose {
            supertypes.push(disposable);
        }
    }
    let display = if data.type_params.is_empty() {
        data.full_name.clone()
    } else {
        format!("{}<{}>", data.full_name, data.type_params.join(", "))
    };
    TypeDef {
        is_native_handle: vocabulary::is_native_handle_type(&display),
        name: display,
        kind: core_kind(data.kind),
        declared_in: match data.origin {
            Origin::Library => DeclaredIn::Library,
            Origin::Project(_) => DeclaredIn::Source,
        },
        supertypes,
        must_call,
        also_disposes,
        harmless,
        fields: Vec::new(),
        methods: Vec::new(),
        is_abstract: data.modifiers.contains(Modifiers::ABSTRACT)
            || data.kind == TypeKind::Interface,
        is_sealed: data.modifiers.contains(Modifiers::SEALED)
            || matches!(
                data.kind,
                TypeKind::Struct | TypeKind::RecordStruct | TypeKind::Enum
            ),
        is_static: data.modifiers.contains(Modifiers::STATIC),
        has_finalizer,
        span: decl_spans.first().copied(),
        decl_spans,
    }
}

fn ownership_of(
    index: &Index,
    origin: Origin,
    file: rlc_core::FileId,
    attrs: &[Attribute],
) -> Ownership {
    let mut own = Ownership::Default;
    for (kind, attr) in spec_attrs(attrs) {
        let prov = index.provenance(origin, file, attr);
        match kind {
            SpecAttr::Owning | SpecAttr::HandlesResourceDisposal => own = Ownership::Owning(prov),
            SpecAttr::NotOwning => own = Ownership::NotOwning(prov),
            SpecAttr::MustDisposeResource => {
                own = if bool_arg(attr) == Some(false) {
                    Ownership::NotOwning(prov)
                } else {
                    Ownership::Owning(prov)
                }
            }
            _ => {}
        }
    }
    own
}

fn member_span(index: &Index, m: &MemberData, syntax: Option<&Member>) -> Option<Span> {
    let decl = m.decl?;
    let range = match syntax {
        Some(s) => s.name_range,
        None => index.file(decl.file).syntax.ty(decl.ty_decl).name_range,
    };
    Some(index.span_of(decl.file, range))
}

fn add_fields(index: &mut Index, id: MemberId) {
    let m = index.member(id);
    let syntax = index.member_syntax(id);
    let param = index.primary_param_of(id);
    let captured = param.filter(|_| m.kind == MemberKind::Field);
    let is_field = captured.is_some()
        || (matches!(m.kind, MemberKind::Field | MemberKind::Event)
            && syntax.is_some_and(|s| s.accessors.is_empty()));
    let is_auto = m.kind == MemberKind::Property
        && (param.is_some() || syntax.is_some_and(|s| s.is_auto_property()));
    if !(is_field || is_auto) {
        return;
    }
    let origin = index.ty(m.owner).origin;
    let file = m.decl.map(|d| d.file).unwrap_or(rlc_core::FileId(0));
    let attrs = syntax.map(|s| s.attrs.as_slice()).unwrap_or(&[]);
    let readonly = if is_auto {
        // `{ get; }` and `{ get; init; }` cannot be reassigned after construction.
        match syntax {
            Some(s) => !s.accessors.iter().any(|a| a.kind == AccessorKind::Set),
            // A positional record struct's properties have `set` unless it is readonly.
            None => {
                let owner = index.ty(m.owner);
                owner.kind == TypeKind::Record || owner.modifiers.contains(Modifiers::READONLY)
            }
        }
    } else {
        m.modifiers
            .intersects(Modifiers::READONLY | Modifiers::CONST)
    };
    let def = FieldDef {
        name: m.name.to_string(),
        owner: m.owner,
        ty: index.value_ty(&m.ty),
        ownership: ownership_of(index, origin, file, attrs),
        is_readonly: readonly,
        is_static: m.is_static(),
        is_auto_property: is_auto,
        ownership_flag: None,
        owes_nothing_when: Vec::new(),
        released_if: spec_attrs(attrs)
            .find(|(kind, _)| *kind == SpecAttr::ReleasedIf)
            .map(|(_, attr)| bool_arg(attr).unwrap_or(true)),
        guards: Vec::new(),
        set_in_construction: false,
        first_call: None,
        captured_param: captured.is_some(),
        span: match (param, m.decl) {
            (Some(p), Some(d)) => Some(index.span_of(d.file, p.range)),
            _ => member_span(index, m, syntax),
        },
    };
    let fid = index.program.add_field(def);
    index.members[id.index()].field = Some(fid);
}

/// Resolves a `[Calls]`/`[CreatesMustCallFor]` target string in a method of `owner`.
fn parse_target(
    index: &Index,
    owner: TypeId,
    params: &[super::ParamData],
    text: &str,
) -> Option<Target> {
    let t = text.trim();
    if t == "this" {
        return Some(Target::This);
    }
    if let Some(n) = t.strip_prefix('#') {
        // `#0` is the first parameter (C# counts from zero, unlike the Checker Framework).
        return n.parse().ok().map(Target::Param);
    }
    let name = t.strip_prefix("this.").unwrap_or(t);
    if let Some(i) = params.iter().position(|p| p.name == name) {
        return Some(Target::Param(i as u32));
    }
    find_field(index, owner, name).map(Target::Field)
}

/// A field (or auto-property storage) visible in `owner`, searching base classes.
pub(super) fn find_field(index: &Index, owner: TypeId, name: &str) -> Option<FieldId> {
    let mut cur = Some(owner);
    let mut guard = 0;
    while let Some(t) = cur {
        if let Some(f) = index
            .ty(t)
            .members
            .get(name)
            .into_iter()
            .flatten()
            .find_map(|m| index.member(*m).field)
        {
            return Some(f);
        }
        cur = index.ty(t).base.as_ref().and_then(Ty::def);
        guard += 1;
        if guard > 64 {
            break;
        }
    }
    None
}

fn const_of(v: &ConstValue) -> Const {
    match v {
        ConstValue::Null => Const::Null,
        ConstValue::Bool(b) => Const::Bool(*b),
        ConstValue::Int(i) => Const::Int(*i),
        ConstValue::Str(s) => Const::Str(s.clone()),
        ConstValue::Other => Const::Other,
    }
}

pub(crate) fn param_mode(m: ParamModifier) -> ParamMode {
    match m {
        ParamModifier::Ref => ParamMode::Ref,
        ParamModifier::Out => ParamMode::Out,
        ParamModifier::In | ParamModifier::RefReadonly => ParamMode::In,
        ParamModifier::Params => ParamMode::Params,
        ParamModifier::None | ParamModifier::This => ParamMode::Value,
    }
}

/// One core method as declared: its signature and the attributes on each part.
pub(super) struct MethodParts<'a> {
    pub kind: MethodKind,
    pub name: String,
    pub params: Vec<super::ParamData>,
    pub param_attrs: Vec<&'a [Attribute]>,
    /// Where each parameter is declared (none for `value` and synthesized members).
    pub param_ranges: Vec<TextRange>,
    pub ret: Ty,
    pub attrs: &'a [Attribute],
    pub return_attrs: &'a [Attribute],
    pub property: Option<String>,
    pub has_body: bool,
    pub extra_modifiers: Modifiers,
}

fn add_methods(index: &mut Index, id: MemberId) {
    let m = index.member(id);
    let syntax = index.member_syntax(id).cloned();
    let empty: &[Attribute] = &[];
    let mut parts: Vec<(MethodParts, u8)> = Vec::new();
    let s = syntax.as_ref();
    let attrs = s.map(|s| s.attrs.as_slice()).unwrap_or(empty);
    let return_attrs = s.map(|s| s.return_attrs.as_slice()).unwrap_or(empty);
    let param_attrs: Vec<&[Attribute]> = match s {
        Some(s) => s.params.iter().map(|p| p.attrs.as_slice()).collect(),
        None => vec![empty; m.params.len()],
    };
    let param_ranges: Vec<TextRange> = s
        .map(|s| s.params.iter().map(|p| p.range).collect())
        .unwrap_or_default();
    let method_kind = match m.kind {
        MemberKind::Method | MemberKind::DelegateInvoke => Some(MethodKind::Ordinary),
        MemberKind::Constructor => Some(MethodKind::Constructor),
        MemberKind::StaticConstructor => Some(MethodKind::StaticConstructor),
        MemberKind::Finalizer => Some(MethodKind::Finalizer),
        MemberKind::Operator | MemberKind::Conversion => Some(MethodKind::Operator),
        _ => None,
    };
    if let Some(kind) = method_kind {
        parts.push((
            MethodParts {
                kind,
                name: m.name.to_string(),
                params: m.params.clone(),
                param_attrs,
                param_ranges,
                ret: m.ty.clone(),
                attrs,
                return_attrs,
                property: None,
                has_body: s.is_some_and(|s| s.body.is_some())
                    || m.decl.is_some_and(|d| d.index.is_none()),
                extra_modifiers: Modifiers::empty(),
            },
            0,
        ));
    } else if matches!(
        m.kind,
        MemberKind::Property | MemberKind::Indexer | MemberKind::Event
    ) {
        let accessors: &[crate::hir::Accessor] = s.map(|s| s.accessors.as_slice()).unwrap_or(&[]);
        let expression_bodied = s.is_some_and(|s| s.body.is_some());
        // Synthesized record properties and expression-bodied properties have a getter.
        let has_getter = expression_bodied
            || accessors.iter().any(|a| a.kind == AccessorKind::Get)
            || (s.is_none() && m.kind == MemberKind::Property);
        if has_getter {
            let getter_attrs = accessors
                .iter()
                .find(|a| a.kind == AccessorKind::Get)
                .map(|a| a.attrs.as_slice())
                .unwrap_or(empty);
            parts.push((
                MethodParts {
                    kind: MethodKind::Getter,
                    name: format!("get_{}", m.name),
                    params: m.params.clone(),
                    param_attrs: param_attrs.clone(),
                    param_ranges: param_ranges.clone(),
                    ret: m.ty.clone(),
                    // Ownership on the property applies to what its getter returns.
                    attrs: getter_attrs,
                    return_attrs: if getter_attrs.is_empty() {
                        attrs
                    } else {
                        getter_attrs
                    },
                    property: Some(m.name.to_string()),
                    has_body: expression_bodied
                        || accessors
                            .iter()
                            .any(|a| a.kind == AccessorKind::Get && a.body.is_some()),
                    extra_modifiers: Modifiers::empty(),
                },
                1,
            ));
        }
        for a in accessors
            .iter()
            .filter(|a| matches!(a.kind, AccessorKind::Set | AccessorKind::Init))
        {
            let mut params = m.params.clone();
            params.push(super::ParamData {
                name: "value".into(),
                ty: m.ty.clone(),
                modifier: ParamModifier::None,
                default: None,
            });
            let mut pa = param_attrs.clone();
            pa.push(empty);
            parts.push((
                MethodParts {
                    kind: if a.kind == AccessorKind::Init {
                        MethodKind::Init
                    } else {
                        MethodKind::Setter
                    },
                    name: format!("set_{}", m.name),
                    params,
                    param_attrs: pa,
                    param_ranges: param_ranges.clone(),
                    ret: Ty::Void,
                    attrs: a.attrs.as_slice(),
                    return_attrs: empty,
                    property: Some(m.name.to_string()),
                    has_body: a.body.is_some(),
                    extra_modifiers: a.modifiers,
                },
                2,
            ));
        }
    }
    let owner = m.owner;
    let file = m.decl.map(|d| d.file).unwrap_or(rlc_core::FileId(0));
    let span = member_span(index, m, s);
    let modifiers = m.modifiers;
    let interface = index.ty(owner).kind == TypeKind::Interface;
    for (p, slot) in parts {
        let def = method_def(index, owner, file, modifiers, interface, span, p);
        let mid = index.program.add_method(def);
        index.method_members.push(id);
        let md = &mut index.members[id.index()];
        match slot {
            0 => md.method = Some(mid),
            1 => md.getter = Some(mid),
            _ => md.setter = Some(mid),
        }
    }
}

/// The core method `p` describes, declared in `file` by a member of `owner`
/// with `modifiers`; members of an `interface` are virtual, and abstract
/// unless they have a body.
pub(super) fn method_def(
    index: &Index,
    owner: TypeId,
    file: rlc_core::FileId,
    modifiers: Modifiers,
    interface: bool,
    span: Option<Span>,
    p: MethodParts,
) -> MethodDef {
    let empty: &[Attribute] = &[];
    let origin = index.ty(owner).origin;
    let mut ret_ownership = ownership_of(index, origin, file, p.return_attrs);
    let mut ret_must_call = None;
    let mut ret_must_call_alias = None;
    let mut calls = Vec::new();
    let mut creates = Vec::new();
    let mut never_returns = false;
    let mut never_throws = false;
    let mut throws_on_failure = false;
    let mut lifecycle_start = false;
    let mut reopens = false;
    for (kind, attr) in spec_attrs(p.return_attrs) {
        if kind == SpecAttr::MustCall {
            ret_must_call = Some((
                MustCall::of(string_args(attr)),
                index.provenance(origin, file, attr),
            ));
        }
    }
    for (kind, attr) in spec_attrs(p.attrs) {
        let prov = index.provenance(origin, file, attr);
        match kind {
            SpecAttr::MustCallAlias => ret_must_call_alias = Some(prov),
            SpecAttr::MustDisposeResource => {
                ret_ownership = if bool_arg(attr) == Some(false) {
                    Ownership::NotOwning(prov)
                } else {
                    Ownership::Owning(prov)
                }
            }
            SpecAttr::Owning | SpecAttr::NotOwning if p.return_attrs.is_empty() => {
                ret_ownership = ownership_of(index, origin, file, std::slice::from_ref(attr));
            }
            SpecAttr::Calls => {
                let args = string_args(attr);
                if let Some((target, methods)) = args.split_first()
                    && let Some(target) = parse_target(index, owner, &p.params, target)
                {
                    calls.push(CallsSpec {
                        target,
                        methods: methods.to_vec(),
                        provenance: prov,
                    });
                }
            }
            SpecAttr::CreatesMustCallFor => {
                let args = string_args(attr);
                let target = args.first().map(String::as_str).unwrap_or("this");
                if let Some(t) = parse_target(index, owner, &p.params, target) {
                    creates.push((t, prov));
                }
            }
            // On a constructor, the obligation of the object it makes (where the
            // Checker Framework writes `@MustCall` on a constructor's result).
            SpecAttr::MustCall if p.kind == MethodKind::Constructor => {
                ret_must_call = Some((MustCall::of(string_args(attr)), prov));
            }
            SpecAttr::DoesNotReturn => never_returns = true,
            SpecAttr::DoesNotThrow => never_throws = true,
            SpecAttr::ThrowsOnFailure => throws_on_failure = true,
            SpecAttr::LifecycleStart => lifecycle_start = true,
            SpecAttr::Reopens => reopens = true,
            _ => {}
        }
    }
    let mut ownership_condition = None;
    // `bool TryX(.., out T value)`: the .NET convention says `value` is
    // default when it returns `false`.
    let returns_bool = p
        .ret
        .def()
        .is_some_and(|t| Some(t) == index.well_known.boolean);
    let try_pattern = p.name.starts_with(vocabulary::TRY_PREFIX) && returns_bool;
    let params: Vec<ParamDef> = p
        .params
        .iter()
        .enumerate()
        .map(|(i, pd)| {
            let pattrs = p.param_attrs.get(i).copied().unwrap_or(empty);
            let mut must_call_alias = None;
            let mut collection_element = false;
            let mut stored_as = None;
            let mut exchanged = false;
            let mut incremented = false;
            let mut does_not_return_if = None;
            let out = pd.modifier == ParamModifier::Out;
            let mut unset_when_false = try_pattern && out;
            for (kind, attr) in spec_attrs(pattrs) {
                match kind {
                    SpecAttr::MustCallAlias => {
                        must_call_alias = Some(index.provenance(origin, file, attr))
                    }
                    SpecAttr::CollectionElement => collection_element = true,
                    SpecAttr::StoredAs => stored_as = string_args(attr).into_iter().next(),
                    SpecAttr::Exchanged => exchanged = pd.modifier == ParamModifier::Ref,
                    SpecAttr::Incremented => incremented = pd.modifier == ParamModifier::Ref,
                    SpecAttr::DoesNotReturnIf => does_not_return_if = bool_arg(attr),
                    // The try pattern stated by the nullable annotations.
                    SpecAttr::MaybeNullWhen if out && returns_bool => {
                        unset_when_false |= bool_arg(attr) == Some(false)
                    }
                    SpecAttr::NotNullWhen if out && returns_bool => {
                        unset_when_false |= bool_arg(attr) == Some(true)
                    }
                    SpecAttr::OwnsIf => {
                        ownership_condition = Some(OwnershipCondition {
                            param: i as u32,
                            holds_when: bool_arg(attr).unwrap_or(true),
                            default: match pd.default {
                                Some(ConstValue::Bool(b)) => Some(b),
                                _ => None,
                            },
                            own_resource: false,
                        })
                    }
                    _ => {}
                }
            }
            ParamDef {
                name: pd.name.to_string(),
                ty: index.value_ty(&pd.ty),
                mode: param_mode(pd.modifier),
                ownership: ownership_of(index, origin, file, pattrs),
                must_call_alias,
                collection_element,
                stored_as,
                unset_when_false,
                exchanged,
                incremented,
                does_not_return_if,
                reopened: false,
                kept_statically: false,
                default: pd.default.as_ref().map(const_of),
                span: p.param_ranges.get(i).map(|r| index.span_of(file, *r)),
            }
        })
        .collect();
    // A constructor that takes nothing over conditions its object's own
    // resource (`SafeHandle(nint h, [OwnsIf(true)] bool ownsHandle)`).
    if let Some(cond) = &mut ownership_condition {
        cond.own_resource = p.kind == MethodKind::Constructor
            && params
                .iter()
                .all(|q| !q.ownership.is_owning(false) && q.must_call_alias.is_none());
    }
    let all_mods = modifiers | p.extra_modifiers;
    // An accessor's own access modifier (`private set`) replaces its property's.
    let declared_access =
        Modifiers::PUBLIC | Modifiers::PROTECTED | Modifiers::INTERNAL | Modifiers::PRIVATE;
    let access = if p.extra_modifiers.intersects(declared_access) {
        p.extra_modifiers
    } else {
        all_mods
    };
    // `[MustCallAlias]` on an instance method with no parameter marked: the
    // result is an alias of the receiver (`EnsureSuccessStatusCode()` returns `this`).
    let mut this_must_call_alias = None;
    if ret_must_call_alias.is_some()
        && !params.iter().any(|p| p.must_call_alias.is_some())
        && !all_mods.contains(Modifiers::STATIC)
        && p.kind != MethodKind::Constructor
    {
        this_must_call_alias = ret_must_call_alias.take();
    }
    MethodDef {
        name: p.name,
        owner,
        kind: p.kind,
        params,
        ret: index.value_ty(&p.ret),
        ret_ownership,
        ret_must_call,
        ret_must_call_alias,
        this_must_call_alias,
        calls,
        creates_must_call_for: creates,
        ownership_condition,
        overrides: Vec::new(),
        property: p.property,
        is_static: all_mods.contains(Modifiers::STATIC),
        is_abstract: all_mods.contains(Modifiers::ABSTRACT) || (interface && !p.has_body),
        is_virtual: all_mods
            .intersects(Modifiers::VIRTUAL | Modifiers::ABSTRACT | Modifiers::OVERRIDE)
            || interface,
        is_async: all_mods.contains(Modifiers::ASYNC),
        is_public: interface || access.contains(Modifiers::PUBLIC),
        is_private: !interface
            && !access.intersects(Modifiers::PUBLIC | Modifiers::PROTECTED | Modifiers::INTERNAL),
        construction_helper: false,
        lifecycle_start,
        reopens,
        makes_borrowed: false,
        inlined: false,
        never_returns,
        never_throws,
        throws_on_failure,
        has_body: p.has_body,
        span,
    }
}

/// An override or implementation that states nothing about its return takes
/// `[NotOwning]` from the member it overrides: nobody annotates an
/// `IServiceProvider.GetService` implementation, and callers through the
/// interface do not dispose what it returns. If the body returns a fresh
/// resource anyway, the checker reports the leak there.
fn inherit_not_owning_returns(program: &mut rlc_core::program::Program) {
    // Overrides of overrides: repeat until nothing changes (bounded by depth).
    for _ in 0..program.methods.len() {
        let mut changed = false;
        for m in 0..program.methods.len() {
            let md = &program.methods[m];
            if md.ret_ownership != Ownership::Default || md.is_constructor() {
                continue;
            }
            let inherited = md.overrides.iter().find_map(|b| {
                let base = program.get_method(*b)?;
                match &base.ret_ownership {
                    Ownership::NotOwning(prov) => Some(prov.clone()),
                    _ => None,
                }
            });
            if let Some(prov) = inherited {
                program.methods[m].ret_ownership = Ownership::NotOwning(prov);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
}

/// Fills `MethodDef::overrides`: the base-class methods an `override` overrides and
/// the interface methods a method implements (by name and parameter types).
fn link_overrides(index: &mut Index, first: usize) {
    let mut links: Vec<(MethodId, MethodId)> = Vec::new();
    for t in first..index.types.len() {
        let tid = TypeId(t as u32);
        let data = index.ty(tid);
        if data.kind == TypeKind::Interface {
            continue;
        }
        let self_ty = data.self_ty(tid);
        let ancestors = index.ancestors(&self_ty);
        // A source class maps onto its members only the interfaces it names
        // (and those they extend); one it has only through its base class keeps
        // the base's mapping (C# interface mapping), so a method that hides a
        // base member (`new DbDataReader GetData(int)`) implements nothing and
        // takes no spec from it. The library model does not write `override`,
        // so its types keep matching by name.
        let named: Option<FxHashSet<TypeId>> = (data.origin != Origin::Library).then(|| {
            data.interfaces
                .iter()
                .flat_map(|i| index.ancestors(i))
                .filter_map(|i| i.def())
                .collect()
        });
        for members in data.members.values() {
            for &mid in members {
                let m = index.member(mid);
                if m.is_static() {
                    continue;
                }
                for anc in ancestors.iter().skip(1) {
                    let Some(adef) = anc.def() else { continue };
                    let ad = index.ty(adef);
                    let is_interface = ad.kind == TypeKind::Interface;
                    let overriding = m.modifiers.contains(Modifiers::OVERRIDE);
                    if !is_interface && !overriding {
                        continue;
                    }
                    if is_interface
                        && !overriding
                        && m.explicit_interface.is_none()
                        && named.as_ref().is_some_and(|n| !n.contains(&adef))
                    {
                        continue;
                    }
                    if let Some(explicit) = &m.explicit_interface
                        && explicit.def() != Some(adef)
                    {
                        continue;
                    }
                    let mut subst = super::Subst::new();
                    subst.bind_all(super::ParamOwner::Type(adef), anc.args());
                    for &bm in ad.members.get(&m.name).into_iter().flatten() {
                        let b = index.member(bm);
                        if b.kind != m.kind || b.params.len() != m.params.len() || b.is_static() {
                            continue;
                        }
                        let same = b.params.iter().zip(&m.params).all(|(x, y)| {
                            x.ty.subst(&subst) == y.ty || x.ty.is_unknown() || y.ty.is_unknown()
                        });
                        if !same {
                            continue;
                        }
                        for (a, b) in [
                            (m.method, b.method),
                            (m.getter, b.getter),
                            (m.setter, b.setter),
                        ] {
                            if let (Some(a), Some(b)) = (a, b) {
                                links.push((a, b));
                            }
                        }
                    }
                    if overriding
                        && !is_interface
                        && links
                            .last()
                            .is_some_and(|l| Some(l.0) == m.method.or(m.getter))
                    {
                        // The nearest base declaration is the overridden one.
                        break;
                    }
                }
            }
        }
    }
    for (a, b) in links {
        let o = &mut index.program.methods[a.index()].overrides;
        if !o.contains(&b) {
            o.push(b);
        }
    }
}
