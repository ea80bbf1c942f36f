//! Rule severities where .NET developers set them: `.editorconfig` and
//! `.globalconfig`, read as Roslyn reads them.
//!
//! ```ini
//! [*.cs]
//! dotnet_diagnostic.RLC0001.severity = warning
//! dotnet_diagnostic.RLC0005.severity = none
//! ```
//!
//! - `.editorconfig` files apply to the sources below them: every one from
//!   the file's directory up to the first with `root = true`, the nearer
//!   winning, and within a file the later section. Keys outside a section are
//!   ignored, as the compiler ignores them.
//! - Global configs apply to a whole project: files named `.globalconfig` in
//!   the project's directory or above it (the SDK finds those), and any
//!   `.editorconfig` there with `is_global = true`. Their keys outside
//!   sections apply everywhere, under a section named by an absolute path to
//!   that file. Between global configs the higher `global_level` wins
//!   (default 100 for `.globalconfig`, 0 otherwise); a key set at the same
//!   level by two of them is unset.
//! - `.editorconfig` entries win over global ones for the files they cover.
//! - For a finding, `dotnet_diagnostic.<id>.severity` wins over
//!   `dotnet_analyzer_diagnostic.category-Reliability.severity` (all
//!   rlc-sharp rules are in the `Reliability` category, with CA2000), which
//!   wins over `dotnet_analyzer_diagnostic.severity`.
//!
//! `generated_code = true|false` says whether files are generated code, whose
//! findings are not reported (see `rlc_csharp::suppress::generated`).
//!
//! Values: `none` and `silent` remove findings (counted as suppressed),
//! `suggestion` makes them notes, `warning` and `error` set them, `default`
//! restores the rule's default. `rlc-sharp.toml` wins where both set a rule.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use globset::{GlobBuilder, GlobMatcher};
use rlc_core::rules::{RuleId, Severity};
use rlc_csharp::suppress::Level;

/// The category rlc-sharp's rules have in bulk configuration.
pub const CATEGORY: &str = "reliability";

/// One parsed file.
#[derive(Clone, Debug, Default)]
struct ConfigFile {
    /// `root = true` in the preamble.
    root: bool,
    /// `is_global = true` in the preamble.
    global: bool,
    /// `global_level` in the preamble.
    level: Option<i32>,
    /// Keys of the preamble (lower-case), in order.
    preamble: Vec<(String, String)>,
    sections: Vec<Section>,
}

#[derive(Clone, Debug)]
struct Section {
    /// As written between the brackets.
    name: String,
    /// The name as a glob, compiled once per file rather than per source.
    matcher: Option<GlobMatcher>,
    entries: Vec<(String, String)>,
}

/// Parses a file the way Roslyn's `AnalyzerConfig` does: `#` and `;` start
/// comments (also after a value), keys are case-insensitive, lines that are
/// neither a section, a property nor a comment are skipped.
fn parse(text: &str) -> ConfigFile {
    let mut file = ConfigFile::default();
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with(['#', ';']) {
            continue;
        }
        if let Some(rest) = line.strip_prefix('[') {
            if let Some(end) = section_end(rest) {
                let name = &rest[..end];
                file.sections.push(Section {
                    name: name.to_owned(),
                    matcher: section_matcher(name),
                    entries: Vec::new(),
                });
            }
            continue;
        }
        let Some(split) = line.find(['=', ':']) else {
            continue;
        };
        let key = line[..split].trim().to_ascii_lowercase();
        // As Roslyn's property pattern: a `#` or `;` ends the value.
        let value = line[split + 1..]
            .split(['#', ';'])
            .next()
            .unwrap_or("")
            .trim()
            .to_owned();
        if key.is_empty()
            || !key
                .chars()
                .all(|c| c.is_alphanumeric() || "._-".contains(c))
        {
            continue;
        }
        match file.sections.last_mut() {
            Some(section) => section.entries.push((key, value)),
            None => {
                match key.as_str() {
                    "root" => file.root = value.eq_ignore_ascii_case("true"),
                    "is_global" => file.global = value.eq_ignore_ascii_case("true"),
                    "global_level" => file.level = value.parse().ok(),
                    _ => {}
                }
                file.preamble.push((key, value));
            }
        }
    }
    file
}

/// Where a section name's `]` is (escaped `\]` does not end it).
fn section_end(rest: &str) -> Option<usize> {
    let bytes = rest.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b']' => return Some(i),
            _ => i += 1,
        }
    }
    None
}

/// An editorconfig section glob as a matcher of paths relative to the file's
/// directory: a name without `/` matches at any depth; `{a,b}`, `[...]`,
/// `*`, `**` and `?` as in the EditorConfig specification.
fn section_matcher(name: &str) -> Option<GlobMatcher> {
    let unescaped = name.replace("\\#", "#").replace("\\;", ";");
    let pattern = match unescaped.strip_prefix('/') {
        Some(rooted) => rooted.to_owned(),
        None if unescaped.contains('/') => unescaped,
        None => format!("**/{unescaped}"),
    };
    GlobBuilder::new(&pattern)
        .literal_separator(true)
        .build()
        .ok()
        .map(|g| g.compile_matcher())
}

/// The analyzer configuration of a set of source files.
#[derive(Debug, Default)]
pub struct AnalyzerConfigs {
    /// Parsed files by path (`None`: absent or unreadable), shared by the
    /// chains of every source below them.
    files: BTreeMap<PathBuf, Option<Rc<ConfigFile>>>,
}

impl AnalyzerConfigs {
    pub fn new() -> AnalyzerConfigs {
        AnalyzerConfigs::default()
    }

    fn load(&mut self, path: &Path) -> Option<&Rc<ConfigFile>> {
        self.files
            .entry(path.to_path_buf())
            .or_insert_with(|| {
                std::fs::read_to_string(path)
                    .ok()
                    .map(|t| Rc::new(parse(&t)))
            })
            .as_ref()
    }

    /// The severity keys that apply to `file` (an absolute source path, or
    /// `None` for findings outside sources), of the project in `project_dir`.
    pub fn options_for(&mut self, file: Option<&Path>, project_dir: Option<&Path>) -> Options {
        let mut merged: BTreeMap<String, String> = self.global_options(file, project_dir);
        let Some(file) = file else {
            return Options { keys: merged };
        };
        // Farthest first, so that nearer files overwrite.
        let mut chain = Vec::new();
        for dir in file.ancestors().skip(1) {
            let path = dir.join(".editorconfig");
            if let Some(config) = self.load(&path) {
                if config.global {
                    continue;
                }
                let root = config.root;
                chain.push((dir, config.clone()));
                if root {
                    break;
                }
            }
        }
        for (dir, config) in chain.into_iter().rev() {
            let Ok(relative) = file.strip_prefix(dir) else {
                continue;
            };
            for section in &config.sections {
                if section
                    .matcher
                    .as_ref()
                    .is_some_and(|m| m.is_match(relative))
                {
                    for (k, v) in &section.entries {
                        merged.insert(k.clone(), v.clone());
                    }
                }
            }
        }
        Options { keys: merged }
    }

    /// The global configs' keys for `file`, merged by `global_level`.
    fn global_options(
        &mut self,
        file: Option<&Path>,
        project_dir: Option<&Path>,
    ) -> BTreeMap<String, String> {
        let Some(start) = project_dir.or_else(|| file.and_then(Path::parent)) else {
            return BTreeMap::new();
        };
        let mut globals: Vec<ConfigFile> = Vec::new();
        for dir in start.ancestors() {
            if let Some(config) = self.load(&dir.join(".globalconfig")) {
                let mut config = ConfigFile::clone(config);
                config.level = config.level.or(Some(100));
                globals.push(config);
            }
            if let Some(config) = self.load(&dir.join(".editorconfig"))
                && config.global
            {
                let mut config = ConfigFile::clone(config);
                config.level = config.level.or(Some(0));
                globals.push(config);
            }
        }
        // key -> (level, value, set twice at that level)
        let mut best: BTreeMap<String, (i32, String, bool)> = BTreeMap::new();
        for g in &globals {
            let level = g.level.unwrap_or(0);
            let path_sections = g
                .sections
                .iter()
                .filter(|s| file.is_some_and(|f| same_path(Path::new(&s.name), f)));
            let entries = g
                .preamble
                .iter()
                .chain(path_sections.flat_map(|s| s.entries.iter()));
            for (k, v) in entries {
                if matches!(k.as_str(), "is_global" | "global_level" | "root") {
                    continue;
                }
                match best.get_mut(k) {
                    Some(entry) if entry.0 == level => entry.2 = true,
                    Some(entry) if entry.0 > level => {}
                    _ => {
                        best.insert(k.clone(), (level, v.clone(), false));
                    }
                }
            }
        }
        best.into_iter()
            .filter(|(_, (_, _, twice))| !twice)
            .map(|(k, (_, v, _))| (k, v))
            .collect()
    }
}

fn same_path(section: &Path, file: &Path) -> bool {
    let norm = |p: &Path| p.to_string_lossy().replace('\\', "/");
    section.is_absolute() && norm(section) == norm(file)
}

/// The analyzer options that apply to one file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    keys: BTreeMap<String, String>,
}

impl Options {
    /// The level of `rule` here, if a key sets it.
    pub fn level(&self, rule: RuleId) -> Option<Level> {
        let code = rule.code().to_ascii_lowercase();
        [
            format!("dotnet_diagnostic.{code}.severity"),
            format!("dotnet_analyzer_diagnostic.category-{CATEGORY}.severity"),
            "dotnet_analyzer_diagnostic.severity".to_owned(),
        ]
        .iter()
        .find_map(|k| self.keys.get(k))
        .and_then(|v| severity(v, rule))
    }

    /// `generated_code = true|false`: whether the file is generated code,
    /// whatever its name and header say.
    pub fn generated_code(&self) -> Option<bool> {
        match self
            .keys
            .get("generated_code")?
            .to_ascii_lowercase()
            .as_str()
        {
            "true" => Some(true),
            "false" => Some(false),
            _ => None,
        }
    }
}

/// A Roslyn severity as a level; `default` is the rule's own.
fn severity(value: &str, rule: RuleId) -> Option<Level> {
    Some(match value.to_ascii_lowercase().as_str() {
        "none" | "silent" | "hidden" => Level::Off,
        "suggestion" | "info" => Level::Note,
        "warning" => Level::Warning,
        "error" => Level::Error,
        "default" => match rule.default_severity() {
            Severity::Error => Level::Error,
            Severity::Warning => Level::Warning,
            Severity::Note => Level::Note,
        },
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(root: &Path, rel: &str, text: &str) -> PathBuf {
        let p = root.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, text).unwrap();
        p
    }

    #[test]
    fn parses_sections_comments_and_the_preamble() {
        let f = parse(
            "\u{feff}# c\nroot = true\n[*.{cs,vb}]\nDotNet_Diagnostic.RLC0001.Severity = warning # why\n; x\n[src/**/Gen*.cs] \nkey : value;still\n",
        );
        assert!(f.root && !f.global);
        assert_eq!(f.sections.len(), 2);
        assert_eq!(
            f.sections[0].entries,
            [(
                "dotnet_diagnostic.rlc0001.severity".into(),
                "warning".into()
            )]
        );
        assert_eq!(f.sections[1].name, "src/**/Gen*.cs");
        assert_eq!(f.sections[1].entries, [("key".into(), "value".into())]);
    }

    #[test]
    fn globs_match_as_editorconfig_says() {
        let m = |g: &str, p: &str| section_matcher(g).unwrap().is_match(p);
        assert!(m("*.cs", "a.cs") && m("*.cs", "deep/dir/a.cs"));
        assert!(m("/*.cs", "a.cs") && !m("/*.cs", "dir/a.cs"));
        assert!(m("src/*.cs", "src/a.cs") && !m("src/*.cs", "x/src/a.cs"));
        assert!(m("**/Generated/*.cs", "a/Generated/b.cs"));
        assert!(m("*.{cs,vb}", "x.vb") && !m("*.{cs,vb}", "x.fs"));
        assert!(m("[Tt]est*.cs", "test1.cs"));
    }

    #[test]
    fn nearer_files_and_later_sections_win_up_to_the_root() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        write(
            root,
            ".editorconfig",
            "[*.cs]\ndotnet_diagnostic.RLC0002.severity = error\n",
        );
        write(
            root,
            "repo/.editorconfig",
            "root = true\n[*.cs]\ndotnet_diagnostic.RLC0001.severity = warning\ndotnet_analyzer_diagnostic.severity = none\n[Legacy/*.cs]\ndotnet_diagnostic.RLC0001.severity = none\n",
        );
        write(
            root,
            "repo/src/.editorconfig",
            "[*.cs]\ndotnet_diagnostic.rlc0001.severity = suggestion\n",
        );
        let mut configs = AnalyzerConfigs::new();
        let src = configs.options_for(Some(&root.join("repo/src/A.cs")), None);
        assert_eq!(src.level(RuleId::ResourceLeak), Some(Level::Note));
        // Above `root = true` nothing counts; the bulk key covers the rest.
        assert_eq!(src.level(RuleId::ResourceLeakOnException), Some(Level::Off));
        let legacy = configs.options_for(Some(&root.join("repo/Legacy/B.cs")), None);
        assert_eq!(legacy.level(RuleId::ResourceLeak), Some(Level::Off));
        let other = configs.options_for(Some(&root.join("repo/C.cs")), None);
        assert_eq!(other.level(RuleId::ResourceLeak), Some(Level::Warning));
    }

    #[test]
    fn global_configs_by_level_under_editorconfig() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let file = root.join("repo/app/A.cs");
        write(
            root,
            "repo/.globalconfig",
            &format!(
                "is_global = true\ndotnet_diagnostic.RLC0001.severity = warning\ndotnet_diagnostic.RLC0003.severity = error\ndotnet_diagnostic.RLC0005.severity = warning\n[{}]\ndotnet_diagnostic.RLC0004.severity = none\n[*.cs]\ndotnet_diagnostic.RLC0009.severity = none\n",
                file.display()
            ),
        );
        // A global .editorconfig: level 0 unless it says otherwise.
        write(
            root,
            "repo/app/.editorconfig",
            "is_global = true\ndotnet_diagnostic.RLC0001.severity = none\nglobal_level = 100\ndotnet_diagnostic.RLC0003.severity = suggestion\n",
        );
        write(
            root,
            "repo/.editorconfig",
            "[*.cs]\ndotnet_diagnostic.RLC0005.severity = error\n",
        );
        let mut configs = AnalyzerConfigs::new();
        let o = configs.options_for(Some(&file), Some(&root.join("repo/app")));
        // Same level, two files: unset.
        assert_eq!(o.level(RuleId::OwningFieldNotDisposed), None);
        assert_eq!(o.level(RuleId::ResourceLeak), None);
        assert_eq!(o.level(RuleId::ResourceOverwritten), Some(Level::Off));
        // Sections that are not absolute paths do nothing in a global config.
        assert_eq!(o.level(RuleId::MissingCreatesMustCallFor), None);
        // .editorconfig wins over the global config.
        assert_eq!(
            o.level(RuleId::StoredInUndisposedCollection),
            Some(Level::Error)
        );
        // Findings outside sources see the global configs only.
        let project = configs.options_for(None, Some(&root.join("repo/app")));
        assert_eq!(
            project.level(RuleId::StoredInUndisposedCollection),
            Some(Level::Warning)
        );
    }

    #[test]
    fn severities() {
        assert_eq!(severity("None", RuleId::ResourceLeak), Some(Level::Off));
        assert_eq!(severity("silent", RuleId::ResourceLeak), Some(Level::Off));
        assert_eq!(
            severity("suggestion", RuleId::ResourceLeak),
            Some(Level::Note)
        );
        assert_eq!(
            severity("default", RuleId::ResourceLeakOnException),
            Some(Level::Warning)
        );
        assert_eq!(severity("loud", RuleId::ResourceLeak), None);
    }
}
