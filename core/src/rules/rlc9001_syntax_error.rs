//! RLC9001 syntax-error: the parser found a syntax error in a source file
//! (raised by the front end when it loads the file, once per file with the
//! count of further errors). Methods containing an error are not analysed;
//! the rest of the file is. See [`super::input_note`].
