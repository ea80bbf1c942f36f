//! Attributes as the annotator compares them: simple name plus argument
//! tokens, so that `[RlcSharp.Annotations.OwningAttribute]` and `[Owning]`
//! are the same attribute and `Calls("_s","Dispose")` equals
//! `Calls( "_s", "Dispose" )`.

use std::cmp::Ordering;
use std::sync::OnceLock;

use rlc_attributes::vocabulary::SpecAttr;
use tree_sitter::Node;

use super::syntax::{self, ATTRIBUTE_KINDS};

#[derive(Clone, Debug)]
pub(crate) struct AttrSpec {
    /// As it is (or will be) written between the brackets.
    pub text: String,
    /// Last name segment without the `Attribute` suffix.
    pub name: String,
    /// Tokens of the argument list; empty for none and for `()`.
    pub args: Vec<String>,
}

impl AttrSpec {
    /// Parses what the inference asks for, e.g. `MustCall("Close")`. Only a
    /// single attribute without a target specifier is accepted.
    pub(crate) fn parse(attribute: &str) -> Option<AttrSpec> {
        let text = attribute.trim();
        if text.is_empty() || text.contains(['\n', '\r']) {
            return None;
        }
        let wrapped = format!("[{text}]\nclass C {{}}\n");
        let tree = syntax::parse(&wrapped, None)?;
        let root = tree.root_node();
        if root.has_error() || root.named_child_count() != 1 {
            return None;
        }
        let list = root.named_child(0)?.named_child(0)?;
        if list.kind() != "attribute_list" || list.named_child_count() != 1 {
            return None;
        }
        let attr = list.named_child(0)?;
        if attr.kind() != "attribute" || attr.byte_range() != (1..1 + text.len()) {
            return None;
        }
        Some(AttrSpec::of(attr, &wrapped))
    }

    /// An attribute node of a parsed file.
    pub(crate) fn of(attr: Node, src: &str) -> AttrSpec {
        let name = attr
            .child_by_field_name("name")
            .map(|n| simple_name(&syntax::dotted_name(n, src)))
            .unwrap_or_default();
        let mut args = syntax::children(attr)
            .into_iter()
            .find(|c| c.kind() == "attribute_argument_list")
            .map(|a| syntax::tokens(a, src))
            .unwrap_or_default();
        if args.len() == 2 {
            args.clear();
        }
        // `[CreatesMustCallFor]` means `[CreatesMustCallFor("this")]`.
        if args.is_empty() && SpecAttr::from_name(&name) == Some(SpecAttr::CreatesMustCallFor) {
            args = this_target_args();
        }
        AttrSpec {
            text: syntax::text_of(attr, src).to_owned(),
            name,
            args,
        }
    }

    pub(crate) fn same(&self, other: &AttrSpec) -> bool {
        self.name == other.name && self.args == other.args
    }

    /// Both cannot stand on one declaration: a second copy of a single-use
    /// attribute with other arguments, or owning next to not-owning.
    pub(crate) fn conflicts(&self, other: &AttrSpec) -> bool {
        if self.name == other.name {
            return !self.same(other) && !allows_multiple(self.kind());
        }
        matches!(
            (self.kind(), other.kind()),
            (Some(SpecAttr::Owning), Some(SpecAttr::NotOwning))
                | (Some(SpecAttr::NotOwning), Some(SpecAttr::Owning))
        )
    }

    fn kind(&self) -> Option<SpecAttr> {
        SpecAttr::from_name(&self.name)
    }

    /// The order of several new attributes on one declaration: the
    /// vocabulary's order (obligation, aliasing, ownership, calls), then text.
    pub(crate) fn order(&self, other: &AttrSpec) -> Ordering {
        let rank = |a: &AttrSpec| {
            a.kind().map_or(SpecAttr::ALL.len(), |k| {
                SpecAttr::ALL.iter().position(|x| *x == k).unwrap_or(0)
            })
        };
        rank(self)
            .cmp(&rank(other))
            .then_with(|| self.text.cmp(&other.text))
    }
}

/// The argument tokens of `CreatesMustCallFor("this")`.
fn this_target_args() -> Vec<String> {
    static ARGS: OnceLock<Vec<String>> = OnceLock::new();
    ARGS.get_or_init(|| {
        AttrSpec::parse("CreatesMustCallFor(\"this\")")
            .map(|a| a.args)
            .unwrap_or_default()
    })
    .clone()
}

/// `AttributeUsage(AllowMultiple = true)` in RlcSharp.Annotations.cs.
fn allows_multiple(kind: Option<SpecAttr>) -> bool {
    matches!(kind, Some(SpecAttr::Calls | SpecAttr::CreatesMustCallFor))
}

fn simple_name(written: &str) -> String {
    let without_args = written.split('<').next().unwrap_or(written);
    let last = without_args
        .rsplit(['.', ':'])
        .next()
        .unwrap_or(without_args);
    match last.strip_suffix("Attribute") {
        Some(stem) if !stem.is_empty() => stem.to_owned(),
        _ => last.to_owned(),
    }
}

/// The target specifier of an attribute list (`return`, `param`, ...).
pub(crate) fn list_target<'s>(list: Node, src: &'s str) -> Option<&'s str> {
    syntax::children(list)
        .into_iter()
        .find(|c| c.kind() == "attribute_target_specifier")
        .and_then(|t| t.child(0))
        .map(|t| syntax::text_of(t, src))
}

/// The attributes among `nodes` (attribute lists, also inside `#if`) whose
/// list target passes `keep`.
pub(crate) fn existing(
    nodes: &[Node],
    src: &str,
    keep: impl Fn(Option<&str>) -> bool + Copy,
) -> Vec<AttrSpec> {
    let mut out = Vec::new();
    for &node in nodes {
        match node.kind() {
            "attribute_list" if keep(list_target(node, src)) => out.extend(
                syntax::children(node)
                    .into_iter()
                    .filter(|c| c.kind() == "attribute")
                    .map(|a| AttrSpec::of(a, src)),
            ),
            k if k.starts_with("preproc_") => {
                out.extend(existing(&syntax::children(node), src, keep))
            }
            _ => {}
        }
    }
    out
}

/// The last attribute list among `nodes` that new attributes may join.
pub(crate) fn last_plain_list<'t>(
    nodes: &[Node<'t>],
    src: &str,
    keep: impl Fn(Option<&str>) -> bool,
) -> Option<Node<'t>> {
    nodes
        .iter()
        .rev()
        .find(|n| n.kind() == "attribute_list" && keep(list_target(**n, src)))
        .copied()
}

pub(crate) fn is_attribute_node(node: Node) -> bool {
    ATTRIBUTE_KINDS.contains(&node.kind())
}

/// An inferred attribute as C# source (`Owning`, `MustCall("Close")`), as the
/// patch writes it between brackets.
pub fn csharp_attribute(attr: &rlc_core::infer::InferredAttr) -> String {
    use rlc_core::infer::InferredAttr;
    let quote = |s: &String| format!("\"{s}\"");
    match attr {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_names_and_arguments() {
        let a = AttrSpec::parse(" Calls(\"_s\",  \"Dispose\") ").unwrap();
        assert_eq!(a.text, "Calls(\"_s\",  \"Dispose\")");
        assert_eq!(a.name, "Calls");
        assert_eq!(a.args.concat(), "(\"_s\",\"Dispose\")");
        let q = AttrSpec::parse("global::RlcSharp.Annotations.OwningAttribute").unwrap();
        assert_eq!(q.name, "Owning");
        assert!(q.same(&AttrSpec::parse("Owning()").unwrap()));
        assert!(
            !AttrSpec::parse("MustCall(\"Close\")")
                .unwrap()
                .same(&AttrSpec::parse("MustCall").unwrap())
        );
    }

    #[test]
    fn rejects_anything_but_one_attribute() {
        for bad in [
            "",
            "Owning] class X {} [Foo",
            "Owning, NotOwning",
            "return: Owning",
            "Owning(",
            "A\nB",
            "1",
        ] {
            assert!(AttrSpec::parse(bad).is_none(), "{bad:?}");
        }
    }

    #[test]
    fn conflicts_follow_attribute_usage() {
        let p = |s| AttrSpec::parse(s).unwrap();
        assert!(p("MustCall(\"Close\")").conflicts(&p("MustCall(\"Dispose\")")));
        assert!(!p("Calls(\"a\", \"Dispose\")").conflicts(&p("Calls(\"b\", \"Dispose\")")));
        assert!(p("Owning").conflicts(&p("NotOwning")));
        assert!(!p("Owning").conflicts(&p("Owning")));
        assert!(!p("Owning").conflicts(&p("MustCallAlias")));
        assert!(!p("CreatesMustCallFor(\"this\")").conflicts(&p("CreatesMustCallFor(\"#0\")")));
    }

    #[test]
    fn creates_must_call_for_defaults_to_this() {
        let p = |s| AttrSpec::parse(s).unwrap();
        assert!(p("CreatesMustCallFor").same(&p("CreatesMustCallFor(\"this\")")));
        assert!(p("CreatesMustCallForAttribute()").same(&p("CreatesMustCallFor( \"this\" )")));
        assert!(!p("CreatesMustCallFor").same(&p("CreatesMustCallFor(\"#0\")")));
    }
}
