//! The spec vocabulary of rlc-sharp (what `[Owning]`, `[MustCall]`, ... mean),
//! the embedded model of the .NET library, and the C# source of the attributes.

pub mod library;
pub mod vocabulary;

/// The C# definitions of the attributes users write (namespace `RlcSharp.Annotations`).
pub const ANNOTATIONS_CS: &str = include_str!("../RlcSharp.Annotations.cs");
