//! `$(Property)` expansion with the property functions projects use in
//! practice (string methods, `[MSBuild]::` and `[System.IO.Path]::` helpers).
//!
//! Evaluation never stops on what it cannot do: an unsupported function
//! expands to the empty string and *taints* the value with an [`Issue`]
//! saying why. Taint flows into every property computed from it; only when a
//! tainted value reaches something discovery reports (sources, defines,
//! target frameworks, ...) does the issue become a note. That keeps
//! irrelevant corners of build logic (copyright years, package metadata)
//! from producing noise.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use rustc_hash::{FxHashMap, FxHashSet};

use super::fileset::FileSets;
use super::framework;
use super::path;
use super::xml::Pos;

/// Where something happened in an MSBuild file.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Loc {
    pub file: Arc<Path>,
    pub pos: Pos,
}

/// Why a value may not be what MSBuild computes.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Issue {
    pub loc: Loc,
    pub message: String,
}

pub(crate) type Taint = Option<Arc<Issue>>;

/// An expanded string and, if it depends on something we could not
/// evaluate, the first such issue.
#[derive(Clone, Debug, Default)]
pub(crate) struct Value {
    pub text: String,
    pub taint: Taint,
}

impl Value {
    pub fn known(text: impl Into<String>) -> Value {
        Value {
            text: text.into(),
            taint: None,
        }
    }
}

/// Marks paths that live in the MSBuild installation (`$(MSBuildExtensionsPath)`,
/// `$(MSBuildToolsPath)`): we model the few files there that matter and never
/// look for them on disk.
pub(crate) const TOOLSET: &str = "<msbuild-toolset>";

/// A property's value, the taint it carries and where it was last set.
#[derive(Clone, Debug)]
pub(crate) struct Prop {
    pub value: String,
    pub taint: Taint,
    pub set_at: Option<Loc>,
}

/// The property table. MSBuild property names are case-insensitive.
#[derive(Clone, Debug, Default)]
pub(crate) struct Props {
    map: FxHashMap<String, Prop>,
    /// An SDK we could not load was imported (name, where): a property that
    /// is unset and that no evaluated file assigns may be one it sets.
    incomplete: Option<(String, Loc)>,
    /// Properties some evaluated file assigns, taken or not (lowercase).
    declared: FxHashSet<String>,
}

impl Props {
    /// Records that a file assigns `name` (whatever its condition).
    pub fn declare(&mut self, name: &str) {
        if !self.declared.contains(name) {
            self.declared.insert(name.to_ascii_lowercase());
        }
    }

    pub fn mark_incomplete(&mut self, sdk: &str, at: &Loc) {
        self.incomplete
            .get_or_insert_with(|| (sdk.to_owned(), at.clone()));
    }

    pub fn get(&self, name: &str) -> Option<&Prop> {
        self.map.get(&name.to_ascii_lowercase())
    }

    pub fn value(&self, name: &str) -> &str {
        self.get(name).map_or("", |p| p.value.as_str())
    }

    pub fn set(&mut self, name: &str, value: Value, set_at: Option<Loc>) {
        self.map.insert(
            name.to_ascii_lowercase(),
            Prop {
                value: value.text,
                taint: value.taint,
                set_at,
            },
        );
    }

    /// Marks a property as possibly wrong without changing its value (an
    /// assignment to it was skipped for a reason we could not evaluate).
    pub fn taint(&mut self, name: &str, issue: &Arc<Issue>) {
        let prop = self
            .map
            .entry(name.to_ascii_lowercase())
            .or_insert_with(|| Prop {
                value: String::new(),
                taint: None,
                set_at: None,
            });
        prop.taint.get_or_insert_with(|| issue.clone());
    }

    pub fn is_true(&self, name: &str) -> bool {
        self.value(name).trim().eq_ignore_ascii_case("true")
    }
}

/// What an expansion needs besides the properties: the directory relative
/// paths are resolved against and the location issues are reported at.
pub(crate) struct Scope<'a> {
    pub props: &'a Props,
    /// Directory listings shared by the evaluations of a discovery, for
    /// `GetPathOfFileAbove` (the SDK asks it for several files above every
    /// project, each time listing every directory up to the root).
    pub listings: Option<&'a FileSets>,
    pub dir: &'a Path,
    pub loc: &'a Loc,
}

impl Scope<'_> {
    pub fn issue(&self, message: impl Into<String>) -> Arc<Issue> {
        Arc::new(Issue {
            loc: self.loc.clone(),
            message: message.into(),
        })
    }

    /// Expands every `$(...)` in `text`. `@(...)` and `%(...)` are left as
    /// written; callers that care about them check first.
    pub fn expand(&self, text: &str) -> Value {
        if paren_depth(text) > MAX_NESTING {
            let message = format!("`{text}` nests parentheses more than {MAX_NESTING} levels deep");
            return Value {
                text: String::new(),
                taint: Some(self.issue(message)),
            };
        }
        let mut out = String::with_capacity(text.len());
        let mut taint: Taint = None;
        let mut rest = text;
        while let Some(start) = rest.find("$(") {
            out.push_str(&rest[..start]);
            let body_start = start + 2;
            let Some(len) = matching_paren(&rest[body_start..]) else {
                taint.get_or_insert_with(|| self.issue(format!("unbalanced `$(` in `{text}`")));
                rest = "";
                break;
            };
            let body = &rest[body_start..body_start + len];
            let value = self.property_expression(body);
            if out.len() + value.text.len() > MAX_VALUE_LEN {
                // A property that doubles itself a few dozen times would fill memory.
                let message = format!(
                    "`{}` expands to more than {MAX_VALUE_LEN} bytes; it is taken as empty",
                    truncated(text)
                );
                return Value {
                    text: String::new(),
                    taint: Some(self.issue(message)),
                };
            }
            out.push_str(&value.text);
            if taint.is_none() {
                taint = value.taint;
            }
            rest = &rest[body_start + len + 1..];
        }
        out.push_str(rest);
        Value { text: out, taint }
    }

    fn property_expression(&self, body: &str) -> Value {
        match self.try_property_expression(body.trim()) {
            Ok(value) => value,
            Err(message) => Value {
                text: String::new(),
                taint: Some(self.issue(format!("`$({body})`: {message}"))),
            },
        }
    }

    fn try_property_expression(&self, body: &str) -> Result<Value, String> {
        let (mut object, mut taint, mut rest) = if let Some(after_bracket) = body.strip_prefix('[')
        {
            let close = after_bracket.find(']').ok_or("missing `]`")?;
            let type_name = after_bracket[..close].trim();
            let after = after_bracket[close + 1..].trim_start();
            let after = after
                .strip_prefix("::")
                .ok_or("expected `::` after the type name")?;
            let (member, args, rest) = member_call(after)?;
            let args = self.arguments(args.unwrap_or(""))?;
            let taint = args.iter().find_map(|a| a.taint.clone());
            (self.static_function(type_name, member, &args)?, taint, rest)
        } else if body.starts_with("Registry:") {
            return Err(
                "registry lookups depend on the build machine and are not supported".into(),
            );
        } else {
            let end = body
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
                .unwrap_or(body.len());
            let name = &body[..end];
            if name.is_empty() {
                return Err("expected a property name".into());
            }
            let value = self.property(name);
            (Object::Text(value.text), value.taint, &body[end..])
        };
        loop {
            rest = rest.trim_start();
            if rest.is_empty() {
                let text = match object {
                    Object::Text(text) => text,
                    // `DirectoryInfo.ToString()` as `dotnet build` gives it (the
                    // .NET Framework's gives only the name of a `.Parent`).
                    Object::Directory(dir) => dir.to_string_lossy().into_owned(),
                };
                return Ok(Value { text, taint });
            }
            let after_dot = rest
                .strip_prefix('.')
                .ok_or_else(|| format!("unexpected `{rest}`"))?;
            let (member, args, next) = member_call(after_dot)?;
            let args = match args {
                Some(args) => self.arguments(args)?,
                None => Vec::new(),
            };
            if taint.is_none() {
                taint = args.iter().find_map(|a| a.taint.clone());
            }
            object = match object {
                Object::Text(text) => Object::Text(string_method(&text, member, &args)?),
                Object::Directory(dir) => directory_member(&dir, member, &args)?,
            };
            rest = next;
        }
    }

    fn property(&self, name: &str) -> Value {
        if name.eq_ignore_ascii_case("OS") {
            return Value {
                text: String::new(),
                taint: Some(self.issue(
                    "`$(OS)` is the operating system of the machine running the build; rlc-sharp assumes none and takes it as empty",
                )),
            };
        }
        match (self.props.get(name), &self.props.incomplete) {
            (Some(prop), _) => Value {
                text: prop.value.clone(),
                taint: prop.taint.clone(),
            },
                        (None, Some((sdk, at))) if !self.props.declared.contains(&name.to_ascii_lowercase()) => Value {
                text: String::new(),
                taint: Some(self.issue(format!(
                    "`$({name})` is not set here; the SDK `{sdk}` imported at {}:{}, which rlc-sharp cannot load, may set it",
                    at.file.display(),
                    at.pos.line
                ))),
            },
                        // Unset properties (and environment variables, which we do not read) are empty.
            (None, _) => Value::default(),
        }
    }

    /// Splits and expands a function's argument list. Quotes are removed;
    /// properties inside quoted arguments are expanded as MSBuild does.
    fn arguments(&self, args: &str) -> Result<Vec<Value>, String> {
        if args.trim().is_empty() {
            return Ok(Vec::new());
        }
        split_top_level(args, ',')
            .into_iter()
            .map(|arg| {
                let arg = arg.trim();
                let unquoted = ['\'', '"', '`']
                    .iter()
                    .find_map(|&q| arg.strip_prefix(q).and_then(|a| a.strip_suffix(q)))
                    .unwrap_or(arg);
                Ok(self.expand(unquoted))
            })
            .collect()
    }

    fn static_function(
        &self,
        type_name: &str,
        member: &str,
        args: &[Value],
    ) -> Result<Object, String> {
        let texts: Vec<&str> = args.iter().map(|a| a.text.as_str()).collect();
        let ty = type_name.to_ascii_lowercase();
        let ty = ty.strip_prefix("system.").unwrap_or(&ty);
        let name = member.to_ascii_lowercase();
        let text = match ty {
            "msbuild" => self.msbuild_function(&name, &texts)?,
            "io.path" => self.path_function(&name, &texts)?,
            "io.directory" if name == "getparent" => {
                let [dir] = texts.as_slice() else {
                    return Err("`[System.IO.Directory]::GetParent` takes one path".into());
                };
                return self.parent_directory(dir).map(Object::Directory);
            }
            "io.file" | "io.directory" if name == "exists" => {
                let target = texts.first().copied().unwrap_or("");
                let target = (!target.is_empty()).then(|| self.resolve(target));
                bool_text(target.is_some_and(|t| {
                    if ty == "io.file" {
                        t.is_file()
                    } else {
                        t.is_dir()
                    }
                }))
            }
            "string" => match (name.as_str(), texts.as_slice()) {
                ("isnullorempty", [s]) => bool_text(s.is_empty()),
                ("isnullorwhitespace", [s]) => bool_text(s.trim().is_empty()),
                ("copy" | "new", [s]) => (*s).to_owned(),
                ("concat", parts) => parts.concat(),
                ("equals", [a, b]) => bool_text(a == b),
                _ => return Err(format!("`[System.String]::{member}` is not supported")),
            },
            "version" if name == "parse" => {
                let text = texts.first().copied().unwrap_or("");
                parse_version(text).ok_or_else(|| format!("`{text}` is not a version"))?;
                text.trim().to_owned()
            }
            "math" => {
                let numbers: Vec<f64> = texts
                    .iter()
                    .map(|t| parse_number(t))
                    .collect::<Option<_>>()
                    .ok_or("expected numbers")?;
                match (name.as_str(), numbers.as_slice()) {
                    ("max", [a, b]) => number_text(a.max(*b)),
                    ("min", [a, b]) => number_text(a.min(*b)),
                    _ => return Err(format!("`[System.Math]::{member}` is not supported")),
                }
            }
            _ => return Err(format!("`[{type_name}]::{member}` is not supported")),
        };
        Ok(Object::Text(text))
    }

    /// `Directory.GetParent(path)`: the directory part of the full path, so
    /// the parent of `dir/` (as `$(MSBuildThisFileDirectory)` is written) is
    /// `dir` itself.
    fn parent_directory(&self, spec: &str) -> Result<PathBuf, String> {
        if spec.trim().is_empty() {
            return Err("`[System.IO.Directory]::GetParent` of an empty path".into());
        }
        let full = self.resolve(spec);
        match full.parent() {
            None => Err(format!("`{spec}` is a root and has no parent")),
            Some(_) if ends_with_separator(spec) => Ok(full.clone()),
            Some(above) => Ok(above.to_path_buf()),
        }
    }

    fn msbuild_function(&self, name: &str, args: &[&str]) -> Result<String, String> {
        let version_cmp = |f: fn(std::cmp::Ordering) -> bool| -> Result<String, String> {
            let [a, b] = args else {
                return Err("expected two versions".into());
            };
            let (a, b) = (parse_version(a), parse_version(b));
            match (a, b) {
                (Some(a), Some(b)) => Ok(bool_text(f(compare_versions(&a, &b)))),
                _ => Err("expected two versions".into()),
            }
        };
        let arithmetic = |f: fn(f64, f64) -> f64| -> Result<String, String> {
            let [a, b] = args else {
                return Err("expected two numbers".into());
            };
            match (parse_number(a), parse_number(b)) {
                (Some(a), Some(b)) => Ok(number_text(f(a, b))),
                _ => Err("expected two numbers".into()),
            }
        };
        Ok(match (name, args) {
            ("getpathoffileabove", [file, rest @ ..]) => {
                let start = rest
                    .first()
                    .map_or_else(|| self.dir.to_path_buf(), |d| self.resolve(d));
                file_above(&start, file, self.listings)
                    .map(|p| p.to_string_lossy().into_owned())
                    .unwrap_or_default()
            }
            ("getdirectorynameoffileabove", [start, file]) => {
                file_above(&self.resolve(start), file, self.listings)
                    .and_then(|p| p.parent().map(|d| d.to_string_lossy().into_owned()))
                    .unwrap_or_default()
            }
            ("ensuretrailingslash", [p]) => {
                if p.is_empty() || p.ends_with(['/', '\\']) {
                    (*p).to_owned()
                } else {
                    format!("{p}{}", std::path::MAIN_SEPARATOR)
                }
            }
            ("normalizepath", parts) => {
                let last = parts.iter().rev().find(|p| !p.is_empty());
                self.full_path(&self.combine(parts), last.map_or("", |p| p))
            }
            ("normalizedirectory", parts) => path::with_trailing_separator(&self.combine(parts)),
            ("makerelative", [base, target]) => {
                make_relative(&self.resolve(base), &self.resolve(target))
            }
            ("escape", [s]) => escape(s),
            ("unescape", [s]) => unescape(s),
            ("valueordefault", [value, default]) => {
                if value.is_empty() { default } else { value }.to_string()
            }
            ("gettargetframeworkidentifier", [tfm]) => framework::parse(tfm)
                .map(|f| f.kind.identifier().to_owned())
                .unwrap_or_default(),
            ("gettargetframeworkversion", [tfm, rest @ ..]) => {
                let parts = rest
                    .first()
                    .and_then(|p| p.trim().parse().ok())
                    .unwrap_or(2);
                framework::parse(tfm)
                    .map(|f| f.version_string(parts))
                    .unwrap_or_default()
            }
            ("gettargetplatformidentifier", [tfm]) => framework::parse(tfm)
                .and_then(|f| f.platform)
                .map(|(p, _)| p)
                .unwrap_or_default(),
            ("gettargetplatformversion", [tfm, ..]) => framework::parse(tfm)
                .and_then(|f| f.platform)
                .and_then(|(_, v)| v)
                .unwrap_or_default(),
            ("istargetframeworkcompatible", [target, candidate]) => {
                bool_text(is_compatible(target, candidate))
            }
            ("versionequals", _) => version_cmp(std::cmp::Ordering::is_eq)?,
            ("versionnotequals", _) => version_cmp(std::cmp::Ordering::is_ne)?,
            ("versiongreaterthan", _) => version_cmp(std::cmp::Ordering::is_gt)?,
            ("versiongreaterthanorequals", _) => version_cmp(std::cmp::Ordering::is_ge)?,
            ("versionlessthan", _) => version_cmp(std::cmp::Ordering::is_lt)?,
            ("versionlessthanorequals", _) => version_cmp(std::cmp::Ordering::is_le)?,
            ("add", _) => arithmetic(|a, b| a + b)?,
            ("subtract", _) => arithmetic(|a, b| a - b)?,
            ("multiply", _) => arithmetic(|a, b| a * b)?,
            ("divide", _) => arithmetic(|a, b| a / b)?,
            ("modulo", _) => arithmetic(|a, b| a % b)?,
            // We are not Visual Studio, and we model the newest MSBuild.
            ("isrunningfromvisualstudio", []) => bool_text(false),
            ("arefeaturesenabled", [_]) => bool_text(true),
            (
                "getmsbuildextensionspath"
                | "getcurrenttoolsdirectory"
                | "gettoolsdirectory32"
                | "gettoolsdirectory64",
                [],
            ) => TOOLSET.to_owned(),
            ("isosplatform" | "isosunixlike", _) => {
                return Err("the result depends on the machine running the build; rlc-sharp assumes no operating system".into());
            }
            _ => {
                return Err(format!(
                    "`[MSBuild]::{name}` with {} argument(s) is not supported",
                    args.len()
                ));
            }
        })
    }

    /// `System.IO.Path` methods. They work on the text, as .NET does: a
    /// trailing separator ends an empty file name, so the directory name of
    /// `dir/` is `dir`.
    fn path_function(&self, name: &str, args: &[&str]) -> Result<String, String> {
        let native = path::native_separators;
        Ok(match (name, args) {
            ("combine", parts) => {
                // .NET skips empty parts; `PathBuf::push("")` would add a separator.
                let mut out = PathBuf::new();
                for part in parts.iter().filter(|p| !p.is_empty()) {
                    out.push(native(part));
                }
                out.to_string_lossy().into_owned()
            }
            ("getdirectoryname", [p]) => {
                let p = native(p);
                let dir = split_file_name(&p).0;
                if Path::new(&p).parent().is_none() {
                    // A root has no directory name.
                    String::new()
                } else if Path::new(dir).parent().is_none() {
                    // A root keeps its separator; a bare name gives "".
                    dir.to_owned()
                } else {
                    dir.trim_end_matches(std::path::MAIN_SEPARATOR).to_owned()
                }
            }
            ("getfilename", [p]) => split_file_name(&native(p)).1.to_owned(),
            ("getfilenamewithoutextension", [p]) => {
                let p = native(p);
                let file = split_file_name(&p).1;
                file.rfind('.').map_or(file, |dot| &file[..dot]).to_owned()
            }
            ("getextension", [p]) => extension(&native(p)).to_owned(),
            ("hasextension", [p]) => bool_text(!extension(&native(p)).is_empty()),
            ("changeextension", ["", _]) => String::new(),
            ("changeextension", [p, ext]) => {
                let p = native(p);
                let (dir, file) = split_file_name(&p);
                let stem = file.rfind('.').map_or(&p[..], |dot| &p[..dir.len() + dot]);
                if !ext.starts_with('.') {
                    format!("{stem}.{ext}")
                } else {
                    format!("{stem}{ext}")
                }
            }
            ("getfullpath", [p]) => self.full_path(&self.resolve(p), p),
            ("ispathrooted", [p]) => bool_text(Path::new(&native(p)).has_root()),
            ("directoryseparatorchar", []) => std::path::MAIN_SEPARATOR.to_string(),
            _ => return Err(format!("`[System.IO.Path]::{name}` is not supported")),
        })
    }

    /// A resolved path as `Path.GetFullPath` gives it: with a trailing
    /// separator when `spec` (the text it came from) ends with one.
    fn full_path(&self, resolved: &Path, spec: &str) -> String {
        if ends_with_separator(spec) {
            path::with_trailing_separator(resolved)
        } else {
            resolved.to_string_lossy().into_owned()
        }
    }

    /// A path argument resolved against the scope's directory.
    pub fn resolve(&self, spec: &str) -> PathBuf {
        path::resolve(self.dir, spec)
    }

    fn combine(&self, parts: &[&str]) -> PathBuf {
        parts.iter().fold(self.dir.to_path_buf(), |acc, part| {
            path::resolve(&acc, part)
        })
    }
}

/// The value at a step of a property function chain: MSBuild keeps the .NET
/// object a function returns and makes it a string only at the end.
enum Object {
    Text(String),
    /// A `System.IO.DirectoryInfo`, by its full path.
    Directory(PathBuf),
}

/// The `DirectoryInfo` members build files use.
fn directory_member(dir: &Path, member: &str, args: &[Value]) -> Result<Object, String> {
    let name = member.to_ascii_lowercase();
    Ok(match (name.as_str(), args) {
        ("fullname" | "tostring", []) => Object::Text(dir.to_string_lossy().into_owned()),
        // The root's name is the root itself.
        ("name", []) => Object::Text(
            dir.file_name()
                .map_or_else(|| dir.to_string_lossy(), |n| n.to_string_lossy())
                .into_owned(),
        ),
        ("parent", []) => Object::Directory(
            dir.parent()
                .ok_or_else(|| format!("`{}` is a root and has no parent", dir.display()))?
                .to_path_buf(),
        ),
        ("root", []) => Object::Directory(dir.ancestors().last().unwrap_or(dir).to_path_buf()),
        ("exists", []) => Object::Text(bool_text(dir.is_dir())),
        _ => {
            return Err(format!(
                "the directory member `{member}` with {} argument(s) is not supported",
                args.len()
            ));
        }
    })
}

fn ends_with_separator(spec: &str) -> bool {
    spec.trim_end().ends_with(['/', '\\'])
}

/// A path with native separators split after its last separator, as
/// `System.IO.Path` splits it: `("a/", "b.c")`, `("a/", "")` for `a/`.
fn split_file_name(path: &str) -> (&str, &str) {
    let at = path.rfind(std::path::MAIN_SEPARATOR).map_or(0, |i| i + 1);
    path.split_at(at)
}

/// `Path.GetExtension`: from the file name's last dot, empty when the dot
/// ends the name.
fn extension(path: &str) -> &str {
    let file = split_file_name(path).1;
    match file.rfind('.') {
        Some(dot) if dot + 1 < file.len() => &file[dot..],
        _ => "",
    }
}

/// Expansion and condition parsing recurse on parentheses; real projects
/// nest a handful.
pub(crate) const MAX_NESTING: usize = 64;

/// The longest value an expansion gives: real ones (lists of constants,
/// warnings, paths) are a few KiB.
pub(crate) const MAX_VALUE_LEN: usize = 1 << 20;

/// `text` cut for a message.
fn truncated(text: &str) -> &str {
    let mut end = text.len().min(80);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// The deepest parenthesis nesting in `text`.
pub(crate) fn paren_depth(text: &str) -> usize {
    let (mut depth, mut max) = (0usize, 0usize);
    for c in text.chars() {
        match c {
            '(' => {
                depth += 1;
                max = max.max(depth);
            }
            ')' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    max
}

/// The length of the text up to the `)` that closes an already opened `(`,
/// skipping quoted strings and nested parentheses.
pub(crate) fn matching_paren(text: &str) -> Option<usize> {
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    for (i, c) in text.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"' | '`') => quote = Some(c),
            (None, '(') => depth += 1,
            (None, ')') if depth == 0 => return Some(i),
            (None, ')') => depth -= 1,
            _ => {}
        }
    }
    None
}

/// Splits at `sep` outside quotes and parentheses.
pub(crate) fn split_top_level(text: &str, sep: char) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    let mut start = 0;
    for (i, c) in text.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"' | '`') => quote = Some(c),
            (None, '(') => depth += 1,
            (None, ')') => depth = depth.saturating_sub(1),
            (None, c) if c == sep && depth == 0 => {
                parts.push(&text[start..i]);
                start = i + c.len_utf8();
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts
}

/// `Name(args)rest` or `Name rest` -> (name, args, rest).
fn member_call(text: &str) -> Result<(&str, Option<&str>, &str), String> {
    let text = text.trim_start();
    let end = text
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    let (name, rest) = text.split_at(end);
    if name.is_empty() {
        return Err(format!("expected a member name at `{text}`"));
    }
    let after_ws = rest.trim_start();
    match after_ws.strip_prefix('(') {
        Some(inner) => {
            let len = matching_paren(inner).ok_or("unbalanced parentheses")?;
            Ok((name, Some(&inner[..len]), &inner[len + 1..]))
        }
        None => Ok((name, None, rest)),
    }
}

/// The `System.String` instance methods (and `System.Version` members, since
/// we keep versions as strings) MSBuild allows on property values.
fn string_method(value: &str, member: &str, args: &[Value]) -> Result<String, String> {
    let texts: Vec<&str> = args.iter().map(|a| a.text.as_str()).collect();
    let ignore_case = texts
        .get(1)
        .is_some_and(|t| t.to_ascii_lowercase().contains("ignorecase"));
    let fold = |s: &str| {
        if ignore_case {
            s.to_lowercase()
        } else {
            s.to_owned()
        }
    };
    let index = |s: &str| {
        s.trim()
            .parse::<usize>()
            .map_err(|_| format!("`{s}` is not an index"))
    };
    let chars: Vec<char> = value.chars().collect();
    let name = member.to_ascii_lowercase();
    Ok(match (name.as_str(), texts.as_slice()) {
        ("length", []) => chars.len().to_string(),
        ("startswith", [p, ..]) => bool_text(fold(value).starts_with(&fold(p))),
        ("endswith", [p, ..]) => bool_text(fold(value).ends_with(&fold(p))),
        ("contains", [p, ..]) => bool_text(fold(value).contains(&fold(p))),
        ("equals", [p, ..]) => bool_text(fold(value) == fold(p)),
        ("indexof", [p, ..]) => value
            .find(p)
            .map_or(-1, |b| value[..b].chars().count() as i64)
            .to_string(),
        ("lastindexof", [p, ..]) => value
            .rfind(p)
            .map_or(-1, |b| value[..b].chars().count() as i64)
            .to_string(),
        ("replace", [from, to]) if !from.is_empty() => value.replace(from, to),
        ("substring", [start]) => chars
            .get(index(start)?..)
            .ok_or("index out of range")?
            .iter()
            .collect(),
        ("substring", [start, len]) => {
            let start = index(start)?;
            chars
                .get(start..start + index(len)?)
                .ok_or("index out of range")?
                .iter()
                .collect()
        }
        ("remove", [start]) => chars
            .get(..index(start)?)
            .ok_or("index out of range")?
            .iter()
            .collect(),
        ("tolower" | "tolowerinvariant", []) => value.to_lowercase(),
        ("toupper" | "toupperinvariant", []) => value.to_uppercase(),
        ("trim", []) => value.trim().to_owned(),
        ("trim", [set]) => value.trim_matches(|c| set.contains(c)).to_owned(),
        ("trimstart", []) => value.trim_start().to_owned(),
        ("trimstart", [set]) => value.trim_start_matches(|c| set.contains(c)).to_owned(),
        ("trimend", []) => value.trim_end().to_owned(),
        ("trimend", [set]) => value.trim_end_matches(|c| set.contains(c)).to_owned(),
        ("padleft", [width, rest @ ..]) => pad(
            &chars,
            index(width)?,
            rest.first().and_then(|s| s.chars().next()),
            true,
        ),
        ("padright", [width, rest @ ..]) => pad(
            &chars,
            index(width)?,
            rest.first().and_then(|s| s.chars().next()),
            false,
        ),
        ("tostring", []) => value.to_owned(),
        ("major" | "minor" | "build" | "revision", []) => {
            let version =
                parse_version(value).ok_or_else(|| format!("`{value}` is not a version"))?;
            let at = ["major", "minor", "build", "revision"]
                .iter()
                .position(|m| *m == name)
                .unwrap_or(0);
            version.get(at).map_or("-1".to_owned(), u64::to_string)
        }
        _ => {
            return Err(format!(
                "the method `{member}` with {} argument(s) is not supported",
                texts.len()
            ));
        }
    })
}

fn pad(chars: &[char], width: usize, fill: Option<char>, left: bool) -> String {
    // Padding is for version strings and the like; refuse absurd widths.
    let width = width.min(chars.len() + 4096);
    let fill: String =
        std::iter::repeat_n(fill.unwrap_or(' '), width.saturating_sub(chars.len())).collect();
    let value: String = chars.iter().collect();
    if left { fill + &value } else { value + &fill }
}

pub(crate) fn bool_text(value: bool) -> String {
    if value { "True" } else { "False" }.to_owned()
}

fn number_text(value: f64) -> String {
    if value.fract() == 0.0 && value.abs() < 1e15 {
        format!("{}", value as i64)
    } else {
        value.to_string()
    }
}

pub(crate) fn parse_number(text: &str) -> Option<f64> {
    let text = text.trim();
    match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        Some(hex) => i64::from_str_radix(hex, 16).ok().map(|v| v as f64),
        None => text.parse().ok(),
    }
}

/// A version as MSBuild's `System.Version` parses it: 1 to 4 numeric parts
/// (a leading `v` tolerated, as in `$(TargetFrameworkVersion)`).
pub(crate) fn parse_version(text: &str) -> Option<Vec<u64>> {
    let text = text.trim().trim_start_matches(['v', 'V']);
    let parts: Vec<u64> = text
        .split('.')
        .map(|p| p.parse().ok())
        .collect::<Option<_>>()?;
    (1..=4).contains(&parts.len()).then_some(parts)
}

pub(crate) fn compare_versions(a: &[u64], b: &[u64]) -> std::cmp::Ordering {
    (0..a.len().max(b.len()))
        .map(|i| {
            a.get(i)
                .copied()
                .unwrap_or(0)
                .cmp(&b.get(i).copied().unwrap_or(0))
        })
        .find(|o| o.is_ne())
        .unwrap_or(std::cmp::Ordering::Equal)
}

/// The first `file` found in `start` or a directory above it. A name that
/// differs only in case (`Directory.build.props`) counts, as it does for the
/// Windows builds most repositories are written for. With `listings`, each
/// directory is listed once per discovery.
pub(crate) fn file_above(start: &Path, file: &str, listings: Option<&FileSets>) -> Option<PathBuf> {
    let plain = !file.is_empty() && !file.contains(['/', '\\']) && file != "." && file != "..";
    start.ancestors().find_map(|dir| {
        if let (Some(listings), true) = (listings, plain) {
            let Some(names) = listings.names(dir) else {
                let exact = dir.join(file);
                return exact.is_file().then_some(exact);
            };
            // The exact name first, then the others in listing order.
            let exact = names.iter().any(|n| n == file);
            let exact = exact.then(|| dir.join(file)).filter(|p| p.is_file());
            return exact.or_else(|| {
                names
                    .iter()
                    .filter(|n| n.to_str().is_some_and(|n| n.eq_ignore_ascii_case(file)))
                    .map(|n| dir.join(n))
                    .find(|p| p.is_file())
            });
        }
        let exact = dir.join(file);
        if exact.is_file() {
            return Some(exact);
        }
        // Names are compared before a path is made: `/` or a busy temporary
        // directory has many entries.
        std::fs::read_dir(dir)
            .ok()?
            .flatten()
            .filter(|entry| {
                entry
                    .file_name()
                    .to_str()
                    .is_some_and(|n| n.eq_ignore_ascii_case(file))
            })
            .map(|entry| entry.path())
            .find(|p| p.is_file())
    })
}

fn make_relative(base: &Path, target: &Path) -> String {
    let base: Vec<_> = base.components().collect();
    let target: Vec<_> = target.components().collect();
    let common = base.iter().zip(&target).take_while(|(a, b)| a == b).count();
    let mut out = PathBuf::new();
    for _ in common..base.len() {
        out.push("..");
    }
    for component in &target[common..] {
        out.push(component.as_os_str());
    }
    out.to_string_lossy().into_owned()
}

/// `IsTargetFrameworkCompatible(target, candidate)`: can `target` consume
/// something built for `candidate`?
fn is_compatible(target: &str, candidate: &str) -> bool {
    use framework::Kind::*;
    let (Some(target), Some(candidate)) = (framework::parse(target), framework::parse(candidate))
    else {
        return false;
    };
    let at_least = |version: &[u32], min: &[u32]| {
        let v: Vec<u64> = version.iter().map(|&x| u64::from(x)).collect();
        let m: Vec<u64> = min.iter().map(|&x| u64::from(x)).collect();
        compare_versions(&v, &m).is_ge()
    };
    match (target.kind, candidate.kind) {
        (a, b) if a == b => at_least(&target.version, &candidate.version),
        (CoreApp, Standard) => {
            let needed: &[u32] = match candidate.version.as_slice() {
                [1, ..] => &[1, 0],
                [2, 0, ..] => &[2, 0],
                _ => &[3, 0],
            };
            at_least(&target.version, needed)
        }
        (Framework, Standard) => {
            !at_least(&candidate.version, &[2, 1]) && at_least(&target.version, &[4, 6, 1])
        }
        _ => false,
    }
}

/// MSBuild's `%XX` escapes.
pub(crate) fn unescape(text: &str) -> String {
    if !text.contains('%') {
        return text.to_owned();
    }
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (byte, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn escape(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '%' | '*' | '?' | '@' | '$' | '(' | ')' | ';' | '\'' => format!("%{:02X}", c as u32),
            c => c.to_string(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// With and without the listings of a discovery, the same file: the
    /// exact name first, another case second, a directory never, a name
    /// with a separator by its path.
    #[test]
    fn files_above_are_found_alike_with_shared_listings() {
        let root = tempfile::tempdir().unwrap();
        let deep = root.path().join("a").join("b");
        std::fs::create_dir_all(deep.join("Directory.Build.targets")).unwrap();
        std::fs::create_dir_all(root.path().join("sub")).unwrap();
        std::fs::write(root.path().join("a").join("directory.build.props"), "").unwrap();
        std::fs::write(root.path().join("Directory.Build.props"), "").unwrap();
        std::fs::write(root.path().join("DIRECTORY.BUILD.TARGETS"), "").unwrap();
        std::fs::write(root.path().join("sub").join("x.props"), "").unwrap();
        let listings = FileSets::default();
        for shared in [None, Some(&listings), Some(&listings)] {
            let found = |file: &str| file_above(&deep, file, shared);
            assert_eq!(
                found("Directory.Build.props"),
                Some(root.path().join("a").join("directory.build.props"))
            );
            assert_eq!(
                found("Directory.Build.targets"),
                Some(root.path().join("DIRECTORY.BUILD.TARGETS"))
            );
            assert_eq!(found("sub/x.props"), Some(root.path().join("sub/x.props")));
            assert_eq!(found("Nowhere.props"), None);
        }
    }

    fn scope_eval(props: &[(&str, &str)], text: &str) -> Value {
        let mut table = Props::default();
        for (name, value) in props {
            table.set(name, Value::known(*value), None);
        }
        let loc = Loc {
            file: Arc::from(Path::new("/p/x.props")),
            pos: Pos::default(),
        };
        Scope {
            props: &table,
            listings: None,
            dir: Path::new("/p"),
            loc: &loc,
        }
        .expand(text)
    }

    #[test]
    fn properties_are_case_insensitive_and_unset_is_empty() {
        let v = scope_eval(&[("Foo", "a")], "$(foo);$(Bar);$(FOO)");
        assert_eq!(v.text, "a;;a");
        assert!(v.taint.is_none());
    }

    #[test]
    fn string_methods_chain() {
        let v = scope_eval(
            &[("V", "1.2-beta")],
            "$(V.Replace('.', '_').Replace('-', '_').ToUpperInvariant())",
        );
        assert_eq!(v.text, "1_2_BETA");
        assert_eq!(
            scope_eval(&[("T", "net8.0")], "$(T.StartsWith('net8.'))").text,
            "True"
        );
        assert_eq!(
            scope_eval(&[("T", "v4.6.2")], "$(T.TrimStart('vV'))").text,
            "4.6.2"
        );
        assert_eq!(
            scope_eval(&[("N", "A B")], r#"$(N.Replace(" ", "_"))"#).text,
            "A_B"
        );
        assert_eq!(scope_eval(&[("N", "abc")], "$(N.Length)").text, "3");
    }

    #[test]
    fn msbuild_functions() {
        assert_eq!(
            scope_eval(&[], "$([MSBuild]::GetTargetFrameworkIdentifier('net8.0'))").text,
            ".NETCoreApp"
        );
        assert_eq!(
            scope_eval(&[], "$([MSBuild]::GetTargetFrameworkVersion('net462'))").text,
            "4.6.2"
        );
        assert_eq!(
            scope_eval(
                &[],
                "$([MSBuild]::VersionGreaterThanOrEquals('8.0', '5.0'))"
            )
            .text,
            "True"
        );
        assert_eq!(
            scope_eval(&[("D", "a")], "$([MSBuild]::ValueOrDefault('$(D)', 'b'))").text,
            "a"
        );
        assert_eq!(
            scope_eval(
                &[],
                "$([MSBuild]::NormalizeDirectory('/x', 'y', '..', 'z'))"
            )
            .text,
            "/x/z/"
        );
        assert_eq!(
            scope_eval(&[], "$([System.IO.Path]::Combine('a', 'b'))").text,
            "a/b"
        );
        assert_eq!(
            scope_eval(
                &[],
                "$([MSBuild]::IsTargetFrameworkCompatible('net8.0', 'netstandard2.0'))"
            )
            .text,
            "True"
        );
    }

    /// The untainted expansion of `text` in `/p`.
    fn known(props: &[(&str, &str)], text: &str) -> String {
        let v = scope_eval(props, text);
        assert!(v.taint.is_none(), "{text}: {:?}", v.taint);
        v.text
    }

    /// The issue `text` reports, after checking it expands to nothing.
    fn refused(props: &[(&str, &str)], text: &str) -> String {
        let v = scope_eval(props, text);
        assert_eq!(v.text, "", "{text}");
        v.taint
            .unwrap_or_else(|| panic!("{text} is not tainted"))
            .message
            .clone()
    }

    #[test]
    fn directory_get_parent_gives_a_directory_with_members() {
        let here = [("MSBuildThisFileDirectory", "/r/build/")];
        let get = |chain: &str| {
            known(
                &here,
                &format!("$([System.IO.Directory]::GetParent($(MSBuildThisFileDirectory)){chain})"),
            )
        };
        // The directory part of `/r/build/` is `/r/build` itself.
        assert_eq!(get(".FullName"), "/r/build");
        assert_eq!(get(".Parent.FullName"), "/r");
        assert_eq!(get(".Name"), "build");
        assert_eq!(get(".Parent.Name"), "r");
        assert_eq!(get(".Parent.Parent.FullName"), "/");
        assert_eq!(get(".Parent.Parent.Name"), "/");
        assert_eq!(get(".Root.FullName"), "/");
        assert_eq!(get(".ToString()"), "/r/build");
        assert_eq!(get(".Parent.FullName.ToUpperInvariant()"), "/R");
        // A chain that ends on the directory gives its full path.
        assert_eq!(get(""), "/r/build");
        assert_eq!(get(".Parent"), "/r");
        assert_eq!(
            known(
                &[],
                "$([System.IO.Directory]::GetParent('/r/build/x.props').FullName)"
            ),
            "/r/build"
        );
        assert_eq!(
            known(
                &[],
                r"$([System.IO.Directory]::GetParent('sub\x\..\y').FullName)"
            ),
            "/p/sub"
        );
        assert_eq!(
            known(&[], "$([System.IO.Directory]::GetParent('/r').FullName)"),
            "/"
        );
        let tmp = tempfile::tempdir().unwrap();
        let exists = |dir: &str| {
            known(
                &[],
                &format!("$([System.IO.Directory]::GetParent('{dir}/').Exists)"),
            )
        };
        assert_eq!(exists(&tmp.path().display().to_string()), "True");
        assert_eq!(
            exists(&tmp.path().join("gone").display().to_string()),
            "False"
        );
    }

    #[test]
    fn directory_get_parent_errors_are_located_notes() {
        let root = refused(&[], "$([System.IO.Directory]::GetParent('/'))");
        assert!(root.contains("has no parent"), "{root}");
        let above_root = refused(
            &[],
            "$([System.IO.Directory]::GetParent('/r').Parent.Parent)",
        );
        assert!(above_root.contains("has no parent"), "{above_root}");
        let empty = refused(&[], "$([System.IO.Directory]::GetParent(''))");
        assert!(empty.contains("empty path"), "{empty}");
        let two = refused(&[], "$([System.IO.Directory]::GetParent('/a', '/b'))");
        assert!(two.contains("takes one path"), "{two}");
        let member = refused(
            &[],
            "$([System.IO.Directory]::GetParent('/a/b').CreationTime)",
        );
        assert!(member.contains("`CreationTime`"), "{member}");
        // Directory members are not string methods, nor the reverse.
        let on_text = refused(&[("D", "/a/b")], "$(D.Parent)");
        assert!(on_text.contains("`Parent`"), "{on_text}");
        let on_dir = refused(
            &[],
            "$([System.IO.Directory]::GetParent('/a/b').Replace('a', 'b'))",
        );
        assert!(on_dir.contains("`Replace`"), "{on_dir}");
        // Taint from an argument flows through the chain.
        let v = scope_eval(
            &[],
            "$([System.IO.Directory]::GetParent('/a/$(OS)/b').FullName)",
        );
        assert_eq!(v.text, "/a");
        assert!(v.taint.is_some());
        let other = refused(&[], "$([System.IO.Directory]::GetCurrentDirectory())");
        assert!(other.contains("not supported"), "{other}");
    }

    /// `System.IO.Path` works on the text as .NET does: a trailing separator
    /// ends an empty file name.
    #[test]
    fn path_functions_follow_dotnet() {
        let path = |f: &str, args: &str| known(&[], &format!("$([System.IO.Path]::{f}({args}))"));
        assert_eq!(path("GetDirectoryName", "'/a/b/'"), "/a/b");
        assert_eq!(path("GetDirectoryName", r"'/a\b.cs'"), "/a");
        assert_eq!(path("GetDirectoryName", "'/a//b'"), "/a");
        assert_eq!(path("GetDirectoryName", "'/a'"), "/");
        assert_eq!(path("GetDirectoryName", "'/'"), "");
        assert_eq!(path("GetDirectoryName", "'a'"), "");
        assert_eq!(path("GetFileName", "'/a/b/'"), "");
        assert_eq!(path("GetFileName", r"'a\b.cs'"), "b.cs");
        assert_eq!(path("GetFileName", "'a/..'"), "..");
        assert_eq!(path("GetFileNameWithoutExtension", "'a/b.tar.gz'"), "b.tar");
        assert_eq!(path("GetFileNameWithoutExtension", "'a/.editorconfig'"), "");
        assert_eq!(path("GetFileNameWithoutExtension", "'a.b/c'"), "c");
        assert_eq!(path("GetExtension", "'a/b.cs'"), ".cs");
        assert_eq!(path("GetExtension", "'a.b/c'"), "");
        assert_eq!(path("GetExtension", "'a.'"), "");
        assert_eq!(path("GetExtension", "'.editorconfig'"), ".editorconfig");
        assert_eq!(path("HasExtension", "'a/b.cs'"), "True");
        assert_eq!(path("HasExtension", "'a.b/c'"), "False");
        assert_eq!(path("ChangeExtension", "'a/b.cs', '.txt'"), "a/b.txt");
        assert_eq!(path("ChangeExtension", "'a.b/c', 'txt'"), "a.b/c.txt");
        assert_eq!(path("ChangeExtension", "'a.b', ''"), "a.");
        assert_eq!(path("ChangeExtension", "'', '.x'"), "");
        assert_eq!(path("GetFullPath", r"'x\..\y\'"), "/p/y/");
        assert_eq!(path("GetFullPath", "'x/./z'"), "/p/x/z");
        assert_eq!(path("GetFullPath", "'/abs'"), "/abs");
        assert_eq!(path("IsPathRooted", "'/a'"), "True");
        assert_eq!(path("IsPathRooted", r"'a\b'"), "False");
        assert_eq!(path("Combine", "'a', '', 'b'"), "a/b");
        assert_eq!(path("Combine", "'a', '/b'"), "/b");
        assert_eq!(
            known(&[], "$([System.IO.Path]::DirectorySeparatorChar)"),
            "/"
        );
        assert_eq!(
            known(&[], "$([MSBuild]::NormalizePath('/x', 'y/'))"),
            "/x/y/"
        );
        assert_eq!(
            known(&[], "$([MSBuild]::NormalizePath('/x', 'y', ''))"),
            "/x/y"
        );
        assert_eq!(known(&[], "$([System.String]::new('ab').ToUpper())"), "AB");
        let other = refused(&[], "$([System.IO.Path]::GetTempPath())");
        assert!(other.contains("gettemppath"), "{other}");
    }

    #[test]
    fn unsupported_functions_taint_and_expand_to_empty() {
        let v = scope_eval(&[], "x$([System.DateTime]::UtcNow.Year)y");
        assert_eq!(v.text, "xy");
        let issue = v.taint.unwrap();
        assert!(
            issue.message.contains("System.DateTime"),
            "{}",
            issue.message
        );
        let v = scope_eval(&[], "$(OS)");
        assert!(v.taint.is_some());
    }

    #[test]
    fn unescapes() {
        assert_eq!(unescape("a%3Bb%2A"), "a;b*");
        assert_eq!(unescape("100%"), "100%");
    }
}
