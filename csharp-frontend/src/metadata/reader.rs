//! The ECMA-335 tables of a PE file: the CLI header, the metadata root, the
//! `#Strings`/`#Blob` heaps and the `#~` tables stream (Partition II, 22-24).
//! Every read is bounds-checked and returns `None` or an error past the end:
//! a truncated or corrupt file is an error message, never a panic, and
//! nothing is allocated from a count the file states before that count is
//! checked against the file's size.

use std::io::{Read, Seek, SeekFrom};

/// The tables named by other tables' columns (Partition II, 22); [`schema`]
/// lays out all of them by number.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum T {
    Module = 0x00,
    TypeRef = 0x01,
    TypeDef = 0x02,
    Field = 0x04,
    MethodDef = 0x06,
    Param = 0x08,
    InterfaceImpl = 0x09,
    MemberRef = 0x0A,
    Constant = 0x0B,
    CustomAttribute = 0x0C,
    DeclSecurity = 0x0E,
    StandAloneSig = 0x11,
    EventMap = 0x12,
    Event = 0x14,
    PropertyMap = 0x15,
    Property = 0x17,
    MethodSemantics = 0x18,
    ModuleRef = 0x1A,
    TypeSpec = 0x1B,
    Assembly = 0x20,
    AssemblyRef = 0x23,
    File = 0x26,
    ExportedType = 0x27,
    ManifestResource = 0x28,
    NestedClass = 0x29,
    GenericParam = 0x2A,
    MethodSpec = 0x2B,
    GenericParamConstraint = 0x2C,
}

const TABLE_COUNT: usize = 0x2D;

/// Coded indexes (Partition II, 24.2.6): the tables a tag selects.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Coded {
    TypeDefOrRef,
    HasConstant,
    HasCustomAttribute,
    HasFieldMarshal,
    HasDeclSecurity,
    MemberRefParent,
    HasSemantics,
    MethodDefOrRef,
    MemberForwarded,
    Implementation,
    CustomAttributeType,
    ResolutionScope,
    TypeOrMethodDef,
}

impl Coded {
    /// The tables by tag (`None`: a tag the standard leaves unused).
    pub fn tables(self) -> &'static [Option<T>] {
        use T::*;
        match self {
            Coded::TypeDefOrRef => &[Some(TypeDef), Some(TypeRef), Some(TypeSpec)],
            Coded::HasConstant => &[Some(Field), Some(Param), Some(Property)],
            Coded::HasCustomAttribute => &[
                Some(MethodDef),
                Some(Field),
                Some(TypeRef),
                Some(TypeDef),
                Some(Param),
                Some(InterfaceImpl),
                Some(MemberRef),
                Some(Module),
                Some(DeclSecurity),
                Some(Property),
                Some(Event),
                Some(StandAloneSig),
                Some(ModuleRef),
                Some(TypeSpec),
                Some(Assembly),
                Some(AssemblyRef),
                Some(File),
                Some(ExportedType),
                Some(ManifestResource),
                Some(GenericParam),
                Some(GenericParamConstraint),
                Some(MethodSpec),
            ],
            Coded::HasFieldMarshal => &[Some(Field), Some(Param)],
            Coded::HasDeclSecurity => &[Some(TypeDef), Some(MethodDef), Some(Assembly)],
            Coded::MemberRefParent => &[
                Some(TypeDef),
                Some(TypeRef),
                Some(ModuleRef),
                Some(MethodDef),
                Some(TypeSpec),
            ],
            Coded::HasSemantics => &[Some(Event), Some(Property)],
            Coded::MethodDefOrRef => &[Some(MethodDef), Some(MemberRef)],
            Coded::MemberForwarded => &[Some(Field), Some(MethodDef)],
            Coded::Implementation => &[Some(File), Some(AssemblyRef), Some(ExportedType)],
            Coded::CustomAttributeType => &[None, None, Some(MethodDef), Some(MemberRef), None],
            Coded::ResolutionScope => &[
                Some(Module),
                Some(ModuleRef),
                Some(AssemblyRef),
                Some(TypeRef),
            ],
            Coded::TypeOrMethodDef => &[Some(TypeDef), Some(MethodDef)],
        }
    }

    fn tag_bits(self) -> u32 {
        let n = self.tables().len() as u32;
        32 - (n - 1).leading_zeros()
    }

    /// Splits a coded value into its table and 1-based row (0: null).
    pub fn decode(self, value: u32) -> Option<(T, u32)> {
        let bits = self.tag_bits();
        let tag = value & ((1 << bits) - 1);
        let table = (*self.tables().get(tag as usize)?)?;
        Some((table, value >> bits))
    }
}

/// A column's kind.
#[derive(Copy, Clone, Debug)]
enum Col {
    U8x2,
    U16,
    U32,
    Str,
    Guid,
    Blob,
    Idx(T),
    Code(Coded),
}

fn schema(t: usize) -> &'static [Col] {
    use Col::*;
    type C = super::reader::Coded;
    match t {
        0x00 => &[U16, Str, Guid, Guid, Guid],
        0x01 => &[Code(C::ResolutionScope), Str, Str],
        0x02 => &[
            U32,
            Str,
            Str,
            Code(C::TypeDefOrRef),
            Idx(T::Field),
            Idx(T::MethodDef),
        ],
        0x03 => &[Idx(T::Field)],
        0x04 => &[U16, Str, Blob],
        0x05 => &[Idx(T::MethodDef)],
        0x06 => &[U32, U16, U16, Str, Blob, Idx(T::Param)],
        0x07 => &[Idx(T::Param)],
        0x08 => &[U16, U16, Str],
        0x09 => &[Idx(T::TypeDef), Code(C::TypeDefOrRef)],
        0x0A => &[Code(C::MemberRefParent), Str, Blob],
        0x0B => &[U8x2, Code(C::HasConstant), Blob],
        0x0C => &[
            Code(C::HasCustomAttribute),
            Code(C::CustomAttributeType),
            Blob,
        ],
        0x0D => &[Code(C::HasFieldMarshal), Blob],
        0x0E => &[U16, Code(C::HasDeclSecurity), Blob],
        0x0F => &[U16, U32, Idx(T::TypeDef)],
        0x10 => &[U32, Idx(T::Field)],
        0x11 => &[Blob],
        0x12 => &[Idx(T::TypeDef), Idx(T::Event)],
        0x13 => &[Idx(T::Event)],
        0x14 => &[U16, Str, Code(C::TypeDefOrRef)],
        0x15 => &[Idx(T::TypeDef), Idx(T::Property)],
        0x16 => &[Idx(T::Property)],
        0x17 => &[U16, Str, Blob],
        0x18 => &[U16, Idx(T::MethodDef), Code(C::HasSemantics)],
        0x19 => &[
            Idx(T::TypeDef),
            Code(C::MethodDefOrRef),
            Code(C::MethodDefOrRef),
        ],
        0x1A => &[Str],
        0x1B => &[Blob],
        0x1C => &[U16, Code(C::MemberForwarded), Str, Idx(T::ModuleRef)],
        0x1D => &[U32, Idx(T::Field)],
        0x1E => &[U32, U32],
        0x1F => &[U32],
        0x20 => &[U32, U16, U16, U16, U16, U32, Blob, Str, Str],
        0x21 => &[U32],
        0x22 => &[U32, U32, U32],
        0x23 => &[U16, U16, U16, U16, U32, Blob, Str, Str, Blob],
        0x24 => &[U32, Idx(T::AssemblyRef)],
        0x25 => &[U32, U32, U32, Idx(T::AssemblyRef)],
        0x26 => &[U32, Str, Blob],
        0x27 => &[U32, U32, Str, Str, Code(C::Implementation)],
        0x28 => &[U32, U32, Str, Code(C::Implementation)],
        0x29 => &[Idx(T::TypeDef), Idx(T::TypeDef)],
        0x2A => &[U16, U16, Code(C::TypeOrMethodDef), Str],
        0x2B => &[Code(C::MethodDefOrRef), Blob],
        0x2C => &[Idx(T::GenericParam), Code(C::TypeDefOrRef)],
        _ => &[],
    }
}

#[derive(Clone, Debug, Default)]
struct Table {
    offset: usize,
    rows: u32,
    row_size: usize,
    /// (offset in the row, width) per column.
    cols: Vec<(usize, usize)>,
}

/// The metadata of one PE file, borrowed from its metadata root's bytes.
#[derive(Debug)]
pub struct Tables<'a> {
    strings: &'a [u8],
    blobs: &'a [u8],
    tables_data: &'a [u8],
    tables: Vec<Table>,
    /// The enclosing type of each TypeDef row (0: none), by row.
    enclosing: Vec<u32>,
}

fn u16_at(d: &[u8], o: usize) -> Option<u16> {
    Some(u16::from_le_bytes(
        d.get(o..o.checked_add(2)?)?.try_into().ok()?,
    ))
}

fn u32_at(d: &[u8], o: usize) -> Option<u32> {
    Some(u32::from_le_bytes(
        d.get(o..o.checked_add(4)?)?.try_into().ok()?,
    ))
}

fn u64_at(d: &[u8], o: usize) -> Option<u64> {
    Some(u64::from_le_bytes(
        d.get(o..o.checked_add(8)?)?.try_into().ok()?,
    ))
}

/// The metadata root of a PE file (Partition II, 25.3.3), read from it with
/// its headers and nothing else: an implementation assembly's IL and
/// resources are nearly half of it, and copying them into fresh memory
/// costs more than the reading that follows.
pub fn metadata_of(file: &mut (impl Read + Seek)) -> Result<Vec<u8>, String> {
    let bad = |what: &str| format!("not a .NET assembly: {what}");
    let len = file.seek(SeekFrom::End(0)).map_err(|e| e.to_string())?;
    // `size` bytes at `offset`, if the file has them (checked before any
    // allocation: the sizes are the file's word).
    let mut at = |offset: usize, size: usize| -> Option<Vec<u8>> {
        if offset.checked_add(size)? as u64 > len {
            return None;
        }
        let mut buf = vec![0; size];
        file.seek(SeekFrom::Start(offset as u64)).ok()?;
        file.read_exact(&mut buf).ok()?;
        Some(buf)
    };
    if at(0, 2).as_deref() != Some(b"MZ") {
        return Err(bad("no MZ header"));
    }
    let dos = at(0, 0x40).ok_or_else(|| bad("truncated DOS header"))?;
    let pe = u32_at(&dos, 0x3c).ok_or_else(|| bad("truncated DOS header"))? as usize;
    let head = at(pe, 24).filter(|h| h.starts_with(b"PE\0\0"));
    let head = head.ok_or_else(|| bad("no PE signature"))?;
    let sections = u16_at(&head, 6).ok_or_else(|| bad("truncated PE header"))? as usize;
    let opt_size = u16_at(&head, 20).ok_or_else(|| bad("truncated PE header"))? as usize;
    // The optional header, then the section table.
    let d = at(pe + 24, opt_size + sections * 40).ok_or_else(|| bad("truncated PE header"))?;
    let dirs = match u16_at(&d, 0) {
        Some(0x10b) => 96,
        Some(0x20b) => 112,
        _ => return Err(bad("unknown optional header")),
    };
    // The 15th data directory is the CLI header.
    let cli_rva = u32_at(&d, dirs + 14 * 8).ok_or_else(|| bad("truncated data directories"))?;
    if cli_rva == 0 || dirs + 15 * 8 > opt_size {
        return Err(bad("no CLI header (a native DLL)"));
    }
    let to_offset = |rva: u32| -> Option<usize> {
        (0..sections).find_map(|i| {
            let s = opt_size + i * 40;
            let va = u32_at(&d, s + 12)?;
            let size = u32_at(&d, s + 8)?.max(u32_at(&d, s + 16)?);
            let raw = u32_at(&d, s + 20)?;
            (rva >= va && rva - va < size).then(|| (rva - va) as usize + raw as usize)
        })
    };
    let cli = to_offset(cli_rva).ok_or_else(|| bad("CLI header outside every section"))?;
    let cli = at(cli, 16).ok_or_else(|| bad("truncated CLI header"))?;
    let md_rva = u32_at(&cli, 8).ok_or_else(|| bad("truncated CLI header"))?;
    let md_size = u32_at(&cli, 12).ok_or_else(|| bad("truncated CLI header"))? as usize;
    let md = to_offset(md_rva).ok_or_else(|| bad("metadata outside every section"))?;
    at(md, md_size)
        .ok_or_else(|| "truncated: the metadata runs past the end of the file".to_string())
}

impl<'a> Tables<'a> {
    /// Reads the tables of a metadata root ([`metadata_of`]).
    pub fn read(md: &'a [u8]) -> Result<Tables<'a>, String> {
        let truncated = || "truncated or corrupt metadata root".to_string();
        if u32_at(md, 0) != Some(0x424A_5342) {
            return Err("no metadata signature (BSJB)".into());
        }
        let version_len = u32_at(md, 12).ok_or_else(truncated)? as usize;
        let mut at = 16usize.checked_add(version_len).ok_or_else(truncated)?;
        let streams = u16_at(md, at + 2).ok_or_else(truncated)?;
        at += 4;
        let (mut strings, mut blobs, mut tables_data) = (None, None, None);
        for _ in 0..streams {
            let offset = u32_at(md, at).ok_or_else(truncated)? as usize;
            let size = u32_at(md, at + 4).ok_or_else(truncated)? as usize;
            at += 8;
            let name_start = at;
            let name_len = md
                .get(at..)
                .and_then(|rest| rest.iter().take(32).position(|&b| b == 0))
                .ok_or_else(truncated)?;
            let name = &md[name_start..name_start + name_len];
            // The name and its NUL, padded to 4 bytes.
            at = name_start + (name_len + 4) / 4 * 4;
            let data = md.get(offset..offset.saturating_add(size)).ok_or_else(|| {
                format!(
                    "truncated: stream `{}` runs past the metadata",
                    String::from_utf8_lossy(name)
                )
            })?;
            match name {
                b"#Strings" => strings = Some(data),
                b"#Blob" => blobs = Some(data),
                b"#~" => tables_data = Some(data),
                b"#-" => return Err("uncompressed metadata tables (#-) are not supported".into()),
                _ => {}
            }
        }
        let tables_data = tables_data.ok_or("no metadata tables stream (#~)")?;
        let mut tables = Tables {
            strings: strings.unwrap_or(&[]),
            blobs: blobs.unwrap_or(&[]),
            tables_data,
            tables: vec![Table::default(); TABLE_COUNT],
            enclosing: Vec::new(),
        };
        tables.layout()?;
        // The row count was checked against the stream's size.
        let mut enclosing = vec![0; tables.rows(T::TypeDef) as usize + 1];
        for row in 1..=tables.rows(T::NestedClass) {
            if let (Some(inner), Some(outer)) = (
                tables.cell(T::NestedClass, row, 0),
                tables.cell(T::NestedClass, row, 1),
            ) && let Some(slot) = enclosing.get_mut(inner as usize)
                && outer != inner
            {
                *slot = outer;
            }
        }
        tables.enclosing = enclosing;
        Ok(tables)
    }

    fn layout(&mut self) -> Result<(), String> {
        let d = self.tables_data;
        let truncated = || "truncated metadata tables header".to_string();
        let heap_sizes = *d.get(6).ok_or_else(truncated)?;
        let valid = u64_at(d, 8).ok_or_else(truncated)?;
        let mut at = 24;
        let mut rows = [0u32; 64];
        for (t, r) in rows.iter_mut().enumerate() {
            if valid & (1 << t) != 0 {
                *r = u32_at(d, at).ok_or_else(truncated)?;
                at += 4;
            }
        }
        if heap_sizes & 0x40 != 0 {
            at += 4;
        }
        // Tables past GenericParamConstraint (debug tables) come after the
        // ones read here and do not change their layout.
        let str_w = if heap_sizes & 1 != 0 { 4 } else { 2 };
        let guid_w = if heap_sizes & 2 != 0 { 4 } else { 2 };
        let blob_w = if heap_sizes & 4 != 0 { 4 } else { 2 };
        let idx_w = |t: T| if rows[t as usize] < 1 << 16 { 2 } else { 4 };
        let coded_w = |c: Coded| {
            let max = c
                .tables()
                .iter()
                .flatten()
                .map(|&t| rows[t as usize])
                .max()
                .unwrap_or(0);
            if max < 1 << (16 - c.tag_bits()) { 2 } else { 4 }
        };
        for (t, &count) in rows.iter().enumerate().take(TABLE_COUNT) {
            let mut cols = Vec::new();
            let mut size = 0;
            for col in schema(t) {
                let w = match *col {
                    Col::U8x2 | Col::U16 => 2,
                    Col::U32 => 4,
                    Col::Str => str_w,
                    Col::Guid => guid_w,
                    Col::Blob => blob_w,
                    Col::Idx(t) => idx_w(t),
                    Col::Code(c) => coded_w(c),
                };
                cols.push((size, w));
                size += w;
            }
            let bytes = (count as usize)
                .checked_mul(size)
                .filter(|&b| at.checked_add(b).is_some_and(|end| end <= d.len()))
                .ok_or_else(|| format!("truncated metadata: table 0x{t:02X} runs past the end"))?;
            self.tables[t] = Table {
                offset: at,
                rows: count,
                row_size: size,
                cols,
            };
            at += bytes;
        }
        Ok(())
    }

    /// The type a nested TypeDef row is declared in.
    pub fn enclosing(&self, row: u32) -> Option<u32> {
        self.enclosing
            .get(row as usize)
            .copied()
            .filter(|&o| o != 0)
    }

    /// The number of rows of a table.
    pub fn rows(&self, t: T) -> u32 {
        self.tables[t as usize].rows
    }

    /// Column `col` of 1-based row `row` of table `t`.
    pub fn cell(&self, t: T, row: u32, col: usize) -> Option<u32> {
        let table = &self.tables[t as usize];
        if row == 0 || row > table.rows {
            return None;
        }
        let &(offset, width) = table.cols.get(col)?;
        let at = table.offset + (row as usize - 1) * table.row_size + offset;
        if width == 2 {
            u16_at(self.tables_data, at).map(u32::from)
        } else {
            u32_at(self.tables_data, at)
        }
    }

    /// A string of the `#Strings` heap.
    pub fn string(&self, index: u32) -> Option<&'a str> {
        let rest = self.strings.get(index as usize..)?;
        let end = rest.iter().position(|&b| b == 0)?;
        std::str::from_utf8(&rest[..end]).ok()
    }

    /// A blob of the `#Blob` heap.
    pub fn blob(&self, index: u32) -> Option<&'a [u8]> {
        let mut at = index as usize;
        let len = compressed(self.blobs, &mut at)? as usize;
        self.blobs.get(at..at.checked_add(len)?)
    }

    /// Rows `[start, end)` of a list column (`FieldList`, `MethodList`, ...):
    /// from this row's value to the next row's, or to the end of the target.
    pub fn list(&self, t: T, row: u32, col: usize, target: T) -> std::ops::Range<u32> {
        let last = self.rows(target) + 1;
        let start = self.cell(t, row, col).unwrap_or(last).clamp(1, last);
        let end = if row < self.rows(t) {
            self.cell(t, row + 1, col).unwrap_or(last)
        } else {
            last
        };
        start..end.clamp(start, last)
    }
}

/// A compressed unsigned integer (Partition II, 23.2).
pub fn compressed(d: &[u8], at: &mut usize) -> Option<u32> {
    let b0 = *d.get(*at)?;
    let (value, len) = if b0 & 0x80 == 0 {
        (u32::from(b0), 1)
    } else if b0 & 0xC0 == 0x80 {
        (u32::from(b0 & 0x3F) << 8 | u32::from(*d.get(*at + 1)?), 2)
    } else if b0 & 0xE0 == 0xC0 {
        let b = d.get(*at + 1..*at + 4)?;
        (
            u32::from(b0 & 0x1F) << 24
                | u32::from(b[0]) << 16
                | u32::from(b[1]) << 8
                | u32::from(b[2]),
            4,
        )
    } else {
        return None;
    };
    *at += len;
    Some(value)
}
