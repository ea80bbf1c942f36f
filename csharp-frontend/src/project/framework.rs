//! Target framework monikers (`net8.0`, `netstandard2.0`, `net462`,
//! `net8.0-windows10.0.19041.0`) and the preprocessor symbols the .NET SDK
//! defines for them (Microsoft.NET.Sdk.BeforeCommon.targets).

use std::cmp::Ordering;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    CoreApp,
    Standard,
    Framework,
}

impl Kind {
    pub fn identifier(self) -> &'static str {
        match self {
            Kind::CoreApp => ".NETCoreApp",
            Kind::Standard => ".NETStandard",
            Kind::Framework => ".NETFramework",
        }
    }

    fn from_identifier(identifier: &str) -> Option<Kind> {
        [Kind::CoreApp, Kind::Standard, Kind::Framework]
            .into_iter()
            .find(|k| k.identifier().eq_ignore_ascii_case(identifier))
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Framework {
    pub kind: Kind,
    /// At least two parts: `[8, 0]`, `[4, 6, 2]`.
    pub version: Vec<u32>,
    /// `windows`, `android`, ... (lowercase), with its version if written.
    pub platform: Option<(String, Option<String>)>,
}

/// Parses a short moniker as NuGet does for the three frameworks that matter
/// today; anything else (`uap10.0`, `monoandroid90`, portable profiles) is None.
pub(crate) fn parse(moniker: &str) -> Option<Framework> {
    let moniker = moniker.trim().to_ascii_lowercase();
    let (framework, platform) = match moniker.split_once('-') {
        Some((f, p)) => (f, Some(p)),
        None => (moniker.as_str(), None),
    };
    let (kind, version) = if let Some(v) = framework.strip_prefix("netcoreapp") {
        (Kind::CoreApp, parse_version(v)?)
    } else if let Some(v) = framework.strip_prefix("netstandard") {
        (Kind::Standard, parse_version(v)?)
    } else if let Some(v) = framework.strip_prefix("net") {
        // `net5.0` and later are .NET (Core); `net10` without a dot is .NET Framework 1.0.
        let version = parse_version(v)?;
        (
            if version[0] >= 5 {
                Kind::CoreApp
            } else {
                Kind::Framework
            },
            version,
        )
    } else {
        return None;
    };
    let platform = match platform {
        Some(p) if !p.is_empty() => {
            let split = p.find(|c: char| c.is_ascii_digit()).unwrap_or(p.len());
            let (name, version) = p.split_at(split);
            Some((
                name.to_owned(),
                (!version.is_empty()).then(|| version.to_owned()),
            ))
        }
        _ => None,
    };
    Some(Framework {
        kind,
        version,
        platform,
    })
}

/// `8.0` -> [8, 0]; `462` -> [4, 6, 2] (one digit per part, NuGet's short form).
fn parse_version(text: &str) -> Option<Vec<u32>> {
    if text.is_empty() {
        return None;
    }
    let mut parts: Vec<u32> = if text.contains('.') {
        text.split('.')
            .map(|p| p.parse().ok())
            .collect::<Option<_>>()?
    } else {
        text.chars()
            .map(|c| c.to_digit(10))
            .collect::<Option<_>>()?
    };
    while parts.len() < 2 {
        parts.push(0);
    }
    Some(parts)
}

fn compare(a: &[u32], b: &[u32]) -> Ordering {
    let len = a.len().max(b.len());
    (0..len)
        .map(|i| {
            a.get(i)
                .copied()
                .unwrap_or(0)
                .cmp(&b.get(i).copied().unwrap_or(0))
        })
        .find(|o| o.is_ne())
        .unwrap_or(Ordering::Equal)
}

fn dotted(version: &[u32]) -> String {
    version
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(".")
}

impl Framework {
    /// `$([MSBuild]::GetTargetFrameworkVersion(tfm, parts))`.
    pub fn version_string(&self, min_parts: usize) -> String {
        let mut version = self.version.clone();
        while version.len() > min_parts.max(2) && version.last() == Some(&0) {
            version.pop();
        }
        dotted(&version)
    }

    /// The implicit preprocessor symbols of the SDK: `NET`, `NET8_0`,
    /// `NETCOREAPP`, `NET5_0_OR_GREATER`..., `NETSTANDARD2_0`, `NETFRAMEWORK`,
    /// `NET462`, platform symbols (`WINDOWS`).
    pub fn implicit_defines(&self) -> Vec<String> {
        let underscored = |v: &[u32]| v.iter().map(u32::to_string).collect::<Vec<_>>().join("_");
        let compact = |v: &[u32]| v.iter().map(u32::to_string).collect::<String>();
        let mut out = Vec::new();
        let modern = self.kind == Kind::CoreApp && self.version[0] >= 5;
        match self.kind {
            Kind::CoreApp => {
                if modern {
                    out.push("NET".to_owned());
                    out.push(format!("NET{}", underscored(&self.version)));
                } else {
                    out.push(format!("NETCOREAPP{}", underscored(&self.version)));
                }
                out.push("NETCOREAPP".to_owned());
            }
            Kind::Standard => {
                out.push("NETSTANDARD".to_owned());
                out.push(format!("NETSTANDARD{}", underscored(&self.version)));
            }
            Kind::Framework => {
                out.push("NETFRAMEWORK".to_owned());
                out.push(format!("NET{}", compact(&self.version)));
            }
        }
        for known in known_versions(self.kind, &self.version) {
            if compare(&known, &self.version).is_gt() {
                continue;
            }
            out.push(match self.kind {
                Kind::CoreApp if known[0] >= 5 => {
                    format!("NET{}_OR_GREATER", underscored(&known))
                }
                Kind::CoreApp => format!("NETCOREAPP{}_OR_GREATER", underscored(&known)),
                Kind::Standard => format!("NETSTANDARD{}_OR_GREATER", underscored(&known)),
                Kind::Framework => format!("NET{}_OR_GREATER", compact(&known)),
            });
        }
        if let (true, Some((platform, version))) = (modern, &self.platform) {
            let name = platform.to_ascii_uppercase();
            out.push(name.clone());
            let version = version
                .clone()
                .or_else(|| (platform == "windows").then(|| "7.0".to_owned()));
            if let Some(version) = version {
                let version = version.replace('.', "_");
                out.push(format!("{name}{version}"));
                out.push(format!("{name}{version}_OR_GREATER"));
            }
        }
        out
    }

    /// The short moniker for an identifier and version, as legacy projects
    /// spell them (`.NETFramework`, `v4.7.2` -> `net472`).
    pub fn moniker_of(identifier: &str, version: &str) -> Option<String> {
        let kind = Kind::from_identifier(identifier)?;
        let version = parse_version(version.trim().trim_start_matches(['v', 'V']))?;
        let framework = Framework {
            kind,
            version,
            platform: None,
        };
        Some(framework.moniker())
    }

    fn moniker(&self) -> String {
        match self.kind {
            Kind::CoreApp if self.version[0] >= 5 => format!("net{}", self.version_string(2)),
            Kind::CoreApp => format!("netcoreapp{}", self.version_string(2)),
            Kind::Standard => format!("netstandard{}", self.version_string(2)),
            Kind::Framework => {
                let mut version = self.version.clone();
                while version.len() > 2 && version.last() == Some(&0) {
                    version.pop();
                }
                format!(
                    "net{}",
                    version.iter().map(u32::to_string).collect::<String>()
                )
            }
        }
    }
}

/// The build of a referenced project that a build for `target` uses, as
/// NuGet picks it (`GetNearest`): among the `candidates` compatible with
/// `target`, the same family at the highest version not above it, else the
/// highest compatible .NET Standard; a platform-specific candidate only for
/// the same platform, and preferred then. Monikers rlc-sharp does not know
/// match only themselves. `None` when no candidate is compatible.
pub(crate) fn nearest(target: &str, candidates: &[&str]) -> Option<usize> {
    if let Some(exact) = candidates
        .iter()
        .position(|c| c.trim().eq_ignore_ascii_case(target.trim()))
    {
        return Some(exact);
    }
    let target = parse(target)?;
    candidates
        .iter()
        .enumerate()
        .filter_map(|(i, c)| Some((i, target.preference(&parse(c)?)?)))
        .max_by(|(ia, a), (ib, b)| a.cmp(b).then(ib.cmp(ia)))
        .map(|(i, _)| i)
}

impl Framework {
    /// How well a build for `self` can use a library built for `other`;
    /// `None` when it cannot. Greater is better.
    fn preference(&self, other: &Framework) -> Option<(bool, bool, Vec<u32>)> {
        let same_platform = match (&self.platform, &other.platform) {
            (_, None) => self.platform.is_none(),
            (Some((a, _)), Some((b, _))) if a == b => true,
            _ => return None,
        };
        let same_family = match (self.kind, other.kind) {
            (a, b) if a == b => true,
            (Kind::CoreApp | Kind::Framework, Kind::Standard) => false,
            _ => return None,
        };
        let ceiling = if same_family {
            self.version.clone()
        } else {
            self.standard_supported()?
        };
        if compare(&other.version, &ceiling).is_gt() {
            return None;
        }
        Some((same_family, same_platform, other.version.clone()))
    }

    /// The highest .NET Standard a .NET (Core) or .NET Framework version implements.
    fn standard_supported(&self) -> Option<Vec<u32>> {
        let at_least = |v: &[u32]| compare(&self.version, v).is_ge();
        let standard: &[u32] = match self.kind {
            Kind::CoreApp if at_least(&[2, 1]) => &[2, 1],
            Kind::CoreApp if at_least(&[2, 0]) => &[2, 0],
            Kind::CoreApp => &[1, 6],
            Kind::Framework if at_least(&[4, 6, 1]) => &[2, 0],
            Kind::Framework if at_least(&[4, 6]) => &[1, 3],
            Kind::Framework if at_least(&[4, 5, 1]) => &[1, 2],
            Kind::Framework if at_least(&[4, 5]) => &[1, 1],
            Kind::Framework | Kind::Standard => return None,
        };
        Some(standard.to_vec())
    }
}

const MAX_MAJOR: u32 = 1000;

/// The versions the SDK knows for `_OR_GREATER` symbols. For .NET it lists
/// every major up to the one targeted, so new majors need no table update.
fn known_versions(kind: Kind, target: &[u32]) -> Vec<Vec<u32>> {
    let table: &[&[u32]] = match kind {
        Kind::CoreApp => &[
            &[1, 0],
            &[1, 1],
            &[2, 0],
            &[2, 1],
            &[2, 2],
            &[3, 0],
            &[3, 1],
        ],
        Kind::Standard => &[
            &[1, 0],
            &[1, 1],
            &[1, 2],
            &[1, 3],
            &[1, 4],
            &[1, 5],
            &[1, 6],
            &[2, 0],
            &[2, 1],
        ],
        Kind::Framework => &[
            &[2, 0],
            &[3, 0],
            &[3, 5],
            &[4, 0],
            &[4, 5],
            &[4, 5, 1],
            &[4, 5, 2],
            &[4, 6],
            &[4, 6, 1],
            &[4, 6, 2],
            &[4, 7],
            &[4, 7, 1],
            &[4, 7, 2],
            &[4, 8],
            &[4, 8, 1],
        ],
    };
    let mut versions: Vec<Vec<u32>> = table.iter().map(|v| v.to_vec()).collect();
    if kind == Kind::CoreApp {
        // Bounded: a bogus `net100000.0` must not allocate without limit.
        versions.extend((5..=target[0].min(MAX_MAJOR)).map(|major| vec![major, 0]));
    }
    versions
}

#[cfg(test)]
mod tests {
    use super::*;

    fn defines(tfm: &str) -> Vec<String> {
        parse(tfm).unwrap().implicit_defines()
    }

    #[test]
    fn net8_symbols() {
        let d = defines("net8.0");
        for s in [
            "NET",
            "NET8_0",
            "NETCOREAPP",
            "NET5_0_OR_GREATER",
            "NET8_0_OR_GREATER",
            "NETCOREAPP3_1_OR_GREATER",
        ] {
            assert!(d.contains(&s.to_owned()), "{s} missing from {d:?}");
        }
        assert!(!d.contains(&"NET9_0_OR_GREATER".to_owned()));
    }

    #[test]
    fn framework_and_standard_symbols() {
        let d = defines("net462");
        assert_eq!(&d[..2], ["NETFRAMEWORK", "NET462"]);
        assert!(
            d.contains(&"NET461_OR_GREATER".to_owned())
                && !d.contains(&"NET47_OR_GREATER".to_owned())
        );
        let d = defines("netstandard2.0");
        assert_eq!(&d[..2], ["NETSTANDARD", "NETSTANDARD2_0"]);
        assert!(
            d.contains(&"NETSTANDARD1_6_OR_GREATER".to_owned())
                && !d.contains(&"NETSTANDARD2_1_OR_GREATER".to_owned())
        );
        assert_eq!(
            &defines("netcoreapp3.1")[..2],
            ["NETCOREAPP3_1", "NETCOREAPP"]
        );
    }

    #[test]
    fn platform_symbols() {
        let d = defines("net8.0-windows");
        assert!(d.contains(&"WINDOWS".to_owned()) && d.contains(&"WINDOWS7_0".to_owned()));
        let d = defines("net8.0-windows10.0.19041.0");
        assert!(d.contains(&"WINDOWS10_0_19041_0".to_owned()));
    }

    #[test]
    fn monikers() {
        assert_eq!(parse("net10").unwrap().kind, Kind::Framework);
        assert_eq!(parse("net10.0").unwrap().kind, Kind::CoreApp);
        assert_eq!(parse("net5").unwrap().kind, Kind::CoreApp);
        assert_eq!(parse("uap10.0"), None);
        assert_eq!(
            Framework::moniker_of(".NETFramework", "v4.7.2").as_deref(),
            Some("net472")
        );
        assert_eq!(
            Framework::moniker_of(".NETFramework", "v4.0").as_deref(),
            Some("net40")
        );
        assert_eq!(parse("net462").unwrap().version_string(2), "4.6.2");
    }

    #[test]
    fn nearest_framework_as_nuget_picks_it() {
        let lib = [
            "net462",
            "netstandard2.0",
            "netstandard2.1",
            "net6.0",
            "net8.0",
        ];
        let pick = |target: &str| nearest(target, &lib).map(|i| lib[i]);
        assert_eq!(pick("net8.0"), Some("net8.0"));
        assert_eq!(pick("net9.0"), Some("net8.0"));
        assert_eq!(pick("net7.0"), Some("net6.0"));
        assert_eq!(pick("netcoreapp3.1"), Some("netstandard2.1"));
        assert_eq!(pick("net48"), Some("net462"));
        assert_eq!(pick("net461"), Some("netstandard2.0"));
        assert_eq!(pick("net8.0-windows"), Some("net8.0"));
        assert_eq!(pick("netstandard1.6"), None);
        assert_eq!(pick("net45"), None);
        let windows = ["net8.0", "net8.0-windows"];
        assert_eq!(nearest("net8.0-windows10.0.19041.0", &windows), Some(1));
        assert_eq!(nearest("net8.0", &windows), Some(0));
        assert_eq!(nearest("NET8.0", &["net6.0", "net8.0"]), Some(1));
        assert_eq!(nearest("uap10.0", &["uap10.0", "net8.0"]), Some(0));
        assert_eq!(nearest("uap10.0", &["net8.0"]), None);
    }
}
