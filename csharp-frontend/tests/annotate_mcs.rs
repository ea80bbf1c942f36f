//! Annotated C# 7.2 still compiles, with the attribute definitions, under
//! Debian's mono `mcs` (`apt-get install mono-mcs`; `.ci/run` installs it).

mod annotate_support;

use std::path::Path;
use std::process::Command;

use annotate_support::{annotate, member, param, ret, ty};

const SOURCE: &str = r#"// C# 7.2: no records, no file-scoped namespaces, no nullable annotations.
using System;
using System.Diagnostics.CodeAnalysis;
using System.IO;
using System.Runtime.CompilerServices;

namespace Sample.Storage
{
    /// <summary>Opens readers.</summary>
    public interface IReaderFactory
    {
        /// <summary>A reader the factory keeps.</summary>
        TextReader Shared { get; }

        TextReader Open(string name);
    }

    /// <summary>Owns one stream.</summary>
    public sealed class LineReader : IDisposable
    {
        private readonly Stream _inner;
        private Stream _spare, _other;

        public LineReader(Stream inner)
        {
            _inner = inner;
        }

        [Obsolete("Use Detach.")]
        public Stream Inner => _inner;

        [MethodImpl(MethodImplOptions.NoInlining)]
        public Stream Detach() { var s = _spare; _spare = null; return s; }

        public void Dispose()
        {
            _inner.Dispose();
            _spare?.Dispose();
        }
    }

    public static class Streams
    {
        public static void CloseQuietly(this Stream stream)
        {
            try { stream.Dispose(); } catch (IOException) { }
        }

        public static void CloseAll([NotNull] params IDisposable[] all)
        {
            foreach (var d in all) d.Dispose();
        }

        public static void Swap(ref Stream a, ref Stream b) { var t = a; a = b; b = t; }
    }

    public delegate Stream StreamOpener(string path);
}
"#;

fn compile(dir: &Path, files: &[&str]) -> Result<(), String> {
    let out = Command::new("mcs")
        .current_dir(dir)
        .args([
            "-langversion:7.2",
            "-target:library",
            "-warnaserror+",
            "-nowarn:169,414,649",
            "-out:Sample.dll",
        ])
        .args(files)
        .output()
        .map_err(|e| format!("cannot run mcs ({e}); install Debian's mono-mcs (.ci/run does)"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

#[test]
fn annotated_csharp_7_2_compiles_with_mcs() {
    let annotated = annotate(SOURCE, |t| {
        vec![
            ty(t, "class LineReader", "LineReader", "MustCall(\"Dispose\")"),
            ret(t, "TextReader Shared", "Shared", "NotOwning"),
            ret(t, "TextReader Open", "Open", "Owning"),
            member(t, "Stream _inner;", "_inner", "Owning"),
            member(t, "Stream _spare", "_spare", "Owning"),
            member(t, "public LineReader(", "LineReader", "MustCallAlias"),
            param(t, "Stream inner", "MustCallAlias"),
            ret(t, "Stream Inner =>", "Inner", "NotOwning"),
            ret(t, "Stream Detach", "Detach", "Owning"),
            member(
                t,
                "void Dispose",
                "Dispose",
                "Calls(\"_inner\", \"Dispose\")",
            ),
            member(
                t,
                "void Dispose",
                "Dispose",
                "Calls(\"_spare\", \"Dispose\")",
            ),
            param(t, "this Stream stream", "Owning"),
            member(
                t,
                "void CloseQuietly",
                "CloseQuietly",
                "Calls(\"stream\", \"Dispose\")",
            ),
            param(t, "params IDisposable[] all", "Owning"),
            param(t, "ref Stream a", "NotOwning"),
            ret(t, "Stream StreamOpener", "StreamOpener", "Owning"),
        ]
    });
    assert!(
        annotated.contains(
            "using System.Runtime.CompilerServices;\nusing RlcSharp.Annotations;\n\nnamespace"
        ),
        "{annotated}"
    );
    assert!(
        annotated.contains(
            "        [Owning]\n        private Stream _spare;\n        private Stream _other;\n"
        ),
        "{annotated}"
    );
    assert!(
        annotated.contains("[NotNull, Owning] params IDisposable[] all"),
        "{annotated}"
    );
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("Original.cs"), SOURCE).unwrap();
    std::fs::write(dir.path().join("Annotated.cs"), &annotated).unwrap();
    std::fs::write(
        dir.path().join("RlcSharpAnnotations.cs"),
        rlc_attributes::ANNOTATIONS_CS,
    )
    .unwrap();
    // `NotNull` is .NET Core's; a stand-in keeps the sample self-contained.
    std::fs::write(
        dir.path().join("NotNull.cs"),
        "namespace System.Diagnostics.CodeAnalysis { [System.AttributeUsage(System.AttributeTargets.All)] public sealed class NotNullAttribute : System.Attribute { } }\n",
    )
    .unwrap();
    compile(dir.path(), &["Original.cs", "NotNull.cs"])
        .unwrap_or_else(|e| panic!("the original does not compile:\n{e}"));
    compile(
        dir.path(),
        &["Annotated.cs", "NotNull.cs", "RlcSharpAnnotations.cs"],
    )
    .unwrap_or_else(|e| panic!("the annotated file does not compile:\n{e}\n{annotated}"));
}
