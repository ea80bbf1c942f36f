//! One MSBuild evaluation of a project for one set of global properties:
//! pass 1 runs properties, imports and `Choose` in document order (the SDK's
//! props, the project, the SDK's targets); pass 2 runs the `Compile`,
//! `Using`, `ProjectReference` and `Reference` items in document order
//! against the final properties, as MSBuild does.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use rustc_hash::FxHashSet;

use super::condition;
use super::expand::{Issue, Loc, Props, Scope, TOOLSET, Taint, Value, split_top_level, unescape};
use super::fileset::{self, FileSets, Spec};
use super::path;
use super::sdk::{self, SdkKind};
use super::xml::{Element, FileCache, LoadError, Pos, XmlFile};
use super::{GlobalUsing, NoteSeverity, ProjectNote};

/// What evaluations share: parsed files and directory walks.
#[derive(Default)]
pub(crate) struct Env {
    pub files: FileCache,
    pub filesets: FileSets,
}

/// A `<ProjectReference>` that names an existing file.
#[derive(Clone, Debug)]
pub(crate) struct Reference {
    pub path: PathBuf,
    pub at: Loc,
    /// False with `ReferenceOutputAssembly="false"`: built first, but its
    /// types are not visible to the referencing project.
    pub output_assembly: bool,
}

/// The result of one evaluation.
#[derive(Debug, Default)]
pub(crate) struct Evaluation {
    pub props: Props,
    pub sdk_style: bool,
    /// The SDKs the project uses (`Sdk="..."`, `<Sdk Name>`, `<Import Sdk>`),
    /// in order; the first is the primary one.
    pub sdks: Vec<String>,
    /// False for projects of SDKs that compile nothing (NoTargets, Traversal).
    pub compiles: bool,
    pub compile: Vec<PathBuf>,
    pub usings: Vec<GlobalUsing>,
    pub references: Vec<Reference>,
    /// The packages (`<PackageReference>`) and assemblies (`<Reference>`,
    /// simple names) it references; only test-project detection reads them.
    pub packages: Vec<String>,
    /// The existing files of `<Reference>`s with a `HintPath` (or a path to a
    /// DLL as `Include`), in document order, each once.
    pub assemblies: Vec<PathBuf>,
    pub notes: Vec<ProjectNote>,
}

/// Properties whose final value discovery reports, directly or through the
/// results it derives from them.
const REPORTED_PROPERTIES: &[(&str, &str)] = &[
    ("TargetFramework", "the framework's preprocessor symbols"),
    (
        "TargetFrameworks",
        "the frameworks' sources and preprocessor symbols",
    ),
    ("DefineConstants", "the preprocessor symbols"),
    ("LangVersion", "the language version"),
    ("AssemblyName", "the assembly name"),
    ("RootNamespace", "the root namespace"),
    ("ImplicitUsings", "the implicit global usings"),
    ("EnableDefaultItems", "the default `**/*.cs` sources"),
    ("EnableDefaultCompileItems", "the default `**/*.cs` sources"),
];

/// Properties MSBuild computes itself; projects cannot set them.
const RESERVED: &[&str] = &[
    "MSBuildProjectFullPath",
    "MSBuildProjectDirectory",
    "MSBuildProjectDirectoryNoRoot",
    "MSBuildProjectFile",
    "MSBuildProjectName",
    "MSBuildProjectExtension",
    "MSBuildThisFile",
    "MSBuildThisFileDirectory",
    "MSBuildThisFileDirectoryNoRoot",
    "MSBuildThisFileExtension",
    "MSBuildThisFileFullPath",
    "MSBuildThisFileName",
    "MSBuildExtensionsPath",
    "MSBuildExtensionsPath32",
    "MSBuildExtensionsPath64",
    "MSBuildToolsPath",
    "MSBuildBinPath",
    "MSBuildSDKsPath",
    "MSBuildToolsVersion",
    "MSBuildRuntimeType",
    "MSBuildVersion",
    "MSBuildAssemblyVersion",
];

/// Imports nested deeper than this are a cycle MSBuild would reject.
const MAX_IMPORT_DEPTH: usize = 64;

/// Files one evaluation imports at most (a wildcard import such as
/// `$(Dir)/**/*.props` can name a whole disk); the rest are skipped with a note.
pub(crate) const MAX_IMPORTS: usize = 1024;

/// Evaluates `project` (whose root element is `root`: the parsed file, or a
/// stand-in when it could not be parsed) with global properties `globals`.
/// Without `with_items`, only properties are evaluated.
pub(crate) fn evaluate(
    env: &Env,
    project: &Path,
    root: &Element,
    globals: &[(String, String)],
    with_items: bool,
) -> Evaluation {
    let project_dir = project.parent().map(Path::to_path_buf).unwrap_or_default();
    let file: Arc<Path> = Arc::from(project);
    let mut evaluator = Evaluator {
        env,
        project_dir: project_dir.clone(),
        props: initial_properties(project, globals),
        globals: globals
            .iter()
            .map(|(n, _)| n.to_ascii_lowercase())
            .collect(),
        imported: FxHashSet::default(),
        imports_capped: false,
        depth: 0,
        pending: Vec::new(),
        frame: Frame {
            file: file.clone(),
            dir: project_dir,
        },
        toolset_names: sdk::toolset_names(),
        out: Evaluation {
            compiles: true,
            ..Evaluation::default()
        },
    };
    evaluator.imported.insert(project.to_path_buf());
    evaluator.enter(&file);

    let mut sdks: Vec<(String, Pos)> = root
        .attr("Sdk")
        .map(|s| {
            s.split(';')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(|s| (s.to_owned(), root.pos))
                .collect()
        })
        .unwrap_or_default();
    sdks.extend(
        root.children
            .iter()
            .filter(|c| c.name == "Sdk")
            .filter_map(|c| c.attr("Name").map(|n| (n.trim().to_owned(), c.pos))),
    );

    for (name, pos) in &sdks {
        evaluator.sdk_import(name, SdkPart::Props, *pos, true);
    }
    evaluator.elements(&root.children, &None);
    for (name, pos) in sdks.iter().rev() {
        evaluator.sdk_import(name, SdkPart::Targets, *pos, true);
    }
    if with_items {
        evaluator.items();
    }
    evaluator.finish()
}

fn initial_properties(project: &Path, globals: &[(String, String)]) -> Props {
    let mut props = Props::default();
    let dir = project.parent().unwrap_or(Path::new(""));
    let extension = path::dotted_extension(project);
    let fixed = [
        (
            "MSBuildProjectFullPath",
            project.to_string_lossy().into_owned(),
        ),
        (
            "MSBuildProjectDirectory",
            dir.to_string_lossy().into_owned(),
        ),
        ("MSBuildProjectDirectoryNoRoot", no_root(dir)),
        ("MSBuildProjectFile", path::os_text(project.file_name())),
        ("MSBuildProjectName", path::os_text(project.file_stem())),
        ("MSBuildProjectExtension", extension),
        ("MSBuildExtensionsPath", TOOLSET.to_owned()),
        ("MSBuildExtensionsPath32", TOOLSET.to_owned()),
        ("MSBuildExtensionsPath64", TOOLSET.to_owned()),
        ("MSBuildToolsPath", TOOLSET.to_owned()),
        ("MSBuildBinPath", TOOLSET.to_owned()),
        ("MSBuildSDKsPath", TOOLSET.to_owned()),
        ("MSBuildToolsVersion", "Current".to_owned()),
        ("MSBuildRuntimeType", "Core".to_owned()),
        ("MSBuildVersion", "17.14.0".to_owned()),
        ("MSBuildAssemblyVersion", "17.0".to_owned()),
    ];
    for (name, value) in fixed {
        props.set(name, Value::known(value), None);
    }
    for (name, value) in globals {
        props.set(name, Value::known(value.clone()), None);
    }
    props
}

fn no_root(dir: &Path) -> String {
    let text = dir.to_string_lossy();
    text.trim_start_matches(['/', '\\']).to_owned()
}

#[derive(Copy, Clone, PartialEq)]
enum SdkPart {
    Props,
    Targets,
}

/// The file being evaluated in pass 1.
#[derive(Clone)]
struct Frame {
    file: Arc<Path>,
    dir: PathBuf,
}

/// An item element waiting for pass 2.
struct PendingItem {
    file: Arc<Path>,
    group_condition: Option<(String, Pos)>,
    /// Taint of the `When` that selected it, if any.
    taint: Taint,
    element: Element,
}

struct Evaluator<'a> {
    env: &'a Env,
    project_dir: PathBuf,
    props: Props,
    globals: FxHashSet<String>,
    imported: FxHashSet<PathBuf>,
    /// [`MAX_IMPORTS`] was reached (and said).
    imports_capped: bool,
    depth: usize,
    pending: Vec<PendingItem>,
    frame: Frame,
    toolset_names: Vec<&'static str>,
    out: Evaluation,
}

impl Evaluator<'_> {
    fn loc(&self, pos: Pos) -> Loc {
        Loc {
            file: self.frame.file.clone(),
            pos,
        }
    }

    /// Sets the `MSBuildThisFile*` properties for `file`.
    fn enter(&mut self, file: &Arc<Path>) -> Frame {
        let dir = file.parent().map(Path::to_path_buf).unwrap_or_default();
        let previous = std::mem::replace(
            &mut self.frame,
            Frame {
                file: file.clone(),
                dir: dir.clone(),
            },
        );
        self.set_this_file(file);
        previous
    }

    fn leave(&mut self, previous: Frame) {
        let file = previous.file.clone();
        self.frame = previous;
        self.set_this_file(&file);
    }

    fn set_this_file(&mut self, file: &Path) {
        let dir = file.parent().unwrap_or(Path::new(""));
        let values = [
            ("MSBuildThisFile", path::os_text(file.file_name())),
            (
                "MSBuildThisFileDirectory",
                path::with_trailing_separator(dir),
            ),
            (
                "MSBuildThisFileDirectoryNoRoot",
                no_root(&PathBuf::from(path::with_trailing_separator(dir))),
            ),
            ("MSBuildThisFileExtension", path::dotted_extension(file)),
            (
                "MSBuildThisFileFullPath",
                file.to_string_lossy().into_owned(),
            ),
            ("MSBuildThisFileName", path::os_text(file.file_stem())),
        ];
        for (name, value) in values {
            self.props.set(name, Value::known(value), None);
        }
    }

    fn note(&mut self, loc: &Loc, severity: NoteSeverity, message: String) {
        if sdk::is_embedded(&loc.file) {
            // Our own model should not produce notes; if it does, pointing at
            // an embedded file would not help the user.
            return;
        }
        self.out.notes.push(ProjectNote {
            file: loc.file.to_path_buf(),
            line: Some(loc.pos.line),
            column: Some(loc.pos.col),
            message,
            severity,
        });
    }

    /// Reports that `effect` depends on `issue`, at the issue's origin. An
    /// effect elsewhere (an import, an item) names its own location.
    fn note_issue(&mut self, issue: &Issue, effect: &str, effect_at: Option<&Loc>) {
        // Effects inside our SDK model surface through the reported
        // properties they derive from; their own location means nothing to users.
        if effect_at.is_some_and(|at| sdk::is_embedded(&at.file)) {
            return;
        }
        let effect = match effect_at {
            Some(at) if at.file != issue.loc.file || at.pos.line != issue.loc.pos.line => {
                format!("{effect} at {}:{}", at.file.display(), at.pos.line)
            }
            _ => effect.to_owned(),
        };
        let message = format!("{effect} may be wrong: {}", issue.message);
        self.note(&issue.loc.clone(), NoteSeverity::Warning, message);
    }

    /// Evaluates an element's `Condition` in pass 1 (paths relative to the
    /// file that contains it).
    fn condition(&self, element: &Element) -> condition::Outcome {
        let loc = self.loc(element.pos);
        let scope = Scope {
            props: &self.props,
            listings: Some(&self.env.filesets),
            dir: &self.frame.dir,
            loc: &loc,
        };
        condition::evaluate(
            element.attr("Condition").unwrap_or(""),
            &scope,
            &self.toolset_names,
        )
    }

    fn expand(&self, text: &str, pos: Pos) -> Value {
        let loc = self.loc(pos);
        Scope {
            props: &self.props,
            listings: Some(&self.env.filesets),
            dir: &self.frame.dir,
            loc: &loc,
        }
        .expand(text)
    }

    fn elements(&mut self, elements: &[Element], inherited: &Taint) {
        for element in elements {
            match element.name.as_str() {
                "PropertyGroup" => {
                    for property in &element.children {
                        self.props.declare(&property.name);
                    }
                    let outcome = self.condition(element);
                    let taint = outcome.taint.or_else(|| inherited.clone());
                    for property in &element.children {
                        if outcome.value {
                            self.property(property, &taint);
                        } else if let Some(issue) = &taint {
                            self.props.taint(&property.name, issue);
                        }
                    }
                }
                "ItemGroup" => {
                    let group_condition = element
                        .attr("Condition")
                        .map(|c| (c.to_owned(), element.pos));
                    for item in &element.children {
                        self.pending.push(PendingItem {
                            file: self.frame.file.clone(),
                            group_condition: group_condition.clone(),
                            taint: inherited.clone(),
                            element: item.clone(),
                        });
                    }
                }
                "Import" => self.import(element, inherited),
                "ImportGroup" => {
                    let outcome = self.condition(element);
                    if outcome.value {
                        let taint = outcome.taint.or_else(|| inherited.clone());
                        for import in element.children.iter().filter(|c| c.name == "Import") {
                            self.import(import, &taint);
                        }
                    } else if let Some(issue) = outcome.taint {
                        let at = self.loc(element.pos);
                        self.note_issue(&issue, "skipping the imports", Some(&at));
                    }
                }
                "Choose" => self.choose(element, inherited),
                // Targets, tasks, item definitions and IDE data do not decide
                // what is compiled.
                _ => {}
            }
        }
    }

    fn property(&mut self, element: &Element, inherited: &Taint) {
        let name = element.name.as_str();
        if self.globals.contains(&name.to_ascii_lowercase())
            || RESERVED.iter().any(|r| r.eq_ignore_ascii_case(name))
        {
            return;
        }
        let outcome = self.condition(element);
        let taint = outcome.taint.or_else(|| inherited.clone());
        if outcome.value {
            let mut value = self.expand(element.text.trim(), element.pos);
            value.taint = value.taint.or(taint);
            let at = self.loc(element.pos);
            self.props.set(name, value, Some(at));
        } else if let Some(issue) = taint {
            self.props.taint(name, &issue);
        }
    }

    fn choose(&mut self, element: &Element, inherited: &Taint) {
        for branch in &element.children {
            match branch.name.as_str() {
                "When" => {
                    let outcome = self.condition(branch);
                    if outcome.value {
                        let taint = outcome.taint.or_else(|| inherited.clone());
                        self.elements(&branch.children, &taint);
                        return;
                    }
                    if let Some(issue) = outcome.taint {
                        let at = self.loc(branch.pos);
                        self.note_issue(&issue, "the choice of the `When` branch", Some(&at));
                    }
                }
                "Otherwise" => {
                    self.elements(&branch.children, inherited);
                    return;
                }
                _ => {}
            }
        }
    }

    fn import(&mut self, element: &Element, inherited: &Taint) {
        let outcome = self.condition(element);
        let at = self.loc(element.pos);
        if !outcome.value {
            if let Some(issue) = outcome.taint {
                self.note_issue(&issue, "skipping the import", Some(&at));
            }
            return;
        }
        let project = element.attr("Project").unwrap_or("");
        if let Some(sdk_name) = element.attr("Sdk") {
            let part = if project.trim().eq_ignore_ascii_case("Sdk.targets") {
                SdkPart::Targets
            } else {
                SdkPart::Props
            };
            self.sdk_import(sdk_name, part, element.pos, false);
            return;
        }
        let value = self.expand(project, element.pos);
        let taint = value.taint.clone().or_else(|| inherited.clone());
        if let Some(issue) = &taint {
            self.note_issue(issue, "the import", Some(&at));
        }
        for spec in value
            .text
            .split(';')
            .map(str::trim)
            .filter(|s| !s.is_empty())
        {
            if let Some(rest) = spec.strip_prefix(TOOLSET) {
                match sdk::toolset_file(rest) {
                    Some(file) => self.run_file(&file),
                    None => self.note(
                        &at,
                        NoteSeverity::Note,
                        format!(
                            "`{}` of the MSBuild installation is not modelled by rlc-sharp; skipped",
                            rest.trim_start_matches(['/', '\\'])
                        ),
                    ),
                }
                continue;
            }
            if spec.contains(['*', '?']) {
                let text = spec;
                let spec = Spec::parse(&self.frame.dir.clone(), spec);
                let matched = self.env.filesets.resolve(&spec, &[], false);
                if matched.truncated {
                    self.note_truncated(&at, text);
                }
                let mut files = matched.files.clone();
                files.sort();
                for file in files {
                    self.import_file(&file, &at);
                }
                continue;
            }
            let target = path::resolve(&self.frame.dir, &unescape(spec));
            match path::find_ignoring_case(&target) {
                Some(found) if found.is_file() => self.import_file(&found, &at),
                // The taint note already says why the path may be wrong.
                _ if taint.is_some() => {}
                _ => self.note(
                    &at,
                    NoteSeverity::Warning,
                    format!(
                        "imported file `{}` does not exist; skipped",
                        target.display()
                    ),
                ),
            }
        }
    }

    fn import_file(&mut self, file: &Path, at: &Loc) {
        if self.imported.contains(file) {
            // MSBuild ignores repeated imports too (warning MSB4011).
            return;
        }
        if self.imported.len() >= MAX_IMPORTS {
            if !std::mem::replace(&mut self.imports_capped, true) {
                self.note(
                    at,
                    NoteSeverity::Warning,
                    format!(
                        "more than {MAX_IMPORTS} files imported; `{}` and the imports after it are skipped",
                        file.display()
                    ),
                );
            }
            return;
        }
        let loaded = self.env.files.load(file);
        match loaded.as_ref() {
            Ok(parsed) => self.run_file(&parsed.clone()),
            Err(LoadError::Malformed { pos, message }) => {
                let loc = Loc {
                    file: Arc::from(file),
                    pos: *pos,
                };
                self.note(
                    &loc,
                    NoteSeverity::Warning,
                    format!("malformed XML, file not imported: {message}"),
                );
            }
            Err(LoadError::Unreadable(message)) => {
                self.note(
                    at,
                    NoteSeverity::Warning,
                    format!("cannot read imported file `{}`: {message}", file.display()),
                );
            }
        }
    }

    fn run_file(&mut self, file: &Arc<XmlFile>) {
        if !self.imported.insert(file.path.clone()) {
            return;
        }
        if self.depth >= MAX_IMPORT_DEPTH {
            let at = self.loc(file.root.pos);
            self.note(
                &at,
                NoteSeverity::Warning,
                "imports nested too deeply; the rest is skipped".into(),
            );
            return;
        }
        self.depth += 1;
        let path: Arc<Path> = Arc::from(file.path.as_path());
        let previous = self.enter(&path);
        self.elements(&file.root.children, &None);
        self.leave(previous);
        self.depth -= 1;
    }

    /// The implicit or explicit import of an SDK's `Sdk.props`/`Sdk.targets`.
    fn sdk_import(&mut self, name: &str, part: SdkPart, pos: Pos, implicit: bool) {
        let at = self.loc(pos);
        let kind = sdk::classify(name);
        if implicit || !matches!(kind, SdkKind::Unknown) {
            self.out.sdk_style = true;
            let name = sdk::sdk_name(name);
            if !self.out.sdks.iter().any(|s| s.eq_ignore_ascii_case(name)) {
                self.out.sdks.push(name.to_owned());
            }
        }
        let flavour = match kind {
            SdkKind::Known(flavour) => flavour,
            SdkKind::NonCompiling => {
                self.out.compiles = false;
                if part == SdkPart::Props {
                    self.note(
                        &at,
                        NoteSeverity::Note,
                        format!(
                            "the SDK `{}` compiles no C#; the project's sources are not checked",
                            sdk::sdk_name(name)
                        ),
                    );
                }
                return;
            }
            SdkKind::Unknown if !implicit => {
                if part == SdkPart::Props {
                    self.props.mark_incomplete(sdk::sdk_name(name), &at);
                    self.note(
                        &at,
                        NoteSeverity::Note,
                        format!(
                            "the MSBuild SDK `{}` is not available to rlc-sharp; the properties it defines are unknown",
                            sdk::sdk_name(name)
                        ),
                    );
                }
                return;
            }
            SdkKind::Unknown => {
                if part == SdkPart::Props {
                    self.note(
                        &at,
                        NoteSeverity::Note,
                        format!(
                            "the MSBuild SDK `{}` is not known to rlc-sharp; the project is evaluated as a Microsoft.NET.Sdk project",
                            sdk::sdk_name(name)
                        ),
                    );
                }
                None
            }
        };
        match part {
            SdkPart::Props => {
                if let Some(flavour) = flavour {
                    self.props.set(flavour, Value::known("true"), None);
                }
                self.run_file(&sdk::sdk_props());
            }
            SdkPart::Targets => self.run_file(&sdk::sdk_targets()),
        }
    }

    /// Pass 2.
    fn items(&mut self) {
        let pending = std::mem::take(&mut self.pending);
        let mut compile_seen: FxHashSet<PathBuf> = FxHashSet::default();
        for item in &pending {
            let kind = item.element.name.to_ascii_lowercase();
            if !matches!(
                kind.as_str(),
                "compile" | "using" | "projectreference" | "packagereference" | "reference"
            ) {
                continue;
            }
            self.set_this_file(&item.file);
            let loc = Loc {
                file: item.file.clone(),
                pos: item.element.pos,
            };
            let mut taint = item.taint.clone();
            let conditions = item.group_condition.iter().map(|(c, p)| (c.as_str(), *p));
            let own = item
                .element
                .attr("Condition")
                .map(|c| (c, item.element.pos));
            let mut included = true;
            for (text, pos) in conditions.chain(own) {
                let cond_loc = Loc {
                    file: item.file.clone(),
                    pos,
                };
                let scope = Scope {
                    props: &self.props,
                    listings: Some(&self.env.filesets),
                    dir: &self.project_dir,
                    loc: &cond_loc,
                };
                let outcome = condition::evaluate(text, &scope, &self.toolset_names);
                taint = taint.or(outcome.taint);
                if !outcome.value {
                    included = false;
                    break;
                }
            }
            let package = matches!(kind.as_str(), "packagereference" | "reference");
            if !included {
                // Packages only tell test projects apart: not worth a note.
                if let (Some(issue), false) = (taint, package) {
                    self.note_issue(
                        &issue,
                        &format!("skipping the `{}` item", item.element.name),
                        Some(&loc),
                    );
                }
                continue;
            }
            match kind.as_str() {
                "compile" => self.compile_item(&item.element, &loc, taint, &mut compile_seen),
                "using" => self.using_item(&item.element, &loc, taint),
                "projectreference" => self.reference_item(&item.element, &loc, taint),
                "reference" => {
                    self.package_item(&item.element, &loc);
                    self.assembly_item(&item.element, &loc, taint);
                }
                _ => self.package_item(&item.element, &loc),
            }
        }
        self.set_this_file(&self.frame.file.clone());
    }

    /// Expands an item attribute or metadata in pass 2 (relative paths are
    /// relative to the project), refusing item lists and metadata.
    fn item_value(&mut self, text: &str, loc: &Loc, what: &str) -> Option<Value> {
        if text.contains("@(") || text.contains("%(") {
            let message = format!(
                "`{what}` items built from other items or metadata (`{}`) are not supported; skipped",
                text.trim()
            );
            self.note(loc, NoteSeverity::Warning, message);
            return None;
        }
        Some(
            Scope {
                props: &self.props,
                listings: Some(&self.env.filesets),
                dir: &self.project_dir,
                loc,
            }
            .expand(text),
        )
    }

    /// The parts of an item attribute: expanded, split at `;`, trimmed.
    fn item_parts(
        &mut self,
        element: &Element,
        attr: &str,
        loc: &Loc,
        taint: &mut Taint,
    ) -> Option<Vec<String>> {
        let raw = element.attr(attr)?;
        let value = self.item_value(raw, loc, &element.name)?;
        if taint.is_none() {
            *taint = value.taint;
        }
        Some(
            split_top_level(&value.text, ';')
                .into_iter()
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
                .collect(),
        )
    }

    fn compile_item(
        &mut self,
        element: &Element,
        loc: &Loc,
        mut taint: Taint,
        seen: &mut FxHashSet<PathBuf>,
    ) {
        let project_dir = self.project_dir.clone();
        if let Some(includes) = self.item_parts(element, "Include", loc, &mut taint) {
            let excludes: Vec<Spec> = self
                .item_parts(element, "Exclude", loc, &mut taint)
                .unwrap_or_default()
                .iter()
                .map(|e| Spec::parse(&project_dir, e))
                .collect();
            let skip_nested = element.attr("RlcSkipNestedProjects") == Some("true");
            for include in includes {
                let spec = Spec::parse(&project_dir, &include);
                let matched = self.env.filesets.resolve(&spec, &excludes, skip_nested);
                if matched.truncated {
                    self.note_truncated(loc, &include);
                }
                for (file, problem) in &matched.problems {
                    let at = Loc {
                        file: Arc::from(file.as_path()),
                        pos: Pos::default(),
                    };
                    self.note_at_path(&at, problem.clone());
                }
                if let (Spec::Literal(file), true) = (&spec, matched.missing) {
                    self.note(
                        loc,
                        NoteSeverity::Warning,
                        format!("Compile item `{}` does not exist", file.display()),
                    );
                }
                for file in &matched.files {
                    if seen.insert(file.clone()) {
                        self.out.compile.push(file.clone());
                    }
                }
            }
        }
        if let Some(removes) = self.item_parts(element, "Remove", loc, &mut taint) {
            let patterns: Vec<String> = removes
                .iter()
                .map(|r| Spec::parse(&project_dir, r).pattern())
                .collect();
            match fileset::compile(&patterns) {
                Ok(set) => {
                    self.out.compile.retain(|f| !set.is_match(path::slash(f)));
                    seen.retain(|f| !set.is_match(path::slash(f)));
                }
                Err(e) => self.note(
                    loc,
                    NoteSeverity::Warning,
                    format!("invalid `Remove` wildcard: {e}"),
                ),
            }
        }
        if let Some(issue) = taint {
            self.note_issue(&issue, "the files of the `Compile` item", Some(loc));
        }
    }

    /// Walk problems have a path but no position.
    /// A wildcard that names more files than [`fileset::Limits`] allow.
    fn note_truncated(&mut self, at: &Loc, spec: &str) {
        let limits = self.env.filesets.limits;
        self.note(
            at,
            NoteSeverity::Warning,
            format!(
                "the wildcard `{spec}` names too many files: only the first {} found in a walk of at most {} files and directories are used",
                limits.matched_files, limits.walk_entries
            ),
        );
    }

    fn note_at_path(&mut self, at: &Loc, message: String) {
        self.out.notes.push(ProjectNote {
            file: at.file.to_path_buf(),
            line: None,
            column: None,
            message,
            severity: NoteSeverity::Warning,
        });
    }

    fn using_item(&mut self, element: &Element, loc: &Loc, mut taint: Taint) {
        if let Some(includes) = self.item_parts(element, "Include", loc, &mut taint) {
            let alias = element
                .metadata("Alias")
                .map(|a| self.item_value(a, loc, "Using"));
            let is_static = element
                .metadata("Static")
                .map(|s| self.item_value(s, loc, "Using"));
            let alias = alias
                .flatten()
                .map(|v| unescape(v.text.trim()))
                .filter(|a| !a.is_empty());
            let is_static = is_static
                .flatten()
                .is_some_and(|v| v.text.trim().eq_ignore_ascii_case("true"));
            for include in includes {
                let target = unescape(&include);
                let using = match &alias {
                    Some(alias) => GlobalUsing::Alias {
                        alias: alias.clone(),
                        target,
                    },
                    None if is_static => GlobalUsing::Static(target),
                    None => GlobalUsing::Namespace(target),
                };
                if !self.out.usings.contains(&using) {
                    self.out.usings.push(using);
                }
            }
        }
        if let Some(removes) = self.item_parts(element, "Remove", loc, &mut taint) {
            self.out.usings.retain(|u| {
                !removes
                    .iter()
                    .any(|r| unescape(r).eq_ignore_ascii_case(u.target()))
            });
        }
        if let Some(issue) = taint {
            self.note_issue(&issue, "the `Using` item", Some(loc));
        }
    }

    fn reference_item(&mut self, element: &Element, loc: &Loc, mut taint: Taint) {
        let project_dir = self.project_dir.clone();
        if let Some(includes) = self.item_parts(element, "Include", loc, &mut taint) {
            let output_assembly = match element.metadata("ReferenceOutputAssembly") {
                Some(text) => self
                    .item_value(text, loc, "ProjectReference")
                    .is_none_or(|v| !v.text.trim().eq_ignore_ascii_case("false")),
                None => true,
            };
            for include in includes {
                let spec = Spec::parse(&project_dir, &include);
                let matched = self.env.filesets.resolve(&spec, &[], false);
                if matched.truncated {
                    self.note_truncated(loc, &include);
                }
                if let (Spec::Literal(file), true) = (&spec, matched.missing) {
                    self.note(
                        loc,
                        NoteSeverity::Warning,
                        format!("referenced project `{}` does not exist", file.display()),
                    );
                }
                for file in &matched.files {
                    if !self.out.references.iter().any(|r| &r.path == file) {
                        self.out.references.push(Reference {
                            path: file.clone(),
                            at: loc.clone(),
                            output_assembly,
                        });
                    }
                }
            }
        }
        if let Some(removes) = self.item_parts(element, "Remove", loc, &mut taint) {
            let patterns: Vec<String> = removes
                .iter()
                .map(|r| Spec::parse(&project_dir, r).pattern())
                .collect();
            if let Ok(set) = fileset::compile(&patterns) {
                self.out
                    .references
                    .retain(|r| !set.is_match(path::slash(&r.path)));
            }
        }
        if let Some(issue) = taint {
            self.note_issue(&issue, "the `ProjectReference`", Some(loc));
        }
    }

    /// `<PackageReference Include="xunit">`, `<Reference Include="nunit.framework, Version=...">`:
    /// the names, without notes (see [`Evaluation::packages`]).
    fn package_item(&mut self, element: &Element, loc: &Loc) {
        let Some(raw) = element.attr("Include") else {
            return;
        };
        if raw.contains("@(") || raw.contains("%(") {
            return;
        }
        let value = Scope {
            props: &self.props,
            listings: Some(&self.env.filesets),
            dir: &self.project_dir,
            loc,
        }
        .expand(raw);
        for part in split_top_level(&value.text, ';') {
            // An assembly reference may carry its identity: `name, Version=...`.
            let name = unescape(part.split(',').next().unwrap_or("").trim());
            if !name.is_empty()
                && !self
                    .out
                    .packages
                    .iter()
                    .any(|p| p.eq_ignore_ascii_case(&name))
            {
                self.out.packages.push(name);
            }
        }
    }

    /// `<Reference Include="Acme, Version=..." HintPath="..\packages\Acme.dll">`
    /// (`HintPath` as attribute or child), or `<Reference Include="lib\Acme.dll">`:
    /// the DLL, relative to the project. A reference without either is one
    /// of the framework's, which only reference packs hold.
    fn assembly_item(&mut self, element: &Element, loc: &Loc, mut taint: Taint) {
        let include = element.attr("Include").unwrap_or("");
        let spec = match element.metadata("HintPath") {
            Some(hint) => hint,
            None if include.trim().to_ascii_lowercase().ends_with(".dll") => include,
            None => return,
        };
        let Some(value) = self.item_value(spec, loc, "Reference") else {
            return;
        };
        taint = taint.or(value.taint);
        let text = unescape(value.text.trim());
        if text.is_empty() {
            return;
        }
        let target = path::resolve(&self.project_dir, &text);
        match path::find_ignoring_case(&target).filter(|f| f.is_file()) {
            Some(found) => {
                if !self.out.assemblies.contains(&found) {
                    self.out.assemblies.push(found);
                }
            }
            // The taint note says why the path may be wrong.
            None if taint.is_some() => {}
            None => {
                let name = include.split(',').next().unwrap_or("").trim();
                self.note(
                    loc,
                    NoteSeverity::Note,
                    format!(
                        "referenced assembly not read: `{}` of the reference `{name}` does not exist; its types stay unknown",
                        target.display()
                    ),
                );
            }
        }
        if let Some(issue) = taint {
            self.note_issue(&issue, "the assembly of the `Reference`", Some(loc));
        }
    }

    fn finish(mut self) -> Evaluation {
        for (name, consequence) in REPORTED_PROPERTIES {
            if let Some(issue) = self.props.get(name).and_then(|p| p.taint.clone()) {
                self.note_issue(
                    &issue,
                    &format!("`{name}` (and with it {consequence})"),
                    None,
                );
            }
        }
        self.out.props = self.props;
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::super::xml;
    use super::*;

    fn eval_text(text: &str, globals: &[(&str, &str)]) -> Evaluation {
        let dir = tempfile::tempdir().unwrap();
        let project = dir.path().join("P.csproj");
        std::fs::write(&project, text).unwrap();
        let root = xml::parse(&project, text).unwrap().root;
        let globals: Vec<(String, String)> = globals
            .iter()
            .map(|(n, v)| ((*n).to_owned(), (*v).to_owned()))
            .collect();
        evaluate(&Env::default(), &project, &root, &globals, true)
    }

    #[test]
    fn sdk_defaults_and_define_constants() {
        let e = eval_text(
            r#"<Project Sdk="Microsoft.NET.Sdk">
                 <PropertyGroup>
                   <TargetFramework>net8.0</TargetFramework>
                   <DefineConstants>$(DefineConstants);FOO</DefineConstants>
                 </PropertyGroup>
               </Project>"#,
            &[],
        );
        assert!(e.sdk_style);
        assert_eq!(e.props.value("AssemblyName"), "P");
        assert_eq!(e.props.value("TargetFrameworkIdentifier"), ".NETCoreApp");
        assert_eq!(e.props.value("DefineConstants"), ";TRACE;FOO;DEBUG");
        assert!(e.notes.is_empty(), "{:?}", e.notes);
    }

    /// Wildcards that name more than the limits allow: the first files are
    /// used, and a note at the item says so.
    #[test]
    fn wildcards_are_bounded_with_a_located_note() {
        let dir = tempfile::tempdir().unwrap();
        let project = dir.path().join("P.csproj");
        for i in 0..12 {
            std::fs::write(dir.path().join(format!("F{i:02}.cs")), "class F {}").unwrap();
            std::fs::write(dir.path().join(format!("R{i:02}.csproj")), "<Project />").unwrap();
        }
        let text = "<Project Sdk=\"Microsoft.NET.Sdk\">\n<PropertyGroup><TargetFramework>net8.0</TargetFramework>\n<EnableDefaultCompileItems>false</EnableDefaultCompileItems></PropertyGroup>\n<ItemGroup><Compile Include=\"*.cs\" />\n<ProjectReference Include=\"R*.csproj\" /></ItemGroup></Project>";
        std::fs::write(&project, text).unwrap();
        let root = xml::parse(&project, text).unwrap().root;
        let mut env = Env::default();
        env.filesets.limits = fileset::Limits {
            walk_entries: 100,
            matched_files: 5,
        };
        let e = evaluate(&env, &project, &root, &[], true);
        assert_eq!(e.compile.len(), 5, "{:?}", e.compile);
        assert!(e.compile[0].ends_with("F00.cs") && e.compile[4].ends_with("F04.cs"));
        assert_eq!(e.references.len(), 5);
        let cut: Vec<_> = e
            .notes
            .iter()
            .filter(|n| n.message.contains("names too many files"))
            .collect();
        assert_eq!(cut.len(), 2, "{:#?}", e.notes);
        assert!(cut.iter().all(|n| n.file == project), "{cut:?}");
        let at = |spec: &str| {
            cut.iter()
                .find(|n| n.message.contains(spec))
                .and_then(|n| n.line)
        };
        assert_eq!(
            (at("`*.cs`"), at("`R*.csproj`")),
            (Some(4), Some(5)),
            "{cut:?}"
        );

        // A walk cut short: fewer entries than files.
        let mut env = Env::default();
        env.filesets.limits.walk_entries = 8;
        let e = evaluate(&env, &project, &root, &[], true);
        assert!(e.compile.len() < 8, "{:?}", e.compile);
        assert!(
            e.notes
                .iter()
                .any(|n| n.message.contains("names too many files")),
            "{:?}",
            e.notes
        );
    }

    #[test]
    fn globals_win_over_project_properties() {
        let e = eval_text(
            r#"<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><TargetFramework>net8.0</TargetFramework></PropertyGroup></Project>"#,
            &[("TargetFramework", "net462")],
        );
        assert_eq!(e.props.value("TargetFramework"), "net462");
        assert_eq!(e.props.value("TargetFrameworkIdentifier"), ".NETFramework");
    }

    #[test]
    fn tainted_reported_property_becomes_a_note() {
        let e = eval_text(
            r#"<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup>
                 <TargetFrameworks>net8.0</TargetFrameworks>
                 <TargetFrameworks Condition="'$(OS)' == 'Windows_NT'">$(TargetFrameworks);net472</TargetFrameworks>
                 <Irrelevant>$([System.DateTime]::Now)</Irrelevant>
               </PropertyGroup></Project>"#,
            &[],
        );
        assert_eq!(e.props.value("TargetFrameworks"), "net8.0");
        assert_eq!(e.notes.len(), 1, "{:?}", e.notes);
        assert!(
            e.notes[0]
                .message
                .starts_with("`TargetFrameworks` (and with it"),
            "{}",
            e.notes[0].message
        );
        assert_eq!(e.notes[0].line, Some(3));
    }
}
