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
}
