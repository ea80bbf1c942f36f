//! The front end's own syntax: what is kept of a file once its tree-sitter
//! tree is dropped. Declarations ([`item`]) for the index, bodies ([`body`])
//! for resolution and lowering, plus the file's diagnostics-relevant directives.

pub mod body;
pub mod dump;
pub mod item;

pub use body::*;
pub use dump::dump;
pub use item::*;

/// A byte range in a file's decoded text.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TextRange {
    pub start: u32,
    pub end: u32,
}

impl TextRange {
    pub fn new(start: u32, end: u32) -> TextRange {
        TextRange { start, end }
    }
    pub fn len(self) -> u32 {
        self.end - self.start
    }
    pub fn is_empty(self) -> bool {
        self.start == self.end
    }
    pub fn contains(self, offset: u32) -> bool {
        self.start <= offset && offset < self.end
    }
    pub fn contains_range(self, other: TextRange) -> bool {
        self.start <= other.start && other.end <= self.end
    }
}

/// `#pragma warning disable RLC0001` / `restore`.
#[derive(Clone, Debug, PartialEq)]
pub struct PragmaWarning {
    /// Byte offset of the directive; it applies from the next line on.
    pub offset: u32,
    pub disable: bool,
    /// Ids as written; empty means all warnings.
    pub ids: Vec<String>,
}

/// A syntax error found by the parser.
#[derive(Clone, Debug, PartialEq)]
pub struct SyntaxError {
    pub range: TextRange,
    /// "unexpected `)`", "expected `;`".
    pub message: String,
}

/// What a preprocessor pass changed so that the grammar could parse the file.
#[derive(Clone, Debug, PartialEq)]
pub struct Repair {
    pub range: TextRange,
    /// Which known grammar gap this works around.
    pub kind: &'static str,
}

/// Everything kept of one parsed file.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FileSyntax {
    /// Index 0 is the compilation unit.
    pub scopes: Vec<NamespaceScope>,
    pub types: Vec<TypeDecl>,
    pub bodies: Vec<Body>,
    /// Top-level statements (a `Program.cs` without `Main`), if any.
    pub top_level: Option<BodyId>,
    /// `[assembly: ...]` / `[module: ...]` attributes (e.g. `SuppressMessage` in
    /// `GlobalSuppressions.cs`).
    pub global_attrs: Vec<Attribute>,
    pub pragmas: Vec<PragmaWarning>,
    pub syntax_errors: Vec<SyntaxError>,
    /// Constructs left out because they exceed a limit (nesting, name length):
    /// reported as RLC9005, located at the construct; the rest of the file is read.
    pub limits: Vec<SyntaxError>,
    pub repairs: Vec<Repair>,
    /// Source lines blanked because a `#if` region is inactive.
    pub inactive_lines: u32,
}

impl FileSyntax {
    pub fn body(&self, id: BodyId) -> &Body {
        &self.bodies[id.index()]
    }
    pub fn ty(&self, id: TypeDeclId) -> &TypeDecl {
        &self.types[id.0 as usize]
    }
    pub fn scope(&self, id: ScopeId) -> &NamespaceScope {
        &self.scopes[id.0 as usize]
    }
}
