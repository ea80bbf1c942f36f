//! Parses every `*.cs` file under a directory and reports speed, syntax errors
//! and the memory the HIR of the whole corpus takes.
//!
//! cargo run --release -p rlc-csharp --example parse_corpus -- DIR [-j N] [-D SYM]... [--errors]

use std::path::PathBuf;
use std::time::Instant;

use rayon::prelude::*;
use rlc_csharp::hir::FileSyntax;
use rlc_csharp::parse::{ParseOptions, parse_file};
use rlc_csharp::source::{LineIndex, decode};

const MODERN_DEFINES: &[&str] = &[
    "DEBUG",
    "TRACE",
    "NET",
    "NETCOREAPP",
    "NET8_0",
    "NET8_0_OR_GREATER",
    "NET7_0_OR_GREATER",
    "NET6_0_OR_GREATER",
    "NET5_0_OR_GREATER",
    "NETCOREAPP3_1_OR_GREATER",
    "NETCOREAPP3_0_OR_GREATER",
    "NETCOREAPP2_1_OR_GREATER",
    "NETCOREAPP2_0_OR_GREATER",
    "NETSTANDARD2_1_OR_GREATER",
    "NETSTANDARD2_0_OR_GREATER",
];

fn main() {
    let mut dir = None;
    let mut threads = 2;
    let mut defines: Vec<String> = MODERN_DEFINES.iter().map(|s| s.to_string()).collect();
    let mut show_errors = false;
    // Only tree-sitter, for reference: no preprocessor, repairs or HIR.
    let mut bare = false;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "-j" => threads = args.next().and_then(|n| n.parse().ok()).unwrap_or(2),
            "-D" => defines.extend(args.next()),
            "--errors" => show_errors = true,
            "--bare" => bare = true,
            _ => dir = Some(PathBuf::from(arg)),
        }
    }
    let Some(dir) = dir else {
        eprintln!("usage: parse_corpus DIR [-j N] [-D SYMBOL]... [--errors]");
        std::process::exit(2);
    };
    let mut paths: Vec<PathBuf> = ignore::WalkBuilder::new(&dir)
        .standard_filters(false)
        .build()
        .filter_map(Result::ok)
        .map(|e| e.into_path())
        .filter(|p| p.extension().is_some_and(|e| e == "cs") && p.is_file())
        .collect();
    paths.sort();
    let texts: Vec<(PathBuf, String)> = paths
        .into_iter()
        .filter_map(|p| {
            let bytes = std::fs::read(&p).ok()?;
            match decode(&bytes) {
                Ok(text) => Some((p, text)),
                Err(e) => {
                    eprintln!("{}: {e}", p.display());
                    None
                }
            }
        })
        .collect();
    let bytes: usize = texts.iter().map(|(_, t)| t.len()).sum();
    let opts = ParseOptions::with_defines(defines);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("thread pool");
    let rss_before = vm_hwm_kb();
    let cpu_before = cpu_secs();
    let start = Instant::now();
    if bare {
        let errors: usize = pool.install(|| {
            texts
                .par_iter()
                .map(|(_, t)| {
                    let mut parser = tree_sitter::Parser::new();
                    let lang = tree_sitter_c_sharp::LANGUAGE.into();
                    parser.set_language(&lang).expect("grammar");
                    parser
                        .parse(t, None)
                        .is_some_and(|tree| tree.root_node().has_error())
                        as usize
                })
                .sum()
        });
        let elapsed = start.elapsed().as_secs_f64();
        println!(
            "bare tree-sitter: {} files, {errors} with errors, {elapsed:.2} s, cpu {:.2} s",
            texts.len(),
            cpu_secs() - cpu_before
        );
        return;
    }
    let timed: Vec<(FileSyntax, f64)> = pool.install(|| {
        texts
            .par_iter()
            .map(|(_, t)| {
                let start = Instant::now();
                let file = parse_file(t, &opts);
                (file, start.elapsed().as_secs_f64())
            })
            .collect()
    });
    let elapsed = start.elapsed().as_secs_f64();
    let repaired_secs: f64 = timed
        .iter()
        .filter(|(f, _)| !f.repairs.is_empty())
        .map(|(_, s)| s)
        .sum();
    let repaired_bytes: usize = timed
        .iter()
        .zip(&texts)
        .filter(|((f, _), _)| !f.repairs.is_empty())
        .map(|(_, (_, t))| t.len())
        .sum();
    let all_secs: f64 = timed.iter().map(|(_, s)| s).sum();
    let mut slowest: Vec<(f64, &PathBuf, usize)> = timed
        .iter()
        .zip(&texts)
        .map(|((_, secs), (path, text))| (*secs, path, text.len()))
        .collect();
    slowest.sort_by(|a, b| b.0.total_cmp(&a.0));
    let files: Vec<FileSyntax> = timed.into_iter().map(|(f, _)| f).collect();
    let with_errors = files.iter().filter(|f| !f.syntax_errors.is_empty()).count();
    let repaired = files.iter().filter(|f| !f.repairs.is_empty()).count();
    let mb = bytes as f64 / 1e6;
    println!("files:            {}", files.len());
    println!("size:             {mb:.1} MB");
    println!(
        "with errors:      {with_errors} ({:.2}%)",
        100.0 * with_errors as f64 / files.len().max(1) as f64
    );
    println!(
        "repaired:         {repaired} files, {:.1} MB ({:.0}% of the parse time)",
        repaired_bytes as f64 / 1e6,
        100.0 * repaired_secs / all_secs.max(1e-9)
    );
    println!(
        "time ({threads} threads):  {elapsed:.2} s ({:.1} MB/s), cpu {:.2} s",
        mb / elapsed,
        cpu_secs() - cpu_before
    );
    println!(
        "peak RSS:         {} MB (before parsing: {} MB)",
        vm_hwm_kb() / 1024,
        rss_before / 1024
    );
    let mut kinds = std::collections::BTreeMap::<&str, usize>::new();
    for r in files.iter().flat_map(|f| &f.repairs) {
        *kinds.entry(r.kind).or_default() += 1;
    }
    for (kind, n) in kinds {
        println!("  repair {kind}: {n}");
    }
    for (secs, path, len) in slowest.iter().take(5) {
        println!("  slow: {secs:.3} s {} ({} KB)", path.display(), len / 1024);
    }
    if show_errors {
        for ((path, text), file) in texts.iter().zip(&files) {
            let lines = LineIndex::new(text);
            for e in &file.syntax_errors {
                let lc = lines.line_col(text, e.range.start);
                let line_start = lines.line_start(lc.line as usize - 1) as usize;
                let line = text[line_start..].lines().next().unwrap_or("");
                println!(
                    "{}:{}:{}: {}\n    | {}",
                    path.display(),
                    lc.line,
                    lc.col,
                    e.message,
                    line.trim()
                );
            }
        }
    }
    drop(files);
}

/// User + system CPU time of this process (from /proc/self/stat, in clock ticks of 10 ms).
fn cpu_secs() -> f64 {
    std::fs::read_to_string("/proc/self/stat")
        .ok()
        .and_then(|s| {
            let fields: Vec<&str> = s.rsplit(')').next()?.split_whitespace().collect();
            let utime: f64 = fields.get(11)?.parse().ok()?;
            let stime: f64 = fields.get(12)?.parse().ok()?;
            Some((utime + stime) / 100.0)
        })
        .unwrap_or(0.0)
}

fn vm_hwm_kb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}
