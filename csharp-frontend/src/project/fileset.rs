//! File item specs (`**/*.cs`, `..\Shared\*.cs`, `A.cs;B.cs`) resolved
//! against the disk. Each directory is walked once per set of pruned
//! subdirectories and the listing is cached; globs are then matched against
//! the listing with `globset`. MSBuild ignores `.gitignore`, so do we.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};
use ignore::WalkBuilder;
use rustc_hash::FxHashMap;

use super::expand::unescape;
use super::path;

/// One `;`-separated part of an item spec, resolved against the project
/// directory.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Spec {
    /// A path without wildcards.
    Literal(PathBuf),
    /// A wildcard spec: where to walk, how deep, and the absolute glob
    /// (with `/` separators) a file must match.
    Glob {
        base: PathBuf,
        depth: Option<usize>,
        pattern: String,
    },
}

impl Spec {
    pub fn parse(project_dir: &Path, spec: &str) -> Spec {
        let spec = spec.trim().replace('\\', "/");
        if !spec.contains(['*', '?']) {
            return Spec::Literal(path::resolve(project_dir, &unescape(&spec)));
        }
        let segments: Vec<&str> = spec.split('/').collect();
        let fixed = segments
            .iter()
            .take_while(|s| !s.contains(['*', '?']))
            .count();
        let mut base = if spec.starts_with('/') {
            PathBuf::from("/")
        } else {
            project_dir.to_path_buf()
        };
        for segment in &segments[..fixed] {
            base.push(unescape(segment));
        }
        let base = path::normalize(&base);
        let rest: Vec<&str> = segments[fixed..]
            .iter()
            .copied()
            .filter(|s| !s.is_empty() && *s != ".")
            .collect();
        let depth = (!rest.contains(&"**")).then_some(rest.len());
        let mut pattern = globset::escape(&path::slash(&base));
        for segment in &rest {
            if !pattern.ends_with('/') {
                pattern.push('/');
            }
            pattern.push_str(&glob_segment(segment));
        }
        Spec::Glob {
            base,
            depth,
            pattern,
        }
    }

    /// The glob that matches exactly what this spec names.
    pub fn pattern(&self) -> String {
        match self {
            Spec::Literal(path) => globset::escape(&path::slash(path)),
            Spec::Glob { pattern, .. } => pattern.clone(),
        }
    }

    /// For a spec of the form `dir/**`, the pattern of the directories
    /// whose whole content it excludes, so walks can skip them.
    fn pruned_directories(&self) -> Option<String> {
        match self {
            Spec::Glob { pattern, .. } => pattern.strip_suffix("/**").map(str::to_owned),
            Spec::Literal(_) => None,
        }
    }
}

/// A wildcard path segment in globset syntax: `*`, `?` and `**` keep their
/// meaning; everything else, including `[` and `{` that globset would
/// interpret and MSBuild does not, is literal. `%XX` escapes are decoded.
fn glob_segment(segment: &str) -> String {
    if segment == "**" {
        return "**".to_owned();
    }
    let mut out = String::new();
    let mut rest = segment;
    while let Some(c) = rest.chars().next() {
        match c {
            '*' | '?' => {
                out.push(c);
                rest = &rest[1..];
            }
            '%' if rest.len() >= 3
                && rest.is_char_boundary(3)
                && u8::from_str_radix(&rest[1..3], 16).is_ok() =>
            {
                out.push_str(&globset::escape(&unescape(&rest[..3])));
                rest = &rest[3..];
            }
            c => {
                out.push_str(&globset::escape(&c.to_string()));
                rest = &rest[c.len_utf8()..];
            }
        }
    }
    // A `**` that is not a whole segment means `*` to MSBuild.
    out.replace("**", "*")
}

/// The most compiled glob sets [`compile`] keeps.
const COMPILED_KEPT: usize = 256;

/// The glob set matching any of `patterns`. Compiling one builds regular
/// expressions, which cost more than evaluating the rest of a small project:
/// every project of a repository (every evaluation of the fuzzer) compiles
/// the same SDK defaults (`**/*.cs`, `bin/**`, ...), so compiled sets are
/// kept, a bounded number of them, per process.
pub(crate) fn compile(patterns: &[String]) -> Result<GlobSet, String> {
    type Compiled = FxHashMap<Vec<String>, Result<GlobSet, String>>;
    static COMPILED: Mutex<Option<Compiled>> = Mutex::new(None);
    let lock = || COMPILED.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(found) = lock().as_ref().and_then(|m| m.get(patterns)) {
        return found.clone();
    }
    let compiled = compile_uncached(patterns);
    let mut kept = lock();
    let map = kept.get_or_insert_with(FxHashMap::default);
    if map.len() >= COMPILED_KEPT {
        map.clear();
    }
    map.insert(patterns.to_vec(), compiled.clone());
    compiled
}

fn compile_uncached(patterns: &[String]) -> Result<GlobSet, String> {
    let mut builder = GlobSetBuilder::new();
    for pattern in patterns {
        let glob = GlobBuilder::new(pattern)
            .literal_separator(true)
            .case_insensitive(true)
            .build()
            .map_err(|e| e.to_string())?;
        builder.add(glob);
    }
    builder.build().map_err(|e| e.to_string())
}

/// What a walk found: files, and the places it could not go.
#[derive(Debug, Default)]
pub(crate) struct Listing {
    pub files: Vec<PathBuf>,
    pub problems: Vec<(PathBuf, String)>,
    /// The walk stopped at [`Limits::walk_entries`] entries.
    pub truncated: bool,
}

/// The result of resolving an include against the disk.
#[derive(Debug, Default)]
pub(crate) struct Matched {
    pub files: Vec<PathBuf>,
    pub problems: Vec<(PathBuf, String)>,
    /// A path without wildcards that names no file.
    pub missing: bool,
    /// `files` was cut at [`Limits::matched_files`], or the walk at
    /// [`Limits::walk_entries`]: the wildcard names more than that.
    pub truncated: bool,
}

/// Bounds on what one wildcard costs: a spec such as `/**/*.cs` (an empty
/// property before the slash) would otherwise list the whole disk.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Limits {
    /// Files and directories one directory walk visits.
    pub walk_entries: usize,
    /// Files one include resolves to.
    pub matched_files: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            walk_entries: 1_000_000,
            matched_files: 100_000,
        }
    }
}

#[derive(Clone, PartialEq, Eq, Hash)]
struct WalkKey {
    base: PathBuf,
    depth: Option<usize>,
    pruned: Vec<String>,
}

#[derive(Clone, PartialEq, Eq, Hash)]
struct MatchKey {
    include: Spec,
    excludes: Vec<String>,
    skip_nested_projects: bool,
}

type Slot<T> = Arc<OnceLock<Arc<T>>>;

/// Walks and glob matches shared by all evaluations of a discovery.
#[derive(Default)]
pub(crate) struct FileSets {
    walks: Mutex<FxHashMap<WalkKey, Slot<Listing>>>,
    matches: Mutex<FxHashMap<MatchKey, Slot<Matched>>>,
    /// The entry names of directories (`None`: unreadable).
    listings: Mutex<FxHashMap<PathBuf, Option<Arc<[OsString]>>>>,
    pub limits: Limits,
}

fn slot<K: std::hash::Hash + Eq, T>(map: &Mutex<FxHashMap<K, Slot<T>>>, key: K) -> Slot<T> {
    let mut map = map.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    map.entry(key).or_default().clone()
}

impl FileSets {
    /// The names of the entries of `dir`, in the order the file system lists
    /// them; `None` if it cannot be listed. Read once per discovery.
    pub fn names(&self, dir: &Path) -> Option<Arc<[OsString]>> {
        let lock = || self.listings.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(found) = lock().get(dir) {
            return found.clone();
        }
        let names: Option<Arc<[OsString]>> = std::fs::read_dir(dir)
            .ok()
            .map(|entries| entries.flatten().map(|e| e.file_name()).collect());
        lock().insert(dir.to_path_buf(), names.clone());
        names
    }

    /// The existing files an include names, minus its excludes. With
    /// `skip_nested_projects`, files in subdirectories of the walk's base that
    /// hold their own `.csproj` are left to that project.
    pub fn resolve(
        &self,
        include: &Spec,
        excludes: &[Spec],
        skip_nested_projects: bool,
    ) -> Arc<Matched> {
        let key = MatchKey {
            include: include.clone(),
            excludes: excludes.iter().map(Spec::pattern).collect(),
            skip_nested_projects,
        };
        let slot = slot(&self.matches, key.clone());
        slot.get_or_init(|| Arc::new(self.compute(include, excludes, &key)))
            .clone()
    }

    fn compute(&self, include: &Spec, excludes: &[Spec], key: &MatchKey) -> Matched {
        let exclude_set = compile(&key.excludes);
        let (base, depth, pattern) = match include {
            Spec::Glob {
                base,
                depth,
                pattern,
            } => (base, depth, pattern),
            Spec::Literal(file) => {
                let found = path::find_ignoring_case(file).filter(|f| f.is_file());
                let missing = found.is_none();
                let excluded = |f: &PathBuf| {
                    exclude_set
                        .as_ref()
                        .is_ok_and(|set| set.is_match(path::slash(f)))
                };
                let files = found.filter(|f| !excluded(f)).into_iter().collect();
                return Matched {
                    files,
                    problems: Vec::new(),
                    missing,
                    truncated: false,
                };
            }
        };
        let mut problems = Vec::new();
        let (include_set, exclude_set) = match (compile(std::slice::from_ref(pattern)), exclude_set)
        {
            (Ok(i), Ok(e)) => (i, e),
            (Err(e), _) | (_, Err(e)) => {
                problems.push((base.clone(), format!("invalid wildcard `{pattern}`: {e}")));
                return Matched {
                    files: Vec::new(),
                    problems,
                    missing: false,
                    truncated: false,
                };
            }
        };
        let mut pruned: Vec<String> = excludes
            .iter()
            .filter_map(Spec::pruned_directories)
            .collect();
        pruned.sort();
        pruned.dedup();
        let listing = self.walk(base, *depth, pruned);
        problems.extend(listing.problems.iter().cloned());
        let nested: Vec<&Path> = if key.skip_nested_projects {
            listing
                .files
                .iter()
                .filter(|f| path::extension_lowercase(f) == "csproj")
                .filter_map(|f| f.parent())
                .filter(|dir| *dir != base.as_path())
                .collect()
        } else {
            Vec::new()
        };
        let mut files: Vec<PathBuf> = listing
            .files
            .iter()
            .filter(|file| {
                let text = path::slash(file);
                include_set.is_match(&text)
                    && !exclude_set.is_match(&text)
                    && !nested.iter().any(|dir| file.starts_with(dir))
            })
            .take(self.limits.matched_files.saturating_add(1))
            .cloned()
            .collect();
        let mut truncated = listing.truncated;
        if files.len() > self.limits.matched_files {
            files.truncate(self.limits.matched_files);
            truncated = true;
        }
        Matched {
            files,
            problems,
            missing: false,
            truncated,
        }
    }

    fn walk(&self, base: &Path, depth: Option<usize>, pruned: Vec<String>) -> Arc<Listing> {
        let key = WalkKey {
            base: base.to_path_buf(),
            depth,
            pruned,
        };
        let slot = slot(&self.walks, key.clone());
        slot.get_or_init(|| Arc::new(walk(&key, self.limits.walk_entries)))
            .clone()
    }
}

/// Lists the files under `key.base`, visiting at most `limit` entries (in
/// file name order, so that a cut listing is the same from run to run).
fn walk(key: &WalkKey, limit: usize) -> Listing {
    let mut listing = Listing::default();
    if !key.base.is_dir() {
        return listing;
    }
    let mut builder = WalkBuilder::new(&key.base);
    builder
        .standard_filters(false)
        .follow_links(true)
        .sort_by_file_name(|a, b| a.cmp(b))
        .max_depth(key.depth);
    let pruned = compile(&key.pruned).ok().filter(|_| !key.pruned.is_empty());
    builder.filter_entry(move |entry| {
        let is_dir = entry.file_type().is_some_and(|t| t.is_dir());
        !(is_dir
            && entry.depth() > 0
            && (is_virtual_file_system(entry.path())
                || pruned
                    .as_ref()
                    .is_some_and(|p| p.is_match(path::slash(entry.path())))))
    });
    let mut visited = 0usize;
    for entry in builder.build() {
        if entry.is_ok() {
            visited += 1;
            if visited > limit {
                listing.truncated = true;
                break;
            }
        }
        match entry {
            Ok(entry) if entry.file_type().is_some_and(|t| t.is_file()) => {
                listing.files.push(entry.into_path())
            }
            Ok(_) => {}
            Err(error) => listing.problems.push(describe(&key.base, error)),
        }
    }
    listing
}

/// The operating system's views of processes and devices (`/proc`, `/sys`,
/// `/dev`): no build imports or compiles from them, and a wildcard rooted at
/// `/` would otherwise follow `/proc/<pid>/root` back to `/` for every process.
fn is_virtual_file_system(dir: &Path) -> bool {
    matches!(
        dir.to_str(),
        Some("/proc" | "/sys" | "/dev" | "/proc/" | "/sys/" | "/dev/")
    )
}

/// A walk error as a path and a sentence.
pub(crate) fn describe(base: &Path, error: ignore::Error) -> (PathBuf, String) {
    let mut path = base.to_path_buf();
    let mut error = error;
    loop {
        match error {
            ignore::Error::WithPath { path: p, err } => {
                path = p;
                error = *err;
            }
            ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
                error = *err
            }
            ignore::Error::Loop { ancestor, child } => {
                let message = format!(
                    "symbolic link loop: `{}` leads back to `{}`; not followed again",
                    child.display(),
                    ancestor.display()
                );
                return (child, message);
            }
            other => return (path, format!("cannot read: {other}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A wildcard rooted at `/` (`<Import Project="/*/*/*/..." />`, found by
    /// the fuzzer: 43 s) does not enter `/proc`, `/sys` or `/dev`.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_walk_from_the_root_skips_virtual_file_systems() {
        let key = WalkKey {
            base: PathBuf::from("/"),
            depth: Some(3),
            pruned: Vec::new(),
        };
        let listing = walk(&key, 20_000);
        assert!(
            listing.files.iter().all(|f| !["/proc/", "/sys/", "/dev/"]
                .iter()
                .any(|v| f.starts_with(v))),
            "{:?}",
            listing.files.iter().take(5).collect::<Vec<_>>()
        );
        assert!(Path::new("/proc/self").exists());
    }

    #[test]
    fn splits_fixed_base_from_wildcards() {
        let spec = Spec::parse(Path::new("/r/p"), r"..\Shared\**\*.cs");
        assert_eq!(
            spec,
            Spec::Glob {
                base: PathBuf::from("/r/Shared"),
                depth: None,
                pattern: "/r/Shared/**/*.cs".into()
            }
        );
        let Spec::Glob { depth, pattern, .. } = Spec::parse(Path::new("/r/p"), "Index/Test?[1].cs")
        else {
            panic!("expected a glob");
        };
        assert_eq!(depth, Some(1));
        assert_eq!(pattern, "/r/p/Index/Test?[[]1[]].cs");
        assert_eq!(
            Spec::parse(Path::new("/r/p"), r"a\b.cs"),
            Spec::Literal(PathBuf::from("/r/p/a/b.cs"))
        );
        assert_eq!(
            Spec::parse(Path::new("/r/p"), "bin//**")
                .pruned_directories()
                .as_deref(),
            Some("/r/p/bin")
        );
    }

    #[test]
    fn star_does_not_cross_directories() {
        let set = compile(&[Spec::parse(Path::new("/p"), "*.cs").pattern()]).unwrap();
        assert!(set.is_match("/p/A.cs") && set.is_match("/p/a.CS"));
        assert!(!set.is_match("/p/sub/A.cs"));
    }
}
