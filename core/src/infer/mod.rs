//! Inference of resource specifications ("Inference of Resource Management
//! Specifications", section 3): the rules of both phases applied to a fixed point
//! over the whole program's spec table, optimistically (an operation on some path
//! is taken as the intent for all paths), plus one rule beyond the paper:
//! [`no_obligation`] for `IDisposable` classes whose `Dispose` releases nothing,
//! and [`creates_must_call_for`] for methods that give `this` a new obligation.
//!
//! Facts the user or the library model stated are inputs and are never
//! contradicted; inferred facts carry `Provenance::Inferred { rule, evidence }`.
//! The result is deterministic: rules visit methods, fields and types in id
//! order and apply what they found after each pass.

mod borrowed_return;
mod creates_must_call_for;
mod evidence;
mod fixed_point;
mod no_obligation;

use serde::Serialize;

use crate::ir::Bodies;
use crate::program::{FieldId, InferRule, MethodId, Program, TypeId};
use crate::span::Span;

/// Which declaration an inferred attribute goes on.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum SpecTarget {
    Type(TypeId),
    Method(MethodId),
    Param(MethodId, u32),
    Return(MethodId),
    Field(FieldId),
}

/// An inferred attribute.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum InferredAttr {
    Owning,
    NotOwning,
    /// `[MustCall("Close")]`; empty: `[MustCall]`, no obligation.
    MustCall(Vec<String>),
    MustCallAlias,
    /// `[Calls("this._stream", "Dispose")]`.
    Calls {
        target: String,
        methods: Vec<String>,
    },
    /// `[CreatesMustCallFor("this")]` on a method.
    CreatesMustCallFor,
}

impl InferredAttr {
    /// The kind, for statistics (`Owning`, `Calls`, ...).
    pub fn kind(&self) -> &'static str {
        match self {
            InferredAttr::Owning => "Owning",
            InferredAttr::NotOwning => "NotOwning",
            InferredAttr::MustCall(ms) if ms.is_empty() => "MustCall()",
            InferredAttr::MustCall(_) => "MustCall",
            InferredAttr::MustCallAlias => "MustCallAlias",
            InferredAttr::Calls { .. } => "Calls",
            InferredAttr::CreatesMustCallFor => "CreatesMustCallFor",
        }
    }
}

/// One inferred spec with why it was inferred.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct InferredSpec {
    pub target: SpecTarget,
    pub attr: InferredAttr,
    /// The rule that fired (`owning-param-disposed`, ...).
    pub rule: InferRule,
    /// The code that made it fire.
    pub evidence: Span,
}

/// What inference produced.
#[derive(Clone, Debug)]
pub struct Inference {
    /// The spec table with the inferred facts added, for checking: a
    /// `no-obligation` verdict is kept as `TypeDef::harmless`, not as
    /// the `[MustCall]` the patch proposes.
    pub program: Program,
    /// Every inferred attribute, in a deterministic order.
    pub specs: Vec<InferredSpec>,
    /// Rounds until the fixed point.
    pub rounds: u32,
}

/// Infers specifications for `program` from its bodies.
pub fn infer(program: &Program, bodies: &Bodies) -> Inference {
    fixed_point::run(program.clone(), bodies)
}

/// [`infer`] adding to `program` itself, for a caller that no longer needs
/// it as it was (one spec table less in memory).
pub fn infer_into(program: Program, bodies: &Bodies) -> Inference {
    fixed_point::run(program, bodies)
}

#[cfg(test)]
mod tests;
