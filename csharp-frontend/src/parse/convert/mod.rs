//! Tree -> HIR: namespaces, usings, types and members here; bodies in
//! [`body`] and [`expr`]; shared declaration syntax in [`decl`].

mod body;
mod decl;
mod errors;

pub(crate) use errors::{is_error_node, nodes_with_errors, shortened};
mod expr;
mod kinds;
mod syn;

use rlc_core::ir::fit;
use tree_sitter::{Node, Tree};

use self::body::BodyBuilder;
use self::decl::MAX_NAME_PARTS;
use self::kinds::{F, K};
use self::syn::Syn;
use crate::hir::{
    Accessor, AccessorKind, Body, BodyId, BodyRoot, FileSyntax, Member, MemberKind, Modifiers,
    Name, NamespaceScope, Param, ParamModifier, Predefined, ScopeId, TextRange, TypeDecl,
    TypeDeclId, TypeKind, TypeRef, UsingDirective, UsingKind,
};

/// Types and namespaces nested deeper than this are dropped with a note.
const MAX_DECL_DEPTH: u32 = 64;

pub(crate) fn convert(original: &str, tree: &Tree) -> FileSyntax {
    let root = tree.root_node();
    let syn = Syn::new(original, root);
    let mut cx = FileCx {
        syn: &syn,
        file: FileSyntax::default(),
    };
    errors::collect(root, original, &mut cx.file.syntax_errors);
    cx.file.scopes.push(NamespaceScope {
        parent: None,
        name: Vec::new(),
        usings: Vec::new(),
        extern_aliases: Vec::new(),
        range: TextRange::new(0, original.len() as u32),
    });
    let mut top_level = Vec::new();
    cx.compilation_unit(root, &mut top_level, 0);
    if !top_level.is_empty() {
        cx.top_level(&top_level);
    }
    cx.file.limits = syn.take_limits();
    // Kept until the run ends: no room to grow.
    fit(&mut cx.file.bodies);
    fit(&mut cx.file.types);
    for t in &mut cx.file.types {
        fit(&mut t.members);
    }
    cx.file
}

/// Where declarations go.
#[derive(Copy, Clone)]
enum Container {
    Scope(ScopeId),
    Type(TypeDeclId),
}

struct FileCx<'s, 't> {
    syn: &'s Syn<'s, 't>,
    file: FileSyntax,
}

impl<'s, 't> FileCx<'s, 't> {
    fn add_body(&mut self, body: Body) -> BodyId {
        self.file.bodies.push(body);
        BodyId(self.file.bodies.len() as u32 - 1)
    }

    fn compilation_unit(&mut self, n: Node<'t>, top_level: &mut Vec<Node<'t>>, depth: u32) {
        let mut scope = ScopeId(0);
        for c in self.syn.named(n) {
            match self.syn.kind(c) {
                K::GlobalStatement => top_level.extend(self.syn.first_named(c)),
                K::FileScopedNamespaceDeclaration => {
                    let Some(name) = self.namespace_name(c) else {
                        // The rest of the file is in that namespace.
                        return;
                    };
                    let range = TextRange::new(c.start_byte() as u32, self.syn.src.len() as u32);
                    scope = self.push_scope(ScopeId(0), name, range);
                }
                K::Error if depth < MAX_DECL_DEPTH => {
                    self.compilation_unit(c, top_level, depth + 1)
                }
                _ => self.item(c, Container::Scope(scope), depth),
            }
        }
    }

    fn push_scope(&mut self, parent: ScopeId, name: Vec<Name>, range: TextRange) -> ScopeId {
        self.file.scopes.push(NamespaceScope {
            parent: Some(parent),
            name,
            usings: Vec::new(),
            extern_aliases: Vec::new(),
            range,
        });
        ScopeId(self.file.scopes.len() as u32 - 1)
    }

    /// A namespace-level or type-level declaration.
    fn item(&mut self, n: Node<'t>, container: Container, depth: u32) {
        if depth >= MAX_DECL_DEPTH {
            self.syn.limit(
                n,
                format!(
                    "declarations nested too deeply (the limit is {MAX_DECL_DEPTH} levels); \
                     the rest is skipped"
                ),
            );
            return;
        }
        let scope_of = |cx: &FileCx, c: Container| match c {
            Container::Scope(s) => s,
            Container::Type(t) => cx.file.ty(t).scope,
        };
        match self.syn.kind(n) {
            K::UsingDirective => {
                if let Container::Scope(s) = container
                    && let Some(using) = self.using(n)
                {
                    self.file.scopes[s.0 as usize].usings.push(using);
                }
            }
            K::ExternAliasDirective => {
                if let (Container::Scope(s), Some(name)) = (container, self.syn.field(n, F::Name)) {
                    let name = self.syn.name(name);
                    self.file.scopes[s.0 as usize].extern_aliases.push(name);
                }
            }
            K::GlobalAttribute => {
                let target =
                    self.syn.children(n).into_iter().find(|c| {
                        !c.is_named() && matches!(self.syn.text(*c), "assembly" | "module")
                    });
                let target = target.map(|t| Name::new(self.syn.text(t)));
                for a in self.syn.named(n) {
                    if self.syn.kind(a) == K::Attribute {
                        let attr = self.syn.attribute(a, target.clone());
                        self.file.global_attrs.push(attr);
                    }
                }
            }
            K::NamespaceDeclaration => {
                let parent = scope_of(self, container);
                let Some(name) = self.namespace_name(n) else {
                    return;
                };
                let scope = self.push_scope(parent, name, Syn::range(n));
                if let Some(body) = self.syn.field(n, F::Body) {
                    for c in self.syn.named(body) {
                        self.item(c, Container::Scope(scope), depth + 1);
                    }
                }
            }
            K::ClassDeclaration
            | K::StructDeclaration
            | K::InterfaceDeclaration
            | K::EnumDeclaration
            | K::RecordDeclaration
            | K::DelegateDeclaration => {
                let parent = match container {
                    Container::Type(t) => Some(t),
                    Container::Scope(_) => None,
                };
                self.type_decl(n, scope_of(self, container), parent, depth);
            }
            K::Error => {
                if let Container::Type(t) = container {
                    self.file.types[t.0 as usize].has_error = true;
                }
                for c in self.syn.named(n) {
                    self.item(c, container, depth + 1);
                }
            }
            _ => {
                if let Container::Type(t) = container {
                    self.member(n, t);
                }
            }
        }
    }

    /// A namespace declaration's name; `None` (with a note) when it is too long
    /// to keep, and then the namespace is skipped.
    fn namespace_name(&self, n: Node<'t>) -> Option<Vec<Name>> {
        let Some(name) = self.syn.field(n, F::Name) else {
            return Some(Vec::new());
        };
        let dotted = self.syn.dotted_name(name);
        if dotted.is_none() {
            self.syn.limit(
                name,
                format!(
                    "a namespace name of more than {MAX_NAME_PARTS} parts; \
                     the namespace is skipped"
                ),
            );
        }
        dotted
    }

    /// A using directive; `None` (with a note) for a namespace name too long to keep.
    fn using(&self, n: Node<'t>) -> Option<UsingDirective> {
        let syn = &self.syn;
        let global = syn.has_token(n, "global");
        let target = syn
            .named(n)
            .into_iter()
            .rfind(|c| Some(*c) != syn.field(n, F::Name));
        let kind = if let Some(alias) = syn.field(n, F::Name) {
            UsingKind::Alias {
                alias: syn.name(alias),
                target: target.map_or(TypeRef::Error, |t| syn.type_ref(t)),
            }
        } else if syn.has_token(n, "static") {
            UsingKind::Static(target.map_or(TypeRef::Error, |t| syn.type_ref(t)))
        } else {
            let name = match target {
                Some(t) => match syn.dotted_name(t) {
                    Some(name) => name,
                    None => {
                        syn.limit(
                            t,
                            format!(
                                "a namespace name of more than {MAX_NAME_PARTS} parts; \
                                 the using directive is skipped"
                            ),
                        );
                        return None;
                    }
                },
                None => Vec::new(),
            };
            UsingKind::Namespace(name)
        };
        Some(UsingDirective {
            kind,
            global,
            range: Syn::range(n),
        })
    }

    fn type_decl(&mut self, n: Node<'t>, scope: ScopeId, parent: Option<TypeDeclId>, depth: u32) {
        let syn = self.syn;
        let kind = match syn.kind(n) {
            K::StructDeclaration => TypeKind::Struct,
            K::InterfaceDeclaration => TypeKind::Interface,
            K::EnumDeclaration => TypeKind::Enum,
            K::DelegateDeclaration => TypeKind::Delegate,
            K::RecordDeclaration if syn.has_token(n, "struct") => TypeKind::RecordStruct,
            K::RecordDeclaration => TypeKind::Record,
            _ => TypeKind::Class,
        };
        let name_node = syn.field(n, F::Name);
        let body = syn.field(n, F::Body);
        let mut has_error = false;
        let mut primary_ctor = None;
        let mut bases = Vec::new();
        let mut base_args = None;
        for c in syn.children(n) {
            if Some(c) != body && (c.has_error() || c.is_missing()) {
                has_error = true;
            }
            match syn.kind(c) {
                K::ParameterList if kind != TypeKind::Delegate => {
                    primary_ctor = Some(syn.params(c))
                }
                K::BaseList => {
                    for b in syn.named(c) {
                        match syn.kind(b) {
                            K::ArgumentList => base_args = Some(b),
                            K::PrimaryConstructorBaseType => {
                                if let Some(t) = syn.field(b, F::Type) {
                                    bases.push(syn.type_ref(t));
                                }
                                base_args = syn.child_of(b, K::ArgumentList);
                            }
                            _ => bases.push(syn.type_ref(b)),
                        }
                    }
                }
                _ => {}
            }
        }
        if let Some(body) = body {
            has_error |= body.is_missing()
                || syn
                    .children(body)
                    .iter()
                    .any(|c| c.is_error() || c.is_missing());
        }
        let (attrs, _) = syn.attributes(n);
        // A C# 14 `extension(...)` block, parsed as `class ext(...)` (see
        // `RepairKind::EXTENSION_BLOCK`): its keyword reads `exten` in the
        // original text.
        let extension = (kind == TypeKind::Class)
            .then(|| syn.children(n).into_iter().find(|c| c.kind() == "class"))
            .flatten()
            .filter(|c| syn.text(*c) == "exten");
        let (name, name_range) = match extension {
            Some(kw) => {
                let start = kw.start_byte() as u32;
                (
                    Name::new_inline("extension"),
                    TextRange::new(start, start + 9),
                )
            }
            None => (
                name_node.map_or_else(Name::default, |nm| syn.name(nm)),
                name_node.map_or(Syn::range(n), Syn::range),
            ),
        };
        let decl = TypeDecl {
            kind,
            name,
            type_params: syn.type_params(n),
            constraints: syn.constraints(n),
            scope,
            parent,
            modifiers: syn.modifiers(n),
            attrs,
            bases,
            primary_ctor,
            primary_base_args: None,
            members: Vec::new(),
            range: Syn::range(n),
            name_range,
            has_error,
        };
        self.file.types.push(decl);
        let id = TypeDeclId(self.file.types.len() as u32 - 1);
        if let Some(args) = base_args {
            let params = self.file.ty(id).primary_ctor.clone().unwrap_or_default();
            let mut b = BodyBuilder::new(syn, Syn::range(args));
            b.params(&params);
            let init = b.ctor_init_args(args, crate::hir::CtorInitKind::Base);
            let body = b.finish(Some(BodyRoot::None), Some(init), false, args.has_error());
            let body = self.add_body(body);
            self.file.types[id.0 as usize].primary_base_args = Some(body);
        }
        match kind {
            TypeKind::Delegate => {
                let member = Member {
                    kind: MemberKind::DelegateInvoke,
                    name: Name::new_inline("Invoke"),
                    ty: syn.field(n, F::Type).map(|t| syn.type_ref(t)),
                    params: syn
                        .field(n, F::Parameters)
                        .map(|p| syn.params(p))
                        .unwrap_or_default(),
                    range: Syn::range(n),
                    name_range: name_node.map_or(Syn::range(n), Syn::range),
                    has_error: n.has_error(),
                    ..Member::empty(MemberKind::DelegateInvoke)
                };
                self.file.types[id.0 as usize].members.push(member);
            }
            TypeKind::Enum => {
                for m in body.map(|b| syn.named(b)).unwrap_or_default() {
                    if syn.kind(m) == K::EnumMemberDeclaration {
                        self.enum_member(m, id);
                    }
                }
            }
            _ => {
                for m in body.map(|b| syn.named(b)).unwrap_or_default() {
                    self.item(m, Container::Type(id), depth + 1);
                }
            }
        }
    }

    fn enum_member(&mut self, n: Node<'t>, ty: TypeDeclId) {
        let syn = self.syn;
        let name = syn.field(n, F::Name);
        let initializer = syn
            .field(n, F::Value)
            .map(|v| self.expr_body(v, &[], false));
        let (attrs, _) = syn.attributes(n);
        let member = Member {
            name: name.map_or_else(Name::default, |nm| syn.name(nm)),
            attrs,
            initializer,
            range: Syn::range(n),
            name_range: name.map_or(Syn::range(n), Syn::range),
            has_error: n.has_error(),
            ..Member::empty(MemberKind::EnumMember)
        };
        self.file.types[ty.0 as usize].members.push(member);
    }

    /// A body whose root is one expression (initializers, enum values, `=> e`).
    fn expr_body(&mut self, e: Node<'t>, params: &[Param], is_async: bool) -> BodyId {
        let mut b = BodyBuilder::new(self.syn, Syn::range(e));
        b.params(params);
        let root = b.expr_root(e);
        let body = b.finish(Some(BodyRoot::Expr(root)), None, is_async, e.has_error());
        self.add_body(body)
    }

    /// A method-like body: `{ ... }` or `=> e`, with a constructor initializer.
    fn function_body(
        &mut self,
        n: Node<'t>,
        body: Node<'t>,
        params: &[Param],
        implicit_value: Option<&TypeRef>,
        is_async: bool,
    ) -> BodyId {
        let syn = self.syn;
        let mut b = BodyBuilder::new(syn, Syn::range(body));
        b.params(params);
        if let Some(ty) = implicit_value {
            b.value_param(ty.clone(), params.len() as u32, Syn::range(body));
        }
        let ctor_init = syn.child_of(n, K::ConstructorInitializer).map(|ci| {
            let kind = if syn.has_token(ci, "this") {
                crate::hir::CtorInitKind::This
            } else {
                crate::hir::CtorInitKind::Base
            };
            let args = syn.child_of(ci, K::ArgumentList);
            let mut init = match args {
                Some(args) => b.ctor_init_args(args, kind),
                None => crate::hir::CtorInit {
                    kind,
                    args: Box::new([]),
                    range: Syn::range(ci),
                },
            };
            init.range = Syn::range(ci);
            init
        });
        // A block's statements are cut one by one (`BodyBuilder::stmt`).
        let has_error = (syn.kind(body) != K::Block && body.has_error())
            || syn
                .child_of(n, K::ConstructorInitializer)
                .is_some_and(|c| c.has_error());
        let root = b.function_body(body);
        let body = b.finish(Some(root), ctor_init, is_async, has_error);
        self.add_body(body)
    }

    fn member(&mut self, n: Node<'t>, ty: TypeDeclId) {
        let syn = self.syn;
        let kind = syn.kind(n);
        let header = syn.header(n);
        let modifiers = header.modifiers;
        let is_async = modifiers.contains(Modifiers::ASYNC);
        let (attrs, return_attrs) = (header.attrs, header.return_attrs);
        let name_node = syn.field(n, F::Name);
        let explicit_interface = syn
            .child_of(n, K::ExplicitInterfaceSpecifier)
            .and_then(|e| syn.first_named(e))
            .map(|t| syn.type_ref(t));
        let base = Member {
            modifiers,
            attrs,
            return_attrs,
            explicit_interface,
            range: Syn::range(n),
            name_range: name_node.map_or(Syn::range(n), Syn::range),
            name: name_node.map_or_else(Name::default, |nm| syn.name(nm)),
            has_error: n.has_error(),
            ..Member::empty(MemberKind::Method)
        };
        let members = match kind {
            K::FieldDeclaration | K::EventFieldDeclaration => {
                self.fields(n, kind == K::EventFieldDeclaration, base, ty)
            }
            K::PropertyDeclaration | K::IndexerDeclaration | K::EventDeclaration => {
                vec![self.property(n, kind, base)]
            }
            K::MethodDeclaration
            | K::ConstructorDeclaration
            | K::DestructorDeclaration
            | K::OperatorDeclaration
            | K::ConversionOperatorDeclaration => vec![self.method(n, kind, base, is_async)],
            _ => return,
        };
        self.file.types[ty.0 as usize].members.extend(members);
    }

    fn fields(&mut self, n: Node<'t>, is_event: bool, base: Member, ty: TypeDeclId) -> Vec<Member> {
        let syn = self.syn;
        let Some(decl) = syn.child_of(n, K::VariableDeclaration) else {
            return Vec::new();
        };
        let field_ty = syn.field(decl, F::Type).map(|t| syn.type_ref(t));
        let kind = if is_event {
            MemberKind::Event
        } else if base.modifiers.contains(Modifiers::CONST) {
            MemberKind::Constant
        } else {
            MemberKind::Field
        };
        // Primary constructor parameters are in scope in initializers.
        let params = self.file.ty(ty).primary_ctor.clone().unwrap_or_default();
        let mut out = Vec::new();
        for d in syn.named(decl) {
            if syn.kind(d) != K::VariableDeclarator {
                continue;
            }
            let name = syn.field(d, F::Name);
            let init = initializer_of(syn, d);
            let initializer = init.map(|e| self.expr_body(e, &params, false));
            out.push(Member {
                kind,
                name: name.map_or_else(Name::default, |nm| syn.name(nm)),
                ty: field_ty.clone(),
                initializer,
                name_range: name.map_or(Syn::range(d), Syn::range),
                ..base.clone()
            });
        }
        out
    }

    fn property(&mut self, n: Node<'t>, kind: K, mut m: Member) -> Member {
        let syn = self.syn;
        m.kind = match kind {
            K::IndexerDeclaration => MemberKind::Indexer,
            K::EventDeclaration => MemberKind::Event,
            _ => MemberKind::Property,
        };
        m.ty = syn.field(n, F::Type).map(|t| syn.type_ref(t));
        if kind == K::IndexerDeclaration {
            m.name = Name::new_inline("this");
            m.params = syn
                .field(n, F::Parameters)
                .map(|p| syn.params(p))
                .unwrap_or_default();
            if let Some(this) = syn
                .children(n)
                .into_iter()
                .find(|c| !c.is_named() && syn.text(*c) == "this")
            {
                m.name_range = Syn::range(this);
            }
        }
        let is_async = m.modifiers.contains(Modifiers::ASYNC);
        if let Some(value) = syn.field(n, F::Value) {
            if syn.kind(value) == K::ArrowExpressionClause {
                m.body = Some(self.function_body(n, value, &m.params, None, is_async));
            } else {
                let params = Vec::new();
                m.initializer = Some(self.expr_body(value, &params, false));
            }
        }
        if let Some(list) = syn.field(n, F::Accessors) {
            for a in syn.named(list) {
                if syn.kind(a) != K::AccessorDeclaration {
                    continue;
                }
                let accessor = self.accessor(a, &m);
                m.accessors.push(accessor);
            }
        }
        m
    }

    fn accessor(&mut self, a: Node<'t>, m: &Member) -> Accessor {
        let syn = self.syn;
        let kind = match syn.field(a, F::Name).map(|k| syn.text(k)) {
            Some("set") => AccessorKind::Set,
            Some("init") => AccessorKind::Init,
            Some("add") => AccessorKind::Add,
            Some("remove") => AccessorKind::Remove,
            _ => AccessorKind::Get,
        };
        let modifiers = syn.modifiers(a);
        let value_ty = match kind {
            AccessorKind::Get => None,
            _ => Some(m.ty.clone().unwrap_or(TypeRef::Error)),
        };
        let is_async =
            modifiers.contains(Modifiers::ASYNC) || m.modifiers.contains(Modifiers::ASYNC);
        let body = syn
            .field(a, F::Body)
            .map(|b| self.function_body(a, b, &m.params, value_ty.as_ref(), is_async));
        Accessor {
            kind,
            modifiers,
            attrs: syn.all_attributes(a),
            body,
            range: Syn::range(a),
        }
    }

    fn method(&mut self, n: Node<'t>, kind: K, mut m: Member, is_async: bool) -> Member {
        let syn = self.syn;
        m.params = syn
            .field(n, F::Parameters)
            .map(|p| syn.params(p))
            .unwrap_or_default();
        m.type_params = syn.type_params(n);
        m.constraints = syn.constraints(n);
        match kind {
            K::MethodDeclaration => {
                m.ty = syn.field(n, F::Returns).map(|t| syn.type_ref(t));
            }
            K::ConstructorDeclaration => {
                m.kind = if m.modifiers.contains(Modifiers::STATIC) {
                    MemberKind::StaticConstructor
                } else {
                    MemberKind::Constructor
                };
            }
            K::DestructorDeclaration => m.kind = MemberKind::Finalizer,
            K::OperatorDeclaration => {
                m.kind = MemberKind::Operator;
                m.ty = syn.field(n, F::Type).map(|t| syn.type_ref(t));
                let op = syn.field(n, F::Operator);
                let checked = syn.has_token(n, "checked");
                m.name = Name::new(operator_name(
                    op.map_or("", |o| syn.text(o)),
                    m.params.len(),
                    checked,
                ));
                m.name_range = op.map_or(m.range, Syn::range);
            }
            K::ConversionOperatorDeclaration => {
                m.kind = MemberKind::Conversion;
                m.ty = syn.field(n, F::Type).map(|t| syn.type_ref(t));
                let explicit = syn.has_token(n, "explicit");
                m.name = Name::new_inline(if explicit {
                    "op_Explicit"
                } else {
                    "op_Implicit"
                });
                if let Some(t) = syn.field(n, F::Type) {
                    m.name_range = Syn::range(t);
                }
            }
            _ => {}
        }
        if let Some(body) = syn.field(n, F::Body) {
            m.body = Some(self.function_body(n, body, &m.params, None, is_async));
        } else if kind == K::ConstructorDeclaration
            && syn.child_of(n, K::ConstructorInitializer).is_some()
        {
            // `C() : base(x);` has no body but still runs the initializer.
            m.body = Some(self.function_body(n, n, &m.params, None, is_async));
        }
        m
    }

    fn top_level(&mut self, stmts: &[Node<'t>]) {
        let (first, last) = match (stmts.first(), stmts.last()) {
            (Some(f), Some(l)) => (*f, *l),
            _ => return,
        };
        let range = TextRange::new(first.start_byte() as u32, last.end_byte() as u32);
        let mut b = BodyBuilder::new(self.syn, range);
        let args = Param {
            name: Name::new_inline("args"),
            ty: Some(TypeRef::Array(
                Box::new(TypeRef::Predefined(Predefined::String)),
                1,
            )),
            modifier: ParamModifier::None,
            default: None,
            attrs: Vec::new(),
            range: TextRange::new(range.start, range.start),
        };
        b.params(std::slice::from_ref(&args));
        // Statements with errors are cut one by one (`BodyBuilder::stmt`).
        let root = b.top_level(stmts, range);
        // Top-level statements that await run as an async `Main`.
        let body = b.finish(Some(BodyRoot::Block(root)), None, false, false);
        let id = self.add_body(body);
        self.file.top_level = Some(id);
    }
}

/// The `= value` of a declarator.
pub(super) fn initializer_of<'t>(syn: &Syn<'_, 't>, d: Node<'t>) -> Option<Node<'t>> {
    let mut after_eq = false;
    for c in syn.children(d) {
        if !c.is_named() && syn.text(c) == "=" {
            after_eq = true;
        } else if after_eq && syn.is_node(c) {
            return Some(c);
        }
    }
    None
}

/// The metadata name of a user-defined operator (`op_Addition`).
fn operator_name(op: &str, params: usize, checked: bool) -> String {
    let unary = params == 1;
    let base = match op {
        "+" if unary => "UnaryPlus",
        "-" if unary => "UnaryNegation",
        "+" => "Addition",
        "-" => "Subtraction",
        "!" => "LogicalNot",
        "~" => "OnesComplement",
        "++" => "Increment",
        "--" => "Decrement",
        "true" => "True",
        "false" => "False",
        "*" => "Multiply",
        "/" => "Division",
        "%" => "Modulus",
        "^" => "ExclusiveOr",
        "|" => "BitwiseOr",
        "&" => "BitwiseAnd",
        "<<" => "LeftShift",
        ">>" => "RightShift",
        ">>>" => "UnsignedRightShift",
        "==" => "Equality",
        "!=" => "Inequality",
        ">" => "GreaterThan",
        "<" => "LessThan",
        ">=" => "GreaterThanOrEqual",
        "<=" => "LessThanOrEqual",
        _ => "Unknown",
    };
    format!("op_{}{base}", if checked { "Checked" } else { "" })
}
