//! Where `using RlcSharp.Annotations;` goes, and when it is not needed.

mod annotate_support;

use annotate_support::{annotate, annotate_with, member, param};
use rlc_csharp::annotate::{AnnotateOptions, annotate_file};

fn owning_field(t: &str) -> Vec<rlc_csharp::annotate::Annotation> {
    vec![member(t, "Stream _s", "_s", "Owning")]
}

#[test]
fn joins_alphabetically_sorted_usings_in_order() {
    let src = "using Lucene.Net.Support;\r\nusing System;\r\nusing System.IO;\r\n\r\nnamespace Lucene.Net.Store\r\n{\r\n    class C { Stream _s; }\r\n}\r\n";
    let out = annotate(src, owning_field);
    assert_eq!(
        out,
        "using Lucene.Net.Support;\r\nusing RlcSharp.Annotations;\r\nusing System;\r\nusing System.IO;\r\n\r\nnamespace Lucene.Net.Store\r\n{\r\n    class C { [Owning] Stream _s; }\r\n}\r\n"
    );
}

#[test]
fn joins_system_first_usings_in_order() {
    let src = "// Licensed to the .NET Foundation.\n\nusing System.ComponentModel;\nusing Microsoft.EntityFrameworkCore.Internal;\nusing Serilog;\n\nnamespace Microsoft.EntityFrameworkCore;\n\nclass C { Stream _s; }\n";
    let out = annotate(src, owning_field);
    assert!(
        out.contains("using System.ComponentModel;\nusing Microsoft.EntityFrameworkCore.Internal;\nusing RlcSharp.Annotations;\nusing Serilog;\n\nnamespace"),
        "{out}"
    );
}

#[test]
fn unsorted_usings_get_it_last_before_static_and_alias_ones() {
    let src = "using Zeta;\nusing Alpha;\nusing static System.Math;\nusing IO = System.IO;\nclass C { Stream _s; }\n";
    let out = annotate(src, owning_field);
    assert_eq!(
        out,
        "using Zeta;\nusing Alpha;\nusing RlcSharp.Annotations;\nusing static System.Math;\nusing IO = System.IO;\nclass C { [Owning] Stream _s; }\n"
    );
    let only_static = "using static System.Math;\nclass C { Stream _s; }\n";
    assert!(
        annotate(only_static, owning_field)
            .starts_with("using RlcSharp.Annotations;\nusing static System.Math;\n")
    );
}

/// Usings that are all `System*` fit either order; `System` first is the
/// editors' default.
#[test]
fn usings_inside_a_block_namespace_get_it_there() {
    let src = "// header\nnamespace N\n{\n\tusing System;\n\tusing System.IO;\n\n\tclass C { Stream _s; }\n}\n";
    let out = annotate(src, owning_field);
    assert_eq!(
        out,
        "// header\nnamespace N\n{\n\tusing System;\n\tusing System.IO;\n\tusing RlcSharp.Annotations;\n\n\tclass C { [Owning] Stream _s; }\n}\n"
    );
}

#[test]
fn each_namespace_with_its_own_usings_gets_one() {
    let src = "namespace A\n{\n    using System;\n    class C { Stream _s; }\n}\nnamespace B\n{\n    using System;\n    class D { void M(Stream s) { } }\n}\nnamespace E\n{\n    using System;\n    class F { }\n}\n";
    let out = annotate(src, |t| {
        vec![
            member(t, "Stream _s", "_s", "Owning"),
            param(t, "Stream s", "Owning"),
        ]
    });
    assert_eq!(
        out.matches("using RlcSharp.Annotations;").count(),
        2,
        "{out}"
    );
    assert!(
        out.contains("namespace E\n{\n    using System;\n    class F"),
        "{out}"
    );
    // A declaration in a namespace without usings: one at the top instead.
    let mixed = "namespace A\n{\n    using System;\n    class C { Stream _s; }\n}\nnamespace B\n{\n    class D { void M(Stream s) { } }\n}\n";
    let out = annotate(mixed, |t| {
        vec![
            member(t, "Stream _s", "_s", "Owning"),
            param(t, "Stream s", "Owning"),
        ]
    });
    assert!(
        out.starts_with("using RlcSharp.Annotations;\n\nnamespace A\n{\n    using System;\n"),
        "{out}"
    );
    assert_eq!(
        out.matches("using RlcSharp.Annotations;").count(),
        1,
        "{out}"
    );
}

#[test]
fn file_scoped_namespace_usings_after_the_namespace() {
    let src = "namespace N;\n\nusing System;\nusing Xunit;\n\nclass C { Stream _s; }\n";
    let out = annotate(src, owning_field);
    assert_eq!(
        out,
        "namespace N;\n\nusing System;\nusing RlcSharp.Annotations;\nusing Xunit;\n\nclass C { [Owning] Stream _s; }\n"
    );
}

#[test]
fn a_file_without_usings_gets_it_after_its_header() {
    let licensed = "/*\n * Licensed under the Apache License.\n */\n\nnamespace N\n{\n    class C { Stream _s; }\n}\n";
    assert_eq!(
        annotate(licensed, owning_field),
        "/*\n * Licensed under the Apache License.\n */\n\nusing RlcSharp.Annotations;\n\nnamespace N\n{\n    class C { [Owning] Stream _s; }\n}\n"
    );
    let bare = "class C { Stream _s; }";
    assert_eq!(
        annotate(bare, owning_field),
        "using RlcSharp.Annotations;\n\nclass C { [Owning] Stream _s; }"
    );
    let file_scoped = "namespace N;\n\nclass C { Stream _s; }\n";
    assert_eq!(
        annotate(file_scoped, owning_field),
        "using RlcSharp.Annotations;\n\nnamespace N;\n\nclass C { [Owning] Stream _s; }\n"
    );
}

#[test]
fn a_doc_comment_stays_with_the_first_declaration() {
    let src = "// Copyright\n\n/// <summary>Doc.</summary>\n[Serializable]\npublic class C { Stream _s; }\n";
    assert_eq!(
        annotate(src, owning_field),
        "// Copyright\n\nusing RlcSharp.Annotations;\n\n/// <summary>Doc.</summary>\n[Serializable]\npublic class C { [Owning] Stream _s; }\n"
    );
}

#[test]
fn regions_nullable_and_extern_aliases_come_first() {
    let src = "#region License\r\n// MIT\r\n#endregion\r\n\r\n#nullable enable\r\nextern alias Core;\r\nclass C { Stream _s; }\r\n";
    assert_eq!(
        annotate(src, owning_field),
        "#region License\r\n// MIT\r\n#endregion\r\n\r\n#nullable enable\r\nextern alias Core;\r\nusing RlcSharp.Annotations;\r\n\r\nclass C { [Owning] Stream _s; }\r\n"
    );
    let region_usings = "#region Using directives\nusing System;\nusing System.IO;\n#endregion\nclass C { Stream _s; }\n";
    assert!(
        annotate(region_usings, owning_field).starts_with("#region Using directives\nusing System;\nusing System.IO;\nusing RlcSharp.Annotations;\n#endregion\n")
    );
}

#[test]
fn global_usings_come_before_it() {
    let src = "global using System;\nglobal using System.IO;\nclass C { Stream _s; }\n";
    assert_eq!(
        annotate(src, owning_field),
        "global using System;\nglobal using System.IO;\nusing RlcSharp.Annotations;\nclass C { [Owning] Stream _s; }\n"
    );
}

#[test]
fn no_using_where_the_names_resolve_already() {
    for src in [
        "using RlcSharp.Annotations;\nclass C { Stream _s; }\n",
        "using global::RlcSharp.Annotations;\nclass C { Stream _s; }\n",
        "global using RlcSharp . Annotations;\nclass C { Stream _s; }\n",
        "namespace RlcSharp.Annotations.Tests { class C { Stream _s; } }\n",
        "namespace RlcSharp { namespace Annotations { class C { Stream _s; } } }\n",
        "namespace N\n{\n    using RlcSharp.Annotations;\n    class C { Stream _s; }\n}\n",
    ] {
        let out = annotate(src, owning_field);
        assert_eq!(
            out.matches("using").count(),
            src.matches("using").count(),
            "{out}"
        );
        assert!(out.contains("[Owning] Stream _s;"), "{out}");
    }
    // A using in another namespace does not reach this one.
    let elsewhere = "namespace A { using RlcSharp.Annotations; }\nnamespace B\n{\n    using System;\n    class C { Stream _s; }\n}\n";
    let out = annotate(elsewhere, owning_field);
    assert!(
        out.contains("namespace B\n{\n    using System;\n    using RlcSharp.Annotations;\n"),
        "{out}"
    );
    // A project-wide global using: the caller says so.
    let src = "using System;\nclass C { Stream _s; }\n";
    let out = annotate_with(
        src,
        &AnnotateOptions {
            namespace: None,
            ..AnnotateOptions::default()
        },
        owning_field,
    );
    assert_eq!(out, "using System;\nclass C { [Owning] Stream _s; }\n");
}

#[test]
fn no_using_when_nothing_is_added() {
    let src = "using System;\nclass C { [Owning] Stream _s; }\n";
    assert_eq!(annotate_file(src, &owning_field(src)).unwrap(), src);
}

#[test]
fn a_custom_namespace_is_imported_the_same_way() {
    let src = "using System;\nclass C { Stream _s; }\n";
    let options = AnnotateOptions {
        namespace: Some("Acme.Ownership".into()),
        ..AnnotateOptions::default()
    };
    assert_eq!(
        annotate_with(src, &options, owning_field),
        "using System;\nusing Acme.Ownership;\nclass C { [Owning] Stream _s; }\n"
    );
}
