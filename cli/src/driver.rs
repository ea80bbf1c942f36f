//! The check pipeline: discover projects, load and index them, lower every body,
//! run the checker on all bodies in parallel, and collect everything the run
//! has to report (findings and notes about inputs it could not fully read).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rayon::prelude::*;
use rlc_core::infer::{Inference, Scope, infer_into};
use rlc_core::ir::BodyId;
use rlc_core::rules::{self, RuleId, rlc9004_internal_error};
use rlc_core::rules::{Diagnostic, Severity};
use rlc_core::{CheckOptions, Checker};
use rlc_core::{FileId, Span};
use rlc_csharp::frameworks::seed::seed;
use rlc_csharp::index::{Index, TypeSource};
use rlc_csharp::load::{
    LibraryText, Loaded, Lowered, PreparedLibrary, embedded_library, load_observed, load_prepared,
    lower_where, project_specs, reload,
};
use rlc_csharp::project::{DiscoverError, NoteSeverity, Workspace, discover};
use rlc_csharp::source::LineIndex;
use rustc_hash::FxHashMap;

use crate::progress::Progress;

/// What to check and how.
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    pub paths: Vec<PathBuf>,
    pub check: CheckOptions,
    /// Extra library specs (from `rlc-sharp.toml`).
    pub extra_library: Vec<LibraryText>,
    /// Use inferred specifications (`--no-infer` turns this off).
    pub infer: bool,
    /// Source files the config excludes.
    pub exclude: crate::config::Exclude,
    /// Check only this target framework's build of each project (`--framework`).
    pub framework: Option<String>,
    /// Free the bodies' syntax once lowered, for a run that is neither
    /// checked again ([`recheck`]) nor dumped: it lowers the peak memory.
    pub free_lowered_syntax: bool,
}

/// A file a diagnostic may point into that is not C# source (a project file, the
/// config), or a source that could not be read.
#[derive(Clone, Debug)]
pub struct ExtraFile {
    pub path: PathBuf,
    pub text: String,
}

#[derive(Clone, Debug, Default)]
pub struct PhaseTimings {
    pub discovery: Duration,
    pub read_parse: Duration,
    pub index: Duration,
    pub lower: Duration,
    pub infer: Duration,
    pub check: Duration,
}

/// Everything one run found.
pub struct CheckRun {
    pub workspace: Workspace,
    pub loaded: Loaded,
    pub lowered: Lowered,
    /// The inferred specifications, when inference ran.
    pub inference: Option<Inference>,
    /// Findings and notes, in a deterministic order.
    pub diagnostics: Vec<Diagnostic>,
    /// Files after the index's own: `FileId(index.files.len() + i)`.
    pub extra_files: Vec<ExtraFile>,
    pub timings: PhaseTimings,
}

impl PhaseTimings {
    /// The phases in order, for `--timings`.
    pub fn phases(&self) -> Vec<(&'static str, Duration)> {
        vec![
            ("discovery", self.discovery),
            ("read + parse", self.read_parse),
            ("index", self.index),
            ("resolve + lower", self.lower),
            ("infer", self.infer),
            ("check", self.check),
        ]
    }
}

impl CheckRun {
    pub fn index(&self) -> &Index {
        &self.loaded.index
    }

    /// The C# source files read (not the library model), counting a file
    /// once per project that compiles it.
    pub fn source_files(&self) -> usize {
        self.loaded.files as usize
    }

    /// The index, with the spec table the checker read (the inferred one
    /// when inference ran). A run on a prepared library
    /// ([`run_with_library`]) moved the index's own table into inference;
    /// this gives it back, for [`PreparedLibrary::reclaim`].
    pub fn into_index(self) -> Index {
        let mut index = self.loaded.index;
        if let Some(inference) = self.inference {
            index.program = inference.program;
        }
        index
    }

    /// Path and text of any file a diagnostic can name.
    pub fn file(&self, id: FileId) -> Option<(&Path, &str)> {
        let n = self.loaded.index.files.len();
        let i = id.0 as usize;
        if i < n {
            let f = &self.loaded.index.files[i];
            Some((f.source.path.as_path(), &f.source.text))
        } else {
            self.extra_files
                .get(i - n)
                .map(|f| (f.path.as_path(), f.text.as_str()))
        }
    }
}

/// Runs discovery, the front end and the checker.
pub fn run(opts: &RunOptions) -> Result<CheckRun, DiscoverError> {
    run_observed(opts, &mut |_| {}, &Progress::hidden())
}

/// [`run`], calling `after` with each phase's name as it ends (the benchmark
/// samples memory there) and showing the phases on `progress`.
pub fn run_observed(
    opts: &RunOptions,
    after: &mut dyn FnMut(&'static str),
    progress: &Progress,
) -> Result<CheckRun, DiscoverError> {
    run_inner(opts, None, after, progress)
}

/// The library model of a run with `opts`, prepared once for
/// [`run_with_library`].
pub fn prepare_library(opts: &RunOptions) -> PreparedLibrary {
    rlc_csharp::load::prepare_library(&library_texts(opts))
}

/// The library model's texts of a run with `opts`.
fn library_texts(opts: &RunOptions) -> Vec<LibraryText> {
    let mut library = embedded_library();
    library.extend(opts.extra_library.iter().cloned());
    library
}

/// [`run`] with the library model prepared before ([`prepare_library`] of
/// the same options): a caller running many times (the fuzzer) skips
/// generating, parsing and indexing it each time. Inference extends the
/// index's spec table in place instead of a copy of it (copying and freeing
/// the model's specs cost as much as checking a small file): the run's
/// `loaded.index.program` is left empty; [`CheckRun::into_index`] puts the
/// inferred one back.
pub fn run_with_library(
    opts: &RunOptions,
    library: PreparedLibrary,
) -> Result<CheckRun, DiscoverError> {
    run_inner(opts, Some(library), &mut |_| {}, &Progress::hidden())
}

fn run_inner(
    opts: &RunOptions,
    library: Option<PreparedLibrary>,
    after: &mut dyn FnMut(&'static str),
    progress: &Progress,
) -> Result<CheckRun, DiscoverError> {
    let t = Instant::now();
    progress.phase("discover", None);
    let mut workspace = discover(&opts.paths)?;
    if let Some(framework) = &opts.framework {
        workspace.select_framework(framework)?;
    }
    if !opts.exclude.is_empty() {
        for p in &mut workspace.projects {
            p.sources.retain(|s| !opts.exclude.is_excluded(s));
            for b in &mut p.builds {
                b.sources.retain(|s| !opts.exclude.is_excluded(s));
            }
        }
    }
    let discovery = t.elapsed();
    after("discovery");
    let specs = project_specs(&workspace);
    let files = specs
        .iter()
        .flat_map(|p| &p.builds)
        .flat_map(|b| &b.sources)
        .collect::<rustc_hash::FxHashSet<_>>()
        .len() as u64;
    progress.phase("parse + index", Some((files, "files")));
    let keep_declared = library.is_none();
    let loaded = match library {
        Some(library) => load_prepared(&specs, library, &|| progress.inc()),
        None => load_observed(&specs, &library_texts(opts), &|| progress.inc()),
    };
    after("index");
    Ok(analyze(
        workspace,
        loaded,
        opts,
        keep_declared,
        discovery,
        after,
        progress,
    ))
}

/// Checks again with the texts of some sources replaced in memory (by
/// path): the other files keep their parse, every compilation is analysed
/// again. `fix` verifies its edits so.
pub fn recheck(run: CheckRun, opts: &RunOptions, changed: &FxHashMap<PathBuf, String>) -> CheckRun {
    let CheckRun {
        workspace, loaded, ..
    } = run;
    let loaded = reload(loaded, changed);
    analyze(
        workspace,
        loaded,
        opts,
        true,
        Duration::ZERO,
        &mut |_| {},
        &Progress::hidden(),
    )
}

/// Lowers, infers and checks what `loaded` holds. Unless `keep_declared`,
/// inference takes the index's spec table rather than a copy of it.
fn analyze(
    workspace: Workspace,
    mut loaded: Loaded,
    opts: &RunOptions,
    keep_declared: bool,
    discovery: Duration,
    after: &mut dyn FnMut(&'static str),
    progress: &Progress,
) -> CheckRun {
    let t = Instant::now();
    progress.phase("resolve + lower", None);
    // The projects' first compilations, then the others (see
    // `rlc_csharp::frameworks`): lower the files each analyses, whose
    // declarations its inference decides.
    let scopes: Vec<Scope> = loaded
        .stages
        .iter()
        .map(|stage| {
            let files = (0..loaded.index.files.len() as u32).map(FileId);
            Scope::files(
                files
                    .filter(|&file| {
                        loaded.is_analysed(file)
                            && matches!(loaded.index.files[file.0 as usize].origin,
                            rlc_csharp::index::Origin::Project(c) if stage.contains(&c))
                    })
                    .collect(),
            )
        })
        .collect();
    let mut parts: Vec<Lowered> = scopes
        .iter()
        .map(|scope| lower_where(&loaded.index, |file| scope.has_file(file)))
        .collect();
    // What the bodies state about ownership that the declarations do not
    // (as `lower_all` does), then the same for the declarations-only twins
    // of the constructors and fields it was derived for.
    let mut bodies: Vec<&mut rlc_core::ir::Bodies> =
        parts.iter_mut().map(|p| &mut p.bodies).collect();
    rlc_core::getters::inline_field_getters(&loaded.index.program, &mut bodies);
    let bodies: Vec<&rlc_core::ir::Bodies> = parts.iter().map(|p| &p.bodies).collect();
    rlc_core::derive_from_bodies(&mut loaded.index.program, &bodies);
    seed_ownership_flags(&mut loaded);
    for part in &mut parts {
        rlc_core::setters::inline_storing_setters(&mut loaded.index.program, &mut part.bodies);
        rlc_core::never_returns::cut_calls(&loaded.index.program, &mut part.bodies);
        rlc_core::never_throws::cut_edges(&loaded.index.program, &mut part.bodies);
    }
    if opts.free_lowered_syntax {
        loaded.index.free_body_syntax();
    }
    let lower = t.elapsed();
    after("resolve + lower");
    let t = Instant::now();
    if opts.infer {
        progress.phase("infer", None);
    }
    let mut lowered = Lowered::default();
    let mut inference: Option<Inference> = None;
    for ((stage, part), scope) in loaded.stages.iter().zip(parts).zip(&scopes) {
        if opts.infer {
            inference = Some(match inference.take() {
                // The first compilations have nothing to seed.
                None if keep_declared => {
                    infer_into(loaded.index.program.clone(), &part.bodies, scope)
                }
                None => infer_into(
                    std::mem::take(&mut loaded.index.program),
                    &part.bodies,
                    scope,
                ),
                Some(before) => infer_later(before, &loaded, stage, &part.bodies, scope),
            });
        }
        lowered.append(part);
    }
    let infer_time = t.elapsed();
    after("infer");
    let t = Instant::now();
    let program = inference
        .as_ref()
        .map(|i| &i.program)
        .unwrap_or(&loaded.index.program);
    // Summaries come from bodies: the declarations-only twins of later
    // compilations get those of the declarations they stand for.
    let twins = if loaded.stages.len() > 1 {
        let compilations: Vec<u32> = (0..loaded.compilations.len() as u32).collect();
        rlc_csharp::frameworks::seed::summary_twins(program, &loaded, &compilations)
    } else {
        Default::default()
    };
    let checker = Checker::with_twins(program, &lowered.bodies, &opts.check, &twins);
    progress.phase("check", Some((lowered.bodies.len() as u64, "bodies")));
    let checked: Vec<(Vec<Diagnostic>, Duration)> = (0..lowered.bodies.len() as u32)
        .into_par_iter()
        .map(|i| {
            let start = Instant::now();
            let found = checker.check_body(BodyId(i));
            progress.inc();
            (found, start.elapsed())
        })
        .collect();
    let mut diagnostics: Vec<Diagnostic> = Vec::new();
    for ((found, time), body) in checked.into_iter().zip(lowered.bodies.iter()) {
        diagnostics.extend(found);
        if let Some(file) = loaded.index.files.get(body.span.file.0 as usize) {
            *loaded
                .file_times
                .entry(file.source.path.clone())
                .or_default() += time;
        }
    }
    diagnostics.extend(checker.check_classes());
    // Each file is reported where it is analysed.
    diagnostics.retain(|d| reported_here(&loaded, d.primary.span.file));
    let check = t.elapsed();
    after("check");
    let mut run = CheckRun {
        workspace,
        timings: PhaseTimings {
            discovery,
            read_parse: loaded.timings.read_parse,
            index: loaded.timings.index,
            lower,
            infer: infer_time,
            check,
        },
        inference,
        loaded,
        lowered,
        diagnostics: Vec::new(),
        extra_files: Vec::new(),
    };
    run.lowered
        .internal_errors
        .retain(|e| e.span.is_none_or(|s| reported_here(&run.loaded, s.file)));
    diagnostics.extend(input_notes(&mut run));
    sort(&mut diagnostics, &run);
    run.diagnostics = diagnostics;
    run
}

/// Inference over later compilations: their declarations analysed elsewhere
/// first get what inference found there; once more when inference over
/// them found more for such declarations (analysed in another later
/// compilation, for a third framework).
fn infer_later(
    before: Inference,
    loaded: &Loaded,
    stage: &[u32],
    bodies: &rlc_core::ir::Bodies,
    scope: &Scope,
) -> Inference {
    let Inference {
        mut program,
        mut specs,
        rounds,
    } = before;
    seed(&mut program, loaded, stage);
    let mut now = infer_into(program, bodies, scope);
    if seed(&mut now.program, loaded, stage) > 0 {
        let mut again = infer_into(now.program, bodies, scope);
        now.specs.append(&mut again.specs);
        now.program = again.program;
        now.rounds += again.rounds;
    }
    specs.append(&mut now.specs);
    Inference {
        program: now.program,
        specs,
        rounds: rounds.max(now.rounds),
    }
}

/// Gives the declarations-only twins (in later compilations) of the
/// constructors and fields the program's bodies showed to be `leaveOpen`
/// wrappers what [`rlc_core::ownership::derive_ownership_flags`] derived
/// where they are analysed.
fn seed_ownership_flags(loaded: &mut Loaded) {
    if loaded.stages.len() < 2 {
        return;
    }
    let compilations: Vec<u32> = (0..loaded.compilations.len() as u32).collect();
    let mut program = std::mem::take(&mut loaded.index.program);
    rlc_csharp::frameworks::seed::seed_ownership_flags(&mut program, loaded, &compilations);
    loaded.index.program = program;
}

/// Whether findings in `file` are reported: it is not a project source, or
/// its compilation analyses it (another compilation of the project may have
/// the same code, but only as declarations).
fn reported_here(loaded: &Loaded, file: FileId) -> bool {
    loaded.unit_of(file).is_none() || loaded.is_analysed(file)
}

/// Orders diagnostics by file path, position, then rule.
fn sort(diags: &mut [Diagnostic], run: &CheckRun) {
    diags.sort_by(|a, b| {
        let pa = run.file(a.primary.span.file).map(|(p, _)| p.to_path_buf());
        let pb = run.file(b.primary.span.file).map(|(p, _)| p.to_path_buf());
        pa.cmp(&pb)
            .then(a.primary.span.start.cmp(&b.primary.span.start))
            .then(a.rule.cmp(&b.rule))
            .then(a.message.cmp(&b.message))
    });
}

/// Notes about the inputs: project files, unreadable or unparseable sources,
/// skipped methods, internal errors.
fn input_notes(run: &mut CheckRun) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    // Fingerprints name files from the checked root, so that a baseline
    // written in one checkout matches in another.
    let root =
        std::path::absolute(&run.workspace.root).unwrap_or_else(|_| run.workspace.root.clone());
    let rel = |p: &Path| {
        crate::render::relative_name(
            &root,
            &std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf()),
        )
    };
    let base = run.loaded.index.files.len() as u32;
    let mut extra: Vec<ExtraFile> = Vec::new();
    let extra_id = |path: &Path, extra: &mut Vec<ExtraFile>| -> FileId {
        if let Some(i) = extra.iter().position(|f| f.path == path) {
            return FileId(base + i as u32);
        }
        // The file a note is about may be the special file it refuses.
        let text = rlc_csharp::source::read_regular(path, rlc_csharp::source::MAX_SOURCE_LEN)
            .ok()
            .and_then(|b| rlc_csharp::source::decode_source(&b).ok())
            .map(|d| d.text)
            .unwrap_or_default();
        extra.push(ExtraFile {
            path: path.to_path_buf(),
            text,
        });
        FileId(base + extra.len() as u32 - 1)
    };
    for note in &run.workspace.notes {
        let file = extra_id(&note.file, &mut extra);
        let text = &extra[(file.0 - base) as usize].text;
        let start = match (note.line, note.column) {
            (Some(l), c) => offset_of(text, l, c.unwrap_or(1)),
            _ => 0,
        };
        let end = line_end(text, start);
        let mut d = rules::input_note(
            RuleId::ProjectNote,
            note.message.clone(),
            Span::new(file, start, end),
            "here",
        );
        if note.severity == NoteSeverity::Warning {
            d.severity = Severity::Warning;
        }
        d.fingerprint = format!("{}:{}:{}", d.rule, rel(&note.file), note.message);
        out.push(d);
    }
    for note in &run.loaded.notes {
        let (file, start, end) = match note.file {
            Some(f) => {
                let r = note.range.unwrap_or_default();
                (f, r.start, r.end)
            }
            None => {
                let f = extra_id(&note.path, &mut extra);
                let r = note.range.unwrap_or_default();
                (f, r.start, r.end)
            }
        };
        let mut d = rules::input_note(
            note.rule,
            note.message.clone(),
            Span::new(file, start, end),
            "",
        );
        d.fingerprint = format!("{}:{}:{}", note.rule, rel(&note.path), note.message);
        out.push(d);
    }
    for e in &run.lowered.internal_errors {
        let span = e.span.unwrap_or(Span::new(FileId(0), 0, 0));
        let mut d = rlc9004_internal_error::front_end_failed(&e.what, &e.message, span);
        d.fingerprint = format!("{}:{}", d.rule, e.what);
        out.push(d);
    }
    run.extra_files = extra;
    out
}

/// Byte offset of a 1-based line and character column.
fn offset_of(text: &str, line: u32, col: u32) -> u32 {
    let idx = LineIndex::new(text);
    let start = idx.line_start(line.saturating_sub(1) as usize) as usize;
    let rest = text.get(start..).unwrap_or("");
    let within: usize = rest
        .chars()
        .take(col.saturating_sub(1) as usize)
        .map(char::len_utf8)
        .sum();
    (start + within) as u32
}

fn line_end(text: &str, from: u32) -> u32 {
    let rest = text.get(from as usize..).unwrap_or("");
    from + rest.find('\n').unwrap_or(rest.len()) as u32
}

/// The findings left once the levels (`rlc-sharp.toml`'s `[rules]`, then
/// `.editorconfig` and `.globalconfig`) and the suppressions in the sources
/// are applied, with what each mechanism removed.
pub fn kept_findings(
    run: &CheckRun,
    config: &crate::config::Config,
) -> rlc_csharp::suppress::Suppressed {
    let mut out = rlc_csharp::suppress::Suppressed {
        kept: Vec::new(),
        counts: Default::default(),
    };
    for (d, suppression) in classified_findings(run, config) {
        match suppression {
            Some(s) => out.counts.add(s),
            None => out.kept.push(d),
        }
    }
    out
}

/// Every diagnostic of the run with its level applied (as
/// [`kept_findings`]) and what suppresses it, if anything.
pub fn classified_findings(
    run: &CheckRun,
    config: &crate::config::Config,
) -> Vec<(Diagnostic, Option<rlc_csharp::suppress::Suppression>)> {
    use rlc_csharp::suppress::{LevelOrigin, Options};
    let mut analyzer_configs = crate::editorconfig::AnalyzerConfigs::new();
    // Options per file a finding is in, read before the pass that applies them.
    let mut options: std::collections::HashMap<FileId, crate::editorconfig::Options> =
        std::collections::HashMap::new();
    for d in &run.diagnostics {
        let file = d.primary.span.file;
        if options.contains_key(&file) {
            continue;
        }
        let path = run
            .file(file)
            .map(|(p, _)| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf()));
        let source = path
            .as_deref()
            .filter(|p| p.extension().is_some_and(|e| e == "cs"));
        let project_dir = run
            .loaded
            .project_of(file)
            .and_then(|p| run.workspace.projects.get(p as usize))
            .and_then(|p| p.path.as_deref())
            .and_then(Path::parent)
            .map(|d| std::path::absolute(d).unwrap_or_else(|_| d.to_path_buf()));
        options.insert(
            file,
            analyzer_configs.options_for(source, project_dir.as_deref()),
        );
    }
    let level = |d: &Diagnostic| {
        config
            .levels
            .get(&d.rule)
            .map(|l| (*l, LevelOrigin::Config))
            .or_else(|| {
                options
                    .get(&d.primary.span.file)
                    .and_then(|o| o.level(d.rule))
                    .map(|l| (l, LevelOrigin::EditorConfig))
            })
    };
    let units = rlc_csharp::suppress::source_units(run.index());
    rlc_csharp::suppress::classify_with(
        run.diagnostics.clone(),
        &units,
        &Options {
            level: &level,
            foreign: config.foreign_suppressions.unwrap_or(true),
            generated_code: &|file| options.get(&file).and_then(|o| o.generated_code()),
        },
    )
}

/// What `check` says once, on standard error, when the run has SDK-style
/// projects (which `dotnet restore` always gives restore output) and no
/// build of any project has a referenced assembly to read: the check is
/// today's, on the library model alone. Not a finding: nothing in the sources
/// is wrong, and a CI job without restore must not fail for it.
pub fn unrestored_note(workspace: &rlc_csharp::project::Workspace) -> Option<&'static str> {
    let restorable = workspace.projects.iter().any(|p| p.is_sdk_style);
    let read = workspace
        .projects
        .iter()
        .flat_map(|p| &p.builds)
        .any(|b| !b.assemblies.is_empty());
    (restorable && !read).then_some(
        "note: no referenced assembly was read, as no project has restore output \
         (`obj/project.assets.json`) naming packages found on this machine: the types of \
         packages and of the framework that rlc-sharp's library model lacks are unknown. \
         Run `dotnet restore` before the check to have them read.\n",
    )
}

/// The front end's statistics for `--stats` (`summary.stats` in JSON).
pub fn stats(run: &CheckRun) -> serde_json::Map<String, serde_json::Value> {
    let mut types = run.loaded.index.decl_stats.clone();
    types.merge(&run.lowered.stats.types);
    let mut unknown: Vec<(&str, u64)> = types
        .unknown
        .iter()
        .map(|(k, v)| (k.as_str(), *v))
        .collect();
    unknown.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let s = &run.lowered.stats;
    let mut m = serde_json::Map::new();
    m.insert("files".into(), run.source_files().into());
    m.insert("lines".into(), run.loaded.lines.into());
    m.insert("lines_active".into(), run.loaded.lines_active.into());
    m.insert("bytes".into(), run.loaded.bytes.into());
    m.insert("file_variants".into(), run.loaded.variants.into());
    m.insert(
        "configurations".into(),
        run.workspace
            .projects
            .iter()
            .map(|p| p.builds.len())
            .sum::<usize>()
            .into(),
    );
    m.insert("compilations".into(), run.loaded.compilations.len().into());
    m.insert("builds".into(), builds(run).into());
    m.insert(
        "syntax_error_files".into(),
        run.loaded.syntax_error_files.into(),
    );
    m.insert("calls".into(), s.calls.into());
    m.insert("calls_resolved".into(), s.calls_resolved.into());
    m.insert("types_resolved".into(), types.resolved.into());
    // By where the type is declared.
    m.insert(
        "types_resolved_repository".into(),
        (types.resolved - types.resolved_metadata - types.resolved_model).into(),
    );
    m.insert(
        "types_resolved_metadata".into(),
        types.resolved_metadata.into(),
    );
    m.insert("types_resolved_model".into(), types.resolved_model.into());
    m.insert("types_unresolved".into(), types.unresolved.into());
    // Types declared from referenced assemblies, by the assembly's generated file.
    let index = &run.loaded.index;
    let mut per_assembly: FxHashMap<FileId, u64> = FxHashMap::default();
    for t in 0..index.types.len() as u32 {
        if let TypeSource::Metadata(file) = index.type_source(rlc_core::program::TypeId(t)) {
            *per_assembly.entry(file).or_default() += 1;
        }
    }
    m.insert(
        "metadata_types".into(),
        per_assembly.values().sum::<u64>().into(),
    );
    m.insert("metadata_assemblies".into(), per_assembly.len().into());
    m.insert(
        "unknown_types".into(),
        unknown
            .iter()
            .take(20)
            .map(|(name, n)| serde_json::json!({"name": name, "uses": n}))
            .collect::<Vec<_>>()
            .into(),
    );
    m.insert("bodies".into(), run.lowered.bodies.len().into());
    // The slowest sources, to find one that costs a run much of its time.
    let root =
        std::path::absolute(&run.workspace.root).unwrap_or_else(|_| run.workspace.root.clone());
    let mut times: Vec<(&PathBuf, &Duration)> = run.loaded.file_times.iter().collect();
    times.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    m.insert(
        "slowest_files".into(),
        times
            .iter()
            .take(5)
            .map(|(path, time)| {
                let path = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
                serde_json::json!({
                    "file": crate::render::relative_name(&root, &path),
                    "ms": (time.as_secs_f64() * 1000.0 * 10.0).round() / 10.0,
                })
            })
            .collect::<Vec<_>>()
            .into(),
    );
    m
}

/// Per build of a project with several: its framework, the compilation
/// standing for it, its files and active lines, and the files it analyses.
fn builds(run: &CheckRun) -> Vec<serde_json::Value> {
    let loaded = &run.loaded;
    let mut analysed = vec![0u64; loaded.compilations.len()];
    for (i, file) in loaded.index.files.iter().enumerate() {
        if let rlc_csharp::index::Origin::Project(c) = file.origin
            && loaded.is_analysed(FileId(i as u32))
        {
            analysed[c as usize] += 1;
        }
    }
    let mut out = Vec::new();
    for (p, project) in run.workspace.projects.iter().enumerate() {
        if project.builds.len() < 2 {
            continue;
        }
        for (b, build) in project.builds.iter().enumerate() {
            let Some(stats) = loaded.builds.get(p).and_then(|s| s.get(b)) else {
                continue;
            };
            let compilation = stats
                .compilation
                .and_then(|c| loaded.compilations.get(c as usize));
            // The files its compilation analyses, counted for its first build.
            let new = match (stats.compilation, compilation) {
                (Some(c), Some(comp)) if comp.builds.first() == Some(&(b as u32)) => {
                    analysed[c as usize]
                }
                _ => 0,
            };
            out.push(serde_json::json!({
                "project": project.name,
                "framework": build.target_framework,
                "files": stats.files,
                "lines_active": stats.lines_active,
                "files_analysed": new,
            }));
        }
    }
    out
}

/// The statistics as text for standard error.
pub fn stats_text(stats: &serde_json::Map<String, serde_json::Value>) -> String {
    let n = |k: &str| {
        stats
            .get(k)
            .and_then(serde_json::Value::as_u64)
            .unwrap_or(0)
    };
    let pct = |a: u64, b: u64| {
        if b == 0 {
            100.0
        } else {
            100.0 * a as f64 / b as f64
        }
    };
    let mut out = format!(
        "files: {}, lines: {} ({} active), files with syntax errors: {} ({:.2}%)\n\
         configurations: {} project builds, analysed as {} compilations; {} file variants parsed\n\
         calls resolved: {}/{} ({:.1}%)\n\
         type names resolved: {}/{} ({:.1}%): {} to the repository's types, {} to referenced assemblies' (metadata), {} to the library model's\n\
         types declared from referenced assemblies: {} (from {} {})\n",
        n("files"),
        n("lines"),
        n("lines_active"),
        n("syntax_error_files"),
        pct(n("syntax_error_files"), n("files")),
        n("configurations"),
        n("compilations"),
        n("file_variants"),
        n("calls_resolved"),
        n("calls"),
        pct(n("calls_resolved"), n("calls")),
        n("types_resolved"),
        n("types_resolved") + n("types_unresolved"),
        pct(
            n("types_resolved"),
            n("types_resolved") + n("types_unresolved")
        ),
        n("types_resolved_repository"),
        n("types_resolved_metadata"),
        n("types_resolved_model"),
        n("metadata_types"),
        n("metadata_assemblies"),
        if n("metadata_assemblies") == 1 {
            "assembly"
        } else {
            "assemblies"
        },
    );
    if let Some(serde_json::Value::Array(builds)) = stats.get("builds")
        && !builds.is_empty()
    {
        out.push_str("builds of multi-targeted projects (files, active lines, files analysed):\n");
        for b in builds {
            let text = |k: &str| b.get(k).and_then(serde_json::Value::as_str).unwrap_or("-");
            let num = |k: &str| b.get(k).and_then(serde_json::Value::as_u64).unwrap_or(0);
            out.push_str(&format!(
                "  {} {}: {}, {}, {}\n",
                text("project"),
                text("framework"),
                num("files"),
                num("lines_active"),
                num("files_analysed")
            ));
        }
    }
    if let Some(serde_json::Value::Array(slowest)) = stats.get("slowest_files")
        && !slowest.is_empty()
    {
        out.push_str("slowest files (parse + check):\n");
        for f in slowest {
            let file = f
                .get("file")
                .and_then(serde_json::Value::as_str)
                .unwrap_or("?");
            let ms = f
                .get("ms")
                .and_then(serde_json::Value::as_f64)
                .unwrap_or(0.0);
            out.push_str(&format!("  {ms:>9.1} ms  {file}\n"));
        }
    }
    if let Some(serde_json::Value::Array(unknown)) = stats.get("unknown_types")
        && !unknown.is_empty()
    {
        out.push_str("unknown types (top 20 by use):\n");
        for u in unknown {
            let name = u
                .get("name")
                .and_then(serde_json::Value::as_str)
                .unwrap_or("?");
            let uses = u
                .get("uses")
                .and_then(serde_json::Value::as_u64)
                .unwrap_or(0);
            out.push_str(&format!("  {uses:>7}  {name}\n"));
        }
    }
    out
}

/// The lowered IR of a file's bodies (optionally only those whose name contains `method`).
pub fn dump_ir(run: &CheckRun, file: FileId, method: Option<&str>) -> String {
    let program = run
        .inference
        .as_ref()
        .map(|i| &i.program)
        .unwrap_or(&run.loaded.index.program);
    let mut out = String::new();
    for b in &run.lowered.bodies {
        if b.span.file == file && method.is_none_or(|m| b.name.contains(m)) {
            out.push_str(&b.dump(Some(program)).to_string());
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_of_lines_and_columns() {
        let text = "ab\ncd\nef";
        assert_eq!(offset_of(text, 1, 1), 0);
        assert_eq!(offset_of(text, 2, 2), 4);
        assert_eq!(line_end(text, 3), 5);
    }
}
