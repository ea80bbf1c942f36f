//! Discovery on the real repositories under /work/corpus (ignored by default:
//! `cargo test -p rlc-tests --test project_corpus -- --ignored --nocapture`).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Instant;

use rlc_csharp::project::discover;

fn all_cs_files(root: &Path) -> BTreeSet<PathBuf> {
    let mut out = BTreeSet::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "cs") {
                out.insert(path);
            }
        }
    }
    out
}

fn report(input: &str) {
    let input = PathBuf::from(input);
    if !input.exists() {
        eprintln!("{} not present; skipped", input.display());
        return;
    }
    let start = Instant::now();
    let workspace = discover(std::slice::from_ref(&input)).expect("discovery succeeds");
    let elapsed = start.elapsed();
    let sources: BTreeSet<PathBuf> = workspace
        .projects
        .iter()
        .flat_map(|p| p.sources.iter().cloned())
        .collect();
    let on_disk = all_cs_files(&workspace.root);
    println!(
        "{}: {} projects, {} distinct source files ({} on disk), {} notes, {:?}",
        input.display(),
        workspace.projects.len(),
        sources.len(),
        on_disk.len(),
        workspace.notes.len(),
        elapsed
    );
    for note in &workspace.notes {
        println!(
            "  note: {}:{:?}:{:?} [{:?}] {}",
            note.file.display(),
            note.line,
            note.column,
            note.severity,
            note.message
        );
    }
    let missing: Vec<_> = on_disk.difference(&sources).collect();
    println!(
        "  {} .cs files on disk not compiled by any project:",
        missing.len()
    );
    let mut by_dir: std::collections::BTreeMap<PathBuf, usize> = Default::default();
    for file in &missing {
        let rel = file.strip_prefix(&workspace.root).unwrap_or(file);
        let key: PathBuf = rel.components().take(3).collect();
        *by_dir.entry(key).or_default() += 1;
    }
    for (dir, count) in by_dir {
        println!("    {count:5}  {}", dir.display());
    }
    let outside: Vec<_> = sources.difference(&on_disk).collect();
    println!("  {} compiled files outside the root", outside.len());
}

#[test]
#[ignore]
fn corpus_lucenenet() {
    report("/work/corpus/lucenenet/Lucene.Net.sln");
}

#[test]
#[ignore]
fn corpus_efcore() {
    report("/work/corpus/efcore/EFCore.slnx");
}

#[test]
#[ignore]
fn corpus_efcore_directory_and_filter() {
    report("/work/corpus/efcore");
    report("/work/corpus/efcore/EFCore.Sqlite.slnf");
}
