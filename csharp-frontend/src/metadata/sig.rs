//! Signature blobs (Partition II, 23.2): the types of fields, properties,
//! method returns and parameters, and custom attribute arguments.

use super::reader::{Coded, T, Tables, compressed};

/// A type as a signature states it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sig {
    /// A C# keyword type (`int`, `string`, `object`, `void`, ...).
    Keyword(&'static str),
    /// A type definition or reference by metadata key (``Ns.Outer`1+Inner``)
    /// with all its generic arguments, outer types' first.
    Named {
        key: String,
        args: Vec<Sig>,
    },
    /// The n-th generic parameter of the type (`!n`) or method (`!!n`).
    TypeParam(u32),
    MethodParam(u32),
    Array(Box<Sig>, u32),
    Pointer(Box<Sig>),
    ByRef(Box<Sig>),
    /// Something C# cannot name here (function pointers, typed references).
    Unsupported,
}

/// A method's or property's signature.
#[derive(Clone, Debug)]
pub struct MethodSig {
    pub has_this: bool,
    pub generic_arity: u32,
    pub ret: Sig,
    pub params: Vec<Sig>,
}

const MAX_DEPTH: u32 = 64;

pub struct SigReader<'t, 'a> {
    pub tables: &'t Tables<'a>,
    pub data: &'a [u8],
    pub at: usize,
}

impl<'t, 'a> SigReader<'t, 'a> {
    pub fn new(tables: &'t Tables<'a>, data: &'a [u8]) -> Self {
        SigReader {
            tables,
            data,
            at: 0,
        }
    }

    fn byte(&mut self) -> Option<u8> {
        let b = *self.data.get(self.at)?;
        self.at += 1;
        Some(b)
    }

    fn peek(&self) -> Option<u8> {
        self.data.get(self.at).copied()
    }

    fn uint(&mut self) -> Option<u32> {
        compressed(self.data, &mut self.at)
    }

    /// A method signature (`MethodDefSig`, `MethodRefSig`) or a property's (`PropertySig`).
    pub fn method(&mut self) -> Option<MethodSig> {
        let conv = self.byte()?;
        let generic_arity = if conv & 0x10 != 0 { self.uint()? } else { 0 };
        let count = self.uint()?;
        let ret = self.param()?;
        // Each parameter takes at least one byte: a count past the blob is corrupt.
        if count as usize > self.data.len() {
            return None;
        }
        let mut params = Vec::with_capacity(count as usize);
        for _ in 0..count {
            if self.peek() == Some(0x41) {
                // The sentinel of a vararg call site.
                self.at += 1;
            }
            params.push(self.param()?);
        }
        Some(MethodSig {
            has_this: conv & 0x20 != 0,
            generic_arity,
            ret,
            params,
        })
    }

    /// A field signature's type.
    pub fn field(&mut self) -> Option<Sig> {
        (self.byte()? == 0x06).then_some(())?;
        self.param()
    }

    fn skip_mods(&mut self) -> Option<()> {
        while matches!(self.peek(), Some(0x1F | 0x20)) {
            self.at += 1;
            self.uint()?;
        }
        Some(())
    }

    fn param(&mut self) -> Option<Sig> {
        self.skip_mods()?;
        match self.peek()? {
            0x10 => {
                self.at += 1;
                Some(Sig::ByRef(Box::new(self.ty(0)?)))
            }
            0x16 => {
                self.at += 1;
                Some(Sig::Unsupported)
            }
            _ => self.ty(0),
        }
    }

    /// A `TypeDefOrRefOrSpecEncoded` as a type.
    fn type_def_or_ref(&mut self, args: Vec<Sig>, depth: u32) -> Option<Sig> {
        let coded = self.uint()?;
        let (table, row) = Coded::TypeDefOrRef.decode(coded)?;
        match table {
            T::TypeSpec => {
                let blob = self.tables.blob(self.tables.cell(T::TypeSpec, row, 0)?)?;
                let mut inner = SigReader::new(self.tables, blob);
                inner.ty(depth + 1)
            }
            _ => Some(Sig::Named {
                key: type_key(self.tables, table, row, 0)?,
                args,
            }),
        }
    }

    pub fn ty(&mut self, depth: u32) -> Option<Sig> {
        if depth > MAX_DEPTH {
            return None;
        }
        self.skip_mods()?;
        let k = |s| Some(Sig::Keyword(s));
        match self.byte()? {
            0x01 => k("void"),
            0x02 => k("bool"),
            0x03 => k("char"),
            0x04 => k("sbyte"),
            0x05 => k("byte"),
            0x06 => k("short"),
            0x07 => k("ushort"),
            0x08 => k("int"),
            0x09 => k("uint"),
            0x0A => k("long"),
            0x0B => k("ulong"),
            0x0C => k("float"),
            0x0D => k("double"),
            0x0E => k("string"),
            0x18 => k("nint"),
            0x19 => k("nuint"),
            0x1C => k("object"),
            0x0F => Some(Sig::Pointer(Box::new(self.ty(depth + 1)?))),
            0x10 => Some(Sig::ByRef(Box::new(self.ty(depth + 1)?))),
            0x11 | 0x12 => self.type_def_or_ref(Vec::new(), depth),
            0x13 => Some(Sig::TypeParam(self.uint()?)),
            0x1E => Some(Sig::MethodParam(self.uint()?)),
            0x14 => {
                let elem = self.ty(depth + 1)?;
                let rank = self.uint()?;
                let sizes = self.uint()?;
                for _ in 0..sizes {
                    self.uint()?;
                }
                let bounds = self.uint()?;
                for _ in 0..bounds {
                    self.uint()?;
                }
                Some(Sig::Array(Box::new(elem), rank.max(1)))
            }
            0x1D => Some(Sig::Array(Box::new(self.ty(depth + 1)?), 1)),
            0x15 => {
                let kind = self.byte()?;
                if !matches!(kind, 0x11 | 0x12) {
                    return None;
                }
                let coded = self.uint()?;
                let count = self.uint()?;
                if count as usize > self.data.len() {
                    return None;
                }
                let mut args = Vec::with_capacity(count as usize);
                for _ in 0..count {
                    args.push(self.ty(depth + 1)?);
                }
                let (table, row) = Coded::TypeDefOrRef.decode(coded)?;
                (table != T::TypeSpec).then_some(())?;
                Some(Sig::Named {
                    key: type_key(self.tables, table, row, 0)?,
                    args,
                })
            }
            0x1B => {
                self.method()?;
                Some(Sig::Unsupported)
            }
            0x16 => Some(Sig::Unsupported),
            _ => None,
        }
    }
}

/// The metadata key (``Ns.Outer`1+Inner``) of a TypeDef or TypeRef row.
pub fn type_key(tables: &Tables<'_>, table: T, row: u32, depth: u32) -> Option<String> {
    if depth > MAX_DEPTH {
        return None;
    }
    match table {
        T::TypeDef => {
            let name = tables.string(tables.cell(T::TypeDef, row, 1)?)?;
            match tables.enclosing(row) {
                Some(outer) => Some(format!(
                    "{}+{name}",
                    type_key(tables, T::TypeDef, outer, depth + 1)?
                )),
                None => {
                    let ns = tables.string(tables.cell(T::TypeDef, row, 2)?)?;
                    Some(join_ns(ns, name))
                }
            }
        }
        T::TypeRef => {
            let name = tables.string(tables.cell(T::TypeRef, row, 1)?)?;
            let scope = tables.cell(T::TypeRef, row, 0)?;
            match Coded::ResolutionScope.decode(scope) {
                Some((T::TypeRef, outer)) if outer != 0 => Some(format!(
                    "{}+{name}",
                    type_key(tables, T::TypeRef, outer, depth + 1)?
                )),
                _ => {
                    let ns = tables.string(tables.cell(T::TypeRef, row, 2)?)?;
                    Some(join_ns(ns, name))
                }
            }
        }
        _ => None,
    }
}

fn join_ns(ns: &str, name: &str) -> String {
    if ns.is_empty() {
        name.to_string()
    } else {
        format!("{ns}.{name}")
    }
}

/// A fixed argument of a custom attribute blob: what the spec attributes take.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AttrArg {
    Bool(bool),
    Str(Option<String>),
    Strings(Vec<Option<String>>),
}

/// The fixed arguments of a custom attribute value, by its constructor's
/// signature; `None` when a parameter is not a bool, string or string array.
pub fn attr_args(ctor: &MethodSig, value: &[u8]) -> Option<Vec<AttrArg>> {
    if value.get(0..2) != Some(&[1, 0]) {
        return None;
    }
    let mut at = 2;
    let mut out = Vec::new();
    for p in &ctor.params {
        match p {
            Sig::Keyword("bool") => {
                out.push(AttrArg::Bool(*value.get(at)? != 0));
                at += 1;
            }
            Sig::Keyword("string") => out.push(AttrArg::Str(ser_string(value, &mut at)?)),
            Sig::Array(elem, 1) if **elem == Sig::Keyword("string") => {
                let count = u32::from_le_bytes(value.get(at..at + 4)?.try_into().ok()?);
                at += 4;
                let mut items = Vec::new();
                if count != u32::MAX {
                    if count as usize > value.len() {
                        return None;
                    }
                    for _ in 0..count {
                        items.push(ser_string(value, &mut at)?);
                    }
                }
                out.push(AttrArg::Strings(items));
            }
            _ => return None,
        }
    }
    Some(out)
}

fn ser_string(d: &[u8], at: &mut usize) -> Option<Option<String>> {
    if d.get(*at) == Some(&0xFF) {
        *at += 1;
        return Some(None);
    }
    let len = compressed(d, at)? as usize;
    let s = d.get(*at..at.checked_add(len)?)?;
    *at += len;
    Some(Some(std::str::from_utf8(s).ok()?.to_string()))
}
