//! The command line. Usage errors exit with status 2 (clap's default, which
//! [`crate::exit`] shares).

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

#[derive(Debug, Parser)]
#[command(
    name = "rlc-sharp",
    version,
    about = "Find IDisposable values that can be lost without Dispose() in C# projects",
    long_about = "Find IDisposable values that can be lost without Dispose() in C# projects.\n\n\
        rlc-sharp reads solutions (.sln, .slnx), projects (.csproj) or loose .cs files, \
        checks every method for resource leaks and reports them rustc-style. \
        `rlc-sharp infer` proposes the ownership attributes ([Owning], [MustCall], ...) \
        that make the checks precise, as a patch you review.",
    after_help = "Examples:\n  \
        rlc-sharp check                         check the solution or projects in this directory\n  \
        rlc-sharp check src/App/App.csproj      check one project\n  \
        rlc-sharp check --format sarif -o leaks.sarif\n  \
        rlc-sharp explain RLC0001               what a finding means and how to fix it\n  \
        rlc-sharp infer --output specs.patch    propose ownership attributes as a patch",
    arg_required_else_help = true,
    propagate_version = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    /// When to colour the output: `auto` colours when writing to a terminal and
    /// NO_COLOR is not set.
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorChoice::Auto, global = true)]
    pub color: ColorChoice,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check projects for resource leaks (exit status 1 if any error-level finding).
    #[command(long_about = "Check projects for resource leaks.\n\n\
            PATH may be a directory (the solution or projects in it are found, else its .cs \
            files), a .sln/.slnx/.slnf, a .csproj, or a .cs file. Settings are read from the \
            nearest rlc-sharp.toml above the first PATH unless --config is given; options on \
            the command line override it.\n\n\
            Exit status: 0 when no error-level finding, 1 when there is one, 2 on a usage, \
            configuration or input error.")]
    Check(CheckArgs),
    /// Show what a rule means and how to fix its findings; with no rule, list all rules.
    Explain(ExplainArgs),
    /// Propose ownership attributes ([Owning], [MustCall], ...) as a patch.
    #[command(
        long_about = "Infer resource specifications and propose them as attributes.\n\n\
            By default prints a unified diff that adds the attributes to your sources; \
            review it and apply it with `git apply`, or pass --apply. The attribute types \
            come from RlcSharp.Annotations.cs, which `rlc-sharp init` adds to a project."
    )]
    Infer(InferArgs),
    /// Fix leaks where the fix is certain, as a patch (or in place with --apply).
    #[command(
        long_about = "Fix leaks where the fix is certain, as a patch to review.\n\n\
            A leaked local gets `using var` (`using (...) { }` before C# 8, `await using` in \
            async methods for IAsyncDisposable values), a leaked temporary is hoisted into a \
            `using` declaration, a leak on exception paths only gets try/finally, an owning field \
            is disposed in the class's Dispose (the dispose pattern is added when there is none), \
            and an owning field's old value is disposed before it is overwritten. Every fix is \
            checked before it is offered: the edited code checks again without the finding, \
            with no new finding, and parses. Findings without a certain fix are listed with why.\n\n\
            By default prints a unified diff; --apply edits the files (on a clean git tree)."
    )]
    Fix(FixArgs),
    /// Add the annotation attributes and a starter rlc-sharp.toml to a project.
    #[command(long_about = "Prepare a project for rlc-sharp.\n\n\
            Writes RlcSharp.Annotations.cs (the [Owning], [MustCall], ... attribute types) \
            into the project's directory and a commented rlc-sharp.toml next to it, unless \
            they exist.")]
    Init(InitArgs),
    /// Internal views for debugging rlc-sharp itself.
    #[command(hide = true, subcommand)]
    Debug(DebugCommand),
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Solutions, projects, directories or .cs files to check [default: .]
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Output format: `human` for people, `json` for scripts, `sarif` for code-scanning
    /// tools, `github` for GitHub Actions annotations.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
    /// Write the report to FILE instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Add front-end statistics (files, lines, resolved calls, ...) to the summary.
    #[arg(long)]
    pub stats: bool,
    /// Print the time of each phase to standard error.
    #[arg(long)]
    pub timings: bool,
    /// Check with the specifications as written only, without inferred ones.
    #[arg(long)]
    pub no_infer: bool,
    /// Check only the build for this target framework (`net8.0`): of a project
    /// that does not target it, the build for the nearest compatible framework
    /// [default: every target framework of every project]
    #[arg(long, value_name = "TFM")]
    pub framework: Option<String>,
    /// How to report findings in test projects: `off`, `note`, at most
    /// `warning`, or the `same` as production code [default: warning, or the
    /// config's `test-code`]
    #[arg(long, value_enum, value_name = "LEVEL")]
    pub test_code: Option<crate::findings::TestCode>,
    /// Which exceptions to follow: `none` ignores exceptions thrown by calls,
    /// `explicit` follows them inside try blocks and at `throw`, `all` assumes every
    /// call may throw [default: explicit, or the config's value]
    #[arg(long, value_enum, value_name = "MODEL")]
    pub exception_model: Option<ExceptionModelArg>,
    /// Steps the analysis of one method may take before it stops with a note
    /// (RLC9005) [default: 1000000, or the config's `method-budget`]
    #[arg(long, value_name = "STEPS", value_parser = clap::value_parser!(u64).range(1000..))]
    pub method_budget: Option<u64>,
    /// Print only the findings: no progress, no summary, and no `--stats` or
    /// `--timings` blocks on standard error.
    #[arg(short, long)]
    pub quiet: bool,
    /// Report only the findings FILE (a baseline written by --write-baseline)
    /// does not hold; the exit status follows those.
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<PathBuf>,
    /// Record today's findings in FILE (SARIF), to pass to --baseline later;
    /// the exit status is then 0.
    #[arg(long, value_name = "FILE", conflicts_with = "baseline")]
    pub write_baseline: Option<PathBuf>,
    #[command(flatten)]
    pub config: ConfigArg,
}

#[derive(Debug, Args)]
pub struct ConfigArg {
    /// Read settings from FILE instead of the nearest rlc-sharp.toml.
    #[arg(long = "config", id = "config", value_name = "FILE")]
    pub file: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// A rule id (RLC0001) or name (resource-leak), in any case.
    #[arg(value_name = "RULE")]
    pub rule: Option<String>,
}

#[derive(Debug, Args)]
pub struct InferArgs {
    /// Solution, project, directory or .cs file [default: .]
    #[arg(value_name = "PATH")]
    pub path: Option<PathBuf>,
    /// Write the patch to FILE instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Write one patch per project into DIR.
    #[arg(long, value_name = "DIR", conflicts_with = "output")]
    pub patch_dir: Option<PathBuf>,
    /// Edit the source files in place instead of printing a patch.
    #[arg(long, conflicts_with_all = ["check", "output", "patch_dir"])]
    pub apply: bool,
    /// With --apply: edit files even if they have uncommitted changes.
    #[arg(long, requires = "apply")]
    pub allow_dirty: bool,
    /// Change nothing; exit with status 1 if attributes would be added (for CI).
    #[arg(long)]
    pub check: bool,
    /// `diff` prints a unified diff, `json` the inferred specifications with the
    /// evidence for each.
    #[arg(long, value_enum, default_value_t = InferFormat::Diff)]
    pub format: InferFormat,
    #[command(flatten)]
    pub config: ConfigArg,
}

#[derive(Debug, Args)]
pub struct FixArgs {
    /// Solution, project, directory or .cs file to check [default: .]
    #[arg(value_name = "PATH")]
    pub path: Option<PathBuf>,
    /// Fix only findings of these rules (ids or names; repeat or separate by
    /// commas) [default: RLC0001, RLC0002, RLC0003, RLC0004].
    #[arg(long, value_name = "RULE", value_delimiter = ',')]
    pub rule: Vec<String>,
    /// Fix only findings in files matching GLOB, relative to the current
    /// directory (`src/**`, `src/App/Store.cs`); repeatable.
    #[arg(long, value_name = "GLOB")]
    pub only: Vec<String>,
    /// Write the patch to FILE instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Edit the source files in place instead of printing a patch.
    #[arg(long, conflicts_with = "output")]
    pub apply: bool,
    /// With --apply: edit files even if they have uncommitted changes.
    #[arg(long, requires = "apply")]
    pub allow_dirty: bool,
    /// List every finding left without a fix, with why.
    #[arg(short, long)]
    pub verbose: bool,
    /// Print nothing on standard error but errors.
    #[arg(short, long, conflicts_with = "verbose")]
    pub quiet: bool,
    #[command(flatten)]
    pub config: ConfigArg,
}

#[derive(Debug, Args)]
pub struct InitArgs {
    /// The project (.csproj) or its directory [default: the project in .]
    #[arg(value_name = "PROJECT")]
    pub project: Option<PathBuf>,
}

#[derive(Debug, Subcommand)]
pub enum DebugCommand {
    /// Print the specifications the library model and the file's declarations
    /// give, and where each type they resolve to is declared. The file is
    /// checked in the nearest project above it (its packages are read), or
    /// alone.
    Model {
        #[arg(value_name = "FILE")]
        file: PathBuf,
    },
    /// Print the lowered IR of the file's methods.
    Ir {
        #[arg(value_name = "FILE")]
        file: PathBuf,
        /// Only the methods with this name.
        #[arg(long, value_name = "NAME")]
        method: Option<String>,
    },
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Human,
    Json,
    Sarif,
    Github,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum InferFormat {
    Diff,
    Json,
}

/// [`rlc_core::ExceptionModel`] as the command line and the config spell it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum ExceptionModelArg {
    None,
    Explicit,
    All,
}

impl From<ExceptionModelArg> for rlc_core::ExceptionModel {
    fn from(m: ExceptionModelArg) -> Self {
        match m {
            ExceptionModelArg::None => rlc_core::ExceptionModel::None,
            ExceptionModelArg::Explicit => rlc_core::ExceptionModel::Explicit,
            ExceptionModelArg::All => rlc_core::ExceptionModel::All,
        }
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

impl ColorChoice {
    /// Whether to colour a stream; `is_terminal` is whether it is one
    /// (`std::io::IsTerminal`), false when writing to `--output`.
    pub fn enabled(self, is_terminal: bool) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                is_terminal && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;
    use clap::error::ErrorKind;

    use super::*;

    fn parse(args: &[&str]) -> Result<Cli, clap::Error> {
        Cli::try_parse_from(std::iter::once("rlc-sharp").chain(args.iter().copied()))
    }

    #[test]
    fn the_command_is_well_formed() {
        Cli::command().debug_assert();
    }

    #[test]
    fn check_takes_paths_and_options() {
        let cli = parse(&[
            "check",
            "a.sln",
            "b",
            "--format",
            "sarif",
            "-o",
            "out.sarif",
            "--stats",
            "--no-infer",
            "--exception-model",
            "all",
            "--color",
            "never",
            "--config",
            "x.toml",
            "--framework",
            "net8.0",
            "--test-code",
            "off",
        ])
        .expect("parses");
        assert_eq!(cli.color, ColorChoice::Never);
        let Command::Check(c) = cli.command else {
            panic!("not check")
        };
        assert_eq!(c.paths, [PathBuf::from("a.sln"), PathBuf::from("b")]);
        assert_eq!(c.format, Format::Sarif);
        assert_eq!(c.output, Some(PathBuf::from("out.sarif")));
        assert!(c.stats && c.no_infer && !c.timings && !c.quiet);
        assert_eq!(c.exception_model, Some(ExceptionModelArg::All));
        assert_eq!(c.config.file, Some(PathBuf::from("x.toml")));
        assert_eq!(c.framework.as_deref(), Some("net8.0"));
        assert_eq!(c.test_code, Some(crate::findings::TestCode::Off));
    }

    #[test]
    fn defaults() {
        let Command::Check(c) = parse(&["check"]).expect("parses").command else {
            panic!("not check")
        };
        assert!(c.paths.is_empty());
        assert_eq!(c.format, Format::Human);
        assert_eq!(c.exception_model, None);
        let Command::Infer(i) = parse(&["infer"]).expect("parses").command else {
            panic!("not infer")
        };
        assert_eq!(i.format, InferFormat::Diff);
        assert!(!i.apply && !i.check);
    }

    #[test]
    fn usage_errors_exit_with_2() {
        for args in [
            &["check", "--format", "xml"][..],
            &["check", "--exception-model", "some"],
            &["check", "--test-code", "error"],
            &["infer", "--apply", "--check"],
            &["infer", "--allow-dirty"],
            &["infer", "--output", "a", "--patch-dir", "b"],
            &["check", "--baseline", "a", "--write-baseline", "b"],
            &["fix", "--allow-dirty"],
            &["fix", "--apply", "--output", "p"],
            &["frobnicate"],
            &[],
        ] {
            let err = parse(args).expect_err("rejected");
            assert_eq!(
                err.exit_code(),
                crate::exit::USAGE_ERROR as i32,
                "{args:?}: {err}"
            );
        }
        assert_eq!(
            parse(&["--help"]).expect_err("help").kind(),
            ErrorKind::DisplayHelp
        );
        assert_eq!(parse(&["--help"]).expect_err("help").exit_code(), 0);
    }

    #[test]
    fn explain_init_and_hidden_debug() {
        let Command::Explain(e) = parse(&["explain", "resource-leak"])
            .expect("parses")
            .command
        else {
            panic!("not explain")
        };
        assert_eq!(e.rule.as_deref(), Some("resource-leak"));
        assert!(matches!(
            parse(&["explain"]).expect("parses").command,
            Command::Explain(ExplainArgs { rule: None })
        ));
        assert!(matches!(
            parse(&["init"]).expect("parses").command,
            Command::Init(InitArgs { project: None })
        ));
        let Command::Debug(DebugCommand::Ir { file, method }) =
            parse(&["debug", "ir", "A.cs", "--method", "Run"])
                .expect("parses")
                .command
        else {
            panic!("not debug ir")
        };
        assert_eq!(
            (file, method.as_deref()),
            (PathBuf::from("A.cs"), Some("Run"))
        );
        let help = Cli::command().render_help().to_string();
        assert!(
            help.contains("check") && help.contains("explain") && !help.contains("debug"),
            "{help}"
        );
    }

    #[test]
    fn color_choice() {
        assert!(ColorChoice::Always.enabled(false));
        assert!(!ColorChoice::Never.enabled(true));
        assert!(!ColorChoice::Auto.enabled(false));
    }
}
