//! Referenced assemblies' public surface, read from their ECMA-335 metadata
//! (never executed, never their IL): types with namespace, nesting, generic
//! parameters and their constraints, base type and interfaces; fields,
//! properties, events, methods and constructors with their signatures; the
//! spec attributes compiled into them.
//! [`stubs`] declares the types the sources need (their syntax, as parsed
//! C# declarations would give it), which the front end indexes with the
//! library model.
//!
//! Our own reader rather than a crate: `dotscope` (Apache-2.0) loads a whole
//! assembly eagerly (3 s for mono's mscorlib), rejects mono's System.dll in
//! its default validation and needs Rust 1.95; `clrmeta` (MIT) panics on 46%
//! of truncations of a metadata stream and aborts on a corrupt row count (an
//! allocation of 37 GB). This reader is bounds-checked throughout (see
//! `docs/metadata.md`).

mod reader;
mod sig;
pub mod stubs;

use std::io::{Read, Seek};
use std::sync::OnceLock;

use rustc_hash::FxHashMap;

use crate::hir::ConstValue;
use reader::{Coded, T, Tables};
pub use sig::{AttrArg, MethodSig, Sig};

/// The directory, in no file system, of the generated files that declare
/// referenced assemblies' types: `<referenced assemblies>/Acme.Client.dll`.
pub const METADATA_FILE: &str = "<referenced assemblies>";

/// Whether a file of the index is one of those.
pub fn is_metadata_file(path: &std::path::Path) -> bool {
    // Bytes, not components: name resolution asks this for every library type it meets.
    path.as_os_str()
        .as_encoded_bytes()
        .starts_with(METADATA_FILE.as_bytes())
}
use sig::{SigReader, attr_args, type_key};

/// The public types of one assembly. Their members and constraints are
/// decoded when first asked for ([`Assembly::members`],
/// [`Assembly::bounds`]): a run declares a few hundred of the thousands of
/// types its assemblies have.
#[derive(Clone, Debug, Default)]
pub struct Assembly {
    pub types: Vec<MetaType>,
    /// The metadata root's bytes, read from the file (the workspace forbids
    /// the `unsafe` of a memory map), and what decoding members needs
    /// besides the rows.
    bytes: Vec<u8>,
    surface: Surface,
    decoded: Vec<OnceLock<Decoded>>,
}

/// What is decoded of a type when first asked for.
#[derive(Clone, Debug, Default)]
struct Decoded {
    members: Vec<MetaMember>,
    bounds: Vec<Vec<Sig>>,
}

impl Assembly {
    /// The public and protected members of `types[t]`, decoded once.
    pub fn members(&self, t: usize) -> &[MetaMember] {
        self.decoded(t).map_or(&[], |d| &d.members)
    }

    /// The bounds of each of `types[t]`'s generic parameters ([`MetaType::type_params`]).
    pub fn bounds(&self, t: usize) -> &[Vec<Sig>] {
        self.decoded(t).map_or(&[], |d| &d.bounds)
    }

    fn decoded(&self, t: usize) -> Option<&Decoded> {
        let (cell, ty) = (self.decoded.get(t)?, self.types.get(t)?);
        Some(cell.get_or_init(|| {
            // Read once already: the tables are there.
            let Ok(tables) = Tables::read(&self.bytes) else {
                return Decoded::default();
            };
            let r = Reader {
                t: &tables,
                s: &self.surface,
            };
            Decoded {
                members: r.members(ty.row, ty.kind),
                bounds: r.bounds(T::TypeDef, ty.row),
            }
        }))
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum MetaKind {
    Class,
    Struct,
    Interface,
    Enum,
    Delegate,
}

#[derive(Clone, Debug)]
pub struct MetaType {
    /// ``Ns.Outer`1+Inner``.
    pub key: String,
    /// Index of the enclosing type in [`Assembly::types`].
    pub outer: Option<usize>,
    pub kind: MetaKind,
    pub is_abstract: bool,
    pub is_sealed: bool,
    /// All generic parameters' names, the enclosing types' first.
    pub type_params: Vec<String>,
    pub base: Option<Sig>,
    pub interfaces: Vec<Sig>,
    pub attrs: Vec<MetaAttr>,
    /// Its TypeDef row.
    row: u32,
}

/// A spec attribute (or one that changes a declaration's meaning) with its arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MetaAttr {
    /// The attribute type's simple name, without `Attribute`.
    pub name: String,
    /// `None` when the arguments are not bools, strings or string arrays.
    pub args: Option<Vec<AttrArg>>,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Access {
    Public,
    Protected,
}

#[derive(Clone, Debug)]
pub struct MetaParam {
    pub name: String,
    pub ty: Sig,
    pub is_out: bool,
    pub is_in: bool,
    pub is_params: bool,
    pub default: Option<ConstValue>,
    pub attrs: Vec<MetaAttr>,
}

impl MetaParam {
    /// A parameter as its signature gives it: a type, no flags, no attributes.
    fn new(name: String, ty: Sig) -> MetaParam {
        MetaParam {
            name,
            ty,
            is_out: false,
            is_in: false,
            is_params: false,
            default: None,
            attrs: Vec::new(),
        }
    }
}

#[derive(Clone, Debug)]
pub enum MetaMember {
    Field {
        name: String,
        ty: Sig,
        access: Access,
        is_static: bool,
        is_const: bool,
        attrs: Vec<MetaAttr>,
    },
    /// An enum's value.
    EnumValue(String),
    Method {
        /// `.ctor` for constructors.
        name: String,
        access: Access,
        is_static: bool,
        is_abstract: bool,
        /// `virtual` (a new slot that may be overridden) or `override`.
        is_virtual: bool,
        is_override: bool,
        is_extension: bool,
        type_params: Vec<String>,
        /// The bounds of each of `type_params`.
        bounds: Vec<Vec<Sig>>,
        ret: Sig,
        ret_attrs: Vec<MetaAttr>,
        params: Vec<MetaParam>,
        attrs: Vec<MetaAttr>,
    },
    Property {
        name: String,
        ty: Sig,
        access: Access,
        is_static: bool,
        /// An indexer's parameters.
        params: Vec<MetaParam>,
        get: bool,
        set: bool,
        attrs: Vec<MetaAttr>,
    },
    Event {
        name: String,
        /// Its delegate type.
        ty: Sig,
        access: Access,
        is_static: bool,
        attrs: Vec<MetaAttr>,
    },
}

/// Attributes read from metadata: the spec vocabulary and the few that are
/// C# syntax in source (`params`, `this`, `in`).
fn wanted_attr(simple: &str) -> bool {
    matches!(simple, "ParamArray" | "Extension" | "IsReadOnly")
        || rlc_attributes::vocabulary::SpecAttr::from_name(simple)
            .is_some_and(|a| !a.is_model_only())
}

/// A parent of custom attributes: (table, row).
type Parent = (u8, u32);

/// What decoding needs of an assembly's tables besides their rows, gathered
/// in one pass over each table.
#[derive(Clone, Debug, Default)]
struct Surface {
    attrs: FxHashMap<Parent, Vec<MetaAttr>>,
    /// GenericParam rows by owner (TypeDef or MethodDef), with their numbers.
    generics: FxHashMap<Parent, Vec<(u32, u32)>>,
    /// GenericParam row -> its constraints' types (coded `TypeDefOrRef`).
    constraints: FxHashMap<u32, Vec<u32>>,
    /// (Property, row) -> (getter, setter), (Event, row) -> (adder,
    /// remover); accessor method rows.
    accessors: FxHashMap<Parent, (Option<u32>, Option<u32>)>,
    is_accessor: Vec<bool>,
    /// The owner TypeDef of each MethodDef row.
    method_owner: Vec<u32>,
    constants: FxHashMap<u32, (u8, u32)>,
    /// (PropertyMap or EventMap, TypeDef row) -> the map's row.
    maps: FxHashMap<Parent, u32>,
}

struct Reader<'t, 'a> {
    t: &'t Tables<'a>,
    s: &'t Surface,
}

/// Reads the public types of an assembly from its file (only its headers
/// and metadata); their members wait for [`Assembly::members`].
pub fn read(file: &mut (impl Read + Seek)) -> Result<Assembly, String> {
    let bytes = reader::metadata_of(file)?;
    let tables = Tables::read(&bytes)?;
    let t = &tables;
    let mut method_owner = vec![0u32; t.rows(T::MethodDef) as usize + 1];
    for row in 1..=t.rows(T::TypeDef) {
        for m in t.list(T::TypeDef, row, 5, T::MethodDef) {
            method_owner[m as usize] = row;
        }
    }
    let mut r = Surface {
        is_accessor: vec![false; t.rows(T::MethodDef) as usize + 1],
        method_owner,
        ..Surface::default()
    };
    read_attrs(t, &mut r);
    for row in 1..=t.rows(T::GenericParam) {
        let (Some(number), Some(owner)) = (
            t.cell(T::GenericParam, row, 0),
            t.cell(T::GenericParam, row, 2)
                .and_then(|c| Coded::TypeOrMethodDef.decode(c)),
        ) else {
            continue;
        };
        r.generics
            .entry((owner.0 as u8, owner.1))
            .or_default()
            .push((number, row));
    }
    for row in 1..=t.rows(T::GenericParamConstraint) {
        if let (Some(param), Some(ty)) = (
            t.cell(T::GenericParamConstraint, row, 0),
            t.cell(T::GenericParamConstraint, row, 1),
        ) {
            r.constraints.entry(param).or_default().push(ty);
        }
    }
    for row in 1..=t.rows(T::MethodSemantics) {
        let Some(method) = t.cell(T::MethodSemantics, row, 1) else {
            continue;
        };
        // Other accessors (`.other`, an event's `raise`) stay methods' names nobody calls.
        if let Some(slot) = r.is_accessor.get_mut(method as usize) {
            *slot = true;
        }
        let (Some(sem), Some((owner @ (T::Property | T::Event), row))) = (
            t.cell(T::MethodSemantics, row, 0),
            t.cell(T::MethodSemantics, row, 2)
                .and_then(|c| Coded::HasSemantics.decode(c)),
        ) else {
            continue;
        };
        let entry = r.accessors.entry((owner as u8, row)).or_default();
        match sem {
            // Getter, adder.
            0x2 | 0x8 => entry.0 = Some(method),
            // Setter, remover.
            0x1 | 0x10 => entry.1 = Some(method),
            _ => {}
        }
    }
    for row in 1..=t.rows(T::Constant) {
        if let (Some(kind), Some((T::Param, param)), Some(blob)) = (
            t.cell(T::Constant, row, 0),
            t.cell(T::Constant, row, 1)
                .and_then(|c| Coded::HasConstant.decode(c)),
            t.cell(T::Constant, row, 2),
        ) {
            r.constants.insert(param, ((kind & 0xFF) as u8, blob));
        }
    }
    for map in [T::PropertyMap, T::EventMap] {
        for row in 1..=t.rows(map) {
            if let Some(owner) = t.cell(map, row, 0) {
                r.maps.insert((map as u8, owner), row);
            }
        }
    }
    let mut interfaces: FxHashMap<u32, Vec<u32>> = FxHashMap::default();
    for row in 1..=t.rows(T::InterfaceImpl) {
        if let Some(owner) = t.cell(T::InterfaceImpl, row, 0) {
            interfaces.entry(owner).or_default().push(row);
        }
    }
    let types = Reader { t, s: &r }.types(&interfaces);
    let decoded = vec![OnceLock::new(); types.len()];
    drop(tables);
    Ok(Assembly {
        types,
        bytes,
        surface: r,
        decoded,
    })
}

/// The wanted custom attributes by parent; an attribute type's name is
/// looked up once however many attributes use its constructor.
fn read_attrs(t: &Tables, s: &mut Surface) {
    /// The attribute's simple name and the constructor's signature blob;
    /// None when the attribute is not wanted.
    type Ctor = Option<(String, Option<u32>)>;
    let mut ctors: FxHashMap<(u8, u32), Ctor> = FxHashMap::default();
    for row in 1..=t.rows(T::CustomAttribute) {
        let Some((ptable, prow)) = t
            .cell(T::CustomAttribute, row, 0)
            .and_then(|c| Coded::HasCustomAttribute.decode(c))
        else {
            continue;
        };
        let Some((ctor_table, ctor_row)) = t
            .cell(T::CustomAttribute, row, 1)
            .and_then(|c| Coded::CustomAttributeType.decode(c))
        else {
            continue;
        };
        let ctor = ctors
            .entry((ctor_table as u8, ctor_row))
            .or_insert_with(|| {
                let (key, sig_blob) = match ctor_table {
                    T::MethodDef => {
                        let owner = s.method_owner.get(ctor_row as usize).copied().unwrap_or(0);
                        (
                            type_key(t, T::TypeDef, owner, 0),
                            t.cell(T::MethodDef, ctor_row, 4),
                        )
                    }
                    _ => {
                        let class = t
                            .cell(T::MemberRef, ctor_row, 0)
                            .and_then(|c| Coded::MemberRefParent.decode(c));
                        let key = match class {
                            Some((table @ (T::TypeRef | T::TypeDef), row)) => {
                                type_key(t, table, row, 0)
                            }
                            _ => None,
                        };
                        (key, t.cell(T::MemberRef, ctor_row, 2))
                    }
                };
                let key = key?;
                let last = key.rsplit(['.', '+']).next().unwrap_or(&key);
                let simple = last.strip_suffix("Attribute").unwrap_or(last);
                wanted_attr(simple).then(|| (simple.to_string(), sig_blob))
            });
        let Some((simple, sig_blob)) = ctor else {
            continue;
        };
        let args = sig_blob
            .and_then(|b| t.blob(b))
            .and_then(|b| SigReader::new(t, b).method())
            .zip(t.cell(T::CustomAttribute, row, 2).and_then(|b| t.blob(b)))
            .and_then(|(ctor, value)| attr_args(&ctor, value));
        s.attrs
            .entry((ptable as u8, prow))
            .or_default()
            .push(MetaAttr {
                name: simple.clone(),
                args,
            });
    }
}

impl Reader<'_, '_> {
    fn attrs_of(&self, table: T, row: u32) -> Vec<MetaAttr> {
        self.s
            .attrs
            .get(&(table as u8, row))
            .cloned()
            .unwrap_or_default()
    }

    fn has_attr(attrs: &[MetaAttr], name: &str) -> bool {
        attrs.iter().any(|a| a.name == name)
    }

    /// The generic parameters of a TypeDef or MethodDef row in order: their
    /// GenericParam rows and names (those without one are left out).
    fn generics(&self, table: T, row: u32) -> Vec<(u32, &str)> {
        let mut g = self
            .s
            .generics
            .get(&(table as u8, row))
            .cloned()
            .unwrap_or_default();
        g.sort_by_key(|(n, _)| *n);
        g.into_iter()
            .filter_map(|(_, p)| Some((p, self.t.string(self.t.cell(T::GenericParam, p, 3)?)?)))
            .collect()
    }

    fn generic_names(&self, table: T, row: u32) -> Vec<String> {
        self.generics(table, row)
            .into_iter()
            .map(|(_, name)| name.to_string())
            .collect()
    }

    /// The types each generic parameter ([`Self::generic_names`]) is bound
    /// by (`where T : IDisposable`). `class`, `struct` and `new()` are not
    /// types, and the parser leaves them out of source constraints: so is the
    /// `System.ValueType` that `struct` (and `unmanaged`) compile to.
    fn bounds(&self, table: T, row: u32) -> Vec<Vec<Sig>> {
        self.generics(table, row)
            .into_iter()
            .map(|(p, _)| {
                let value_type = self
                    .t
                    .cell(T::GenericParam, p, 1)
                    .is_some_and(|flags| flags & 0x8 != 0);
                self.s
                    .constraints
                    .get(&p)
                    .into_iter()
                    .flatten()
                    .filter_map(|&c| self.coded_type(c))
                    .filter(|b| {
                        !(value_type
                            && matches!(b, Sig::Named { key, .. } if key == "System.ValueType"))
                    })
                    .collect()
            })
            .collect()
    }

    /// The public and nested-public types, with the InterfaceImpl rows of each TypeDef.
    fn types(&self, impls: &FxHashMap<u32, Vec<u32>>) -> Vec<MetaType> {
        let t = self.t;
        let n = t.rows(T::TypeDef);
        // Which rows are visible from other assemblies, outer types first.
        let mut visible = vec![false; n as usize + 1];
        let mut index_of: FxHashMap<u32, usize> = FxHashMap::default();
        let mut out = Vec::new();
        let mut order: Vec<u32> = (1..=n).collect();
        // Nesting depth first, so that an outer type gets its index before its nested ones.
        let depth = |mut row: u32| {
            let mut d = 0;
            while let Some(o) = t.enclosing(row) {
                d += 1;
                row = o;
                if d > 64 {
                    break;
                }
            }
            d
        };
        order.sort_by_key(|&row| depth(row));
        for row in order {
            let Some(flags) = t.cell(T::TypeDef, row, 0) else {
                continue;
            };
            let outer = t.enclosing(row);
            let vis = flags & 7;
            let ok = match outer {
                None => vis == 1,
                Some(o) => vis == 2 && visible.get(o as usize).copied().unwrap_or(false),
            };
            if !ok {
                continue;
            }
            let Some(key) = type_key(t, T::TypeDef, row, 0) else {
                continue;
            };
            let Some(ty) = self.type_def(
                row,
                flags,
                key,
                outer.and_then(|o| index_of.get(&o).copied()),
                impls,
            ) else {
                continue;
            };
            visible[row as usize] = true;
            index_of.insert(row, out.len());
            out.push(ty);
        }
        out
    }

    fn type_def(
        &self,
        row: u32,
        flags: u32,
        key: String,
        outer: Option<usize>,
        impls: &FxHashMap<u32, Vec<u32>>,
    ) -> Option<MetaType> {
        let t = self.t;
        let base = t
            .cell(T::TypeDef, row, 3)
            .filter(|&c| c != 0)
            .and_then(|c| self.coded_type(c));
        let base_key = match &base {
            Some(Sig::Named { key, .. }) => key.as_str(),
            _ => "",
        };
        let kind = if flags & 0x20 != 0 {
            MetaKind::Interface
        } else if base_key == "System.Enum" {
            MetaKind::Enum
        } else if base_key == "System.ValueType" && key != "System.Enum" {
            MetaKind::Struct
        } else if base_key == "System.MulticastDelegate" {
            MetaKind::Delegate
        } else {
            MetaKind::Class
        };
        let interfaces = impls
            .get(&row)
            .into_iter()
            .flatten()
            .filter_map(|&i| {
                t.cell(T::InterfaceImpl, i, 1)
                    .and_then(|c| self.coded_type(c))
            })
            .collect();
        Some(MetaType {
            key,
            outer,
            kind,
            is_abstract: flags & 0x80 != 0,
            is_sealed: flags & 0x100 != 0,
            type_params: self.generic_names(T::TypeDef, row),
            base: base.filter(|_| kind == MetaKind::Class),
            interfaces,
            attrs: self.attrs_of(T::TypeDef, row),
            row,
        })
    }

    /// The public and protected members of TypeDef `row`.
    fn members(&self, row: u32, kind: MetaKind) -> Vec<MetaMember> {
        let t = self.t;
        let mut members = Vec::new();
        for f in t.list(T::TypeDef, row, 4, T::Field) {
            if let Some(m) = self.field(f, kind) {
                members.push(m);
            }
        }
        for m in t.list(T::TypeDef, row, 5, T::MethodDef) {
            if self.s.is_accessor.get(m as usize).copied().unwrap_or(true) {
                continue;
            }
            if let Some(m) = self.method(m) {
                members.push(m);
            }
        }
        if let Some(&pm) = self.s.maps.get(&(T::PropertyMap as u8, row)) {
            for p in t.list(T::PropertyMap, pm, 1, T::Property) {
                if let Some(m) = self.property(p) {
                    members.push(m);
                }
            }
        }
        if let Some(&em) = self.s.maps.get(&(T::EventMap as u8, row)) {
            for e in t.list(T::EventMap, em, 1, T::Event) {
                if let Some(m) = self.event(e) {
                    members.push(m);
                }
            }
        }
        members
    }

    fn coded_type(&self, coded: u32) -> Option<Sig> {
        let (table, row) = Coded::TypeDefOrRef.decode(coded)?;
        match table {
            T::TypeSpec => {
                let blob = self.t.blob(self.t.cell(T::TypeSpec, row, 0)?)?;
                SigReader::new(self.t, blob).ty(0)
            }
            _ => Some(Sig::Named {
                key: type_key(self.t, table, row, 0)?,
                args: Vec::new(),
            }),
        }
    }

    fn field(&self, row: u32, kind: MetaKind) -> Option<MetaMember> {
        let t = self.t;
        let flags = t.cell(T::Field, row, 0)?;
        let name = t.string(t.cell(T::Field, row, 1)?)?;
        let access = access(flags)?;
        let is_static = flags & 0x10 != 0;
        let is_const = flags & 0x40 != 0;
        if kind == MetaKind::Enum {
            return (is_static && is_const).then(|| MetaMember::EnumValue(name.to_string()));
        }
        let ty = SigReader::new(t, t.blob(t.cell(T::Field, row, 2)?)?).field()?;
        Some(MetaMember::Field {
            name: name.to_string(),
            ty,
            access,
            is_static,
            is_const,
            attrs: self.attrs_of(T::Field, row),
        })
    }

    fn params(&self, method: u32, sig: &MethodSig) -> (Vec<MetaParam>, Vec<MetaAttr>) {
        let t = self.t;
        let mut params: Vec<MetaParam> = sig
            .params
            .iter()
            .enumerate()
            .map(|(i, ty)| MetaParam::new(format!("p{i}"), ty.clone()))
            .collect();
        let mut ret_attrs = Vec::new();
        for p in t.list(T::MethodDef, method, 5, T::Param) {
            let (Some(flags), Some(seq)) = (t.cell(T::Param, p, 0), t.cell(T::Param, p, 1)) else {
                continue;
            };
            let attrs = self.attrs_of(T::Param, p);
            if seq == 0 {
                ret_attrs = attrs;
                continue;
            }
            let Some(param) = params.get_mut(seq as usize - 1) else {
                continue;
            };
            if let Some(name) = t.cell(T::Param, p, 2).and_then(|s| t.string(s))
                && !name.is_empty()
            {
                param.name = name.to_string();
            }
            let by_ref = matches!(param.ty, Sig::ByRef(_));
            param.is_out = by_ref && flags & 0x2 != 0 && flags & 0x1 == 0;
            param.is_in = by_ref && Self::has_attr(&attrs, "IsReadOnly");
            param.is_params = Self::has_attr(&attrs, "ParamArray");
            if flags & 0x1010 != 0 {
                param.default = Some(self.constant(p, &param.ty));
            }
            param.attrs = attrs;
        }
        (params, ret_attrs)
    }

    /// A parameter's default value.
    fn constant(&self, param: u32, ty: &Sig) -> ConstValue {
        let value = self
            .s
            .constants
            .get(&param)
            .and_then(|&(kind, blob)| Some((kind, self.t.blob(blob)?)));
        match (value, ty) {
            (Some((0x02, [b, ..])), _) => ConstValue::Bool(*b != 0),
            (Some((0x08, b)), Sig::Keyword("int")) if b.len() == 4 => {
                ConstValue::Int(i32::from_le_bytes([b[0], b[1], b[2], b[3]]).into())
            }
            (Some((0x12, _)), _) => ConstValue::Null,
            _ => ConstValue::Other,
        }
    }

    fn method(&self, row: u32) -> Option<MetaMember> {
        let t = self.t;
        let flags = t.cell(T::MethodDef, row, 2)?;
        let access = access(flags)?;
        let name = t.string(t.cell(T::MethodDef, row, 3)?)?;
        if name == ".cctor" || (flags & 0x800 != 0 && name != ".ctor" && !name.starts_with("op_")) {
            return None;
        }
        let sig = SigReader::new(t, t.blob(t.cell(T::MethodDef, row, 4)?)?).method()?;
        let (params, ret_attrs) = self.params(row, &sig);
        let attrs = self.attrs_of(T::MethodDef, row);
        let is_virtual = flags & 0x40 != 0;
        let new_slot = flags & 0x100 != 0;
        Some(MetaMember::Method {
            name: name.to_string(),
            access,
            is_static: flags & 0x10 != 0,
            is_abstract: flags & 0x400 != 0,
            is_virtual: is_virtual && new_slot && flags & 0x20 == 0,
            is_override: is_virtual && !new_slot,
            is_extension: Self::has_attr(&attrs, "Extension"),
            type_params: self.generic_names(T::MethodDef, row),
            bounds: self.bounds(T::MethodDef, row),
            ret: sig.ret,
            ret_attrs,
            params,
            attrs,
        })
    }

    fn property(&self, row: u32) -> Option<MetaMember> {
        let t = self.t;
        let name = t.string(t.cell(T::Property, row, 1)?)?;
        let sig = SigReader::new(t, t.blob(t.cell(T::Property, row, 2)?)?).method()?;
        let (getter, setter) = self
            .s
            .accessors
            .get(&(T::Property as u8, row))
            .copied()
            .unwrap_or_default();
        let visible =
            |m: Option<u32>| m.and_then(|m| Some((m, access(t.cell(T::MethodDef, m, 2)?)?)));
        let (get, set) = (visible(getter), visible(setter));
        let (first, _) = get.or(set)?;
        let access = match (get, set) {
            (Some((_, Access::Public)), _) | (_, Some((_, Access::Public))) => Access::Public,
            _ => Access::Protected,
        };
        let flags = t.cell(T::MethodDef, first, 2)?;
        // An indexer's parameters are the getter's (or the setter's but its value).
        let params = match get {
            Some((g, _)) => {
                let gsig = SigReader::new(t, t.blob(t.cell(T::MethodDef, g, 4)?)?).method()?;
                self.params(g, &gsig).0
            }
            None => {
                let ssig = SigReader::new(t, t.blob(t.cell(T::MethodDef, first, 4)?)?).method()?;
                let mut p = self.params(first, &ssig).0;
                p.pop();
                p
            }
        };
        Some(MetaMember::Property {
            name: name.to_string(),
            ty: sig.ret,
            access,
            is_static: flags & 0x10 != 0,
            params,
            get: get.is_some(),
            set: set.is_some(),
            attrs: self.attrs_of(T::Property, row),
        })
    }

    /// An event, public or protected as its accessors are (C# gives both one
    /// access), static as they are.
    fn event(&self, row: u32) -> Option<MetaMember> {
        let t = self.t;
        let name = t.string(t.cell(T::Event, row, 1)?)?;
        let (add, remove) = self
            .s
            .accessors
            .get(&(T::Event as u8, row))
            .copied()
            .unwrap_or_default();
        let flags = t.cell(T::MethodDef, add.or(remove)?, 2)?;
        Some(MetaMember::Event {
            name: name.to_string(),
            ty: self.coded_type(t.cell(T::Event, row, 2)?)?,
            access: access(flags)?,
            is_static: flags & 0x10 != 0,
            attrs: self.attrs_of(T::Event, row),
        })
    }
}

/// Public or protected from a member's flags; `None` for the others.
fn access(flags: u32) -> Option<Access> {
    match flags & 7 {
        6 => Some(Access::Public),
        4 | 5 => Some(Access::Protected),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use std::io::Cursor;

    use super::*;

    const FIXTURE: &[u8] = include_bytes!("../../../cli/tests/fixtures/metadata/Acme.Client.dll");

    #[test]
    fn reads_types_members_signatures_and_spec_attributes() {
        let asm = read(&mut Cursor::new(FIXTURE)).unwrap();
        let keys: Vec<&str> = asm.types.iter().map(|t| t.key.as_str()).collect();
        assert!(keys.contains(&"Acme.Client.Connection"), "{keys:?}");
        let conn = asm
            .types
            .iter()
            .find(|t| t.key == "Acme.Client.Connection")
            .unwrap();
        assert_eq!(conn.kind, MetaKind::Class);
        assert!(conn.is_sealed);
        assert_eq!(
            conn.interfaces,
            vec![Sig::Named {
                key: "System.IDisposable".into(),
                args: vec![]
            }]
        );
        let pool = asm.types.iter().position(|t| t.key == "Acme.Client.Pool");
        let borrow = asm.members(pool.unwrap()).iter().find_map(|m| match m {
            MetaMember::Method {
                name, ret, attrs, ..
            } if name == "Borrow" => Some((ret, attrs)),
            _ => None,
        });
        // `[NotOwning]` on the method, as written in the library's source.
        let (ret, attrs) = borrow.unwrap();
        assert!(matches!(ret, Sig::Named { key, .. } if key == "Acme.Client.Connection"));
        assert_eq!(attrs[0].name, "NotOwning");
        let factory = asm
            .types
            .iter()
            .find(|t| t.key == "Acme.Client.ConnectionFactory")
            .unwrap();
        assert!(factory.is_abstract && factory.is_sealed, "a static class");
        let files = stubs::generate(
            &[&asm],
            &|n| n == "Pool" || n == "Borrow",
            &Default::default(),
        );
        assert_eq!(files.len(), 1);
        let (a, file) = &files[0];
        assert_eq!(*a, 0);
        // `Pool` and the `Connection` its `Borrow` returns.
        let names: Vec<&str> = file.types.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["Connection", "Pool"]);
        assert_eq!(file.scope(file.types[1].scope).name, ["Acme", "Client"]);
        let borrow = file.types[1].members.iter().find(|m| m.name == "Borrow");
        let borrow = borrow.unwrap();
        assert_eq!(borrow.attrs[0].name, "NotOwning");
        assert_eq!(borrow.modifiers, crate::hir::Modifiers::PUBLIC);
        let segments: Vec<&str> = match &borrow.ty {
            Some(crate::hir::TypeRef::Path {
                qualifier: Some(q),
                segments,
            }) if q == "global" => segments.iter().map(|s| s.name.as_str()).collect(),
            other => panic!("{other:?}"),
        };
        assert_eq!(segments, ["Acme", "Client", "Connection"]);
    }

    /// Events (public, protected and static; a private one is not read) and
    /// the types' and methods' constraints, as written in the library's source.
    #[test]
    fn reads_events_and_constraints() {
        let asm = read(&mut Cursor::new(FIXTURE)).unwrap();
        let at = |key: &str| asm.types.iter().position(|t| t.key == key).unwrap();
        let named = |key: &str, args: Vec<Sig>| Sig::Named {
            key: key.into(),
            args,
        };
        let events = |t: usize| -> Vec<(String, Sig, Access, bool)> {
            asm.members(t)
                .iter()
                .filter_map(|m| match m {
                    MetaMember::Event {
                        name,
                        ty,
                        access,
                        is_static,
                        ..
                    } => Some((name.clone(), ty.clone(), *access, *is_static)),
                    _ => None,
                })
                .collect()
        };
        let handler = named("System.EventHandler", vec![]);
        assert_eq!(
            events(at("Acme.Client.Connection")),
            [("Closed".into(), handler.clone(), Access::Public, false)]
        );
        assert_eq!(
            events(at("Acme.Client.ConnectionFactory")),
            [("Reset".into(), handler, Access::Public, true)]
        );
        let args = vec![named("System.EventArgs", vec![])];
        assert_eq!(
            events(at("Acme.Client.Pool")),
            [(
                "Drained".into(),
                named("System.EventHandler`1", args),
                Access::Protected,
                false
            )]
        );
        // The accessors are the event's, not methods.
        let names: Vec<&str> = asm
            .members(at("Acme.Client.Connection"))
            .iter()
            .filter_map(|m| match m {
                MetaMember::Method { name, .. } => Some(name.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(names, [".ctor", "Send", "Dispose"]);

        // `where TKey : class, IComparable<TKey> where TValue : struct`: the
        // `System.ValueType` that `struct` compiles to is not a bound.
        let cache = at("Acme.Client.Cache`2");
        assert_eq!(asm.types[cache].type_params, ["TKey", "TValue"]);
        let comparable = named("System.IComparable`1", vec![Sig::TypeParam(0)]);
        assert_eq!(asm.bounds(cache), [vec![comparable], vec![]]);
        let bounds = |t: usize, method: &str| {
            asm.members(t).iter().find_map(|m| match m {
                MetaMember::Method { name, bounds, .. } if name == method => Some(bounds.clone()),
                _ => None,
            })
        };
        // `where TOther : TKey`; `where T : IDisposable, new()`.
        assert_eq!(bounds(cache, "Get"), Some(vec![vec![Sig::TypeParam(0)]]));
        let disposable = named("System.IDisposable", vec![]);
        assert_eq!(
            bounds(at("Acme.Client.ConnectionFactory"), "Create"),
            Some(vec![vec![disposable]])
        );
    }

    /// The declarations of events and constraints are the parser's for the
    /// same C#: field-like events, `where` clauses with the types only. (The
    /// parser keeps `where TValue : struct` as a clause without bounds, which
    /// the index skips: none is declared, so the C# below leaves it out.)
    #[test]
    fn events_and_constraints_are_declared_as_the_parser_declares_them() {
        let asm = read(&mut Cursor::new(FIXTURE)).unwrap();
        let used = [
            "Connection",
            "Closed",
            "Hidden",
            "ConnectionFactory",
            "Reset",
            "Create",
            "Cache",
            "Get",
            "Pool",
            "Drained",
        ];
        let files = stubs::generate(&[&asm], &|n| used.contains(&n), &Default::default());
        let source = r#"namespace Acme.Client {
            public sealed class Connection : global::System.IDisposable {
                public event global::System.EventHandler Closed;
            }
            public static class ConnectionFactory {
                public static event global::System.EventHandler Reset;
                public static T Create<T>() where T : global::System.IDisposable, new();
            }
            public class Cache<TKey, TValue> where TKey : class, global::System.IComparable<TKey> {
                public TValue Get<TOther>(TKey key) where TOther : TKey;
            }
            public class Pool {
                protected event global::System.EventHandler<global::System.EventArgs> Drained;
            }
        }"#;
        let parsed = crate::parse::parse_file(source, &Default::default());
        // Declarations' lines without their numbering (which scopes the files have).
        let lines = |file: &crate::hir::FileSyntax| -> Vec<String> {
            crate::hir::dump(file, "")
                .lines()
                .filter(|l| l.starts_with("type#") || l.starts_with("  "))
                .map(|l| {
                    l.split(' ')
                        .filter(|w| !w.starts_with("type#") && !w.starts_with("scope#"))
                        .collect::<Vec<_>>()
                        .join(" ")
                })
                .collect()
        };
        let generated = lines(&files[0].1);
        for line in lines(&parsed) {
            assert!(generated.contains(&line), "{line}: {generated:#?}");
        }
        assert!(
            !generated.iter().any(|l| l.contains("Hidden")),
            "{generated:#?}"
        );
    }

    /// Overlaid on a model type, a package type's event that the model has
    /// (by name) is the model's; one it lacks is added.
    #[test]
    fn an_overlay_adds_the_events_the_model_lacks() {
        let asm = read(&mut Cursor::new(FIXTURE)).unwrap();
        let factory = stubs::ModelType {
            values: ["Reset".to_string()].into_iter().collect(),
            ..Default::default()
        };
        let model = [
            ("Acme.Client.Connection".to_string(), Default::default()),
            ("Acme.Client.ConnectionFactory".to_string(), factory),
        ]
        .into_iter()
        .collect();
        let used = [
            "Connection",
            "Closed",
            "ConnectionFactory",
            "Reset",
            "Create",
        ];
        let files = stubs::generate(&[&asm], &|n| used.contains(&n), &model);
        let members = |ty: &str| -> Vec<(crate::hir::MemberKind, String)> {
            let decl = files[0].1.types.iter().find(|t| t.name == ty).unwrap();
            decl.members
                .iter()
                .map(|m| (m.kind, m.name.to_string()))
                .collect()
        };
        use crate::hir::MemberKind::{Event, Method};
        assert!(members("Connection").contains(&(Event, "Closed".into())));
        assert_eq!(members("ConnectionFactory"), [(Method, "Create".into())]);
    }

    #[test]
    fn every_truncation_is_an_error_not_a_panic() {
        for cut in 0..FIXTURE.len() {
            // Members and constraints too: a type's are decoded when asked for.
            if let Ok(asm) = read(&mut Cursor::new(&FIXTURE[..cut])) {
                let members: usize = (0..asm.types.len())
                    .map(|t| asm.members(t).len() + asm.bounds(t).len())
                    .sum();
                assert!(members < cut, "cut at {cut}");
            }
        }
        assert!(
            read(&mut Cursor::new(&FIXTURE[..0x300]))
                .unwrap_err()
                .contains("truncated")
        );
        assert!(read(&mut Cursor::new(b"MZ")).is_err());
    }

    /// Any byte of the metadata set to 0x00 or 0xFF (row counts, indexes into
    /// the tables and heaps, flags, signatures) is read, decoded and declared
    /// without a panic.
    #[test]
    fn every_corrupted_metadata_byte_is_survived() {
        let start = FIXTURE.windows(4).position(|w| w == b"BSJB").unwrap();
        for at in start..FIXTURE.len() {
            for byte in [0x00, 0xFF] {
                let mut bytes = FIXTURE.to_vec();
                bytes[at] = byte;
                // Every type named: all are declared, their members and constraints decoded.
                if let Ok(asm) = read(&mut Cursor::new(bytes)) {
                    stubs::generate(&[&asm], &|_| true, &Default::default());
                }
            }
        }
    }
}
