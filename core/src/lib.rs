//! rlc-core: the language-independent half of rlc-sharp.
//!
//! It sees the program as a spec table ([`program::Program`]) and one CFG per
//! method body ([`ir::Body`], in an [`ir::Bodies`] arena); it never sees C#
//! syntax or file paths, and does no I/O. The analyses follow Kellogg et al.,
//! "Lightweight and Modular Resource Leak Verification" (ESEC/FSE 2021), and
//! the inference follows "Inference of Resource Management Specifications".
//!
//! In pipeline order:
//! - [`ir`], [`cfg`]: the IR and graph helpers;
//! - [`program`], [`provenance`]: the spec table and where each fact came from;
//! - the paper's models, shared by checking and inference: [`must_call`]
//!   (must-call types, §2.2), [`called_methods`] (§2.3), [`ownership`] (§3),
//!   [`resource_alias`] (§4);
//! - [`facts`]: what every analysis reads about the program and a body
//!   (def-use, alias classes, reachability, known `bool`s, summaries);
//! - [`summarize`]: collection and closure summaries, computed before checking;
//! - [`consistency`]: Algorithm 1 and the verifier;
//! - [`rules`]: one module per diagnostic, from Algorithm 1's outcome and the
//!   spec table to findings ([`rules::Diagnostic`]);
//! - [`checker`]: the entry points, [`check_program`] and [`Checker::check_body`];
//! - [`infer`]: specification inference.

pub mod called_methods;
pub mod cfg;
pub mod checker;
pub mod consistency;
pub mod construction;
pub mod facts;
pub mod field_guards;
pub mod first_call;
pub mod flag_guards;
pub mod getters;
pub mod infer;
pub mod ir;
pub mod kept_statically;
pub mod must_call;
pub mod never_returns;
pub mod never_throws;
pub mod options;
pub mod ownership;
pub mod program;
pub mod provenance;
pub mod registrations;
pub mod reopens;
pub mod resource_alias;
pub mod rules;
pub mod setters;
pub mod span;
pub mod summarize;
pub mod unset_outs;

#[cfg(test)]
mod testing;

pub use checker::{Checker, check_program};
pub use options::{CheckOptions, ExceptionModel};
pub use span::{FileId, Span};

/// Derives into `program` what the bodies state about ownership that the
/// declarations do not, the same for checking and inference: the program's
/// own `leaveOpen` wrappers, fields a `bool` flag says hold nothing owed,
/// methods that never return, methods that never throw, methods a type's
/// `Dispose()` delegates to, methods returning what a stated return
/// obligation made,
/// construction helpers, what a field holds when the one method that writes
/// it is first called, field guards, the
/// parameters a method opens again and the `out` parameters it leaves empty
/// when it returns `false`. The bodies come in `parts` (lowered apart, one per
/// stage of target frameworks); whether a method is only called in
/// construction is read off the calls of all of them, as a method of one
/// part may be called from code of a later one.
pub fn derive_from_bodies(program: &mut program::Program, parts: &[&ir::Bodies]) {
    for bodies in parts {
        ownership::derive_ownership_flags(program, bodies);
        flag_guards::derive(program, bodies);
        never_returns::derive(program, bodies);
        must_call::derive_delegated_disposal(program, bodies);
        must_call::derive_stated_returns(program, bodies);
    }
    never_throws::derive(program, parts);
    construction::derive_construction_helpers(program, parts);
    first_call::derive(program, parts);
    for bodies in parts {
        field_guards::derive(program, bodies);
        reopens::derive(program, bodies);
        unset_outs::derive(program, bodies);
    }
    kept_statically::derive(program, parts);
}
