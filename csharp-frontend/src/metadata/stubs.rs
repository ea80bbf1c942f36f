//! Referenced assemblies' types as declarations' syntax ([`FileSyntax`]),
//! for the indexer: only the types the sources name (by simple name) and
//! what their declarations need (enclosing types, bases, interfaces, member
//! signatures and constraints), with the members the sources name or C#
//! calls unnamed.
//! A type the library model defines too is declared as one more part of the
//! model's declaration (an overlay): only the members, base and nested types
//! the model lacks, without the metadata's type-level attributes, so the
//! model's facts stand and the metadata completes the shape.

use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};

use crate::hir::{
    Accessor, AccessorKind, AttrValue, Attribute, AttributeArg, Constraint, FileSyntax, Member,
    MemberKind, Modifiers, Name, NamespaceScope, Param, ParamModifier, PathSegment, Predefined,
    ScopeId, TextRange, TypeDecl, TypeDeclId, TypeKind, TypeParam, TypeRef, Variance,
};

use super::{Access, Assembly, AttrArg, MetaAttr, MetaKind, MetaMember, MetaParam, MetaType, Sig};

/// What the library model declares of a type, by metadata key
/// (``Ns.Outer`1+Inner``): a metadata member is left out of the overlay
/// when the model has one it matches ([`ModelType::has`]).
#[derive(Clone, Debug, Default)]
pub struct ModelType {
    /// Enums and delegates: their whole shape is the model's.
    pub closed: bool,
    /// Whether the model names a base class other than `object`.
    pub has_base: bool,
    /// Its type parameters' names, the enclosing types' first.
    pub type_params: Vec<String>,
    /// Fields, properties and events by name.
    pub values: FxHashSet<String>,
    /// Methods (`.ctor` for constructors; `this[]` for indexers) with
    /// their parameters' [`shape`]s.
    pub methods: Vec<(String, Vec<String>)>,
}

impl ModelType {
    /// Whether the model has this member: a field, property or event of its
    /// name (C# allows no other member of that name); a method, constructor or
    /// indexer of its name and parameter count whose parameters' shapes
    /// agree (`?` agrees with any), so a metadata overload the model lacks
    /// is added and one it has is the model's.
    fn has(&self, m: &MetaMember) -> bool {
        let value = |name: &String| {
            self.values.contains(name) || self.methods.iter().any(|(n, _)| n == name)
        };
        let (name, params) = match m {
            MetaMember::EnumValue(_) => return true,
            MetaMember::Field { name, .. } => return self.values.contains(name),
            MetaMember::Property { name, params, .. } if params.is_empty() => return value(name),
            MetaMember::Event { name, .. } => return value(name),
            MetaMember::Property { params, .. } => ("this[]", params),
            MetaMember::Method { name, params, .. } => {
                if self.values.contains(name) {
                    return true;
                }
                (name.as_str(), params)
            }
        };
        self.methods.iter().any(|(n, ps)| {
            n == name
                && ps.len() == params.len()
                && ps.iter().zip(params).all(|(a, p)| {
                    let b = shape(&p.ty);
                    a == "?" || b == "?" || *a == b
                })
        })
    }
}

/// What the model's files declare, by metadata key. Read from their syntax,
/// not their index, so that the model is indexed once, with the overlays
/// made from this. A name is resolved as the index resolves it by its
/// simple name and arity among the model's types: one the model does not
/// declare is unknown (`?`, or a base class).
pub fn model_types(files: &[&FileSyntax]) -> FxHashMap<String, ModelType> {
    // The first declaration of a simple name and arity gives its kind.
    let mut kinds: Kinds<'_> = FxHashMap::default();
    for d in files.iter().flat_map(|f| &f.types) {
        kinds
            .entry((d.name.as_str(), d.type_params.len()))
            .or_insert(d.kind);
    }
    // The first declaration of a key gives the type's kind and type
    // parameters; the members and base are those of every declaration.
    let mut types: FxHashMap<String, (TypeKind, ModelType)> = FxHashMap::default();
    for f in files {
        for (i, d) in f.types.iter().enumerate() {
            let outer = enclosing(f, TypeDeclId(i as u32));
            let (kind, model) = types.entry(decl_key(f, &outer)).or_insert_with(|| {
                let model = ModelType {
                    closed: matches!(d.kind, TypeKind::Enum | TypeKind::Delegate),
                    type_params: outer
                        .iter()
                        .rev()
                        .flat_map(|t| &t.type_params)
                        .map(|p| p.name.to_string())
                        .collect(),
                    ..ModelType::default()
                };
                (d.kind, model)
            });
            // The index takes an unknown first base of a class for its base
            // class; a struct's, enum's or delegate's base is never `object`.
            model.has_base |= match kind {
                TypeKind::Interface => false,
                TypeKind::Class | TypeKind::Record => match d.bases.first() {
                    Some(TypeRef::Path { segments, .. }) => segments.last().is_none_or(|s| {
                        kinds
                            .get(&(s.name.as_str(), s.args.len()))
                            .is_none_or(|k| matches!(k, TypeKind::Class | TypeKind::Record))
                    }),
                    _ => false,
                },
                _ => true,
            };
            for m in &d.members {
                let name = match m.kind {
                    MemberKind::Field
                    | MemberKind::Constant
                    | MemberKind::Property
                    | MemberKind::Event
                    | MemberKind::EnumMember => {
                        model.values.insert(m.name.to_string());
                        continue;
                    }
                    MemberKind::Constructor => ".ctor".to_string(),
                    MemberKind::Indexer => "this[]".to_string(),
                    _ => m.name.to_string(),
                };
                let is_param = |n: &str| {
                    m.type_params.iter().any(|p| p.name == n)
                        || outer
                            .iter()
                            .flat_map(|t| &t.type_params)
                            .any(|p| p.name == n)
                };
                let params = m
                    .params
                    .iter()
                    .map(|p| {
                        p.ty.as_ref()
                            .map_or_else(|| "?".into(), |t| ref_shape(t, &is_param, &kinds))
                    })
                    .collect();
                model.methods.push((name, params));
            }
        }
    }
    types.into_iter().map(|(key, (_, m))| (key, m)).collect()
}

/// The model's type kinds by simple name and arity.
type Kinds<'a> = FxHashMap<(&'a str, usize), TypeKind>;

/// A declaration and the types enclosing it, innermost first.
fn enclosing(f: &FileSyntax, d: TypeDeclId) -> Vec<&TypeDecl> {
    let mut out = vec![f.ty(d)];
    while let Some(p) = out.last().and_then(|t| t.parent) {
        out.push(f.ty(p));
    }
    out
}

/// The metadata key of a declaration ([`enclosing`]'s list).
fn decl_key(f: &FileSyntax, outer: &[&TypeDecl]) -> String {
    let mut scopes = Vec::new();
    let mut scope = outer.first().map(|t| t.scope);
    while let Some(s) = scope {
        let s = f.scope(s);
        scopes.push(s);
        scope = s.parent;
    }
    let ns: Vec<&str> = scopes
        .iter()
        .rev()
        .flat_map(|s| &s.name)
        .map(|n| n.as_str())
        .collect();
    let types: Vec<String> = outer
        .iter()
        .rev()
        .map(|t| with_arity(&t.name, t.type_params.len()))
        .collect();
    if ns.is_empty() {
        types.join("+")
    } else {
        format!("{}.{}", ns.join("."), types.join("+"))
    }
}

fn with_arity(name: &str, arity: usize) -> String {
    match arity {
        0 => name.to_string(),
        n => format!("{name}`{n}"),
    }
}

/// [`shape`] of a parameter type as the model writes it.
fn ref_shape(t: &TypeRef, is_param: &dyn Fn(&str) -> bool, kinds: &Kinds<'_>) -> String {
    let declared = |name: &str, arity: usize| {
        kinds
            .contains_key(&(name, arity))
            .then(|| with_arity(name, arity))
    };
    let shape = match t {
        TypeRef::Path {
            qualifier: None,
            segments,
        } if matches!(&**segments, [s] if s.args.is_empty() && is_param(&s.name)) => {
            Some("!".into())
        }
        TypeRef::Path { segments, .. } => segments
            .last()
            .and_then(|s| declared(&s.name, s.args.len())),
        TypeRef::Predefined(p) => p
            .clr_name()
            .and_then(|n| declared(n.strip_prefix("System.")?, 0)),
        TypeRef::Array(elem, _) => Some(format!("{}[]", ref_shape(elem, is_param, kinds))),
        // `int?` is `Nullable<int>`; `string?` is `string`.
        TypeRef::Nullable(inner) if is_value_type(inner, is_param, kinds) => {
            declared("Nullable", 1)
        }
        TypeRef::Nullable(inner) | TypeRef::Ref(inner) => Some(ref_shape(inner, is_param, kinds)),
        _ => None,
    };
    shape.unwrap_or_else(|| "?".into())
}

fn is_value_type(t: &TypeRef, is_param: &dyn Fn(&str) -> bool, kinds: &Kinds<'_>) -> bool {
    let kind = match t {
        TypeRef::Predefined(Predefined::Object | Predefined::String) => return false,
        TypeRef::Predefined(p) => p
            .clr_name()
            .and_then(|n| kinds.get(&(n.strip_prefix("System.")?, 0))),
        TypeRef::Path {
            qualifier,
            segments,
        } => match &**segments {
            [s] if qualifier.is_none() && s.args.is_empty() && is_param(&s.name) => None,
            [.., s] => kinds.get(&(s.name.as_str(), s.args.len())),
            [] => None,
        },
        _ => None,
    };
    kind.is_some_and(|k| {
        matches!(
            k,
            TypeKind::Struct | TypeKind::Enum | TypeKind::RecordStruct
        )
    })
}

/// A parameter type as overloads are told apart here: the simple name of
/// the type with its arity (``List`1``, `String`; keywords by their
/// `System` type), `!` for a type parameter, `[]` after an array's element;
/// `?` for what is not compared.
pub fn shape(sig: &Sig) -> String {
    match sig {
        Sig::Keyword(k) => keyword_type(k).to_string(),
        Sig::Named { key, .. } => key.rsplit(['.', '+']).next().unwrap_or(key).to_string(),
        Sig::TypeParam(_) | Sig::MethodParam(_) => "!".into(),
        Sig::Array(e, _) => format!("{}[]", shape(e)),
        Sig::ByRef(e) => shape(e),
        Sig::Pointer(_) | Sig::Unsupported => "?".into(),
    }
}

/// The `System` type a C# keyword stands for, by simple name.
fn keyword_type(k: &str) -> &str {
    match k {
        "bool" => "Boolean",
        "char" => "Char",
        "sbyte" => "SByte",
        "byte" => "Byte",
        "short" => "Int16",
        "ushort" => "UInt16",
        "int" => "Int32",
        "uint" => "UInt32",
        "long" => "Int64",
        "ulong" => "UInt64",
        "float" => "Single",
        "double" => "Double",
        "decimal" => "Decimal",
        "string" => "String",
        "object" => "Object",
        "nint" => "IntPtr",
        "nuint" => "UIntPtr",
        "void" => "Void",
        other => other,
    }
}

/// The declarations of the types `wanted` selects from `assemblies` (by
/// simple name), with the members it selects ([`used`]); those with a key
/// in `model` as overlays of its declarations. The first assembly that
/// defines a key wins. One file per assembly that declares any (with its
/// index), so that each type's declaration says which assembly it is from.
/// Built as the parser builds the same declarations written in C#, but
/// without text (ranges are empty): writing and parsing that C# was most
/// of what reading the assemblies cost.
pub fn generate(
    assemblies: &[&Assembly],
    wanted: &(dyn Fn(&str) -> bool + Sync),
    model: &FxHashMap<String, ModelType>,
) -> Vec<(usize, FileSyntax)> {
    let mut by_key: FxHashMap<&str, (usize, usize)> = FxHashMap::default();
    for (a, asm) in assemblies.iter().enumerate() {
        for (t, ty) in asm.types.iter().enumerate() {
            by_key.entry(ty.key.as_str()).or_insert((a, t));
        }
    }
    // Inside an enum or delegate of the model nothing is added.
    let skipped = |key: &str| {
        let mut k = key;
        while let Some(i) = k.rfind('+') {
            k = &k[..i];
            if model.get(k).is_some_and(|m| m.closed) {
                return true;
            }
        }
        false
    };
    // The closure of the wanted types over what their declarations name:
    // the members of a type only a signature names are declared, but the
    // types they name in turn are not followed (they stay unknown).
    let mut selected: FxHashSet<(usize, usize)> = FxHashSet::default();
    let mut followed: FxHashSet<(usize, usize)> = FxHashSet::default();
    let mut work: Vec<((usize, usize), bool)> = Vec::new();
    for (a, asm) in assemblies.iter().enumerate() {
        for (t, ty) in asm.types.iter().enumerate() {
            if wanted(simple_name(&ty.key)) && by_key.get(ty.key.as_str()) == Some(&(a, t)) {
                work.push(((a, t), true));
            }
        }
    }
    while let Some((at, follow)) = work.pop() {
        let ty = &assemblies[at.0].types[at.1];
        if skipped(&ty.key) || model.get(&ty.key).is_some_and(|m| m.closed) {
            continue;
        }
        let new = selected.insert(at);
        let follow_now = follow && followed.insert(at);
        if !new && !follow_now {
            continue;
        }
        let mut keys = Vec::new();
        ty.base
            .iter()
            .chain(&ty.interfaces)
            .for_each(|s| sig_keys(s, &mut keys));
        if let Some(o) = ty.outer {
            work.push(((at.0, o), follow));
        }
        work.extend(
            keys.iter()
                .filter_map(|k| Some((*by_key.get(k.as_str())?, follow))),
        );
        if follow_now {
            let mut keys = Vec::new();
            let own = model.get(&ty.key);
            let asm = assemblies[at.0];
            asm.bounds(at.1)
                .iter()
                .flatten()
                .for_each(|b| sig_keys(b, &mut keys));
            // The members the model has keep the model's signatures.
            let members = asm.members(at.1);
            for m in members
                .iter()
                .filter(|m| used(m, wanted) && !own.is_some_and(|o| o.has(m)))
            {
                member_keys(m, &mut keys);
            }
            work.extend(
                keys.iter()
                    .filter_map(|k| Some((*by_key.get(k.as_str())?, false))),
            );
        }
    }
    // In parallel: declaring decodes the members of the types not followed.
    assemblies
        .par_iter()
        .enumerate()
        .filter_map(|(a, asm)| {
            let mut nested: FxHashMap<usize, Vec<usize>> = FxHashMap::default();
            let mut top = Vec::new();
            for t in 0..asm.types.len() {
                if !selected.contains(&(a, t)) {
                    continue;
                }
                match asm.types[t].outer {
                    Some(o) => nested.entry(o).or_default().push(t),
                    None => top.push(t),
                }
            }
            let declarer = Declarer {
                asm,
                nested: &nested,
                model,
                wanted,
            };
            let mut file = FileSyntax {
                scopes: vec![namespace(None, Vec::new())],
                ..FileSyntax::default()
            };
            for t in top {
                declarer.declare(t, None, 0, &mut file);
            }
            (!file.types.is_empty()).then_some((a, file))
        })
        .collect()
}

/// `Outer`1+Inner` -> `Inner`; ``List`1`` -> `List`.
fn simple_name(key: &str) -> &str {
    let last = key.rsplit(['.', '+']).next().unwrap_or(key);
    last.split('`').next().unwrap_or(last)
}

fn sig_keys(sig: &Sig, out: &mut Vec<String>) {
    match sig {
        Sig::Named { key, args } => {
            out.push(key.clone());
            args.iter().for_each(|a| sig_keys(a, out));
        }
        Sig::Array(e, _) | Sig::Pointer(e) | Sig::ByRef(e) => sig_keys(e, out),
        _ => {}
    }
}

/// Whether the sources can use a member: one whose name they spell, or one
/// C# calls without its name (constructors, indexers, operators, the
/// members `using`, `foreach`, `await`, deconstruction, collection
/// initializers, query expressions and string conversions call). Declaring
/// only these keeps out of the index the other members and the types only
/// their signatures name.
fn used(m: &MetaMember, wanted: &dyn Fn(&str) -> bool) -> bool {
    const UNNAMED: &[&str] = &[
        "Dispose",
        "DisposeAsync",
        "Close",
        "GetEnumerator",
        "GetAsyncEnumerator",
        "MoveNext",
        "MoveNextAsync",
        "Current",
        "Reset",
        "GetAwaiter",
        "IsCompleted",
        "GetResult",
        "OnCompleted",
        "UnsafeOnCompleted",
        "ConfigureAwait",
        "Add",
        "Deconstruct",
        "Invoke",
        "BeginInvoke",
        "EndInvoke",
        "Length",
        "Count",
        "Slice",
        "GetPinnableReference",
        "Equals",
        "GetHashCode",
        "ToString",
        "Finalize",
        "Select",
        "SelectMany",
        "Where",
        "OrderBy",
        "OrderByDescending",
        "ThenBy",
        "ThenByDescending",
        "GroupBy",
        "Join",
        "GroupJoin",
        "Cast",
    ];
    let name = match m {
        MetaMember::EnumValue(_) => return true,
        MetaMember::Property { params, .. } if !params.is_empty() => return true,
        MetaMember::Field { name, .. }
        | MetaMember::Property { name, .. }
        | MetaMember::Method { name, .. }
        | MetaMember::Event { name, .. } => name,
    };
    name.starts_with('.')
        || name.starts_with("op_")
        || UNNAMED.contains(&name.as_str())
        || wanted(name)
}

fn member_keys(m: &MetaMember, out: &mut Vec<String>) {
    match m {
        MetaMember::Field { ty, .. } | MetaMember::Event { ty, .. } => sig_keys(ty, out),
        MetaMember::EnumValue(_) => {}
        MetaMember::Method {
            ret,
            params,
            bounds,
            ..
        } => {
            sig_keys(ret, out);
            params.iter().for_each(|p| sig_keys(&p.ty, out));
            bounds.iter().flatten().for_each(|b| sig_keys(b, out));
        }
        MetaMember::Property { ty, params, .. } => {
            sig_keys(ty, out);
            params.iter().for_each(|p| sig_keys(&p.ty, out));
        }
    }
}

/// A metadata name, if C# can spell it (a keyword with `@`, which the
/// parser's names leave out); `None` for compiler-generated names.
fn ident(name: &str) -> Option<Name> {
    let mut chars = name.chars();
    let first = chars.next()?;
    ((first.is_alphabetic() || first == '_') && chars.all(|c| c.is_alphanumeric() || c == '_'))
        .then(|| Name::new(name))
}

/// A namespace scope of the compilation unit (`parent`), or the unit itself.
fn namespace(parent: Option<ScopeId>, name: Vec<Name>) -> NamespaceScope {
    NamespaceScope {
        parent,
        name,
        usings: Vec::new(),
        extern_aliases: Vec::new(),
        range: TextRange::default(),
    }
}

struct Ctx<'a> {
    type_params: &'a [String],
    method_params: &'a [String],
}

fn simple(name: Name, args: Vec<TypeRef>) -> PathSegment {
    PathSegment {
        name,
        args: args.into_boxed_slice(),
    }
}

/// A signature's type as written `global::`-qualified; a pointer as `nint`,
/// what is not decoded as `object`.
fn type_ref(sig: &Sig, cx: &Ctx<'_>) -> Option<TypeRef> {
    let param = |names: &[String], n: u32| {
        let name = ident(names.get(n as usize)?)?;
        Some(TypeRef::Path {
            qualifier: None,
            segments: Box::new([simple(name, Vec::new())]),
        })
    };
    Some(match sig {
        Sig::Keyword(k) => TypeRef::Predefined(Predefined::from_keyword(k)?),
        Sig::Named { key, args } => {
            let (ns, rest) = match key.split('+').next().and_then(|top| top.rsplit_once('.')) {
                Some((ns, _)) => (ns, &key[ns.len() + 1..]),
                None => ("", key.as_str()),
            };
            let mut segments: Vec<PathSegment> = ns
                .split('.')
                .filter(|s| !s.is_empty())
                .map(|s| simple(Name::new(s), Vec::new()))
                .collect();
            let mut args = args.iter();
            for seg in rest.split('+') {
                let (name, arity) = match seg.split_once('`') {
                    Some((n, a)) => (n, a.parse::<usize>().ok()?),
                    None => (seg, 0),
                };
                let own: Vec<TypeRef> = args
                    .by_ref()
                    .take(arity)
                    .map(|a| type_ref(a, cx))
                    .collect::<Option<_>>()?;
                if own.len() != arity {
                    return None;
                }
                segments.push(simple(ident(name)?, own));
            }
            TypeRef::Path {
                qualifier: Some(Name::new_inline("global")),
                segments: segments.into_boxed_slice(),
            }
        }
        Sig::TypeParam(n) => param(cx.type_params, *n)?,
        Sig::MethodParam(n) => param(cx.method_params, *n)?,
        Sig::Array(e, rank) => TypeRef::Array(
            Box::new(type_ref(e, cx)?),
            (*rank).clamp(1, u8::MAX.into()) as u8,
        ),
        Sig::Pointer(_) => TypeRef::Predefined(Predefined::NInt),
        Sig::ByRef(e) => type_ref(e, cx)?,
        Sig::Unsupported => TypeRef::Predefined(Predefined::Object),
    })
}

/// The spec attributes of a declaration, with a target (`return`).
fn attrs(list: &[MetaAttr], target: Option<&str>) -> Vec<Attribute> {
    let value = |s: &Option<String>| match s {
        // C# cannot spell a control character in a plain literal: left out.
        Some(s) if s.chars().any(char::is_control) => None,
        Some(s) => Some(AttrValue::Str(s.clone())),
        None => Some(AttrValue::Null),
    };
    list.iter()
        .filter(|a| !matches!(a.name.as_str(), "ParamArray" | "Extension" | "IsReadOnly"))
        // An attribute whose arguments could not be read would say something else.
        .filter_map(|a| Some((a, a.args.as_ref()?)))
        .map(|(a, args)| Attribute {
            name: Name::new(&a.name),
            target: target.map(Name::new_inline),
            args: args
                .iter()
                .flat_map(|arg| match arg {
                    AttrArg::Bool(b) => vec![Some(AttrValue::Bool(*b))],
                    AttrArg::Str(s) => vec![value(s)],
                    AttrArg::Strings(items) => {
                        items.iter().filter(|s| s.is_some()).map(value).collect()
                    }
                })
                .flatten()
                .map(|value| AttributeArg {
                    name: None,
                    value,
                    range: TextRange::default(),
                })
                .collect(),
            range: TextRange::default(),
        })
        .collect()
}

fn params(list: &[MetaParam], extension: bool, cx: &Ctx<'_>) -> Option<Vec<Param>> {
    list.iter()
        .enumerate()
        .map(|(i, p)| {
            let modifier = if extension && i == 0 {
                ParamModifier::This
            } else if p.is_params {
                ParamModifier::Params
            } else if !matches!(p.ty, Sig::ByRef(_)) {
                ParamModifier::None
            } else if p.is_out {
                ParamModifier::Out
            } else if p.is_in {
                ParamModifier::In
            } else {
                ParamModifier::Ref
            };
            Some(Param {
                name: ident(&p.name).unwrap_or_else(|| Name::new(format!("p{i}"))),
                ty: Some(type_ref(&p.ty, cx)?),
                modifier,
                default: p.default.clone(),
                attrs: attrs(&p.attrs, None),
                range: TextRange::default(),
            })
        })
        .collect()
}

/// The `where` clauses of generic parameters (`names`) bound by types; a
/// bound C# cannot spell is left out.
fn constraints(names: &[String], bounds: &[Vec<Sig>], cx: &Ctx<'_>) -> Vec<Constraint> {
    names
        .iter()
        .zip(bounds)
        .filter_map(|(name, bounds)| {
            let bounds: Vec<TypeRef> = bounds.iter().filter_map(|b| type_ref(b, cx)).collect();
            Some(Constraint {
                param: ident(name)?,
                bounds,
            })
            .filter(|c| !c.bounds.is_empty())
        })
        .collect()
}

fn type_params_of(names: &[String]) -> Option<Vec<TypeParam>> {
    names
        .iter()
        .map(|n| {
            Some(TypeParam {
                name: ident(n)?,
                variance: Variance::None,
                attrs: Vec::new(),
            })
        })
        .collect()
}

/// Declares one assembly's selected types in a file.
struct Declarer<'a> {
    asm: &'a Assembly,
    /// The selected nested types of each selected type.
    nested: &'a FxHashMap<usize, Vec<usize>>,
    model: &'a FxHashMap<String, ModelType>,
    wanted: &'a dyn Fn(&str) -> bool,
}

impl Declarer<'_> {
    /// Declares `types[t]` and its nested types, inside `outer` (its scope
    /// and declaration) or, at the top, in its namespace.
    fn declare(
        &self,
        t: usize,
        outer: Option<(ScopeId, TypeDeclId)>,
        depth: usize,
        file: &mut FileSyntax,
    ) -> Option<()> {
        let ty: &MetaType = &self.asm.types[t];
        let overlay = self.model.get(&ty.key);
        if overlay.is_some() && matches!(ty.kind, MetaKind::Delegate | MetaKind::Enum) {
            return None;
        }
        // An overlay's members are resolved in the model type's scope: with the
        // model's names for its type parameters (`TKey` where metadata says `K`).
        let type_params = match overlay {
            Some(o) if o.type_params.len() == ty.type_params.len() => &o.type_params,
            _ => &ty.type_params,
        };
        let outer_arity = ty.outer.map_or(0, |o| self.asm.types[o].type_params.len());
        let own = type_params.get(outer_arity..).unwrap_or(&[]);
        let seg = ty.key.rsplit(['.', '+']).next()?;
        let name = ident(seg.split('`').next()?)?;
        let cx = Ctx {
            type_params,
            method_params: &[],
        };
        let bounds = self.asm.bounds(t).get(outer_arity..).unwrap_or(&[]);
        let mut decl = TypeDecl {
            kind: TypeKind::Class,
            name,
            type_params: type_params_of(own)?,
            constraints: constraints(own, bounds, &cx),
            scope: ScopeId(0),
            parent: None,
            modifiers: Modifiers::PUBLIC
                | match ty.kind {
                    _ if overlay.is_some() => Modifiers::empty(),
                    MetaKind::Class if ty.is_abstract && ty.is_sealed => Modifiers::STATIC,
                    MetaKind::Class if ty.is_abstract => Modifiers::ABSTRACT,
                    MetaKind::Class if ty.is_sealed => Modifiers::SEALED,
                    _ => Modifiers::empty(),
                },
            // The model's type-level facts stand: the metadata's are not added to them.
            attrs: match overlay {
                Some(_) => Vec::new(),
                None => attrs(&ty.attrs, None),
            },
            bases: Vec::new(),
            primary_ctor: None,
            primary_base_args: None,
            members: Vec::new(),
            range: TextRange::default(),
            name_range: TextRange::default(),
            has_error: false,
        };
        let members = self.asm.members(t);
        match ty.kind {
            MetaKind::Delegate => {
                let (ret, ps) = members.iter().find_map(|m| match m {
                    MetaMember::Method {
                        name, ret, params, ..
                    } if name == "Invoke" => Some((ret, params)),
                    _ => None,
                })?;
                decl.kind = TypeKind::Delegate;
                decl.members.push(Member {
                    ty: Some(type_ref(ret, &cx)?),
                    params: params(ps, false, &cx)?,
                    name: Name::new_inline("Invoke"),
                    ..Member::empty(MemberKind::DelegateInvoke)
                });
            }
            MetaKind::Enum => {
                decl.kind = TypeKind::Enum;
                decl.members = members
                    .iter()
                    .filter_map(|m| match m {
                        MetaMember::EnumValue(v) => Some(Member {
                            name: ident(v)?,
                            ..Member::empty(MemberKind::EnumMember)
                        }),
                        _ => None,
                    })
                    .collect();
            }
            _ => {
                decl.kind = match ty.kind {
                    MetaKind::Interface => TypeKind::Interface,
                    MetaKind::Struct => TypeKind::Struct,
                    _ => TypeKind::Class,
                };
                decl.bases = ty
                    .base
                    .iter()
                    .filter(|b| !matches!(b, Sig::Named { key, .. } if key == "System.Object"))
                    // A second base class would be taken for an interface.
                    .filter(|_| !overlay.is_some_and(|o| o.has_base))
                    .chain(&ty.interfaces)
                    .filter_map(|b| type_ref(b, &cx))
                    .collect();
                decl.members = members
                    .iter()
                    .filter(|m| used(m, self.wanted) && !overlay.is_some_and(|o| o.has(m)))
                    .filter_map(|m| member(m, &decl, &cx))
                    .collect();
            }
        }
        (decl.scope, decl.parent) = match outer {
            Some((scope, parent)) => (scope, Some(parent)),
            None => match ty.key.rsplit_once('.') {
                Some((ns, _)) => {
                    let name = ns.split('.').map(Name::new).collect();
                    file.scopes.push(namespace(Some(ScopeId(0)), name));
                    (ScopeId(file.scopes.len() as u32 - 1), None)
                }
                None => (ScopeId(0), None),
            },
        };
        let kind = decl.kind;
        let at = (decl.scope, TypeDeclId(file.types.len() as u32));
        file.types.push(decl);
        // Nothing is declared inside an enum or a delegate.
        if depth < 32 && !matches!(kind, TypeKind::Enum | TypeKind::Delegate) {
            for &n in self.nested.get(&t).into_iter().flatten() {
                self.declare(n, Some(at), depth + 1, file);
            }
        }
        Some(())
    }
}

fn member(m: &MetaMember, decl: &TypeDecl, cx: &Ctx<'_>) -> Option<Member> {
    let access = |a: Access| match a {
        Access::Public => Modifiers::PUBLIC,
        Access::Protected => Modifiers::PROTECTED,
    };
    let is = |yes: bool, flag: Modifiers| if yes { flag } else { Modifiers::empty() };
    match m {
        MetaMember::EnumValue(_) => None,
        MetaMember::Field {
            name,
            ty,
            access: a,
            is_static,
            is_const,
            attrs: at,
        } => Some(Member {
            ty: Some(type_ref(ty, cx)?),
            // A constant's value is not read: `static readonly`.
            modifiers: access(*a)
                | is(*is_const || *is_static, Modifiers::STATIC)
                | is(*is_const, Modifiers::READONLY),
            attrs: attrs(at, None),
            name: ident(name)?,
            ..Member::empty(MemberKind::Field)
        }),
        MetaMember::Method {
            name,
            access: a,
            is_static,
            is_abstract,
            is_virtual,
            is_override,
            is_extension,
            type_params,
            bounds,
            ret,
            ret_attrs,
            params: ps,
            attrs: at,
        } => {
            let mcx = Ctx {
                type_params: cx.type_params,
                method_params: type_params,
            };
            if name == ".ctor" {
                return Some(Member {
                    params: params(ps, false, &mcx)?,
                    modifiers: access(*a),
                    attrs: attrs(at, None),
                    name: decl.name.clone(),
                    ..Member::empty(MemberKind::Constructor)
                });
            }
            let modifiers = if *is_static {
                Modifiers::STATIC
            } else if decl.kind == TypeKind::Interface {
                Modifiers::empty()
            } else if *is_abstract {
                Modifiers::ABSTRACT
            } else if *is_override {
                Modifiers::OVERRIDE
            } else if *is_virtual {
                Modifiers::VIRTUAL
            } else {
                Modifiers::empty()
            };
            let ret_ty = type_ref(ret, &mcx)?;
            Some(Member {
                type_params: type_params_of(type_params)?,
                constraints: constraints(type_params, bounds, &mcx),
                ty: Some(match ret {
                    Sig::ByRef(_) => TypeRef::Ref(Box::new(ret_ty)),
                    _ => ret_ty,
                }),
                params: params(ps, *is_extension, &mcx)?,
                modifiers: access(*a) | modifiers,
                attrs: attrs(at, None),
                return_attrs: attrs(ret_attrs, Some("return")),
                name: ident(name)?,
                ..Member::empty(MemberKind::Method)
            })
        }
        MetaMember::Property {
            name,
            ty,
            access: a,
            is_static,
            params: ps,
            get,
            set,
            attrs: at,
        } => {
            let accessor = |kind| Accessor {
                kind,
                modifiers: Modifiers::empty(),
                attrs: Vec::new(),
                body: None,
                range: TextRange::default(),
            };
            let (kind, name, params) = if ps.is_empty() {
                (MemberKind::Property, ident(name)?, Vec::new())
            } else {
                (
                    MemberKind::Indexer,
                    Name::new_inline("this"),
                    params(ps, false, cx)?,
                )
            };
            Some(Member {
                ty: Some(type_ref(ty, cx)?),
                params,
                modifiers: access(*a) | is(*is_static, Modifiers::STATIC),
                attrs: attrs(at, None),
                accessors: get
                    .then(|| accessor(AccessorKind::Get))
                    .into_iter()
                    .chain(set.then(|| accessor(AccessorKind::Set)))
                    .collect(),
                name,
                ..Member::empty(kind)
            })
        }
        // As the parser gives a field-like event (`public event global::System.EventHandler Changed;`).
        MetaMember::Event {
            name,
            ty,
            access: a,
            is_static,
            attrs: at,
        } => Some(Member {
            ty: Some(type_ref(ty, cx)?),
            modifiers: access(*a) | is(*is_static, Modifiers::STATIC),
            attrs: attrs(at, None),
            name: ident(name)?,
            ..Member::empty(MemberKind::Event)
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn method(name: &str, params: &[Sig]) -> MetaMember {
        MetaMember::Method {
            name: name.into(),
            access: Access::Public,
            is_static: false,
            is_abstract: false,
            is_virtual: false,
            is_override: false,
            is_extension: false,
            type_params: Vec::new(),
            bounds: Vec::new(),
            ret: Sig::Keyword("void"),
            ret_attrs: Vec::new(),
            params: params
                .iter()
                .map(|ty| MetaParam::new("p".into(), ty.clone()))
                .collect(),
            attrs: Vec::new(),
        }
    }

    /// Overloads are told apart by count and shapes; `?` (what the model
    /// could not resolve) agrees with any type; a property's name hides a
    /// method of that name.
    #[test]
    fn model_members_match_metadata_overloads_by_shape() {
        let stream = Sig::Named {
            key: "System.IO.Stream".into(),
            args: Vec::new(),
        };
        let list = Sig::Named {
            key: "System.Collections.Generic.List`1".into(),
            args: vec![Sig::Keyword("int")],
        };
        let model = ModelType {
            values: ["Length".to_string()].into_iter().collect(),
            methods: vec![
                ("Write".into(), vec!["String".into()]),
                ("Copy".into(), vec!["?".into(), "List`1".into()]),
                (".ctor".into(), vec![]),
            ],
            ..ModelType::default()
        };
        assert!(model.has(&method("Write", &[Sig::Keyword("string")])));
        assert!(!model.has(&method("Write", &[Sig::Keyword("int")])));
        assert!(!model.has(&method("Write", &[])));
        assert!(model.has(&method("Copy", &[stream.clone(), list.clone()])));
        assert!(!model.has(&method("Copy", &[stream.clone(), stream])));
        assert!(model.has(&method(".ctor", &[])));
        assert!(!model.has(&method(".ctor", &[list])));
        assert!(model.has(&method("Length", &[])));
        assert!(!model.has(&method("Flush", &[])));
        // An event, by name, as a property.
        let event = |name: &str| MetaMember::Event {
            name: name.into(),
            ty: Sig::Keyword("object"),
            access: Access::Public,
            is_static: false,
            attrs: Vec::new(),
        };
        assert!(model.has(&event("Length")));
        assert!(model.has(&event("Write")));
        assert!(!model.has(&event("Closed")));
    }
}
