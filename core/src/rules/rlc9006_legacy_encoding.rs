//! RLC9006 legacy-encoding: a source file is neither UTF-8 nor marked by a
//! byte-order mark, and was read as Windows-1252 (the system code page the C#
//! compiler falls back to on most machines that write such files), then
//! analysed. Raised by the front end when it loads the file, at the first byte
//! that is not UTF-8; see [`super::input_note`].
