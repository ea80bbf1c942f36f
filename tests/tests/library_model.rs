//! The embedded .NET library model: every file loads, every signature is C#
//! that tree-sitter parses as exactly one member, every type a signature or a
//! base list names is a model type, a predefined type, a type parameter or an
//! entry of the file's `external` list, and the spec attributes are used as
//! their definitions require. Also: the README's coverage table is current,
//! and `RlcSharp.Annotations.cs` declares the attributes and compiles with mcs.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::process::Command;

use rlc_attributes::library::{
    self, CSharpSource, LibraryFile, LibraryTypeKind, PieceOrigin, TypeName,
};
use rlc_attributes::vocabulary::SpecAttr;
use rustc_hash::{FxHashMap, FxHashSet};
use tree_sitter::{Node, Parser, Tree};

/// One embedded file, generated as C# and parsed.
struct Loaded {
    name: &'static str,
    file: LibraryFile,
    source: CSharpSource,
    tree: Tree,
    external: FxHashSet<String>,
}

/// What the checks need to know of a model type.
struct TypeFacts {
    file: usize,
    ty: usize,
    kind: LibraryTypeKind,
    /// Resolved base keys (`None` where the base did not resolve: reported already).
    bases: Vec<Option<String>>,
    methods: FxHashSet<String>,
}

struct Model {
    files: Vec<Loaded>,
    /// Type key -> (file, index in the file).
    keys: FxHashMap<String, (usize, usize)>,
    facts: FxHashMap<String, TypeFacts>,
    problems: Vec<String>,
}

fn parser() -> Parser {
    let mut parser = Parser::new();
    parser
        .set_language(&tree_sitter_c_sharp::LANGUAGE.into())
        .expect("the C# grammar loads");
    parser
}

fn load() -> Model {
    load_texts(library::embedded())
}

/// Parses and generates every file, and indexes the type names.
fn load_texts(texts: &[(&'static str, &str)]) -> Model {
    let mut parser = parser();
    let mut model = Model {
        files: Vec::new(),
        keys: FxHashMap::default(),
        facts: FxHashMap::default(),
        problems: Vec::new(),
    };
    for &(name, text) in texts {
        let file = match library::parse(text) {
            Ok(f) => f,
            Err(e) => {
                model.problems.push(format!("{name}: {e} at {:?}", e.span));
                continue;
            }
        };
        let source = match file.to_csharp() {
            Ok(s) => s,
            Err(errors) => {
                for e in errors {
                    let at = e.span.map(|s| line_of(text, s.start)).unwrap_or(0);
                    model.problems.push(format!("{name}:{at}: {}", e.message));
                }
                continue;
            }
        };
        let Some(tree) = parser.parse(&source.text, None) else {
            model
                .problems
                .push(format!("{name}: tree-sitter gave no tree"));
            continue;
        };
        let mut external = FxHashSet::default();
        for e in &file.external {
            match TypeName::parse(e) {
                Ok(n) => {
                    external.insert(n.key());
                }
                Err(err) => model
                    .problems
                    .push(format!("{name}: external `{e}`: {err}")),
            }
        }
        let index = model.files.len();
        for (t, ty) in file.types.iter().enumerate() {
            let Ok(n) = ty.type_name() else { continue };
            if let Some((other, _)) = model.keys.insert(n.key(), (index, t)) {
                let other = model.files.get(other).map_or(name, |f| f.name);
                model
                    .problems
                    .push(format!("{name}: type `{n}` is also defined in {other}"));
            }
        }
        model.files.push(Loaded {
            name,
            file,
            source,
            tree,
            external,
        });
    }
    for f in &model.files {
        for e in &f.external {
            if model.keys.contains_key(e) {
                model.problems.push(format!(
                    "{}: external type `{e}` is defined in the model: drop it from `external`",
                    f.name
                ));
            }
        }
    }
    model
}

fn line_of(text: &str, offset: usize) -> usize {
    text.get(..offset).map_or(0, |t| t.lines().count() + 1)
}

fn text<'t>(node: Node<'_>, source: &'t str) -> &'t str {
    source.get(node.byte_range()).unwrap_or_default()
}

const MEMBER_KINDS: [&str; 9] = [
    "method_declaration",
    "constructor_declaration",
    "property_declaration",
    "indexer_declaration",
    "event_declaration",
    "event_field_declaration",
    "operator_declaration",
    "conversion_operator_declaration",
    "field_declaration",
];

const TYPE_DECLARATION_KINDS: [&str; 4] = [
    "class_declaration",
    "struct_declaration",
    "interface_declaration",
    "enum_declaration",
];

/// The lexical context of a declaration.
#[derive(Clone, Default)]
struct Scope {
    namespace: String,
    /// Keys of the enclosing types, innermost last.
    types: Vec<String>,
    type_params: Vec<String>,
}

/// Walks one file's tree: resolves every type, checks every member.
struct Walker<'m> {
    model: &'m Model,
    file: usize,
    /// (type, member) -> how many declarations it produced.
    declarations: FxHashMap<(usize, usize), usize>,
    /// Type key -> resolved bases and method names.
    facts: Vec<(String, Vec<Option<String>>, FxHashSet<String>)>,
    /// Entries of the file's `external` list that some signature named.
    used_external: FxHashSet<String>,
    /// (declaring type key, member signature): a type declares each signature once.
    signatures: FxHashSet<(String, String)>,
    problems: Vec<String>,
}

impl<'m> Walker<'m> {
    fn loaded(&self) -> &'m Loaded {
        let model: &'m Model = self.model;
        &model.files[self.file]
    }

    fn src(&self) -> &'m str {
        &self.loaded().source.text
    }

    /// `system_io.toml: System.IO.Stream: member `int Read(...)``: where a node comes from.
    fn place(&self, node: Node<'_>) -> String {
        let f = self.loaded();
        match f.source.locate_range(node.byte_range()) {
            Some(loc) => {
                let ty = &f.file.types[loc.ty];
                let what = match loc.origin {
                    PieceOrigin::Base(b) => format!("base `{}`", ty.bases[b].get_ref()),
                    PieceOrigin::Member(m) => format!("member `{}`", ty.members[m].get_ref()),
                };
                format!("{}: {}: {what}", f.name, ty.name.get_ref())
            }
            None => {
                let start = node.start_byte().saturating_sub(40);
                let context = f
                    .source
                    .text
                    .get(start..node.end_byte().min(start + 120))
                    .unwrap_or_default();
                format!("{}: generated text near `{context}`", f.name)
            }
        }
    }

    fn problem(&mut self, node: Node<'_>, message: impl AsRef<str>) {
        let place = self.place(node);
        self.problems.push(format!("{place}: {}", message.as_ref()));
    }

    fn walk(&mut self, node: Node<'_>, scope: &Scope) {
        let kind = node.kind();
        if kind == "namespace_declaration" {
            let name = node
                .child_by_field_name("name")
                .map(|n| text(n, self.src()).to_string())
                .unwrap_or_default();
            let mut inner = scope.clone();
            inner.namespace = join(&scope.namespace, &name, ".");
            self.walk_children(node, &inner);
        } else if TYPE_DECLARATION_KINDS.contains(&kind) || kind == "delegate_declaration" {
            self.type_declaration(node, scope);
        } else if MEMBER_KINDS.contains(&kind) {
            self.member(node, scope);
        } else if kind == "enum_member_declaration" {
            self.count(node);
        } else {
            self.walk_children(node, scope);
        }
    }

    fn walk_children(&mut self, node: Node<'_>, scope: &Scope) {
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            self.walk(child, scope);
        }
    }

    fn type_declaration(&mut self, node: Node<'_>, scope: &Scope) {
        let src = self.src();
        let name = node
            .child_by_field_name("name")
            .map(|n| text(n, src).to_string())
            .unwrap_or_default();
        let params = type_params(node, src);
        let segment = if params.is_empty() {
            name
        } else {
            format!("{name}`{}", params.len())
        };
        let key = match scope.types.last() {
            Some(outer) => format!("{outer}+{segment}"),
            None => join(&scope.namespace, &segment, "."),
        };
        let mut inner = scope.clone();
        inner.type_params.extend(params);
        inner.types.push(key.clone());
        let mut bases = Vec::new();
        if let Some(base_list) = child_of_kind(node, "base_list") {
            let mut cursor = base_list.walk();
            for base in base_list.named_children(&mut cursor) {
                bases.push(self.resolve(base, &inner));
            }
        }
        if node.kind() == "delegate_declaration" {
            self.count(node);
            self.signature(node, &inner);
            self.facts.push((key, bases, FxHashSet::default()));
            return;
        }
        let mut methods = FxHashSet::default();
        if let Some(body) = node.child_by_field_name("body") {
            let mut cursor = body.walk();
            for member in body.named_children(&mut cursor) {
                if member.kind() == "method_declaration"
                    && let Some(n) = member.child_by_field_name("name")
                {
                    methods.insert(text(n, src).to_string());
                }
            }
            self.walk_children(body, &inner);
        }
        self.facts.push((key, bases, methods));
    }

    /// Records that a model member produced this declaration.
    fn count(&mut self, node: Node<'_>) {
        let loc = self.loaded().source.locate_range(node.byte_range());
        match loc {
            Some(loc) => match loc.origin {
                PieceOrigin::Member(m) => *self.declarations.entry((loc.ty, m)).or_default() += 1,
                PieceOrigin::Base(_) => self.problem(node, "a base list holds a declaration"),
            },
            None => self.problem(node, "a declaration made of generated text only"),
        }
    }

    fn member(&mut self, node: Node<'_>, scope: &Scope) {
        let kind = node.kind();
        self.count(node);
        let src = self.src();
        let declaring = scope.types.last().cloned().unwrap_or_default();
        let declaring_kind = self
            .model
            .keys
            .get(&declaring)
            .map(|&(f, t)| self.model.files[f].file.types[t].kind);
        if kind == "constructor_declaration" {
            let name = node
                .child_by_field_name("name")
                .map_or("", |n| text(n, src));
            let simple = declaring
                .rsplit(['.', '+'])
                .next()
                .unwrap_or_default()
                .split('`')
                .next()
                .unwrap_or_default();
            if name != simple {
                self.problem(
                    node,
                    format!(
                        "a constructor must be named `{simple}` (a method needs a return type)"
                    ),
                );
            }
            if declaring_kind == Some(LibraryTypeKind::Interface) {
                self.problem(node, "an interface has no constructors");
            }
        }
        if kind == "field_declaration" && declaring_kind == Some(LibraryTypeKind::Interface) {
            self.problem(node, "an interface has no fields");
        }
        let mut inner = scope.clone();
        inner.type_params.extend(type_params(node, src));
        self.signature(node, &inner);
        self.specs(node, src);
        let signature = self.member_signature(node, &inner);
        if !self.signatures.insert((declaring, signature.clone())) {
            self.problem(node, format!("`{signature}` is declared twice in the type"));
        }
    }

    /// What tells a member apart from the others of its type, as C# sees it:
    /// the name, the method arity, and the parameter types with their
    /// `ref`/`out`/`in` (nullable annotations on reference types do not count).
    fn member_signature(&self, node: Node<'_>, scope: &Scope) -> String {
        let src = self.src();
        let field = |name: &str| node.child_by_field_name(name).map_or("", |n| text(n, src));
        let name = match node.kind() {
            "constructor_declaration" => ".ctor".to_string(),
            "indexer_declaration" => "this".to_string(),
            "operator_declaration" => format!("operator {}", field("operator")),
            "conversion_operator_declaration" => {
                let target = node
                    .child_by_field_name("type")
                    .map(|t| self.canonical(t, scope))
                    .unwrap_or_default();
                format!("operator {target}")
            }
            "field_declaration" | "event_field_declaration" => {
                let declaration = child_of_kind(node, "variable_declaration");
                let declarator = declaration.and_then(|d| child_of_kind(d, "variable_declarator"));
                let name = declarator.and_then(|d| d.child_by_field_name("name"));
                return name.map_or("", |n| text(n, src)).to_string();
            }
            "method_declaration" => {
                let arity = type_params(node, src).len();
                if arity == 0 {
                    field("name").to_string()
                } else {
                    format!("{}`{arity}", field("name"))
                }
            }
            _ => return field("name").to_string(),
        };
        let params: Vec<String> = parameter_types(node, src)
            .into_iter()
            .map(|(by_ref, ty)| {
                let ty = self.canonical(ty, scope);
                match by_ref.map(|m| text(m, src)) {
                    Some(m) => format!("{m} {ty}"),
                    None => ty,
                }
            })
            .collect();
        format!("{name}({})", params.join(", "))
    }

    /// A type as signatures compare it: named types by their key, type
    /// parameters by name, `?` only on value types.
    fn canonical(&self, node: Node<'_>, scope: &Scope) -> String {
        let src = self.src();
        let inner = |n: Node<'_>| {
            n.child_by_field_name("type")
                .map(|t| self.canonical(t, scope))
                .unwrap_or_default()
        };
        match node.kind() {
            "nullable_type" if self.is_value_type(node.child_by_field_name("type"), scope) => {
                format!("{}?", inner(node))
            }
            "nullable_type" => inner(node),
            "array_type" => {
                let rank = node
                    .child_by_field_name("rank")
                    .map_or("[]", |r| text(r, src));
                format!("{}{rank}", inner(node))
            }
            "pointer_type" => format!("{}*", inner(node)),
            "ref_type" | "scoped_type" => format!("ref {}", inner(node)),
            "tuple_type" => {
                let mut cursor = node.walk();
                let elements: Vec<String> = node
                    .named_children(&mut cursor)
                    .filter_map(|e| e.child_by_field_name("type"))
                    .map(|t| self.canonical(t, scope))
                    .collect();
                format!("({})", elements.join(", "))
            }
            "identifier" | "generic_name" | "qualified_name" | "alias_qualified_name" => {
                let mut segments = Vec::new();
                let mut global = false;
                if !flatten(node, src, &mut segments, &mut global) {
                    return text(node, src).to_string();
                }
                let args: Vec<String> = segments
                    .iter()
                    .flat_map(|(_, args)| args.iter().map(|&a| self.canonical(a, scope)))
                    .collect();
                let base = self
                    .lookup(&segments, global, scope)
                    .unwrap_or_else(|| text(node, src).to_string());
                if args.is_empty() {
                    base
                } else {
                    format!("{base}<{}>", args.join(", "))
                }
            }
            _ => text(node, src).to_string(),
        }
    }

    fn is_value_type(&self, node: Option<Node<'_>>, scope: &Scope) -> bool {
        let Some(node) = node else { return false };
        let src = self.src();
        match node.kind() {
            "predefined_type" => !matches!(text(node, src), "string" | "object" | "dynamic"),
            "tuple_type" => true,
            "identifier" | "generic_name" | "qualified_name" | "alias_qualified_name" => {
                let mut segments = Vec::new();
                let mut global = false;
                // `T?` may be `Nullable<T>` (`where T : struct`): keep the `?`.
                flatten(node, src, &mut segments, &mut global)
                    && (is_type_param(&segments, global, scope)
                        || self
                            .lookup(&segments, global, scope)
                            .and_then(|k| self.model.keys.get(&k))
                            .is_some_and(|&(f, t)| {
                                matches!(
                                    self.model.files[f].file.types[t].kind,
                                    LibraryTypeKind::Struct | LibraryTypeKind::Enum
                                )
                            }))
            }
            _ => false,
        }
    }

    /// Resolves the types of a member's signature (return, parameters,
    /// constraints, variable types), not looking into attributes or default values.
    fn signature(&mut self, node: Node<'_>, scope: &Scope) {
        let mut slots = Vec::new();
        let mut cursor = node.walk();
        if cursor.goto_first_child() {
            loop {
                slots.push((cursor.field_name(), cursor.node()));
                if !cursor.goto_next_sibling() {
                    break;
                }
            }
        }
        for (field, child) in slots {
            if matches!(field, Some("type" | "returns")) {
                self.resolve(child, scope);
            } else if matches!(
                child.kind(),
                "parameter_list"
                    | "bracketed_parameter_list"
                    | "parameter"
                    | "variable_declaration"
                    | "type_parameter_constraints_clause"
                    | "type_parameter_constraint"
            ) {
                self.signature(child, scope);
            }
        }
    }

    /// The key of the named type `node` denotes; unknown names are problems.
    fn resolve(&mut self, node: Node<'_>, scope: &Scope) -> Option<String> {
        match node.kind() {
            "predefined_type" | "implicit_type" | "function_pointer_type" => None,
            "nullable_type" | "array_type" | "pointer_type" | "ref_type" | "scoped_type" => {
                let inner = node.child_by_field_name("type")?;
                self.resolve(inner, scope)
            }
            "tuple_type" => {
                let mut cursor = node.walk();
                let elements: Vec<Node<'_>> = node.named_children(&mut cursor).collect();
                for element in elements {
                    if let Some(t) = element.child_by_field_name("type") {
                        self.resolve(t, scope);
                    }
                }
                None
            }
            "identifier" | "generic_name" | "qualified_name" | "alias_qualified_name" => {
                self.resolve_name(node, scope)
            }
            other => {
                self.problem(node, format!("unexpected type syntax `{other}`"));
                None
            }
        }
    }

    fn resolve_name(&mut self, node: Node<'_>, scope: &Scope) -> Option<String> {
        let src = self.src();
        let mut segments = Vec::new();
        let mut global = false;
        if !flatten(node, src, &mut segments, &mut global) {
            self.problem(node, format!("unsupported type name `{}`", text(node, src)));
            return None;
        }
        for (_, args) in &segments {
            for &arg in args {
                self.resolve(arg, scope);
            }
        }
        if is_type_param(&segments, global, scope) {
            return None;
        }
        let found = self.lookup(&segments, global, scope);
        match &found {
            Some(k) if !self.model.keys.contains_key(k) => {
                self.used_external.insert(k.clone());
            }
            Some(_) => {}
            None => self.problem(node, format!("unknown type `{}`", text(node, src))),
        }
        found
    }

    /// The model or `external` key a written name denotes (a type parameter: its name).
    fn lookup(
        &self,
        segments: &[(String, Vec<Node<'_>>)],
        global: bool,
        scope: &Scope,
    ) -> Option<String> {
        if is_type_param(segments, global, scope) {
            return segments.first().map(|(name, _)| name.clone());
        }
        let keys: Vec<String> = segments
            .iter()
            .map(|(name, args)| {
                if args.is_empty() {
                    name.clone()
                } else {
                    format!("{name}`{}", args.len())
                }
            })
            .collect();
        candidates(&keys, segments, scope, global, &self.loaded().file.usings)
            .into_iter()
            .find(|k| self.model.keys.contains_key(k) || self.loaded().external.contains(k))
    }

    /// The spec attributes of a member, used as their definitions require.
    fn specs(&mut self, node: Node<'_>, src: &str) {
        let kind = node.kind();
        let is_static = has_modifier(node, src, "static");
        let mut member_attrs = Vec::new();
        let mut return_attrs = Vec::new();
        for (target, attr, attr_node) in attributes(node, src) {
            match target.as_deref() {
                None => member_attrs.push((attr, attr_node)),
                Some("return") => return_attrs.push((attr, attr_node)),
                Some(other) => self.problem(
                    attr_node,
                    format!("attribute target `{other}:` is not used by the model"),
                ),
            }
        }
        let params = parameters(node);
        let is_extension = params
            .first()
            .is_some_and(|p| has_modifier(*p, src, "this"));
        let mut param_attrs = Vec::new();
        for &p in &params {
            let attrs: Vec<(Option<SpecAttr>, Node<'_>)> = attributes(p, src)
                .into_iter()
                .map(|(_, a, n)| (a, n))
                .collect();
            param_attrs.push((p, attrs));
        }
        let all = member_attrs
            .iter()
            .chain(&return_attrs)
            .chain(param_attrs.iter().flat_map(|(_, a)| a));
        for &(attr, n) in all {
            match attr {
                None => self.problem(n, format!("`{}` is not a spec attribute", text(n, src))),
                Some(SpecAttr::MustDisposeResource | SpecAttr::HandlesResourceDisposal) => {
                    self.problem(n, "the model uses the rlc-sharp attributes, not JetBrains'")
                }
                Some(_) => {}
            }
        }
        let member_alias = member_attrs
            .iter()
            .any(|(a, _)| *a == Some(SpecAttr::MustCallAlias));
        for &(attr, n) in &member_attrs {
            let Some(attr) = attr else { continue };
            let allowed = match attr {
                SpecAttr::MustCallAlias | SpecAttr::DoesNotThrow => {
                    matches!(kind, "constructor_declaration" | "method_declaration")
                }
                // The obligation of the constructed object.
                SpecAttr::MustCall => kind == "constructor_declaration",
                SpecAttr::Calls
                | SpecAttr::CreatesMustCallFor
                | SpecAttr::DoesNotReturn
                | SpecAttr::LifecycleStart
                | SpecAttr::Reopens
                | SpecAttr::ThrowsOnFailure => kind == "method_declaration",
                SpecAttr::Owning | SpecAttr::NotOwning => matches!(
                    kind,
                    "property_declaration" | "indexer_declaration" | "field_declaration"
                ),
                // A `bool` property whose value says the object is released.
                SpecAttr::ReleasedIf => {
                    kind == "property_declaration"
                        && node
                            .child_by_field_name("type")
                            .is_some_and(|t| text(t, src) == "bool")
                        && matches!(text(n, src), "ReleasedIf(true)" | "ReleasedIf(false)")
                }
                _ => false,
            };
            if !allowed {
                self.problem(
                    n,
                    format!(
                        "`[{}]` does not apply to a {} (on a method's result write `[return: ...]`)",
                        attr.name(),
                        kind.trim_end_matches("_declaration").replace('_', " ")
                    ),
                );
            }
        }
        for &(attr, n) in &return_attrs {
            let Some(attr) = attr else { continue };
            if !matches!(
                attr,
                SpecAttr::Owning | SpecAttr::NotOwning | SpecAttr::MustCall
            ) || !matches!(
                kind,
                "method_declaration" | "operator_declaration" | "conversion_operator_declaration"
            ) {
                self.problem(
                    n,
                    format!("`[return: {}]` is not meaningful here", attr.name()),
                );
            }
        }
        let mut alias_params = 0;
        let mut owning_params = 0;
        let mut owns_if = Vec::new();
        for (p, attrs) in &param_attrs {
            for &(attr, n) in attrs {
                match attr {
                    Some(SpecAttr::MustCallAlias) => alias_params += 1,
                    Some(SpecAttr::Owning) => owning_params += 1,
                    Some(SpecAttr::OwnsIf) => owns_if.push((*p, n)),
                    Some(SpecAttr::CollectionElement) => {
                        // The receiver collection: `this`, the constructed
                        // collection, or an extension method's `this` parameter.
                        let has_receiver = kind == "constructor_declaration"
                            || (kind == "method_declaration" && (!is_static || is_extension));
                        if !has_receiver {
                            self.problem(
                                n,
                                "`[CollectionElement]` needs a receiver collection (instance method, constructor or extension method)",
                            );
                        }
                    }
                    Some(SpecAttr::StoredAs)
                        if !matches!(kind, "constructor_declaration" | "method_declaration") =>
                    {
                        self.problem(
                            n,
                            "`[StoredAs]` needs a result that keeps the argument (constructor or method)",
                        );
                    }
                    Some(SpecAttr::Exchanged) if kind != "method_declaration" => {
                        self.problem(n, "`[Exchanged]` needs a method that returns the old value");
                    }
                    Some(SpecAttr::Incremented) if kind != "method_declaration" => {
                        self.problem(n, "`[Incremented]` needs a method that returns the sum");
                    }
                    Some(SpecAttr::DoesNotReturnIf)
                        if p.child_by_field_name("type")
                            .is_none_or(|t| text(t, src) != "bool")
                            || !matches!(
                                text(n, src),
                                "DoesNotReturnIf(true)" | "DoesNotReturnIf(false)"
                            ) =>
                    {
                        self.problem(
                            n,
                            "`[DoesNotReturnIf]` is for `bool` parameters, with `true` or `false`",
                        );
                    }
                    Some(
                        SpecAttr::NotOwning
                        | SpecAttr::StoredAs
                        | SpecAttr::Exchanged
                        | SpecAttr::Incremented
                        | SpecAttr::DoesNotReturnIf
                        | SpecAttr::MaybeNullWhen
                        | SpecAttr::NotNullWhen,
                    )
                    | None => {}
                    Some(other) => self.problem(
                        n,
                        format!("`[{}]` does not apply to a parameter", other.name()),
                    ),
                }
            }
        }
        if member_alias {
            let receiver_alias_ok = kind == "method_declaration" && !is_static;
            match alias_params {
                1 => {}
                0 if receiver_alias_ok => {}
                0 => self.problem(
                    node,
                    "`[MustCallAlias]` on a constructor or static method needs exactly one `[MustCallAlias]` parameter",
                ),
                _ => self.problem(node, "`[MustCallAlias]` marks more than one parameter"),
            }
        } else if alias_params > 0 {
            self.problem(
                node,
                "a `[MustCallAlias]` parameter needs `[MustCallAlias]` on its constructor or method too",
            );
        }
        if owns_if.len() > 1 {
            self.problem(node, "more than one `[OwnsIf]` parameter");
        }
        for (p, n) in owns_if {
            let is_bool = p
                .child_by_field_name("type")
                .is_some_and(|t| text(t, src) == "bool");
            if !is_bool {
                self.problem(n, "`[OwnsIf]` is for `bool` parameters");
            }
            let argument = n
                .child_by_field_name("name")
                .and_then(|name| name.next_named_sibling())
                .map(|args| text(args, src).to_string())
                .unwrap_or_default();
            if argument != "(true)" && argument != "(false)" {
                self.problem(n, "write `[OwnsIf(true)]` or `[OwnsIf(false)]`");
            }
            // On a constructor that takes nothing over it conditions the
            // object's own resource (`SafeHandle`'s `ownsHandle`).
            if !member_alias && owning_params == 0 && node.kind() != "constructor_declaration" {
                self.problem(
                    n,
                    "`[OwnsIf]` conditions a `[MustCallAlias]` or `[Owning]` of the same member, and there is none",
                );
            }
        }
    }
}

/// `(attribute target, spec attribute, attribute node)` of the attribute lists on `node`.
fn attributes<'t>(node: Node<'t>, src: &str) -> Vec<(Option<String>, Option<SpecAttr>, Node<'t>)> {
    let mut out = Vec::new();
    let mut cursor = node.walk();
    for list in node.named_children(&mut cursor) {
        if list.kind() != "attribute_list" {
            continue;
        }
        let target = child_of_kind(list, "attribute_target_specifier")
            .map(|t| text(t, src).trim_end_matches(':').trim().to_string());
        let mut c = list.walk();
        for attr in list.named_children(&mut c) {
            if attr.kind() == "attribute" {
                let name = attr
                    .child_by_field_name("name")
                    .map_or("", |n| text(n, src));
                out.push((target.clone(), SpecAttr::from_name(name), attr));
            }
        }
    }
    out
}

fn parameters(node: Node<'_>) -> Vec<Node<'_>> {
    let Some(list) = node
        .child_by_field_name("parameters")
        .or_else(|| child_of_kind(node, "bracketed_parameter_list"))
    else {
        return Vec::new();
    };
    let mut cursor = list.walk();
    list.named_children(&mut cursor)
        .filter(|p| p.kind() == "parameter")
        .collect()
}

/// Each parameter's `ref`/`out`/`in` modifier and type, `params` arrays
/// included (the grammar puts those in the list itself, not in a `parameter`).
fn parameter_types<'t>(node: Node<'t>, src: &str) -> Vec<(Option<Node<'t>>, Node<'t>)> {
    let Some(list) = node
        .child_by_field_name("parameters")
        .or_else(|| child_of_kind(node, "bracketed_parameter_list"))
    else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut cursor = list.walk();
    if cursor.goto_first_child() {
        loop {
            let child = cursor.node();
            if child.kind() == "parameter" {
                let mut c = child.walk();
                let by_ref = child.named_children(&mut c).find(|m| {
                    m.kind() == "modifier" && matches!(text(*m, src), "ref" | "out" | "in")
                });
                if let Some(ty) = child.child_by_field_name("type") {
                    out.push((by_ref, ty));
                }
            } else if cursor.field_name() == Some("type") {
                out.push((None, child));
            }
            if !cursor.goto_next_sibling() {
                break;
            }
        }
    }
    out
}

fn has_modifier(node: Node<'_>, src: &str, modifier: &str) -> bool {
    let mut cursor = node.walk();
    node.named_children(&mut cursor)
        .any(|c| c.kind() == "modifier" && text(c, src) == modifier)
}

fn child_of_kind<'t>(node: Node<'t>, kind: &str) -> Option<Node<'t>> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor).find(|c| c.kind() == kind)
}

fn type_params(node: Node<'_>, src: &str) -> Vec<String> {
    let Some(list) = child_of_kind(node, "type_parameter_list")
        .or_else(|| node.child_by_field_name("type_parameters"))
    else {
        return Vec::new();
    };
    let mut cursor = list.walk();
    list.named_children(&mut cursor)
        .filter_map(|p| p.child_by_field_name("name"))
        .map(|n| text(n, src).to_string())
        .collect()
}

fn join(prefix: &str, name: &str, sep: &str) -> String {
    if prefix.is_empty() {
        name.to_string()
    } else {
        format!("{prefix}{sep}{name}")
    }
}

/// Whether a written name is one of the type parameters in scope.
fn is_type_param(segments: &[(String, Vec<Node<'_>>)], global: bool, scope: &Scope) -> bool {
    matches!(segments, [(name, args)] if !global && args.is_empty() && scope.type_params.contains(name))
}

/// `A.B<C>.D` as segments with their type argument nodes; false for shapes
/// the model has no use for (aliases other than `global::`).
fn flatten<'t>(
    node: Node<'t>,
    src: &str,
    out: &mut Vec<(String, Vec<Node<'t>>)>,
    global: &mut bool,
) -> bool {
    match node.kind() {
        "identifier" => {
            out.push((text(node, src).to_string(), Vec::new()));
            true
        }
        "generic_name" => {
            let name = child_of_kind(node, "identifier").map_or("", |n| text(n, src));
            let args = child_of_kind(node, "type_argument_list")
                .map(|list| {
                    let mut cursor = list.walk();
                    list.named_children(&mut cursor).collect()
                })
                .unwrap_or_default();
            out.push((name.to_string(), args));
            true
        }
        "qualified_name" => match (
            node.child_by_field_name("qualifier"),
            node.child_by_field_name("name"),
        ) {
            (Some(q), Some(n)) => flatten(q, src, out, global) && flatten(n, src, out, global),
            _ => false,
        },
        "alias_qualified_name" => {
            let alias = node
                .child_by_field_name("alias")
                .map_or("", |a| text(a, src));
            *global = alias == "global";
            *global
                && node
                    .child_by_field_name("name")
                    .is_some_and(|n| flatten(n, src, out, global))
        }
        _ => false,
    }
}

/// The keys a written name may denote, in C# lookup order: nested types of
/// the enclosing types, then each enclosing namespace (innermost first), then
/// the file's usings.
fn candidates(
    keys: &[String],
    segments: &[(String, Vec<Node<'_>>)],
    scope: &Scope,
    global: bool,
    usings: &[String],
) -> Vec<String> {
    let nested = keys.join("+");
    let mut out = Vec::new();
    let mut namespaces = vec![String::new()];
    if !global {
        for outer in scope.types.iter().rev() {
            out.push(format!("{outer}+{nested}"));
        }
        let parts: Vec<&str> = scope
            .namespace
            .split('.')
            .filter(|p| !p.is_empty())
            .collect();
        namespaces = (0..=parts.len())
            .rev()
            .map(|n| parts[..n].join("."))
            .collect();
    }
    for namespace in &namespaces {
        // The first `split` segments may name namespaces (`IO.Stream` inside `System`).
        for split in 0..keys.len() {
            if segments[..split].iter().any(|(_, args)| !args.is_empty()) {
                break;
            }
            let written_ns: Vec<&str> = segments[..split].iter().map(|(n, _)| n.as_str()).collect();
            let ns = join(namespace, &written_ns.join("."), ".");
            let ns = ns.trim_end_matches('.');
            out.push(join(ns, &keys[split..].join("+"), "."));
        }
    }
    if !global {
        for u in usings {
            out.push(format!("{u}.{nested}"));
        }
    }
    out
}

impl Model {
    fn check(&mut self) {
        let mut all_facts = Vec::new();
        for file in 0..self.files.len() {
            let mut walker = Walker {
                model: self,
                file,
                declarations: FxHashMap::default(),
                facts: Vec::new(),
                used_external: FxHashSet::default(),
                signatures: FxHashSet::default(),
                problems: Vec::new(),
            };
            let loaded = &self.files[file];
            let root = loaded.tree.root_node();
            syntax_errors(root, &mut walker);
            walker.walk(root, &Scope::default());
            for (t, ty) in loaded.file.types.iter().enumerate() {
                for (m, member) in ty.members.iter().enumerate() {
                    let found = walker.declarations.get(&(t, m)).copied().unwrap_or(0);
                    if found != 1 {
                        walker.problems.push(format!(
                            "{}: {}: member `{}` is {found} declarations, not one",
                            loaded.name,
                            ty.name.get_ref(),
                            member.get_ref()
                        ));
                    }
                }
            }
            let mut unused: Vec<&String> = loaded
                .external
                .iter()
                .filter(|e| !walker.used_external.contains(*e))
                .collect();
            unused.sort();
            for e in unused {
                walker.problems.push(format!(
                    "{}: external type `{e}` is named by no signature: drop it from `external`",
                    loaded.name
                ));
            }
            let Walker {
                facts, problems, ..
            } = walker;
            self.problems.extend(problems);
            all_facts.extend(facts.into_iter().map(|f| (file, f)));
        }
        for (file, (key, bases, methods)) in all_facts {
            let Some(&(f, t)) = self.keys.get(&key) else {
                self.problems.push(format!(
                    "{}: generated type `{key}` is no model type",
                    self.files[file].name
                ));
                continue;
            };
            let kind = self.files[f].file.types[t].kind;
            self.facts.insert(
                key,
                TypeFacts {
                    file: f,
                    ty: t,
                    kind,
                    bases,
                    methods,
                },
            );
        }
        self.check_types();
    }

    /// The type and all its ancestors.
    fn ancestors(&self, key: &str) -> FxHashSet<String> {
        let mut seen = FxHashSet::default();
        let mut stack = vec![key.to_string()];
        while let Some(k) = stack.pop() {
            if let Some(facts) = self.facts.get(&k) {
                stack.extend(facts.bases.iter().flatten().cloned());
            }
            seen.insert(k);
        }
        seen
    }

    fn check_types(&mut self) {
        let mut problems = Vec::new();
        let mut keys: Vec<&String> = self.facts.keys().collect();
        keys.sort();
        for key in keys {
            let facts = &self.facts[key];
            let loaded = &self.files[facts.file];
            let ty = &loaded.file.types[facts.ty];
            let place = format!("{}: {}", loaded.name, ty.name.get_ref());
            let ancestors = self.ancestors(key);
            let methods: FxHashSet<&str> = ancestors
                .iter()
                .filter_map(|a| self.facts.get(a))
                .flat_map(|f| f.methods.iter().map(String::as_str))
                .collect();
            let disposable = ancestors.contains("System.IDisposable");
            let async_disposable = ancestors.contains("System.IAsyncDisposable");
            for m in ty.must_call.iter().flatten().chain(&ty.also_disposes) {
                if !methods.contains(m.as_str()) {
                    problems.push(format!(
                        "{place}: obligation method `{m}` is no member of the type or its bases"
                    ));
                }
            }
            // `[]` and `also_disposes` refine an obligation, so there must be one to refine:
            // an IDisposable/IAsyncDisposable ancestor, or pattern-based disposal.
            let disposes = disposable
                || async_disposable
                || methods.contains("Dispose")
                || methods.contains("DisposeAsync");
            let no_obligation = ty.must_call.as_ref().is_some_and(Vec::is_empty);
            if (no_obligation || !ty.also_disposes.is_empty()) && !disposes {
                problems.push(format!(
                    "{place}: `must_call = []` and `also_disposes` are for types that are disposable"
                ));
            }
            // Harmless losses are still losses of an obligation.
            if ty.releases_only_managed.is_some() && (no_obligation || !disposes) {
                problems.push(format!(
                    "{place}: `releases_only_managed` needs an obligation to weaken"
                ));
            }
            for (b, base) in facts.bases.iter().enumerate() {
                let Some(base_kind) = base
                    .as_ref()
                    .and_then(|k| self.facts.get(k))
                    .map(|f| f.kind)
                else {
                    continue;
                };
                let ok = match (facts.kind, base_kind) {
                    (_, LibraryTypeKind::Interface) => true,
                    (LibraryTypeKind::Class, LibraryTypeKind::Class) => b == 0,
                    _ => false,
                };
                if !ok {
                    problems.push(format!(
                        "{place}: base `{}` cannot be a base here (one base class, first, and only for classes)",
                        ty.bases[b].get_ref()
                    ));
                }
            }
        }
        self.problems.extend(problems);
    }
}

fn syntax_errors(node: Node<'_>, walker: &mut Walker<'_>) {
    if node.is_error() || node.is_missing() {
        let what = if node.is_missing() {
            format!("syntax error: missing `{}`", node.kind())
        } else {
            "syntax error".to_string()
        };
        walker.problem(node, what);
        return;
    }
    if !node.has_error() {
        return;
    }
    let mut cursor = node.walk();
    let children: Vec<Node<'_>> = node.children(&mut cursor).collect();
    for child in children {
        syntax_errors(child, walker);
    }
}

fn report(problems: &[String]) -> String {
    let mut out = format!("{} problems in the library model:\n", problems.len());
    for p in problems.iter().take(300) {
        let _ = writeln!(out, "  {p}");
    }
    out
}

#[test]
fn the_embedded_model_is_well_formed() {
    let mut model = load();
    model.check();
    assert!(model.problems.is_empty(), "{}", report(&model.problems));
    assert!(
        model.facts.len() >= 300,
        "only {} types were checked",
        model.facts.len()
    );
}

/// The checks catch what they are there for: a model with one mistake of
/// each kind gives one problem of each kind.
#[test]
fn the_checks_reject_broken_models() {
    let cases: [(&str, &str); 19] = [
        ("members = [\"void Read(\"]", "syntax error"),
        ("members = [\"Widget2()\"]", "must be named `Widget`"),
        ("members = [\"Gadget Make()\"]", "unknown type `Gadget`"),
        ("members = [\"void M(); void N()\"]", "2 declarations"),
        (
            "members = [\"[Owing] void M(Stream s)\"]",
            "not a spec attribute",
        ),
        (
            "members = [\"[MustCallAlias] Widget(Stream s)\"]",
            "needs exactly one",
        ),
        (
            "members = [\"Widget([MustCallAlias] Stream s)\"]",
            "needs `[MustCallAlias]` on its",
        ),
        (
            "members = [\"[MustCallAlias] Widget([MustCallAlias] Stream s, [OwnsIf(false)] int leaveOpen)\"]",
            "for `bool` parameters",
        ),
        (
            "members = [\"void Attach(Stream s, [OwnsIf(false)] bool leaveOpen)\"]",
            "there is none",
        ),
        (
            "members = [\"[Owning] Stream Open()\"]",
            "write `[return: ...]`",
        ),
        (
            "must_call = [\"Close\"]\nmembers = [\"void Dispose()\"]",
            "`Close` is no member",
        ),
        (
            "bases = [\"IDisposable\", \"Stream\"]",
            "cannot be a base here",
        ),
        (
            "members = [\"static void Put([CollectionElement] Stream s)\"]",
            "needs a receiver collection",
        ),
        (
            "members = [\"[return: NotOwning] Widget()\"]",
            "is not meaningful here",
        ),
        ("must_call = []", "for types that are disposable"),
        (
            "bases = [\"IDisposable\"]\nmust_call = []\nreleases_only_managed = \"x\"",
            "needs an obligation",
        ),
        ("releases_only_managed = \"x\"", "needs an obligation"),
        (
            "members = [\"void Write(Stream s)\", \"void Write(System.IO.Stream? stream)\"]",
            "`Write(System.IO.Stream)` is declared twice",
        ),
        (
            "members = [\"void Log(string f, params object[] a)\", \"void Log(string format, params object?[] args)\"]",
            "`Log(string, object[])` is declared twice",
        ),
    ];
    for (body, expected) in cases {
        let text = format!(
            "usings = [\"System\", \"System.IO\"]\n[[type]]\nname = \"Test.Widget\"\n{body}\n\n\
             [[type]]\nname = \"System.IDisposable\"\nkind = \"interface\"\nmust_call = [\"Dispose\"]\nmembers = [\"void Dispose()\"]\n\n\
             [[type]]\nname = \"System.IO.Stream\"\nkind = \"class\"\nbases = [\"IDisposable\"]\n"
        );
        let problems = check_one(&text);
        assert!(
            problems.iter().any(|p| p.contains(expected)),
            "{body}: expected a problem containing {expected:?}, got {problems:#?}"
        );
    }
    // Overloads C# tells apart: value-type nullability, `ref`, arity, `params`.
    let clean = check_one(
        "usings = [\"System\"]\n[[type]]\nname = \"System.IDisposable\"\nkind = \"interface\"\n\
         must_call = [\"Dispose\"]\nmembers = [\"void Dispose()\"]\n\
         [[type]]\nname = \"Test.Widget\"\nmembers = [\"void M(int x)\", \"void M(int? x)\", \
         \"void M(ref int x)\", \"void M<T>(int x)\", \"void M(params int[] xs)\", \"void M(int[,] xs)\"]\n",
    );
    assert!(clean.is_empty(), "{clean:#?}");
}

/// `external` names what the model leaves out, and only that.
#[test]
fn external_types_resolve_and_stale_entries_are_rejected() {
    let file = |external: &str| {
        format!(
            "usings = [\"Other\", \"System\"]\nexternal = [{external}]\n\
             [[type]]\nname = \"Test.Widget\"\nmembers = [\"Gadget Make()\"]\n\
             [[type]]\nname = \"System.IDisposable\"\nkind = \"interface\"\nmust_call = [\"Dispose\"]\nmembers = [\"void Dispose()\"]\n"
        )
    };
    let clean = check_one(&file("\"Other.Gadget\""));
    assert!(clean.is_empty(), "{clean:#?}");
    let stale = check_one(&file("\"Other.Gadget\", \"Other.Unused\""));
    assert!(
        stale
            .iter()
            .any(|p| p.contains("`Other.Unused` is named by no signature")),
        "{stale:#?}"
    );
    let modelled = check_one(&file("\"Other.Gadget\", \"System.IDisposable\""));
    assert!(
        modelled
            .iter()
            .any(|p| p.contains("`System.IDisposable` is defined in the model")),
        "{modelled:#?}"
    );
}

fn check_one(text: &str) -> Vec<String> {
    let mut model = load_texts(&[("test.toml", text)]);
    if model.problems.is_empty() {
        model.check();
    }
    model.problems
}

/// A model file missing from the `embed!` list in `attributes/src/library.rs`
/// would be left out of the binary without a word.
#[test]
fn every_model_file_is_embedded() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../attributes/library");
    let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .filter(|name| name.ends_with(".toml"))
        .collect();
    on_disk.sort();
    let mut embedded: Vec<String> = library::embedded()
        .iter()
        .map(|(name, _)| name.to_string())
        .collect();
    embedded.sort();
    assert_eq!(
        on_disk, embedded,
        "attributes/library/*.toml and the embed! list differ"
    );
}

/// Types per namespace, as the README's coverage table shows them.
fn coverage() -> BTreeMap<String, usize> {
    let mut counts = BTreeMap::new();
    for &(name, text) in library::embedded() {
        let file = library::parse(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        for ty in &file.types {
            let namespace = ty.type_name().map(|n| n.namespace).unwrap_or_default();
            *counts.entry(namespace).or_insert(0) += 1;
        }
    }
    counts
}

#[test]
fn the_readme_coverage_table_is_current() {
    let counts = coverage();
    let mut table = String::from("| Namespace | Types |\n| --- | ---: |\n");
    for (namespace, n) in &counts {
        let _ = writeln!(table, "| `{namespace}` | {n} |");
    }
    let total: usize = counts.values().sum();
    let _ = writeln!(table, "| **total** | **{total}** |");
    let readme = include_str!("../../attributes/library/README.md");
    let start = "<!-- coverage:start -->\n";
    let current = readme
        .split_once(start)
        .and_then(|(_, rest)| rest.split_once("<!-- coverage:end -->"))
        .map(|(table, _)| table);
    assert_eq!(
        current,
        Some(table.as_str()),
        "attributes/library/README.md: replace the coverage table with:\n{table}"
    );
}

/// The attribute types users reference: one class per user-facing spec
/// attribute, each with an `AttributeUsage`.
#[test]
fn the_annotations_source_declares_every_attribute() {
    let src = rlc_attributes::ANNOTATIONS_CS;
    let tree = parser().parse(src, None).expect("a tree");
    assert!(
        !tree.root_node().has_error(),
        "RlcSharp.Annotations.cs has syntax errors"
    );
    let mut declared = FxHashMap::default();
    let mut stack = vec![tree.root_node()];
    while let Some(node) = stack.pop() {
        if node.kind() == "class_declaration" {
            let name = node
                .child_by_field_name("name")
                .map_or("", |n| text(n, src));
            let usage = attributes(node, src)
                .iter()
                .any(|(_, _, a)| text(*a, src).starts_with("AttributeUsage"));
            declared.insert(name.to_string(), usage);
        }
        let mut cursor = node.walk();
        stack.extend(node.named_children(&mut cursor));
    }
    for attr in SpecAttr::ALL {
        let user_facing = !attr.is_model_only()
            && !matches!(
                attr,
                SpecAttr::MustDisposeResource
                    | SpecAttr::HandlesResourceDisposal
                    | SpecAttr::DoesNotReturn
                    | SpecAttr::DoesNotReturnIf
                    | SpecAttr::MaybeNullWhen
                    | SpecAttr::NotNullWhen
            );
        if user_facing {
            let class = format!("{}Attribute", attr.name());
            assert_eq!(
                declared.get(&class),
                Some(&true),
                "{class} with [AttributeUsage]"
            );
        }
    }
    assert!(src.contains("namespace RlcSharp.Annotations"));
    assert!(
        !src.contains("Conditional("),
        "the attributes must stay in metadata"
    );
}

/// Compiles the annotations with Mono's C# compiler, as C# 7.2 with warnings
/// as errors: it is what users on old toolchains compile.
#[test]
fn the_annotations_compile_with_mcs() {
    let dir = tempfile::tempdir().expect("temp dir");
    let cs = dir.path().join("RlcSharp.Annotations.cs");
    std::fs::write(&cs, rlc_attributes::ANNOTATIONS_CS).expect("write the source");
    let dll = dir.path().join("RlcSharp.Annotations.dll");
    let output = Command::new("mcs")
        .arg("-target:library")
        .arg("-langversion:7.2")
        .arg("-warnaserror+")
        .arg("-doc:".to_string() + &dir.path().join("doc.xml").to_string_lossy())
        .arg(format!("-out:{}", dll.display()))
        .arg(&cs)
        .output();
    let output = match output {
        Ok(o) => o,
        Err(e) => panic!(
            "cannot run `mcs` ({e}): install the Debian package `mono-mcs` (apt-get install -y mono-mcs)"
        ),
    };
    assert!(
        output.status.success(),
        "mcs rejected RlcSharp.Annotations.cs:\n{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(dll.exists());
}
