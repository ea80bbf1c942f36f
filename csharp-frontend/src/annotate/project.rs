//! Per-project parts of `infer`'s output: the attribute definitions for a
//! project that lacks them, and one patch per project for `--patch-dir`.

use std::fmt;
use std::path::{Path, PathBuf};

use rustc_hash::FxHashMap;

use super::AnnotateOptions;
use super::apply::{ReadError, read_source_text};
use super::edit::{self, Edit, Layout};
use crate::project::{GlobalUsing, Project, Workspace};

/// The file `infer` adds to a project that lacks the attribute definitions.
pub const DEFINITIONS_FILE_NAME: &str = "RlcSharpAnnotations.cs";

/// What adds the attribute definitions to a project.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Definitions {
    /// The new file in the project's directory: path and text
    /// (`rlc_attributes::ANNOTATIONS_CS`).
    pub file: (PathBuf, String),
    /// For a project that lists its sources (`<Compile Include>`, as
    /// pre-SDK projects do): the project file with the new file listed;
    /// path, old text, new text.
    pub project_file: Option<(PathBuf, String, String)>,
}

#[derive(Debug)]
pub enum DefinitionsError {
    /// A file of that name exists already.
    Exists(PathBuf),
    Read(PathBuf, ReadError),
    /// The project file is not well-formed XML.
    ProjectFile(PathBuf, String),
}

impl fmt::Display for DefinitionsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DefinitionsError::Exists(p) => write!(
                f,
                "{} exists already; add the attribute definitions by hand",
                p.display()
            ),
            DefinitionsError::Read(p, e) => write!(f, "{}: {e}", p.display()),
            DefinitionsError::ProjectFile(p, e) => write!(f, "{}: {e}", p.display()),
        }
    }
}

impl std::error::Error for DefinitionsError {}

impl AnnotateOptions {
    /// The options for a project's files: its preprocessor symbols, and no
    /// `using` where the project imports the namespace with a `<Using>` item.
    /// A `global using` in one of its files is the caller's to find (the
    /// index has every file's usings): then set `namespace` to `None`.
    pub fn for_project(project: &Project) -> AnnotateOptions {
        let mut build_defines: Vec<Vec<String>> = Vec::new();
        for b in &project.builds {
            if b.defines != project.defines && !build_defines.contains(&b.defines) {
                build_defines.push(b.defines.clone());
            }
        }
        let mut options = AnnotateOptions {
            defines: project.defines.clone(),
            build_defines,
            ..AnnotateOptions::default()
        };
        if let Some(ns) = &options.namespace
            && project
                .global_usings
                .iter()
                .any(|u| matches!(u, GlobalUsing::Namespace(n) if n == ns))
        {
            options.namespace = None;
        }
        options
    }
}

/// The definitions file for `project` (whose files are to use the
/// attributes and which neither declares them nor references a project
/// that does: the caller knows from its index). An implicit project (loose
/// files) gets it in `root`.
pub fn definitions_for(project: &Project, root: &Path) -> Result<Definitions, DefinitionsError> {
    let dir = project
        .path
        .as_deref()
        .and_then(Path::parent)
        .unwrap_or(root);
    let path = dir.join(DEFINITIONS_FILE_NAME);
    if path.exists() {
        return Err(DefinitionsError::Exists(path));
    }
    let project_file = match &project.path {
        Some(csproj) => {
            let old =
                read_source_text(csproj).map_err(|e| DefinitionsError::Read(csproj.clone(), e))?;
            list_source(&old, project.is_sdk_style)
                .map_err(|e| DefinitionsError::ProjectFile(csproj.clone(), e))?
                .map(|new| (csproj.clone(), old, new))
        }
        None => None,
    };
    Ok(Definitions {
        file: (path, rlc_attributes::ANNOTATIONS_CS.to_owned()),
        project_file,
    })
}

/// The project file with `<Compile Include="RlcSharpAnnotations.cs" />`
/// added, when the project does not compile every `.cs` file of its
/// directory; `None` when it does.
fn list_source(text: &str, is_sdk_style: bool) -> Result<Option<String>, String> {
    let (bom, body) = match text.strip_prefix('\u{feff}') {
        Some(rest) => ("\u{feff}", rest),
        None => ("", text),
    };
    let doc = roxmltree::Document::parse(body).map_err(|e| e.to_string())?;
    // An SDK project lists its sources only when it turns the default items
    // off unconditionally; under a condition a listed file could be compiled
    // twice (NETSDK1022), so it is left to the defaults.
    let defaults_off = doc.descendants().any(|n| {
        (n.has_tag_name("EnableDefaultCompileItems") || n.has_tag_name("EnableDefaultItems"))
            && n.text()
                .is_some_and(|t| t.trim().eq_ignore_ascii_case("false"))
            && n.ancestors().all(|a| a.attribute("Condition").is_none())
    });
    if is_sdk_style && !defaults_off {
        return Ok(None);
    }
    let layout = Layout::new(body);
    let item = format!("<Compile Include=\"{DEFINITIONS_FILE_NAME}\" />");
    let compiles: Vec<roxmltree::Node> = doc
        .descendants()
        .filter(|n| n.has_tag_name("Compile") && n.attribute("Include").is_some())
        .filter(|n| {
            n.parent_element()
                .is_some_and(|p| p.has_tag_name("ItemGroup"))
        })
        .collect();
    let edit = match compiles.first() {
        Some(first) => {
            let group: Vec<&roxmltree::Node> = compiles
                .iter()
                .filter(|n| n.parent() == first.parent())
                .collect();
            let key = |n: &roxmltree::Node| n.attribute("Include").unwrap_or("").to_lowercase();
            let sorted = group.windows(2).all(|w| key(w[0]) <= key(w[1]));
            let ours = DEFINITIONS_FILE_NAME.to_lowercase();
            let next = sorted
                .then(|| group.iter().find(|n| key(n) > ours))
                .flatten();
            match (next, group.last()) {
                (Some(next), _) => line_before(&layout, next.range().start, &item),
                (None, Some(last)) => line_after(&layout, last.range(), &item),
                (None, None) => return Ok(None),
            }
        }
        None => {
            // A new item group at the end of the project.
            let project = doc.root_element();
            let close = body
                .get(..project.range().end)
                .and_then(|s| s.rfind("</"))
                .ok_or("the project element has no end tag")?;
            let unit = project
                .children()
                .find(|c| c.is_element())
                .map(|c| layout.indent(c.range().start))
                .filter(|i| !i.is_empty())
                .unwrap_or("  ");
            let eol = layout.eol(close);
            let text =
                format!("{unit}<ItemGroup>{eol}{unit}{unit}{item}{eol}{unit}</ItemGroup>{eol}");
            if layout.at_line_start(close) {
                Edit::insert(layout.line_start(close), text, 0)
            } else {
                Edit::insert(close, format!("{eol}{text}"), 0)
            }
        }
    };
    let new = edit::apply(body, &mut [edit])
        .map_err(|_| "the project file could not be edited".to_owned())?;
    Ok(Some(format!("{bom}{new}")))
}

fn line_before(layout: &Layout, at: usize, item: &str) -> Edit {
    Edit::insert(
        layout.line_start(at),
        format!("{}{item}{}", layout.indent(at), layout.eol(at)),
        0,
    )
}

fn line_after(layout: &Layout, element: std::ops::Range<usize>, item: &str) -> Edit {
    let indent = layout.indent(element.start);
    let eol = layout.eol(element.end);
    Edit::insert(
        layout.next_line_start(element.end),
        format!("{indent}{item}{eol}"),
        0,
    )
}

/// For each path, the index of the first project of `workspace` that
/// compiles it, to make one patch per project; `None` for a path no project
/// compiles (a project file, or the definitions of an implicit project).
pub fn project_of_each(workspace: &Workspace, paths: &[&Path]) -> Vec<Option<usize>> {
    let mut owner: FxHashMap<&Path, usize> = FxHashMap::default();
    for (i, project) in workspace.projects.iter().enumerate() {
        for source in &project.sources {
            owner.entry(source.as_path()).or_insert(i);
        }
        if let Some(path) = &project.path {
            owner.entry(path.as_path()).or_insert(i);
        }
    }
    paths.iter().map(|p| owner.get(p).copied()).collect()
}

/// A patch file name per project of `workspace` (`Lucene.Net.patch`), unique
/// even where file names ignore case.
pub fn patch_file_names(workspace: &Workspace) -> Vec<String> {
    let mut taken: Vec<String> = Vec::new();
    workspace
        .projects
        .iter()
        .map(|p| {
            let stem: String = p
                .name
                .chars()
                .map(|c| {
                    if c.is_alphanumeric() || matches!(c, '.' | '-' | '_') {
                        c
                    } else {
                        '_'
                    }
                })
                .collect();
            let stem = if stem.trim_matches('.').is_empty() {
                "project".to_owned()
            } else {
                stem
            };
            let mut name = format!("{stem}.patch");
            let mut n = 2;
            while taken.contains(&name.to_lowercase()) {
                name = format!("{stem}-{n}.patch");
                n += 1;
            }
            taken.push(name.to_lowercase());
            name
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sdk_projects_compile_the_new_file_by_default() {
        let sdk = "<Project Sdk=\"Microsoft.NET.Sdk\">\n  <PropertyGroup>\n    <TargetFramework>net8.0</TargetFramework>\n  </PropertyGroup>\n</Project>\n";
        assert_eq!(list_source(sdk, true).unwrap(), None);
        let conditional = sdk.replace(
            "<TargetFramework>",
            "<EnableDefaultCompileItems Condition=\"'$(X)' == ''\">false</EnableDefaultCompileItems>\n    <TargetFramework>",
        );
        assert_eq!(list_source(&conditional, true).unwrap(), None);
        let off = sdk.replace(
            "<TargetFramework>",
            "<EnableDefaultCompileItems>false</EnableDefaultCompileItems>\n    <TargetFramework>",
        );
        let listed = list_source(&off, true).unwrap().unwrap();
        assert!(listed.contains("  <ItemGroup>\n    <Compile Include=\"RlcSharpAnnotations.cs\" />\n  </ItemGroup>\n</Project>\n"), "{listed}");
    }

    #[test]
    fn old_projects_list_it_among_their_sources_in_order() {
        let old = "\u{feff}<?xml version=\"1.0\"?>\r\n<Project ToolsVersion=\"15.0\" xmlns=\"http://schemas.microsoft.com/developer/msbuild/2003\">\r\n\t<ItemGroup>\r\n\t\t<Compile Include=\"Program.cs\" />\r\n\t\t<Compile Include=\"Store\\Writer.cs\" />\r\n\t</ItemGroup>\r\n</Project>\r\n";
        let new = list_source(old, false).unwrap().unwrap();
        assert_eq!(
            new,
            old.replace(
                "\t\t<Compile Include=\"Store",
                "\t\t<Compile Include=\"RlcSharpAnnotations.cs\" />\r\n\t\t<Compile Include=\"Store"
            )
        );
        let unsorted = old.replace("Program.cs", "Zeta.cs");
        let new = list_source(&unsorted, false).unwrap().unwrap();
        assert!(new.contains("Writer.cs\" />\r\n\t\t<Compile Include=\"RlcSharpAnnotations.cs\" />\r\n\t</ItemGroup>"), "{new}");
        assert!(list_source("<Project>", false).is_err());
    }

    #[test]
    fn patch_names_are_unique_and_safe() {
        let project = |name: &str| Project {
            name: name.into(),
            path: None,
            sources: Vec::new(),
            references: Vec::new(),
            defines: Vec::new(),
            builds: Vec::new(),
            lang_version: None,
            target_frameworks: Vec::new(),
            global_usings: Vec::new(),
            sdk: None,
            is_sdk_style: true,
            assembly_name: None,
            root_namespace: None,
            test: None,
        };
        let workspace = Workspace {
            root: PathBuf::new(),
            projects: vec![
                project("Lucene.Net"),
                project("lucene.net"),
                project("a/b"),
                project(".."),
            ],
            notes: Vec::new(),
            implicit: false,
        };
        assert_eq!(
            patch_file_names(&workspace),
            [
                "Lucene.Net.patch",
                "lucene.net-2.patch",
                "a_b.patch",
                "project.patch"
            ]
        );
    }
}
