use std::path::Path;

use rlc_core::rules::Label;
use rlc_core::{FileId, Span};

use super::*;
use crate::hir::{
    AttributeArg, Modifiers, NamespaceScope, Param, PathSegment, Predefined, ScopeId, TextRange,
    TypeKind, TypeParam, Variance,
};

// Hand-built declarations: ranges are made-up offsets, nested as the parser would nest them.

fn attr(name: &str, positional: &[&str], named: &[(&str, &str)]) -> Attribute {
    let arg = |name: Option<&str>, value: &str| AttributeArg {
        name: name.map(Into::into),
        value: AttrValue::Str(value.to_string()),
        range: TextRange::default(),
    };
    Attribute {
        name: name.into(),
        target: None,
        args: positional
            .iter()
            .map(|v| arg(None, v))
            .chain(named.iter().map(|(n, v)| arg(Some(n), v)))
            .collect(),
        range: TextRange::default(),
    }
}

fn suppress(check_id: &str) -> Attribute {
    attr(
        "SuppressMessage",
        &["rlc-sharp", check_id],
        &[("Justification", "reviewed")],
    )
}

fn global(check_id: &str, scope: &str, target: &str) -> Attribute {
    let mut a = attr(
        "System.Diagnostics.CodeAnalysis.SuppressMessage",
        &["rlc-sharp", check_id],
        &[("Scope", scope), ("Target", target)],
    );
    a.target = Some("assembly".into());
    a
}

fn ty(path: &str) -> TypeRef {
    if let Some(p) = Predefined::from_keyword(path) {
        return TypeRef::Predefined(p);
    }
    TypeRef::Path {
        qualifier: None,
        segments: path
            .split('.')
            .map(|s| PathSegment {
                name: s.into(),
                args: Box::new([]),
            })
            .collect(),
    }
}

fn generic(name: &str, args: Vec<TypeRef>) -> TypeRef {
    TypeRef::Path {
        qualifier: None,
        segments: Box::new([PathSegment {
            name: name.into(),
            args: args.into(),
        }]),
    }
}

fn param(t: TypeRef, modifier: ParamModifier) -> Param {
    Param {
        name: "p".into(),
        ty: Some(t),
        modifier,
        default: None,
        attrs: Vec::new(),
        range: TextRange::default(),
    }
}

fn member(kind: MemberKind, name: &str, range: (u32, u32), params: Vec<Param>) -> Member {
    Member {
        name: name.into(),
        params,
        modifiers: Modifiers::PUBLIC,
        range: TextRange::new(range.0, range.1),
        ..Member::empty(kind)
    }
}

fn method(name: &str, range: (u32, u32), params: Vec<Param>) -> Member {
    member(MemberKind::Method, name, range, params)
}

fn class(name: &str, range: (u32, u32), members: Vec<Member>) -> TypeDecl {
    TypeDecl {
        kind: TypeKind::Class,
        name: name.into(),
        type_params: Vec::new(),
        constraints: Vec::new(),
        scope: ScopeId(1),
        parent: None,
        modifiers: Modifiers::PUBLIC,
        attrs: Vec::new(),
        bases: Vec::new(),
        primary_ctor: None,
        primary_base_args: None,
        members,
        range: TextRange::new(range.0, range.1),
        name_range: TextRange::default(),
        has_error: false,
    }
}

fn type_param(name: &str) -> TypeParam {
    TypeParam {
        name: name.into(),
        variance: Variance::None,
        attrs: Vec::new(),
    }
}

/// A file with `namespace` (dotted) spanning 0..10_000 and the given types in it.
fn file(namespace: &str, types: Vec<TypeDecl>) -> FileSyntax {
    let scope = |parent, name: Vec<&str>| NamespaceScope {
        parent,
        name: name.into_iter().map(Into::into).collect(),
        usings: Vec::new(),
        extern_aliases: Vec::new(),
        range: TextRange::new(0, 10_000),
    };
    FileSyntax {
        scopes: vec![
            scope(None, vec![]),
            scope(Some(ScopeId(0)), namespace.split('.').collect()),
        ],
        types,
        ..FileSyntax::default()
    }
}

fn id(code: &str) -> RuleId {
    rlc_core::rules::rule(code).expect("a registered rule").id
}

fn diag(file: u32, at: u32, rule: &'static str) -> Diagnostic {
    let span = Span::new(FileId(file), at, at + 1);
    Diagnostic::new(
        id(rule),
        "leak",
        Label {
            span,
            message: String::new(),
        },
    )
}

fn unit(file: u32, project: u32, syntax: &FileSyntax) -> SourceUnit<'_> {
    SourceUnit {
        file: FileId(file),
        path: Path::new("Source.cs"),
        project,
        syntax,
        text: "",
    }
}

/// Offsets of the findings that survive.
fn kept(diags: Vec<Diagnostic>, units: &[SourceUnit<'_>]) -> (Vec<u32>, SuppressionCounts) {
    let out = apply(diags, units, &RuleLevels::new());
    (
        out.kept.iter().map(|d| d.primary.span.start).collect(),
        out.counts,
    )
}

#[test]
fn config_levels_remove_and_regrade() {
    let syntax = file("N", vec![]);
    let units = [unit(0, 0, &syntax)];
    let levels: RuleLevels = [("RLC0001", Level::Off), ("RLC0002", Level::Error)]
        .into_iter()
        .map(|(code, level)| (id(code), level))
        .collect();
    let out = apply(
        vec![
            diag(0, 5, "RLC0001"),
            diag(0, 6, "RLC0002"),
            diag(7, 7, "RLC0001"),
        ],
        &units,
        &levels,
    );
    assert_eq!(out.counts.config, 2, "also in files that are not sources");
    assert_eq!(out.kept.len(), 1);
    assert_eq!(out.kept[0].rule, id("RLC0002"));
    assert_eq!(out.kept[0].severity, Severity::Error);
}

#[test]
fn generated_code_is_not_reported_unless_editorconfig_says_otherwise() {
    let syntax = file("N", vec![]);
    let units = [
        SourceUnit {
            path: Path::new("Forms/Main.Designer.cs"),
            ..unit(0, 0, &syntax)
        },
        SourceUnit {
            text: "// <auto-generated/>\nclass C {}",
            ..unit(1, 0, &syntax)
        },
        unit(2, 0, &syntax),
        SourceUnit {
            path: Path::new("Api.g.cs"),
            ..unit(3, 0, &syntax)
        },
    ];
    let diags = || (0..4).map(|f| diag(f, 5, "RLC0001")).collect::<Vec<_>>();
    let (left, counts) = kept(diags(), &units);
    assert_eq!(left.len(), 1);
    assert_eq!(counts.generated, 3);
    // `generated_code = false` for file 3, `true` for file 2.
    let editorconfig = |f: FileId| match f.0 {
        2 => Some(true),
        3 => Some(false),
        _ => None,
    };
    let out = apply_with(
        diags(),
        &units,
        &Options {
            level: &|_| None,
            foreign: true,
            generated_code: &editorconfig,
        },
    );
    let files: Vec<u32> = out.kept.iter().map(|d| d.primary.span.file.0).collect();
    assert_eq!(files, vec![3]);
    assert_eq!(out.counts.generated, 3);
}

#[test]
fn pragmas_disable_and_restore_by_id_name_or_all() {
    let pragma = |offset, disable, ids: &[&str]| PragmaWarning {
        offset,
        disable,
        ids: ids.iter().map(|s| s.to_string()).collect(),
    };
    let mut syntax = file("N", vec![]);
    syntax.pragmas = vec![
        pragma(100, true, &["CS0168", "RLC0001"]),
        pragma(200, false, &["RLC0001"]),
        pragma(300, true, &["resource-leak"]),
        pragma(400, false, &[]),
        pragma(500, true, &[]),
        pragma(600, false, &["rlc0002"]),
    ];
    let units = [unit(0, 0, &syntax)];
    let diags = [50, 150, 250, 350, 450, 550, 650]
        .into_iter()
        .flat_map(|at| [diag(0, at, "RLC0001"), diag(0, at + 1, "RLC0002")])
        .collect();
    let (left, counts) = kept(diags, &units);
    assert_eq!(left, vec![50, 51, 151, 250, 251, 351, 450, 451, 651]);
    assert_eq!(counts.pragma, 5);
}

#[test]
fn other_analyzers_pragmas_count_for_the_same_bug_by_tool() {
    let pragma = |offset, disable, ids: &[&str]| PragmaWarning {
        offset,
        disable,
        ids: ids.iter().map(|s| s.to_string()).collect(),
    };
    let mut syntax = file("N", vec![]);
    syntax.pragmas = vec![
        pragma(100, true, &["CA2000"]),
        pragma(200, false, &["ca2000"]),
        pragma(300, true, &["IDISP002", "CA1001"]),
        pragma(400, false, &["IDISP002"]),
    ];
    let units = [unit(0, 0, &syntax)];
    let diags = vec![
        diag(0, 150, "RLC0001"),
        diag(0, 151, "RLC0002"),
        diag(0, 152, "RLC0003"),
        diag(0, 250, "RLC0001"),
        diag(0, 350, "RLC0003"),
        diag(0, 351, "RLC0001"),
        diag(0, 450, "RLC0003"),
    ];
    let (left, counts) = kept(diags.clone(), &units);
    assert_eq!(left, vec![152, 250, 351, 450]);
    assert_eq!(
        (
            counts.net_analyzers,
            counts.idisposable_analyzers,
            counts.pragma
        ),
        (2, 1, 0)
    );
    // Turned off, only rlc-sharp's own suppressions count.
    let no_level = |_: &Diagnostic| None;
    let off = apply_with(
        diags,
        &units,
        &Options {
            level: &no_level,
            foreign: false,
            generated_code: &|_| None,
        },
    );
    assert_eq!(off.kept.len(), 7);
    assert_eq!(off.counts.total(), 0);
}

#[test]
fn other_analyzers_attributes_and_resharper_comments() {
    let mut open = method("Open", (100, 200), vec![]);
    open.attrs.push(attr(
        "SuppressMessage",
        &[
            "Microsoft.Reliability",
            "CA2000:Dispose objects before losing scope",
        ],
        &[("Justification", "pooled")],
    ));
    let mut names = method("Names", (300, 400), vec![]);
    names.attrs.push(attr(
        "SuppressMessage",
        &["ReSharper", "NotDisposedResource"],
        &[],
    ));
    let mut holder = class("Holder", (500, 700), vec![]);
    holder.attrs.push(attr(
        "SuppressMessage",
        &[
            "IDisposableAnalyzers.Correctness",
            "IDISP002:Dispose member",
        ],
        &[],
    ));
    let mut syntax = file("N", vec![class("C", (10, 450), vec![open, names]), holder]);
    syntax
        .global_attrs
        .push(global("IDISP001", "member", "~M:N.C.Open"));
    let mut text = " ".repeat(1000);
    let comment = "\n// ReSharper disable once NotDisposedResource\nvar x = new X();\n";
    text.replace_range(800..800 + comment.len(), comment);
    let units = [SourceUnit {
        text: &text,
        ..unit(0, 0, &syntax)
    }];
    let at_x = 800 + comment.find("new X").unwrap() as u32;
    let diags = vec![
        diag(0, 150, "RLC0001"),
        diag(0, 151, "RLC0003"),
        diag(0, 350, "RLC0002"),
        diag(0, 600, "RLC0003"),
        diag(0, 601, "RLC0001"),
        diag(0, at_x, "RLC0001"),
        diag(0, 950, "RLC0001"),
    ];
    let (left, counts) = kept(diags, &units);
    assert_eq!(left, vec![151, 601, 950]);
    assert_eq!(counts.net_analyzers, 1);
    assert_eq!(counts.idisposable_analyzers, 1);
    assert_eq!(counts.resharper, 2);
    assert_eq!(counts.attribute, 0);
}

#[test]
fn member_and_accessor_attributes_cover_their_range_only() {
    let mut open = method("Open", (100, 200), vec![]);
    open.attrs.push(suppress("RLC0001:resource-leak"));
    let mut prop = member(MemberKind::Property, "Reader", (300, 400), vec![]);
    let mut getter = Accessor {
        kind: AccessorKind::Get,
        modifiers: Modifiers::empty(),
        attrs: vec![suppress("resource-leak")],
        body: None,
        range: TextRange::new(310, 350),
    };
    prop.accessors.push(getter.clone());
    getter.kind = AccessorKind::Set;
    getter.attrs.clear();
    getter.range = TextRange::new(350, 390);
    prop.accessors.push(getter);
    let mut other = method("Other", (500, 600), vec![]);
    other
        .attrs
        .push(attr("SuppressMessage", &["Reliability", "RLC0001"], &[]));
    let syntax = file("N", vec![class("C", (10, 900), vec![open, prop, other])]);
    let units = [unit(0, 0, &syntax)];
    let diags = vec![
        diag(0, 150, "RLC0001"),
        diag(0, 151, "RLC0002"),
        diag(0, 320, "RLC0001"),
        diag(0, 360, "RLC0001"),
        diag(0, 550, "RLC0001"),
        diag(0, 700, "RLC0001"),
    ];
    let (left, counts) = kept(diags, &units);
    assert_eq!(
        left,
        vec![151, 360, 550, 700],
        "another category does not suppress"
    );
    assert_eq!(counts.attribute, 2);
}

#[test]
fn type_attribute_covers_every_part_in_the_project() {
    let mut part1 = class("C", (10, 300), vec![method("A", (20, 100), vec![])]);
    part1.attrs.push(attr(
        "SuppressMessageAttribute",
        &["RlcSharp", "RLC0003"],
        &[],
    ));
    let mut nested = class("Inner", (150, 250), vec![]);
    nested.parent = Some(TypeDeclId(0));
    let part2 = class("C", (10, 300), vec![method("B", (20, 100), vec![])]);
    let a = file("N", vec![part1, nested]);
    let b = file("N", vec![part2.clone()]);
    let elsewhere = file("N", vec![part2]);
    let units = [unit(0, 0, &a), unit(1, 0, &b), unit(2, 1, &elsewhere)];
    let diags = vec![
        diag(0, 50, "RLC0003"),
        diag(0, 200, "RLC0003"),
        diag(1, 50, "RLC0003"),
        diag(1, 51, "RLC0001"),
        diag(2, 50, "RLC0003"),
        diag(0, 400, "RLC0003"),
    ];
    let out = apply(diags, &units, &RuleLevels::new());
    let left: Vec<(u32, u32)> = out
        .kept
        .iter()
        .map(|d| (d.primary.span.file.0, d.primary.span.start))
        .collect();
    assert_eq!(left, vec![(1, 51), (2, 50), (0, 400)]);
    assert_eq!(out.counts.attribute, 3);
}

/// One global suppression in `GlobalSuppressions.cs` (file 9) against findings in file 0.
fn globally(suppression: Attribute, syntax: &FileSyntax, at: &[u32]) -> Vec<u32> {
    let mut globals = FileSyntax::default();
    globals.global_attrs.push(suppression);
    let units = [unit(0, 0, syntax), unit(9, 0, &globals)];
    let diags = at.iter().map(|&a| diag(0, a, "RLC0001")).collect();
    kept(diags, &units).0
}

fn overloads() -> FileSyntax {
    use ParamModifier::{None as Plain, Out, Ref};
    let members = vec![
        method(
            "Open",
            (100, 200),
            vec![param(ty("string"), Plain), param(ty("Stream"), Plain)],
        ),
        method("Open", (200, 300), vec![param(ty("int"), Plain)]),
        method("Open", (300, 400), vec![]),
        method(
            "Fill",
            (400, 500),
            vec![
                param(generic("List", vec![ty("string")]), Plain),
                param(TypeRef::Array(Box::new(ty("byte")), 1), Plain),
                param(ty("int"), Ref),
                param(TypeRef::Nullable(Box::new(ty("int"))), Out),
            ],
        ),
        member(
            MemberKind::Constructor,
            "C",
            (500, 600),
            vec![param(ty("System.IO.Stream"), Plain)],
        ),
    ];
    file("Company.Data", vec![class("C", (10, 900), members)])
}

#[test]
fn member_targets_match_overloads_by_parameter_types() {
    let all = [150, 250, 350, 450, 550, 950];
    let member = |target| globally(global("RLC0001", "member", target), &overloads(), &all);
    assert_eq!(
        member("~M:Company.Data.C.Open(System.String,System.IO.Stream)"),
        vec![250, 350, 450, 550, 950]
    );
    assert_eq!(
        member("~M:Company.Data.C.Open(System.Int32)"),
        vec![150, 350, 450, 550, 950]
    );
    assert_eq!(
        member("~M:Company.Data.C.Open"),
        vec![150, 250, 450, 550, 950]
    );
    assert_eq!(
        member(
            "~M:Company.Data.C.Fill(System.Collections.Generic.List{System.String},System.Byte[],System.Int32@,System.Nullable{System.Int32}@)"
        ),
        vec![150, 250, 350, 550, 950]
    );
    assert_eq!(
        member("~M:Company.Data.C.#ctor(System.IO.Stream)"),
        vec![150, 250, 350, 450, 950]
    );
    // Wrong namespace, wrong parameter type, wrong kind: nothing.
    for miss in [
        "~M:Other.C.Open(System.Int32)",
        "~M:Company.Data.C.Open(System.Int64)",
        "~P:Company.Data.C.Open",
        "M:Company.Data.C.Open(System.String,System.IO.Stream",
    ] {
        assert_eq!(member(miss), all.to_vec(), "{miss}");
    }
}

#[test]
fn type_namespace_and_module_scopes() {
    let all = [150, 950];
    let syntax = overloads();
    let run = |scope, target| globally(global("RLC0001", scope, target), &syntax, &all);
    assert_eq!(run("type", "~T:Company.Data.C"), vec![950]);
    assert_eq!(run("type", "~T:Company.C"), all.to_vec());
    assert_eq!(
        run("namespaceanddescendants", "~N:Company"),
        vec![] as Vec<u32>
    );
    assert_eq!(
        run("namespaceanddescendants", "~N:Comp"),
        all.to_vec(),
        "whole segments only"
    );
    assert_eq!(
        run("namespace", "~N:Company.Data"),
        all.to_vec(),
        "the namespace itself only"
    );
    let mut everywhere = attr("SuppressMessage", &["rlc-sharp", "RLC0001"], &[]);
    everywhere.target = Some("assembly".into());
    assert_eq!(
        globally(everywhere.clone(), &syntax, &all),
        vec![] as Vec<u32>
    );
    // Another project's global suppressions do not apply.
    let mut globals = FileSyntax::default();
    globals.global_attrs.push(everywhere);
    let units = [unit(0, 0, &syntax), unit(9, 1, &globals)];
    assert_eq!(kept(vec![diag(0, 150, "RLC0001")], &units).0, vec![150]);
}

#[test]
fn generic_nested_explicit_and_accessor_targets() {
    let mut outer = class("Outer", (10, 900), vec![]);
    outer.type_params.push(type_param("T"));
    let mut convert = method(
        "Convert",
        (100, 200),
        vec![
            param(ty("T"), ParamModifier::None),
            param(ty("U"), ParamModifier::None),
        ],
    );
    convert.type_params.push(type_param("U"));
    let mut dispose = method("Dispose", (200, 300), vec![]);
    dispose.explicit_interface = Some(ty("IDisposable"));
    let mut prop = member(MemberKind::Property, "Stream", (300, 400), vec![]);
    prop.ty = Some(ty("Stream"));
    prop.accessors.push(Accessor {
        kind: AccessorKind::Set,
        modifiers: Modifiers::empty(),
        attrs: Vec::new(),
        body: None,
        range: TextRange::new(320, 380),
    });
    let mut inner = class("Inner", (50, 800), vec![convert, dispose, prop]);
    inner.parent = Some(TypeDeclId(0));
    let syntax = file("N", vec![outer, inner]);
    let all = [150, 250, 350];
    let run = |target| globally(global("RLC0001", "member", target), &syntax, &all);
    assert_eq!(run("~M:N.Outer`1.Inner.Convert``1(`0,``0)"), vec![250, 350]);
    assert_eq!(run("~M:N.Outer`1.Inner.Convert``1(``0,`0)"), all.to_vec());
    assert_eq!(
        run("~M:N.Outer`1.Inner.System#IDisposable#Dispose"),
        vec![150, 350]
    );
    assert_eq!(
        run("~M:N.Outer`1.Inner.Dispose"),
        all.to_vec(),
        "an explicit implementation has another name"
    );
    assert_eq!(
        run("~M:N.Outer`1.Inner.set_Stream(System.IO.Stream)"),
        vec![150, 250]
    );
    assert_eq!(run("~P:N.Outer`1.Inner.Stream"), vec![150, 250]);
    assert_eq!(
        run("~M:N.Outer.Inner.set_Stream(System.IO.Stream)"),
        all.to_vec(),
        "arity is part of the name"
    );
}

#[test]
fn doc_types_parse() {
    let parse = |s: &str| {
        DocParser {
            s: s.as_bytes(),
            i: 0,
        }
        .ty()
    };
    let named =
        |n: &str| DocType::Named(n.split('.').map(|s| (s.to_string(), Vec::new())).collect());
    assert_eq!(parse("System.String"), named("System.String"));
    assert_eq!(
        parse("System.Int32[0:,0:]*@"),
        DocType::ByRef(Box::new(DocType::Pointer(Box::new(DocType::Array(
            Box::new(named("System.Int32")),
            2
        )))))
    );
    assert_eq!(
        parse("D{`0,``1}"),
        DocType::Named(vec![(
            "D".into(),
            vec![DocType::TypeParam(0), DocType::MethodTypeParam(1)]
        )])
    );
    assert_eq!(parse("=FUNC:System.Void"), DocType::Unknown);
    let id = DocId::parse('M', "N.C.M(System.Int32,=FUNC:X(Y),System.String)").expect("parses");
    assert_eq!(id.params.map(|p| p.len()), Some(3));
    assert!(
        DocId::parse('M', "N.C.op_Implicit(N.C)~System.String").is_some_and(|id| id.ret.is_some())
    );
}
