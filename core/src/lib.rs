//! rlc-core: the language-independent half of rlc-sharp.
//!
//! It sees the program as a spec table ([`program::Program`]) and one CFG per
//! method body ([`ir::Body`]); it never sees C# syntax or file paths. The
//! analyses follow Kellogg et al., "Lightweight and Modular Resource Leak
//! Verification" (ESEC/FSE 2021), and the inference follows "Inference of
//! Resource Management Specifications".
//!
//! The checker, in the papers' words:
//! - [`must_call`]: must-call types (§2.2);
//! - [`called_methods`]: called methods (§2.3);
//! - [`ownership`]: lightweight ownership transfer and its defaults (§3);
//! - [`resource_alias`]: resource aliases, `[MustCallAlias]` and ownership
//!   conditions such as `leaveOpen` (§4);
//! - [`consistency`]: Algorithm 1, with `[CreatesMustCallFor]` (§2.4, §5);
//! - [`collections`]: owning collections and element-wise disposal;
//! - [`class_checks`]: owning fields and verification of specs (§3.2, §4.3, §5.1);
//! - [`checker`]: the entry points, [`check_program`] and [`Checker::check_body`].

pub mod called_methods;
pub mod cfg;
pub mod checker;
pub mod class_checks;
pub mod collections;
pub mod consistency;
mod context;
pub mod diagnostics;
pub mod infer;
pub mod ir;
pub mod must_call;
pub mod ownership;
pub mod program;
mod report;
pub mod resource_alias;
pub mod span;

#[cfg(test)]
mod testing;

pub use checker::{CheckOptions, Checker, ExceptionModel, check_body, check_program};
pub use span::{FileId, Span};
