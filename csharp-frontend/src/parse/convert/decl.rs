//! Declaration syntax shared by members and bodies: types as written,
//! attributes with constant arguments, parameters, modifiers, type parameters
//! and constraints.

use tree_sitter::Node;

use super::kinds::{F, K};
use super::syn::Syn;
use crate::hir::{
    AttrValue, Attribute, AttributeArg, ConstValue, Constraint, Modifiers, Name, Param,
    ParamModifier, PathSegment, Predefined, TypeParam, TypeRef, Variance,
};

/// What precedes a declaration: attributes and modifiers.
#[derive(Default)]
pub(crate) struct Header {
    pub modifiers: Modifiers,
    pub attrs: Vec<Attribute>,
    pub return_attrs: Vec<Attribute>,
}

/// Deeper types (`A<A<A<...>>>`) and constant expressions become errors, so
/// that no input can exhaust the stack.
const MAX_TYPE_DEPTH: u32 = 64;

/// Names with more parts (`A.B.C...`) are not kept: a declaration or type
/// using one is dropped with a note. Real names have a few dozen at most.
pub(crate) const MAX_NAME_PARTS: usize = 256;

/// Strings longer than this are not kept in the HIR.
pub(crate) const MAX_KEPT_STRING: usize = 64;

impl<'t> Syn<'_, 't> {
    pub fn type_ref(&self, n: Node<'t>) -> TypeRef {
        self.type_at(n, 0)
    }

    fn type_at(&self, n: Node<'t>, depth: u32) -> TypeRef {
        if depth > MAX_TYPE_DEPTH {
            self.limit(
                n,
                format!(
                    "a type nested more than {MAX_TYPE_DEPTH} levels deep; it is taken as unknown"
                ),
            );
            return TypeRef::Error;
        }
        let inner = |f: F| {
            self.field(n, f)
                .map_or(TypeRef::Error, |t| self.type_at(t, depth + 1))
        };
        match self.kind(n) {
            K::Identifier => {
                let name = self.name(n);
                if name == "dynamic" {
                    return TypeRef::Predefined(Predefined::Dynamic);
                }
                TypeRef::Path {
                    qualifier: None,
                    segments: Box::new([PathSegment {
                        name,
                        args: Box::new([]),
                    }]),
                }
            }
            K::GenericName | K::QualifiedName | K::AliasQualifiedName => {
                let mut segments = Vec::new();
                match self.path_segments(n, depth, &mut segments) {
                    Some(qualifier) => TypeRef::Path {
                        qualifier,
                        segments: segments.into_boxed_slice(),
                    },
                    None => {
                        self.limit(
                            n,
                            format!(
                                "a type name of more than {MAX_NAME_PARTS} parts; \
                                 it is taken as unknown"
                            ),
                        );
                        TypeRef::Error
                    }
                }
            }
            K::PredefinedType => {
                Predefined::from_keyword(self.text(n)).map_or(TypeRef::Error, TypeRef::Predefined)
            }
            K::ImplicitType => TypeRef::Var,
            K::ArrayType => {
                let rank = self.field(n, F::Rank).map_or(1, |r| {
                    1 + self
                        .children(r)
                        .iter()
                        .filter(|c| self.text(**c) == ",")
                        .count()
                });
                TypeRef::Array(Box::new(inner(F::Type)), rank.min(u8::MAX as usize) as u8)
            }
            K::NullableType => TypeRef::Nullable(Box::new(inner(F::Type))),
            K::PointerType => TypeRef::Pointer(Box::new(inner(F::Type))),
            K::FunctionPointerType => TypeRef::FunctionPointer,
            K::RefType | K::ScopedType => TypeRef::Ref(Box::new(inner(F::Type))),
            K::TupleType => TypeRef::Tuple(
                self.named(n)
                    .into_iter()
                    .filter(|e| self.kind(*e) == K::TupleElement)
                    .map(|e| {
                        let ty = self
                            .field(e, F::Type)
                            .map_or(TypeRef::Error, |t| self.type_at(t, depth + 1));
                        (ty, self.field(e, F::Name).map(|id| self.name(id)))
                    })
                    .collect(),
            ),
            _ => TypeRef::Error,
        }
    }

    /// Pushes the segments of a (possibly qualified, generic) name; returns the
    /// `alias::` qualifier. Iterative: a qualified name nests once per dot, and
    /// generated code has names of thousands of parts. `None` when the name has
    /// more than [`MAX_NAME_PARTS`] parts (the caller says what it drops).
    fn path_segments(
        &self,
        n: Node<'t>,
        depth: u32,
        out: &mut Vec<PathSegment>,
    ) -> Option<Option<Name>> {
        let mut alias = None;
        let mut stack = vec![n];
        while let Some(c) = stack.pop() {
            if out.len() + stack.len() > MAX_NAME_PARTS {
                return None;
            }
            match self.kind(c) {
                K::QualifiedName => {
                    stack.extend(self.field(c, F::Name));
                    stack.extend(self.field(c, F::Qualifier));
                }
                K::AliasQualifiedName => {
                    stack.extend(self.field(c, F::Name));
                    if out.is_empty() {
                        alias = self.field(c, F::Alias).map(|a| self.name(a));
                    }
                }
                K::GenericName => {
                    let named = self.named(c);
                    let name = named
                        .first()
                        .map_or_else(Name::default, |id| self.name(*id));
                    let args = named
                        .iter()
                        .find(|c| self.kind(**c) == K::TypeArgumentList)
                        .map_or_else(Vec::new, |list| self.type_args_at(*list, depth + 1));
                    out.push(PathSegment {
                        name,
                        args: args.into_boxed_slice(),
                    });
                }
                _ => out.push(PathSegment {
                    name: self.name(c),
                    args: Box::new([]),
                }),
            }
        }
        Some(alias)
    }

    /// `<A, B>`; an unbound `<,>` gives one [`TypeRef::Error`] per parameter.
    pub fn type_args(&self, list: Node<'t>) -> Vec<TypeRef> {
        self.type_args_at(list, 0)
    }

    fn type_args_at(&self, list: Node<'t>, depth: u32) -> Vec<TypeRef> {
        let children = self.children(list);
        let types: Vec<TypeRef> = children
            .iter()
            .filter(|c| c.is_named())
            .map(|t| self.type_at(*t, depth + 1))
            .collect();
        if types.is_empty() {
            let arity = 1 + children.iter().filter(|c| self.text(**c) == ",").count();
            return vec![TypeRef::Error; arity];
        }
        types
    }

    /// A dotted name as segments (`A.B.C`, `global::A.B` without `global`);
    /// `None` when it has more than [`MAX_NAME_PARTS`] parts.
    pub fn dotted_name(&self, n: Node<'t>) -> Option<Vec<Name>> {
        let mut segments = Vec::new();
        self.path_segments(n, 0, &mut segments)?;
        Some(segments.into_iter().map(|s| s.name).collect())
    }

    /// The name as written, without whitespace or comments.
    pub fn compact_text(&self, n: Node<'t>) -> Name {
        let text = self.text(n);
        if text.bytes().any(|b| b.is_ascii_whitespace() || b == b'/') {
            let mut out = String::new();
            self.leaf_text(n, &mut out);
            Name::new(out)
        } else {
            Name::new(text)
        }
    }

    /// The text of the tokens under `n`, in order (an iterative walk).
    fn leaf_text(&self, n: Node<'t>, out: &mut String) {
        let mut stack = vec![n];
        while let Some(c) = stack.pop() {
            if c.child_count() == 0 {
                if !c.is_extra() {
                    out.push_str(self.text(c));
                }
                continue;
            }
            stack.extend(self.children(c).into_iter().rev());
        }
    }

    pub fn modifiers(&self, n: Node<'t>) -> Modifiers {
        self.header(n).modifiers
    }

    /// Attributes of a declaration, split into ordinary ones and `[return: ...]`.
    pub fn attributes(&self, n: Node<'t>) -> (Vec<Attribute>, Vec<Attribute>) {
        let h = self.header(n);
        (h.attrs, h.return_attrs)
    }

    /// Modifiers and attributes of a declaration, in one pass over its children.
    pub fn header(&self, n: Node<'t>) -> Header {
        let mut h = Header::default();
        let mut lists = Vec::new();
        self.for_each_child(n, |c| {
            match self.kind(c) {
                K::Modifier => h.modifiers |= Modifiers::from_keyword(self.text(c)),
                // `ref struct`, `ref` locals.
                K::Anon if self.text(c) == "ref" => {
                    h.modifiers |= Modifiers::REF;
                    // `ref partial struct`: the repair blanked `partial`.
                    let after = self.src.get(c.end_byte()..).unwrap_or("");
                    let after = after.trim_start();
                    if after.starts_with("partial")
                        && !after[7..].starts_with(|ch: char| ch.is_alphanumeric() || ch == '_')
                    {
                        h.modifiers |= Modifiers::PARTIAL;
                    }
                }
                K::AttributeList => lists.push(c),
                _ => {}
            }
        });
        for list in lists {
            let mut target = None;
            for c in self.named(list) {
                match self.kind(c) {
                    K::AttributeTargetSpecifier => {
                        let t = self.text(c);
                        target = Some(Name::new(t.trim_end_matches(':').trim()));
                    }
                    K::Attribute => {
                        let a = self.attribute(c, target.clone());
                        if target.as_deref() == Some("return") {
                            h.return_attrs.push(a);
                        } else {
                            h.attrs.push(a);
                        }
                    }
                    _ => {}
                }
            }
        }
        h
    }

    /// All attributes, `return:` ones included (for parameters, types, lambdas).
    pub fn all_attributes(&self, n: Node<'t>) -> Vec<Attribute> {
        let (mut attrs, mut ret) = self.attributes(n);
        attrs.append(&mut ret);
        attrs
    }

    pub fn attribute(&self, n: Node<'t>, target: Option<Name>) -> Attribute {
        let name = self
            .field(n, F::Name)
            .map_or_else(Name::default, |nm| self.compact_text(nm));
        let args = self
            .child_of(n, K::AttributeArgumentList)
            .map(|list| {
                self.named(list)
                    .into_iter()
                    .filter(|a| self.kind(*a) == K::AttributeArgument)
                    .map(|a| {
                        let value = self
                            .named(a)
                            .into_iter()
                            .rfind(|c| self.field(a, F::Name) != Some(*c))
                            .map_or(AttrValue::Other(String::new()), |v| self.attr_value(v, 0));
                        AttributeArg {
                            name: self.field(a, F::Name).map(|id| self.name(id)),
                            value,
                            range: Syn::range(a),
                        }
                    })
                    .collect()
            })
            .unwrap_or_default();
        Attribute {
            name,
            target,
            args,
            range: Syn::range(n),
        }
    }

    fn attr_value(&self, n: Node<'t>, depth: u32) -> AttrValue {
        let other = || AttrValue::Other(self.text(n).to_owned());
        if depth > MAX_TYPE_DEPTH {
            return other();
        }
        match self.kind(n) {
            K::StringLiteral | K::VerbatimStringLiteral | K::RawStringLiteral => {
                self.string_value(n).map_or_else(other, AttrValue::Str)
            }
            K::BooleanLiteral => AttrValue::Bool(self.text(n) == "true"),
            K::NullLiteral => AttrValue::Null,
            K::IntegerLiteral => parse_int(self.text(n)).map_or_else(other, AttrValue::Int),
            K::PrefixUnaryExpression => {
                let operand = self.first_named(n);
                match (self.text(n).trim_start().as_bytes().first(), operand) {
                    (Some(b'-'), Some(o)) => match self.attr_value(o, depth + 1) {
                        AttrValue::Int(i) => AttrValue::Int(i.wrapping_neg()),
                        _ => other(),
                    },
                    _ => other(),
                }
            }
            K::ParenthesizedExpression => self
                .named(n)
                .into_iter()
                .next()
                .map_or_else(other, |e| self.attr_value(e, depth + 1)),
            K::BinaryExpression => {
                let op = self.field(n, F::Operator).map(|o| self.text(o));
                let l = self
                    .field(n, F::Left)
                    .map(|e| self.attr_value(e, depth + 1));
                let r = self
                    .field(n, F::Right)
                    .map(|e| self.attr_value(e, depth + 1));
                match (op, l, r) {
                    (Some("+"), Some(AttrValue::Str(a)), Some(AttrValue::Str(b))) => {
                        AttrValue::Str(a + &b)
                    }
                    _ => other(),
                }
            }
            K::InvocationExpression => {
                let callee = self.field(n, F::Function);
                if callee.is_some_and(|c| self.text(c) == "nameof") {
                    let arg = self
                        .field(n, F::Arguments)
                        .and_then(|args| self.first_named(args))
                        .and_then(|a| self.named(a).into_iter().last());
                    if let Some(arg) = arg {
                        return AttrValue::NameOf(self.nameof_value(arg));
                    }
                }
                other()
            }
            K::TypeofExpression => AttrValue::TypeOf(
                self.field(n, F::Type)
                    .map_or(TypeRef::Error, |t| self.type_ref(t)),
            ),
            K::ArrayCreationExpression | K::ImplicitArrayCreationExpression => {
                self.child_of(n, K::InitializerExpression).map_or_else(
                    || AttrValue::Array(Vec::new()),
                    |init| self.attr_value(init, depth + 1),
                )
            }
            K::InitializerExpression => AttrValue::Array(
                self.named(n)
                    .into_iter()
                    .map(|e| self.attr_value(e, depth + 1))
                    .collect(),
            ),
            K::CollectionExpression => AttrValue::Array(
                self.named(n)
                    .into_iter()
                    .filter_map(|el| self.first_named(el))
                    .filter(|el| self.kind(*el) == K::ExpressionElement)
                    .filter_map(|el| self.first_named(el))
                    .map(|e| self.attr_value(e, depth + 1))
                    .collect(),
            ),
            _ => other(),
        }
    }

    /// The value of `nameof(a.b.C)`: the last simple name, `C`.
    pub fn nameof_value(&self, mut arg: Node<'t>) -> Name {
        loop {
            match self.kind(arg) {
                K::MemberAccessExpression | K::QualifiedName | K::AliasQualifiedName => {
                    match self.field(arg, F::Name) {
                        Some(n) => arg = n,
                        None => return self.name(arg),
                    }
                }
                K::GenericName => {
                    return self
                        .first_named(arg)
                        .map_or_else(Name::default, |id| self.name(id));
                }
                _ => return self.name(arg),
            }
        }
    }

    /// A parameter default value.
    pub fn const_value(&self, n: Node<'t>) -> ConstValue {
        match self.attr_value(n, 0) {
            AttrValue::Null => ConstValue::Null,
            AttrValue::Bool(b) => ConstValue::Bool(b),
            AttrValue::Int(i) => ConstValue::Int(i),
            AttrValue::Str(s) => ConstValue::Str(s),
            _ => ConstValue::Other,
        }
    }

    /// The value of a string literal (regular, verbatim or raw), escapes undone.
    pub fn string_value(&self, n: Node<'t>) -> Option<String> {
        let text = self.text(n);
        let text = text.strip_suffix("u8").unwrap_or(text);
        match self.kind(n) {
            K::StringLiteral => unescape(text.strip_prefix('"')?.strip_suffix('"')?),
            K::VerbatimStringLiteral => Some(
                text.strip_prefix("@\"")?
                    .strip_suffix('"')?
                    .replace("\"\"", "\""),
            ),
            K::RawStringLiteral => Some(raw_content(text)),
            _ => None,
        }
    }

    /// Parameters of a `parameter_list` or `bracketed_parameter_list`.
    pub fn params(&self, list: Node<'t>) -> Vec<Param> {
        let mut out = Vec::new();
        // `params T[] xs` is inlined into the list: attributes, `params`, type, name.
        let mut pending_attrs = Vec::new();
        let mut in_params = false;
        let mut pending_type = None;
        let mut start = None;
        let (type_field, name_field) = (self.field_id(F::Type), self.field_id(F::Name));
        for (field, c) in self.children_fields(list) {
            match self.kind(c) {
                K::Parameter => {
                    out.push(self.param(c));
                    pending_attrs.clear();
                }
                K::AttributeList => {
                    start.get_or_insert(c.start_byte());
                    pending_attrs.extend(self.all_attributes_of_list(c));
                }
                K::Anon if self.text(c) == "params" => {
                    start.get_or_insert(c.start_byte());
                    in_params = true;
                }
                _ if field == type_field && field != 0 => pending_type = Some(self.type_ref(c)),
                _ if field == name_field && field != 0 && in_params => {
                    let from = start.take().unwrap_or(c.start_byte());
                    out.push(Param {
                        name: self.name(c),
                        ty: pending_type.take(),
                        modifier: ParamModifier::Params,
                        default: None,
                        attrs: std::mem::take(&mut pending_attrs),
                        range: crate::hir::TextRange::new(from as u32, c.end_byte() as u32),
                    });
                    in_params = false;
                }
                _ => {}
            }
        }
        out
    }

    fn all_attributes_of_list(&self, list: Node<'t>) -> Vec<Attribute> {
        let mut target = None;
        let mut out = Vec::new();
        for c in self.named(list) {
            match self.kind(c) {
                K::AttributeTargetSpecifier => {
                    target = Some(Name::new(self.text(c).trim_end_matches(':').trim()));
                }
                K::Attribute => out.push(self.attribute(c, target.clone())),
                _ => {}
            }
        }
        out
    }

    pub fn param(&self, n: Node<'t>) -> Param {
        let mut modifier = ParamModifier::None;
        let mut default = None;
        let mut after_eq = false;
        for c in self.children(n) {
            match self.kind(c) {
                K::Modifier => {
                    modifier = match (modifier, self.text(c)) {
                        (_, "this") => ParamModifier::This,
                        (ParamModifier::This, _) => ParamModifier::This,
                        (ParamModifier::Ref, "readonly") => ParamModifier::RefReadonly,
                        (_, "ref") => ParamModifier::Ref,
                        (_, "out") => ParamModifier::Out,
                        (_, "in") => ParamModifier::In,
                        (m, _) => m,
                    }
                }
                K::Anon if self.text(c) == "=" => after_eq = true,
                _ if after_eq && c.is_named() => default = Some(self.const_value(c)),
                _ => {}
            }
        }
        if modifier == ParamModifier::None {
            modifier = self.blanked_lambda_modifier(n);
        }
        Param {
            name: self
                .field(n, F::Name)
                .map_or_else(Name::default, |id| self.name(id)),
            ty: self.field(n, F::Type).map(|t| self.type_ref(t)),
            modifier,
            default,
            attrs: self.all_attributes(n),
            range: Syn::range(n),
        }
    }

    /// The modifier of a lambda parameter that the grammar does not take
    /// (`RepairKind::LAMBDA_PARAM_MODIFIER`): blanked for the parser, it is
    /// the word right before the parameter in the original text (a parameter
    /// that holds its modifiers follows `(`, `,` or an attribute).
    fn blanked_lambda_modifier(&self, n: Node<'t>) -> ParamModifier {
        let Some(before) = self.src.get(..n.start_byte()) else {
            return ParamModifier::None;
        };
        let before = before.trim_end();
        // The character before the word may take several bytes (`é`, `¦`).
        let word_start = before
            .char_indices()
            .rev()
            .find(|(_, c)| !c.is_ascii_alphabetic())
            .map_or(0, |(i, c)| i + c.len_utf8());
        match &before[word_start..] {
            "ref" => ParamModifier::Ref,
            "out" => ParamModifier::Out,
            "in" => ParamModifier::In,
            _ => ParamModifier::None,
        }
    }

    /// Type parameters from a `type_parameter_list` child (or field).
    pub fn type_params(&self, n: Node<'t>) -> Vec<TypeParam> {
        let list = self
            .field(n, F::TypeParameters)
            .or_else(|| self.child_of(n, K::TypeParameterList));
        let Some(list) = list else {
            return Vec::new();
        };
        self.named(list)
            .into_iter()
            .filter(|p| self.kind(*p) == K::TypeParameter)
            .map(|p| TypeParam {
                name: self
                    .field(p, F::Name)
                    .map_or_else(Name::default, |id| self.name(id)),
                variance: if self.has_token(p, "in") {
                    Variance::In
                } else if self.has_token(p, "out") {
                    Variance::Out
                } else {
                    Variance::None
                },
                attrs: self.all_attributes(p),
            })
            .collect()
    }

    pub fn constraints(&self, n: Node<'t>) -> Vec<Constraint> {
        self.named(n)
            .into_iter()
            .filter(|c| self.kind(*c) == K::TypeParameterConstraintsClause)
            .map(|clause| {
                let named = self.named(clause);
                let param = named
                    .iter()
                    .find(|c| self.kind(**c) == K::Identifier)
                    .map_or_else(Name::default, |id| self.name(*id));
                let bounds = named
                    .iter()
                    .filter(|c| self.kind(**c) == K::TypeParameterConstraint)
                    .filter_map(|c| self.field(*c, F::Type))
                    .map(|t| self.type_ref(t))
                    .collect();
                Constraint { param, bounds }
            })
            .collect()
    }
}

/// An integer literal's value (hex, binary, `_` separators, suffixes); `None`
/// when it does not fit an `i64`.
pub(crate) fn parse_int(text: &str) -> Option<i64> {
    let t: String = text.chars().filter(|&c| c != '_').collect();
    let t = t.trim_end_matches(['u', 'U', 'l', 'L']);
    let value = if let Some(hex) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        u64::from_str_radix(hex, 16).ok()?
    } else if let Some(bin) = t.strip_prefix("0b").or_else(|| t.strip_prefix("0B")) {
        u64::from_str_radix(bin, 2).ok()?
    } else {
        t.parse::<u64>().ok()?
    };
    // Hex literals may use all 64 bits (`0xFFFFFFFFFFFFFFFF`).
    Some(value as i64)
}

/// Undoes the escapes of a regular string literal's content.
pub(crate) fn unescape(s: &str) -> Option<String> {
    if !s.contains('\\') {
        return Some(s.to_owned());
    }
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let e = chars.next()?;
        let simple = match e {
            'n' => Some('\n'),
            't' => Some('\t'),
            'r' => Some('\r'),
            '0' => Some('\0'),
            'a' => Some('\x07'),
            'b' => Some('\x08'),
            'e' => Some('\x1b'),
            'f' => Some('\x0c'),
            'v' => Some('\x0b'),
            '\\' | '"' | '\'' => Some(e),
            _ => None,
        };
        if let Some(c) = simple {
            out.push(c);
            continue;
        }
        let digits = match e {
            'x' => chars
                .clone()
                .take(4)
                .take_while(char::is_ascii_hexdigit)
                .count(),
            'u' => 4,
            'U' => 8,
            _ => return None,
        };
        let hex: String = chars.by_ref().take(digits).collect();
        let code = u32::from_str_radix(&hex, 16).ok()?;
        out.push(char::from_u32(code)?);
    }
    Some(out)
}

/// The content of a raw string literal: single-line between the quotes;
/// multi-line without the first and last lines and the closing line's indentation.
fn raw_content(text: &str) -> String {
    let quotes = text.bytes().take_while(|&b| b == b'"').count();
    let inner = text
        .get(quotes..text.len().saturating_sub(quotes))
        .unwrap_or("");
    if !inner.contains('\n') {
        return inner.to_owned();
    }
    let mut lines: Vec<&str> = inner.split('\n').collect();
    let last = lines.pop().unwrap_or("");
    let indent = last.len() - last.trim_start().len();
    lines
        .iter()
        .skip(1)
        .map(|l| {
            let l = l.strip_suffix('\r').unwrap_or(l);
            l.get(indent.min(l.len() - l.trim_start().len())..)
                .unwrap_or(l)
        })
        .collect::<Vec<_>>()
        .join("\n")
}
