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

use rustc_hash::FxHashSet;
use serde::Serialize;

use crate::ir::Bodies;
use crate::program::{DeclaredIn, FieldId, InferRule, MethodId, Program, TypeId};
use crate::span::{FileId, Span};

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

/// The classes an inference run decides the fields and obligations of: all,
/// or those declared in the files whose code it analyses. Whether a class
/// owns a field, and so which method must dispose it, is read off the
/// class's own bodies (a method that lets the field go without disposing
/// it makes it lent): a run over some of a program's compilations (a stage
/// of target frameworks) does not have the others' bodies, and must not
/// take their absence for evidence. Those classes are decided where they
/// are analysed, or get the specifications of the twin they stand for.
/// (What is read off other declarations' specifications, such as an
/// abstract method's from its implementations', any run decides: a later
/// stage may hold implementations.)
#[derive(Clone, Debug, Default)]
pub struct Scope {
    /// None: every file.
    files: Option<FxHashSet<FileId>>,
}

impl Scope {
    /// The declarations of `files`.
    pub fn files(files: FxHashSet<FileId>) -> Scope {
        Scope { files: Some(files) }
    }

    /// Whether declarations of `file` are in scope.
    pub fn has_file(&self, file: FileId) -> bool {
        self.files.as_ref().is_none_or(|f| f.contains(&file))
    }

    /// Whether a declaration at `span` is in scope; one without a place in
    /// the source has no twin, and is decided wherever it is seen.
    fn has(&self, span: Option<Span>) -> bool {
        span.is_none_or(|s| self.has_file(s.file))
    }

    /// Whether the run decides source type `t` (a part of it is in scope).
    pub(crate) fn decides_type(&self, p: &Program, t: TypeId) -> bool {
        p.get_ty(t).is_some_and(|d| {
            d.declared_in == DeclaredIn::Source
                && (self.has(d.span) || d.decl_spans.iter().any(|s| self.has(Some(*s))))
        })
    }

    /// Whether the run decides field `f` of a source type.
    pub(crate) fn decides_field(&self, p: &Program, f: FieldId) -> bool {
        let d = p.field(f);
        self.has(d.span)
            && p.get_ty(d.owner)
                .is_some_and(|t| t.declared_in == DeclaredIn::Source)
    }
}

/// Infers specifications for the whole of `program` from its bodies.
pub fn infer(program: &Program, bodies: &Bodies) -> Inference {
    fixed_point::run(program.clone(), bodies, &Scope::default())
}

/// Infers specifications for the declarations in `scope` from `bodies`,
/// adding to `program` itself (one spec table less in memory).
pub fn infer_into(program: Program, bodies: &Bodies, scope: &Scope) -> Inference {
    fixed_point::run(program, bodies, scope)
}

#[cfg(test)]
mod tests;
