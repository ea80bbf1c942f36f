//! Model type names: `System.Collections.Generic.List<T>+Enumerator`.

use std::fmt;

/// A parsed model type name: namespace, then the type with its outer types.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TypeName {
    /// Dotted namespace; empty for the global namespace.
    pub namespace: String,
    /// The outermost type first; nested types follow (`+` in the written name).
    pub segments: Vec<NameSegment>,
}

/// One type of a (possibly nested) name, with its own type parameters.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct NameSegment {
    pub name: String,
    pub type_params: Vec<String>,
}

impl NameSegment {
    fn parse(text: &str) -> Result<NameSegment, String> {
        let text = text.trim();
        let (name, type_params) = match text.split_once('<') {
            None => (text, Vec::new()),
            Some((name, rest)) => {
                let inner = rest
                    .strip_suffix('>')
                    .ok_or_else(|| format!("`{text}`: type parameters must end with `>`"))?;
                let params: Vec<String> = inner.split(',').map(|p| p.trim().to_string()).collect();
                if let Some(bad) = params.iter().find(|p| !is_identifier(p)) {
                    return Err(format!(
                        "`{text}`: `{bad}` is not a type parameter name (write `List<T>`, not `List<int>`)"
                    ));
                }
                (name.trim_end(), params)
            }
        };
        if !is_identifier(name) {
            return Err(format!("`{name}` is not a C# type name"));
        }
        Ok(NameSegment {
            name: name.to_string(),
            type_params,
        })
    }

    /// `List<T>`.
    pub fn declaration(&self) -> String {
        if self.type_params.is_empty() {
            self.name.clone()
        } else {
            format!("{}<{}>", self.name, self.type_params.join(", "))
        }
    }

    /// `` List`1 ``, the metadata form that tells generic arities apart.
    pub fn key(&self) -> String {
        if self.type_params.is_empty() {
            self.name.clone()
        } else {
            format!("{}`{}", self.name, self.type_params.len())
        }
    }
}

impl TypeName {
    /// Parses `Namespace.Name<T, U>+Nested<V>`.
    pub fn parse(text: &str) -> Result<TypeName, String> {
        let mut parts = text.split('+');
        let first = parts.next().unwrap_or_default().trim();
        let plain_end = first.find('<').unwrap_or(first.len());
        let (namespace, outer) = match first[..plain_end].rfind('.') {
            Some(dot) => (&first[..dot], &first[dot + 1..]),
            None => ("", first),
        };
        if !namespace.is_empty() && !namespace.split('.').all(is_identifier) {
            return Err(format!("`{namespace}` is not a namespace name"));
        }
        let mut segments = vec![NameSegment::parse(outer)?];
        for nested in parts {
            segments.push(NameSegment::parse(nested)?);
        }
        Ok(TypeName {
            namespace: namespace.to_string(),
            segments,
        })
    }

    /// The innermost type's name without type parameters: `Enumerator`.
    pub fn simple_name(&self) -> &str {
        self.segments.last().map_or("", |s| s.name.as_str())
    }

    /// The innermost type's own segment.
    pub fn last(&self) -> Option<&NameSegment> {
        self.segments.last()
    }

    /// The type that declares this nested type.
    pub fn outer(&self) -> Option<TypeName> {
        (self.segments.len() > 1).then(|| TypeName {
            namespace: self.namespace.clone(),
            segments: self.segments[..self.segments.len() - 1].to_vec(),
        })
    }

    /// Every type parameter in scope in the type: the outer types' and its own.
    pub fn type_params(&self) -> impl Iterator<Item = &str> {
        self.segments
            .iter()
            .flat_map(|s| s.type_params.iter().map(String::as_str))
    }

    /// The metadata-style key, unique per type: ``System.Collections.Generic.List`1+Enumerator``.
    pub fn key(&self) -> String {
        let nested: Vec<String> = self.segments.iter().map(NameSegment::key).collect();
        let nested = nested.join("+");
        if self.namespace.is_empty() {
            nested
        } else {
            format!("{}.{nested}", self.namespace)
        }
    }
}

impl fmt::Display for TypeName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.namespace.is_empty() {
            write!(f, "{}.", self.namespace)?;
        }
        let nested: Vec<String> = self.segments.iter().map(NameSegment::declaration).collect();
        f.write_str(&nested.join("+"))
    }
}

/// A C# identifier that is not a reserved keyword (`@` escapes excluded:
/// model names never need them).
pub fn is_identifier(text: &str) -> bool {
    let mut chars = text.chars();
    chars.next().is_some_and(|c| c == '_' || c.is_alphabetic())
        && chars.all(|c| c == '_' || c.is_alphanumeric())
        && !KEYWORDS.contains(&text)
}

/// Whether `word` is one of C#'s reserved keywords (which an identifier
/// spells with `@`).
pub fn is_keyword(word: &str) -> bool {
    KEYWORDS.contains(&word)
}

const KEYWORDS: [&str; 77] = [
    "abstract",
    "as",
    "base",
    "bool",
    "break",
    "byte",
    "case",
    "catch",
    "char",
    "checked",
    "class",
    "const",
    "continue",
    "decimal",
    "default",
    "delegate",
    "do",
    "double",
    "else",
    "enum",
    "event",
    "explicit",
    "extern",
    "false",
    "finally",
    "fixed",
    "float",
    "for",
    "foreach",
    "goto",
    "if",
    "implicit",
    "in",
    "int",
    "interface",
    "internal",
    "is",
    "lock",
    "long",
    "namespace",
    "new",
    "null",
    "object",
    "operator",
    "out",
    "override",
    "params",
    "private",
    "protected",
    "public",
    "readonly",
    "ref",
    "return",
    "sbyte",
    "sealed",
    "short",
    "sizeof",
    "stackalloc",
    "static",
    "string",
    "struct",
    "switch",
    "this",
    "throw",
    "true",
    "try",
    "typeof",
    "uint",
    "ulong",
    "unchecked",
    "unsafe",
    "ushort",
    "using",
    "virtual",
    "void",
    "volatile",
    "while",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_namespaces_generics_and_nesting() {
        let n =
            TypeName::parse("System.Collections.Generic.Dictionary<TKey, TValue>+KeyCollection")
                .unwrap();
        assert_eq!(n.namespace, "System.Collections.Generic");
        assert_eq!(n.simple_name(), "KeyCollection");
        assert_eq!(n.type_params().collect::<Vec<_>>(), ["TKey", "TValue"]);
        assert_eq!(
            n.key(),
            "System.Collections.Generic.Dictionary`2+KeyCollection"
        );
        assert_eq!(
            n.to_string(),
            "System.Collections.Generic.Dictionary<TKey, TValue>+KeyCollection"
        );
        let outer = n.outer().unwrap();
        assert_eq!(outer.key(), "System.Collections.Generic.Dictionary`2");
        assert_eq!(outer.outer(), None);
    }

    #[test]
    fn global_namespace_and_plain_names() {
        let n = TypeName::parse("Widget").unwrap();
        assert_eq!(n.namespace, "");
        assert_eq!(n.key(), "Widget");
        assert_eq!(TypeName::parse("A.B.C").unwrap().key(), "A.B.C");
    }

    #[test]
    fn rejects_malformed_names() {
        for bad in [
            "",
            "System.",
            "System..IO.Stream",
            "System.List<int>",
            "System.List<T",
            "System.List<>",
            "System.IO.Stream+",
            "1Bad.Name",
            "System.Func<T, TResult>+",
        ] {
            assert!(TypeName::parse(bad).is_err(), "{bad:?} was accepted");
        }
    }
}
