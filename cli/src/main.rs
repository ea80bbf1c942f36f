//! rlc-sharp: a resource-leak checker for C# projects.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Parser;
use rlc_sharp::args::{CheckArgs, Cli, ColorChoice, Command, DebugCommand, Format, InitArgs};
use rlc_sharp::baseline::Baseline;
use rlc_sharp::config::{Config, STARTER};
use rlc_sharp::driver::{self, CheckRun, RunOptions};
use rlc_sharp::exit::{self, Outcome};
use rlc_sharp::findings::{self, Finding};
use rlc_sharp::progress::{Audience, Progress};
use rlc_sharp::render::{self, Sources, Summary, human::HumanOptions};

/// tree-sitter allocates and frees many small blocks through the C allocator
/// while the front end keeps every file's HIR: sharing glibc's heap with them
/// made parsing 1.5x slower than bare tree-sitter. Rust's allocations go to
/// their own heap.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let color = cli.color;
    match cli.command {
        Command::Check(args) => check(args, color),
        Command::Explain(args) => match rlc_sharp::explain::explain(args.rule.as_deref()) {
            Ok(page) => {
                print!("{page}");
                exit::code(Outcome::Done)
            }
            Err(e) => fail(&e.to_string()),
        },
        Command::Infer(args) => rlc_sharp::infer_cmd::run(args, color),
        Command::Fix(args) => rlc_sharp::fix_cmd::run(args, color),
        Command::Init(args) => init(args),
        Command::Debug(cmd) => debug(cmd),
    }
}

fn fail(message: &str) -> ExitCode {
    eprintln!("error: {message}");
    exit::code(Outcome::Failed)
}

/// Writes `text` to `--output FILE` or standard output.
fn emit(output: Option<&Path>, text: &str) -> Result<(), String> {
    match output {
        Some(path) => std::fs::write(path, text)
            .map_err(|e| format!("cannot write `{}`: {e}", path.display())),
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(text.as_bytes())
                .and_then(|()| out.flush())
                .map_err(|e| format!("cannot write the report: {e}"))
        }
    }
}

fn check(args: CheckArgs, color: ColorChoice) -> ExitCode {
    let paths = if args.paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        args.paths.clone()
    };
    let config = match Config::load(args.config.file.as_deref(), &paths[0]) {
        Ok(c) => c,
        Err(e) => {
            eprint!(
                "{}",
                e.render(color.enabled(std::io::stderr().is_terminal()))
            );
            return exit::code(Outcome::Failed);
        }
    };
    let baseline = match args.baseline.as_deref().map(Baseline::read) {
        Some(Ok(b)) => Some(b),
        Some(Err(e)) => return fail(&e.to_string()),
        None => None,
    };
    let settings = config.check_settings(&args);
    let opts = RunOptions {
        paths,
        check: settings.options,
        extra_library: config.library.iter().map(|l| l.library_text()).collect(),
        infer: settings.infer,
        exclude: config.exclude.clone(),
        framework: args.framework.clone(),
        free_lowered_syntax: true,
    };
    let machine_format = args.format != Format::Human;
    let progress = Progress::new(Audience::current(args.quiet || machine_format));
    let run = driver::run_observed(&opts, &mut |_| {}, &progress);
    progress.finish();
    let run = match run {
        Ok(run) => run,
        Err(e) => return fail(&e.to_string()),
    };
    let reported = findings::report(&run, &config, settings.test_code);
    let stats = args.stats.then(|| driver::stats(&run));
    // `-q` prints the findings only: the statistics still go in the JSON and
    // SARIF summaries, not to standard error.
    if let Some(stats) = stats.as_ref().filter(|_| !args.quiet) {
        eprint!("{}", driver::stats_text(stats));
    }
    if args.timings && !args.quiet {
        eprint!("{}", render::timings(&run.timings.phases()));
    }
    let mut summary = Summary {
        files: run.source_files(),
        suppressed: reported.suppressed,
        test_code: settings.test_code,
        stats,
        baseline: None,
    };
    let mut findings = reported.findings;
    if let Some(path) = &args.write_baseline {
        let root =
            std::path::absolute(&run.workspace.root).unwrap_or_else(|_| run.workspace.root.clone());
        let sources = Sources::for_findings(&root, &findings, |id| run.file(id));
        let sarif = render::sarif::render(&findings, &sources, &summary, &root);
        if let Err(e) = rlc_csharp::annotate::write_atomically(path, &sarif) {
            return fail(&format!("cannot write `{}`: {e}", path.display()));
        }
    }
    if let Some(b) = &baseline {
        let (new, counts) = b.new_findings(findings);
        findings = new;
        summary.baseline = Some(counts);
    }
    let report = render_report(&run, &findings, &summary, &args, color);
    let unrestored = driver::unrestored_note(&run.workspace).filter(|_| !args.quiet);
    // The process ends next: freeing the run's millions of allocations one by
    // one took a second of a large check, serially, for nothing.
    std::mem::forget(run);
    if let Err(e) = emit(args.output.as_deref(), &report) {
        return fail(&e);
    }
    if let Some(note) = unrestored {
        eprint!("{note}");
    }
    if let Some(path) = &args.write_baseline {
        if !args.quiet {
            eprintln!(
                "wrote a baseline of {} findings to `{}`",
                findings.len(),
                path.display()
            );
        }
        return exit::code(Outcome::Done);
    }
    exit::code(Outcome::Checked(&findings))
}

fn render_report(
    run: &CheckRun,
    findings: &[Finding],
    summary: &Summary,
    args: &CheckArgs,
    color: ColorChoice,
) -> String {
    let root =
        std::path::absolute(&run.workspace.root).unwrap_or_else(|_| run.workspace.root.clone());
    match args.format {
        Format::Human => {
            let sources = Sources::for_findings(&root, findings, |id| run.file(id));
            let tty = args.output.is_none() && std::io::stdout().is_terminal();
            render::human::render(
                findings,
                &sources,
                summary,
                HumanOptions {
                    color: color.enabled(tty),
                    quiet: args.quiet,
                },
            )
        }
        Format::Json => {
            let sources = Sources::for_findings(&root, findings, |id| run.file(id));
            render::json::render(findings, &sources, summary)
        }
        Format::Sarif => {
            let sources = Sources::for_findings(&root, findings, |id| run.file(id));
            let (log, cut) = render::sarif::render_limited(
                findings,
                &sources,
                summary,
                &root,
                Some(render::sarif::GITHUB_LIMITS),
            );
            if let Some(cut) = cut {
                eprintln!("warning: {cut}");
            }
            log
        }
        Format::Github => {
            // Annotations are placed by path from the repository (working) directory.
            let cwd = std::env::current_dir().unwrap_or(root);
            let sources = Sources::for_findings(&cwd, findings, |id| run.file(id));
            render::github::render(findings, &sources)
        }
    }
}

/// `rlc-sharp init [PROJECT]`: the attribute definitions and a starter config.
fn init(args: InitArgs) -> ExitCode {
    let target = args.project.unwrap_or_else(|| PathBuf::from("."));
    let dir = if target.is_file() {
        target.parent().map(Path::to_path_buf).unwrap_or_default()
    } else {
        target.clone()
    };
    if !dir.is_dir() {
        return fail(&format!(
            "`{}` is not a project or a directory",
            target.display()
        ));
    }
    let mut wrote = Vec::new();
    for (name, content) in [
        ("RlcSharpAnnotations.cs", rlc_attributes::ANNOTATIONS_CS),
        ("rlc-sharp.toml", STARTER),
    ] {
        let path = dir.join(name);
        if path.exists() {
            eprintln!("kept the existing `{}`", path.display());
            continue;
        }
        if let Err(e) = std::fs::write(&path, content) {
            return fail(&format!("cannot write `{}`: {e}", path.display()));
        }
        wrote.push(path);
    }
    for p in wrote {
        eprintln!("wrote `{}`", p.display());
    }
    exit::code(Outcome::Done)
}

/// The `.csproj` files of the nearest directory above `file` that has any.
fn enclosing_projects(file: &Path) -> Vec<PathBuf> {
    for dir in file.ancestors().skip(1) {
        let mut projects: Vec<PathBuf> = std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .filter_map(|e| Some(e.ok()?.path()))
            .filter(|p| {
                p.is_file()
                    && p.extension()
                        .is_some_and(|e| e.eq_ignore_ascii_case("csproj"))
            })
            .collect();
        if !projects.is_empty() {
            projects.sort();
            return projects;
        }
    }
    Vec::new()
}

fn debug(cmd: DebugCommand) -> ExitCode {
    let (file, method, ir) = match cmd {
        DebugCommand::Model { file } => (file, None, false),
        DebugCommand::Ir { file, method } => (file, method, true),
    };
    let wanted = std::fs::canonicalize(&file).unwrap_or_else(|_| file.clone());
    let find = |run: &driver::CheckRun| {
        run.index()
            .files
            .iter()
            .find(|f| std::fs::canonicalize(&f.source.path).is_ok_and(|p| p == wanted))
            .map(|f| f.source.id)
    };
    // In its project, so that its references and packages resolve as in its
    // build; alone when no project nearby compiles it.
    let mut found = None;
    for paths in [enclosing_projects(&wanted), vec![file.clone()]] {
        if paths.is_empty() {
            continue;
        }
        let opts = RunOptions {
            paths,
            infer: true,
            ..Default::default()
        };
        let run = match driver::run(&opts) {
            Ok(run) => run,
            Err(e) => return fail(&e.to_string()),
        };
        if let Some(id) = find(&run) {
            found = Some((run, id));
            break;
        }
    }
    let Some((run, id)) = found else {
        return fail("the file is not part of the checked sources");
    };
    let text = if ir {
        driver::dump_ir(&run, id, method.as_deref())
    } else {
        rlc_csharp::resolve::dump::dump_file(run.index(), id)
    };
    print!("{text}");
    exit::code(Outcome::Done)
}
