//! `rlc-sharp infer`: run inference and propose the inferred specifications as
//! attributes — a unified diff (default), one patch per project, edits in place,
//! a CI check, or JSON with the evidence for each.

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use rlc_core::infer::{InferredSpec, SpecTarget};
use rlc_core::program::{DeclaredIn, Program};
use rlc_core::{FileId, Span};
use rlc_csharp::annotate::{
    self, AnnotateOptions, Annotation, AnnotationTarget, FileEdits, annotate_files,
    definitions_for, unified_diff,
};
use rlc_csharp::hir::TextRange;
use rlc_csharp::index::Origin as IndexOrigin;
use serde_json::json;

use crate::args::{ColorChoice, InferArgs, InferFormat};
use crate::config::Config;
use crate::driver::{self, CheckRun, RunOptions};
use crate::exit::{self, Outcome};
use crate::render::relative_name;

fn fail(message: &str) -> ExitCode {
    eprintln!("error: {message}");
    exit::code(Outcome::Failed)
}

/// Where a spec goes in the source, if it is on a source declaration.
pub fn annotation_of(program: &Program, spec: &InferredSpec) -> Option<(FileId, Annotation)> {
    let source_type = |t| {
        program
            .get_ty(t)
            .is_some_and(|d| d.declared_in == DeclaredIn::Source)
    };
    let range = |s: Span| TextRange::new(s.start, s.end);
    let (span, target) = match &spec.target {
        SpecTarget::Type(t) => {
            let s = *program.get_ty(*t)?.decl_spans.first()?;
            (s, AnnotationTarget::Type { name: range(s) })
        }
        SpecTarget::Method(m) => {
            let md = program.get_method(*m)?;
            source_type(md.owner).then_some(())?;
            let s = md.span?;
            (s, AnnotationTarget::Member { name: range(s) })
        }
        SpecTarget::Return(m) => {
            let md = program.get_method(*m)?;
            source_type(md.owner).then_some(())?;
            let s = md.span?;
            (
                s,
                AnnotationTarget::Return {
                    member_name: range(s),
                },
            )
        }
        SpecTarget::Param(m, i) => {
            let md = program.get_method(*m)?;
            source_type(md.owner).then_some(())?;
            let s = md.params.get(*i as usize)?.span?;
            (s, AnnotationTarget::Parameter { range: range(s) })
        }
        SpecTarget::Field(f) => {
            let fd = program.get_field(*f)?;
            source_type(fd.owner).then_some(())?;
            let s = fd.span?;
            (s, AnnotationTarget::Member { name: range(s) })
        }
    };
    if let SpecTarget::Type(t) = spec.target {
        source_type(t).then_some(())?;
    }
    Some((
        span.file,
        Annotation {
            target,
            attribute: rlc_csharp::annotate::csharp_attribute(&spec.attr),
        },
    ))
}

/// The project a file belongs to (the first, for linked files).
fn project_of(run: &CheckRun, file: FileId) -> Option<usize> {
    run.loaded.project_of(file).map(|p| p as usize)
}

/// Whether a project (or one it references) declares the attribute types.
fn has_definitions(run: &CheckRun, project: usize) -> bool {
    let index = run.index();
    // Its first compilation sees what all its builds see of these.
    let Some(compilation) = run
        .loaded
        .compilations
        .iter()
        .position(|c| c.project as usize == project)
    else {
        return false;
    };
    let from = IndexOrigin::Project(compilation as u32);
    index.types.iter().any(|t| {
        t.name == "OwningAttribute"
            && matches!(t.origin, IndexOrigin::Project(_) if index.is_visible(from, t.origin))
    })
}

/// Whether a project's sources use the attribute namespace that `infer`
/// imports (`using RlcSharp.Annotations;`, also as a `global using` or a
/// `<Using>` item), and it does not take the attributes from a package.
fn uses_annotations(run: &CheckRun, project: usize) -> bool {
    let Some(p) = run.workspace.projects.get(project) else {
        return false;
    };
    let namespace = annotate::ANNOTATIONS_NAMESPACE;
    let from_package = p
        .path
        .as_deref()
        .and_then(|csproj| std::fs::read_to_string(csproj).ok())
        .is_some_and(|text| {
            text.split("<PackageReference").skip(1).any(|rest| {
                rest.split('>')
                    .next()
                    .is_some_and(|e| e.contains(namespace))
            })
        });
    if from_package {
        return false;
    }
    let using = format!("using {namespace};");
    p.global_usings
        .iter()
        .any(|u| matches!(u, rlc_csharp::project::GlobalUsing::Namespace(n) if n == namespace))
        || run
            .index()
            .files
            .iter()
            .enumerate()
            .filter(|(i, _)| project_of(run, FileId(*i as u32)) == Some(project))
            .any(|(_, f)| f.source.text.contains(&using))
}

/// An attribute definitions file that is empty or cut short (a prefix of the
/// one `infer` writes): safe to write again.
fn is_incomplete_definitions(text: &str) -> bool {
    let text = text.trim_start_matches('\u{feff}').replace("\r\n", "\n");
    text.trim().is_empty()
        || (rlc_attributes::ANNOTATIONS_CS
            .replace("\r\n", "\n")
            .starts_with(&text)
            && text.len() < rlc_attributes::ANNOTATIONS_CS.len())
}

pub fn run(args: InferArgs, color: ColorChoice) -> ExitCode {
    let path = args.path.clone().unwrap_or_else(|| PathBuf::from("."));
    let config = match Config::load(args.config.file.as_deref(), &path) {
        Ok(c) => c,
        Err(e) => {
            eprint!(
                "{}",
                e.render(color.enabled(std::io::stderr().is_terminal()))
            );
            return exit::code(Outcome::Failed);
        }
    };
    let opts = RunOptions {
        paths: vec![path],
        extra_library: config.library.iter().map(|l| l.library_text()).collect(),
        infer: true,
        exclude: config.exclude.clone(),
        ..Default::default()
    };
    let run = match driver::run(&opts) {
        Ok(run) => run,
        Err(e) => return fail(&e.to_string()),
    };
    let Some(inference) = &run.inference else {
        return fail("inference did not run");
    };
    let root =
        std::path::absolute(&run.workspace.root).unwrap_or_else(|_| run.workspace.root.clone());
    if args.format == InferFormat::Json {
        let text = json_report(&run, &inference.specs, inference.rounds, &root);
        return match write_out(args.output.as_deref(), &text) {
            Ok(()) => exit::code(Outcome::Done),
            Err(e) => fail(&e),
        };
    }
    // Annotations per file: a file some target frameworks compile
    // differently is in several compilations, and gets each annotation once.
    let mut per_file: BTreeMap<PathBuf, (FileId, Vec<Annotation>)> = BTreeMap::new();
    for spec in &inference.specs {
        let Some((file, a)) = annotation_of(&inference.program, spec) else {
            continue;
        };
        let Some(entry) = run.index().files.get(file.0 as usize) else {
            continue;
        };
        let (_, annotations) = per_file
            .entry(entry.source.path.clone())
            .or_insert_with(|| (file, Vec::new()));
        if !annotations.contains(&a) {
            annotations.push(a);
        }
    }
    let repo_root = annotate::repository_root(&root);
    let repo = repo_root.clone().unwrap_or_else(|| root.clone());
    let canonical_repo = repo.canonicalize().unwrap_or_else(|_| repo.clone());
    let mut edits = Vec::new();
    let mut read_errors = Vec::new();
    for (path, (file, annotations)) in per_file {
        // Only files of the repository, by their own name: an edit through a
        // symlink would replace the link with a file, and one outside the
        // repository would make the patch fail to apply.
        match path.canonicalize() {
            Ok(real) if real != path => {
                read_errors.push(format!(
                    "{}: a symbolic link (or under one)",
                    path.display()
                ));
                continue;
            }
            Ok(real) if !real.starts_with(&canonical_repo) => {
                read_errors.push(format!(
                    "{}: outside the repository `{}`",
                    path.display(),
                    repo.display()
                ));
                continue;
            }
            _ => {}
        }
        match annotate::read_source_text(&path) {
            Ok(original) => edits.push((
                file,
                FileEdits {
                    path,
                    original,
                    annotations,
                },
            )),
            Err(e) => read_errors.push(format!("{}: {e}", path.display())),
        }
    }
    let options_of: BTreeMap<PathBuf, AnnotateOptions> = edits
        .iter()
        .map(|(file, e)| {
            let options = project_of(&run, *file)
                .and_then(|p| run.workspace.projects.get(p))
                .map(AnnotateOptions::for_project)
                .unwrap_or_default();
            (e.path.clone(), options)
        })
        .collect();
    let files: Vec<FileEdits> = edits.iter().map(|(_, e)| e.clone()).collect();
    let annotated = annotate_files(&files, |f| {
        options_of.get(&f.path).cloned().unwrap_or_default()
    });
    for (path, e) in &annotated.errors {
        eprintln!("warning: {} was not annotated: {e}", path.display());
    }
    for e in &read_errors {
        eprintln!("warning: not annotated: {e}");
    }
    // The attribute definitions for projects that get attributes but lack
    // them, and for projects whose sources use them already without the
    // definitions (an earlier `--apply` stopped before writing them, or they
    // were deleted): a re-run repairs the tree.
    let mut new_files = Vec::new();
    let mut changed = annotated.changed.clone();
    let mut rewritten = Vec::new();
    let mut projects: Vec<usize> = edits
        .iter()
        .filter_map(|(f, _)| project_of(&run, *f))
        .filter(|&p| {
            annotated
                .changed
                .iter()
                .any(|(path, ..)| run.workspace.projects[p].sources.contains(path))
        })
        .chain((0..run.workspace.projects.len()).filter(|&p| uses_annotations(&run, p)))
        .collect();
    projects.sort();
    projects.dedup();
    for p in projects {
        if has_definitions(&run, p) {
            continue;
        }
        match definitions_for(&run.workspace.projects[p], &root) {
            Ok(defs) => {
                new_files.push(defs.file);
                changed.extend(defs.project_file);
            }
            Err(annotate::DefinitionsError::Exists(path)) => {
                match std::fs::read_to_string(&path) {
                    // Empty, or cut short: written again (first, as new files are).
                    Ok(old) if is_incomplete_definitions(&old) => {
                        rewritten.push((path, old, rlc_attributes::ANNOTATIONS_CS.to_owned()));
                    }
                    _ => eprintln!(
                        "warning: {} exists but does not declare the attributes; add the attribute definitions by hand",
                        path.display()
                    ),
                }
            }
            Err(e) => eprintln!("warning: {e}"),
        }
    }
    if !rewritten.is_empty() {
        rewritten.append(&mut changed);
        changed = rewritten;
    }
    if args.apply && !args.allow_dirty {
        // As `cargo fix`: edits in place only where version control can undo them.
        let Some(repo_root) = &repo_root else {
            return fail(
                "the sources are not in a git repository, so the edits could not be undone; pass --allow-dirty to edit anyway",
            );
        };
        let paths: Vec<PathBuf> = changed.iter().map(|(p, ..)| p.clone()).collect();
        // Any change in the tree stops it, not only in the files to edit: the
        // edits are then exactly what `git diff` shows and `git checkout` undoes.
        match annotate::dirty_files(repo_root, &paths) {
            Ok(dirty) if !dirty.is_empty() => {
                let names: Vec<String> = dirty
                    .iter()
                    .take(10)
                    .map(|p| relative_name(repo_root, p))
                    .collect();
                let more = dirty.len().saturating_sub(names.len());
                let more = if more > 0 {
                    format!(" and {more} more")
                } else {
                    String::new()
                };
                return fail(&format!(
                    "the working tree has uncommitted changes: {}{more}; commit or stash them, or pass --allow-dirty",
                    names.join(", ")
                ));
            }
            Ok(_) => {}
            Err(e) => return fail(&format!("{e}; pass --allow-dirty to edit anyway")),
        }
    }
    if args.apply {
        return match annotate::apply_changes(&changed, &new_files) {
            Ok(()) if changed.is_empty() && new_files.is_empty() => {
                eprintln!("nothing to change: the inferred attributes are all in the sources");
                exit::code(Outcome::Done)
            }
            Ok(()) => {
                let files = changed.len() + new_files.len();
                let files = format!("{files} file{}", if files == 1 { "" } else { "s" });
                if inference.specs.is_empty() {
                    // A re-run that only repairs the definitions.
                    eprintln!("wrote the missing attribute definitions; {files} changed");
                } else {
                    eprintln!(
                        "added {} attributes; {files} changed",
                        inference.specs.len()
                    );
                }
                exit::code(Outcome::Done)
            }
            Err(e) => fail(&e.to_string()),
        };
    }
    if let Some(dir) = &args.patch_dir {
        return write_patch_dir(&run, dir, &repo, &changed, &new_files);
    }
    let patch = unified_diff(&repo, &changed, &new_files);
    if let Err(e) = write_out(args.output.as_deref(), &patch) {
        return fail(&e);
    }
    if args.check {
        let would_change = !patch.is_empty();
        if would_change {
            eprintln!("the inferred attributes are not all in the source: apply the patch above");
        }
        return exit::code(Outcome::InferChecked { would_change });
    }
    exit::code(Outcome::Done)
}

fn write_out(output: Option<&Path>, text: &str) -> Result<(), String> {
    match output {
        Some(p) => {
            std::fs::write(p, text).map_err(|e| format!("cannot write `{}`: {e}", p.display()))
        }
        None => {
            use std::io::Write;
            let mut out = std::io::stdout().lock();
            out.write_all(text.as_bytes())
                .and_then(|()| out.flush())
                .map_err(|e| format!("cannot write the patch: {e}"))
        }
    }
}

/// One patch per project into `dir`.
fn write_patch_dir(
    run: &CheckRun,
    dir: &Path,
    repo: &Path,
    changed: &[(PathBuf, String, String)],
    new_files: &[(PathBuf, String)],
) -> ExitCode {
    if let Err(e) = std::fs::create_dir_all(dir) {
        return fail(&format!("cannot create `{}`: {e}", dir.display()));
    }
    let names = annotate::patch_file_names(&run.workspace);
    let paths: Vec<&Path> = changed
        .iter()
        .map(|(p, ..)| p.as_path())
        .chain(new_files.iter().map(|(p, _)| p.as_path()))
        .collect();
    let owners = annotate::project_of_each(&run.workspace, &paths);
    for (p, name) in names.iter().enumerate() {
        let mine = |path: &Path| {
            paths
                .iter()
                .position(|q| *q == path)
                .and_then(|i| owners[i])
                == Some(p)
                || run.workspace.projects[p]
                    .path
                    .as_deref()
                    .is_some_and(|csproj| {
                        csproj == path
                            || path.parent() == csproj.parent()
                                && !owners.iter().any(|o| o.is_some())
                    })
        };
        let c: Vec<_> = changed
            .iter()
            .filter(|(path, ..)| mine(path))
            .cloned()
            .collect();
        let n: Vec<_> = new_files
            .iter()
            .filter(|(path, _)| mine(path))
            .cloned()
            .collect();
        let patch = unified_diff(repo, &c, &n);
        if patch.is_empty() {
            continue;
        }
        let out = dir.join(name);
        if let Err(e) = std::fs::write(&out, patch) {
            return fail(&format!("cannot write `{}`: {e}", out.display()));
        }
        eprintln!("wrote {}", out.display());
    }
    exit::code(Outcome::Done)
}

/// The inferred specs with the rule and evidence of each, and counts per kind.
fn json_report(run: &CheckRun, specs: &[InferredSpec], rounds: u32, root: &Path) -> String {
    let location = |span: Span| -> serde_json::Value {
        match run.file(span.file) {
            Some((path, text)) => {
                let lc = rlc_csharp::source::LineIndex::new(text).line_col(text, span.start);
                json!({"file": relative_name(root, path), "line": lc.line, "column": lc.col})
            }
            None => serde_json::Value::Null,
        }
    };
    let Some(inference) = &run.inference else {
        return String::new();
    };
    let program = &inference.program;
    let mut by_kind: BTreeMap<&str, usize> = BTreeMap::new();
    // A declaration several target frameworks compile is inferred in each.
    let mut seen = std::collections::BTreeSet::new();
    let items: Vec<serde_json::Value> = specs
        .iter()
        .filter_map(|s| {
            let target = annotation_of(program, s).map(|(file, a)| {
                let span = Span::new(file, a.target.range().start, a.target.range().end);
                location(span)
            });
            let attribute = rlc_csharp::annotate::csharp_attribute(&s.attr);
            if let Some(at) = &target
                && !seen.insert((at.to_string(), attribute))
            {
                return None;
            }
            *by_kind.entry(s.attr.kind()).or_default() += 1;
            Some(json!({
                "kind": s.attr.kind(),
                "attribute": format!("[{}{}]", if matches!(s.target, SpecTarget::Return(_)) { "return: " } else { "" }, rlc_csharp::annotate::csharp_attribute(&s.attr)),
                "declaration": declaration_name(program, &s.target),
                "target": target,
                "rule": s.rule.name(),
                "reason": s.rule.reason(),
                "evidence": location(s.evidence),
            }))
        })
        .collect();
    let total = items.len();
    let out = json!({
        "version": 1,
        "specs": items,
        "summary": {"total": total, "by_kind": by_kind, "rounds": rounds},
    });
    let mut text = serde_json::to_string_pretty(&out).unwrap_or_default();
    text.push('\n');
    text
}

/// `App.Reader.Open(path)`, `App.Reader._stream`, `App.Reader`.
pub fn declaration_name(program: &Program, target: &SpecTarget) -> String {
    let method = |m: rlc_core::program::MethodId| {
        program
            .get_method(m)
            .map(|md| {
                format!(
                    "{}.{}",
                    program.type_name(Some(md.owner)),
                    md.property.clone().unwrap_or_else(|| md.name.clone())
                )
            })
            .unwrap_or_default()
    };
    match target {
        SpecTarget::Type(t) => program.type_name(Some(*t)).to_string(),
        SpecTarget::Method(m) | SpecTarget::Return(m) => method(*m),
        SpecTarget::Param(m, i) => {
            let p = program
                .get_method(*m)
                .and_then(|md| md.params.get(*i as usize))
                .map(|p| p.name.clone())
                .unwrap_or_default();
            format!("{}({p})", method(*m))
        }
        SpecTarget::Field(f) => program
            .get_field(*f)
            .map(|fd| format!("{}.{}", program.type_name(Some(fd.owner)), fd.name))
            .unwrap_or_default(),
    }
}
