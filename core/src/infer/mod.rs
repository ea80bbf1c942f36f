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
mod facts;
mod no_obligation;
mod rules;

use serde::Serialize;

use crate::ir::Body;
use crate::program::{FieldId, MethodId, Program, TypeId};
use crate::span::Span;

pub use facts::Root;

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
    /// The attribute as C# source (`Owning`, `MustCall("Close")`).
    pub fn to_csharp(&self) -> String {
        let quote = |s: &String| format!("\"{s}\"");
        match self {
            InferredAttr::Owning => "Owning".into(),
            InferredAttr::NotOwning => "NotOwning".into(),
            InferredAttr::MustCallAlias => "MustCallAlias".into(),
            InferredAttr::MustCall(ms) if ms.is_empty() => "MustCall".into(),
            InferredAttr::MustCall(ms) => {
                format!(
                    "MustCall({})",
                    ms.iter().map(quote).collect::<Vec<_>>().join(", ")
                )
            }
            InferredAttr::Calls { target, methods } => {
                let mut args = vec![quote(target)];
                args.extend(methods.iter().map(quote));
                format!("Calls({})", args.join(", "))
            }
            InferredAttr::CreatesMustCallFor => "CreatesMustCallFor(\"this\")".into(),
        }
    }

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
    pub rule: &'static str,
    /// The code that made it fire.
    pub evidence: Span,
}

/// What inference produced.
#[derive(Clone, Debug)]
pub struct Inference {
    /// The spec table with the inferred facts added.
    pub program: Program,
    /// Every inferred attribute, in a deterministic order.
    pub specs: Vec<InferredSpec>,
    /// Rounds until the fixed point.
    pub rounds: u32,
}

/// The conventional names of disposal methods (`Dispose(bool)` included).
const DISPOSAL_NAMES: [&str; 4] = ["Dispose", "DisposeAsync", "DisposeAsyncCore", "Close"];

/// The rules' names and what each means, for explanations and `--format json`.
pub const RULES: &[(&str, &str)] = &[
    (
        "owning-param-disposed",
        "the method disposes the parameter (on some path)",
    ),
    (
        "owning-param-passed",
        "the method hands the parameter to an [Owning] parameter",
    ),
    (
        "calls-field-disposed",
        "the method disposes this field and does not reassign it afterwards",
    ),
    (
        "owning-field",
        "a method of the class disposes the field ([Calls])",
    ),
    (
        "must-call-class",
        "this method disposes all the class's owning fields",
    ),
    (
        "must-call-alias-constructor",
        "the constructor always stores the parameter into the class's single owning field",
    ),
    (
        "must-call-alias-chained",
        "the constructor passes the parameter to a [MustCallAlias] constructor",
    ),
    (
        "must-call-alias-method",
        "the method always returns (a wrapper of) the parameter",
    ),
    (
        "owning-constructor-param",
        "the constructor stores the parameter into an owning field",
    ),
    (
        "not-owning-getter",
        "the method returns an owning field of its class",
    ),
    (
        "borrowed-return",
        "the method only returns values it does not own (fields, elements, not-owning results)",
    ),
    (
        "no-obligation",
        "Dispose releases nothing: no owned resources, no finalizer, no overriding subclass",
    ),
    (
        "creates-must-call-for",
        "the method stores a new resource into a non-readonly owning field of `this`",
    ),
    (
        "creates-must-call-for-callee",
        "the method calls a [CreatesMustCallFor(\"this\")] method on `this`",
    ),
];

/// Why a rule fires, in words.
pub fn rule_reason(rule: &str) -> &'static str {
    RULES
        .iter()
        .find(|(r, _)| *r == rule)
        .map(|(_, why)| *why)
        .unwrap_or("inferred")
}

/// Infers specifications for `program` from its bodies.
pub fn infer(program: &Program, bodies: &[Body]) -> Inference {
    rules::run(program, bodies)
}

#[cfg(test)]
mod tests;
