//! A model file as C# source: what the front end parses and indexes like user
//! code. Every `[[type]]` becomes a declaration in its namespace, nested types
//! inside their outer type, every member a `public` member declaration;
//! [`CSharpSource::locate`] maps an offset of the generated text back to the
//! member string it came from, so a problem can be reported in the TOML file.

use std::ops::Range;

use rustc_hash::FxHashMap;

use super::{LibraryFile, LibraryType, LibraryTypeKind, ModelError, TypeName};

/// The generated C# text of one model file.
#[derive(Clone, Debug, Default)]
pub struct CSharpSource {
    pub text: String,
    /// Copied runs of model text, in text order, not overlapping.
    pub pieces: Vec<Piece>,
}

/// A run of the generated text copied verbatim from the model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    /// Where it is in [`CSharpSource::text`].
    pub range: Range<usize>,
    /// Index of the type in [`LibraryFile::types`].
    pub ty: usize,
    pub origin: PieceOrigin,
    /// Offset of the run's start in the origin string.
    pub origin_offset: usize,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum PieceOrigin {
    /// An entry of the type's `bases`.
    Base(usize),
    /// An entry of the type's `members`.
    Member(usize),
}

/// Where an offset of the generated text comes from.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Location {
    pub ty: usize,
    pub origin: PieceOrigin,
    /// Byte offset in the base or member string.
    pub offset: usize,
}

impl CSharpSource {
    /// The model string an offset of [`Self::text`] was copied from; `None`
    /// for generated text (keywords, braces, the inserted `public`).
    pub fn locate(&self, offset: usize) -> Option<Location> {
        let i = self.pieces.partition_point(|p| p.range.end <= offset);
        let piece = self.pieces.get(i).filter(|p| p.range.contains(&offset))?;
        Some(Location {
            ty: piece.ty,
            origin: piece.origin,
            offset: piece.origin_offset + (offset - piece.range.start),
        })
    }

    /// Like [`Self::locate`], for the first copied offset in `range`: a syntax
    /// node that starts with generated text still belongs to a member.
    pub fn locate_range(&self, range: Range<usize>) -> Option<Location> {
        let i = self.pieces.partition_point(|p| p.range.end <= range.start);
        let piece = self
            .pieces
            .get(i)
            .filter(|p| p.range.start < range.end.max(range.start + 1))?;
        let offset = range.start.max(piece.range.start);
        self.locate(offset)
    }

    fn copy(&mut self, text: &str, ty: usize, origin: PieceOrigin, origin_offset: usize) {
        let start = self.text.len();
        self.text.push_str(text);
        if !text.is_empty() {
            self.pieces.push(Piece {
                range: start..self.text.len(),
                ty,
                origin,
                origin_offset,
            });
        }
    }
}

impl LibraryFile {
    /// The file as one C# compilation unit. Errors: malformed type names,
    /// unknown modifiers, duplicate types, nested types whose outer type is not
    /// in the file, delegates without exactly one `Invoke` member.
    pub fn to_csharp(&self) -> Result<CSharpSource, Vec<ModelError>> {
        let mut errors = Vec::new();
        let names: Vec<Option<TypeName>> = self
            .types
            .iter()
            .map(|t| match t.type_name() {
                Ok(n) => Some(n),
                Err(e) => {
                    errors.push(e);
                    None
                }
            })
            .collect();
        let mut by_key: FxHashMap<String, usize> = FxHashMap::default();
        for (i, name) in names.iter().enumerate() {
            let Some(name) = name else { continue };
            if by_key.insert(name.key(), i).is_some() {
                errors.push(self.types[i].error(format!("type `{name}` is defined twice")));
            }
        }
        let mut nested: Vec<Vec<usize>> = vec![Vec::new(); self.types.len()];
        let mut top_level = Vec::new();
        for (i, name) in names.iter().enumerate() {
            let Some(name) = name else { continue };
            match name.outer() {
                None => top_level.push(i),
                Some(outer) => match by_key.get(&outer.key()) {
                    Some(&o) => nested[o].push(i),
                    None => errors.push(self.types[i].error(format!(
                        "nested type `{name}` needs its outer type `{outer}` in the same file"
                    ))),
                },
            }
        }
        for ty in &self.types {
            for m in &ty.modifiers {
                if !matches!(m.as_str(), "abstract" | "sealed" | "static") {
                    errors.push(ty.error(format!(
                        "unknown modifier `{m}` (expected abstract, sealed or static)"
                    )));
                }
            }
        }

        let mut out = CSharpSource::default();
        for u in &self.usings {
            out.text.push_str(&format!("using {u};\n"));
        }
        let mut emitter = Emitter {
            file: self,
            names: &names,
            nested: &nested,
            out,
            errors,
        };
        for &i in &top_level {
            let namespace = names[i].as_ref().map_or("", |n| n.namespace.as_str());
            if namespace.is_empty() {
                emitter.ty(i);
            } else {
                emitter.out.text.push_str(&format!("namespace {namespace}\n{{\n"));
                emitter.ty(i);
                emitter.out.text.push_str("}\n");
            }
        }
        if emitter.errors.is_empty() {
            Ok(emitter.out)
        } else {
            Err(emitter.errors)
        }
    }
}

impl LibraryType {
    /// The parsed [`Self::name`].
    pub fn type_name(&self) -> Result<TypeName, ModelError> {
        TypeName::parse(self.name.get_ref())
            .map_err(|e| self.error(format!("bad type name: {e}")))
    }

    fn error(&self, message: String) -> ModelError {
        ModelError {
            message,
            span: Some(self.name.span()),
        }
    }
}

struct Emitter<'a> {
    file: &'a LibraryFile,
    names: &'a [Option<TypeName>],
    nested: &'a [Vec<usize>],
    out: CSharpSource,
    errors: Vec<ModelError>,
}

impl Emitter<'_> {
    fn ty(&mut self, i: usize) {
        let ty = &self.file.types[i];
        let Some(segment) = self.names[i].as_ref().and_then(TypeName::last) else {
            return;
        };
        let declared = segment.declaration();
        if ty.kind == LibraryTypeKind::Delegate {
            self.delegate(i, &declared);
            return;
        }
        self.push("public ");
        for m in &ty.modifiers {
            self.push(m);
            self.push(" ");
        }
        self.push(ty.kind.keyword());
        self.push(" ");
        self.push(&declared);
        for (b, base) in ty.bases.iter().enumerate() {
            self.push(if b == 0 { " : " } else { ", " });
            self.out.copy(base.get_ref(), i, PieceOrigin::Base(b), 0);
        }
        self.push("\n{\n");
        for (m, member) in ty.members.iter().enumerate() {
            let member = member.get_ref();
            if ty.kind == LibraryTypeKind::Enum {
                self.out.copy(member, i, PieceOrigin::Member(m), 0);
                self.push(",\n");
                continue;
            }
            let at = after_attributes(member);
            let (attributes, rest) = member.split_at(at);
            self.out.copy(attributes, i, PieceOrigin::Member(m), 0);
            if !has_access_modifier(rest) {
                self.push("public ");
            }
            self.out.copy(rest, i, PieceOrigin::Member(m), at);
            let end = member.trim_end();
            self.push(if end.ends_with(';') || end.ends_with('}') {
                "\n"
            } else {
                ";\n"
            });
        }
        for &n in &self.nested[i] {
            self.ty(n);
        }
        self.push("}\n");
    }

    /// `TResult Invoke(T arg)` becomes `public delegate TResult Func<T, TResult>(T arg);`.
    fn delegate(&mut self, i: usize, declared: &str) {
        let ty = &self.file.types[i];
        let invoke = match ty.members.as_slice() {
            [only] => find_invoke(only.get_ref()).map(|at| (only.get_ref(), at)),
            _ => None,
        };
        let Some((member, invoke_at)) = invoke else {
            self.errors.push(ty.error(
                "a delegate has exactly one member, its `Invoke` signature: `TResult Invoke(T arg)`"
                    .to_string(),
            ));
            return;
        };
        if !self.nested[i].is_empty() {
            self.errors
                .push(ty.error("a delegate cannot declare nested types".to_string()));
        }
        let at = after_attributes(member);
        self.out
            .copy(&member[..at], i, PieceOrigin::Member(0), 0);
        self.push("public delegate ");
        self.out
            .copy(&member[at..invoke_at], i, PieceOrigin::Member(0), at);
        self.push(declared);
        let after = invoke_at + "Invoke".len();
        self.out
            .copy(&member[after..], i, PieceOrigin::Member(0), after);
        let end = member.trim_end();
        self.push(if end.ends_with(';') { "\n" } else { ";\n" });
    }

    fn push(&mut self, text: &str) {
        self.out.text.push_str(text);
    }
}

fn has_access_modifier(member: &str) -> bool {
    let first = member
        .split(|c: char| !(c == '_' || c.is_alphanumeric()))
        .next()
        .unwrap_or_default();
    matches!(first, "public" | "protected" | "internal" | "private")
}

/// The offset after the leading attribute lists (`[return: NotOwning] `), where
/// modifiers may go.
fn after_attributes(member: &str) -> usize {
    let bytes = member.as_bytes();
    let mut i = 0;
    loop {
        while bytes.get(i).is_some_and(u8::is_ascii_whitespace) {
            i += 1;
        }
        if bytes.get(i) != Some(&b'[') {
            return i;
        }
        let mut depth = 0usize;
        let mut quote: Option<u8> = None;
        while let Some(&c) = bytes.get(i) {
            i += 1;
            match (quote, c) {
                (Some(_), b'\\') => i += 1,
                (Some(q), c) if c == q => quote = None,
                (Some(_), _) => {}
                (None, b'"' | b'\'') => quote = Some(c),
                (None, b'[') => depth += 1,
                (None, b']') => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                (None, _) => {}
            }
        }
        if depth != 0 {
            // Unbalanced: leave the text as it is, the parser will report it.
            return 0;
        }
    }
}

/// The offset of the `Invoke` identifier followed by `(`.
fn find_invoke(member: &str) -> Option<usize> {
    member.match_indices("Invoke").map(|(at, _)| at).find(|&at| {
        let before_ok = member[..at]
            .chars()
            .next_back()
            .is_none_or(|c| !(c == '_' || c.is_alphanumeric()));
        let after = member[at + "Invoke".len()..].trim_start();
        before_ok && after.starts_with('(')
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::library::parse;

    fn source(toml: &str) -> CSharpSource {
        match parse(toml).expect("toml").to_csharp() {
            Ok(s) => s,
            Err(e) => panic!("{e:?}"),
        }
    }

    #[test]
    fn nests_types_and_inserts_public_after_attributes() {
        let s = source(
            r#"
usings = ["System"]
[[type]]
name = "N.Outer<T>+Inner"
kind = "struct"
bases = ["IDisposable"]
members = ["void Dispose()"]
[[type]]
name = "N.Outer<T>"
members = ["[return: NotOwning] T Get()", "protected Outer()", "int Count { get; }"]
"#,
        );
        let expected = "using System;\nnamespace N\n{\npublic class Outer<T>\n{\n\
             [return: NotOwning] public T Get();\nprotected Outer();\npublic int Count { get; }\n\
             public struct Inner : IDisposable\n{\npublic void Dispose();\n}\n}\n}\n";
        assert_eq!(s.text, expected);
        let get = s.text.find("T Get").unwrap();
        assert_eq!(
            s.locate(get),
            Some(Location {
                ty: 1,
                origin: PieceOrigin::Member(0),
                offset: "[return: NotOwning] ".len()
            })
        );
        assert_eq!(s.locate(s.text.find("public T").unwrap()), None);
        let base = s.text.find("IDisposable\n").unwrap();
        assert_eq!(s.locate(base).map(|l| l.origin), Some(PieceOrigin::Base(0)));
        let whole_member = get - "public ".len()..get + 5;
        assert_eq!(
            s.locate_range(whole_member).map(|l| (l.ty, l.origin)),
            Some((1, PieceOrigin::Member(0)))
        );
    }

    #[test]
    fn enums_and_delegates() {
        let s = source(
            r#"
[[type]]
name = "System.IO.FileMode"
kind = "enum"
members = ["Open", "Create"]
[[type]]
name = "System.Func<T, TResult>"
kind = "delegate"
members = ["[return: NotOwning] TResult Invoke(T arg)"]
"#,
        );
        assert!(
            s.text.contains("public enum FileMode\n{\nOpen,\nCreate,\n}"),
            "{}",
            s.text
        );
        assert!(
            s.text
                .contains("[return: NotOwning] public delegate TResult Func<T, TResult>(T arg);"),
            "{}",
            s.text
        );
        let arg = s.text.find("T arg").unwrap();
        let loc = s.locate(arg).unwrap();
        assert_eq!(loc.offset, "[return: NotOwning] TResult Invoke(".len());
    }

    #[test]
    fn global_namespace_types_have_no_namespace_block() {
        let s = source("[[type]]\nname = \"Widget\"\nmembers = [\"Widget()\"]\n");
        assert_eq!(s.text, "public class Widget\n{\npublic Widget();\n}\n");
    }

    #[test]
    fn reports_structural_errors_at_the_type_name() {
        let text = r#"
[[type]]
name = "N.Outer+Inner"
[[type]]
name = "N.A"
modifiers = ["partial"]
[[type]]
name = "N.A"
[[type]]
name = "N.D"
kind = "delegate"
members = ["void Run()"]
[[type]]
name = "N.List<int>"
"#;
        let errors = parse(text).unwrap().to_csharp().unwrap_err();
        let messages: Vec<&str> = errors.iter().map(|e| e.message.as_str()).collect();
        assert_eq!(errors.len(), 5, "{messages:?}");
        for needle in [
            "needs its outer type `N.Outer`",
            "unknown modifier `partial`",
            "`N.A` is defined twice",
            "exactly one member",
            "bad type name",
        ] {
            assert!(
                messages.iter().any(|m| m.contains(needle)),
                "{needle}: {messages:?}"
            );
        }
        for e in &errors {
            let span = e.span.clone().unwrap();
            assert!(text[span].starts_with("\"N."), "{e:?}");
        }
    }

    #[test]
    fn attribute_scanner_skips_nested_brackets_and_strings() {
        assert_eq!(after_attributes("[Calls(\"]\", \"x\")] void M()"), 18);
        assert_eq!(after_attributes(" [A][B] int P"), 8);
        assert_eq!(after_attributes("[A int P"), 0);
        assert_eq!(after_attributes("void M()"), 0);
        assert_eq!(find_invoke("Task InvokeAsync(); void Invoke ()"), Some(25));
    }
}
