//! A stable mutation fuzzer for the whole pipeline (no nightly toolchain or
//! instrumentation needed): inputs from the samples, the case corpus and the
//! MSBuild fixtures are mutated with byte edits, splices, tokens that open
//! nesting, and long repetitions, then run through
//!
//! - [`Target::Source`]: one C# file through decoding, preprocessing, parsing,
//!   HIR, resolution, lowering, inference and checking (`rlc-sharp check`);
//! - [`Target::Project`]: one project file through MSBuild evaluation.
//!
//! A failure is a panic (whether it escapes or the pipeline catches it), an
//! internal error (RLC9004), or an input that takes longer than the time
//! limit. A crash that kills the process (a stack overflow) leaves its input
//! in the work directory, whose path is printed first.
//!
//! Coverage is counted as named features ([`Coverage`]), not as edges (that
//! would need an instrumented build); an input that reaches a new one joins
//! the inputs mutated, so a campaign builds on what reached deeper.

use std::collections::BTreeMap;
use std::collections::hash_map::DefaultHasher;
use std::fmt::Debug;
use std::hash::{Hash, Hasher};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rlc_core::rules::RuleId;
use rlc_csharp::index::Origin;
use rlc_csharp::load::PreparedLibrary;
use rlc_csharp::project::{DiscoverError, Workspace};
use rlc_sharp::driver::{CheckRun, RunOptions, prepare_library, run, run_with_library};

use crate::data_dir;

/// What a campaign runs its inputs through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    Source,
    Project,
}

impl Target {
    pub fn name(self) -> &'static str {
        match self {
            Target::Source => "source",
            Target::Project => "project",
        }
    }

    /// The file name inputs are written to.
    fn file_name(self) -> &'static str {
        match self {
            Target::Source => "Fuzz.cs",
            Target::Project => "Fuzz.csproj",
        }
    }

    /// The seed inputs: real files of the kind the target reads.
    pub fn corpus(self) -> Vec<Vec<u8>> {
        let (dirs, exts): (&[&str], &[&str]) = match self {
            Target::Source => (&["../samples", "cases"], &["cs"]),
            Target::Project => (&["fixtures/projects"], &["csproj", "props", "targets"]),
        };
        let mut paths = Vec::new();
        for dir in dirs {
            files_below(&data_dir(dir), exts, &mut paths);
        }
        paths.sort();
        paths.iter().filter_map(|p| std::fs::read(p).ok()).collect()
    }
}

/// The files below `dir` whose extension is one of `exts`.
fn files_below(dir: &Path, exts: &[&str], out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for path in entries.filter_map(|e| e.ok().map(|e| e.path())) {
        if path.is_dir() {
            files_below(&path, exts, out);
        } else if path
            .extension()
            .is_some_and(|e| exts.iter().any(|x| e == *x))
        {
            out.push(path);
        }
    }
}

/// Pieces that make parsers and evaluators work hardest: openers of nesting,
/// names, preprocessor lines, the C# forms with grammar gaps, MSBuild syntax.
const TOKENS: &[&str] = &[
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    "<",
    ">",
    ".",
    ",",
    ";",
    ":",
    "::",
    "?.",
    "=>",
    "\"",
    "'",
    "$\"",
    "@\"",
    "$\"\"\"",
    "/*",
    "*/",
    "//",
    "\n",
    "\0",
    "\u{feff}",
    "#if A\n",
    "#else\n",
    "#elif B\n",
    "#endif\n",
    "#region\n",
    "#pragma warning disable RLC0001\n",
    "using var x = new A();",
    "using (var y = new B()) ",
    "await using var z = F();",
    "namespace N.M",
    "class C : B.D ",
    "where T : new()",
    "A.B.C.D",
    "async ",
    "await ",
    "yield return ",
    "goto L;",
    "L: ",
    "switch (x) { case 1: ",
    "try { ",
    "} finally { ",
    "} catch (E e) when (f) { ",
    "out var v",
    "ref ",
    "stackalloc int[3]",
    "*(float*)p",
    "is not null",
    "x ??= y",
    "new() { A = ",
    "[Owning] ",
    "[MustCall(\"Close\")] ",
    "delegate ",
    "unsafe ",
    "fixed (",
    "checked(",
    "$(P)",
    "$(P0)$(P0)",
    "@(Compile)",
    "%(Identity)",
    "$([MSBuild]::GetPathOfFileAbove('a', '$(MSBuildThisFileDirectory)'))",
    "<Import Project=\"$(P).props\" />",
    "<Compile Include=\"**/*.cs\" />",
    "<Compile Remove=\"**\" />",
    "<PropertyGroup>",
    "</PropertyGroup>",
    "<ItemGroup>",
    "</ItemGroup>",
    "Condition=\"'$(A)' == 'b'\"",
    "<!DOCTYPE p [<!ENTITY e \"x\">]>",
    "&e;",
    "<![CDATA[",
    "]]>",
    "<ProjectReference Include=\"../x/x.csproj\" />",
];

/// The largest input tried: big enough for deep nesting and long names,
/// small enough to keep executions quick.
const MAX_INPUT: usize = 256 << 10;

/// A mutation of `input`: one to four edits, some of them with material from
/// `corpus`.
pub fn mutate(rng: &mut fastrand::Rng, input: &[u8], corpus: &[Vec<u8>]) -> Vec<u8> {
    let mut out = input.to_vec();
    for _ in 0..rng.usize(1..=4) {
        let len = out.len();
        let at = rng.usize(0..=len);
        match rng.u8(0..7) {
            0 if len > 0 => {
                let i = rng.usize(0..len);
                out[i] = rng.u8(..);
            }
            1 if len > 0 => {
                let end = (at + rng.usize(1..=64)).min(len);
                out.drain(at.min(end)..end);
            }
            2 if len > 0 => {
                let start = rng.usize(0..len);
                let end = (start + rng.usize(1..=256)).min(len);
                let chunk = out[start..end].to_vec();
                out.splice(at..at, chunk);
            }
            3 => {
                let token = TOKENS[rng.usize(0..TOKENS.len())].as_bytes();
                out.splice(at..at, token.iter().copied());
            }
            4 if !corpus.is_empty() => {
                let other = &corpus[rng.usize(0..corpus.len())];
                if !other.is_empty() {
                    let start = rng.usize(0..other.len());
                    let end = (start + rng.usize(1..=1024)).min(other.len());
                    let cut = (at + rng.usize(0..=64)).min(len);
                    out.splice(at..cut, other[start..end].iter().copied());
                }
            }
            5 => {
                // Deep nesting, long dotted names, many declarations.
                let token = TOKENS[rng.usize(0..TOKENS.len())].as_bytes();
                let times = [16, 300, 3_000][rng.usize(0..3)];
                let run: Vec<u8> = token.repeat(times);
                out.splice(at..at, run);
            }
            _ => {
                out.truncate(at);
            }
        }
    }
    out.truncate(MAX_INPUT);
    out
}

/// The features a campaign's inputs reached, each with the execution that
/// reached it first. For `source`: the kinds of the input's own HIR
/// (`hir-expr`, `hir-stmt`, `hir-pat`, `hir-type`, `hir-member`), the
/// grammar repairs applied (`repair`), the kinds of IR statements and edges
/// its bodies were lowered to (`ir-stmt`, `ir-succ`, `ir-body`), the
/// inference rules that fired (`infer`) and the rules of what was reported
/// (`rule`, findings and notes alike). For `project`: the kinds of notes
/// evaluation gave (`note`, the message up to its first quoted or
/// input-derived part), the errors (`error`) and how many projects were
/// found (`projects`).
#[derive(Debug, Default)]
pub struct Coverage {
    seen: std::collections::HashSet<u64>,
    pub features: BTreeMap<String, u64>,
}

impl Coverage {
    /// Counts the variant of `value` (an enum) under `family`; its name is
    /// only worked out the first time. True if it is new.
    fn variant<T: Debug>(&mut self, family: &str, value: &T, execution: u64) -> bool {
        let mut h = DefaultHasher::new();
        family.hash(&mut h);
        std::mem::discriminant(value).hash(&mut h);
        if !self.seen.insert(h.finish()) {
            return false;
        }
        let debug = format!("{value:?}");
        let name: String = debug
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        self.named(family, &name, execution)
    }

    /// Counts `family:name`. True if it is new.
    fn named(&mut self, family: &str, name: &str, execution: u64) -> bool {
        let key = format!("{family}:{name}");
        if self.features.contains_key(&key) {
            return false;
        }
        self.features.insert(key, execution);
        true
    }

    /// How many features of each family were reached.
    pub fn by_family(&self) -> BTreeMap<&str, usize> {
        let mut out = BTreeMap::new();
        for key in self.features.keys() {
            let family = key.split(':').next().unwrap_or(key);
            *out.entry(family).or_default() += 1;
        }
        out
    }

    /// What a source run reached. True if anything is new.
    fn source(&mut self, run: &CheckRun, execution: u64) -> bool {
        let mut new = false;
        for file in &run.loaded.index.files {
            if file.origin == Origin::Library {
                continue;
            }
            let syntax = &file.syntax;
            for body in &syntax.bodies {
                for e in &body.exprs {
                    new |= self.variant("hir-expr", e, execution);
                }
                for st in &body.stmts {
                    new |= self.variant("hir-stmt", st, execution);
                }
                for p in &body.pats {
                    new |= self.variant("hir-pat", p, execution);
                }
            }
            for t in &syntax.types {
                new |= self.variant("hir-type", &t.kind, execution);
                for m in &t.members {
                    new |= self.variant("hir-member", &m.kind, execution);
                }
            }
            for r in &syntax.repairs {
                new |= self.named("repair", r.kind, execution);
            }
        }
        for body in &run.lowered.bodies {
            new |= self.variant("ir-body", &body.kind, execution);
            for node in &body.nodes {
                new |= self.variant("ir-stmt", &node.stmt, execution);
                new |= self.variant("ir-succ", &node.succ, execution);
            }
        }
        for spec in run.inference.iter().flat_map(|i| &i.specs) {
            new |= self.variant("infer", &spec.rule, execution);
        }
        for d in &run.diagnostics {
            new |= self.named("rule", d.rule.code(), execution);
        }
        new
    }

    /// What a project evaluation reached. True if anything is new.
    fn project(&mut self, found: &Result<Workspace, DiscoverError>, execution: u64) -> bool {
        let workspace = match found {
            Ok(w) => w,
            Err(e) => return self.variant("error", e, execution),
        };
        let mut new = self.named(
            "projects",
            &workspace.projects.len().min(3).to_string(),
            execution,
        );
        for note in &workspace.notes {
            // Quotes, paths and numbers hold parts of the input.
            let kind: String = note
                .message
                .chars()
                .take_while(|c| {
                    !matches!(c, '`' | '\'' | '"' | '/' | ':' | '(') && !c.is_ascii_digit()
                })
                .take(60)
                .collect();
            new |= self.named("note", kind.trim(), execution);
        }
        new
    }
}

/// Messages of the panics since the last [`take_panics`], from any thread.
/// The pipeline catches some panics itself (a parser panic skips the file
/// with a note): each one is still a failure of the input.
static PANICS: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());

/// Records every panic in [`PANICS`], then reports it as before.
fn count_panics() {
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let payload = info.payload();
            let what = payload
                .downcast_ref::<&str>()
                .copied()
                .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
                .unwrap_or("panic");
            let message = match info.location() {
                Some(at) => format!("{what} at {}:{}", at.file(), at.line()),
                None => what.to_owned(),
            };
            PANICS
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .push(message);
            previous(info);
        }));
    });
}

fn take_panics() -> Vec<String> {
    std::mem::take(&mut *PANICS.lock().unwrap_or_else(|p| p.into_inner()))
}

/// Why an input failed.
#[derive(Debug)]
pub enum Failure {
    Panic(String),
    InternalError(String),
    Slow(Duration),
}

/// How many entries one wildcard's walk visits in a `project` execution
/// (the product's bound is a million, for real repositories): an input
/// naming `/**/*.cs` would otherwise list the whole file system for seconds,
/// and a cut walk is still evaluated (and noted) the same way.
const WALK_ENTRIES: usize = 10_000;

/// The options a source execution runs with.
fn source_options(file: PathBuf) -> RunOptions {
    RunOptions {
        paths: vec![file],
        infer: true,
        ..Default::default()
    }
}

/// What a campaign prepares once: the library model, parsed and indexed,
/// which every source execution would otherwise build again. An execution
/// extends the model's index; the next one takes back what it added
/// ([`PreparedLibrary::reclaim`]), since copying and freeing the model's
/// index would cost as much as the rest of a small input's run.
pub struct Prepared {
    library: Option<PreparedLibrary>,
    /// The model as the last execution left it, taken back.
    spare: Option<PreparedLibrary>,
}

impl Prepared {
    pub fn new(target: Target) -> Prepared {
        Prepared {
            library: (target == Target::Source)
                .then(|| prepare_library(&source_options(PathBuf::new()))),
            spare: None,
        }
    }
}

/// Runs one input through `target`, in `dir` (the input is left there;
/// nothing else should be, since a project's default items walk it),
/// adding what it reached to `coverage` as execution `execution`. Ok(true)
/// when that was anything new.
pub fn run_one(
    target: Target,
    prepared: &mut Prepared,
    dir: &Path,
    input: &[u8],
    limit: Duration,
    coverage: &mut Coverage,
    execution: u64,
) -> Result<bool, Failure> {
    let file = dir.join(target.file_name());
    if let Err(e) = std::fs::write(&file, input) {
        return Err(Failure::Panic(format!(
            "cannot write {}: {e}",
            file.display()
        )));
    }
    count_panics();
    take_panics();
    let start = Instant::now();
    let mut new = false;
    let result = catch_unwind(AssertUnwindSafe(|| match target {
        Target::Source => {
            let opts = source_options(file.clone());
            // A run that panicked left no spare: the model is copied again.
            let library = prepared.spare.take().or_else(|| prepared.library.clone());
            let run = match library {
                Some(library) => run_with_library(&opts, library),
                None => run(&opts),
            };
            // A usage error (such as an unreadable input) is an answer, not a failure.
            run.ok().and_then(|r| {
                let error = r
                    .diagnostics
                    .iter()
                    .find(|d| d.rule == RuleId::InternalError)
                    .map(|d| d.message.clone());
                new = coverage.source(&r, execution);
                if let Some(library) = &prepared.library {
                    prepared.spare = library.reclaim(r.into_index());
                }
                error
            })
        }
        Target::Project => {
            let found = rlc_csharp::project::discover_with_walk_bound(
                std::slice::from_ref(&file),
                WALK_ENTRIES,
            );
            new = coverage.project(&found, execution);
            None
        }
    }));
    let elapsed = start.elapsed();
    let caught = take_panics();
    match result {
        Err(p) => Err(Failure::Panic(rlc_csharp::load::panic_message(&p))),
        // A panic the pipeline caught and turned into a note.
        Ok(_) if !caught.is_empty() => Err(Failure::Panic(caught.join("; "))),
        Ok(Some(message)) => Err(Failure::InternalError(message)),
        Ok(None) if elapsed > limit => Err(Failure::Slow(elapsed)),
        Ok(None) => Ok(new),
    }
}

/// What a campaign did.
#[derive(Debug, Default)]
pub struct Report {
    pub executions: u64,
    pub elapsed: Duration,
    /// The slowest execution that did not fail, and its input's length.
    pub slowest: (Duration, usize),
    pub coverage: Coverage,
    /// Inputs kept because they reached a new feature.
    pub kept: usize,
    /// Each failing input (saved under the work directory) and why.
    pub failures: Vec<(PathBuf, Failure)>,
}

/// The most inputs a campaign adds to its seeds.
const MAX_KEPT: usize = 2_000;

/// Runs mutated inputs from a fixed seed until `executions` or `time` is
/// reached, whichever comes first. Failing inputs are saved in `dir`; each
/// input is written to `dir/input/`, which holds nothing else (a project's
/// default items walk its directory, and `dir` gathers failures).
pub fn campaign(
    target: Target,
    seed: u64,
    executions: u64,
    time: Duration,
    limit: Duration,
    dir: &Path,
) -> Report {
    let mut corpus = target.corpus();
    let seeds = corpus.len();
    let work = dir.join("input");
    if let Err(e) = std::fs::create_dir_all(&work) {
        let mut report = Report::default();
        report
            .failures
            .push((work, Failure::Panic(format!("cannot create: {e}"))));
        return report;
    }
    let mut prepared = Prepared::new(target);
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut report = Report::default();
    let start = Instant::now();
    while report.executions < executions && start.elapsed() < time {
        let base: &[u8] = if corpus.is_empty() {
            &[]
        } else {
            &corpus[rng.usize(0..corpus.len())]
        };
        let input = mutate(&mut rng, base, &corpus);
        report.executions += 1;
        let t = Instant::now();
        let result = run_one(
            target,
            &mut prepared,
            &work,
            &input,
            limit,
            &mut report.coverage,
            report.executions,
        );
        match result {
            Ok(new) => {
                let time = t.elapsed();
                if time > report.slowest.0 {
                    report.slowest = (time, input.len());
                }
                // Bounded: the features are finite, but a note kind can
                // still carry some of the input.
                if new && corpus.len() < seeds + MAX_KEPT {
                    corpus.push(input);
                    report.kept += 1;
                }
            }
            Err(failure) => {
                let saved = dir.join(format!("failure-{}-{}", target.name(), report.executions));
                // Keep the input even if saving fails: it is also in the work file.
                let _ = std::fs::write(&saved, &input);
                report.failures.push((saved, failure));
            }
        }
    }
    report.elapsed = start.elapsed();
    report
}
