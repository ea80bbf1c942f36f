//! The GitHub composite action (`action.yml` at the repository's root): its
//! check step, run by bash as the runner would run it, on a sample with and
//! without a baseline; and every `inputs.X` it reads is declared.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

fn action() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("action.yml");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The `run: |` script of the step with `id: <id>`, unindented.
fn step_script(yaml: &str, id: &str) -> String {
    let lines: Vec<&str> = yaml.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.trim() == format!("id: {id}"))
        .unwrap_or_else(|| panic!("no step with id `{id}`"));
    let run = lines[at..]
        .iter()
        .position(|l| l.trim() == "run: |")
        .map(|i| at + i)
        .expect("the step has a `run: |` script");
    let indent = |l: &str| l.len() - l.trim_start().len();
    let base = indent(lines[run]);
    let body: Vec<&str> = lines[run + 1..]
        .iter()
        .take_while(|l| l.trim().is_empty() || indent(l) > base)
        .copied()
        .collect();
    let strip = body
        .iter()
        .filter(|l| !l.trim().is_empty())
        .map(|l| indent(l))
        .min()
        .unwrap_or(0);
    body.iter()
        .map(|l| l.get(strip..).unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

struct StepRun {
    code: Option<i32>,
    stdout: String,
    outputs: String,
}

/// Runs the check step in `dir` with the action's inputs as its `env:` gives them.
fn run_check(dir: &Path, path: &str, baseline: &str, args: &str) -> StepRun {
    let temp = tempfile::tempdir().expect("runner temp");
    let outputs = temp.path().join("github_output");
    std::fs::write(&outputs, "").expect("output file");
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_rlc-sharp"));
    let bin_dir = bin.parent().expect("the binary's directory");
    let path_var = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = Command::new("bash")
        .arg("-c")
        .arg(step_script(&action(), "check"))
        .current_dir(dir)
        .env("PATH", path_var)
        .env("RUNNER_TEMP", temp.path())
        .env("GITHUB_OUTPUT", &outputs)
        .env("RLC_PATH", path)
        .env("RLC_BASELINE", baseline)
        .env("RLC_ARGS", args)
        .env("NO_COLOR", "1")
        .output()
        .expect("bash runs");
    let outputs = std::fs::read_to_string(&outputs).expect("outputs");
    // The SARIF lives in the runner's temp directory: keep what the test reads.
    let sarif = outputs
        .lines()
        .find_map(|l| l.strip_prefix("sarif="))
        .and_then(|p| std::fs::read_to_string(p).ok())
        .unwrap_or_default();
    StepRun {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned() + &sarif,
        outputs,
    }
}

fn results(sarif_and_stdout: &str) -> usize {
    let start = sarif_and_stdout.find('{').expect("a SARIF log");
    let v: serde_json::Value =
        serde_json::from_str(&sarif_and_stdout[start..]).expect("SARIF is JSON");
    v["runs"][0]["results"].as_array().map_or(0, Vec::len)
}

#[test]
fn the_check_step_writes_sarif_and_follows_the_baseline() {
    let samples = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("samples");
    let work = tempfile::tempdir().expect("temp dir");
    let dir = work.path();
    for e in std::fs::read_dir(samples.join("file-tool"))
        .expect("sample")
        .flatten()
    {
        if e.path().is_file() {
            std::fs::copy(e.path(), dir.join(e.file_name())).expect("copy");
        }
    }

    let first = run_check(dir, ".", "", "");
    assert_eq!(first.code, Some(0), "findings do not fail the step itself");
    assert!(first.outputs.contains("exit-code=1\n"), "{}", first.outputs);
    assert!(results(&first.stdout) > 0, "{}", first.stdout);

    let baseline = dir.join("rlc-baseline.sarif");
    let wrote = common::rlc(
        dir,
        &[
            "check",
            ".",
            "--write-baseline",
            baseline.to_str().unwrap_or(""),
        ],
    );
    assert_eq!(wrote.code, Some(0), "{}", wrote.stderr);
    let second = run_check(dir, ".", "rlc-baseline.sarif", "--stats --timings");
    assert!(
        second.outputs.contains("exit-code=0\n"),
        "{}",
        second.outputs
    );
    assert_eq!(results(&second.stdout), 0, "{}", second.stdout);

    let broken = run_check(dir, "missing-dir", "", "");
    assert_eq!(broken.code, Some(2));
    assert!(
        broken
            .stdout
            .contains("::error::rlc-sharp could not check missing-dir")
    );
}

#[test]
fn every_input_read_is_declared() {
    let yaml = action();
    let inputs_block: Vec<&str> = yaml
        .lines()
        .skip_while(|l| *l != "inputs:")
        .skip(1)
        .take_while(|l| l.is_empty() || l.starts_with(' '))
        .collect();
    let declared: Vec<&str> = inputs_block
        .iter()
        .filter(|l| l.starts_with("  ") && !l.starts_with("   ") && l.trim_end().ends_with(':'))
        .map(|l| l.trim().trim_end_matches(':'))
        .collect();
    assert!(declared.contains(&"baseline"), "{declared:?}");
    let mut rest = yaml.as_str();
    while let Some(i) = rest.find("inputs.") {
        rest = &rest[i + "inputs.".len()..];
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
            .collect();
        assert!(
            declared.contains(&name.as_str()),
            "`inputs.{name}` is not declared"
        );
    }
}
