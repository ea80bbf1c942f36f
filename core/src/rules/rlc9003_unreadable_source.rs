//! RLC9003 unreadable-source: a source file could not be read or decoded (an
//! I/O error, a binary file, broken UTF-8 after a UTF-8 byte-order mark) and
//! was skipped. Raised by the front end when it loads
//! the file; see [`super::input_note`].
