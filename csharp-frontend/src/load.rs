//! Putting the front end together: read and parse every source file once, in
//! parallel, add the library model, build the index, and lower every body.
//! Problems with one file or one type are reported and the rest goes on.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rayon::prelude::*;
use rlc_core::program::TypeId;
use rlc_core::rules::RuleId;
use rlc_core::{FileId, Span, ir};
use rustc_hash::FxHashSet;

use crate::hir::{FileSyntax, TextRange};
use crate::index::{
    FileEntry, GlobalUsingSpec, Index, IndexInput, LibraryTypeFacts, Origin, ProjectInput,
};
use crate::parse::{ParseOptions, parse_file};
use crate::resolve::ResolveStats;
use crate::source::{SourceFile, decode};

/// A project as the loader needs it.
#[derive(Clone, Debug, Default)]
pub struct ProjectSpec {
    pub name: String,
    pub sources: Vec<PathBuf>,
    pub defines: Vec<String>,
    /// Direct references, as indices into the project list.
    pub references: Vec<u32>,
    pub global_usings: Vec<GlobalUsingSpec>,
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
    pub library_facts: rustc_hash::FxHashMap<String, LibraryTypeFacts>,
    pub notes: Vec<LoadNote>,
    pub timings: Timings,
    /// Bytes of C# read (sources only, not the model).
    pub bytes: u64,
    pub lines: u64,
    pub syntax_error_files: u64,
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

fn parse_options(defines: &[String]) -> ParseOptions {
    ParseOptions {
        defines: defines.iter().cloned().collect::<FxHashSet<_>>(),
    }
}

/// Reads, parses and indexes the projects and the library model.
pub fn load(projects: &[ProjectSpec], library: &[LibraryText]) -> Loaded {
    load_observed(projects, library, &|| {})
}

/// [`load`], calling `on_file` (from any thread) as each source is parsed:
/// the CLI's progress line counts files so.
pub fn load_observed(
    projects: &[ProjectSpec],
    library: &[LibraryText],
    on_file: &(dyn Fn() + Sync),
) -> Loaded {
    let start = Instant::now();
    let mut notes = Vec::new();
    // Library model first: its files get the first ids.
    let mut files: Vec<FileEntry> = Vec::new();
    let mut facts = rustc_hash::FxHashMap::<String, LibraryTypeFacts>::default();
    let generated: Vec<(Option<GeneratedLibrary>, Vec<LoadNote>)> =
        library.par_iter().map(generate_library).collect();
    for (g, n) in generated {
        notes.extend(n);
        let Some(g) = g else { continue };
        let id = FileId(files.len() as u32);
        let syntax = parse_file(&g.csharp.text, &ParseOptions::default());
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
            syntax,
            origin: Origin::Library,
        });
    }
    // Sources: every (project, file) once, in parallel.
    let jobs: Vec<(u32, &PathBuf, &[String])> = projects
        .iter()
        .enumerate()
        .flat_map(|(p, spec)| {
            spec.sources
                .iter()
                .map(move |s| (p as u32, s, spec.defines.as_slice()))
        })
        .collect();
    let base = files.len() as u32;
    let parsed: Vec<Result<(SourceFile, FileSyntax, u32), LoadNote>> = jobs
        .par_iter()
        .enumerate()
        .map(|(i, (p, path, defines))| {
            let id = FileId(base + i as u32);
            let parsed = read_and_parse(id, path, defines).map(|(s, f)| (s, f, *p));
            on_file();
            parsed
        })
        .collect();
    let mut bytes = 0u64;
    let mut lines = 0u64;
    let mut syntax_error_files = 0u64;
    for r in parsed {
        match r {
            Ok((source, syntax, project)) => {
                // Ids must be dense: renumber in order.
                let id = FileId(files.len() as u32);
                bytes += source.text.len() as u64;
                lines += source.lines.line_count() as u64;
                if !syntax.syntax_errors.is_empty() {
                    syntax_error_files += 1;
                    if let Some(first) = syntax.syntax_errors.first() {
                        notes.push(LoadNote {
                            rule: RuleId::SyntaxError,
                            path: source.path.clone(),
                            file: Some(id),
                            range: Some(first.range),
                            message: if syntax.syntax_errors.len() > 1 {
                                format!(
                                    "{} (and {} more syntax errors in this file); the methods containing them are not analysed",
                                    first.message,
                                    syntax.syntax_errors.len() - 1
                                )
                            } else {
                                format!("{}; the method containing it is not analysed", first.message)
                            },
                        });
                    }
                }
                notes.extend(syntax.limits.iter().map(|l| LoadNote {
                    rule: RuleId::MethodSkipped,
                    path: source.path.clone(),
                    file: Some(id),
                    range: Some(l.range),
                    message: l.message.clone(),
                }));
                let mut source = source;
                source.id = id;
                files.push(FileEntry {
                    source,
                    syntax,
                    origin: Origin::Project(project),
                });
            }
            Err(note) => notes.push(note),
        }
    }
    let read_parse = start.elapsed();
    let start = Instant::now();
    let input = IndexInput {
        files,
        projects: project_inputs(projects),
        library_facts: facts.clone(),
    };
    let index = crate::index::build(input);
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
        bytes,
        lines,
        syntax_error_files,
    }
}

fn project_inputs(projects: &[ProjectSpec]) -> Vec<ProjectInput> {
    projects
        .iter()
        .map(|p| ProjectInput {
            references: p.references.clone(),
            global_usings: p.global_usings.clone(),
        })
        .collect()
}

/// Loads `previous` again with some sources' texts replaced (`fix` checks its
/// edits this way): the files in `changed` (by path) are parsed from the given
/// text, every other file keeps its parse, and the index is built anew.
pub fn reload(
    previous: Loaded,
    projects: &[ProjectSpec],
    changed: &rustc_hash::FxHashMap<PathBuf, String>,
) -> Loaded {
    let start = Instant::now();
    let Loaded {
        index,
        library_facts,
        mut notes,
        ..
    } = previous;
    let mut files = index.files;
    let defines = |origin: Origin| match origin {
        Origin::Project(p) => projects
            .get(p as usize)
            .map(|p| p.defines.as_slice())
            .unwrap_or_default(),
        Origin::Library => &[],
    };
    let reparsed: Vec<(usize, SourceFile, FileSyntax)> = files
        .par_iter()
        .enumerate()
        .filter_map(|(i, f)| {
            let text = changed.get(&f.source.path)?;
            let opts = parse_options(defines(f.origin));
            let syntax = catch_unwind(AssertUnwindSafe(|| parse_file(text, &opts))).ok()?;
            let source = SourceFile::new(f.source.id, f.source.path.clone(), text.as_str());
            Some((i, source, syntax))
        })
        .collect();
    for (i, source, syntax) in reparsed {
        notes.retain(|n| !(n.rule == RuleId::SyntaxError && n.path == source.path));
        if let Some(first) = syntax.syntax_errors.first() {
            notes.push(LoadNote {
                rule: RuleId::SyntaxError,
                path: source.path.clone(),
                file: Some(source.id),
                range: Some(first.range),
                message: format!(
                    "{}; the method containing it is not analysed",
                    first.message
                ),
            });
        }
        files[i].source = source;
        files[i].syntax = syntax;
    }
    let project_files = files
        .iter()
        .filter(|f| matches!(f.origin, Origin::Project(_)));
    let (bytes, lines, syntax_error_files) = project_files.fold((0u64, 0u64, 0u64), |acc, f| {
        (
            acc.0 + f.source.text.len() as u64,
            acc.1 + f.source.lines.line_count() as u64,
            acc.2 + u64::from(!f.syntax.syntax_errors.is_empty()),
        )
    });
    let read_parse = start.elapsed();
    let start = Instant::now();
    let index = crate::index::build(IndexInput {
        files,
        projects: project_inputs(projects),
        library_facts: library_facts.clone(),
    });
    Loaded {
        index,
        library_facts,
        notes,
        timings: Timings {
            read_parse,
            index: start.elapsed(),
            lower: Duration::ZERO,
        },
        bytes,
        lines,
        syntax_error_files,
    }
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
                },
            ))
        })
    }
}

fn read_and_parse(
    id: FileId,
    path: &Path,
    defines: &[String],
) -> Result<(SourceFile, FileSyntax), LoadNote> {
    let note = |message: String| LoadNote {
        rule: RuleId::UnreadableSource,
        path: path.to_path_buf(),
        file: None,
        range: None,
        message,
    };
    let bytes = crate::source::read_regular(path, crate::source::MAX_SOURCE_LEN)
        .map_err(|e| note(format!("cannot read the file: {e}")))?;
    let text = decode(&bytes).map_err(|e| note(format!("skipped: {e}")))?;
    let opts = parse_options(defines);
    // A parser bug must not stop the run.
    let syntax = catch_unwind(AssertUnwindSafe(|| parse_file(&text, &opts))).map_err(|p| {
        note(format!(
            "internal error while parsing ({}); the file is skipped",
            panic_message(&p)
        ))
    })?;
    let text: Arc<str> = text.into();
    Ok((SourceFile::new(id, path.to_path_buf(), text), syntax))
}

pub fn panic_message(p: &Box<dyn std::any::Any + Send>) -> String {
    p.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "panic".to_string())
}

/// Every lowered body of the analysed source, with resolution statistics.
pub struct Lowered {
    pub bodies: ir::Bodies,
    pub stats: ResolveStats,
    /// Bodies whose lowering failed: an internal error, reported and skipped.
    pub internal_errors: Vec<InternalError>,
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
pub fn lower_all(index: &mut Index) -> Lowered {
    let out = lower_bodies(index);
    // What the bodies state about ownership that the declarations do not.
    rlc_core::ownership::derive_ownership_flags(&mut index.program, &out.bodies);
    out
}

fn lower_bodies(index: &Index) -> Lowered {
    let types: Vec<TypeId> = (0..index.types.len() as u32)
        .map(TypeId)
        .filter(|t| index.ty(*t).origin != Origin::Library)
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
        .filter(|f| index.files[*f as usize].syntax.top_level.is_some())
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

/// The loader's view of discovered projects. Each project is parsed with the
/// symbols of its first target framework, so `#if` branches are chosen consistently.
pub fn project_specs(ws: &crate::project::Workspace) -> Vec<ProjectSpec> {
    ws.projects
        .iter()
        .map(|p| ProjectSpec {
            name: p.name.clone(),
            sources: p.sources.clone(),
            defines: p
                .frameworks
                .first()
                .map(|f| f.defines.clone())
                .unwrap_or_else(|| p.defines.clone()),
            references: p.references.iter().map(|&r| r as u32).collect(),
            global_usings: p
                .global_usings
                .iter()
                .map(|g| match g {
                    crate::project::GlobalUsing::Namespace(n) => {
                        GlobalUsingSpec::Namespace(n.clone())
                    }
                    crate::project::GlobalUsing::Static(t) => GlobalUsingSpec::Static(t.clone()),
                    crate::project::GlobalUsing::Alias { alias, target } => {
                        GlobalUsingSpec::Alias {
                            alias: alias.clone(),
                            target: target.clone(),
                        }
                    }
                })
                .collect(),
        })
        .collect()
}
