//! The parts of the .NET SDK and of MSBuild's own targets that decide what a
//! project compiles, written as MSBuild files (in `sdk/`) and evaluated by
//! the same evaluator as the user's files, so their ordering relative to the
//! project and Directory.Build.* is MSBuild's.

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use super::expand::TOOLSET;
use super::xml::{self, XmlFile};

/// Files of the MSBuild installation we model, by file name.
const TOOLSET_FILES: &[(&str, &str)] = &[
    (
        "Microsoft.Common.props",
        include_str!("sdk/Microsoft.Common.props"),
    ),
    (
        "Microsoft.Common.targets",
        include_str!("sdk/Microsoft.Common.targets"),
    ),
];

/// Legacy projects import the C# targets, which import the common targets.
const TOOLSET_ALIASES: &[(&str, &str)] = &[
    ("Microsoft.CSharp.targets", "Microsoft.Common.targets"),
    (
        "Microsoft.CSharp.CurrentVersion.targets",
        "Microsoft.Common.targets",
    ),
    (
        "Microsoft.Common.CurrentVersion.targets",
        "Microsoft.Common.targets",
    ),
];

const SDK_PROPS: &str = include_str!("sdk/Sdk.props");
const SDK_TARGETS: &str = include_str!("sdk/Sdk.targets");

/// SDKs whose effect on C# compilation is the one modelled in `sdk/`, with
/// the flavour property their own props set.
const KNOWN_SDKS: &[(&str, Option<&str>)] = &[
    ("Microsoft.NET.Sdk", None),
    ("Microsoft.NET.Sdk.Web", Some("UsingMicrosoftNETSdkWeb")),
    (
        "Microsoft.NET.Sdk.Worker",
        Some("UsingMicrosoftNETSdkWorker"),
    ),
    (
        "Microsoft.NET.Sdk.BlazorWebAssembly",
        Some("UsingMicrosoftNETSdkBlazorWebAssembly"),
    ),
    ("Microsoft.NET.Sdk.Razor", Some("UsingMicrosoftNETSdkRazor")),
    ("Microsoft.NET.Sdk.WindowsDesktop", None),
    ("Microsoft.NET.Sdk.WebAssembly", None),
    ("Microsoft.NET.Sdk.Web.ProjectSystem", None),
    ("Microsoft.NET.Sdk.Publish", None),
];

/// SDKs for projects that compile nothing.
const NON_COMPILING_SDKS: &[&str] = &["Microsoft.Build.NoTargets", "Microsoft.Build.Traversal"];

pub(crate) enum SdkKind {
    /// The .NET SDK or one built on it; the property to set, if any.
    Known(Option<&'static str>),
    NonCompiling,
    Unknown,
}

/// Classifies an SDK reference (`Name` or `Name/Version`).
pub(crate) fn classify(sdk: &str) -> SdkKind {
    let name = sdk_name(sdk);
    if let Some((_, flavour)) = KNOWN_SDKS
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
    {
        SdkKind::Known(*flavour)
    } else if NON_COMPILING_SDKS
        .iter()
        .any(|n| n.eq_ignore_ascii_case(name))
    {
        SdkKind::NonCompiling
    } else {
        SdkKind::Unknown
    }
}

/// The name of an SDK reference without its `/version`.
pub(crate) fn sdk_name(sdk: &str) -> &str {
    sdk.split('/').next().unwrap_or(sdk).trim()
}

struct Embedded {
    toolset: Vec<(&'static str, Arc<XmlFile>)>,
    props: Arc<XmlFile>,
    targets: Arc<XmlFile>,
}

fn embedded() -> &'static Embedded {
    static EMBEDDED: OnceLock<Embedded> = OnceLock::new();
    EMBEDDED.get_or_init(|| Embedded {
        toolset: TOOLSET_FILES
            .iter()
            .map(|(name, text)| (*name, load(name, text)))
            .collect(),
        props: load("Sdk.props", SDK_PROPS),
        targets: load("Sdk.targets", SDK_TARGETS),
    })
}

fn load(name: &str, text: &str) -> Arc<XmlFile> {
    let path = PathBuf::from(TOOLSET).join(name);
    // These files ship inside the binary and are covered by tests; an
    // unparsable one would make every project empty, never wrong.
    let file = xml::parse(&path, text).unwrap_or_else(|_| XmlFile {
        path: path.clone(),
        root: xml::Element::synthetic("Project", &[]),
    });
    Arc::new(file)
}

/// The modelled file of the MSBuild installation a toolset path names.
pub(crate) fn toolset_file(path: &str) -> Option<Arc<XmlFile>> {
    let name = path.rsplit(['/', '\\']).next()?;
    let name = TOOLSET_ALIASES
        .iter()
        .find(|(alias, _)| alias.eq_ignore_ascii_case(name))
        .map_or(name, |(_, target)| target);
    embedded()
        .toolset
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, f)| f.clone())
}

/// File names under the toolset that `Exists()` should see.
pub(crate) fn toolset_names() -> Vec<&'static str> {
    TOOLSET_FILES
        .iter()
        .map(|(n, _)| *n)
        .chain(TOOLSET_ALIASES.iter().map(|(a, _)| *a))
        .collect()
}

pub(crate) fn sdk_props() -> Arc<XmlFile> {
    embedded().props.clone()
}

pub(crate) fn sdk_targets() -> Arc<XmlFile> {
    embedded().targets.clone()
}

/// Whether a path is one of ours rather than a file on disk.
pub(crate) fn is_embedded(path: &Path) -> bool {
    path.starts_with(TOOLSET)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_files_parse() {
        for (name, text) in TOOLSET_FILES
            .iter()
            .chain([("Sdk.props", SDK_PROPS), ("Sdk.targets", SDK_TARGETS)].iter())
        {
            assert!(
                xml::parse(Path::new(name), text).is_ok(),
                "{name} does not parse"
            );
        }
        assert!(toolset_file("<msbuild-toolset>\\Current\\Microsoft.CSharp.targets").is_some());
        assert!(matches!(
            classify("Microsoft.NET.Sdk.Web/8.0.0"),
            SdkKind::Known(Some(_))
        ));
        assert!(matches!(
            classify("Microsoft.DotNet.Arcade.Sdk"),
            SdkKind::Unknown
        ));
    }
}
