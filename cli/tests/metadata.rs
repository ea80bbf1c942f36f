//! Referenced assemblies read from metadata: a restored project (a hand-made
//! `obj/project.assets.json` and packages folder around the committed
//! `fixtures/metadata/Acme.Client.dll`) or a legacy project naming the DLL
//! by `HintPath` gets leaks of package types reported; the same project
//! without the restore output gets today's report and one note saying so.

mod common;

use std::path::{Path, PathBuf};

use common::rlc;

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/metadata")
}

/// The app in a temporary directory; with `dll`, restored against a
/// packages folder holding those bytes as Acme.Client.dll.
fn project(dll: Option<&[u8]>) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let app = dir.path().join("app");
    std::fs::create_dir_all(&app).unwrap();
    for f in ["App.csproj", "Program.cs"] {
        std::fs::copy(fixture().join("app").join(f), app.join(f)).unwrap();
    }
    if let Some(bytes) = dll {
        restore(dir.path(), "Acme.Client", bytes);
    }
    dir
}

/// Package `id` 1.0.0, whose compile asset is `bytes` as `<id>.dll`, in the
/// packages folder of `dir`, and the restore output (net8.0) of `dir/app`
/// that references it.
fn restore(dir: &Path, id: &str, bytes: &[u8]) {
    let path = format!("{}/1.0.0", id.to_lowercase());
    let asset = format!("lib/netstandard2.0/{id}.dll");
    let packages = dir.join("packages");
    let lib = packages.join(&path).join(&asset);
    std::fs::create_dir_all(lib.parent().unwrap()).unwrap();
    std::fs::write(lib, bytes).unwrap();
    let obj = dir.join("app/obj");
    std::fs::create_dir_all(&obj).unwrap();
    let library = format!("{id}/1.0.0");
    let assets = serde_json::json!({
        "version": 3,
        "targets": { "net8.0": { &library: {
            "type": "package",
            "compile": { asset: {} }
        } } },
        "libraries": { &library: { "type": "package", "path": path } },
        "packageFolders": { packages.to_string_lossy(): {} },
        "project": { "frameworks": { "net8.0": {} } }
    });
    std::fs::write(obj.join("project.assets.json"), assets.to_string()).unwrap();
}

/// `source` compiled with mono's C# compiler into `dir/<name>.dll`; its bytes.
fn mcs(dir: &Path, name: &str, source: &str) -> Vec<u8> {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join(format!("{name}.cs")), source).unwrap();
    let out = std::process::Command::new("mcs")
        .args([
            "-target:library",
            &format!("-out:{name}.dll"),
            &format!("{name}.cs"),
        ])
        .current_dir(dir)
        .output()
        .unwrap_or_else(|e| {
            panic!("cannot run `mcs` ({e}): install the Debian package `mono-mcs`")
        });
    assert!(out.status.success(), "{out:?}");
    std::fs::read(dir.join(format!("{name}.dll"))).unwrap()
}

/// (rule, line) of each finding of `check --format json` in Program.cs,
/// the whole report, and standard error.
fn findings(dir: &Path) -> (Vec<(String, u64)>, serde_json::Value, String) {
    let run = rlc(dir, &["check", "--format", "json", "app"]);
    let json: serde_json::Value = serde_json::from_str(&run.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}\n{}", run.stdout, run.stderr));
    let mut out: Vec<(String, u64)> = json["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| {
            f["file"]
                .as_str()
                .is_some_and(|p| p.ends_with("Program.cs"))
        })
        .map(|f| {
            (
                f["rule"].as_str().unwrap().to_string(),
                f["line"].as_u64().unwrap(),
            )
        })
        .collect();
    out.sort();
    (out, json, run.stderr)
}

/// `new Connection`, `ConnectionFactory.Open` and `new Session` leak.
fn leaks() -> Vec<(String, u64)> {
    [7, 13, 31]
        .into_iter()
        .map(|l| ("RLC0001".to_string(), l))
        .collect()
}

const UNRESTORED: &str = "note: no referenced assembly was read";

#[test]
fn leaks_of_package_types_are_found_and_compiled_specs_honoured() {
    let dll = std::fs::read(fixture().join("Acme.Client.dll")).unwrap();
    let restored = project(Some(&dll));
    let (found, _, stderr) = findings(restored.path());
    // `using` disposes; `Pool.Borrow` is `[return: NotOwning]` in the
    // package; `Session` is `[MustCall("Close")]` there.
    assert_eq!(found, leaks());
    assert!(!stderr.contains(UNRESTORED), "{stderr}");
    // Without the restore output nothing is known of the package: today's
    // report, and once on standard error (not a finding) how to do better.
    let bare = project(None);
    let (found, json, stderr) = findings(bare.path());
    assert_eq!(found, vec![]);
    assert_eq!(stderr.matches(UNRESTORED).count(), 1, "{stderr}");
    assert!(stderr.contains("`dotnet restore`"), "{stderr}");
    assert!(
        !json.to_string().contains("no referenced assembly"),
        "{json}"
    );
    let quiet = rlc(bare.path(), &["check", "-q", "app"]);
    assert!(!quiet.stderr.contains(UNRESTORED), "{quiet:?}");
}

/// A legacy project: `<Reference>`s whose `HintPath` names the DLL are read
/// like packages; one whose `HintPath` names nothing is a located note.
#[test]
fn legacy_hint_paths_are_read_and_a_missing_one_is_a_note() {
    let dir = tempfile::tempdir().unwrap();
    let app = dir.path().join("app");
    let lib = dir.path().join("packages/Acme.Client.1.0.0/lib/net45");
    std::fs::create_dir_all(&app).unwrap();
    std::fs::create_dir_all(&lib).unwrap();
    std::fs::copy(
        fixture().join("Acme.Client.dll"),
        lib.join("Acme.Client.dll"),
    )
    .unwrap();
    std::fs::copy(fixture().join("app/Program.cs"), app.join("Program.cs")).unwrap();
    std::fs::write(
        app.join("App.csproj"),
        r#"<Project ToolsVersion="15.0" xmlns="http://schemas.microsoft.com/developer/msbuild/2003">
  <Import Project="$(MSBuildExtensionsPath)\$(MSBuildToolsVersion)\Microsoft.Common.props" />
  <PropertyGroup><TargetFrameworkVersion>v4.7.2</TargetFrameworkVersion></PropertyGroup>
  <ItemGroup>
    <Reference Include="System" />
    <Reference Include="Acme.Client, Version=1.0.0.0, Culture=neutral, PublicKeyToken=null">
      <HintPath>..\packages\Acme.Client.1.0.0\lib\net45\Acme.Client.dll</HintPath>
    </Reference>
    <Reference Include="Gone"><HintPath>..\packages\Gone.2.0.0\lib\net45\Gone.dll</HintPath></Reference>
  </ItemGroup>
  <ItemGroup><Compile Include="Program.cs" /></ItemGroup>
  <Import Project="$(MSBuildToolsPath)\Microsoft.CSharp.targets" />
</Project>"#,
    )
    .unwrap();
    let (found, json, stderr) = findings(dir.path());
    assert_eq!(found, leaks());
    let gone: Vec<&serde_json::Value> = json["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| {
            f["message"]
                .as_str()
                .is_some_and(|m| m.contains("Gone.dll"))
        })
        .collect();
    assert_eq!(gone.len(), 1, "{json}");
    assert_eq!(gone[0]["rule"], "RLC9002");
    assert_eq!(gone[0]["line"], 9);
    assert!(gone[0]["file"].as_str().unwrap().ends_with("App.csproj"));
    // Not an SDK project: `dotnet restore` would not add anything to read.
    assert!(!stderr.contains(UNRESTORED), "{stderr}");
}

#[test]
fn a_truncated_assembly_is_a_located_warning_and_the_run_goes_on() {
    let dll = std::fs::read(fixture().join("Acme.Client.dll")).unwrap();
    // Cut in the headers, in the IL, and in the metadata (at 0x4a0..0xdc8 of the file).
    for cut in [0, 64, 0x300, 0x600, 0xc00] {
        let dir = project(Some(&dll[..cut]));
        let (found, json, _) = findings(dir.path());
        assert_eq!(found, vec![], "cut at {cut}");
        let text = json.to_string();
        assert!(
            text.contains("Acme.Client.dll") && text.contains("RLC9003"),
            "cut at {cut}: {text}"
        );
    }
}

/// Where facts and types came from: the finding that relies on a compiled
/// attribute names the assembly, `--stats` counts types by source, and
/// `debug model` says where each type is declared.
#[test]
fn provenance_of_metadata_facts_and_types() {
    let dll = std::fs::read(fixture().join("Acme.Client.dll")).unwrap();
    let restored = project(Some(&dll));
    let (_, json, _) = findings(restored.path());
    let session = json["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["line"] == 31)
        .unwrap_or_else(|| panic!("{json}"));
    let fact = session["facts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["kind"] == "metadata")
        .unwrap_or_else(|| panic!("{session}"));
    assert_eq!(fact["assembly"], "Acme.Client.dll", "{fact}");
    assert!(fact["fact"].as_str().unwrap().contains("Close"), "{fact}");

    let human = rlc(restored.path(), &["check", "app"]);
    assert!(
        human.stdout.contains("(metadata: Acme.Client.dll)"),
        "{}",
        human.stdout
    );
    assert!(
        !human.stdout.contains("<referenced assemblies>"),
        "{}",
        human.stdout
    );

    let stats = rlc(restored.path(), &["check", "--stats", "app"]);
    assert!(
        stats
            .stderr
            .contains("types declared from referenced assemblies: 4 (from 1 assembly)"),
        "{}",
        stats.stderr
    );
    let line = stats
        .stderr
        .lines()
        .find(|l| l.starts_with("type names resolved:"))
        .unwrap();
    assert!(
        line.contains(" to referenced assemblies' (metadata)"),
        "{line}"
    );
    let json = rlc(
        restored.path(),
        &["check", "--stats", "--format", "json", "app"],
    );
    let json: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    let s = &json["summary"]["stats"];
    assert!(s["types_resolved_metadata"].as_u64().unwrap() > 0, "{s}");
    assert_eq!(
        s["types_resolved"].as_u64().unwrap(),
        s["types_resolved_repository"].as_u64().unwrap()
            + s["types_resolved_metadata"].as_u64().unwrap()
            + s["types_resolved_model"].as_u64().unwrap(),
        "{s}"
    );
    // Without the package its types are unknown, and counted as such.
    let bare = project(None);
    let stats = rlc(bare.path(), &["check", "--stats", "app"]);
    assert!(
        stats
            .stderr
            .contains("types declared from referenced assemblies: 0 (from 0 assemblies)"),
        "{}",
        stats.stderr
    );

    let model = rlc(restored.path(), &["debug", "model", "app/Program.cs"]);
    let sources: Vec<&str> = model
        .stdout
        .lines()
        .skip_while(|l| *l != "types, by where they are declared")
        .collect();
    for expected in [
        "  Acme.Client.Connection: metadata (Acme.Client.dll)",
        "  Acme.Client.Session: metadata (Acme.Client.dll)",
    ] {
        assert!(sources.contains(&expected), "{expected}: {}", model.stdout);
    }
    assert!(
        sources
            .iter()
            .any(|l| l.starts_with("  Program: repository (") && l.ends_with("Program.cs)")),
        "{}",
        model.stdout
    );
    assert!(
        sources
            .iter()
            .any(|l| l.starts_with("  System.String: library model (<library>/")),
        "{}",
        model.stdout
    );
}

/// A type both compiled into a referenced assembly and in the library model
/// (here the user's `[[type]]`s): members only the assembly has resolve,
/// and the model's facts stand where both speak (its obligation over the
/// compiled `[MustCall]`, its `[return: NotOwning]`).
#[test]
fn the_model_overlays_a_type_the_assembly_also_declares() {
    let dir = tempfile::tempdir().unwrap();
    let app = dir.path().join("app");
    std::fs::create_dir_all(&app).unwrap();
    mcs(
        &dir.path().join("lib"),
        "Acme.Pool",
        r#"namespace Acme.Pool {
    [System.AttributeUsage(System.AttributeTargets.All)]
    public sealed class MustCallAttribute : System.Attribute {
        public MustCallAttribute(params string[] methods) {}
    }
    [MustCall("Dispose")]
    public class Lease : System.IDisposable {
        public Lease(string name) {}
        public void Dispose() {}
        public void Release() {}
        public void Renew() {}
    }
    public class Broker {
        public Lease Take() { return null; }
        public Lease Open() { return null; }
        public Lease Open(int slots) { return null; }
    }
}
"#,
    );
    std::fs::write(
        dir.path().join("rlc-sharp.toml"),
        r#"usings = ["System"]

[[type]]
name = "Acme.Pool.Lease"
bases = ["IDisposable"]
must_call = ["Release"]
members = ["void Release()"]

[[type]]
name = "Acme.Pool.Broker"
members = ["[return: NotOwning] Lease Take()"]
"#,
    )
    .unwrap();
    std::fs::write(
        app.join("App.csproj"),
        r#"<Project ToolsVersion="15.0" xmlns="http://schemas.microsoft.com/developer/msbuild/2003">
  <PropertyGroup><TargetFrameworkVersion>v4.7.2</TargetFrameworkVersion></PropertyGroup>
  <ItemGroup><Reference Include="Acme.Pool"><HintPath>..\lib\Acme.Pool.dll</HintPath></Reference></ItemGroup>
  <ItemGroup><Compile Include="Program.cs" /></ItemGroup>
</Project>"#,
    )
    .unwrap();
    std::fs::write(
        app.join("Program.cs"),
        r#"using Acme.Pool;

class Program
{
    static void Released() { var l = new Lease("a"); l.Renew(); l.Release(); }
    static void Disposed() { var l = new Lease("b"); l.Dispose(); }
    static void Taken(Broker b) { var l = b.Take(); }
    static void Opened(Broker b) { var l = b.Open(); }
    static void OpenedWithSlots(Broker b) { var l = b.Open(2); }
}
"#,
    )
    .unwrap();
    let (found, json, _) = findings(dir.path());
    // `Release` is the model's obligation (not the compiled `Dispose`);
    // `Take` is not owning by the model; both `Open`s are only in the
    // assembly and leak. `new Lease(string)` and `Renew` are the assembly's.
    let leaks: Vec<u64> = found.iter().map(|(_, l)| *l).collect();
    assert_eq!(leaks, vec![6, 8, 9], "{json}");
    // The leak of `Disposed` relies on the model's obligation (the config's
    // `[[type]]`s are the model's), not on the assembly's attribute.
    let disposed = json["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["line"] == 6)
        .unwrap();
    let facts: Vec<(&str, &str)> = disposed["facts"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|f| Some((f["kind"].as_str()?, f["fact"].as_str()?)))
        .collect();
    assert_eq!(
        facts,
        vec![("library", "`Lease` must call `Release()`")],
        "{disposed}"
    );
}

/// Events and generic constraints of a package's types act as a source
/// library's would. `-=` on a package type's event (an instance's or a
/// static one) lets the publisher drop the handler: a `Dispose` that only
/// does that releases something, so a lost listener is a leak (RLC0001),
/// not one whose disposal releases nothing (RLC0010, as when the events are
/// not declared). A `T` that a package's generic method returns, where
/// `T : IDisposable`, must be disposed (without the constraint it is no
/// resource).
#[test]
fn package_events_and_constraints_act_as_source_ones() {
    let dir = tempfile::tempdir().unwrap();
    let dll = mcs(
        &dir.path().join("lib"),
        "Acme.Feeds",
        r#"using System;
namespace Acme.Feeds {
    public sealed class Feed : IDisposable {
        public event EventHandler Changed;
        public static event EventHandler Reset;
        public void Dispose() { }
        public void Raise() { Changed(this, EventArgs.Empty); Reset(null, EventArgs.Empty); }
    }
    public static class Pool {
        public static T Rent<T>(Func<T> make) where T : IDisposable { return make(); }
    }
}
"#,
    );
    let app = dir.path().join("app");
    std::fs::create_dir_all(&app).unwrap();
    std::fs::write(
        app.join("App.csproj"),
        r#"<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup><TargetFramework>net8.0</TargetFramework></PropertyGroup>
  <ItemGroup><PackageReference Include="Acme.Feeds" Version="1.0.0" /></ItemGroup>
</Project>"#,
    )
    .unwrap();
    // `Gadget` is a type nothing declares: `Rent`'s `T` is not inferred.
    std::fs::write(
        app.join("Program.cs"),
        r#"using System;
using Acme.Feeds;

sealed class Listener : IDisposable
{
    private readonly Feed _feed;
    public Listener(Feed feed) { _feed = feed; feed.Changed += OnChanged; }
    private void OnChanged(object sender, EventArgs e) { }
    public void Dispose() => _feed.Changed -= OnChanged;
}

sealed class Canvas : IDisposable
{
    public Canvas() => Feed.Reset += OnReset;
    private void OnReset(object sender, EventArgs e) { }
    public void Dispose() => Feed.Reset -= OnReset;
}

class Program
{
    static void Listens(Feed f) { var l = new Listener(f); Console.WriteLine(l); }
    static void Draws() { var c = new Canvas(); Console.WriteLine(c); }
    static void Rents() { var g = Pool.Rent(() => Gadget.Make()); Console.WriteLine(g); }
    static void RentsAndDisposes() { var g = Pool.Rent(() => Gadget.Make()); g.Dispose(); }
}
"#,
    )
    .unwrap();
    restore(dir.path(), "Acme.Feeds", &dll);
    let (found, json, _) = findings(dir.path());
    let leaks: Vec<(String, u64)> = [21, 22, 23]
        .into_iter()
        .map(|l| ("RLC0001".to_string(), l))
        .collect();
    assert_eq!(found, leaks, "{json}");
    let rents = json["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["line"] == 23)
        .unwrap();
    assert!(
        rents["message"]
            .as_str()
            .unwrap()
            .starts_with("`IDisposable` returned by `Rent`"),
        "{rents}"
    );
    // Each `-=` is an unsubscription from the publisher.
    let ir = rlc(
        dir.path(),
        &["debug", "ir", "--method", "Dispose", "app/Program.cs"],
    );
    for expected in ["unsubscribe t1.?Changed -=", "unsubscribe static.?Reset -="] {
        assert!(ir.stdout.contains(expected), "{expected}: {}", ir.stdout);
    }
}
