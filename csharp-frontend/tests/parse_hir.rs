//! Tests of `parse_file`: the HIR it builds from C# snippets.

#[path = "parse_hir/binding.rs"]
mod binding;
#[path = "parse_hir/common.rs"]
mod common;
#[path = "parse_hir/decls.rs"]
mod decls;
#[path = "parse_hir/errors.rs"]
mod errors;
#[path = "parse_hir/exprs.rs"]
mod exprs;
#[path = "parse_hir/patterns.rs"]
mod patterns;
#[path = "parse_hir/preproc.rs"]
mod preproc;
#[path = "parse_hir/repairs.rs"]
mod repairs;
#[path = "parse_hir/stmts.rs"]
mod stmts;
