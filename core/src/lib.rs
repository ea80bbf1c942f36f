//! rlc-core: the language-independent half of rlc-sharp.
//!
//! It sees the program as a spec table ([`program::Program`]) and one CFG per
//! method body ([`ir::Body`]); it never sees C# syntax or file paths. The
//! analyses follow Kellogg et al., "Lightweight and Modular Resource Leak
//! Verification" (ESEC/FSE 2021), and the inference follows "Inference of
//! Resource Management Specifications".

pub mod diagnostics;
pub mod ir;
pub mod program;
pub mod span;

pub use span::{FileId, Span};
