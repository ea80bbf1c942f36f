use super::*;

/// Locals named in `plain` are strings; the rest are disposable streams.
struct Types {
    plain: &'static [&'static str],
    async_only: &'static [&'static str],
}

impl Context for Types {
    fn local(&self, name: &str, _: TextRange) -> Option<TypeFacts> {
        Some(if self.plain.contains(&name) {
            TypeFacts {
                plain: true,
                ..TypeFacts::default()
            }
        } else if self.async_only.contains(&name) {
            TypeFacts {
                async_disposable: true,
                ..TypeFacts::default()
            }
        } else {
            STREAM
        })
    }
}

const STREAM: TypeFacts = TypeFacts {
    disposable: true,
    async_disposable: true,
    plain: false,
    value_type: false,
};

const TYPES: Types = Types {
    plain: &["line", "n", "text", "length"],
    async_only: &[],
};

fn leak(text: &str, alloc: &str, exceptional: bool) -> Request {
    let start = text.find(alloc).expect("the allocation is in the text") as u32;
    Request::Leak(LeakRequest {
        alloc: TextRange::new(start, start + alloc.len() as u32),
        value: STREAM,
        type_name: "FileStream".into(),
        exceptional,
        receiver: false,
    })
}

fn fixed(text: &str, request: &Request, options: FixOptions) -> Result<String, NoFix> {
    let mut fixer = FileFixer::new(text);
    fixer.fix(request, &TYPES, &options)?;
    let out = fixer.text().to_owned();
    let tree = syntax::parse(&out).unwrap();
    assert!(
        !tree.root_node().has_error(),
        "the fix does not parse:\n{out}"
    );
    Ok(out)
}

fn csharp7() -> FixOptions {
    FixOptions {
        using_declarations: false,
        ..FixOptions::default()
    }
}

const READ: &str = "class C
{
    string Read(string p)
    {
        var s = new FileStream(p, FileMode.Open);
        var r = new StreamReader(s);
        var line = r.ReadLine();
        return line;
    }
}
";

#[test]
fn a_local_gets_using_var_or_a_using_block() {
    let out = fixed(
        READ,
        &leak(READ, "new FileStream(p, FileMode.Open)", false),
        FixOptions::default(),
    )
    .unwrap();
    assert!(
        out.contains("        using var s = new FileStream(p, FileMode.Open);\n"),
        "{out}"
    );
    let out = fixed(
        READ,
        &leak(READ, "new FileStream(p, FileMode.Open)", false),
        csharp7(),
    )
    .unwrap();
    assert_eq!(
        out,
        "class C
{
    string Read(string p)
    {
        using (var s = new FileStream(p, FileMode.Open))
        {
            var r = new StreamReader(s);
            var line = r.ReadLine();
            return line;
        }
    }
}
"
    );
}

#[test]
fn two_fixes_in_one_block_nest() {
    let mut fixer = FileFixer::new(READ);
    let options = csharp7();
    fixer
        .fix(
            &leak(READ, "new FileStream(p, FileMode.Open)", false),
            &TYPES,
            &options,
        )
        .unwrap();
    fixer
        .fix(&leak(READ, "new StreamReader(s)", false), &TYPES, &options)
        .unwrap();
    assert_eq!(
        fixer.text(),
        "class C
{
    string Read(string p)
    {
        using (var s = new FileStream(p, FileMode.Open))
        {
            using (var r = new StreamReader(s))
            {
                var line = r.ReadLine();
                return line;
            }
        }
    }
}
"
    );
}

#[test]
fn await_using_in_async_methods_and_crlf_kept() {
    let text = "class C\r\n{\r\n    async Task<int> M()\r\n    {\r\n        var c = await Open();\r\n        return await c.CountAsync();\r\n    }\r\n}\r\n";
    let out = fixed(
        text,
        &leak(text, "await Open()", false),
        FixOptions::default(),
    )
    .unwrap();
    assert!(
        out.contains("        await using var c = await Open();\r\n"),
        "{out}"
    );
    assert!(!out.replace("\r\n", "").contains('\n'), "line endings kept");
}

#[test]
fn escaping_values_get_no_fix() {
    let cases = [
        (
            "Stream M() { var s = new FileStream(p); s.Flush(); return s; }",
            "returned",
        ),
        (
            "object M() { var s = new FileStream(p); var w = new Wrapper(s); return w; }",
            "returned",
        ),
        (
            "void M() { var s = new FileStream(p); _field = s; }",
            "stored",
        ),
        (
            "void M() { var s = new FileStream(p); Task.Run(() => s.Flush()); }",
            "captures",
        ),
        (
            "void M() { var s = new FileStream(p); s = null; }",
            "assigned",
        ),
        (
            "void M() { var s = new FileStream(p); Use(ref s); }",
            "reference",
        ),
        (
            "void M() { var list = new List<Stream>(); var s = new FileStream(p); list.Add(s); _all = list; }",
            "stored",
        ),
        (
            "void M(List<Stream> list) { var s = new FileStream(p); list.Add(s); }",
            "outlives",
        ),
    ];
    for (method, why) in cases {
        let text = format!("class C {{\n    {method}\n}}\n");
        match fixed(
            &text,
            &leak(&text, "new FileStream(p)", false),
            FixOptions::default(),
        ) {
            Err(NoFix::Escapes(reason)) => assert!(reason.contains(why), "{method}: {reason}"),
            other => panic!("{method}: {other:?}"),
        }
    }
}

#[test]
fn plain_results_do_not_escape() {
    let text = "class C {\n    int M() {\n        var s = new FileStream(p);\n        var length = (int)s.Length;\n        Log(s.Name);\n        return length + s.ReadByte();\n    }\n}\n";
    let out = fixed(
        text,
        &leak(text, "new FileStream(p)", false),
        FixOptions::default(),
    )
    .unwrap();
    assert!(out.contains("using var s = new FileStream(p);"), "{out}");
}

#[test]
fn temporaries_are_hoisted_when_nothing_runs_before_them() {
    let text = "class C {\n    void M(Mapping mapping) {\n        Assert.Equal(900, mapping.Create(new FileStream(p), \"Name\").Size);\n    }\n}\n";
    let out = fixed(
        text,
        &leak(text, "new FileStream(p)", false),
        FixOptions::default(),
    )
    .unwrap();
    assert!(
        out.contains("        using var fileStream = new FileStream(p);\n        Assert.Equal(900, mapping.Create(fileStream, \"Name\").Size);\n"),
        "{out}"
    );
    let out = fixed(text, &leak(text, "new FileStream(p)", false), csharp7()).unwrap();
    assert!(
        out.contains("        using (var fileStream = new FileStream(p))\n        {\n            Assert.Equal(900, mapping.Create(fileStream, \"Name\").Size);\n        }\n"),
        "{out}"
    );
    for (statement, why) in [
        ("Use(Next(), new FileStream(p));", "side effects"),
        ("var x = flag ? new FileStream(p) : null;", "some paths"),
        ("if (ok) Use(new FileStream(p));", "block"),
        ("while (Use(new FileStream(p))) { }", "declaration"),
    ] {
        let text = format!("class C {{\n    void M() {{\n        {statement}\n    }}\n}}\n");
        match fixed(
            &text,
            &leak(&text, "new FileStream(p)", false),
            FixOptions::default(),
        ) {
            Err(NoFix::Shape(reason)) => assert!(reason.contains(why), "{statement}: {reason}"),
            other => panic!("{statement}: {other:?}"),
        }
    }
}

#[test]
fn a_hoisted_name_avoids_names_in_use() {
    let text = "class C {\n    Stream fileStream;\n    void M() {\n        Use(new FileStream(p));\n    }\n}\n";
    let out = fixed(
        text,
        &leak(text, "new FileStream(p)", false),
        FixOptions::default(),
    )
    .unwrap();
    assert!(
        out.contains("using var fileStream2 = new FileStream(p);"),
        "{out}"
    );
}

#[test]
fn exception_only_leaks_get_try_finally() {
    let text = "class C {\n    void M() {\n        var s = new FileStream(p);\n        var n = s.ReadByte();\n        Write(n);\n        s.Dispose();\n        Done();\n    }\n}\n";
    let out = fixed(
        text,
        &leak(text, "new FileStream(p)", true),
        FixOptions::default(),
    )
    .unwrap();
    assert_eq!(
        out,
        "class C {\n    void M() {\n        var s = new FileStream(p);\n        try\n        {\n            var n = s.ReadByte();\n            Write(n);\n        }\n        finally\n        {\n            s.Dispose();\n        }\n        Done();\n    }\n}\n"
    );
}

#[test]
fn discarded_values_and_types_without_idisposable_get_no_fix() {
    let text = "class C {\n    void M() {\n        new FileStream(p);\n    }\n}\n";
    assert_eq!(
        fixed(
            text,
            &leak(text, "new FileStream(p)", false),
            FixOptions::default()
        )
        .unwrap_err(),
        NoFix::Discarded
    );
    let text =
        "class C {\n    void M() {\n        var a = new Thing();\n        a.Go();\n    }\n}\n";
    let types = Types {
        plain: &[],
        async_only: &["a"],
    };
    let mut fixer = FileFixer::new(text);
    let r = fixer.fix(
        &leak(text, "new Thing()", false),
        &types,
        &FixOptions::default(),
    );
    assert_eq!(
        r.unwrap_err(),
        NoFix::NotDisposable,
        "IAsyncDisposable outside an async method"
    );
}

fn field_request(text: &str, method: Option<(&str, bool)>) -> Request {
    let at = |needle: &str| {
        let s = text.find(needle).unwrap() as u32;
        TextRange::new(s, s + needle.len() as u32)
    };
    Request::DisposeField(FieldRequest {
        field: at("_log"),
        name: "_log".into(),
        call: "Dispose".into(),
        field_type: STREAM,
        class: Some(at("Store")),
        method: method.map(|(name, disposing_flag)| DisposalMethod {
            name: at(name),
            disposing_flag,
        }),
    })
}

#[test]
fn owning_fields_are_disposed_in_dispose() {
    let text = "class Store : IDisposable\n{\n    private Stream _log;\n\n    public void Dispose()\n    {\n        _other.Dispose();\n    }\n}\n";
    let out = fixed(
        text,
        &field_request(text, Some(("Dispose", false))),
        FixOptions::default(),
    )
    .unwrap();
    assert!(
        out.contains("        _other.Dispose();\n        _log?.Dispose();\n    }"),
        "{out}"
    );
    let text = "class Store : Base\n{\n    private Stream _log;\n\n    protected override void Dispose(bool disposing)\n    {\n        if (disposing)\n        {\n            _a.Dispose();\n        }\n        base.Dispose(disposing);\n    }\n}\n";
    let out = fixed(
        text,
        &field_request(text, Some(("Dispose", true))),
        FixOptions::default(),
    )
    .unwrap();
    assert!(out.contains("            _a.Dispose();\n            _log?.Dispose();\n        }\n        base.Dispose(disposing);"), "{out}");
    let text = "class Store : IDisposable\n{\n    private Stream _log;\n    public void Dispose() => _a.Dispose();\n}\n";
    let out = fixed(
        text,
        &field_request(text, Some(("Dispose", false))),
        FixOptions::default(),
    )
    .unwrap();
    assert!(out.contains("    public void Dispose()\n    {\n        _a.Dispose();\n        _log?.Dispose();\n    }\n"), "{out}");
}

#[test]
fn a_class_without_dispose_gets_the_pattern() {
    let text = "namespace N\n{\n    public class Store\n    {\n        private Stream _log = new MemoryStream();\n    }\n}\n";
    let out = fixed(text, &field_request(text, None), FixOptions::default()).unwrap();
    assert!(
        out.contains("public class Store : System.IDisposable\n"),
        "{out}"
    );
    assert!(out.contains("        public void Dispose()\n        {\n            Dispose(true);\n            System.GC.SuppressFinalize(this);\n        }\n\n        protected virtual void Dispose(bool disposing)\n        {\n            if (disposing)\n            {\n                _log?.Dispose();\n            }\n        }\n    }\n}\n"), "{out}");
    let sealed = "using System;\nsealed class Store<T> : Base\n{\n    Stream _log;\n}\n";
    let out = fixed(sealed, &field_request(sealed, None), FixOptions::default()).unwrap();
    assert!(
        out.contains("sealed class Store<T> : Base, IDisposable\n"),
        "{out}"
    );
    assert!(out.contains("    Stream _log;\n\n    public void Dispose()\n    {\n        _log?.Dispose();\n    }\n}"), "{out}");
}

fn overwrite(text: &str, store: &str) -> Request {
    let s = text.find(store).unwrap() as u32;
    Request::DisposeBeforeOverwrite(OverwriteRequest {
        store: TextRange::new(s, s + store.len() as u32),
        call: "Dispose".into(),
        field_type: STREAM,
    })
}

#[test]
fn the_old_value_is_disposed_before_an_overwrite() {
    let text = "class C {\n    void Rotate() {\n        Flush();\n        _current = new FileStream(Next());\n    }\n    public async Task InitAsync()\n        => TestStore = await Create(\"x\");\n}\n";
    let out = fixed(
        text,
        &overwrite(text, "_current = new FileStream(Next())"),
        FixOptions::default(),
    )
    .unwrap();
    assert!(out.contains("        Flush();\n        _current?.Dispose();\n        _current = new FileStream(Next());\n"), "{out}");
    let out = fixed(
        text,
        &overwrite(text, "TestStore = await Create(\"x\")"),
        FixOptions::default(),
    )
    .unwrap();
    assert!(out.contains("    public async Task InitAsync()\n    {\n        TestStore?.Dispose();\n        TestStore = await Create(\"x\");\n    }\n"), "{out}");
    for (code, why) in [
        ("_current = other;", "may be the old one"),
        ("_current = Wrap(_current);", "computed from the old"),
        ("_current ??= new FileStream(p);", "compound"),
    ] {
        let text = format!("class C {{\n    void M() {{\n        {code}\n    }}\n}}\n");
        match fixed(
            &text,
            &overwrite(&text, code.trim_end_matches(';')),
            FixOptions::default(),
        ) {
            Err(NoFix::Shape(reason)) => assert!(reason.contains(why), "{code}: {reason}"),
            other => panic!("{code}: {other:?}"),
        }
    }
}

#[test]
fn offsets_map_through_earlier_fixes() {
    let edits = vec![
        Edit::insert(5, "abc".into(), 1),
        Edit {
            start: 10,
            end: 12,
            text: "z".into(),
            rank: 1,
        },
    ];
    assert_eq!(map_offset(&edits, 5, true), Some(8));
    assert_eq!(map_offset(&edits, 5, false), Some(5));
    assert_eq!(map_offset(&edits, 11, true), None);
    assert_eq!(map_offset(&edits, 12, true), Some(14));
    assert_eq!(map_offset(&edits, 20, false), Some(22));
}
