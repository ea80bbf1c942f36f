//! Referenced assemblies' types as C# declarations, for the parser and the
//! indexer: only the types the sources name (by simple name) and what their
//! declarations need (enclosing types, bases, interfaces, member signatures),
//! with the members the sources name or C# calls unnamed.
//! A type the library model defines too is written as one more part of the
//! model's declaration (an overlay): only the members, base and nested types
//! the model lacks, without the metadata's type-level attributes, so the
//! model's facts stand and the metadata completes the shape.

use std::fmt::Write;

use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};

use crate::hir::{FileSyntax, MemberKind, Predefined, TypeDecl, TypeDeclId, TypeKind, TypeRef};

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
    /// Whether the model has this member: a field or property of its name
    /// (C# allows no other member of that name); a method, constructor or
    /// indexer of its name and parameter count whose parameters' shapes
    /// agree (`?` agrees with any), so a metadata overload the model lacks
    /// is added and one it has is the model's.
    fn has(&self, m: &MetaMember) -> bool {
        let (name, params) = match m {
            MetaMember::EnumValue(_) => return true,
            MetaMember::Field { name, .. } => return self.values.contains(name),
            MetaMember::Property { name, params, .. } if params.is_empty() => {
                return self.values.contains(name) || self.methods.iter().any(|(n, _)| n == name);
            }
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

/// The C# text of the types `wanted` selects from `assemblies` (by simple
/// name), with the members it selects ([`used`]); those with a key in
/// `model` as overlays of its declarations. The first assembly that
/// defines a key wins. One text per assembly that declares any (with
/// its index), so that each type's declaration says which assembly it is
/// from.
pub fn generate(
    assemblies: &[&Assembly],
    wanted: &(dyn Fn(&str) -> bool + Sync),
    model: &FxHashMap<String, ModelType>,
) -> Vec<(usize, String)> {
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
            // The members the model has keep the model's signatures.
            let members = assemblies[at.0].members(at.1);
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
    // In parallel: writing decodes the members of the types not followed.
    assemblies
        .par_iter()
        .enumerate()
        .filter_map(|(a, asm)| {
            let mut out = String::new();
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
            for t in top {
                let ty = &asm.types[t];
                let ns = ty.key.rsplit_once('.').map_or("", |(ns, _)| ns);
                let mut decl = String::new();
                if write_type(asm, t, &nested, model, wanted, 0, &mut decl).is_none() {
                    continue;
                }
                if ns.is_empty() {
                    out.push_str(&decl);
                } else {
                    let _ = writeln!(out, "namespace {ns} {{\n{decl}}}");
                }
            }
            (!out.is_empty()).then_some((a, out))
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
/// only these keeps the assemblies' C# small: parsing it is most of what
/// reading them costs.
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
        | MetaMember::Method { name, .. } => name,
    };
    name.starts_with('.')
        || name.starts_with("op_")
        || UNNAMED.contains(&name.as_str())
        || wanted(name)
}

fn member_keys(m: &MetaMember, out: &mut Vec<String>) {
    match m {
        MetaMember::Field { ty, .. } => sig_keys(ty, out),
        MetaMember::EnumValue(_) => {}
        MetaMember::Method { ret, params, .. } => {
            sig_keys(ret, out);
            params.iter().for_each(|p| sig_keys(&p.ty, out));
        }
        MetaMember::Property { ty, params, .. } => {
            sig_keys(ty, out);
            params.iter().for_each(|p| sig_keys(&p.ty, out));
        }
    }
}

/// A metadata name as a C# identifier; `None` for names C# cannot spell
/// (compiler-generated ones).
fn ident(name: &str) -> Option<String> {
    let mut chars = name.chars();
    let first = chars.next()?;
    if !(first.is_alphabetic() || first == '_') || !chars.all(|c| c.is_alphanumeric() || c == '_') {
        return None;
    }
    Some(if rlc_attributes::library::is_keyword(name) {
        format!("@{name}")
    } else {
        name.to_string()
    })
}

struct Ctx<'a> {
    type_params: &'a [String],
    method_params: &'a [String],
}

fn render(sig: &Sig, cx: &Ctx<'_>) -> Option<String> {
    Some(match sig {
        Sig::Keyword(k) => (*k).to_string(),
        Sig::Named { key, args } => {
            let (ns, rest) = match key.split('+').next().and_then(|top| top.rsplit_once('.')) {
                Some((ns, _)) => (ns, &key[ns.len() + 1..]),
                None => ("", key.as_str()),
            };
            let mut s = String::from("global::");
            if !ns.is_empty() {
                s.push_str(ns);
                s.push('.');
            }
            let mut args = args.iter();
            for (i, seg) in rest.split('+').enumerate() {
                if i > 0 {
                    s.push('.');
                }
                let (name, arity) = match seg.split_once('`') {
                    Some((n, a)) => (n, a.parse::<usize>().ok()?),
                    None => (seg, 0),
                };
                s.push_str(&ident(name)?);
                if arity > 0 {
                    let own: Vec<String> = args
                        .by_ref()
                        .take(arity)
                        .map(|a| render(a, cx))
                        .collect::<Option<_>>()?;
                    if own.len() != arity {
                        return None;
                    }
                    let _ = write!(s, "<{}>", own.join(", "));
                }
            }
            s
        }
        Sig::TypeParam(n) => ident(cx.type_params.get(*n as usize)?)?,
        Sig::MethodParam(n) => ident(cx.method_params.get(*n as usize)?)?,
        Sig::Array(e, rank) => format!("{}[{}]", render(e, cx)?, ",".repeat(*rank as usize - 1)),
        Sig::Pointer(_) => "nint".to_string(),
        Sig::ByRef(e) => render(e, cx)?,
        Sig::Unsupported => "object".to_string(),
    })
}

fn string_literal(s: &str) -> Option<String> {
    if s.chars().any(char::is_control) {
        return None;
    }
    Some(format!(
        "\"{}\"",
        s.replace('\\', "\\\\").replace('"', "\\\"")
    ))
}

/// The spec attributes of a declaration as C# (`[Owning] `), with a target (`return: `).
fn attrs(list: &[MetaAttr], target: &str) -> String {
    let mut out = String::new();
    for a in list {
        if matches!(a.name.as_str(), "ParamArray" | "Extension" | "IsReadOnly") {
            continue;
        }
        // An attribute whose arguments could not be read would say something else.
        let Some(args) = &a.args else { continue };
        let mut rendered = Vec::new();
        for arg in args {
            match arg {
                AttrArg::Bool(b) => rendered.push(b.to_string()),
                AttrArg::Str(Some(s)) => match string_literal(s) {
                    Some(l) => rendered.push(l),
                    None => continue,
                },
                AttrArg::Str(None) => rendered.push("null".into()),
                AttrArg::Strings(items) => {
                    rendered.extend(items.iter().flatten().filter_map(|s| string_literal(s)))
                }
            }
        }
        let _ = if rendered.is_empty() {
            write!(out, "[{target}{}] ", a.name)
        } else {
            write!(out, "[{target}{}({})] ", a.name, rendered.join(", "))
        };
    }
    out
}

fn params(list: &[MetaParam], extension: bool, cx: &Ctx<'_>) -> Option<String> {
    let mut out = Vec::new();
    for (i, p) in list.iter().enumerate() {
        let mut s = attrs(&p.attrs, "");
        if extension && i == 0 {
            s.push_str("this ");
        }
        if p.is_params {
            s.push_str("params ");
        }
        if matches!(p.ty, Sig::ByRef(_)) {
            s.push_str(if p.is_out {
                "out "
            } else if p.is_in {
                "in "
            } else {
                "ref "
            });
        }
        let name = ident(&p.name).unwrap_or_else(|| format!("p{i}"));
        let _ = write!(s, "{} {name}", render(&p.ty, cx)?);
        if let Some(d) = &p.default {
            let _ = write!(s, " = {d}");
        }
        out.push(s);
    }
    Some(out.join(", "))
}

fn type_params_of(names: &[String]) -> Option<String> {
    if names.is_empty() {
        return Some(String::new());
    }
    let names: Vec<String> = names.iter().map(|n| ident(n)).collect::<Option<_>>()?;
    Some(format!("<{}>", names.join(", ")))
}

fn write_type(
    asm: &Assembly,
    t: usize,
    nested: &FxHashMap<usize, Vec<usize>>,
    model: &FxHashMap<String, ModelType>,
    wanted: &dyn Fn(&str) -> bool,
    depth: usize,
    out: &mut String,
) -> Option<()> {
    let ty: &MetaType = &asm.types[t];
    let overlay = model.get(&ty.key);
    if overlay.is_some() && matches!(ty.kind, MetaKind::Delegate | MetaKind::Enum) {
        return None;
    }
    // An overlay's members are resolved in the model type's scope: with the
    // model's names for its type parameters (`TKey` where metadata says `K`).
    let type_params = match overlay {
        Some(o) if o.type_params.len() == ty.type_params.len() => &o.type_params,
        _ => &ty.type_params,
    };
    let outer_arity = ty.outer.map_or(0, |o| asm.types[o].type_params.len());
    let own = type_params.get(outer_arity..).unwrap_or(&[]);
    let seg = ty.key.rsplit(['.', '+']).next()?;
    let name = ident(seg.split('`').next()?)?;
    let cx = Ctx {
        type_params,
        method_params: &[],
    };
    let tps = type_params_of(own)?;
    let access = "public ";
    let modifiers = match ty.kind {
        _ if overlay.is_some() => "",
        MetaKind::Class if ty.is_abstract && ty.is_sealed => "static ",
        MetaKind::Class if ty.is_abstract => "abstract ",
        MetaKind::Class if ty.is_sealed => "sealed ",
        _ => "",
    };
    // The model's type-level facts stand: the metadata's are not added to them.
    let head = if overlay.is_some() {
        String::new()
    } else {
        attrs(&ty.attrs, "")
    };
    match ty.kind {
        MetaKind::Delegate => {
            let invoke = asm.members(t).iter().find_map(|m| match m {
                MetaMember::Method {
                    name,
                    ret,
                    params: ps,
                    ..
                } if name == "Invoke" => Some((ret, ps)),
                _ => None,
            })?;
            let _ = writeln!(
                out,
                "{head}{access}delegate {} {name}{tps}({});",
                render(invoke.0, &cx)?,
                params(invoke.1, false, &cx)?
            );
            return Some(());
        }
        MetaKind::Enum => {
            let values: Vec<String> = asm
                .members(t)
                .iter()
                .filter_map(|m| match m {
                    MetaMember::EnumValue(v) => ident(v),
                    _ => None,
                })
                .collect();
            let _ = writeln!(out, "{head}{access}enum {name} {{ {} }}", values.join(", "));
            return Some(());
        }
        _ => {}
    }
    let keyword = match ty.kind {
        MetaKind::Interface => "interface",
        MetaKind::Struct => "struct",
        _ => "class",
    };
    let bases: Vec<String> = ty
        .base
        .iter()
        .filter(|b| !matches!(b, Sig::Named { key, .. } if key == "System.Object"))
        // A second base class would be taken for an interface.
        .filter(|_| !overlay.is_some_and(|o| o.has_base))
        .chain(&ty.interfaces)
        .filter_map(|b| render(b, &cx))
        .collect();
    let _ = write!(out, "{head}{access}{modifiers}{keyword} {name}{tps}");
    if !bases.is_empty() {
        let _ = write!(out, " : {}", bases.join(", "));
    }
    out.push_str(" {\n");
    let interface = ty.kind == MetaKind::Interface;
    for m in asm
        .members(t)
        .iter()
        .filter(|m| used(m, wanted) && !overlay.is_some_and(|o| o.has(m)))
    {
        if let Some(line) = member(m, &name, interface, &cx) {
            out.push_str(&line);
            out.push('\n');
        }
    }
    for &n in nested.get(&t).into_iter().flatten() {
        if depth < 32 {
            let mut inner = String::new();
            if write_type(asm, n, nested, model, wanted, depth + 1, &mut inner).is_some() {
                out.push_str(&inner);
            }
        }
    }
    out.push_str("}\n");
    Some(())
}

fn member(m: &MetaMember, type_name: &str, interface: bool, cx: &Ctx<'_>) -> Option<String> {
    let access = |a: Access| match a {
        Access::Public => "public ",
        Access::Protected => "protected ",
    };
    match m {
        MetaMember::EnumValue(_) => None,
        MetaMember::Field {
            name,
            ty,
            access: a,
            is_static,
            is_const,
            attrs: at,
        } => Some(format!(
            "{}{}{}{} {};",
            attrs(at, ""),
            access(*a),
            if *is_const {
                "static readonly "
            } else if *is_static {
                "static "
            } else {
                ""
            },
            render(ty, cx)?,
            ident(name)?
        )),
        MetaMember::Method {
            name,
            access: a,
            is_static,
            is_abstract,
            is_virtual,
            is_override,
            is_extension,
            type_params,
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
                return Some(format!(
                    "{}{}{type_name}({});",
                    attrs(at, ""),
                    access(*a),
                    params(ps, false, &mcx)?
                ));
            }
            let modifiers = if *is_static {
                "static "
            } else if interface {
                ""
            } else if *is_abstract {
                "abstract "
            } else if *is_override {
                "override "
            } else if *is_virtual {
                "virtual "
            } else {
                ""
            };
            let ret_text = match ret {
                Sig::ByRef(_) => format!("ref {}", render(ret, &mcx)?),
                _ => render(ret, &mcx)?,
            };
            Some(format!(
                "{}{}{}{modifiers}{ret_text} {}{}({});",
                attrs(at, ""),
                attrs(ret_attrs, "return: "),
                access(*a),
                ident(name)?,
                type_params_of(type_params)?,
                params(ps, *is_extension, &mcx)?
            ))
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
            let accessors = format!(
                "{{ {}{}}}",
                if *get { "get; " } else { "" },
                if *set { "set; " } else { "" }
            );
            let head = format!(
                "{}{}{}{}",
                attrs(at, ""),
                access(*a),
                if *is_static { "static " } else { "" },
                render(ty, cx)?
            );
            Some(if ps.is_empty() {
                format!("{head} {} {accessors}", ident(name)?)
            } else {
                format!("{head} this[{}] {accessors}", params(ps, false, cx)?)
            })
        }
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
    }
}
