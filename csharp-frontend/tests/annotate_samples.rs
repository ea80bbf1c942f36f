//! The samples (C# 7.2) annotated at every declaration, with attributes their
//! definitions allow there, the way `rlc-sharp infer` writes a patch: the
//! patch, with the attribute definitions as a new file, applies with
//! `git apply` to a copy of each sample; the patched files re-parse without
//! new syntax errors; a second run changes nothing; and where Debian's mono
//! `mcs` is installed (CI has it) the patched sample still compiles.

mod annotate_support;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use annotate_support::syntax_errors;
use rlc_csharp::annotate::{
    AnnotateOptions, Annotation, AnnotationTarget, FileEdits, annotate_file_with, annotate_files,
    definitions_for, read_source_text, unified_diff,
};
use rlc_csharp::hir::{MemberKind, Param, TypeKind};
use rlc_csharp::parse::{ParseOptions, parse_file};
use rlc_csharp::project::{Project, discover};

/// Each sample and the `mcs` arguments of its README.
const SAMPLES: &[(&str, &[&str])] = &[
    ("file-tool", &["-target:exe"]),
    ("data-access", &["-target:library", "-r:System.Data.dll"]),
    (
        "http-service",
        &["-target:library", "-r:System.Net.Http.dll"],
    ),
];

fn git(dir: &Path, args: &[&str]) -> Result<String, String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .map_err(|e| e.to_string())?;
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

/// A git repository holding a copy of the sample's files.
fn repository(sample: &Path) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for entry in fs::read_dir(sample).unwrap() {
        let path = entry.unwrap().path();
        if path.is_file() {
            fs::copy(&path, dir.path().join(path.file_name().unwrap())).unwrap();
        }
    }
    for args in [
        &["init", "-q"][..],
        &["config", "core.autocrlf", "false"],
        &["add", "-A"],
        &[
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "commit",
            "-q",
            "-m",
            "sample",
        ],
    ] {
        git(dir.path(), args).unwrap();
    }
    dir
}

fn push(out: &mut Vec<Annotation>, target: AnnotationTarget, attribute: &str) {
    out.push(Annotation {
        target,
        attribute: attribute.to_owned(),
    });
}

/// An attribute on every declaration where RlcSharp.Annotations.cs allows
/// it, fields on every other one (so that multi-variable fields split). A
/// partial type gets its `[MustCall]` on one part only, as inference gives it.
fn targets(text: &str, defines: &[String], typed: &mut Vec<String>) -> Vec<Annotation> {
    let body = text.strip_prefix('\u{feff}').unwrap_or(text);
    let file = parse_file(body, &ParseOptions::with_defines(defines.iter().cloned()));
    let mut out = Vec::new();
    let params = |out: &mut Vec<Annotation>, ps: &[Param]| {
        for p in ps {
            push(
                out,
                AnnotationTarget::Parameter { range: p.range },
                "Owning",
            );
        }
    };
    for ty in &file.types {
        let name = ty.name.to_string();
        if matches!(
            ty.kind,
            TypeKind::Class | TypeKind::Struct | TypeKind::Interface
        ) && !typed.contains(&name)
        {
            typed.push(name);
            push(
                &mut out,
                AnnotationTarget::Type {
                    name: ty.name_range,
                },
                "MustCall(\"Dispose\")",
            );
        }
        for (i, m) in ty.members.iter().enumerate() {
            let name = m.name_range;
            match m.kind {
                MemberKind::Method => {
                    push(
                        &mut out,
                        AnnotationTarget::Return { member_name: name },
                        "NotOwning",
                    );
                    push(
                        &mut out,
                        AnnotationTarget::Member { name },
                        "Calls(\"this\", \"Dispose\")",
                    );
                }
                MemberKind::Operator | MemberKind::Conversion => push(
                    &mut out,
                    AnnotationTarget::Return { member_name: name },
                    "NotOwning",
                ),
                MemberKind::DelegateInvoke => push(
                    &mut out,
                    AnnotationTarget::Return { member_name: name },
                    "Owning",
                ),
                MemberKind::Constructor => {
                    push(&mut out, AnnotationTarget::Member { name }, "MustCallAlias")
                }
                MemberKind::Property | MemberKind::Indexer => push(
                    &mut out,
                    AnnotationTarget::Return { member_name: name },
                    "NotOwning",
                ),
                MemberKind::Field if i % 2 == 0 => {
                    push(&mut out, AnnotationTarget::Member { name }, "Owning")
                }
                _ => {}
            }
            params(&mut out, &m.params);
        }
    }
    out
}

fn mcs_available() -> bool {
    Command::new("mcs")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

fn mcs(dir: &Path, args: &[&str], files: &[PathBuf]) -> Result<(), String> {
    let out = Command::new("mcs")
        .current_dir(dir)
        .arg("-langversion:7.2")
        .args(args)
        .arg("-out:sample.out")
        .args(files)
        .output()
        .map_err(|e| e.to_string())?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

fn sample_project(root: &Path) -> Project {
    let mut workspace = discover(&[root.to_path_buf()]).unwrap();
    assert_eq!(workspace.projects.len(), 1, "{:?}", workspace.notes);
    workspace.projects.remove(0)
}

#[test]
fn samples_take_the_patch_and_still_compile() {
    let samples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples");
    let compile = mcs_available();
    if !compile {
        println!("not compiling: mcs is not installed (apt-get install mono-mcs)");
    }
    for (name, mcs_args) in SAMPLES {
        let repo = repository(&samples.join(name));
        let root = repo.path().canonicalize().unwrap();
        let project = sample_project(&root);
        // The unpatched sample first: a failure there is the machine's (a
        // missing mono library), not the patch's.
        let compile = compile
            && mcs(&root, mcs_args, &project.sources)
                .map_err(|e| println!("{name}: not compiled, the unpatched sample fails:\n{e}"))
                .is_ok();
        let options = AnnotateOptions::for_project(&project);
        let mut typed = Vec::new();
        let files: Vec<FileEdits> = project
            .sources
            .iter()
            .map(|path| {
                let original = read_source_text(path).unwrap();
                let annotations = targets(&original, &project.defines, &mut typed);
                FileEdits {
                    path: path.clone(),
                    original,
                    annotations,
                }
            })
            .collect();
        let annotated = annotate_files(&files, |_| options.clone());
        assert!(
            annotated.errors.is_empty(),
            "{name}: {:?}",
            annotated.errors
        );
        assert_eq!(annotated.changed.len(), files.len(), "{name}");
        let definitions = definitions_for(&project, &root).unwrap();
        let mut changes = annotated.changed.clone();
        changes.extend(definitions.project_file.clone());
        let new_files = vec![definitions.file.clone()];
        let patch = unified_diff(&root, &changes, &new_files);

        let patch_path = root.join(".git/rlc-sharp.patch");
        fs::write(&patch_path, &patch).unwrap();
        let patch_arg = patch_path.to_str().unwrap();
        git(&root, &["apply", "--check", patch_arg])
            .unwrap_or_else(|e| panic!("{name}: git apply --check: {e}\n{patch}"));
        git(&root, &["apply", patch_arg]).unwrap();
        fs::remove_file(&patch_path).unwrap();
        for (path, old, new) in &changes {
            assert_eq!(
                fs::read_to_string(path).unwrap(),
                *new,
                "{}",
                path.display()
            );
            assert!(
                syntax_errors(new) <= syntax_errors(old),
                "{}: new syntax errors",
                path.display()
            );
        }
        let (definitions_path, definitions_text) = &definitions.file;
        assert_eq!(
            fs::read_to_string(definitions_path).unwrap(),
            *definitions_text
        );

        // Inferring again on the patched sample: nothing to add.
        let mut typed = Vec::new();
        for (path, _, new) in &annotated.changed {
            let again =
                annotate_file_with(new, &targets(new, &project.defines, &mut typed), &options)
                    .unwrap();
            assert!(again == *new, "{}: a second run changes it", path.display());
        }
        // The project now holds the definitions: the next patch needs none.
        assert!(definitions_for(&sample_project(&root), &root).is_err());

        if compile {
            let mut sources = project.sources.clone();
            sources.push(definitions_path.clone());
            mcs(&root, mcs_args, &sources)
                .unwrap_or_else(|e| panic!("{name}: the patched sample fails:\n{e}\n{patch}"));
        }
    }
}
