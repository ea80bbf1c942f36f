//! The layering of `rlc-core`: no two top-level modules may depend on each
//! other, directly or through others. A module's dependencies are the
//! `crate::<module>` paths its files name (outside `#[cfg(test)]` helpers,
//! which live in files named `tests.rs`, `*_tests.rs` or `testing.rs`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read src dir") {
        let path = entry.expect("dir entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn is_test_file(path: &Path) -> bool {
    let name = path.file_stem().and_then(|n| n.to_str()).unwrap_or("");
    name == "tests" || name == "testing" || name.ends_with("_tests")
}

/// The top-level module a file belongs to (`consistency` for
/// `src/consistency/satisfied.rs`), or `None` for `lib.rs`.
fn module_of(src: &Path, file: &Path) -> Option<String> {
    let rel = file.strip_prefix(src).expect("under src");
    let first = rel.components().next()?.as_os_str().to_str()?;
    let name = first.strip_suffix(".rs").unwrap_or(first);
    (name != "lib").then(|| name.to_string())
}

/// The modules a file's code names as `crate::<module>`, including inside
/// grouped imports (`use crate::{a, b::c}`).
fn referenced_modules(text: &str, modules: &BTreeSet<String>) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    // Code before the first `#[cfg(test)]` item: unit tests may reach anywhere.
    let code = text.split("#[cfg(test)]").next().unwrap_or(text);
    let code: String = code
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    let mut rest = code.as_str();
    while let Some(at) = rest.find("crate::") {
        rest = &rest[at + "crate::".len()..];
        let names: Vec<&str> = if let Some(group) = rest.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            group[..end]
                .split(',')
                .map(|s| s.trim().split("::").next().unwrap_or("").trim())
                .collect()
        } else {
            let end = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            vec![&rest[..end]]
        };
        for n in names {
            if modules.contains(n) {
                out.insert(n.to_string());
            }
        }
    }
    out
}

#[test]
fn core_modules_form_no_import_cycle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let modules: BTreeSet<String> = files.iter().filter_map(|f| module_of(&src, f)).collect();
    assert!(modules.len() > 10, "found {modules:?}");
    let mut deps: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in files.iter().filter(|f| !is_test_file(f)) {
        let Some(module) = module_of(&src, file) else {
            continue;
        };
        let text = std::fs::read_to_string(file).expect("read source");
        let refs = referenced_modules(&text, &modules);
        deps.entry(module.clone())
            .or_default()
            .extend(refs.into_iter().filter(|m| *m != module));
    }
    // Depth-first search for a back edge; report the cycle it closes.
    fn visit(
        m: &str,
        deps: &BTreeMap<String, BTreeSet<String>>,
        stack: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(i) = stack.iter().position(|s| s == m) {
            let mut cycle = stack[i..].to_vec();
            cycle.push(m.to_string());
            return Some(cycle);
        }
        if done.contains(m) {
            return None;
        }
        stack.push(m.to_string());
        for d in deps.get(m).into_iter().flatten() {
            if let Some(c) = visit(d, deps, stack, done) {
                return Some(c);
            }
        }
        stack.pop();
        done.insert(m.to_string());
        None
    }
    let mut done = BTreeSet::new();
    for m in deps.keys() {
        if let Some(cycle) = visit(m, &deps, &mut Vec::new(), &mut done) {
            panic!("import cycle in rlc-core: {}", cycle.join(" -> "));
        }
    }
}

#[test]
fn the_scanner_sees_grouped_and_plain_paths() {
    let modules: BTreeSet<String> = ["ir", "facts", "rules"].map(String::from).into();
    let text = "use crate::{ir::Body, facts};\nfn f() { crate::rules::x(); }\n// crate::nothing\n#[cfg(test)]\nmod t { use crate::zzz; }";
    let got = referenced_modules(text, &modules);
    assert_eq!(got, modules);
}
