//! Every target framework of a project, at close to the cost of one.
//!
//! A project's builds (one per target framework) mostly compile the same
//! code. The work is keyed by *units*: a file of a project with one set of
//! active `#if` regions, global usings and referenced projects. Each file is
//! read once; each variant (a file with one set of active regions) is parsed
//! once, whatever the builds and projects that compile it; builds whose units
//! are all the same form one *compilation* in the index; and each unit is
//! analysed (lowered, inferred, checked) only in the first compilation that
//! has it. In later compilations of the project it is declarations only, with
//! the specifications inferred where it was analysed ([`seed`]), and only
//! the declarations its analysed code can reach (`needed`).
//!
//! Every compilation compiles against the build NuGet would pick for its
//! framework in each project it references, as a `--framework` run of that
//! framework does: what a project's calls show about a library's methods
//! (that a method only runs on fresh objects, say) is about that build's
//! code. The first compilations that reference only first compilations are
//! inferred first; the others are inferred together after them.

mod needed;
pub mod seed;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use crate::hir::FileSyntax;
use crate::index::GlobalUsingSpec;
use crate::load::{BuildSpec, ProjectSpec};
use crate::parse::{ParseOptions, has_conditions, inactive_regions};
pub(crate) use needed::needed;

/// Builds of one project whose code is the same: one project of the index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Compilation {
    /// Index into the loaded projects.
    pub project: u32,
    /// The builds it stands for (indices into [`ProjectSpec::builds`]).
    pub builds: Vec<u32>,
    /// Its position among the compilations of its project (0: the first).
    pub level: u32,
}

/// A file of a project with one set of active regions, global usings and
/// referenced projects: what is analysed once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unit {
    pub project: u32,
    /// The builds of the project that compile it, in order.
    pub builds: Vec<u32>,
    /// The compilation that analyses it.
    pub analysed_in: u32,
}

/// What a build compiles, for `--stats`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BuildStats {
    /// The compilation that stands for it; None when it compiles nothing
    /// another compilation does not.
    pub compilation: Option<u32>,
    pub files: u64,
    /// Lines outside the `#if` regions inactive in this build.
    pub lines_active: u64,
}

/// One file of one compilation, in index order.
pub(crate) struct PlannedFile {
    pub compilation: u32,
    pub path: u32,
    pub variant: u32,
    pub unit: u32,
}

/// Byte ranges of a file's inactive `#if` regions, in order.
pub(crate) type Regions = Vec<(u32, u32)>;

/// A file's text, as read once; why not, otherwise.
pub(crate) type Text = Result<Arc<str>, String>;

/// A parsed variant, shared by every compilation that has it.
pub(crate) type Parsed = Result<Arc<FileSyntax>, String>;

/// The work of a load, decided before any parsing.
pub(crate) struct Plan {
    pub paths: Vec<PathBuf>,
    pub texts: Vec<Text>,
    /// Per path: the first byte that is not UTF-8, when the text was read as
    /// Windows-1252 ([`crate::source::SourceText::legacy`]).
    pub legacy: Vec<Option<usize>>,
    /// Per variant: the path and the symbols to parse it with.
    pub variants: Vec<Variant>,
    pub compilations: Vec<Compilation>,
    /// References of each compilation, as compilation indices.
    pub references: Vec<Vec<u32>>,
    pub usings: Vec<Vec<GlobalUsingSpec>>,
    pub units: Vec<Unit>,
    pub files: Vec<PlannedFile>,
    /// The first compilations of the projects, then the others.
    pub stages: Vec<Vec<u32>>,
    /// Per project, per build: its compilation (if kept) and the variants it compiles.
    pub builds: Vec<Vec<PlannedBuild>>,
}

pub(crate) struct PlannedBuild {
    pub compilation: Option<u32>,
    pub variants: Vec<u32>,
}

pub(crate) struct Variant {
    pub path: u32,
    pub options: Arc<ParseOptions>,
    /// The inactive byte ranges, when the file has `#if`s and is compiled
    /// with several sets of symbols (else the parse says how many lines are
    /// inactive).
    pub inactive: Option<Regions>,
}

/// Decides what to read, parse and analyse; reads every file once.
pub(crate) fn plan(
    projects: &[ProjectSpec],
    read: impl Fn(&Path) -> (Text, Option<usize>) + Sync,
) -> Plan {
    // Every file once, in parallel.
    let mut path_ids: FxHashMap<&Path, u32> = FxHashMap::default();
    let mut paths: Vec<PathBuf> = Vec::new();
    for source in projects
        .iter()
        .flat_map(|p| &p.builds)
        .flat_map(|b| &b.sources)
    {
        path_ids.entry(source.as_path()).or_insert_with(|| {
            paths.push(source.clone());
            paths.len() as u32 - 1
        });
    }
    let (texts, legacy): (Vec<Text>, Vec<Option<usize>>) =
        paths.par_iter().map(|p| read(p)).unzip();

    // The distinct sets of symbols, and the sets each file is compiled with.
    let mut symbol_sets: Vec<Arc<ParseOptions>> = Vec::new();
    let mut symbol_ids: FxHashMap<Vec<String>, u32> = FxHashMap::default();
    let mut build_symbols: Vec<Vec<u32>> = Vec::with_capacity(projects.len());
    let mut uses: Vec<Vec<u32>> = vec![Vec::new(); paths.len()];
    for project in projects {
        let mut ids = Vec::with_capacity(project.builds.len());
        for build in &project.builds {
            let mut key = build.defines.clone();
            key.sort();
            key.dedup();
            let id = *symbol_ids.entry(key.clone()).or_insert_with(|| {
                symbol_sets.push(Arc::new(ParseOptions::with_defines(key)));
                symbol_sets.len() as u32 - 1
            });
            for source in &build.sources {
                let used = &mut uses[path_ids[source.as_path()] as usize];
                if !used.contains(&id) {
                    used.push(id);
                }
            }
            ids.push(id);
        }
        build_symbols.push(ids);
    }

    // Variants: a file compiled with one set of symbols, or without `#if`,
    // has one; otherwise sets with the same inactive regions share one.
    let conditional: Vec<bool> = uses
        .par_iter()
        .zip(&texts)
        .map(|(used, text)| used.len() > 1 && text.as_ref().is_ok_and(|t| has_conditions(t)))
        .collect();
    let regions: Vec<((u32, u32), Regions)> = uses
        .iter()
        .enumerate()
        .filter(|(p, _)| conditional[*p])
        .flat_map(|(p, used)| used.iter().map(move |&s| (p as u32, s)))
        .collect::<Vec<_>>()
        .into_par_iter()
        .filter_map(|(p, s)| {
            let text = texts[p as usize].as_ref().ok()?;
            Some(((p, s), inactive_regions(text, &symbol_sets[s as usize])))
        })
        .collect();
    let mut variants: Vec<Variant> = Vec::new();
    let mut variant_of: FxHashMap<(u32, u32), u32> = FxHashMap::default();
    let mut by_regions: FxHashMap<(u32, &Regions), u32> = FxHashMap::default();
    for ((path, symbols), inactive) in &regions {
        let id = *by_regions.entry((*path, inactive)).or_insert_with(|| {
            variants.push(Variant {
                path: *path,
                options: symbol_sets[*symbols as usize].clone(),
                inactive: Some(inactive.clone()),
            });
            variants.len() as u32 - 1
        });
        variant_of.insert((*path, *symbols), id);
    }
    for (path, used) in uses.iter().enumerate() {
        if let (Some(first), false, true) = (used.first(), conditional[path], texts[path].is_ok()) {
            variants.push(Variant {
                path: path as u32,
                options: symbol_sets[*first as usize].clone(),
                inactive: None,
            });
            let id = variants.len() as u32 - 1;
            for &symbols in used {
                variant_of.insert((path as u32, symbols), id);
            }
        }
    }

    // Compilations and units, project by project.
    let mut compilations: Vec<Compilation> = Vec::new();
    let mut units: Vec<Unit> = Vec::new();
    // Per compilation: its files as (path, variant, unit).
    let mut compiled: Vec<Vec<(u32, u32, u32)>> = Vec::new();
    let mut compilation_of_build: Vec<Vec<u32>> = Vec::with_capacity(projects.len());
    let mut variants_of_build: Vec<Vec<Vec<u32>>> = Vec::with_capacity(projects.len());
    for (p, project) in projects.iter().enumerate() {
        let base = compilations.len();
        let mut contexts: Vec<(&[GlobalUsingSpec], Vec<u32>)> = Vec::new();
        let mut unit_ids: FxHashMap<(usize, u32, u32), u32> = FxHashMap::default();
        // Per compilation of this project: its context and files.
        let mut keys: Vec<(usize, Vec<(u32, u32)>)> = Vec::new();
        let mut of_build = Vec::with_capacity(project.builds.len());
        let mut build_variants = Vec::with_capacity(project.builds.len());
        for (b, build) in project.builds.iter().enumerate() {
            let context = context_of(build);
            let ctx = match contexts.iter().position(|c| *c == context) {
                Some(i) => i,
                None => {
                    contexts.push(context);
                    contexts.len() - 1
                }
            };
            let files: Vec<(u32, u32)> = build
                .sources
                .iter()
                .filter_map(|s| {
                    let path = path_ids[s.as_path()];
                    let variant = *variant_of.get(&(path, build_symbols[p][b]))?;
                    Some((path, variant))
                })
                .collect();
            build_variants.push(files.iter().map(|&(_, v)| v).collect::<Vec<u32>>());
            let key = (ctx, files);
            let (local, fresh) = match keys.iter().position(|k| *k == key) {
                Some(i) => (i, false),
                None => {
                    keys.push(key);
                    compilations.push(Compilation {
                        project: p as u32,
                        builds: Vec::new(),
                        level: keys.len() as u32 - 1,
                    });
                    compiled.push(Vec::new());
                    (keys.len() - 1, true)
                }
            };
            let c = (base + local) as u32;
            compilations[c as usize].builds.push(b as u32);
            let (ctx, files) = &keys[local];
            for &(path, variant) in files {
                let unit = *unit_ids.entry((*ctx, path, variant)).or_insert_with(|| {
                    units.push(Unit {
                        project: p as u32,
                        builds: Vec::new(),
                        analysed_in: c,
                    });
                    units.len() as u32 - 1
                });
                units[unit as usize].builds.push(b as u32);
                if fresh {
                    compiled[c as usize].push((path, variant, unit));
                }
            }
            of_build.push(c);
        }
        compilation_of_build.push(of_build);
        variants_of_build.push(build_variants);
    }

    // References: the build NuGet picks, for every compilation. (Not the
    // first compilation of the referenced project for a first compilation:
    // a project that targets only net8.0 would then call into the
    // netstandard2.0 build of a library, and what its calls show about the
    // library's methods would land on the wrong build's code.)
    let references: Vec<Vec<u32>> = compilations
        .iter()
        .map(|c| {
            let project = &projects[c.project as usize];
            let build = &project.builds[c.builds[0] as usize];
            let mut refs: Vec<u32> = build
                .references
                .iter()
                .filter_map(|&(q, qb)| {
                    compilation_of_build
                        .get(q as usize)?
                        .get(qb as usize)
                        .copied()
                })
                .collect();
            refs.sort_unstable();
            refs.dedup();
            refs
        })
        .collect();

    // Keep the first compilations, those that analyse something, and what they reference.
    let mut keep: Vec<bool> = compilations
        .iter()
        .enumerate()
        .map(|(i, c)| c.level == 0 || units.iter().any(|u| u.analysed_in == i as u32))
        .collect();
    let mut stack: Vec<u32> = (0..compilations.len() as u32)
        .filter(|&i| keep[i as usize])
        .collect();
    while let Some(c) = stack.pop() {
        for &r in &references[c as usize] {
            if !keep[r as usize] {
                keep[r as usize] = true;
                stack.push(r);
            }
        }
    }
    let mut renumber: Vec<Option<u32>> = vec![None; compilations.len()];
    let mut next = 0;
    for (i, k) in keep.iter().enumerate() {
        if *k {
            renumber[i] = Some(next);
            next += 1;
        }
    }
    let kept: Vec<usize> = (0..compilations.len()).filter(|&i| keep[i]).collect();
    let new_compilations: Vec<Compilation> =
        kept.iter().map(|&i| compilations[i].clone()).collect();
    let new_references: Vec<Vec<u32>> = kept
        .iter()
        .map(|&i| {
            references[i]
                .iter()
                .filter_map(|&r| renumber[r as usize])
                .collect()
        })
        .collect();
    let usings: Vec<Vec<GlobalUsingSpec>> = kept
        .iter()
        .map(|&i| {
            let c = &compilations[i];
            projects[c.project as usize].builds[c.builds[0] as usize]
                .global_usings
                .clone()
        })
        .collect();
    for unit in &mut units {
        // Compilations that analyse something are kept.
        unit.analysed_in = renumber[unit.analysed_in as usize].unwrap_or(u32::MAX);
    }
    let files: Vec<PlannedFile> = kept
        .iter()
        .enumerate()
        .flat_map(|(new, &old)| {
            compiled[old]
                .iter()
                .map(move |&(path, variant, unit)| PlannedFile {
                    compilation: new as u32,
                    path,
                    variant,
                    unit,
                })
        })
        .collect();
    // The first stage: the first compilations that reference only first
    // compilations (and so on); the rest are inferred after them, together.
    let mut first_stage: Vec<bool> = new_compilations.iter().map(|c| c.level == 0).collect();
    let mut changed = true;
    while changed {
        changed = false;
        for c in 0..new_compilations.len() {
            if first_stage[c] && new_references[c].iter().any(|&r| !first_stage[r as usize]) {
                first_stage[c] = false;
                changed = true;
            }
        }
    }
    let (first, later): (Vec<u32>, Vec<u32>) =
        (0..new_compilations.len() as u32).partition(|&c| first_stage[c as usize]);
    let stages: Vec<Vec<u32>> = [first, later]
        .into_iter()
        .filter(|s| !s.is_empty())
        .collect();
    let builds = compilation_of_build
        .iter()
        .zip(variants_of_build)
        .map(|(compilations, variants)| {
            compilations
                .iter()
                .zip(variants)
                .map(|(&c, variants)| PlannedBuild {
                    compilation: renumber[c as usize],
                    variants,
                })
                .collect()
        })
        .collect();
    Plan {
        paths,
        texts,
        legacy,
        variants,
        compilations: new_compilations,
        references: new_references,
        usings,
        units,
        files,
        stages,
        builds,
    }
}

/// What besides its text decides how a file resolves in a build.
fn context_of(build: &BuildSpec) -> (&[GlobalUsingSpec], Vec<u32>) {
    let mut projects: Vec<u32> = build.references.iter().map(|&(q, _)| q).collect();
    projects.sort_unstable();
    projects.dedup();
    (&build.global_usings, projects)
}

/// Lines of `text` in all of `sets` of inactive regions that are not
/// directives: the code no variant compiles.
pub(crate) fn inactive_in_all(text: &str, sets: &[&[(u32, u32)]]) -> u64 {
    let Some((first, rest)) = sets.split_first() else {
        return 0;
    };
    let mut common: Vec<(u32, u32)> = first.to_vec();
    for other in rest {
        common = intersect(&common, other);
    }
    common
        .iter()
        .map(|&(start, end)| {
            let region = text.get(start as usize..end as usize).unwrap_or("");
            region
                .lines()
                .filter(|line| !line.trim_start().starts_with('#'))
                .count() as u64
        })
        .sum()
}

/// The intersection of two sorted lists of disjoint ranges.
fn intersect(a: &[(u32, u32)], b: &[(u32, u32)]) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        let start = a[i].0.max(b[j].0);
        let end = a[i].1.min(b[j].1);
        if start < end {
            out.push((start, end));
        }
        if a[i].1 < b[j].1 {
            i += 1;
        } else {
            j += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests;
