//! The assemblies a build compiles against, found as the build would find
//! them but without running MSBuild or NuGet: the `compile` assets of each
//! package in `obj/project.assets.json` (NuGet's restore output), looked up in
//! `$NUGET_PACKAGES`, the file's `packageFolders` and
//! `project.restore.packagesPath`, and the framework reference packs of the
//! SDK (`<dotnet root>/packs/<name>.Ref/<version>/ref/<tfm>/`). What cannot be
//! found is a note naming the package and the paths tried.

use std::path::{Path, PathBuf};

use serde_json::Value;

/// Where packages and the SDK live on this machine.
#[derive(Clone, Debug, Default)]
pub struct Locations {
    /// `$NUGET_PACKAGES`: tried before the folders the assets file names.
    pub nuget_packages: Option<PathBuf>,
    /// The dotnet root (`$DOTNET_ROOT`, the `dotnet` on `PATH`, the usual places).
    pub dotnet_root: Option<PathBuf>,
}

impl Locations {
    /// From the environment: `NUGET_PACKAGES`, `DOTNET_ROOT`, then the
    /// directory of a `dotnet` on `PATH`, then the usual install locations.
    pub fn from_env() -> Locations {
        let var = |name: &str| {
            std::env::var_os(name)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        };
        let on_path = || {
            std::env::split_paths(&std::env::var_os("PATH")?)
                .map(|d| d.join("dotnet"))
                .find(|p| p.is_file())
                .and_then(|p| std::fs::canonicalize(p).ok())
                .and_then(|p| p.parent().map(Path::to_path_buf))
        };
        let usual = || {
            let home = var("HOME").map(|h| h.join(".dotnet"));
            home.into_iter()
                .chain(
                    [
                        "/usr/share/dotnet",
                        "/usr/lib/dotnet",
                        "/usr/local/share/dotnet",
                    ]
                    .map(PathBuf::from),
                )
                .find(|p| p.join("packs").is_dir())
        };
        Locations {
            nuget_packages: var("NUGET_PACKAGES"),
            dotnet_root: var("DOTNET_ROOT").or_else(on_path).or_else(usual),
        }
    }
}

/// What one build references.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BuildAssemblies {
    /// Found assemblies, packages' first, each once.
    pub paths: Vec<PathBuf>,
    /// Packages or packs that could not be found.
    pub missing: Vec<String>,
}

/// `net8.0` for `.NETCoreApp,Version=v8.0` (the older spelling of target keys).
fn short_tfm(key: &str) -> String {
    let Some((id, version)) = key.split_once(",Version=v") else {
        return key.to_ascii_lowercase();
    };
    match id {
        ".NETCoreApp" if version.starts_with(['1', '2', '3']) => format!("netcoreapp{version}"),
        ".NETCoreApp" => format!("net{version}"),
        ".NETStandard" => format!("netstandard{version}"),
        ".NETFramework" => format!("net{}", version.replace('.', "")),
        _ => key.to_ascii_lowercase(),
    }
}

/// The assemblies of the build for `framework` (None: the only target) in
/// an assets file's text. `Err` when the file is not one.
pub fn from_assets(
    text: &str,
    framework: Option<&str>,
    loc: &Locations,
) -> Result<BuildAssemblies, String> {
    let json: Value = serde_json::from_str(text).map_err(|e| format!("not valid JSON: {e}"))?;
    let targets = json
        .get("targets")
        .and_then(Value::as_object)
        .ok_or("no `targets`")?;
    // Runtime-specific targets (`net8.0/linux-x64`) add nothing to compile against.
    let mut candidates = targets.iter().filter(|(k, _)| !k.contains('/'));
    let target = match framework {
        Some(f) => {
            let f = f.to_ascii_lowercase();
            candidates.find(|(k, _)| k.eq_ignore_ascii_case(&f) || short_tfm(k) == f)
        }
        None => candidates.next(),
    };
    let Some((target_key, target)) = target else {
        return Err(format!(
            "no target for {} in the assets file",
            framework.unwrap_or("the project")
        ));
    };
    let mut folders: Vec<PathBuf> = loc.nuget_packages.iter().cloned().collect();
    if let Some(f) = json.get("packageFolders").and_then(Value::as_object) {
        folders.extend(f.keys().map(PathBuf::from));
    }
    if let Some(p) = json
        .pointer("/project/restore/packagesPath")
        .and_then(Value::as_str)
    {
        folders.push(PathBuf::from(p));
    }
    let mut out = BuildAssemblies::default();
    for (id, lib) in target.as_object().into_iter().flatten() {
        if lib.get("type").and_then(Value::as_str) != Some("package") {
            continue;
        }
        let Some(compile) = lib.get("compile").and_then(Value::as_object) else {
            continue;
        };
        let lib_path = json
            .get("libraries")
            .and_then(|l| l.get(id))
            .and_then(|l| l.get("path"))
            .and_then(Value::as_str)
            .map(str::to_string)
            .unwrap_or_else(|| id.to_ascii_lowercase());
        for asset in compile.keys().filter(|a| a.ends_with(".dll")) {
            let tried: Vec<PathBuf> = folders
                .iter()
                .map(|f| f.join(&lib_path).join(asset))
                .collect();
            match tried.iter().find(|p| p.is_file()) {
                Some(p) if !out.paths.contains(p) => out.paths.push(p.clone()),
                Some(_) => {}
                None => out.missing.push(format!(
                    "package {id}: {asset} not found (tried {})",
                    if tried.is_empty() {
                        "no package folder".to_string()
                    } else {
                        tried
                            .iter()
                            .map(|p| p.display().to_string())
                            .collect::<Vec<_>>()
                            .join(", ")
                    }
                )),
            }
        }
    }
    let tfm = short_tfm(target_key);
    let refs = json
        .pointer("/project/frameworks")
        .and_then(Value::as_object)
        .and_then(|fs| {
            fs.iter()
                .find(|(k, _)| short_tfm(k) == tfm || k.eq_ignore_ascii_case(target_key))
        })
        .and_then(|(_, f)| f.get("frameworkReferences"))
        .and_then(Value::as_object);
    for name in refs.into_iter().flat_map(|r| r.keys()) {
        match reference_pack(loc.dotnet_root.as_deref(), name, &tfm) {
            Ok(dlls) => out.paths.extend(dlls),
            Err(message) => out.missing.push(message),
        }
    }
    Ok(out)
}

/// The assemblies of a framework reference pack for `tfm` (`net8.0`): the
/// newest `<root>/packs/<name>.Ref/<version>/ref/<tfm>/` whose version has
/// the target's major and minor.
pub fn reference_pack(root: Option<&Path>, name: &str, tfm: &str) -> Result<Vec<PathBuf>, String> {
    let root = root.ok_or_else(|| format!("framework {name}: no dotnet root (set DOTNET_ROOT)"))?;
    let packs = root.join("packs").join(format!("{name}.Ref"));
    let wanted = tfm.trim_start_matches("net");
    let version_key = |v: &str| -> Vec<u64> {
        v.split(['.', '-'])
            .map(|p| p.parse().unwrap_or(0))
            .collect()
    };
    let best = std::fs::read_dir(&packs)
        .ok()
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|v| v.starts_with(&format!("{wanted}.")))
        .max_by_key(|v| version_key(v));
    let dir = best.map(|v| packs.join(v).join("ref").join(tfm));
    let Some(dir) = dir.filter(|d| d.is_dir()) else {
        return Err(format!(
            "framework {name}: no reference pack for {tfm} under {}",
            packs.display()
        ));
    };
    let mut dlls: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map_err(|e| format!("framework {name}: {}: {e}", dir.display()))?
        .filter_map(|e| Some(e.ok()?.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "dll"))
        .collect();
    dlls.sort();
    Ok(dlls)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn touch(p: &Path) {
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, b"MZ").unwrap();
    }

    fn assets(folder: &Path) -> String {
        format!(
            r#"{{
  "version": 3,
  "targets": {{
    "net8.0": {{
      "Acme.Client/1.2.0": {{
        "type": "package",
        "compile": {{ "lib/net8.0/Acme.Client.dll": {{}}, "lib/net8.0/_._": {{}} }}
      }},
      "Gone/2.0.0": {{ "type": "package", "compile": {{ "lib/net8.0/Gone.dll": {{}} }} }},
      "Other.Project/1.0.0": {{ "type": "project", "compile": {{ "bin/placeholder/Other.Project.dll": {{}} }} }}
    }},
    "net8.0/linux-x64": {{ "Acme.Client/1.2.0": {{ "type": "package", "compile": {{ "lib/x.dll": {{}} }} }} }},
    ".NETStandard,Version=v2.0": {{
      "Acme.Client/1.2.0": {{ "type": "package", "compile": {{ "lib/netstandard2.0/Acme.Client.dll": {{}} }} }}
    }}
  }},
  "libraries": {{ "Acme.Client/1.2.0": {{ "type": "package", "path": "acme.client/1.2.0" }} }},
  "packageFolders": {{ "{}": {{}} }},
  "project": {{
    "restore": {{ "packagesPath": "/nonexistent/packages" }},
    "frameworks": {{ "net8.0": {{ "frameworkReferences": {{ "Microsoft.NETCore.App": {{}} }} }} }}
  }}
}}"#,
            folder.display()
        )
    }

    #[test]
    fn compile_assets_of_the_build_s_target_from_the_package_folders() {
        let dir = tempfile::tempdir().unwrap();
        let packages = dir.path().join("packages");
        let net8 = packages.join("acme.client/1.2.0/lib/net8.0/Acme.Client.dll");
        let ns20 = packages.join("acme.client/1.2.0/lib/netstandard2.0/Acme.Client.dll");
        touch(&net8);
        touch(&ns20);
        let root = dir.path().join("dotnet");
        let pack = root.join("packs/Microsoft.NETCore.App.Ref/8.0.11/ref/net8.0");
        touch(&pack.join("System.Runtime.dll"));
        touch(&root.join("packs/Microsoft.NETCore.App.Ref/8.0.2/ref/net8.0/Old.dll"));
        touch(&root.join("packs/Microsoft.NETCore.App.Ref/9.0.0/ref/net9.0/System.Runtime.dll"));
        let loc = Locations {
            nuget_packages: None,
            dotnet_root: Some(root.clone()),
        };
        let text = assets(&packages);
        let found = from_assets(&text, Some("net8.0"), &loc).unwrap();
        assert_eq!(
            found.paths,
            vec![net8.clone(), pack.join("System.Runtime.dll")]
        );
        assert_eq!(found.missing.len(), 1, "{:?}", found.missing);
        assert!(
            found.missing[0]
                .starts_with("package Gone/2.0.0: lib/net8.0/Gone.dll not found (tried ")
        );
        assert!(found.missing[0].contains("/nonexistent/packages/gone/2.0.0/lib/net8.0/Gone.dll"));
        // The older spelling of a target's key.
        let ns = from_assets(&text, Some("netstandard2.0"), &loc).unwrap();
        assert_eq!(ns.paths, vec![ns20]);
        assert!(
            from_assets(&text, Some("net472"), &loc)
                .unwrap_err()
                .contains("no target for net472")
        );
    }

    #[test]
    fn nuget_packages_is_tried_first_and_a_missing_sdk_is_a_note() {
        let dir = tempfile::tempdir().unwrap();
        let restored = dir.path().join("restored");
        let cache = dir.path().join("cache");
        touch(&restored.join("acme.client/1.2.0/lib/net8.0/Acme.Client.dll"));
        let cached = cache.join("acme.client/1.2.0/lib/net8.0/Acme.Client.dll");
        touch(&cached);
        let loc = Locations {
            nuget_packages: Some(cache),
            dotnet_root: None,
        };
        let found = from_assets(&assets(&restored), Some("NET8.0"), &loc).unwrap();
        assert_eq!(found.paths, vec![cached]);
        assert!(
            found
                .missing
                .iter()
                .any(|m| m == "framework Microsoft.NETCore.App: no dotnet root (set DOTNET_ROOT)")
        );
    }

    #[test]
    fn malformed_files_are_errors_not_panics() {
        let loc = Locations::default();
        assert!(
            from_assets("{", None, &loc)
                .unwrap_err()
                .starts_with("not valid JSON")
        );
        assert_eq!(from_assets("{}", None, &loc).unwrap_err(), "no `targets`");
        assert_eq!(
            from_assets(r#"{"targets": {"net8.0": 3}}"#, None, &loc).unwrap(),
            BuildAssemblies::default()
        );
    }

    #[test]
    fn target_keys_in_both_spellings() {
        assert_eq!(short_tfm(".NETCoreApp,Version=v8.0"), "net8.0");
        assert_eq!(short_tfm(".NETCoreApp,Version=v3.1"), "netcoreapp3.1");
        assert_eq!(short_tfm(".NETFramework,Version=v4.7.2"), "net472");
        assert_eq!(short_tfm("net8.0"), "net8.0");
    }
}
