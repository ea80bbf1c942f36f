//! Recovery tests, as in the inference paper's Table 2: each `tests/infer/*.cs`
//! file carries the annotations a developer would write. The test strips them
//! (every bracketed `[Owning]`, `[NotOwning]`, `[MustCall(..)]`, `[MustCallAlias]`,
//! `[Calls(..)]`, `[CreatesMustCallFor(..)]`, also with a `return:` target), runs inference on the stripped
//! twin, and requires every annotation to come back, and nothing else. It prints
//! the recovery rate per attribute kind.

use std::collections::{BTreeMap, BTreeSet};

use rlc_core::program::{Harmless, Ownership, Program, Provenance, Target};
use rlc_csharp::load::lower_all;
use rlc_tests::{data_dir, files_in, load_files};

/// Removes the spec attribute lists from C# text, with the line they leave empty.
pub fn strip_annotations(text: &str) -> String {
    const NAMES: [&str; 6] = [
        "Owning",
        "NotOwning",
        "MustCallAlias",
        "MustCall",
        "Calls",
        "CreatesMustCallFor",
    ];
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find('[') {
        let after = &rest[open + 1..];
        let inner = after.trim_start_matches("return:").trim_start();
        let name_len = inner
            .find(|c: char| !c.is_alphanumeric())
            .unwrap_or(inner.len());
        let name = &inner[..name_len];
        let close = after.find(']');
        let is_spec = NAMES.contains(&name) && close.is_some();
        if !is_spec {
            out.push_str(&rest[..open + 1]);
            rest = after;
            continue;
        }
        let close = close.unwrap_or(0);
        out.push_str(&rest[..open]);
        rest = &after[close + 1..];
        // An attribute alone on its line takes the line with it.
        let line_start = out.rfind('\n').map(|i| i + 1).unwrap_or(0);
        if out[line_start..].trim().is_empty() && rest.starts_with(['\n', '\r']) {
            out.truncate(line_start);
            rest = rest
                .trim_start_matches('\r')
                .strip_prefix('\n')
                .unwrap_or(rest);
        } else {
            rest = rest.strip_prefix(' ').unwrap_or(rest);
        }
    }
    out.push_str(rest);
    out
}

/// (kind, declaration, attribute) of every spec fact with a given origin.
fn spec_keys(
    p: &Program,
    want: impl Fn(&Provenance) -> bool,
) -> BTreeSet<(String, String, String)> {
    let mut out = BTreeSet::new();
    let short =
        |t: rlc_core::program::TypeId| p.ty(t).name.rsplit('.').next().unwrap_or("").to_string();
    for t in &p.types {
        if let Some((mc, prov)) = &t.must_call
            && want(prov)
        {
            let attr = if mc.methods.is_empty() {
                "MustCall".to_string()
            } else {
                format!("MustCall({})", mc.methods.join(", "))
            };
            out.insert(("MustCall".into(), t.name.clone(), attr));
        }
        // The checker keeps a "releases nothing" verdict as a weak obligation;
        // the patch proposes it as `[MustCall]`.
        if let Some((Harmless::ReleasesNothing, prov)) = &t.harmless
            && want(prov)
        {
            out.insert(("MustCall".into(), t.name.clone(), "MustCall".into()));
        }
    }
    for f in &p.fields {
        if let Ownership::Owning(prov) = &f.ownership
            && want(prov)
        {
            out.insert((
                "Owning field".into(),
                format!("{}.{}", short(f.owner), f.name),
                "Owning".into(),
            ));
        }
    }
    for m in &p.methods {
        let name = format!("{}.{}/{}", short(m.owner), m.name, m.params.len());
        if let Some(prov) = &m.ret_must_call_alias
            && want(prov)
        {
            out.insert(("MustCallAlias".into(), name.clone(), "MustCallAlias".into()));
        }
        if let Ownership::NotOwning(prov) = &m.ret_ownership
            && want(prov)
        {
            out.insert(("NotOwning".into(), name.clone(), "return: NotOwning".into()));
        }
        for c in &m.calls {
            if !want(&c.provenance) {
                continue;
            }
            let target = match &c.target {
                Target::This => "this".to_string(),
                Target::Param(i) => format!("#{i}"),
                Target::Field(f) => format!("this.{}", p.field(*f).name),
            };
            let mut methods = c.methods.clone();
            methods.sort();
            out.insert((
                "Calls".into(),
                name.clone(),
                format!("Calls({target}, {})", methods.join(", ")),
            ));
        }
        for (t, prov) in &m.creates_must_call_for {
            if !want(prov) {
                continue;
            }
            let target = match t {
                Target::This => "this".to_string(),
                Target::Param(i) => format!("#{i}"),
                Target::Field(f) => format!("this.{}", p.field(*f).name),
            };
            out.insert((
                "CreatesMustCallFor".into(),
                name.clone(),
                format!("CreatesMustCallFor({target})"),
            ));
        }
        for prm in &m.params {
            let pname = format!("{name}:{}", prm.name);
            if let Ownership::Owning(prov) = &prm.ownership
                && want(prov)
            {
                out.insert(("Owning param".into(), pname.clone(), "Owning".into()));
            }
            if let Some(prov) = &prm.must_call_alias
                && want(prov)
            {
                out.insert(("MustCallAlias".into(), pname, "MustCallAlias".into()));
            }
        }
    }
    out
}

#[test]
fn stripping_removes_only_spec_attributes() {
    let text = "class C {\n    [Owning]\n    private Stream _s;\n    [Obsolete] void M([Owning] Stream s, [NotNull] string x) { }\n    [return: NotOwning]\n    Stream Get() => _s;\n}\n";
    assert_eq!(
        strip_annotations(text),
        "class C {\n    private Stream _s;\n    [Obsolete] void M(Stream s, [NotNull] string x) { }\n    Stream Get() => _s;\n}\n"
    );
}

#[test]
fn inference_recovers_the_annotations() {
    let files = files_in(&data_dir("infer"), "cs");
    assert!(!files.is_empty(), "no recovery test files");
    let mut per_kind: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut failures = Vec::new();
    for path in &files {
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("t.cs")
            .to_string();
        let annotated = std::fs::read_to_string(path).expect("read");
        let (_d1, loaded) = load_files(&[(&name, &annotated)]);
        assert_eq!(loaded.syntax_error_files, 0, "{name} has syntax errors");
        let expected = spec_keys(&loaded.index.program, |p| {
            matches!(p, Provenance::Source(_))
        });
        assert!(!expected.is_empty(), "{name} has no annotations");
        let stripped = strip_annotations(&annotated);
        let (_d2, mut twin) = load_files(&[(&name, &stripped)]);
        assert!(
            spec_keys(&twin.index.program, |p| matches!(p, Provenance::Source(_))).is_empty(),
            "{name}: stripping left annotations"
        );
        let lowered = lower_all(&mut twin.index);
        let inference = rlc_core::infer::infer(&twin.index.program, &lowered.bodies);
        let got = spec_keys(&inference.program, Provenance::is_inferred);
        for key in &expected {
            let e = per_kind.entry(key.0.clone()).or_default();
            e.1 += 1;
            if got.contains(key) {
                e.0 += 1;
            } else {
                failures.push(format!("{name}: not recovered: {} on {}", key.2, key.1));
            }
        }
        for key in got.difference(&expected) {
            failures.push(format!(
                "{name}: inferred but not annotated: {} on {}",
                key.2, key.1
            ));
        }
    }
    println!("{:<18} {:>9} {:>7}", "attribute", "recovered", "rate");
    let (mut all_found, mut all) = (0, 0);
    for (kind, (found, total)) in &per_kind {
        all_found += found;
        all += total;
        println!(
            "{kind:<18} {:>4}/{:<4} {:>6.1}%",
            found,
            total,
            100.0 * *found as f64 / *total as f64
        );
    }
    println!(
        "{:<18} {:>4}/{:<4} {:>6.1}%",
        "total",
        all_found,
        all,
        100.0 * all_found as f64 / all.max(1) as f64
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
