use std::fs;

use clap::Parser;
use rlc_core::rules::RuleId;
use rlc_csharp::suppress::Level;

use super::*;
use crate::args::{Cli, Command};

const FULL: &str = r#"usings = ["System.IO"]

[check]
exception-model = "all"
exclude = ["**/Generated/**", "tests"]
infer = false
test-code = "note"
method-budget = 2_000_000

[rules]
RLC0001 = "warning"
resource-leak-on-exception = "off"
"Owning-Field-Not-Disposed" = "note"

[[type]]
name = "MyCompany.Db.Session"
must_call = ["Close"]
members = ["static Session Open(string cs)"]
"#;

fn parse(text: &str) -> Result<Config, ConfigError> {
    Config::parse(Path::new("/repo/rlc-sharp.toml"), text.to_string())
}

fn problems(text: &str) -> Vec<Problem> {
    match parse(text) {
        Err(ConfigError::Invalid { problems, .. }) => problems,
        Err(e) => panic!("not a validation error: {e}"),
        Ok(_) => panic!("accepted:\n{text}"),
    }
}

/// The one problem of `text`, with the text its span covers.
fn problem(text: &str) -> (Problem, &str) {
    let mut all = problems(text);
    assert_eq!(all.len(), 1, "{all:#?}");
    let p = all.remove(0);
    let at = &text[p.span.clone()];
    (p, at)
}

#[test]
fn reads_every_setting() {
    let config = parse(FULL).expect("valid");
    assert_eq!(config.exception_model, Some(ExceptionModel::All));
    assert_eq!(config.infer, Some(false));
    assert_eq!(config.test_code, Some(TestCode::Note));
    assert_eq!(config.method_budget, Some(2_000_000));
    assert!(!config.exclude.is_empty());
    let levels: Vec<(&str, Level)> = config
        .levels
        .iter()
        .map(|(id, l)| (id.code(), *l))
        .collect();
    assert_eq!(
        levels,
        [
            ("RLC0001", Level::Warning),
            ("RLC0002", Level::Off),
            ("RLC0003", Level::Note)
        ]
    );
    let library = config.library.expect("library entries");
    assert_eq!(library.file.usings, ["System.IO"]);
    assert_eq!(library.file.types.len(), 1);
    assert_eq!(
        library.file.types[0].must_call.as_deref(),
        Some(&["Close".to_string()][..])
    );
}

#[test]
fn an_empty_config_sets_nothing() {
    let config = parse("# nothing yet\n").expect("valid");
    assert_eq!((config.exception_model, config.infer), (None, None));
    assert!(config.levels.is_empty() && config.exclude.is_empty() && config.library.is_none());
}

#[test]
fn the_library_text_reads_as_a_model_file_with_the_config_offsets() {
    let library = parse(FULL)
        .expect("valid")
        .library
        .expect("library entries");
    assert_eq!(library.text.len(), FULL.len());
    assert_eq!(library.text.lines().count(), FULL.lines().count());
    assert!(!library.text.contains("exception-model") && !library.text.contains("RLC0001"));
    let reparsed = rlc_attributes::library::parse(&library.text).expect("a model file");
    let name = &reparsed.types[0].name;
    assert_eq!(&FULL[name.span()], "\"MyCompany.Db.Session\"");
    assert_eq!(name.span(), library.file.types[0].name.span());
    let text = library.library_text();
    assert_eq!(
        text.path.as_deref(),
        Some(Path::new("/repo/rlc-sharp.toml"))
    );
    assert_eq!(text.text, library.text);
}

#[test]
fn inline_and_dotted_tables_are_blanked_too() {
    let text = "check = { infer = false, exception-model = \"none\" }\nrules.RLC0001 = \"note\"\n\
        rules.\"resource-leak-on-exception\" = \"off\"\n[[type]]\nname = \"A.B\"\n";
    let config = parse(text).expect("valid");
    assert_eq!(config.exception_model, Some(ExceptionModel::None));
    assert_eq!(
        config.levels.get(&RuleId::ResourceLeakOnException),
        Some(&Level::Off)
    );
    let library = config.library.expect("library entries");
    assert_eq!(library.text.trim_start(), "[[type]]\nname = \"A.B\"\n");
    assert!(rlc_attributes::library::parse(&library.text).is_ok());
}

#[test]
fn unknown_keys_point_at_the_key_and_suggest() {
    let (p, at) = problem("[check]\nexlude = []\n");
    assert_eq!((p.message.as_str(), at), ("unknown key `exlude`", "exlude"));
    assert_eq!(p.help.as_deref(), Some("did you mean `exclude`?"));
    let (p, at) = problem("[chek]\n");
    assert_eq!((p.message.as_str(), at), ("unknown key `chek`", "chek"));
    assert_eq!(p.help.as_deref(), Some("did you mean `check`?"));
    let (p, _) = problem("[check]\nusings = []\n");
    assert!(
        p.help.as_deref().is_some_and(|h| h.contains("top level")),
        "{p:?}"
    );
}

#[test]
fn bad_values_point_at_the_value() {
    let (p, at) = problem("[check]\nexception-model = \"some\"\n");
    assert_eq!(
        (p.message.as_str(), at),
        ("unknown exception model `some`", "\"some\"")
    );
    let (p, at) = problem("[check]\ninfer = \"yes\"\n");
    assert_eq!(
        (p.message.as_str(), at),
        ("`infer` must be true or false", "\"yes\"")
    );
    assert_eq!(p.label, "this is a string");
    let (p, at) = problem("[check]\nexclude = [\"a/[b\"]\n");
    assert!(p.message.starts_with("invalid glob `a/[b`"), "{p:?}");
    assert_eq!(at, "\"a/[b\"");
    let (p, _) = problem("check = 3\n");
    assert_eq!(p.message, "`check` must be a table");
}

#[test]
fn unknown_rules_and_levels() {
    let (p, at) = problem("[rules]\nRLC0071 = \"off\"\n");
    assert_eq!(
        (p.message.as_str(), at),
        ("no rule is called `RLC0071`", "RLC0071")
    );
    assert!(
        p.help
            .as_deref()
            .is_some_and(|h| h.contains("did you mean `RLC0001`")),
        "{p:?}"
    );
    let (p, at) = problem("[rules]\nresource-leak = \"fatal\"\n");
    assert_eq!(
        (p.message.as_str(), at),
        ("unknown level `fatal` for RLC0001", "\"fatal\"")
    );
    let (p, at) = problem("[rules]\nRLC0001 = \"off\"\nresource-leak = \"error\"\n");
    assert_eq!(
        (p.message.as_str(), at),
        ("RLC0001 (resource-leak) is set twice", "resource-leak")
    );
    assert!(
        p.help.as_deref().is_some_and(|h| h.contains("line 2")),
        "{p:?}"
    );
}

#[test]
fn library_entries_are_checked_against_the_model_format() {
    let text = "[[type]]\nname = \"A.B\"\nmust_cal = []\n";
    let (p, at) = problem(text);
    assert!(p.message.contains("must_cal"), "{p:?}");
    assert_eq!(at, "must_cal");
}

#[test]
fn every_problem_is_reported_at_once_in_file_order() {
    let all = problems("[rules]\nRLC0099 = \"off\"\n[check]\ninfer = 1\nfoo = 2\n");
    let messages: Vec<&str> = all.iter().map(|p| p.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "no rule is called `RLC0099`",
            "`infer` must be true or false",
            "unknown key `foo`"
        ]
    );
}

#[test]
fn syntax_errors_and_rendering() {
    let (p, _) = problem("[check\n");
    assert!(p.message.starts_with("this is not valid TOML"), "{p:?}");
    let err = parse("[check]\ninfer = true\nexlude = []\n").expect_err("invalid");
    let text = err.render(false);
    assert!(text.starts_with("error: unknown key `exlude`"), "{text}");
    assert!(text.contains("/repo/rlc-sharp.toml:3:1"), "{text}");
    assert!(text.contains("= help: did you mean `exclude`?"), "{text}");
    assert!(!text.contains('\u{1b}'));
    assert!(err.render(true).contains('\u{1b}'));
    assert!(err.to_string().contains("unknown key `exlude`"));
}

#[test]
fn found_upward_unless_given() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().canonicalize().expect("canonical");
    let nested = root.join("src/App");
    fs::create_dir_all(&nested).expect("dirs");
    fs::write(nested.join("A.cs"), "class A {}").expect("write");
    fs::write(root.join(FILE_NAME), "[check]\ninfer = false\n").expect("write");
    assert_eq!(find(&nested), Some(root.join(FILE_NAME)));
    assert_eq!(find(&nested.join("A.cs")), Some(root.join(FILE_NAME)));
    let config = Config::load(None, &nested).expect("valid");
    assert_eq!(config.infer, Some(false));
    assert_eq!(config.path, Some(root.join(FILE_NAME)));

    let other = root.join("other.toml");
    fs::write(&other, "[check]\nexception-model = \"none\"\n").expect("write");
    let config = Config::load(Some(&other), &nested).expect("valid");
    assert_eq!(
        (config.infer, config.exception_model),
        (None, Some(ExceptionModel::None))
    );

    let missing = Config::load(Some(&root.join("missing.toml")), &nested).expect_err("missing");
    assert!(matches!(missing, ConfigError::Io { .. }));
    assert!(
        missing
            .render(false)
            .starts_with("error: cannot read the config file")
    );
}

#[test]
fn the_command_line_overrides_the_config() {
    let check_args = |args: &[&str]| {
        let cli = Cli::try_parse_from(["rlc-sharp", "check"].iter().chain(args)).expect("parses");
        match cli.command {
            Command::Check(c) => c,
            other => panic!("not check: {other:?}"),
        }
    };
    let config = parse("[check]\nexception-model = \"none\"\ninfer = true\n").expect("valid");
    let s = config.check_settings(&check_args(&[]));
    assert_eq!(
        (s.options.exception_model, s.infer),
        (ExceptionModel::None, true)
    );
    let s = config.check_settings(&check_args(&["--exception-model", "all", "--no-infer"]));
    assert_eq!(
        (s.options.exception_model, s.infer),
        (ExceptionModel::All, false)
    );
    let s = Config::default().check_settings(&check_args(&[]));
    assert_eq!(
        (s.options.exception_model, s.infer, s.test_code),
        (ExceptionModel::Explicit, true, TestCode::Warning)
    );
    let config = parse("[check]\ntest-code = \"same\"\n").expect("valid");
    assert_eq!(
        config.check_settings(&check_args(&[])).test_code,
        TestCode::Same
    );
    assert_eq!(
        config
            .check_settings(&check_args(&["--test-code", "off"]))
            .test_code,
        TestCode::Off
    );
}

#[test]
fn test_code_levels_are_checked() {
    let (p, at) = problem("[check]\ntest-code = \"error\"\n");
    assert_eq!(
        (p.message.as_str(), at),
        ("unknown test-code level `error`", "\"error\"")
    );
    assert_eq!(
        p.help.as_deref(),
        Some("use \"off\", \"note\", \"warning\" or \"same\"")
    );
    let (p, _) = problem("[check]\ntest-code = false\n");
    assert_eq!(p.message, "`test-code` must be a string");
    let (p, _) = problem("[check]\ntest_code = \"off\"\n");
    assert_eq!(p.help.as_deref(), Some("did you mean `test-code`?"));
}

#[test]
fn excludes_are_relative_to_the_config_directory() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().canonicalize().expect("canonical");
    let config = Config::parse(
        &root.join(FILE_NAME),
        "[check]\nexclude = [\"**/Generated/**\", \"tests\", \"src/*.Designer.cs\"]\n".into(),
    )
    .expect("valid");
    let excluded = |rel: &str| config.exclude.is_excluded(&root.join(rel));
    assert!(excluded("src/App/Generated/Model.cs"));
    assert!(excluded("tests/Unit/ATest.cs"));
    assert!(excluded("src/Form.Designer.cs"));
    // `*` does not cross directories.
    assert!(!excluded("src/App/Form.Designer.cs"));
    assert!(!excluded("src/App/Model.cs"));
    assert!(!excluded("src/tests.cs"));
    assert!(
        !config
            .exclude
            .is_excluded(Path::new("/elsewhere/tests/A.cs"))
    );
}

#[test]
fn a_method_budget_below_a_thousand_steps_is_refused() {
    let (p, at) = problem("[check]\nmethod-budget = 999\n");
    assert_eq!(p.message, "`method-budget` must be at least 1000, not 999");
    assert_eq!(at, "999");
    let (p, at) = problem("[check]\nmethod-budget = \"many\"\n");
    assert!(p.message.contains("method-budget"), "{}", p.message);
    assert_eq!(at, "\"many\"");
}
