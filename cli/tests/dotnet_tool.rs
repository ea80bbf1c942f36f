//! `packaging/dotnet-tool/pack.py` builds the .NET 10 RID-specific tool
//! packages; this opens the `.nupkg` files it writes and checks them
//! against the layout the .NET SDK documents and produces
//! (`GenerateToolsSettingsFile`, "Create RID-specific, self-contained, and
//! AOT .NET tools"): a pointer package of type `DotnetTool` whose
//! `tools/net10.0/any/DotnetToolSettings.xml` (format version 2) lists one
//! `rlc-sharp.<RID>` package per RID and holds no binaries, and per RID a
//! package of type `DotnetToolRidPackage` holding the executable and a
//! `DotnetToolSettings.xml` with `Runner="executable"` in
//! `tools/net10.0/<RID>/`.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Command;

const VERSION: &str = "1.2.3-beta.1";

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("packaging")
        .join("dotnet-tool")
        .join("pack.py")
}

/// Every entry of a zip archive: name, bytes and Unix mode.
fn entries(path: &Path) -> BTreeMap<String, (Vec<u8>, Option<u32>)> {
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut archive = zip::ZipArchive::new(file).expect("a zip archive");
    let mut out = BTreeMap::new();
    for i in 0..archive.len() {
        let mut entry = archive.by_index(i).expect("an entry");
        let mut data = Vec::new();
        entry.read_to_end(&mut data).expect("entry bytes");
        out.insert(entry.name().to_owned(), (data, entry.unix_mode()));
    }
    out
}

fn xml(entries: &BTreeMap<String, (Vec<u8>, Option<u32>)>, name: &str) -> String {
    let (data, _) = entries
        .get(name)
        .unwrap_or_else(|| panic!("no `{name}` in {:?}", entries.keys()));
    String::from_utf8(data.clone()).expect("UTF-8 XML")
}

/// The nuspec's id, version and package types.
fn nuspec(text: &str) -> (String, String, Vec<String>) {
    let doc = roxmltree::Document::parse(text).expect("the nuspec is XML");
    let metadata = doc
        .descendants()
        .find(|n| n.has_tag_name("metadata"))
        .expect("<metadata>");
    let child = |tag: &str| {
        metadata
            .children()
            .find(|n| n.has_tag_name(tag))
            .and_then(|n| n.text())
            .unwrap_or_default()
            .to_owned()
    };
    let types = doc
        .descendants()
        .filter(|n| n.has_tag_name("packageType"))
        .filter_map(|n| n.attribute("name").map(str::to_owned))
        .collect();
    (child("id"), child("version"), types)
}

/// Parts every NuGet package (an OPC package) has, named after its id.
fn assert_opc_parts(entries: &BTreeMap<String, (Vec<u8>, Option<u32>)>, id: &str) {
    let rels = xml(entries, "_rels/.rels");
    assert!(rels.contains(&format!("Target=\"/{id}.nuspec\"")), "{rels}");
    let props = format!("package/services/metadata/core-properties/{id}.psmdcp");
    assert!(rels.contains(&format!("Target=\"/{props}\"")), "{rels}");
    assert!(entries.contains_key(&props));
    roxmltree::Document::parse(&xml(entries, "[Content_Types].xml")).expect("content types");
    for name in entries.keys() {
        let top = name.split('/').next().unwrap_or("");
        assert!(
            matches!(top, "_rels" | "package" | "[Content_Types].xml" | "tools")
                || *name == format!("{id}.nuspec"),
            "{id}: a tool package holds only tools/ besides its metadata, not `{name}`"
        );
    }
}

#[test]
fn the_tool_packages_have_the_documented_layout() {
    let out = tempfile::tempdir().expect("temp dir");
    let binary = env!("CARGO_BIN_EXE_rlc-sharp");
    let pack = Command::new("python3")
        .arg(script())
        .args([
            "--out",
            &out.path().display().to_string(),
            "--version",
            VERSION,
        ])
        .arg(format!("--rid=linux-x64={binary}"))
        .args(["--also-rid", "win-x64", "--also-rid", "osx-arm64"])
        .output()
        .expect("python3 runs (install python3 to build the .NET tool packages)");
    assert!(
        pack.status.success(),
        "{}",
        String::from_utf8_lossy(&pack.stderr)
    );

    let mut written: Vec<String> = std::fs::read_dir(out.path())
        .expect("out dir")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .collect();
    written.sort();
    assert_eq!(
        written,
        [
            format!("rlc-sharp.{VERSION}.nupkg"),
            format!("rlc-sharp.linux-x64.{VERSION}.nupkg"),
        ]
    );

    // The pointer package: settings only, listing every RID.
    let pointer = entries(&out.path().join(&written[0]));
    assert_opc_parts(&pointer, "rlc-sharp");
    assert_eq!(
        nuspec(&xml(&pointer, "rlc-sharp.nuspec")),
        (
            "rlc-sharp".into(),
            VERSION.into(),
            vec!["DotnetTool".into()]
        )
    );
    let tools: Vec<&String> = pointer.keys().filter(|k| k.starts_with("tools/")).collect();
    assert_eq!(tools, ["tools/net10.0/any/DotnetToolSettings.xml"]);
    let settings = xml(&pointer, "tools/net10.0/any/DotnetToolSettings.xml");
    let doc = roxmltree::Document::parse(&settings).expect("settings XML");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "DotNetCliTool");
    assert_eq!(root.attribute("Version"), Some("2"));
    let command = doc
        .descendants()
        .find(|n| n.has_tag_name("Command"))
        .expect("<Command>");
    assert_eq!(command.attribute("Name"), Some("rlc-sharp"));
    assert_eq!(
        command.attribute("EntryPoint"),
        None,
        "the pointer has no entry point"
    );
    assert_eq!(command.attribute("Runner"), None);
    let rids: Vec<(&str, &str)> = doc
        .descendants()
        .filter(|n| n.has_tag_name("RuntimeIdentifierPackage"))
        .map(|n| {
            (
                n.attribute("RuntimeIdentifier").unwrap_or(""),
                n.attribute("Id").unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(
        rids,
        [
            ("linux-x64", "rlc-sharp.linux-x64"),
            ("osx-arm64", "rlc-sharp.osx-arm64"),
            ("win-x64", "rlc-sharp.win-x64"),
        ]
    );

    // The linux-x64 package: the executable, runnable, and its settings.
    let linux = entries(&out.path().join(&written[1]));
    assert_opc_parts(&linux, "rlc-sharp.linux-x64");
    assert_eq!(
        nuspec(&xml(&linux, "rlc-sharp.linux-x64.nuspec")),
        (
            "rlc-sharp.linux-x64".into(),
            VERSION.into(),
            vec!["DotnetToolRidPackage".into()]
        )
    );
    let tools: Vec<&String> = linux.keys().filter(|k| k.starts_with("tools/")).collect();
    assert_eq!(
        tools,
        [
            "tools/net10.0/linux-x64/DotnetToolSettings.xml",
            "tools/net10.0/linux-x64/rlc-sharp"
        ]
    );
    let settings = xml(&linux, "tools/net10.0/linux-x64/DotnetToolSettings.xml");
    let doc = roxmltree::Document::parse(&settings).expect("settings XML");
    assert_eq!(doc.root_element().attribute("Version"), Some("2"));
    let command = doc
        .descendants()
        .find(|n| n.has_tag_name("Command"))
        .expect("<Command>");
    assert_eq!(command.attribute("Name"), Some("rlc-sharp"));
    assert_eq!(command.attribute("EntryPoint"), Some("rlc-sharp"));
    assert_eq!(command.attribute("Runner"), Some("executable"));
    assert!(
        !doc.descendants()
            .any(|n| n.has_tag_name("RuntimeIdentifierPackages")),
        "only the pointer lists RID packages"
    );
    let (exe, mode) = &linux["tools/net10.0/linux-x64/rlc-sharp"];
    let built = std::fs::read(binary).expect("the binary");
    assert!(*exe == built, "the packed executable is the built one");
    assert_eq!(mode.map(|m| m & 0o777), Some(0o755), "executable bit");
}

#[test]
fn the_packer_refuses_bad_input() {
    let out = tempfile::tempdir().expect("temp dir");
    let run = |args: &[&str]| {
        let o = Command::new("python3")
            .arg(script())
            .args(["--out", &out.path().display().to_string()])
            .args(args)
            .output()
            .expect("python3 runs");
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    let (code, err) = run(&["--rid", "linux-x64"]);
    assert_eq!(code, Some(1));
    assert!(err.contains("RID=BINARY"), "{err}");
    let (code, err) = run(&["--rid", "linux-x64=/nonexistent/rlc-sharp"]);
    assert_eq!(code, Some(1));
    assert!(err.contains("cannot read the linux-x64 binary"), "{err}");
    let (code, err) = run(&["--rid", "ubuntu=/bin/sh"]);
    assert_eq!(code, Some(1));
    assert!(err.contains("not a portable .NET RID"), "{err}");
    let (code, err) = run(&["--rid", "linux-x64=/bin/sh", "--version", "one"]);
    assert_eq!(code, Some(1));
    assert!(err.contains("not a NuGet version"), "{err}");
    assert_eq!(
        std::fs::read_dir(out.path())
            .map(|d| d.count())
            .unwrap_or(0),
        0,
        "nothing written"
    );
}
