//! rlc-csharp: the C# front end of rlc-sharp.
//!
//! One module per job, in pipeline order:
//! - [`project`]: from a path to projects and their source files (MSBuild semantics);
//! - [`frameworks`]: which variants of the files to parse and analyse when
//!   projects have several target frameworks;
//! - [`parse`]: from a file's bytes to [`hir::FileSyntax`] (preprocessor, tree-sitter, repairs);
//! - [`index`]: the symbol table of a project and the projects it references,
//!   plus the library model, as a [`rlc_core::program::Program`];
//! - [`resolve`]: names and static types of every expression of a body;
//! - [`lower`]: from a resolved body to the core IR;
//! - [`suppress`]: after checking, the findings users silenced in the sources;
//! - [`annotate`]: `infer`'s output, the inferred attributes written into the
//!   source as a patch;
//! - [`fix`]: `fix`'s output, mechanical fixes of leaks as edits of the source.

pub mod annotate;
pub mod fix;
pub mod frameworks;
pub mod hir;
pub mod index;
pub mod load;
pub mod lower;
pub mod metadata;
pub mod parse;
pub mod project;
pub mod resolve;
pub mod source;
pub mod suppress;
