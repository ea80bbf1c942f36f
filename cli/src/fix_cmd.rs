//! `rlc-sharp fix`: mechanical fixes of the findings, proposed as a patch
//! (or applied in place), each one checked before it is offered.
//!
//! The findings `check` reports (after suppressions and levels) are turned
//! into requests for the front end's [`rlc_csharp::fix`] planner, with what
//! the analysis knows about the types involved. The planned edits are then
//! verified by checking the edited sources again in memory (the unedited
//! files keep their parse): a fix is kept only if its finding is gone, no
//! new finding appears and the file has no more syntax errors than before.
//! Fixes that fail are dropped and the rest is checked again, until a round
//! passes; what is offered is exactly what the last round checked.

use std::collections::{BTreeMap, BTreeSet};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};
use rlc_core::CheckOptions;
use rlc_core::FileId;
use rlc_core::ir::{Stmt, VarKind};
use rlc_core::must_call::MustCallTypes;
use rlc_core::program::{DeclaredIn, Program, TypeId, TypeKind};
use rlc_core::rules::{Diagnostic, RuleId, rule};
use rlc_csharp::annotate;
use rlc_csharp::fix::{
    Context, DisposalMethod, FieldRequest, FileFixer, FixOptions, LeakRequest, OverwriteRequest,
    Request, TypeFacts, enclosing_member, syntax_error_count,
};
use rlc_csharp::hir::TextRange;
use rlc_csharp::index::Origin;
use rlc_csharp::project::{Build, GlobalUsing, Project};
use rustc_hash::FxHashMap;

use crate::args::{ColorChoice, FixArgs};
use crate::config::Config;
use crate::driver::{self, CheckRun, RunOptions};
use crate::exit::{self, Outcome};
use crate::progress::{Audience, Progress};
use crate::render::relative_name;

/// The rules `fix` has fixes for.
const FIXABLE: [RuleId; 4] = [
    RuleId::ResourceLeak,
    RuleId::ResourceLeakOnException,
    RuleId::OwningFieldNotDisposed,
    RuleId::ResourceOverwritten,
];

/// After this many rounds a failure drops every fix of its file, so that the
/// rounds end soon.
const FINE_ROUNDS: usize = 3;

fn fail(message: &str) -> ExitCode {
    eprintln!("error: {message}");
    exit::code(Outcome::Failed)
}

/// One fix to make, for one finding and its copies (a file compiled into
/// several projects is reported once per project).
struct Candidate {
    /// The findings it fixes; the first one the fix is planned from.
    findings: Vec<Diagnostic>,
    path: PathBuf,
    request: Request,
    /// Why it has no fix, once it has none.
    failed: Option<String>,
    /// What the fix does, once planned.
    summary: String,
}

/// A file with fixes.
struct FileState {
    path: PathBuf,
    /// As on disk, a byte-order mark kept as U+FEFF.
    original: String,
    /// Without the byte-order mark: what the analysis read.
    text: String,
    options: FixOptions,
    /// The locals the analysis typed: name, where it is declared, type.
    locals: Vec<(String, TextRange, TypeFacts)>,
    syntax_errors: usize,
    raw_syntax_errors: usize,
}

impl Context for FileState {
    fn local(&self, name: &str, declaration: TextRange) -> Option<TypeFacts> {
        self.locals
            .iter()
            .find(|(n, at, _)| n == name && declaration.contains(at.start))
            .map(|(.., t)| *t)
    }
}

/// A finding as the verification compares it.
struct Seen {
    path: Option<PathBuf>,
    group: String,
    start: u32,
}

pub fn run(args: FixArgs, color: ColorChoice) -> ExitCode {
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
    let rules = match selected_rules(&args.rule) {
        Ok(r) => r,
        Err(e) => return fail(&e),
    };
    let only = match PathFilter::new(&args.only) {
        Ok(f) => f,
        Err(e) => return fail(&e),
    };
    let mut check = CheckOptions::default();
    if let Some(model) = config.exception_model {
        check.exception_model = model;
    }
    check.method_budget = config.method_budget;
    let opts = RunOptions {
        paths: vec![path],
        check,
        extra_library: config.library.iter().map(|l| l.library_text()).collect(),
        infer: config.infer.unwrap_or(true),
        exclude: config.exclude.clone(),
        framework: None,
        // Each edit is verified by a re-check, which lowers again.
        free_lowered_syntax: false,
    };
    let started = std::time::Instant::now();
    let progress = Progress::new(Audience::current(args.quiet));
    let run = driver::run_observed(&opts, &mut |_| {}, &progress);
    progress.finish();
    let run = match run {
        Ok(run) => run,
        Err(e) => return fail(&e.to_string()),
    };
    let root =
        std::path::absolute(&run.workspace.root).unwrap_or_else(|_| run.workspace.root.clone());
    let findings = driver::kept_findings(&run, &config).kept;
    // `test-code = "off"` drops test code's findings as a suppression would.
    let test_code_off = config.test_code == Some(crate::findings::TestCode::Off);
    let selected: Vec<Diagnostic> = findings
        .into_iter()
        .filter(|d| rules.contains(&d.rule))
        .filter(|d| !(test_code_off && crate::findings::in_test_code(&run, d.primary.span.file)))
        .filter(|d| {
            run.file(d.primary.span.file)
                .is_some_and(|(p, _)| only.matches(p))
        })
        .collect();
    let mut fixes = Fixes::prepare(&run, selected);
    let before: Vec<Seen> = seen(&run);
    let checked_in = started.elapsed();
    let (rounds, final_texts) = fixes.verify(run, &opts, &before);
    let changed: Vec<(PathBuf, String, String)> = final_texts
        .into_iter()
        .filter_map(|(path, text)| {
            let state = fixes.files.get(&path)?;
            let bom = if state.original.starts_with('\u{feff}') {
                "\u{feff}"
            } else {
                ""
            };
            let new = format!("{bom}{text}");
            (new != state.original).then(|| (state.path.clone(), state.original.clone(), new))
        })
        .collect();
    if !args.quiet {
        eprint!(
            "{}",
            fixes.report(&root, args.verbose, rounds, checked_in, started.elapsed())
        );
    }
    let repo_root = annotate::repository_root(&root);
    if args.apply {
        if !args.allow_dirty
            && let Err(e) = ensure_clean(repo_root.as_deref(), &changed)
        {
            return fail(&e);
        }
        return match annotate::apply_changes(&changed, &[]) {
            Ok(()) => {
                if !args.quiet {
                    eprintln!("edited {} files", changed.len());
                }
                exit::code(Outcome::Done)
            }
            Err(e) => fail(&e.to_string()),
        };
    }
    let patch = annotate::unified_diff(repo_root.as_deref().unwrap_or(&root), &changed, &[]);
    let written = match &args.output {
        Some(p) => annotate::write_atomically(p, &patch)
            .map_err(|e| format!("cannot write `{}`: {e}", p.display())),
        None => {
            use std::io::Write;
            let mut out = std::io::stdout().lock();
            out.write_all(patch.as_bytes())
                .and_then(|()| out.flush())
                .map_err(|e| format!("cannot write the patch: {e}"))
        }
    };
    match written {
        Ok(()) => exit::code(Outcome::Done),
        Err(e) => fail(&e),
    }
}

/// As `cargo fix`: edit only where version control can undo the edits.
fn ensure_clean(
    repo_root: Option<&Path>,
    changed: &[(PathBuf, String, String)],
) -> Result<(), String> {
    let Some(repo_root) = repo_root else {
        return Err("the sources are not in a git repository, so the edits could not be undone; pass --allow-dirty to edit anyway".into());
    };
    let paths: Vec<PathBuf> = changed.iter().map(|(p, ..)| p.clone()).collect();
    match annotate::dirty_files(repo_root, &paths) {
        Ok(dirty) if !dirty.is_empty() => {
            let names: Vec<String> = dirty.iter().map(|p| relative_name(repo_root, p)).collect();
            Err(format!(
                "these files have uncommitted changes: {}; commit or stash them, or pass --allow-dirty",
                names.join(", ")
            ))
        }
        Ok(_) => Ok(()),
        Err(e) => Err(format!("{e}; pass --allow-dirty to edit anyway")),
    }
}

fn selected_rules(written: &[String]) -> Result<Vec<RuleId>, String> {
    if written.is_empty() {
        return Ok(FIXABLE.to_vec());
    }
    written
        .iter()
        .map(|w| {
            let r = rule(w.trim()).ok_or_else(|| {
                format!("no rule is called `{w}`; `rlc-sharp explain` lists every rule")
            })?;
            if FIXABLE.contains(&r.id) {
                Ok(r.id)
            } else {
                Err(format!(
                    "`rlc-sharp fix` has no fixes for {} ({}); it fixes {}",
                    r.code,
                    r.name,
                    FIXABLE.map(|id| id.code()).join(", ")
                ))
            }
        })
        .collect()
}

/// `--only` globs, relative to the current directory; a glob matching a
/// directory matches the files below it.
struct PathFilter {
    base: PathBuf,
    globs: Option<GlobSet>,
}

impl PathFilter {
    fn new(globs: &[String]) -> Result<PathFilter, String> {
        let base = std::env::current_dir().map_err(|e| format!("no current directory: {e}"))?;
        if globs.is_empty() {
            return Ok(PathFilter { base, globs: None });
        }
        let mut set = GlobSetBuilder::new();
        for g in globs {
            let g = g.trim_start_matches("./").trim_end_matches('/');
            set.add(
                GlobBuilder::new(g)
                    .literal_separator(true)
                    .build()
                    .map_err(|e| format!("invalid --only glob `{g}`: {e}"))?,
            );
        }
        let globs = set.build().map_err(|e| e.to_string())?;
        Ok(PathFilter {
            base: base.canonicalize().unwrap_or(base),
            globs: Some(globs),
        })
    }

    fn matches(&self, path: &Path) -> bool {
        let Some(globs) = &self.globs else {
            return true;
        };
        let path = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
        path.strip_prefix(&self.base).is_ok_and(|rel| {
            rel.ancestors()
                .filter(|p| !p.as_os_str().is_empty())
                .any(|p| globs.is_match(p))
        })
    }
}

/// Every finding of a run, by file, group and position.
fn seen(run: &CheckRun) -> Vec<Seen> {
    run.diagnostics
        .iter()
        .map(|d| Seen {
            path: path_of(run, d.primary.span.file),
            group: group(&d.fingerprint).to_owned(),
            start: d.primary.span.start,
        })
        .collect()
}

/// Per file: its fixer and the candidates it applied, with their order in it.
type Fixers = BTreeMap<PathBuf, (FileFixer, Vec<(usize, usize)>)>;

fn path_of(run: &CheckRun, file: FileId) -> Option<PathBuf> {
    run.file(file).map(|(p, _)| p.to_path_buf())
}

/// A fingerprint without its occurrence number: findings of one rule, member
/// and resource, which a fix elsewhere in the member may renumber.
fn group(fingerprint: &str) -> &str {
    match fingerprint.rsplit_once(':') {
        Some((head, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => head,
        _ => fingerprint,
    }
}

struct Fixes {
    candidates: Vec<Candidate>,
    files: BTreeMap<PathBuf, FileState>,
    /// Findings that got no request, with why.
    skipped: Vec<(Diagnostic, String)>,
}

impl Fixes {
    /// Turns the findings into requests, with the analysis' facts.
    fn prepare(run: &CheckRun, selected: Vec<Diagnostic>) -> Fixes {
        let program = run
            .inference
            .as_ref()
            .map(|i| &i.program)
            .unwrap_or(&run.loaded.index.program);
        let must_call = MustCallTypes::compute(program);
        let mut fixes = Fixes {
            candidates: Vec::new(),
            files: BTreeMap::new(),
            skipped: Vec::new(),
        };
        for d in selected {
            let request = match d.rule {
                RuleId::ResourceLeak | RuleId::ResourceLeakOnException => {
                    leak_request(run, program, &d)
                }
                RuleId::OwningFieldNotDisposed => field_request(program, &must_call, &d),
                RuleId::ResourceOverwritten => overwrite_request(run, program, &must_call, &d),
                _ => Err("no fix for this rule".into()),
            };
            let (file, request) = match request {
                Ok(r) => r,
                Err(why) => {
                    fixes.skipped.push((d, why));
                    continue;
                }
            };
            let Some(path) = path_of(run, file) else {
                fixes.skipped.push((d, "the file is not a source".into()));
                continue;
            };
            if !fixes.files.contains_key(&path) {
                match file_state(run, program, file) {
                    Ok(state) => {
                        fixes.files.insert(path.clone(), state);
                    }
                    Err(why) => {
                        fixes.skipped.push((d, why));
                        continue;
                    }
                }
            }
            // A copy of a finding in the same file: the same fix.
            if let Some(c) = fixes
                .candidates
                .iter_mut()
                .find(|c| c.path == path && c.request == request)
            {
                c.findings.push(d);
                continue;
            }
            fixes.candidates.push(Candidate {
                findings: vec![d],
                path,
                request,
                failed: None,
                summary: String::new(),
            });
        }
        fixes
    }

    /// Plans every remaining fix and checks the result, dropping failures,
    /// until a round passes. Returns the number of rounds and the texts the
    /// last round checked (files with fixes).
    fn verify(
        &mut self,
        mut run: CheckRun,
        opts: &RunOptions,
        before: &[Seen],
    ) -> (usize, BTreeMap<PathBuf, String>) {
        let mut before_groups: FxHashMap<&str, usize> = FxHashMap::default();
        for s in before {
            *before_groups.entry(s.group.as_str()).or_default() += 1;
        }
        // The text each file had in the last analysis.
        let mut analysed: BTreeMap<PathBuf, String> = self
            .files
            .iter()
            .map(|(p, s)| (p.clone(), s.text.clone()))
            .collect();
        let mut rounds = 0;
        loop {
            let (texts, fixers) = self.plan_all();
            let mut changed: FxHashMap<PathBuf, String> = FxHashMap::default();
            for (path, state) in &self.files {
                let text = texts.get(path).unwrap_or(&state.text);
                if analysed.get(path) != Some(text) {
                    changed.insert(path.clone(), text.clone());
                    analysed.insert(path.clone(), text.clone());
                }
            }
            let active: Vec<usize> = (0..self.candidates.len())
                .filter(|&i| self.candidates[i].failed.is_none())
                .collect();
            if changed.is_empty() && rounds > 0 {
                return (rounds, texts);
            }
            if active.is_empty() {
                return (rounds, BTreeMap::new());
            }
            rounds += 1;
            run = driver::recheck(run, opts, &changed);
            let blamed = self.blame(&run, before, &before_groups, &texts, &fixers, rounds);
            if blamed.is_empty() {
                return (rounds, texts);
            }
            for (i, why) in blamed {
                if self.candidates[i].failed.is_none() {
                    self.candidates[i].failed = Some(why);
                }
            }
        }
    }

    /// Plans the remaining fixes, file by file: the fixed texts, and the
    /// fixers (to map positions), with each candidate's index in its fixer.
    fn plan_all(&mut self) -> (BTreeMap<PathBuf, String>, Fixers) {
        let mut texts = BTreeMap::new();
        let mut fixers = BTreeMap::new();
        for (path, state) in &self.files {
            let mut fixer = FileFixer::new(&state.text);
            let mut applied = Vec::new();
            for (i, c) in self.candidates.iter_mut().enumerate() {
                if c.path != *path || c.failed.is_some() {
                    continue;
                }
                match fixer.fix(&c.request, state, &state.options) {
                    Ok(summary) => {
                        c.summary = summary;
                        applied.push((i, applied.len()));
                    }
                    Err(why) => c.failed = Some(why.to_string()),
                }
            }
            if !applied.is_empty() {
                texts.insert(path.clone(), fixer.text().to_owned());
            }
            fixers.insert(path.clone(), (fixer, applied));
        }
        (texts, fixers)
    }

    /// The fixes the re-check blames for a finding that stayed, a new
    /// finding or a syntax error, with why.
    fn blame(
        &self,
        run: &CheckRun,
        before: &[Seen],
        before_groups: &FxHashMap<&str, usize>,
        texts: &BTreeMap<PathBuf, String>,
        fixers: &Fixers,
        round: usize,
    ) -> Vec<(usize, String)> {
        let mut blamed: Vec<(usize, String)> = Vec::new();
        let applied_in = |path: Option<&PathBuf>| {
            path.and_then(|p| fixers.get(p))
                .map(|(_, a)| a.as_slice())
                .unwrap_or_default()
        };
        // Members the fixes edited, in the texts as checked.
        let member_of = |path: &PathBuf, k: usize| -> Option<TextRange> {
            let (fixer, _) = fixers.get(path)?;
            enclosing_member(texts.get(path)?, fixer.touched(k)?)
        };
        // Syntax errors, in any project's copy of a file.
        let mut errors: FxHashMap<&Path, usize> = FxHashMap::default();
        for f in &run.index().files {
            let n = errors.entry(f.source.path.as_path()).or_default();
            *n = (*n).max(f.syntax.syntax_errors.len());
        }
        for (path, state) in &self.files {
            let Some(text) = texts.get(path) else {
                continue;
            };
            let raw_worse = state.raw_syntax_errors == 0 && syntax_error_count(text) > 0;
            if errors.get(path.as_path()).copied().unwrap_or(0) > state.syntax_errors || raw_worse {
                for &(i, _) in applied_in(Some(path)) {
                    blamed.push((i, "the edited file does not parse".into()));
                }
            }
        }
        // Findings after the edits, by group.
        let mut after: BTreeMap<&str, Vec<&Diagnostic>> = BTreeMap::new();
        for d in &run.diagnostics {
            after.entry(group(&d.fingerprint)).or_default().push(d);
        }
        let mut targeted: FxHashMap<&str, Vec<usize>> = FxHashMap::default();
        for (_, applied) in fixers.values() {
            for &(i, _) in applied {
                for d in &self.candidates[i].findings {
                    targeted.entry(group(&d.fingerprint)).or_default().push(i);
                }
            }
        }
        for (g, found) in &after {
            let allowed = before_groups
                .get(g)
                .copied()
                .unwrap_or(0)
                .saturating_sub(targeted.get(g).map_or(0, Vec::len));
            if found.len() <= allowed {
                continue;
            }
            let mut explained = 0;
            // A fix whose finding is still there.
            for &i in targeted.get(g).map(Vec::as_slice).unwrap_or_default() {
                let c = &self.candidates[i];
                let Some((fixer, _)) = fixers.get(&c.path) else {
                    continue;
                };
                for target in &c.findings {
                    let span = target.primary.span;
                    let at = fixer.map_range(TextRange::new(span.start, span.end));
                    if found.iter().any(|d| {
                        path_of(run, d.primary.span.file).as_ref() == Some(&c.path)
                            && at.is_some_and(|a| a.start == d.primary.span.start)
                    }) {
                        blamed.push((i, "the finding is still reported after the edit".into()));
                        explained += 1;
                    }
                }
            }
            if found.len() <= allowed + explained {
                continue;
            }
            // New findings: not at the place of a finding of the group before.
            for d in found {
                let path = path_of(run, d.primary.span.file);
                let old = before.iter().any(|s| {
                    s.group == *g
                        && s.path == path
                        && path.as_ref().and_then(|p| fixers.get(p)).map_or(
                            Some(s.start),
                            |(fx, _)| {
                                fx.map_range(TextRange::new(s.start, s.start))
                                    .map(|r| r.start)
                            },
                        ) == Some(d.primary.span.start)
                });
                if old {
                    continue;
                }
                let why = format!("the edit makes rlc-sharp report {} ({})", d.rule, d.message);
                let mut culprits: Vec<usize> = Vec::new();
                let places =
                    std::iter::once(d.primary.span).chain(d.facts.iter().filter_map(|f| {
                        match f.provenance {
                            rlc_core::program::Provenance::Inferred { evidence, .. } => {
                                Some(evidence)
                            }
                            _ => None,
                        }
                    }));
                for span in places {
                    let Some(p) = path_of(run, span.file) else {
                        continue;
                    };
                    for &(i, k) in applied_in(Some(&p)) {
                        if member_of(&p, k).is_some_and(|m| m.contains(span.start))
                            && !culprits.contains(&i)
                        {
                            culprits.push(i);
                        }
                    }
                }
                if culprits.is_empty() || round > FINE_ROUNDS {
                    culprits.extend(applied_in(path.as_ref()).iter().map(|&(i, _)| i));
                }
                if culprits.is_empty() {
                    // Nothing in its file changed: any fix may have caused it.
                    culprits.extend(targeted.values().flatten().copied());
                }
                blamed.extend(culprits.into_iter().map(|i| (i, why.clone())));
            }
        }
        blamed
    }

    /// The summary for standard error.
    fn report(
        &self,
        root: &Path,
        verbose: bool,
        rounds: usize,
        checked_in: std::time::Duration,
        total: std::time::Duration,
    ) -> String {
        let name = |d: &Diagnostic,
                    path: Option<&PathBuf>,
                    files: &BTreeMap<PathBuf, FileState>|
         -> String {
            path.and_then(|p| files.get(p))
                .map(|s| {
                    let line = s.text[..(d.primary.span.start as usize).min(s.text.len())]
                        .matches('\n')
                        .count()
                        + 1;
                    format!("{}:{line}", relative_name(root, &s.path))
                })
                .unwrap_or_else(|| d.fingerprint.clone())
        };
        let mut fixed: BTreeMap<&str, usize> = BTreeMap::new();
        let mut total_by_rule: BTreeMap<&str, usize> = BTreeMap::new();
        let mut reasons: BTreeMap<String, usize> = BTreeMap::new();
        let mut out = String::new();
        let mut unfixed = Vec::new();
        for c in &self.candidates {
            for d in &c.findings {
                *total_by_rule.entry(d.rule.code()).or_default() += 1;
                match &c.failed {
                    None => *fixed.entry(d.rule.code()).or_default() += 1,
                    Some(why) => {
                        *reasons.entry(why.clone()).or_default() += 1;
                        unfixed.push((name(d, Some(&c.path), &self.files), d.rule, why.clone()));
                    }
                }
            }
        }
        for (d, why) in &self.skipped {
            *total_by_rule.entry(d.rule.code()).or_default() += 1;
            *reasons.entry(why.clone()).or_default() += 1;
            unfixed.push((name(d, None, &self.files), d.rule, why.clone()));
        }
        let verified: usize = fixed.values().sum();
        let findings: usize = total_by_rule.values().sum();
        out.push_str(&format!(
            "{verified} of {findings} findings fixed, each fix verified ({rounds} re-check rounds; {:.1} s to check, {:.1} s in all)\n",
            checked_in.as_secs_f64(),
            total.as_secs_f64()
        ));
        for (rule, n) in &total_by_rule {
            out.push_str(&format!(
                "  {rule}: {} of {n}\n",
                fixed.get(rule).copied().unwrap_or(0)
            ));
        }
        if verbose {
            unfixed.sort();
            for (at, rule, why) in &unfixed {
                out.push_str(&format!("  not fixed: {at} {rule}: {why}\n"));
            }
        } else if !reasons.is_empty() {
            let mut by_count: Vec<(&String, &usize)> = reasons.iter().collect();
            by_count.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
            out.push_str("not fixed, because (--verbose lists them):\n");
            for (why, n) in by_count {
                out.push_str(&format!("  {n:>6}  {why}\n"));
            }
        }
        if verbose {
            for c in self.candidates.iter().filter(|c| c.failed.is_none()) {
                let d = &c.findings[0];
                out.push_str(&format!(
                    "  fixed: {} {}: {}\n",
                    name(d, Some(&c.path), &self.files),
                    d.rule,
                    c.summary
                ));
            }
        }
        out
    }
}

/// What the analysis knows about a type: `IDisposable`, `IAsyncDisposable`,
/// value type or `string`.
fn type_facts(program: &Program, ty: Option<TypeId>) -> TypeFacts {
    let Some(t) = ty else {
        return TypeFacts::default();
    };
    let Some(def) = program.get_ty(t) else {
        return TypeFacts::default();
    };
    let implements = |target: Option<TypeId>| {
        let Some(target) = target else {
            return false;
        };
        let mut seen: BTreeSet<TypeId> = BTreeSet::new();
        let mut work = vec![t];
        while let Some(x) = work.pop() {
            if x == target {
                return true;
            }
            if seen.insert(x)
                && let Some(d) = program.get_ty(x)
            {
                work.extend(d.supertypes.iter().copied());
            }
        }
        false
    };
    let value_type = matches!(
        def.kind,
        TypeKind::Struct | TypeKind::Enum | TypeKind::RecordStruct
    );
    TypeFacts {
        disposable: implements(program.well_known.disposable),
        async_disposable: implements(program.well_known.async_disposable),
        plain: value_type || def.name == "System.String",
        value_type,
    }
}

fn range(span: rlc_core::Span) -> TextRange {
    TextRange::new(span.start, span.end)
}

/// The lowered statements whose span is exactly `span` (a finding's primary).
fn stmts_at(run: &CheckRun, span: rlc_core::Span) -> impl Iterator<Item = &Stmt> {
    run.lowered
        .bodies
        .iter()
        .filter(move |b| b.span.file == span.file)
        .flat_map(|b| b.nodes.iter())
        .filter(move |n| n.span == span)
        .map(|n| &n.stmt)
}

fn leak_request(
    run: &CheckRun,
    program: &Program,
    d: &Diagnostic,
) -> Result<(FileId, Request), String> {
    let span = d.primary.span;
    let call = stmts_at(run, span)
        .find_map(|stmt| match stmt {
            Stmt::Call(c) => Some(c),
            _ => None,
        })
        .ok_or("the finding is not about a value the code creates or receives from a call")?;
    let ty = call.new_type.or(call.ty.ty);
    // `[CreatesMustCallFor]`: the call gave its receiver a new obligation.
    let receiver = match &call.callee {
        rlc_core::ir::Callee::Method(m) => {
            program
                .get_method(*m)
                .is_some_and(|m| !m.creates_must_call_for.is_empty())
                && d.message.contains("creates a new obligation")
        }
        _ => false,
    };
    Ok((
        span.file,
        Request::Leak(LeakRequest {
            alloc: range(span),
            value: type_facts(program, ty),
            type_name: ty
                .and_then(|t| program.get_ty(t))
                .map(|t| t.short_name().to_owned())
                .unwrap_or_default(),
            exceptional: d.rule == RuleId::ResourceLeakOnException,
            receiver,
        }),
    ))
}

/// The method to call to dispose a value of this type: `Dispose`, else `Close`.
fn disposal_call(
    must_call: &MustCallTypes,
    ty: &rlc_core::program::ValueTy,
) -> Result<String, String> {
    let ob = must_call.of_value(ty).ok_or("its type has no obligation")?;
    ["Dispose", "Close"]
        .into_iter()
        .find(|m| ob.is_satisfied_by(m))
        .map(str::to_owned)
        .ok_or_else(|| "its type is disposed only with DisposeAsync, which needs an await".into())
}

fn field_request(
    program: &Program,
    must_call: &MustCallTypes,
    d: &Diagnostic,
) -> Result<(FileId, Request), String> {
    let span = d.primary.span;
    let field = program
        .fields
        .iter()
        .find(|f| f.span == Some(span))
        .ok_or("the field is not declared in the sources")?;
    let call = disposal_call(must_call, &field.ty)?;
    let owner = program.get_ty(field.owner).ok_or("unknown class")?;
    if owner.declared_in != DeclaredIn::Source {
        return Err("the class is not in the sources".into());
    }
    let methods: Vec<_> = owner
        .methods
        .iter()
        .filter_map(|m| program.get_method(*m))
        .filter(|m| !m.is_static && m.has_body && m.span.is_some())
        .collect();
    let pattern = methods
        .iter()
        .find(|m| m.name == "Dispose" && m.params.len() == 1);
    let class_ob = must_call.of_type(field.owner);
    let method = match (pattern, class_ob) {
        (Some(m), _) => Some((m.span, true)),
        (None, Some(ob)) => {
            let own = methods
                .iter()
                .find(|m| m.params.is_empty() && ob.is_satisfied_by(&m.name) && !m.is_async);
            match own {
                Some(m) => Some((m.span, false)),
                None => {
                    return Err(
                        "the class's disposal method is inherited or async; override it to dispose the field"
                            .into(),
                    );
                }
            }
        }
        (None, None) => None,
    };
    let (file, method) = match method {
        Some((Some(s), flag)) => (
            s.file,
            Some(DisposalMethod {
                name: range(s),
                disposing_flag: flag,
            }),
        ),
        _ => (span.file, None),
    };
    let class = owner
        .decl_spans
        .iter()
        .find(|s| s.file == file)
        .map(|s| range(*s));
    if method.is_none() && !matches!(owner.kind, TypeKind::Class | TypeKind::Record) {
        return Err("the owner is not a class".into());
    }
    Ok((
        file,
        Request::DisposeField(FieldRequest {
            field: range(span),
            name: field.name.clone(),
            call,
            field_type: type_facts(program, field.ty.ty),
            class,
            method,
        }),
    ))
}

fn overwrite_request(
    run: &CheckRun,
    program: &Program,
    must_call: &MustCallTypes,
    d: &Diagnostic,
) -> Result<(FileId, Request), String> {
    let span = d.primary.span;
    let field = stmts_at(run, span)
        .find_map(|stmt| match stmt {
            Stmt::Store {
                field: rlc_core::ir::FieldRef::Known(f),
                ..
            } => Some(*f),
            _ => None,
        })
        .and_then(|f| program.get_field(f))
        .ok_or("the assignment is not to a field of the sources")?;
    let call = disposal_call(must_call, &field.ty)?;
    Ok((
        span.file,
        Request::DisposeBeforeOverwrite(OverwriteRequest {
            store: range(span),
            call,
            field_type: type_facts(program, field.ty.ty),
        }),
    ))
}

/// A file's text and the facts its fixes need.
fn file_state(run: &CheckRun, program: &Program, file: FileId) -> Result<FileState, String> {
    let entry = run
        .index()
        .files
        .get(file.0 as usize)
        .ok_or("the file is not a source")?;
    // The project, and the build its compilation stands for first (whose
    // symbols the file was parsed with).
    let (project, build) = match entry.origin {
        Origin::Project(c) => {
            let compilation = run.loaded.compilations.get(c as usize);
            let project = compilation.and_then(|c| run.workspace.projects.get(c.project as usize));
            let build = compilation
                .and_then(|c| c.builds.first())
                .and_then(|&b| project?.builds.get(b as usize));
            (project, build)
        }
        Origin::Library => return Err("the finding is in the library model".into()),
    };
    let original = annotate::read_source_text(&entry.source.path)
        .map_err(|e| format!("the file cannot be edited: {e}"))?;
    let text = original
        .strip_prefix('\u{feff}')
        .unwrap_or(&original)
        .to_owned();
    if *text != *entry.source.text {
        return Err("the file changed since it was read".into());
    }
    let locals = run
        .lowered
        .bodies
        .iter()
        .filter(|b| b.span.file == file)
        .flat_map(|b| b.vars.iter())
        .filter(|v| v.kind == VarKind::Local && v.span.file == file)
        .map(|v| (v.name.clone(), range(v.span), type_facts(program, v.ty.ty)))
        .collect();
    Ok(FileState {
        path: entry.source.path.clone(),
        raw_syntax_errors: syntax_error_count(&text),
        syntax_errors: entry.syntax.syntax_errors.len(),
        text,
        original,
        options: project
            .map(|p| fix_options(p, build))
            .unwrap_or(FixOptions {
                using_declarations: false,
                ..FixOptions::default()
            }),
        locals,
    })
}

/// The options of fixes in a project's file, parsed with `build`'s symbols.
/// A fix must compile for every target framework: `System` counts as
/// imported only when every build imports it.
fn fix_options(p: &Project, build: Option<&Build>) -> FixOptions {
    let imports_system = |usings: &[GlobalUsing]| {
        usings
            .iter()
            .any(|g| matches!(g, GlobalUsing::Namespace(n) if n == "System"))
    };
    FixOptions {
        using_declarations: csharp_version(p.lang_version.as_deref(), &p.target_frameworks)
            >= (8, 0),
        global_system_using: if p.builds.is_empty() {
            imports_system(&p.global_usings)
        } else {
            p.builds.iter().all(|b| imports_system(&b.global_usings))
        },
        // The symbols the front end parsed the file with.
        defines: build
            .or(p.builds.first())
            .map(|b| b.defines.clone())
            .unwrap_or_else(|| p.defines.clone()),
    }
}

/// The C# version a project compiles with: its `LangVersion`, else the
/// default of its oldest target framework (as the SDK documents: C# 7.3 for
/// .NET Framework and .NET Standard 2.0, 8 for .NET Core 3.x and .NET
/// Standard 2.1, 9 and up for .NET 5 and up).
pub fn csharp_version(lang_version: Option<&str>, frameworks: &[String]) -> (u32, u32) {
    const LATEST: (u32, u32) = (14, 0);
    let explicit = lang_version.map(|v| v.trim().to_ascii_lowercase());
    match explicit.as_deref() {
        Some("latest" | "latestmajor" | "preview") => return LATEST,
        Some("iso-1" | "iso-2") => return (2, 0),
        Some(v) if v != "default" && !v.is_empty() => {
            let mut parts = v.split('.').map(|p| p.parse::<u32>());
            if let Some(Ok(major)) = parts.next() {
                let minor = parts.next().and_then(Result::ok).unwrap_or(0);
                return (major, minor);
            }
        }
        _ => {}
    }
    frameworks
        .iter()
        .map(|tfm| framework_default(tfm))
        .min()
        .unwrap_or((7, 3))
}

fn framework_default(tfm: &str) -> (u32, u32) {
    let tfm = tfm.trim().to_ascii_lowercase();
    let tfm = tfm.split('-').next().unwrap_or("");
    if let Some(v) = tfm.strip_prefix("netcoreapp") {
        return if v.starts_with('3') { (8, 0) } else { (7, 3) };
    }
    if let Some(v) = tfm.strip_prefix("netstandard") {
        return if v.starts_with("2.1") { (8, 0) } else { (7, 3) };
    }
    if let Some(v) = tfm.strip_prefix("net") {
        // net5.0 and later have a dot; net48 and the like do not.
        if let Some((major, _)) = v.split_once('.')
            && let Ok(major) = major.parse::<u32>()
        {
            return (major + 4, 0);
        }
    }
    (7, 3)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn language_versions() {
        let fw = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(csharp_version(Some("7.2"), &fw(&["net8.0"])), (7, 2));
        assert_eq!(csharp_version(Some("latest"), &fw(&["net48"])), (14, 0));
        assert_eq!(csharp_version(Some("10"), &[]), (10, 0));
        assert_eq!(csharp_version(None, &fw(&["net8.0"])), (12, 0));
        assert_eq!(
            csharp_version(Some("default"), &fw(&["net10.0", "netstandard2.0"])),
            (7, 3)
        );
        assert_eq!(csharp_version(None, &fw(&["netcoreapp3.1"])), (8, 0));
        assert_eq!(csharp_version(None, &fw(&["net472"])), (7, 3));
        assert_eq!(csharp_version(None, &fw(&["net6.0-windows"])), (10, 0));
        assert_eq!(csharp_version(None, &[]), (7, 3));
    }

    #[test]
    fn groups_drop_the_occurrence_number() {
        assert_eq!(group("RLC0001:C.M:FileStream:3"), "RLC0001:C.M:FileStream");
        assert_eq!(group("RLC9002:a.csproj:msg"), "RLC9002:a.csproj:msg");
    }

    #[test]
    fn rules_to_fix() {
        assert_eq!(selected_rules(&[]).unwrap(), FIXABLE);
        assert_eq!(
            selected_rules(&["resource-leak".into(), "RLC0004".into()]).unwrap(),
            [RuleId::ResourceLeak, RuleId::ResourceOverwritten]
        );
        assert!(
            selected_rules(&["RLC0006".into()])
                .unwrap_err()
                .contains("no fixes")
        );
        assert!(selected_rules(&["nope".into()]).is_err());
    }
}
