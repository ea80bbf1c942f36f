#!/usr/bin/env python3
"""Packs rlc-sharp as a .NET 10 RID-specific tool, without the .NET SDK.

Writes, for a version V and each RID given:

  rlc-sharp.V.nupkg        the pointer package (type DotnetTool): its
                           tools/net10.0/any/DotnetToolSettings.xml lists the
                           RID packages (format version 2), no binaries
  rlc-sharp.RID.V.nupkg    one per RID (type DotnetToolRidPackage): the native
                           executable and a DotnetToolSettings.xml with
                           Runner="executable", in tools/net10.0/RID/

as `dotnet pack` does for a project with ToolPackageRuntimeIdentifiers and
PublishAot (see https://learn.microsoft.com/dotnet/core/tools/rid-specific-tools).
The archives are deterministic: fixed timestamps, sorted entries.

    pack.py --out DIR [--version V] [--rid RID=BINARY]... [--also-rid RID]...

Without --rid, it builds `cargo build --release -p rlc-sharp` and packs the
binary for the host's RID. --also-rid lists in the pointer a RID whose package
is built on another machine (publish those first).
"""

import argparse
import os
import platform
import re
import subprocess
import sys
import zipfile
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

TOOL = "rlc-sharp"
TFM = "net10.0"
REPO = Path(__file__).resolve().parents[2]
# 1980-01-01, the earliest time a zip entry can hold: reproducible archives.
EPOCH = (1980, 1, 1, 0, 0, 0)
RID_PATTERN = re.compile(r"^(win|linux|linux-musl|osx|freebsd)-(x64|x86|arm64|arm)$")


def workspace_version():
    text = (REPO / "Cargo.toml").read_text(encoding="utf-8")
    section = text.split("[workspace.package]", 1)[-1]
    match = re.search(r'^version\s*=\s*"([^"]+)"', section, re.MULTILINE)
    if not match:
        sys.exit("error: no version in [workspace.package] of Cargo.toml")
    return match.group(1)


def host_rid():
    system = {"Linux": "linux", "Darwin": "osx", "Windows": "win"}.get(platform.system())
    arch = {"x86_64": "x64", "AMD64": "x64", "aarch64": "arm64", "arm64": "arm64"}.get(
        platform.machine()
    )
    if not system or not arch:
        sys.exit(f"error: no .NET RID for {platform.system()} {platform.machine()}; pass --rid")
    return f"{system}-{arch}"


def entry_point(rid):
    return f"{TOOL}.exe" if rid.startswith("win-") else TOOL


def nuspec(package_id, version, package_type):
    return f"""<?xml version="1.0" encoding="utf-8"?>
<package xmlns="http://schemas.microsoft.com/packaging/2013/05/nuspec.xsd">
  <metadata>
    <id>{escape(package_id)}</id>
    <version>{escape(version)}</version>
    <authors>rlc-sharp contributors</authors>
    <license type="expression">MIT OR Apache-2.0</license>
    <projectUrl>https://github.com/rlc-sharp/rlc-sharp</projectUrl>
    <description>A resource-leak checker for C# projects: finds IDisposable values that are never disposed, infers ownership attributes and proposes fixes.</description>
    <tags>idisposable resource-leak static-analysis roslyn-alternative</tags>
    <packageTypes>
      <packageType name="{package_type}" />
    </packageTypes>
  </metadata>
</package>
"""


def pointer_settings(rids):
    packages = "".join(
        f"\n    <RuntimeIdentifierPackage RuntimeIdentifier={quoteattr(rid)} Id={quoteattr(f'{TOOL}.{rid}')} />"
        for rid in rids
    )
    return f"""<?xml version="1.0" encoding="utf-8"?>
<DotNetCliTool Version="2">
  <Commands>
    <Command Name="{TOOL}" />
  </Commands>
  <RuntimeIdentifierPackages>{packages}
  </RuntimeIdentifierPackages>
</DotNetCliTool>
"""


def rid_settings(rid):
    return f"""<?xml version="1.0" encoding="utf-8"?>
<DotNetCliTool Version="2">
  <Commands>
    <Command Name="{TOOL}" EntryPoint="{entry_point(rid)}" Runner="executable" />
  </Commands>
</DotNetCliTool>
"""


def content_types(rid):
    # A file without an extension needs its own entry (Override).
    override = (
        f'\n  <Override PartName="/tools/{TFM}/{rid}/{TOOL}" ContentType="application/octet" />'
        if rid != "any" and not rid.startswith("win-")
        else ""
    )
    return f"""<?xml version="1.0" encoding="utf-8"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
  <Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml" />
  <Default Extension="psmdcp" ContentType="application/vnd.openxmlformats-package.core-properties+xml" />
  <Default Extension="nuspec" ContentType="application/octet" />
  <Default Extension="xml" ContentType="application/octet" />
  <Default Extension="exe" ContentType="application/octet" />{override}
</Types>
"""


def rels(package_id):
    return f"""<?xml version="1.0" encoding="utf-8"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
  <Relationship Type="http://schemas.microsoft.com/packaging/2010/07/manifest" Target="/{package_id}.nuspec" Id="R0" />
  <Relationship Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="/package/services/metadata/core-properties/{package_id}.psmdcp" Id="R1" />
</Relationships>
"""


def core_properties(package_id, version):
    return f"""<?xml version="1.0" encoding="utf-8"?>
<coreProperties xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns="http://schemas.openxmlformats.org/package/2006/metadata/core-properties">
  <dc:creator>rlc-sharp contributors</dc:creator>
  <dc:identifier>{escape(package_id)}</dc:identifier>
  <version>{escape(version)}</version>
  <keywords>idisposable resource-leak static-analysis</keywords>
  <lastModifiedBy>rlc-sharp packaging/dotnet-tool/pack.py</lastModifiedBy>
</coreProperties>
"""


def write_package(path, package_id, version, package_type, files, rid):
    """files: (name in the package, bytes, unix mode)."""
    entries = [
        ("_rels/.rels", rels(package_id).encode(), 0o644),
        (f"{package_id}.nuspec", nuspec(package_id, version, package_type).encode(), 0o644),
        (
            f"package/services/metadata/core-properties/{package_id}.psmdcp",
            core_properties(package_id, version).encode(),
            0o644,
        ),
        ("[Content_Types].xml", content_types(rid).encode(), 0o644),
    ] + files
    temp = path.with_name(path.name + ".tmp")
    with zipfile.ZipFile(temp, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data, mode in sorted(entries, key=lambda e: e[0]):
            info = zipfile.ZipInfo(name, EPOCH)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.create_system = 3  # Unix, so that the mode below is read
            info.external_attr = (0o100000 | mode) << 16
            archive.writestr(info, data)
    os.replace(temp, path)


def build_host_binary():
    subprocess.run(
        ["cargo", "build", "--release", "-p", TOOL, "--bin", TOOL], cwd=REPO, check=True
    )
    return REPO / "target" / "release" / TOOL


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True, type=Path, help="directory for the .nupkg files")
    parser.add_argument("--version", help="package version [default: the workspace's]")
    parser.add_argument(
        "--rid", action="append", default=[], metavar="RID=BINARY",
        help="a RID and the rlc-sharp binary built for it; repeatable",
    )
    parser.add_argument(
        "--also-rid", action="append", default=[], metavar="RID",
        help="list RID in the pointer package; its package is built elsewhere",
    )
    args = parser.parse_args()
    version = args.version or workspace_version()
    if not re.fullmatch(r"\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?", version):
        sys.exit(f"error: `{version}` is not a NuGet version (1.2.3 or 1.2.3-beta.1)")
    binaries = {}
    for spec in args.rid:
        rid, sep, binary = spec.partition("=")
        if not sep or not binary:
            sys.exit(f"error: --rid takes RID=BINARY, not `{spec}`")
        binaries[rid] = Path(binary)
    if not binaries:
        binaries[host_rid()] = build_host_binary()
    rids = sorted(set(binaries) | set(args.also_rid))
    for rid in rids:
        if not RID_PATTERN.match(rid):
            sys.exit(f"error: `{rid}` is not a portable .NET RID such as linux-x64 or win-arm64")
    args.out.mkdir(parents=True, exist_ok=True)
    written = []
    for rid, binary in sorted(binaries.items()):
        try:
            data = binary.read_bytes()
        except OSError as e:
            sys.exit(f"error: cannot read the {rid} binary `{binary}`: {e}")
        package_id = f"{TOOL}.{rid}"
        folder = f"tools/{TFM}/{rid}"
        path = args.out / f"{package_id}.{version}.nupkg"
        write_package(
            path, package_id, version, "DotnetToolRidPackage",
            [
                (f"{folder}/DotnetToolSettings.xml", rid_settings(rid).encode(), 0o644),
                (f"{folder}/{entry_point(rid)}", data, 0o755),
            ],
            rid,
        )
        written.append(path)
    pointer = args.out / f"{TOOL}.{version}.nupkg"
    write_package(
        pointer, TOOL, version, "DotnetTool",
        [(f"tools/{TFM}/any/DotnetToolSettings.xml", pointer_settings(rids).encode(), 0o644)],
        "any",
    )
    written.append(pointer)
    for path in written:
        print(path)


if __name__ == "__main__":
    main()
