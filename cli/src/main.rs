//! rlc-sharp: a resource-leak checker for C# projects.

use rlc_sharp::driver;

fn main() {
    // Argument parsing and rendering are being written; this entry point runs the
    // pipeline on the given paths and prints one line per finding.
    let paths: Vec<std::path::PathBuf> = std::env::args().skip(2).map(Into::into).collect();
    let opts = driver::RunOptions {
        paths,
        ..Default::default()
    };
    match driver::run(&opts) {
        Ok(run) => {
            for d in &run.diagnostics {
                let (path, text) = run.file(d.primary.span.file).unwrap_or((std::path::Path::new("?"), ""));
                let line = rlc_csharp::source::LineIndex::new(text).line_col(text, d.primary.span.start);
                println!("{}:{}:{}: {}[{}] {}", path.display(), line.line, line.col, d.severity.as_str(), d.rule, d.message);
            }
            std::process::exit(i32::from(run.diagnostics.iter().any(|d| d.severity == rlc_core::diagnostics::Severity::Error)));
        }
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    }
}
