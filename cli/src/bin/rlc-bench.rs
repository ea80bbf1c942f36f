//! Measures rlc-sharp phase by phase on a repository and prints the numbers with
//! the machine they were taken on:
//!
//!     cargo run --release --bin rlc-bench -- PATH [--threads N] [--no-infer] [--runs N]
//!
//! Runs the same pipeline as `rlc-sharp check`: discovery, read+parse, index
//! (together the front end), resolve+lower, infer and check. For each phase it
//! prints the median time and the process's memory high-water mark (VmHWM)
//! when the phase ended in the first run.
//!
//! The floor is what any tree-sitter tool pays: reading every C# file of the
//! run's inputs once and parsing it with bare tree-sitter-c-sharp (no
//! preprocessing, repairs or HIR). Floor and full check alternate `--runs`
//! times (3 by default) on the same thread pool, and the full check's median
//! wall time is printed as a ratio to the floor's median.
//!
//!     cargo run --release --bin rlc-bench -- --method-curve
//!
//! instead prints the cost of one method by its size: 100 to 5,000 sequential
//! `using var` declarations, and as many locals disposed at the end.
//!
//!     cargo run --release --bin rlc-bench -- SOURCES --metadata DLLS [--threads N] [--runs N]
//!
//! instead measures what reading referenced assemblies costs: it generates
//! two projects in a temporary directory that compile every C# file under
//! SOURCES, one of them also referencing every DLL in DLLS by `HintPath`
//! (`/usr/lib/mono/4.5`: every mono 4.5 assembly), and alternates their full
//! checks `--runs` times: the medians and their ratio.

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rayon::prelude::*;
use rlc_sharp::driver::{PhaseTimings, RunOptions, run_observed};
use rlc_sharp::progress::Progress;

/// As `rlc-sharp` (see its `main.rs`): the check measured is the one shipped.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const USAGE: &str = "usage: rlc-bench PATH [--metadata DLLS] [--threads N] [--no-infer] [--runs N] | --method-curve";

fn main() {
    let mut args = std::env::args().skip(1);
    let mut path = None;
    let mut threads = None;
    let mut infer = true;
    let mut runs = 3usize;
    let mut metadata = None;
    while let Some(a) = args.next() {
        match a.as_str() {
            "--metadata" => metadata = args.next().map(PathBuf::from),
            "--threads" => threads = args.next().and_then(|n| n.parse::<usize>().ok()),
            "--runs" => runs = args.next().and_then(|n| n.parse().ok()).unwrap_or(0),
            "--no-infer" => infer = false,
            "--method-curve" => return method_curve(),
            "-h" | "--help" => {
                println!("{USAGE}");
                return;
            }
            other => path = Some(PathBuf::from(other)),
        }
    }
    let Some(path) = path else {
        eprintln!("{USAGE}");
        std::process::exit(2);
    };
    if runs == 0 {
        eprintln!("--runs needs a positive number\n{USAGE}");
        std::process::exit(2);
    }
    // Floor and check both run on this (global) pool: the same threads.
    if let Some(n) = threads
        && let Err(e) = rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build_global()
    {
        eprintln!("cannot set up {n} threads: {e}");
    }
    print_machine();
    if let Some(dlls) = metadata {
        return metadata_cost(&path, &dlls, runs, infer);
    }
    // As `rlc-sharp check` runs.
    let opts = RunOptions {
        paths: vec![path.clone()],
        infer,
        free_lowered_syntax: true,
        ..Default::default()
    };
    let sources = floor_sources(&opts);
    let mut walls = Vec::new();
    let mut timings = Vec::new();
    let mut floors = Vec::new();
    let mut peaks: Vec<(&str, Option<u64>)> = Vec::new();
    let mut last = None;
    for i in 0..runs {
        // The previous run is dropped first, as if each were its own process.
        drop(last.take());
        floors.push(floor(&sources));
        let t = Instant::now();
        let mut after = |phase| {
            if i == 0 {
                peaks.push((phase, peak_kb()));
            }
        };
        let run = match run_observed(&opts, &mut after, &Progress::hidden()) {
            Ok(run) => run,
            Err(e) => {
                eprintln!("error: {e}");
                std::process::exit(2);
            }
        };
        walls.push(t.elapsed());
        timings.push(run.timings.clone());
        last = Some(run);
    }
    let Some(run) = last else { return };
    let peak_after = |phase: &str| {
        peaks
            .iter()
            .find(|(p, _)| *p == phase)
            .and_then(|(_, kb)| *kb)
    };
    let loaded = &run.loaded;
    let files = loaded.index.files.len();
    let mb = loaded.bytes as f64 / 1e6;
    println!(
        "input          {} ({} projects, {files} files, {mb:.1} MB, {} lines)",
        path.display(),
        run.workspace.projects.len(),
        loaded.lines
    );
    println!("threads        {}", rayon::current_num_threads());
    println!("runs           {runs} (floor and full check alternating; medians)");
    println!("phase              time    peak memory at its end (first run)");
    let t = median_timings(&timings);
    for (name, d) in t.phases() {
        let secs = d.as_secs_f64();
        // Read and parse end inside the loader, with indexing.
        let mem = match name {
            "read + parse" => String::new(),
            _ => mb_text(peak_after(name)),
        };
        let rate = match name {
            "read + parse" => format!(
                "   ({:.0} files/s, {:.1} MB/s)",
                files as f64 / secs.max(1e-9),
                mb / secs.max(1e-9)
            ),
            _ => String::new(),
        };
        println!("{name:<16} {secs:>7.3} s {mem:>10}{rate}");
    }
    let front_end = (t.discovery + t.read_parse + t.index).as_secs_f64();
    println!(
        "front end        {front_end:>7.3} s {:>10}   (discovery + read+parse + index)",
        mb_text(peak_after("index"))
    );
    println!(
        "analysis         {:>7.3} s              (resolve+lower + infer + check)",
        (t.lower + t.infer + t.check).as_secs_f64()
    );
    let total = median(&walls).as_secs_f64();
    println!(
        "full check       {total:>7.3} s {:>10}   (wall clock, with reporting input notes)",
        mb_text(peak_kb())
    );
    let floor_secs = median(&floors).as_secs_f64();
    println!(
        "floor            {floor_secs:>7.3} s              (read + bare tree-sitter parse of {} distinct files)",
        sources.len()
    );
    println!(
        "ratio            {:>7.2} x              (full check / floor)",
        total / floor_secs.max(1e-9)
    );
    println!(
        "front end ratio  {:>7.2} x              (front end / floor)",
        front_end / floor_secs.max(1e-9)
    );
    let stats = &run.lowered.stats;
    println!(
        "calls resolved   {}/{} ({:.1}%)",
        stats.calls_resolved,
        stats.calls,
        100.0 * stats.calls_resolved as f64 / stats.calls.max(1) as f64
    );
    println!("bodies           {}", run.lowered.bodies.len());
    println!("syntax errors    {} files", loaded.syntax_error_files);
    println!("findings         {}", run.diagnostics.len());
}

/// The distinct C# sources of the run's projects, as the loader reads them.
fn floor_sources(opts: &RunOptions) -> Vec<PathBuf> {
    let workspace = match rlc_csharp::project::discover(&opts.paths) {
        Ok(w) => w,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    let mut seen = rustc_hash::FxHashSet::default();
    rlc_csharp::load::project_specs(&workspace)
        .into_iter()
        .flat_map(|p| p.builds)
        .flat_map(|b| b.sources)
        .filter(|s| seen.insert(s.clone()))
        .collect()
}

thread_local! {
    static PARSER: RefCell<Option<tree_sitter::Parser>> = const { RefCell::new(None) };
}

/// Reads and parses every file once with bare tree-sitter-c-sharp, in
/// parallel; each tree is dropped at once, as the front end does.
fn floor(sources: &[PathBuf]) -> Duration {
    let t = Instant::now();
    sources.par_iter().for_each(|path| {
        let Ok(bytes) = std::fs::read(path) else {
            return;
        };
        // tree-sitter reads UTF-8 only: the floor skips the BOM the front end skips.
        let text = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
        PARSER.with(|cell| {
            let mut slot = cell.borrow_mut();
            let parser = slot.get_or_insert_with(|| {
                let mut p = tree_sitter::Parser::new();
                p.set_language(&tree_sitter_c_sharp::LANGUAGE.into())
                    .expect("the grammar matches tree-sitter's ABI");
                p
            });
            drop(parser.parse(text, None));
        });
    });
    t.elapsed()
}

fn median(times: &[Duration]) -> Duration {
    let mut sorted = times.to_vec();
    sorted.sort();
    sorted[sorted.len() / 2]
}

/// Each phase's median over the runs.
fn median_timings(runs: &[PhaseTimings]) -> PhaseTimings {
    let of = |f: fn(&PhaseTimings) -> Duration| median(&runs.iter().map(f).collect::<Vec<_>>());
    PhaseTimings {
        discovery: of(|t| t.discovery),
        read_parse: of(|t| t.read_parse),
        index: of(|t| t.index),
        lower: of(|t| t.lower),
        infer: of(|t| t.infer),
        check: of(|t| t.check),
    }
}

/// `--metadata`: full checks of the sources under `sources` without and
/// with every DLL of `dlls` referenced, alternating; medians and their ratio.
fn metadata_cost(sources: &Path, dlls: &Path, runs: usize, infer: bool) {
    let exit = |message: String| -> ! {
        eprintln!("error: {message}");
        std::process::exit(2);
    };
    let sources = std::path::absolute(sources).unwrap_or_else(|e| exit(e.to_string()));
    let mut references: Vec<PathBuf> = std::fs::read_dir(dlls)
        .unwrap_or_else(|e| exit(format!("{}: {e}", dlls.display())))
        .filter_map(|e| Some(e.ok()?.path()))
        .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("dll")))
        .map(|p| std::path::absolute(&p).unwrap_or(p))
        .collect();
    references.sort();
    let dir = std::env::temp_dir().join(format!("rlc-bench-metadata-{}", std::process::id()));
    // The same project twice: without references, and with a `HintPath` to each DLL.
    let project = |name: &str, refs: &[PathBuf]| -> PathBuf {
        let items: String = refs
            .iter()
            .map(|r| {
                let name = r.file_stem().unwrap_or_default().to_string_lossy();
                format!(
                    "    <Reference Include=\"{name}\" HintPath=\"{}\" />\n",
                    r.display()
                )
            })
            .collect();
        let text = format!(
            "<Project Sdk=\"Microsoft.NET.Sdk\">\n  <PropertyGroup>\n    <TargetFramework>net472</TargetFramework>\n    <EnableDefaultCompileItems>false</EnableDefaultCompileItems>\n  </PropertyGroup>\n  <ItemGroup>\n    <Compile Include=\"{}/**/*.cs\" />\n{items}  </ItemGroup>\n</Project>\n",
            sources.display()
        );
        let file = dir.join(name).join("Bench.csproj");
        std::fs::create_dir_all(dir.join(name))
            .and_then(|()| std::fs::write(&file, text))
            .unwrap_or_else(|e| exit(format!("{}: {e}", file.display())));
        file
    };
    let without = project("without", &[]);
    let with = project("with", &references);
    let opts = |p: &PathBuf| RunOptions {
        paths: vec![p.clone()],
        infer,
        free_lowered_syntax: true,
        ..Default::default()
    };
    let (mut plain, mut read) = (Vec::new(), Vec::new());
    let mut last = None;
    for _ in 0..runs {
        for (project, walls) in [(&without, &mut plain), (&with, &mut read)] {
            drop(last.take());
            let (t, cpu) = (Instant::now(), cpu_time());
            let run = run_observed(&opts(project), &mut |_| {}, &Progress::hidden())
                .unwrap_or_else(|e| exit(e.to_string()));
            let cpu = cpu_time().zip(cpu).map(|(b, a)| b.saturating_sub(a));
            walls.push((t.elapsed(), cpu.unwrap_or_default(), run.diagnostics.len()));
            last = Some(run);
        }
    }
    let Some(run) = last else { return };
    let index = &run.loaded.index;
    let declared = (0..index.types.len() as u32)
        .filter(|&t| {
            matches!(
                index.type_source(rlc_core::program::TypeId(t)),
                rlc_csharp::index::TypeSource::Metadata(_)
            )
        })
        .count();
    type Walls = [(Duration, Duration, usize)];
    let median_of = |walls: &Walls, f: fn(&(Duration, Duration, usize)) -> Duration| {
        median(&walls.iter().map(f).collect::<Vec<_>>()).as_secs_f64()
    };
    let (a, b) = (median_of(&plain, |w| w.0), median_of(&read, |w| w.0));
    let (ca, cb) = (median_of(&plain, |w| w.1), median_of(&read, |w| w.1));
    println!(
        "input          {} ({} files, {:.1} MB, {} lines)",
        sources.display(),
        run.source_files(),
        run.loaded.bytes as f64 / 1e6,
        run.loaded.lines
    );
    println!(
        "assemblies     {} from {} ({declared} types declared from them)",
        references.len(),
        dlls.display()
    );
    println!("threads        {}", rayon::current_num_threads());
    println!("runs           {runs} (without and with alternating; medians)");
    let each = |walls: &Walls| {
        walls
            .iter()
            .map(|w| format!("{:.2}/{:.2}", w.0.as_secs_f64(), w.1.as_secs_f64()))
            .collect::<Vec<_>>()
            .join(", ")
    };
    println!("               wall      cpu (user+system)");
    println!(
        "without        {a:>7.3} s {ca:>7.3} s   ({} findings; wall/cpu of each run: {})",
        plain[0].2,
        each(&plain)
    );
    println!(
        "with           {b:>7.3} s {cb:>7.3} s   ({} findings; wall/cpu of each run: {})",
        read[0].2,
        each(&read)
    );
    println!(
        "ratio          {:>7.3} x {:>7.3} x (with / without)",
        b / a.max(1e-9),
        cb / ca.max(1e-9)
    );
    // Best effort: a leftover in the temporary directory harms nothing.
    let _ = std::fs::remove_dir_all(&dir);
}

/// The statements of a method of N disposables (each opened by the given expression).
type Shape = fn(usize, &str) -> String;

/// The time to lower and check one method of N disposables, by shape: the
/// analysis should grow near-linearly, or stop at its budget with a note.
fn method_curve() {
    print_machine();
    let dir = std::env::temp_dir().join(format!("rlc-bench-curve-{}", std::process::id()));
    let open = "new System.IO.FileStream(\"f\", System.IO.FileMode.Open)";
    let shapes: [(&str, Shape); 2] = [
        ("using var", |n, open| {
            (0..n)
                .map(|i| format!("using var s{i} = {open};\n"))
                .collect()
        }),
        ("var + Dispose() at the end", |n, open| {
            let decls: String = (0..n).map(|i| format!("var s{i} = {open};\n")).collect();
            let calls: String = (0..n).map(|i| format!("s{i}.Dispose();\n")).collect();
            decls + &calls
        }),
    ];
    println!("shape                        N   lower+check   check   budget notes");
    for (name, body) in shapes {
        for n in [100, 500, 1_000, 2_000, 5_000] {
            let file = dir.join(format!("M{n}.cs"));
            let written = std::fs::create_dir_all(&dir).and_then(|()| {
                std::fs::write(
                    &file,
                    format!("class C {{ void M() {{\n{}}} }}\n", body(n, open)),
                )
            });
            if let Err(e) = written {
                eprintln!("cannot write {}: {e}", file.display());
                std::process::exit(2);
            }
            let opts = RunOptions {
                paths: vec![file.clone()],
                infer: true,
                ..Default::default()
            };
            let run = match run_observed(&opts, &mut |_| {}, &Progress::hidden()) {
                Ok(run) => run,
                Err(e) => {
                    eprintln!("error: {e}");
                    std::process::exit(2);
                }
            };
            let t = &run.timings;
            let skipped = run
                .diagnostics
                .iter()
                .filter(|d| d.rule == rlc_core::rules::RuleId::MethodSkipped)
                .count();
            println!(
                "{name:<26} {n:>5} {:>11.3} s {:>5.3} s {skipped:>6}",
                (t.lower + t.infer + t.check).as_secs_f64(),
                t.check.as_secs_f64()
            );
        }
    }
    // Best effort: a leftover in the temporary directory harms nothing.
    let _ = std::fs::remove_dir_all(&dir);
}

fn print_machine() {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    let mem = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .next()
                .map(|l| l.split_whitespace().nth(1).unwrap_or("0").to_string())
        })
        .and_then(|kb| kb.parse::<u64>().ok())
        .map(|kb| format!("{:.1} GiB", kb as f64 / 1024.0 / 1024.0))
        .unwrap_or_else(|| "?".into());
    let cores = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    println!("machine        {cpu}, {cores} cores, {mem} RAM");
}

/// The process's CPU time so far, user and system (Linux only): on a shared
/// machine it varies less than the wall clock with the other jobs' load.
fn cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The fields after the command name, which is in parentheses.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    // In USER_HZ, 100 per second on every Linux ABI.
    Some(Duration::from_millis(ticks * 10))
}

/// The process's memory high-water mark in KB (Linux only).
fn peak_kb() -> Option<u64> {
    std::fs::read_to_string("/proc/self/status")
        .ok()?
        .lines()
        .find(|l| l.starts_with("VmHWM"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

fn mb_text(kb: Option<u64>) -> String {
    kb.map(|kb| format!("{:.0} MB", kb as f64 / 1024.0))
        .unwrap_or_else(|| "?".into())
}
