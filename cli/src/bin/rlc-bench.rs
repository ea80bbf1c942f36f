//! Measures rlc-sharp phase by phase on a repository and prints the numbers with
//! the machine they were taken on:
//!
//!     cargo run --release --bin rlc-bench -- PATH [--threads N]
//!
//! Phases: discovery, read+parse, index, resolve+lower, check. Peak memory is the
//! process's high-water mark (VmHWM).

use std::path::PathBuf;
use std::time::Instant;

use rlc_csharp::load::{ProjectSpec, embedded_library, load, lower_all};
use rlc_csharp::project::discover;

fn main() {
    let mut args = std::env::args().skip(1);
    let mut path = None;
    let mut threads = None;
    while let Some(a) = args.next() {
        match a.as_str() {
            "--threads" => threads = args.next().and_then(|n| n.parse::<usize>().ok()),
            "-h" | "--help" => {
                println!("usage: rlc-bench PATH [--threads N]");
                return;
            }
            other => path = Some(PathBuf::from(other)),
        }
    }
    let Some(path) = path else {
        eprintln!("usage: rlc-bench PATH [--threads N]");
        std::process::exit(2);
    };
    if let Some(n) = threads
        && let Err(e) = rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build_global()
    {
        eprintln!("cannot set up {n} threads: {e}");
    }
    print_machine();
    let t = Instant::now();
    let ws = match discover(std::slice::from_ref(&path)) {
        Ok(ws) => ws,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    let discovery = t.elapsed();
    let specs = rlc_sharp_specs(&ws);
    let loaded = load(&specs, &embedded_library());
    let files = loaded.index.files.len();
    let mb = loaded.bytes as f64 / 1e6;
    let t = Instant::now();
    let lowered = lower_all(&loaded.index);
    let lower = t.elapsed();
    let parse = loaded.timings.read_parse.as_secs_f64();
    let index = loaded.timings.index.as_secs_f64();
    let frontend = discovery.as_secs_f64() + parse + index;
    println!(
        "input          {} ({} projects, {files} files, {mb:.1} MB, {} lines)",
        path.display(),
        ws.projects.len(),
        loaded.lines
    );
    println!("threads        {}", rayon::current_num_threads());
    println!("discovery      {:>8.3} s", discovery.as_secs_f64());
    println!(
        "read+parse     {:>8.3} s   {:>8.0} files/s   {:>6.1} MB/s",
        parse,
        files as f64 / parse.max(1e-9),
        mb / parse.max(1e-9)
    );
    println!("index          {:>8.3} s", index);
    println!(
        "front end      {:>8.3} s   (discovery + read+parse + index)",
        frontend
    );
    println!(
        "resolve+lower  {:>8.3} s   {} bodies",
        lower.as_secs_f64(),
        lowered.bodies.len()
    );
    println!(
        "calls resolved {}/{} ({:.1}%)",
        lowered.stats.calls_resolved,
        lowered.stats.calls,
        100.0 * lowered.stats.calls_resolved as f64 / lowered.stats.calls.max(1) as f64
    );
    println!("syntax errors  {} files", loaded.syntax_error_files);
    println!("peak memory    {}", peak_rss());
}

/// Projects as the loader takes them.
fn rlc_sharp_specs(ws: &rlc_csharp::project::Workspace) -> Vec<ProjectSpec> {
    rlc_csharp::load::project_specs(ws)
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

fn peak_rss() -> String {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<u64>().ok())
        })
        .map(|kb| format!("{:.0} MB", kb as f64 / 1024.0))
        .unwrap_or_else(|| "unknown (no /proc/self/status)".into())
}
