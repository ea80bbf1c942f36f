//! MSBuild files as owned element trees, parsed once and shared by every
//! evaluation that imports them.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use rustc_hash::FxHashMap;
use smol_str::SmolStr;

/// A 1-based line and column in a file.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Pos {
    pub line: u32,
    pub col: u32,
}

/// An element: its local name (namespaces play no role in MSBuild), its
/// attributes, its element children and its direct text.
#[derive(Clone, Debug)]
pub(crate) struct Element {
    pub name: SmolStr,
    pub attrs: Vec<(SmolStr, String)>,
    pub children: Vec<Element>,
    pub text: String,
    pub pos: Pos,
}

impl Element {
    pub fn attr(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Item metadata given either as an attribute or as a child element.
    pub fn metadata(&self, name: &str) -> Option<&str> {
        self.attr(name).or_else(|| {
            self.children
                .iter()
                .find(|c| c.name.eq_ignore_ascii_case(name))
                .map(|c| c.text.as_str())
        })
    }

    /// A synthetic element, for the project we fall back to.
    pub fn synthetic(name: &str, attrs: &[(&str, &str)]) -> Element {
        Element {
            name: name.into(),
            attrs: attrs
                .iter()
                .map(|(n, v)| (SmolStr::new(n), (*v).to_owned()))
                .collect(),
            children: Vec::new(),
            text: String::new(),
            pos: Pos { line: 1, col: 1 },
        }
    }
}

/// A parsed MSBuild file.
#[derive(Debug)]
pub(crate) struct XmlFile {
    pub path: PathBuf,
    pub root: Element,
}

/// Why a file could not be used.
#[derive(Clone, Debug)]
pub(crate) enum LoadError {
    Unreadable(String),
    Malformed { pos: Pos, message: String },
}

pub(crate) type Loaded = Arc<Result<Arc<XmlFile>, LoadError>>;

pub(crate) fn parse(path: &Path, text: &str) -> Result<XmlFile, LoadError> {
    // roxmltree's defaults refuse a DTD, and with it entity expansion (an
    // entity bomb): project files have no use for one.
    let doc = roxmltree::Document::parse(text).map_err(|e| {
        let pos = e.pos();
        LoadError::Malformed {
            pos: Pos {
                line: pos.row,
                col: pos.col,
            },
            message: e.to_string(),
        }
    })?;
    Ok(XmlFile {
        path: path.to_path_buf(),
        root: convert(&doc, doc.root_element(), 0)?,
    })
}

/// Real MSBuild files nest a few levels; this bound keeps a hostile file
/// from exhausting the stack of the recursive conversion and evaluation.
const MAX_DEPTH: usize = 128;

fn convert(
    doc: &roxmltree::Document<'_>,
    node: roxmltree::Node<'_, '_>,
    depth: usize,
) -> Result<Element, LoadError> {
    let at = doc.text_pos_at(node.range().start);
    if depth > MAX_DEPTH {
        return Err(LoadError::Malformed {
            pos: Pos {
                line: at.row,
                col: at.col,
            },
            message: format!("elements nested more than {MAX_DEPTH} levels deep"),
        });
    }
    let mut text = String::new();
    let mut children = Vec::new();
    for child in node.children() {
        if child.is_element() {
            children.push(convert(doc, child, depth + 1)?);
        } else if child.is_text() {
            text.push_str(child.text().unwrap_or_default());
        }
    }
    Ok(Element {
        name: node.tag_name().name().into(),
        attrs: node
            .attributes()
            .map(|a| (SmolStr::new(a.name()), a.value().to_owned()))
            .collect(),
        children,
        text,
        pos: Pos {
            line: at.row,
            col: at.col,
        },
    })
}

/// Every MSBuild file read during a discovery, read and parsed once.
#[derive(Default)]
pub(crate) struct FileCache {
    files: Mutex<FxHashMap<PathBuf, Loaded>>,
}

impl FileCache {
    pub fn load(&self, path: &Path) -> Loaded {
        if let Some(hit) = self.lock().get(path) {
            return hit.clone();
        }
        let loaded: Loaded = Arc::new(read(path).and_then(|text| parse(path, &text)).map(Arc::new));
        self.lock()
            .entry(path.to_path_buf())
            .or_insert(loaded)
            .clone()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, FxHashMap<PathBuf, Loaded>> {
        // A panic elsewhere cannot leave the map half-updated: recover it.
        self.files
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

fn read(path: &Path) -> Result<String, LoadError> {
    let bytes = crate::source::read_regular(path, crate::source::MAX_PROJECT_LEN)
        .map_err(|e| LoadError::Unreadable(e.to_string()))?;
    crate::source::decode(&bytes).map_err(|e| LoadError::Unreadable(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_positions_text_and_local_names() {
        let text = "<Project xmlns=\"http://schemas.microsoft.com/developer/msbuild/2003\">\n  <PropertyGroup>\n    <A Condition=\"x\">v<!-- c --></A>\n  </PropertyGroup>\n</Project>";
        let file = parse(Path::new("p.csproj"), text).unwrap();
        assert_eq!(file.root.name, "Project");
        let a = &file.root.children[0].children[0];
        assert_eq!(a.name, "A");
        assert_eq!(a.attr("Condition"), Some("x"));
        assert_eq!(a.text, "v");
        assert_eq!(a.pos, Pos { line: 3, col: 5 });
    }

    #[test]
    fn deep_nesting_is_refused() {
        let text = format!("{}{}", "<a>".repeat(10_000), "</a>".repeat(10_000));
        assert!(matches!(
            parse(Path::new("p"), &text),
            Err(LoadError::Malformed { .. })
        ));
    }

    #[test]
    fn malformed_reports_position() {
        let Err(LoadError::Malformed { pos, .. }) =
            parse(Path::new("p"), "<Project>\n  <A>\n</Project>")
        else {
            panic!("expected a malformed-XML error");
        };
        assert_eq!(pos.line, 3);
    }
}
