//! Path helpers: MSBuild writes paths with `\` on every platform and we
//! resolve them lexically, as MSBuild does, without touching the file system.

use std::ffi::OsString;
use std::path::{Component, Path, PathBuf};

/// Removes `.` and resolves `..` lexically; `..` at the root stays at the root.
pub(crate) fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                let at_root = matches!(
                    out.components().next_back(),
                    None | Some(Component::RootDir | Component::Prefix(_))
                );
                if !at_root {
                    out.pop();
                } else if out.as_os_str().is_empty() {
                    out.push("..");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// An MSBuild path spec with the platform's separator.
pub(crate) fn native_separators(spec: &str) -> String {
    if std::path::MAIN_SEPARATOR == '\\' {
        spec.replace('/', "\\")
    } else {
        spec.replace('\\', "/")
    }
}

/// Resolves an MSBuild path spec against a directory.
pub(crate) fn resolve(base: &Path, spec: &str) -> PathBuf {
    let spec = native_separators(spec.trim());
    normalize(&base.join(spec))
}

/// The path with `/` separators, for glob matching and display.
pub(crate) fn slash(path: &Path) -> String {
    let text = path.to_string_lossy();
    if std::path::MAIN_SEPARATOR == '\\' {
        text.replace('\\', "/")
    } else {
        text.into_owned()
    }
}

/// An absolute, lexically normalized form of a user-given path.
pub(crate) fn absolute(path: &Path) -> std::io::Result<PathBuf> {
    Ok(normalize(&std::path::absolute(path)?))
}

/// A directory path rendered as MSBuild renders directories: with a
/// trailing separator.
pub(crate) fn with_trailing_separator(dir: &Path) -> String {
    let mut text = dir.to_string_lossy().into_owned();
    if !text.ends_with(std::path::MAIN_SEPARATOR) {
        text.push(std::path::MAIN_SEPARATOR);
    }
    text
}

/// Finds an existing path whose components match `path` ignoring ASCII case.
/// Projects written on Windows often disagree with the disk in case; MSBuild
/// on Windows does not care, so neither do we when the exact path is missing.
pub(crate) fn find_ignoring_case(path: &Path) -> Option<PathBuf> {
    if path.exists() {
        return Some(path.to_path_buf());
    }
    let mut found = PathBuf::new();
    for component in path.components() {
        match component {
            Component::Normal(name) => {
                let exact = found.join(name);
                if exact.exists() {
                    found = exact;
                    continue;
                }
                let wanted = name.to_string_lossy().to_ascii_lowercase();
                let dir = if found.as_os_str().is_empty() {
                    Path::new(".")
                } else {
                    &found
                };
                let matched: Option<OsString> = std::fs::read_dir(dir).ok()?.find_map(|entry| {
                    let entry = entry.ok()?;
                    let entry_name = entry.file_name();
                    (entry_name.to_string_lossy().to_ascii_lowercase() == wanted)
                        .then_some(entry_name)
                });
                found.push(matched?);
            }
            other => found.push(other.as_os_str()),
        }
    }
    Some(found)
}

/// An optional file name part as text (empty when absent).
pub(crate) fn os_text(part: Option<&std::ffi::OsStr>) -> String {
    part.map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// The extension with its dot (`.csproj`), as MSBuild's properties show it.
pub(crate) fn dotted_extension(path: &Path) -> String {
    path.extension()
        .map(|e| format!(".{}", e.to_string_lossy()))
        .unwrap_or_default()
}

/// The extension of a path, lowercased (`"csproj"`), or empty.
pub(crate) fn extension_lowercase(path: &Path) -> String {
    path.extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalize_resolves_dots() {
        assert_eq!(
            normalize(Path::new("/a/b/../c/./d")),
            PathBuf::from("/a/c/d")
        );
        assert_eq!(normalize(Path::new("/a/../../b")), PathBuf::from("/b"));
        assert_eq!(normalize(Path::new("a/../../b")), PathBuf::from("../b"));
    }

    #[test]
    fn resolve_takes_backslashes() {
        assert_eq!(
            resolve(Path::new("/p/src"), r"..\Shared\A.cs"),
            PathBuf::from("/p/Shared/A.cs")
        );
        assert_eq!(
            resolve(Path::new("/p"), "/abs/x.cs"),
            PathBuf::from("/abs/x.cs")
        );
    }
}
