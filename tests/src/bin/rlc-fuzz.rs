//! A long fuzz campaign (see `rlc_tests::fuzz`):
//!
//!     cargo run --release -p rlc-tests --bin rlc-fuzz -- TARGET [--seed N]
//!         [--executions N] [--minutes M] [--limit-secs S] [--threads N]
//!
//! TARGET is `source` or `project`. Prints the work directory (a crash that
//! kills the process leaves its input in `input/` there, the directory
//! each input is written to and evaluated in), then the executions, the time,
//! the coverage (features by family; each feature with the execution that
//! first reached it is written to `coverage.txt` there) and each failure;
//! exits 1 if any input failed.
//!
//! The work directory is made in `/dev/shm` when there is one: every
//! execution rewrites its input file, which on a disk file system is written
//! back each time, and project evaluation lists every directory above it
//! (`Directory.Build.props` in any letter case), which in a busy `/tmp` is
//! slow. `TMPDIR` chooses another place.
//!
//! The campaign runs on one thread of its own thread pool (`--threads`
//! gives more): an execution is too small to share between cores, and from
//! outside a pool every parallel step of the pipeline would wake a worker
//! and wait for it, a tenth of a small input's execution in futex calls.
//! Run one process per core to use several.

use std::time::Duration;

use rlc_tests::fuzz::{Target, campaign};

/// The allocator `rlc-sharp` runs with: glibc's, shared with tree-sitter's
/// many small blocks, spent a fifth of each execution in malloc and free.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let mut args = std::env::args().skip(1);
    let mut target = None;
    let mut seed = 1;
    let mut executions = u64::MAX;
    let mut minutes = 10.0;
    let mut limit = 10.0;
    let mut threads = 1;
    while let Some(a) = args.next() {
        let mut number = |what: &str| -> f64 {
            match args.next().and_then(|n| n.parse::<f64>().ok()) {
                Some(n) if n >= 0.0 => n,
                _ => usage(&format!("{what} needs a number")),
            }
        };
        match a.as_str() {
            "source" => target = Some(Target::Source),
            "project" => target = Some(Target::Project),
            "--seed" => seed = number("--seed") as u64,
            "--executions" => executions = number("--executions") as u64,
            "--minutes" => minutes = number("--minutes"),
            "--limit-secs" => limit = number("--limit-secs"),
            "--threads" => threads = (number("--threads") as usize).max(1),
            other => usage(&format!("unknown argument `{other}`")),
        }
    }
    let Some(target) = target else {
        usage("name a target: source or project")
    };
    let parent = match std::env::var_os("TMPDIR") {
        Some(dir) => std::path::PathBuf::from(dir),
        None if std::path::Path::new("/dev/shm").is_dir() => "/dev/shm".into(),
        None => std::env::temp_dir(),
    };
    let dir = match tempfile::Builder::new()
        .prefix("rlc-fuzz-")
        .tempdir_in(&parent)
    {
        Ok(d) => d.keep(),
        Err(e) => usage(&format!("cannot create a work directory: {e}")),
    };
    println!("work directory {}", dir.display());
    let pool = match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool,
        Err(e) => usage(&format!("cannot start {threads} threads: {e}")),
    };
    let report = pool.install(|| {
        campaign(
            target,
            seed,
            executions,
            Duration::from_secs_f64(minutes * 60.0),
            Duration::from_secs_f64(limit),
            &dir,
        )
    });
    let secs = report.elapsed.as_secs_f64();
    println!(
        "target {} seed {seed}: {} executions in {secs:.1} s ({:.0}/s), {} failures",
        target.name(),
        report.executions,
        report.executions as f64 / secs.max(1e-9),
        report.failures.len()
    );
    let coverage = &report.coverage;
    let families: Vec<String> = coverage
        .by_family()
        .iter()
        .map(|(family, n)| format!("{family} {n}"))
        .collect();
    println!(
        "coverage: {} features ({}); {} inputs kept for reaching a new one",
        coverage.features.len(),
        families.join(", "),
        report.kept
    );
    println!(
        "slowest execution {:.3} s ({} bytes)",
        report.slowest.0.as_secs_f64(),
        report.slowest.1
    );
    let listing: String = coverage
        .features
        .iter()
        .map(|(feature, first)| format!("{feature}\t{first}\n"))
        .collect();
    if let Err(e) = std::fs::write(dir.join("coverage.txt"), listing) {
        eprintln!("cannot write coverage.txt: {e}");
    }
    for (path, failure) in &report.failures {
        println!("{}: {failure:?}", path.display());
    }
    if !report.failures.is_empty() {
        std::process::exit(1);
    }
}

fn usage(message: &str) -> ! {
    eprintln!("error: {message}");
    eprintln!(
        "usage: rlc-fuzz source|project [--seed N] [--executions N] [--minutes M] [--limit-secs S] [--threads N]"
    );
    std::process::exit(2);
}
