//! The case corpus: every `tests/cases/*.cs` file is checked on its own and its
//! diagnostics must match its `// expect: RLCxxxx` markers exactly, in both
//! directions (see `tests/cases/README.md`).

use std::collections::BTreeMap;

use rlc_core::ExceptionModel;
use rlc_sharp::driver::{RunOptions, run};
use rlc_tests::{data_dir, expect_markers, files_in};

/// Options a case file asks for in its `// rlc-case:` header.
fn header_options(text: &str) -> (ExceptionModel, bool) {
    let mut model = ExceptionModel::Explicit;
    let mut infer = false;
    if let Some(rest) = text
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("// rlc-case:"))
    {
        for opt in rest.split_whitespace() {
            match opt {
                "exception-model=none" => model = ExceptionModel::None,
                "exception-model=explicit" => model = ExceptionModel::Explicit,
                "exception-model=all" => model = ExceptionModel::All,
                "infer" => infer = true,
                other => panic!("unknown case option `{other}`"),
            }
        }
    }
    (model, infer)
}

#[test]
fn case_corpus_matches_its_markers() {
    let files = files_in(&data_dir("cases"), "cs");
    assert!(files.len() >= 30, "the corpus is missing files");
    let mut failures = Vec::new();
    let mut expected_total = 0;
    for path in &files {
        let text = std::fs::read_to_string(path).expect("read case file");
        let (exception_model, infer) = header_options(&text);
        let dir = tempfile::tempdir().expect("temp dir");
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("case.cs");
        let file = dir.path().join(name);
        std::fs::write(&file, &text).expect("write case");
        let mut opts = RunOptions {
            paths: vec![file],
            ..Default::default()
        };
        opts.check.exception_model = exception_model;
        opts.infer = infer;
        let run = run(&opts).expect("run");
        let mut want: BTreeMap<usize, Vec<String>> = BTreeMap::new();
        for (line, ids) in expect_markers(&text) {
            expected_total += ids.len();
            want.entry(line).or_default().extend(ids);
        }
        let mut got: BTreeMap<usize, Vec<(String, String)>> = BTreeMap::new();
        for d in &run.diagnostics {
            let Some((_, ftext)) = run.file(d.primary.span.file) else {
                continue;
            };
            let line = rlc_csharp::source::LineIndex::new(ftext).line_of(d.primary.span.start) + 1;
            got.entry(line)
                .or_default()
                .push((d.rule.to_string(), d.message.clone()));
        }
        let lines: std::collections::BTreeSet<usize> =
            want.keys().chain(got.keys()).copied().collect();
        for line in lines {
            let mut w = want.get(&line).cloned().unwrap_or_default();
            let mut g: Vec<(String, String)> = got.get(&line).cloned().unwrap_or_default();
            w.sort();
            g.sort();
            let g_ids: Vec<&str> = g.iter().map(|(r, _)| r.as_str()).collect();
            if w.iter().map(String::as_str).collect::<Vec<_>>() != g_ids {
                let src = text.lines().nth(line - 1).unwrap_or("").trim();
                let details: Vec<String> = g.iter().map(|(r, m)| format!("{r}: {m}")).collect();
                failures.push(format!(
                    "{name}:{line}: expected {w:?}, got [{}]\n    {src}",
                    details.join("; ")
                ));
            }
        }
    }
    assert!(expected_total > 0, "no expectations in the corpus");
    assert!(
        failures.is_empty(),
        "{} case lines disagree with their markers:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Every analysis rule in the registry is specified by at least one case, and
/// every page starts with the rule's id and name.
#[test]
fn every_analysis_rule_has_cases_and_a_page() {
    use rlc_core::rules::{RULES, RuleKind};
    let mut marked = std::collections::BTreeSet::new();
    for path in files_in(&data_dir("cases"), "cs") {
        let text = std::fs::read_to_string(&path).expect("read case file");
        for (_, ids) in expect_markers(&text) {
            marked.extend(ids);
        }
    }
    for rule in RULES {
        assert!(
            rule.explanation
                .starts_with(&format!("# {}: {}", rule.code, rule.name)),
            "the page of {} must start with `# {}: {}`",
            rule.code,
            rule.code,
            rule.name
        );
        if rule.kind == RuleKind::Analysis {
            assert!(
                marked.contains(rule.code),
                "{} ({}) has no `// expect: {}` case in tests/cases/",
                rule.code,
                rule.name,
                rule.code
            );
        }
    }
    for id in &marked {
        assert!(
            rlc_core::rules::rule(id).is_some(),
            "a case expects `{id}`, which is not a registered rule"
        );
    }
}
