//! The library model: what rlc-sharp knows of .NET types it cannot see the
//! source of. Written in TOML (`attributes/library/*.toml`, embedded in the
//! binary); users add to it with `[[type]]` tables in `rlc-sharp.toml` in the same
//! format. See `attributes/library/README.md` for the format.
//!
//! Member signatures are C# member declarations (without bodies), with the spec
//! attributes written inline: the front end parses them with the same parser and
//! indexer as user code.

use serde::Deserialize;
use toml::Spanned;

mod name;
mod synth;

pub use name::{NameSegment, TypeName, is_identifier, is_keyword};
pub use synth::{CSharpSource, Location, Piece, PieceOrigin};

/// One model file (or the library part of a user's `rlc-sharp.toml`).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LibraryFile {
    /// Namespaces the member signatures of this file may use unqualified
    /// (each type's own namespace is always in scope).
    #[serde(default)]
    pub usings: Vec<String>,
    /// Fully qualified types that member signatures of this file may name
    /// although no `[[type]]` defines them (types of assemblies the model leaves
    /// out). The front end treats them as unknown types; any other unknown type
    /// in an embedded file is a model error.
    #[serde(default)]
    pub external: Vec<String>,
    #[serde(default, rename = "type")]
    pub types: Vec<LibraryType>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LibraryType {
    /// Fully qualified name with type parameters: `System.Collections.Generic.List<T>`;
    /// nested types with `+`: `System.Collections.Generic.List<T>+Enumerator`.
    pub name: Spanned<String>,
    #[serde(default)]
    pub kind: LibraryTypeKind,
    /// `abstract`, `sealed`, `static`.
    #[serde(default)]
    pub modifiers: Vec<String>,
    /// Base class and interfaces, fully qualified (or through `usings`).
    #[serde(default)]
    pub bases: Vec<Spanned<String>>,
    /// The obligation: absent = inherited from the bases; `[]` = none (the type
    /// holds no resource even though it is `IDisposable`).
    pub must_call: Option<Vec<String>>,
    /// More methods that discharge the obligation (`Close`); they accumulate
    /// along the bases.
    #[serde(default)]
    pub also_disposes: Vec<String>,
    /// The type keeps its obligation, but its disposal releases only managed
    /// state, and this says what (`a wait handle, created only by
    /// AvailableWaitHandle`): a value of it that is lost is reported apart, as
    /// harmless today (RLC0011). Needs an obligation.
    pub releases_only_managed: Option<String>,
    /// C# member declarations without bodies, with spec attributes inline.
    #[serde(default)]
    pub members: Vec<Spanned<String>>,
    /// Why the type is modelled this way (shown by `rlc-sharp explain`-style listings).
    pub doc: Option<String>,
}

#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LibraryTypeKind {
    #[default]
    Class,
    Struct,
    Interface,
    Enum,
    Delegate,
}

impl LibraryTypeKind {
    pub fn keyword(self) -> &'static str {
        match self {
            LibraryTypeKind::Class => "class",
            LibraryTypeKind::Struct => "struct",
            LibraryTypeKind::Interface => "interface",
            LibraryTypeKind::Enum => "enum",
            LibraryTypeKind::Delegate => "delegate",
        }
    }
}

/// A model file that failed to load, with the byte range of the problem.
#[derive(Debug)]
pub struct ModelError {
    pub message: String,
    pub span: Option<std::ops::Range<usize>>,
}

impl std::fmt::Display for ModelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// Parses one model file.
pub fn parse(text: &str) -> Result<LibraryFile, ModelError> {
    toml::from_str(text).map_err(|e| ModelError {
        message: e.message().to_string(),
        span: e.span(),
    })
}

/// The embedded model files: (file name, text).
pub fn embedded() -> &'static [(&'static str, &'static str)] {
    EMBEDDED
}

macro_rules! embed {
    ($($file:literal),* $(,)?) => {
        static EMBEDDED: &[(&str, &str)] = &[
            $(($file, include_str!(concat!("../library/", $file))),)*
        ];
    };
}

embed![
    "efcore.toml",
    "microsoft_aspnetcore.toml",
    "microsoft_data_sqlclient.toml",
    "microsoft_data_sqlite.toml",
    "microsoft_extensions.toml",
    "microsoft_win32.toml",
    "npgsql.toml",
    "system.toml",
    "system_collections.toml",
    "system_componentmodel.toml",
    "system_data.toml",
    "system_data_sqlclient.toml",
    "system_diagnostics.toml",
    "system_drawing.toml",
    "system_io.toml",
    "system_io_compression.toml",
    "system_io_memory_mapped_files.toml",
    "system_io_pipelines.toml",
    "system_io_pipes.toml",
    "system_linq.toml",
    "system_linq_expressions.toml",
    "system_net.toml",
    "system_net_http.toml",
    "system_reflection.toml",
    "system_runtime.toml",
    "system_security_claims.toml",
    "system_security_cryptography.toml",
    "system_text.toml",
    "system_text_json.toml",
    "system_threading.toml",
    "system_transactions.toml",
    "system_xml.toml",
    "windows_storage_streams.toml",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_embedded_file_parses_and_generates_csharp() {
        for (name, text) in embedded() {
            let file = match parse(text) {
                Ok(f) => f,
                Err(e) => panic!("{name}: {e} at {:?}", e.span),
            };
            if let Err(errors) = file.to_csharp() {
                panic!("{name}: {errors:?}");
            }
        }
    }

    #[test]
    fn unknown_keys_are_errors_with_a_location() {
        let text = "[[type]]\nname = \"A.B\"\nmust_cal = []\n";
        let err = parse(text).unwrap_err();
        assert!(err.message.contains("must_cal"), "{}", err.message);
        let span = err.span.expect("span");
        assert_eq!(&text[span.start..span.start + 8], "must_cal");
    }
}
