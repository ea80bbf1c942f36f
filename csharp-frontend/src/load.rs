//! Putting the front end together: read every source file once and parse
//! each of its variants (sets of active `#if` regions) once, in parallel, add
//! the library model, build the index of every compilation
//! ([`crate::frameworks`]), and lower the bodies to analyse. Problems with
//! one file or one type are reported and the rest goes on.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rayon::prelude::*;
use rlc_core::program::TypeId;
use rlc_core::rules::RuleId;
use rlc_core::{FileId, Span, ir};
use rustc_hash::{FxHashMap, FxHashSet};

use crate::frameworks::{self, BuildStats, Compilation, Parsed, Text, Unit};
use crate::hir::{FileSyntax, TextRange};
use crate::index::{
    BaseMark, FileEntry, GlobalUsingSpec, Index, IndexInput, LibraryFacts, LibraryTypeFacts,
    Origin, ProjectInput,
};
use crate::parse::{ParseOptions, parse_file};
use crate::resolve::ResolveStats;
use crate::source::{SourceFile, SourceText, decode_source};

/// A project as the loader needs it: one build per target framework (one
/// build when it names none or one).
#[derive(Clone, Debug, Default)]
pub struct ProjectSpec {
    pub name: String,
    pub builds: Vec<BuildSpec>,
}

/// One build of a project: what one target framework compiles.
#[derive(Clone, Debug, Default)]
pub struct BuildSpec {
    /// For reports; None when the project names no target framework.
    pub framework: Option<String>,
    pub sources: Vec<PathBuf>,
    pub defines: Vec<String>,
    /// The builds it compiles against, as (project, build) indices.
    pub references: Vec<(u32, u32)>,
    pub global_usings: Vec<GlobalUsingSpec>,
    /// The assemblies it compiles against (packages, framework packs).
    pub assemblies: Vec<PathBuf>,
}

impl ProjectSpec {
    /// A project with one build and no framework.
    pub fn single(name: &str, sources: Vec<PathBuf>, defines: Vec<String>) -> ProjectSpec {
        ProjectSpec {
            name: name.to_owned(),
            builds: vec![BuildSpec {
                sources,
                defines,
                ..BuildSpec::default()
            }],
        }
    }
}

/// A library model text: embedded (`<library>/system.toml`) or the user's config.
#[derive(Clone, Debug)]
pub struct LibraryText {
    pub name: String,
    pub text: String,
    /// Where to report problems (the config file), if it is a user file.
    pub path: Option<PathBuf>,
}

/// Something that went wrong while loading, with where.
#[derive(Clone, Debug, PartialEq)]
pub struct LoadNote {
    pub rule: RuleId,
    pub path: PathBuf,
    /// The file's id when it was read (so the range can be shown in context).
    pub file: Option<FileId>,
    pub range: Option<TextRange>,
    pub message: String,
}

#[derive(Debug, Default, Clone)]
pub struct Timings {
    pub read_parse: Duration,
    pub index: Duration,
    pub lower: Duration,
}

pub struct Loaded {
    pub index: Index,
    /// The library model's type facts, kept for [`reload`].
    pub library_facts: LibraryFacts,
    pub notes: Vec<LoadNote>,
    pub timings: Timings,
    /// Source files, counting a file once per project that compiles it.
    pub files: u64,
    /// Their bytes of C# (sources only, not the model).
    pub bytes: u64,
    pub lines: u64,
    /// Their lines outside the `#if` regions inactive in every build.
    pub lines_active: u64,
    pub syntax_error_files: u64,
    /// Distinct files with one set of active regions, each parsed once.
    pub variants: u64,
    /// The projects of the index: `Origin::Project(i)` is `compilations[i]`.
    pub compilations: Vec<Compilation>,
    /// The unit of each file of the index; None for the library model.
    pub file_units: Vec<Option<u32>>,
    pub units: Vec<Unit>,
    /// Compilations in the order of inference: the projects' first
    /// compilations, then the others.
    pub stages: Vec<Vec<u32>>,
    /// Per project, per build.
    pub builds: Vec<Vec<BuildStats>>,
    /// The index's projects (the compilations) as built, kept for [`reload`].
    pub compilation_inputs: Vec<ProjectInput>,
    /// The symbols each file of the index was parsed with; None for the
    /// library model. Kept for [`reload`].
    pub parse_options: Vec<Option<Arc<ParseOptions>>>,
    /// Time spent on each source, by path: parsing here; the driver adds
    /// checking (`--stats` names the slowest).
    pub file_times: FxHashMap<PathBuf, Duration>,
}

impl Loaded {
    /// Whether a file is analysed in its compilation: a project source whose
    /// active code no earlier compilation of its project analysed.
    pub fn is_analysed(&self, file: FileId) -> bool {
        self.unit_of(file).is_some_and(|u| {
            let origin = self.index.files.get(file.0 as usize).map(|f| f.origin);
            origin == Some(Origin::Project(u.analysed_in))
        })
    }

    /// The unit of a project file.
    pub fn unit_of(&self, file: FileId) -> Option<&Unit> {
        let unit = (*self.file_units.get(file.0 as usize)?)?;
        self.units.get(unit as usize)
    }

    /// The loaded project (index into the [`ProjectSpec`]s) a file of the index belongs to.
    pub fn project_of(&self, file: FileId) -> Option<u32> {
        match self.index.files.get(file.0 as usize)?.origin {
            Origin::Project(c) => self.compilations.get(c as usize).map(|c| c.project),
            Origin::Library => None,
        }
    }
}

/// The embedded library model as [`LibraryText`]s.
pub fn embedded_library() -> Vec<LibraryText> {
    rlc_attributes::library::embedded()
        .iter()
        .map(|(name, text)| LibraryText {
            name: format!("<library>/{name}"),
            text: (*text).to_string(),
            path: None,
        })
        .collect()
}

/// Reads, parses and indexes the projects and the library model.
pub fn load(projects: &[ProjectSpec], library: &[LibraryText]) -> Loaded {
    load_observed(projects, library, &|| {})
}

/// The library model parsed and indexed on its own, for [`load_prepared`]:
/// a caller that loads many times (the fuzzer) prepares it once. A load
/// that reads referenced assemblies indexes its files again, with theirs.
#[derive(Clone, Debug)]
pub struct PreparedLibrary {
    /// The index of the model's files (their ids come first).
    pub index: Index,
    pub facts: LibraryFacts,
    /// Problems with the model's texts.
    pub notes: Vec<LoadNote>,
    /// How long preparing it took.
    pub time: Duration,
    /// To take back what a load adds to `index` ([`PreparedLibrary::reclaim`]).
    mark: BaseMark,
}

impl PreparedLibrary {
    /// This model again, from the index of a [`load_prepared`] of a copy of
    /// it, with what the load added dropped: no copy of the model's index is
    /// made or freed. None when that index was not built on the model's.
    pub fn reclaim(&self, mut index: Index) -> Option<PreparedLibrary> {
        index.rollback(&self.mark).then(|| PreparedLibrary {
            index,
            facts: self.facts.clone(),
            notes: self.notes.clone(),
            time: self.time,
            mark: self.mark.clone(),
        })
    }
}

/// Generates, parses and indexes the library model.
pub fn prepare_library(library: &[LibraryText]) -> PreparedLibrary {
    let start = Instant::now();
    let (files, facts, notes) = parse_library(library);
    let index = index_library(files, &facts);
    PreparedLibrary {
        mark: index.mark(),
        index,
        facts,
        notes,
        time: start.elapsed(),
    }
}

/// Generates and parses the library model: its files, type facts and
/// problems.
fn parse_library(library: &[LibraryText]) -> (Vec<FileEntry>, LibraryFacts, Vec<LoadNote>) {
    let mut notes = Vec::new();
    let mut files: Vec<FileEntry> = Vec::new();
    let mut facts = FxHashMap::<String, LibraryTypeFacts>::default();
    // Generated and parsed in parallel: the model is ~1 MB of C#.
    type Generated = (Option<(GeneratedLibrary, FileSyntax)>, Vec<LoadNote>);
    let generated: Vec<Generated> = library
        .par_iter()
        .map(|lib| {
            let (g, notes) = generate_library(lib);
            let parsed = g.map(|g| {
                let syntax = parse_file(&g.csharp.text, &ParseOptions::default());
                (g, syntax)
            });
            (parsed, notes)
        })
        .collect();
    for (g, n) in generated {
        notes.extend(n);
        let Some((g, syntax)) = g else { continue };
        let id = FileId(files.len() as u32);
        for e in &syntax.syntax_errors {
            let toml_span = g.toml_span(e.range.start as usize);
            notes.push(LoadNote {
                rule: RuleId::ProjectNote,
                path: PathBuf::from(&g.name),
                file: None,
                range: toml_span.map(|s| TextRange::new(s.start as u32, s.end as u32)),
                message: format!("library model entry does not parse as C#: {}", e.message),
            });
        }
        facts.extend(g.facts());
        files.push(FileEntry {
            source: SourceFile::new(id, PathBuf::from(&g.name), g.csharp.text.as_str()),
            syntax: Arc::new(syntax),
            origin: Origin::Library,
        });
    }
    // Shared by every index built on the model's.
    (files, Arc::new(facts), notes)
}

/// The index of the library model's files (with the referenced
/// assemblies' types, if any).
fn index_library(files: Vec<FileEntry>, facts: &LibraryFacts) -> Index {
    crate::index::build(IndexInput {
        files,
        projects: Vec::new(),
        library_facts: facts.clone(),
    })
}

/// The library model's files as a load takes them: indexed on their own
/// ([`PreparedLibrary`]) or parsed only.
enum ModelFiles {
    Indexed(Box<Index>),
    Parsed(Vec<FileEntry>),
}

impl ModelFiles {
    fn files(&self) -> &[FileEntry] {
        match self {
            ModelFiles::Indexed(index) => &index.files,
            ModelFiles::Parsed(files) => files,
        }
    }

    /// The model's index with the referenced assemblies' `stubs` indexed
    /// with its files (their overlays of its types are parts of them):
    /// built once, or the prepared one when there are none.
    fn index(self, stubs: Vec<MetadataStubs>, facts: &LibraryFacts) -> Index {
        let mut files = match self {
            ModelFiles::Indexed(index) if stubs.is_empty() => return *index,
            ModelFiles::Indexed(mut index) => std::mem::take(&mut index.files),
            ModelFiles::Parsed(files) => files,
        };
        for stub in stubs {
            let id = FileId(files.len() as u32);
            files.push(FileEntry {
                source: SourceFile::new(id, stub.path, ""),
                syntax: Arc::new(stub.syntax),
                origin: Origin::Library,
            });
        }
        index_library(files, facts)
    }
}

/// [`load`], calling `on_file` (from any thread) as each source is parsed:
/// the CLI's progress line counts files so.
pub fn load_observed(
    projects: &[ProjectSpec],
    library: &[LibraryText],
    on_file: &(dyn Fn() + Sync),
) -> Loaded {
    let start = Instant::now();
    // Not indexed on its own: the assemblies' types are indexed with it.
    let (files, facts, notes) = parse_library(library);
    let model = ModelFiles::Parsed(files);
    load_model(projects, model, facts, notes, start.elapsed(), on_file)
}

/// [`load_observed`] on a library model prepared before.
pub fn load_prepared(
    projects: &[ProjectSpec],
    library: PreparedLibrary,
    on_file: &(dyn Fn() + Sync),
) -> Loaded {
    let PreparedLibrary {
        index,
        facts,
        notes,
        time,
        ..
    } = library;
    let model = ModelFiles::Indexed(Box::new(index));
    load_model(projects, model, facts, notes, time, on_file)
}

/// Loads the projects on the library model's files, its facts and notes,
/// `library_time` having been spent on them.
fn load_model(
    projects: &[ProjectSpec],
    model: ModelFiles,
    facts: LibraryFacts,
    mut notes: Vec<LoadNote>,
    library_time: Duration,
    on_file: &(dyn Fn() + Sync),
) -> Loaded {
    let start = Instant::now();
    let mut files: Vec<FileEntry> = Vec::new();
    // Sources: every file read once, every variant parsed once, in parallel.
    let plan = frameworks::plan(projects, read_text);
    // Referenced assemblies: each read once, the types the sources name
    // declared as C#, one file per assembly, indexed with the model: their
    // declarations of the model's types are parts of the model's.
    let stubs = referenced_types(projects, &plan, model.files(), &mut notes);
    let library_index = model.index(stubs, &facts);
    // The sources' files follow the model's and the assemblies'.
    let first_id = library_index.files.len();
    for (path, text) in plan.paths.iter().zip(&plan.texts) {
        if let Err(message) = text {
            notes.push(unreadable(path, message.clone()));
        }
    }
    let mut used = vec![false; plan.variants.len()];
    for f in &plan.files {
        used[f.variant as usize] = true;
    }
    // Progress counts files: a file when its first variant is parsed, or
    // when it cannot be read.
    let mut counts_file = vec![false; plan.variants.len()];
    let mut has_variant = vec![false; plan.paths.len()];
    for (i, v) in plan.variants.iter().enumerate() {
        if used[i] && !has_variant[v.path as usize] {
            has_variant[v.path as usize] = true;
            counts_file[i] = true;
        }
    }
    for _ in has_variant.iter().filter(|h| !**h) {
        on_file();
    }
    let (parsed, parse_times): (Vec<Parsed>, Vec<Duration>) = plan
        .variants
        .par_iter()
        .zip(used.par_iter().zip(&counts_file))
        .map(|(v, (used, counts))| {
            let start = Instant::now();
            let parsed = match (&plan.texts[v.path as usize], used) {
                (Ok(text), true) => parse_text(text, &v.options),
                _ => Err(String::new()),
            };
            if *counts {
                on_file();
            }
            (parsed, start.elapsed())
        })
        .unzip();
    let mut file_times: FxHashMap<PathBuf, Duration> = FxHashMap::default();
    for (v, time) in plan.variants.iter().zip(parse_times) {
        *file_times
            .entry(plan.paths[v.path as usize].clone())
            .or_default() += time;
    }
    for (v, result) in plan.variants.iter().zip(&parsed) {
        if let Err(message) = result
            && !message.is_empty()
        {
            notes.push(unreadable(&plan.paths[v.path as usize], message.clone()));
        }
    }
    let needed = frameworks::needed(&plan, &parsed);
    let mut file_units: Vec<Option<u32>> = vec![None; first_id];
    let mut parse_options: Vec<Option<Arc<ParseOptions>>> = vec![None; first_id];
    let mut counted: FxHashSet<(u32, u32)> = FxHashSet::default();
    let mut with_errors: FxHashSet<(u32, u32)> = FxHashSet::default();
    let mut legacy_noted: FxHashSet<u32> = FxHashSet::default();
    let mut analysed_variants: FxHashMap<(u32, u32), Vec<u32>> = FxHashMap::default();
    let (mut bytes, mut lines) = (0u64, 0u64);
    // One template per path: entries of several compilations clone it.
    let mut templates: FxHashMap<u32, SourceFile> = FxHashMap::default();
    for (planned, _) in plan.files.iter().zip(&needed).filter(|(_, n)| **n) {
        let (Ok(text), Ok(syntax)) = (
            &plan.texts[planned.path as usize],
            &parsed[planned.variant as usize],
        ) else {
            continue;
        };
        let id = FileId((first_id + files.len()) as u32);
        let path = &plan.paths[planned.path as usize];
        let mut source = templates
            .entry(planned.path)
            .or_insert_with(|| SourceFile::new(id, path.clone(), text.clone()))
            .clone();
        source.id = id;
        let project = plan.compilations[planned.compilation as usize].project;
        if counted.insert((project, planned.path)) {
            bytes += text.len() as u64;
            lines += source.lines.line_count() as u64;
        }
        let unit = &plan.units[planned.unit as usize];
        if let Some(byte) = plan.legacy[planned.path as usize]
            && legacy_noted.insert(planned.path)
        {
            notes.push(legacy_note(&source, byte));
        }
        if unit.analysed_in == planned.compilation {
            analysed_variants
                .entry((project, planned.path))
                .or_default()
                .push(planned.variant);
            if let Some(note) = syntax_note(&source, syntax) {
                with_errors.insert((project, planned.path));
                notes.push(note);
            }
            notes.extend(syntax.limits.iter().map(|l| LoadNote {
                rule: RuleId::MethodSkipped,
                path: source.path.clone(),
                file: Some(id),
                range: Some(l.range),
                message: l.message.clone(),
            }));
        }
        file_units.push(Some(planned.unit));
        parse_options.push(Some(
            plan.variants[planned.variant as usize].options.clone(),
        ));
        files.push(FileEntry {
            source,
            syntax: syntax.clone(),
            origin: Origin::Project(planned.compilation),
        });
    }
    let inactive = |variant: u32| -> u64 {
        parsed[variant as usize]
            .as_ref()
            .map_or(0, |s| u64::from(s.inactive_lines))
    };
    let lines_active = analysed_variants
        .iter()
        .map(|(&(_, path), variants)| {
            let Some(template) = templates.get(&path) else {
                return 0;
            };
            let all = template.lines.line_count() as u64;
            let regions: Option<Vec<&[(u32, u32)]>> = variants
                .iter()
                .map(|&v| plan.variants[v as usize].inactive.as_deref())
                .collect();
            match (variants.as_slice(), regions) {
                ([single], _) => all.saturating_sub(inactive(*single)),
                (_, Some(regions)) => {
                    all.saturating_sub(frameworks::inactive_in_all(&template.text, &regions))
                }
                (_, None) => all,
            }
        })
        .sum();
    let builds: Vec<Vec<BuildStats>> = plan
        .builds
        .iter()
        .map(|builds| {
            builds
                .iter()
                .map(|b| {
                    let readable: Vec<u32> = b
                        .variants
                        .iter()
                        .copied()
                        .filter(|&v| parsed[v as usize].is_ok())
                        .collect();
                    BuildStats {
                        compilation: b.compilation,
                        files: readable.len() as u64,
                        lines_active: readable
                            .iter()
                            .map(|&v| {
                                let path = plan.variants[v as usize].path;
                                let all = templates
                                    .get(&path)
                                    .map_or(0, |t| t.lines.line_count() as u64);
                                all.saturating_sub(inactive(v))
                            })
                            .sum(),
                    }
                })
                .collect()
        })
        .collect();
    let variants = used
        .iter()
        .zip(&parsed)
        .filter(|(u, p)| **u && p.is_ok())
        .count() as u64;
    // Preparing the model is reading and parsing too.
    let read_parse = start.elapsed() + library_time;
    let start = Instant::now();
    let inputs: Vec<ProjectInput> = plan
        .references
        .iter()
        .zip(&plan.usings)
        .map(|(references, usings)| ProjectInput {
            references: references.clone(),
            global_usings: usings.clone(),
        })
        .collect();
    let input = IndexInput {
        files,
        projects: inputs.clone(),
        library_facts: facts.clone(),
    };
    let index = crate::index::build_on(library_index, input);
    let index_time = start.elapsed();
    Loaded {
        index,
        library_facts: facts,
        notes,
        timings: Timings {
            read_parse,
            index: index_time,
            lower: Duration::ZERO,
        },
        files: counted.len() as u64,
        bytes,
        lines,
        lines_active,
        syntax_error_files: with_errors.len() as u64,
        variants,
        compilations: plan.compilations,
        file_units,
        units: plan.units,
        stages: plan.stages,
        builds,
        compilation_inputs: inputs,
        parse_options,
        file_times,
    }
}

/// Loads `previous` again with some sources' texts replaced (`fix` checks its
/// edits this way): the files in `changed` (by path) are parsed from the given
/// text with the symbols of each compilation that has them, every other file
/// keeps its parse, and the index of every compilation is built anew. The
/// plan (compilations, units, which compilation analyses which file) stays
/// as it was: edits are taken not to change a file's `#if` structure.
pub fn reload(previous: Loaded, changed: &FxHashMap<PathBuf, String>) -> Loaded {
    let start = Instant::now();
    let mut loaded = previous;
    let mut files = std::mem::take(&mut loaded.index.files);
    // Each changed file parsed once per set of symbols it is compiled with.
    let mut jobs: Vec<(&PathBuf, Arc<ParseOptions>)> = Vec::new();
    for (f, options) in files.iter().zip(&loaded.parse_options) {
        if let (Some((path, _)), Some(options)) = (changed.get_key_value(&f.source.path), options)
            && !jobs
                .iter()
                .any(|(p, o)| *p == path && Arc::ptr_eq(o, options))
        {
            jobs.push((path, options.clone()));
        }
    }
    let reparsed: Vec<Parsed> = jobs
        .par_iter()
        .map(|(path, options)| parse_text(&changed[*path], options))
        .collect();
    let texts: FxHashMap<&PathBuf, Arc<str>> = changed
        .iter()
        .map(|(p, t)| (p, Arc::from(t.as_str())))
        .collect();
    loaded
        .notes
        .retain(|n| !(n.rule == RuleId::SyntaxError && changed.contains_key(&n.path)));
    for (i, f) in files.iter_mut().enumerate() {
        let Some(text) = texts.get(&f.source.path) else {
            continue;
        };
        let Some(options) = loaded.parse_options.get(i).and_then(Option::as_ref) else {
            continue;
        };
        let Some(Ok(syntax)) = jobs
            .iter()
            .position(|(p, o)| **p == f.source.path && Arc::ptr_eq(o, options))
            .map(|j| &reparsed[j])
        else {
            // A parser bug: the file keeps its old parse.
            continue;
        };
        f.source = SourceFile::new(f.source.id, f.source.path.clone(), text.clone());
        f.syntax = syntax.clone();
    }
    // Notes and counts as `load` makes them, for the files analysed.
    let mut counted: FxHashSet<(u32, &Path)> = FxHashSet::default();
    let mut with_errors: FxHashSet<(u32, &Path)> = FxHashSet::default();
    let (mut bytes, mut lines) = (0u64, 0u64);
    for (i, f) in files.iter().enumerate() {
        let Origin::Project(c) = f.origin else {
            continue;
        };
        let project = loaded.compilations.get(c as usize).map_or(c, |c| c.project);
        if counted.insert((project, f.source.path.as_path())) {
            bytes += f.source.text.len() as u64;
            lines += f.source.lines.line_count() as u64;
        }
        let analysed = loaded
            .file_units
            .get(i)
            .copied()
            .flatten()
            .and_then(|u| loaded.units.get(u as usize))
            .is_some_and(|u| u.analysed_in == c);
        if analysed && !f.syntax.syntax_errors.is_empty() {
            with_errors.insert((project, f.source.path.as_path()));
            if texts.contains_key(&f.source.path)
                && let Some(note) = syntax_note(&f.source, &f.syntax)
            {
                loaded.notes.push(note);
            }
        }
    }
    loaded.bytes = bytes;
    loaded.lines = lines;
    loaded.syntax_error_files = with_errors.len() as u64;
    let read_parse = start.elapsed();
    let start = Instant::now();
    loaded.index = crate::index::build(IndexInput {
        files,
        projects: loaded.compilation_inputs.clone(),
        library_facts: loaded.library_facts.clone(),
    });
    loaded.timings = Timings {
        read_parse,
        index: start.elapsed(),
        lower: Duration::ZERO,
    };
    loaded
}

fn unreadable(path: &Path, message: String) -> LoadNote {
    LoadNote {
        rule: RuleId::UnreadableSource,
        path: path.to_path_buf(),
        file: None,
        range: None,
        message,
    }
}

/// The note for a file's syntax errors, if it has any.
fn syntax_note(source: &SourceFile, syntax: &FileSyntax) -> Option<LoadNote> {
    let first = syntax.syntax_errors.first()?;
    Some(LoadNote {
        rule: RuleId::SyntaxError,
        path: source.path.clone(),
        file: Some(source.id),
        range: Some(first.range),
        message: if syntax.syntax_errors.len() > 1 {
            format!(
                "{} (and {} more syntax errors in this file); the statements holding them are not analysed",
                first.message,
                syntax.syntax_errors.len() - 1
            )
        } else {
            format!(
                "{}; the statement holding it is not analysed",
                first.message
            )
        },
    })
}

/// A model file as C# with the type facts that are not C# syntax; problems as notes.
struct GeneratedLibrary {
    name: String,
    csharp: rlc_attributes::library::CSharpSource,
    file: rlc_attributes::library::LibraryFile,
}

fn generate_library(lib: &LibraryText) -> (Option<GeneratedLibrary>, Vec<LoadNote>) {
    let path = lib.path.clone().unwrap_or_else(|| PathBuf::from(&lib.name));
    let note = |span: Option<std::ops::Range<usize>>, message: String| LoadNote {
        rule: RuleId::ProjectNote,
        path: path.clone(),
        file: None,
        range: span.map(|s| TextRange::new(s.start as u32, s.end as u32)),
        message: format!("library model: {message}"),
    };
    let file = match rlc_attributes::library::parse(&lib.text) {
        Ok(f) => f,
        Err(e) => return (None, vec![note(e.span, e.message)]),
    };
    match file.to_csharp() {
        Ok(csharp) => (
            Some(GeneratedLibrary {
                name: lib.name.clone(),
                csharp,
                file,
            }),
            Vec::new(),
        ),
        Err(errors) => (
            None,
            errors
                .into_iter()
                .map(|e| note(e.span, e.message))
                .collect(),
        ),
    }
}

impl GeneratedLibrary {
    /// The TOML span a generated offset was copied from.
    fn toml_span(&self, offset: usize) -> Option<std::ops::Range<usize>> {
        use rlc_attributes::library::PieceOrigin;
        let loc = self.csharp.locate_range(offset..offset + 1)?;
        let ty = self.file.types.get(loc.ty)?;
        let s = match loc.origin {
            PieceOrigin::Base(i) => ty.bases.get(i)?.span(),
            PieceOrigin::Member(i) => ty.members.get(i)?.span(),
        };
        Some(s)
    }

    /// Model facts per type, keyed like [`Index::metadata_key`].
    fn facts(&self) -> impl Iterator<Item = (String, LibraryTypeFacts)> + '_ {
        self.file.types.iter().filter_map(|t| {
            let name = t.type_name().ok()?;
            Some((
                name.key(),
                LibraryTypeFacts {
                    must_call: t.must_call.clone(),
                    also_disposes: t.also_disposes.clone(),
                    releases_only_managed: t.releases_only_managed.clone(),
                },
            ))
        })
    }
}

/// A source file's text, or why it cannot be read; and where its first byte
/// that is not UTF-8 is, when it was read as Windows-1252.
fn read_text(path: &Path) -> (Text, Option<usize>) {
    let bytes = match crate::source::read_regular(path, crate::source::MAX_SOURCE_LEN) {
        Ok(bytes) => bytes,
        Err(e) => return (Err(format!("cannot read the file: {e}")), None),
    };
    match decode_source(&bytes) {
        Ok(SourceText { text, legacy }) => (Ok(text.into()), legacy),
        Err(e) => (Err(format!("skipped: {e}")), None),
    }
}

/// The note for a file read as Windows-1252, at its first byte that is not UTF-8.
fn legacy_note(source: &SourceFile, byte: usize) -> LoadNote {
    // One character per byte of the file: the byte's index is the character's.
    let start = source
        .text
        .char_indices()
        .nth(byte)
        .map_or(source.text.len(), |(i, _)| i);
    let end = source.text[start..]
        .chars()
        .next()
        .map_or(start, |c| start + c.len_utf8());
    LoadNote {
        rule: RuleId::LegacyEncoding,
        path: source.path.clone(),
        file: Some(source.id),
        range: Some(TextRange::new(start as u32, end as u32)),
        message: "not UTF-8 and no byte-order mark: read as Windows-1252, as the C# compiler \
                  reads it with that system code page; save it as UTF-8 so that every tool \
                  reads the same text"
            .to_owned(),
    }
}

fn parse_text(text: &str, options: &ParseOptions) -> Parsed {
    // A parser bug must not stop the run.
    catch_unwind(AssertUnwindSafe(|| parse_file(text, options)))
        .map(Arc::new)
        .map_err(|p| {
            format!(
                "internal error while parsing ({}); the file is skipped",
                panic_message(&p)
            )
        })
}

pub fn panic_message(p: &Box<dyn std::any::Any + Send>) -> String {
    p.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "panic".to_string())
}

/// Every lowered body of the analysed source, with resolution statistics.
#[derive(Default)]
pub struct Lowered {
    pub bodies: ir::Bodies,
    pub stats: ResolveStats,
    /// Bodies whose lowering failed: an internal error, reported and skipped.
    pub internal_errors: Vec<InternalError>,
}

impl Lowered {
    /// Adds the bodies (and the rest) of another lowering after these.
    pub fn append(&mut self, other: Lowered) {
        self.bodies.append(other.bodies);
        self.stats.merge(&other.stats);
        self.internal_errors.extend(other.internal_errors);
    }
}

/// A bug of ours met while handling one declaration.
#[derive(Clone, Debug)]
pub struct InternalError {
    /// Where the failing declaration is.
    pub span: Option<Span>,
    /// Which declaration (`App.Reader`, `<top-level> of Program.cs`).
    pub what: String,
    pub message: String,
}

/// Resolves and lowers every body of every source type (and top-level statements),
/// in parallel. Bodies come out in a deterministic order.
/// Also derives what the bodies state about ownership that the declarations
/// do not (the program's own `leaveOpen` wrappers), into `index.program`,
/// which methods never return (their calls then end like a `throw`), and
/// which methods a type's `Dispose()` delegates to (alternatives to it),
/// which private helpers only constructors call, which fields guard others
/// ([`rlc_core::derive_from_bodies`]); calls of getters that only read a
/// field and of private setters that only store one stand for the load or
/// the store.
pub fn lower_all(index: &mut Index) -> Lowered {
    let mut out = lower_where(index, |_| true);
    rlc_core::getters::inline_field_getters(&index.program, &mut [&mut out.bodies]);
    rlc_core::derive_from_bodies(&mut index.program, &[&out.bodies]);
    rlc_core::setters::inline_storing_setters(&mut index.program, &mut out.bodies);
    rlc_core::never_returns::cut_calls(&index.program, &mut out.bodies);
    rlc_core::never_throws::cut_edges(&index.program, &mut out.bodies);
    out
}

/// The lowering of [`lower_all`] (without the derivation) for the source
/// types with a part in a file `wanted` accepts, and the top-level
/// statements of those files.
pub fn lower_where(index: &Index, wanted: impl Fn(FileId) -> bool + Sync) -> Lowered {
    let types: Vec<TypeId> = (0..index.types.len() as u32)
        .map(TypeId)
        .filter(|t| {
            let data = index.ty(*t);
            data.origin != Origin::Library && data.parts.iter().any(|p| wanted(p.file))
        })
        .collect();
    let results: Vec<(TypeId, Result<crate::lower::LoweredType, String>)> = types
        .par_iter()
        .map(|&t| {
            let r = catch_unwind(AssertUnwindSafe(|| crate::lower::lower_type(index, t)))
                .map_err(|p| panic_message(&p));
            (t, r)
        })
        .collect();
    let top: Vec<(FileId, Result<crate::lower::LoweredType, String>)> = (0..index.files.len()
        as u32)
        .into_par_iter()
        .filter(|f| index.files[*f as usize].syntax.top_level.is_some() && wanted(FileId(*f)))
        .map(|f| {
            let r = catch_unwind(AssertUnwindSafe(|| {
                crate::lower::lower_top_level(index, FileId(f))
            }))
            .map_err(|p| panic_message(&p));
            (FileId(f), r)
        })
        .collect();
    let mut out = Lowered {
        bodies: ir::Bodies::new(),
        stats: ResolveStats::default(),
        internal_errors: Vec::new(),
    };
    // At their final size at once: the bodies stay until the run ends.
    let count = |lt: &Result<crate::lower::LoweredType, String>| {
        lt.as_ref().map_or(0, |lt| lt.bodies.len())
    };
    out.bodies.reserve(
        results.iter().map(|(_, r)| count(r)).sum::<usize>()
            + top.iter().map(|(_, r)| count(r)).sum::<usize>(),
    );
    let absorb = |lt: crate::lower::LoweredType, out: &mut Lowered| {
        out.bodies.append(lt.bodies);
        out.stats.merge(&lt.stats);
    };
    for (t, r) in results {
        match r {
            Ok(lt) => absorb(lt, &mut out),
            Err(message) => out.internal_errors.push(InternalError {
                span: index.program.ty(t).span,
                what: index.ty(t).full_name.clone(),
                message,
            }),
        }
    }
    for (f, r) in top {
        match r {
            Ok(lt) => absorb(lt, &mut out),
            Err(message) => out.internal_errors.push(InternalError {
                span: None,
                what: format!(
                    "top-level statements of {}",
                    index.file(f).source.path.display()
                ),
                message,
            }),
        }
    }
    out
}

/// The loader's view of discovered projects: each with its builds, one per
/// target framework.
pub fn project_specs(ws: &crate::project::Workspace) -> Vec<ProjectSpec> {
    let usings = |usings: &[crate::project::GlobalUsing]| -> Vec<GlobalUsingSpec> {
        usings
            .iter()
            .map(|g| match g {
                crate::project::GlobalUsing::Namespace(n) => GlobalUsingSpec::Namespace(n.clone()),
                crate::project::GlobalUsing::Static(t) => GlobalUsingSpec::Static(t.clone()),
                crate::project::GlobalUsing::Alias { alias, target } => GlobalUsingSpec::Alias {
                    alias: alias.clone(),
                    target: target.clone(),
                },
            })
            .collect()
    };
    ws.projects
        .iter()
        .map(|p| ProjectSpec {
            name: p.name.clone(),
            builds: p
                .builds
                .iter()
                .map(|b| BuildSpec {
                    framework: b.target_framework.clone(),
                    sources: b.sources.clone(),
                    defines: b.defines.clone(),
                    references: b
                        .references
                        .iter()
                        .map(|r| (r.project as u32, r.build as u32))
                        .collect(),
                    global_usings: usings(&b.global_usings),
                    assemblies: b.assemblies.clone(),
                })
                .collect(),
        })
        .collect()
}

struct MetadataStubs {
    /// [`crate::metadata::METADATA_FILE`]`/<the assembly's file name>`.
    path: PathBuf,
    /// Declarations without text.
    syntax: FileSyntax,
}

/// Reads the builds' referenced assemblies (in parallel, each once) and
/// declares the types the sources name, and what those need, one file per
/// assembly; of the types the library model defines, only what the model
/// lacks.
fn referenced_types(
    projects: &[ProjectSpec],
    plan: &frameworks::Plan,
    library: &[FileEntry],
    notes: &mut Vec<LoadNote>,
) -> Vec<MetadataStubs> {
    let mut paths: Vec<&PathBuf> = projects
        .iter()
        .flat_map(|p| &p.builds)
        .flat_map(|b| &b.assemblies)
        .collect();
    let mut seen = FxHashSet::default();
    paths.retain(|p| seen.insert(*p));
    if paths.is_empty() {
        return Vec::new();
    }
    let read: Vec<Result<crate::metadata::Assembly, String>> = paths
        .par_iter()
        .map(|p| {
            let mut file =
                std::fs::File::open(p).map_err(|e| format!("cannot read the assembly: {e}"))?;
            crate::metadata::read(&mut file).map_err(|e| {
                format!("cannot read the assembly's metadata: {e}; its types stay unknown")
            })
        })
        .collect();
    let mut assemblies = Vec::new();
    for (path, result) in paths.iter().zip(read) {
        match result {
            Ok(a) => assemblies.push((*path, a)),
            Err(message) => notes.push(LoadNote {
                rule: RuleId::UnreadableSource,
                path: (*path).clone(),
                file: None,
                range: None,
                message,
            }),
        }
    }
    // Every identifier of the sources: a type or member no source names is
    // not declared (but for members C# calls unnamed).
    let mut names: FxHashSet<&str> = FxHashSet::default();
    for text in plan.texts.iter().flatten() {
        names.extend(
            text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .filter(|w| !w.is_empty()),
        );
    }
    let syntax: Vec<&FileSyntax> = library.iter().map(|f| &*f.syntax).collect();
    let model = crate::metadata::stubs::model_types(&syntax);
    let refs: Vec<&crate::metadata::Assembly> = assemblies.iter().map(|(_, a)| a).collect();
    crate::metadata::stubs::generate(&refs, &|n: &str| names.contains(n), &model)
        .into_iter()
        .map(|(a, syntax)| {
            let name = assemblies[a].0.file_name().unwrap_or_default();
            MetadataStubs {
                path: Path::new(crate::metadata::METADATA_FILE).join(name),
                syntax,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hir::{MemberKind, TypeKind};
    use crate::index::Ty;
    use crate::metadata::stubs::{ModelType, model_types};

    /// A [`ModelType`] as text, its members sorted.
    fn describe(m: &ModelType) -> String {
        let mut values: Vec<&String> = m.values.iter().collect();
        values.sort();
        let mut methods = m.methods.clone();
        methods.sort();
        let (closed, base, params) = (m.closed, m.has_base, &m.type_params);
        format!("closed {closed}, base {base}, {params:?}, {values:?}, {methods:?}")
    }

    /// What the index of the model says of type `t`, as `model_types` reads
    /// it from the syntax: a kind, base and parameter types resolved.
    fn from_index(index: &Index, t: TypeId) -> ModelType {
        fn shape(index: &Index, ty: &Ty) -> String {
            match ty {
                Ty::Named { def, .. } => {
                    let d = index.ty(*def);
                    let outer = d.parent.map_or(0, |p| index.ty(p).arity());
                    match d.arity() - outer {
                        0 => d.name.to_string(),
                        own => format!("{}`{own}", d.name),
                    }
                }
                Ty::Param { .. } => "!".into(),
                Ty::Array { elem, .. } => format!("{}[]", shape(index, elem)),
                _ => "?".into(),
            }
        }
        let data = index.ty(t);
        let mut out = ModelType {
            closed: matches!(data.kind, TypeKind::Enum | TypeKind::Delegate),
            has_base: data
                .base
                .as_ref()
                .is_some_and(|b| b.def() != index.well_known.object),
            type_params: data.type_params.iter().map(|p| p.to_string()).collect(),
            ..ModelType::default()
        };
        // Not the synthesized default constructors.
        let members = data.members.values().flatten().chain(&data.ctors);
        for m in members.map(|&m| index.member(m)) {
            if m.decl.is_none_or(|d| d.index.is_none()) {
                continue;
            }
            let name = match m.kind {
                MemberKind::Field
                | MemberKind::Constant
                | MemberKind::Property
                | MemberKind::Event
                | MemberKind::EnumMember => {
                    out.values.insert(m.name.to_string());
                    continue;
                }
                MemberKind::Constructor => ".ctor".to_string(),
                MemberKind::Indexer => "this[]".to_string(),
                _ => m.name.to_string(),
            };
            let params = m.params.iter().map(|p| shape(index, &p.ty)).collect();
            out.methods.push((name, params));
        }
        out
    }

    /// Reading the model's syntax by simple names gives every type of the
    /// embedded model what its index resolves: a model edit that makes a
    /// simple name ambiguous (a class and an interface of one name and
    /// arity) shows here.
    #[test]
    fn model_types_from_syntax_agree_with_the_models_index() {
        let index = prepare_library(&embedded_library()).index;
        let syntax: Vec<&FileSyntax> = index.files.iter().map(|f| &*f.syntax).collect();
        let read = model_types(&syntax);
        assert_eq!(read.len(), index.types.len());
        for t in (0..index.types.len()).map(|t| TypeId(t as u32)) {
            let key = index.metadata_key(t);
            let read = read.get(&key).map(describe);
            let indexed = describe(&from_index(&index, t));
            assert_eq!(read.as_ref(), Some(&indexed), "{key}");
        }
    }
}
