//! Source files: decoding bytes into text and mapping offsets to lines.

use std::path::PathBuf;
use std::sync::Arc;

pub use rlc_core::FileId;

/// A decoded source file.
#[derive(Clone, Debug)]
pub struct SourceFile {
    pub id: FileId,
    pub path: PathBuf,
    pub text: Arc<str>,
    pub lines: LineIndex,
}

impl SourceFile {
    pub fn new(id: FileId, path: PathBuf, text: impl Into<Arc<str>>) -> SourceFile {
        let text = text.into();
        let lines = LineIndex::new(&text);
        SourceFile {
            id,
            path,
            text,
            lines,
        }
    }
}

/// Why a file's bytes could not be turned into text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DecodeError {
    /// Not valid UTF-8 and no BOM naming another encoding.
    NotUtf8 { offset: usize },
    /// Contains NUL bytes without a UTF-16 BOM, and is not mostly-ASCII UTF-16
    /// either, or other control characters than whitespace: most likely a
    /// binary file.
    Binary,
}

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DecodeError::NotUtf8 { offset } => write!(
                f,
                "not valid UTF-8 (first bad byte at offset {offset}) and no byte-order mark naming UTF-16; save it as UTF-8"
            ),
            DecodeError::Binary => {
                f.write_str("looks like a binary file (contains NUL bytes or control characters), not C# source")
            }
        }
    }
}

/// The largest source file read: offsets are `u32`, and a syntax tree costs
/// ~26 bytes per source byte, so a bigger file would not fit anyway.
pub const MAX_SOURCE_LEN: u64 = 64 << 20;

/// The largest project or solution file read.
pub const MAX_PROJECT_LEN: u64 = 16 << 20;

/// Reads a regular file of at most `limit` bytes. Anything else (a device
/// such as `/dev/zero`, a FIFO that would block, a socket) and longer files
/// are refused before they are read.
pub fn read_regular(path: &std::path::Path, limit: u64) -> std::io::Result<Vec<u8>> {
    use std::io::{Error, ErrorKind, Read};
    // Not opened before this check: opening a FIFO blocks until a writer comes.
    if !std::fs::metadata(path)?.is_file() {
        return Err(Error::new(ErrorKind::InvalidInput, "not a regular file"));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)?
        .take(limit + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(Error::new(
            ErrorKind::FileTooLarge,
            format!("larger than {} MiB", limit >> 20),
        ));
    }
    Ok(bytes)
}

/// Decodes UTF-8 (with or without BOM), UTF-16 LE/BE with BOM, and UTF-16
/// without BOM when it is recognisable (see [`utf16_without_bom`]). The BOM is
/// dropped; offsets in the result are offsets into the returned text.
pub fn decode(bytes: &[u8]) -> Result<String, DecodeError> {
    if let Some((encoding, bom_len)) = encoding_rs::Encoding::for_bom(bytes) {
        let (text, had_errors) = encoding.decode_without_bom_handling(&bytes[bom_len..]);
        if had_errors && encoding == encoding_rs::UTF_8 {
            let offset = match std::str::from_utf8(&bytes[bom_len..]) {
                Err(e) => e.valid_up_to() + bom_len,
                Ok(_) => 0,
            };
            return Err(DecodeError::NotUtf8 { offset });
        }
        return Ok(text.into_owned());
    }
    if bytes.contains(&0) {
        return match utf16_without_bom(bytes) {
            Some(text) => Ok(text),
            None => Err(DecodeError::Binary),
        };
    }
    match std::str::from_utf8(bytes) {
        Ok(s) => Ok(s.to_owned()),
        Err(e) => Err(DecodeError::NotUtf8 {
            offset: e.valid_up_to(),
        }),
    }
}

/// A source file's text, decoded as the C# compiler would.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceText {
    pub text: String,
    /// Where the first byte that is not UTF-8 is, when the file had no
    /// byte-order mark and was read as Windows-1252 instead (csc falls back to
    /// the system code page, Windows-1252 on most machines that write such files).
    pub legacy: Option<usize>,
}

/// [`decode`], and text without a byte-order mark that is not UTF-8 read as
/// Windows-1252. A single-byte encoding keeps one character per byte, so
/// lines and character columns in the text are those of the file.
pub fn decode_source(bytes: &[u8]) -> Result<SourceText, DecodeError> {
    match decode(bytes) {
        Ok(text) => Ok(SourceText { text, legacy: None }),
        Err(DecodeError::NotUtf8 { offset }) if encoding_rs::Encoding::for_bom(bytes).is_none() => {
            let (text, _) = encoding_rs::WINDOWS_1252.decode_without_bom_handling(bytes);
            if !is_text(&text) {
                return Err(DecodeError::Binary);
            }
            Ok(SourceText {
                text: text.into_owned(),
                legacy: Some(offset),
            })
        }
        Err(e) => Err(e),
    }
}

/// No NULs or other control characters than whitespace.
fn is_text(text: &str) -> bool {
    !text
        .chars()
        .any(|c| c.is_control() && !matches!(c, '\t' | '\n' | '\r' | '\x0b' | '\x0c'))
}

/// UTF-16 text saved without a byte-order mark (some Windows tools do): mostly
/// ASCII, so the high byte of most code units is NUL, at odd offsets for
/// little endian and even ones for big endian. Recognised when at least half
/// of the code units in the first 64 KiB have a NUL high byte and a non-NUL
/// low byte, almost none the reverse, and the whole file decodes to text
/// without NULs or other control characters than whitespace.
fn utf16_without_bom(bytes: &[u8]) -> Option<String> {
    if bytes.len() & 1 == 1 {
        return None;
    }
    let sample = &bytes[..bytes.len().min(64 << 10)];
    let units = sample.len() / 2;
    let (mut le, mut be) = (0usize, 0usize);
    for pair in sample.chunks_exact(2) {
        match (pair[0] == 0, pair[1] == 0) {
            (false, true) => le += 1,
            (true, false) => be += 1,
            _ => {}
        }
    }
    let encoding = if le * 2 >= units && be * 50 <= units {
        encoding_rs::UTF_16LE
    } else if be * 2 >= units && le * 50 <= units {
        encoding_rs::UTF_16BE
    } else {
        return None;
    };
    let (text, had_errors) = encoding.decode_without_bom_handling(bytes);
    (!had_errors && is_text(&text)).then(|| text.into_owned())
}

/// Line starts of a text, for offset -> (line, column) conversion.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LineIndex {
    starts: Vec<u32>,
}

/// A 1-based line and column (columns count characters, as SARIF and editors do).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct LineCol {
    pub line: u32,
    pub col: u32,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        let mut starts = vec![0];
        starts.extend(
            text.bytes()
                .enumerate()
                .filter(|&(_, b)| b == b'\n')
                .map(|(i, _)| i as u32 + 1),
        );
        LineIndex { starts }
    }

    pub fn line_count(&self) -> usize {
        self.starts.len()
    }

    /// 0-based line of a byte offset.
    pub fn line_of(&self, offset: u32) -> usize {
        self.starts.partition_point(|&s| s <= offset) - 1
    }

    /// Byte offset where a 0-based line starts.
    pub fn line_start(&self, line: usize) -> u32 {
        self.starts
            .get(line)
            .copied()
            .unwrap_or(*self.starts.last().unwrap_or(&0))
    }

    /// 1-based line and character column of a byte offset in `text`.
    pub fn line_col(&self, text: &str, offset: u32) -> LineCol {
        let line = self.line_of(offset);
        let start = self.starts[line] as usize;
        let end = (offset as usize).min(text.len());
        let col = text
            .get(start..end)
            .map(|s| s.chars().count())
            .unwrap_or(end.saturating_sub(start));
        LineCol {
            line: line as u32 + 1,
            col: col as u32 + 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_utf8_with_and_without_bom() {
        assert_eq!(decode(b"class C {}").unwrap(), "class C {}");
        assert_eq!(decode(b"\xEF\xBB\xBFclass C {}").unwrap(), "class C {}");
    }

    #[test]
    fn decodes_utf16_with_bom() {
        let le: Vec<u8> = [0xFF, 0xFE]
            .into_iter()
            .chain("class Ä {}".encode_utf16().flat_map(|u| u.to_le_bytes()))
            .collect();
        assert_eq!(decode(&le).unwrap(), "class Ä {}");
        let be: Vec<u8> = [0xFE, 0xFF]
            .into_iter()
            .chain("class Ä {}".encode_utf16().flat_map(|u| u.to_be_bytes()))
            .collect();
        assert_eq!(decode(&be).unwrap(), "class Ä {}");
    }

    #[test]
    fn decodes_utf16_without_bom() {
        let text = "// Größe\r\nclass Ä { void M() { var s = \"€\"; } }\r\n";
        let le: Vec<u8> = text.encode_utf16().flat_map(|u| u.to_le_bytes()).collect();
        assert_eq!(decode(&le).unwrap(), text);
        let be: Vec<u8> = text.encode_utf16().flat_map(|u| u.to_be_bytes()).collect();
        assert_eq!(decode(&be).unwrap(), text);
        // Mostly non-ASCII text is not guessed at.
        let cjk: Vec<u8> = "类类类类类类类类 a"
            .encode_utf16()
            .flat_map(|u| u.to_le_bytes())
            .collect();
        assert_eq!(decode(&cjk), Err(DecodeError::Binary));
    }

    #[test]
    fn binary_that_looks_like_utf16_is_still_binary() {
        // NUL high bytes, but control characters: not text.
        let mut bin: Vec<u8> = (0..400u16).flat_map(|i| [(i % 31) as u8 + 1, 0]).collect();
        assert_eq!(decode(&bin), Err(DecodeError::Binary));
        // An odd length is not UTF-16.
        bin = "class C {}"
            .encode_utf16()
            .flat_map(|u| u.to_le_bytes())
            .collect();
        bin.push(b'x');
        assert_eq!(decode(&bin), Err(DecodeError::Binary));
        // NULs on both sides.
        assert_eq!(
            decode(&[b'a', 0, 0, b'b', b'c', 0, 0, b'd']),
            Err(DecodeError::Binary)
        );
    }

    #[test]
    fn rejects_binary_and_latin1() {
        assert_eq!(decode(b"MZ\x90\x00\x03"), Err(DecodeError::Binary));
        assert_eq!(
            decode(b"// caf\xE9\nclass C {}"),
            Err(DecodeError::NotUtf8 { offset: 6 })
        );
    }

    #[test]
    fn source_that_is_not_utf8_is_read_as_windows_1252() {
        let read = decode_source(b"// caf\xE9 \x80\nclass C {}").unwrap();
        assert_eq!(read.text, "// café €\nclass C {}");
        assert_eq!(read.legacy, Some(6));
        // One character per byte: columns are the file's.
        let idx = LineIndex::new(&read.text);
        let c = read.text.find('C').unwrap() as u32;
        assert_eq!(idx.line_col(&read.text, c), LineCol { line: 2, col: 7 });
        let euro = read.text.find('€').unwrap() as u32;
        assert_eq!(idx.line_col(&read.text, euro), LineCol { line: 1, col: 9 });
        // UTF-8 stays UTF-8; binary stays binary, with or without NULs.
        assert_eq!(decode_source(b"class C {}").unwrap().legacy, None);
        assert_eq!(decode_source(b"MZ\x90\x00\x03"), Err(DecodeError::Binary));
        assert_eq!(
            decode_source(b"\x7FELF\x02\x01\x01\xE9"),
            Err(DecodeError::Binary)
        );
        // A UTF-8 byte-order mark says UTF-8: broken UTF-8 after it is not guessed at.
        assert_eq!(
            decode_source(b"\xEF\xBB\xBF// caf\xE9"),
            Err(DecodeError::NotUtf8 { offset: 9 })
        );
    }

    #[test]
    fn line_col_counts_characters() {
        let text = "ab\nçd\n";
        let idx = LineIndex::new(text);
        assert_eq!(idx.line_col(text, 0), LineCol { line: 1, col: 1 });
        assert_eq!(idx.line_col(text, 3), LineCol { line: 2, col: 1 });
        assert_eq!(idx.line_col(text, 5), LineCol { line: 2, col: 2 });
        assert_eq!(idx.line_count(), 3);
    }
}
