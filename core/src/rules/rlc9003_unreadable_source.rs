//! RLC9003 unreadable-source: a source file could not be read or decoded (an
//! I/O error, a binary file, an encoding that is neither UTF-8 nor UTF-16 with
//! a byte-order mark) and was skipped. Raised by the front end when it loads
//! the file; see [`super::input_note`].
