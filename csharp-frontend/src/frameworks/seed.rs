//! Specifications for the declarations a compilation has but does not
//! analyse: a file whose active code an earlier compilation of its project
//! analysed is declarations only, and its types, methods and fields get the
//! specifications inference gave their twins there. Declarations are matched
//! by kind, name and position, which are the same in both since the file's
//! active code is.

use rlc_core::FileId;
use rlc_core::program::{
    FieldId, MethodId, MethodKind, Ownership, Program, Provenance, Target, TypeId,
};
use rustc_hash::{FxHashMap, FxHashSet};

use crate::index::Origin;
use crate::load::Loaded;

#[derive(Clone, PartialEq, Eq, Hash)]
enum Key {
    Type(u32, u32, String),
    Method(u32, u32, String, MethodKind),
    Field(u32, u32, String),
}

#[derive(Copy, Clone, PartialEq, Eq, Hash)]
enum Decl {
    Type(TypeId),
    Method(MethodId),
    Field(FieldId),
}

/// Gives the declarations that the `compilations` have but do not analyse
/// the inferred specifications of their twins where they were analysed (so
/// far as inference ran there). Written specifications are never touched,
/// and neither is anything already inferred. Returns how many it gave.
pub fn seed(program: &mut Program, loaded: &Loaded, compilations: &[u32]) -> usize {
    let twins = twins(program, loaded, compilations);
    if twins.pairs.is_empty() {
        return 0;
    }
    let mut given = 0;
    for &(from, to, compilation) in &twins.pairs {
        // A field a spec of the twin names is the twin of that field in the
        // twin's own compilation.
        let field_twin = |f: FieldId| match twins.of.get(&(Decl::Field(f), compilation)) {
            Some(Decl::Field(t)) => Some(*t),
            _ => None,
        };
        let target_twin = |t: &Target| match t {
            Target::Field(f) => field_twin(*f).map(Target::Field),
            other => Some(other.clone()),
        };
        match (from, to) {
            (Decl::Type(a), Decl::Type(b)) => {
                let source = program.ty(a).must_call.clone();
                given += copy_option(&source, &mut program.types[b.index()].must_call, |(_, p)| p);
                // A disposal inference found to release nothing (its
                // `[MustCall]` moved there, so the leaks are RLC0010).
                let harmless = program.ty(a).harmless.clone();
                given += copy_option(
                    &harmless,
                    &mut program.types[b.index()].harmless,
                    |(_, p)| p,
                );
            }
            (Decl::Field(a), Decl::Field(b)) => {
                let source = program.field(a).ownership.clone();
                given += copy_ownership(&source, &mut program.fields[b.index()].ownership);
            }
            (Decl::Method(a), Decl::Method(b)) => {
                let source = program.method(a).clone();
                let calls: Vec<_> = source
                    .calls
                    .iter()
                    .filter(|c| inferred(&c.provenance))
                    .filter_map(|c| {
                        let mut c = c.clone();
                        c.target = target_twin(&c.target)?;
                        Some(c)
                    })
                    .collect();
                let creates: Vec<_> = source
                    .creates_must_call_for
                    .iter()
                    .filter(|(_, p)| inferred(p))
                    .filter_map(|(t, p)| Some((target_twin(t)?, p.clone())))
                    .collect();
                let twin = &mut program.methods[b.index()];
                given += copy_ownership(&source.ret_ownership, &mut twin.ret_ownership);
                given += copy_option(&source.ret_must_call, &mut twin.ret_must_call, |(_, p)| p);
                given += copy_option(
                    &source.ret_must_call_alias,
                    &mut twin.ret_must_call_alias,
                    |p| p,
                );
                given += copy_option(
                    &source.this_must_call_alias,
                    &mut twin.this_must_call_alias,
                    |p| p,
                );
                if source.params.len() == twin.params.len() {
                    for (s, t) in source.params.iter().zip(&mut twin.params) {
                        given += copy_ownership(&s.ownership, &mut t.ownership);
                        given += copy_option(&s.must_call_alias, &mut t.must_call_alias, |p| p);
                    }
                }
                for c in calls {
                    if !twin.calls.iter().any(|x| x.target == c.target) {
                        twin.calls.push(c);
                        given += 1;
                    }
                }
                for (target, p) in creates {
                    if !twin.creates_must_call_for.iter().any(|(t, _)| *t == target) {
                        twin.creates_must_call_for.push((target, p));
                        given += 1;
                    }
                }
            }
            _ => {}
        }
    }
    given
}

/// The declarations of the `compilations` that they have but do not
/// analyse, each with the declaration it is the twin of where it is analysed.
/// A declaration analysed once has a twin in each later compilation that
/// keeps its file as declarations only: several of the `compilations` may
/// have one.
#[derive(Default)]
struct Twins {
    /// (analysed declaration, its twin, the twin's compilation).
    pairs: Vec<(Decl, Decl, u32)>,
    /// The twin of an analysed declaration in a compilation.
    of: FxHashMap<(Decl, u32), Decl>,
}

fn twins(program: &Program, loaded: &Loaded, compilations: &[u32]) -> Twins {
    let wanted: FxHashSet<u32> = compilations.iter().copied().collect();
    // Where each unit is analysed, and the twins to seed from there.
    let mut analysed: FxHashMap<u32, FileId> = FxHashMap::default();
    let mut twins: Vec<(FileId, u32, u32)> = Vec::new();
    for (i, entry) in loaded.index.files.iter().enumerate() {
        let file = FileId(i as u32);
        let (Origin::Project(c), Some(Some(unit))) = (entry.origin, loaded.file_units.get(i))
        else {
            continue;
        };
        if loaded.is_analysed(file) {
            analysed.insert(*unit, file);
        } else if wanted.contains(&c) {
            twins.push((file, *unit, c));
        }
    }
    let pairs: Vec<(FileId, FileId, u32)> = twins
        .iter()
        .filter_map(|&(twin, unit, c)| Some((*analysed.get(&unit)?, twin, c)))
        .collect();
    if pairs.is_empty() {
        return Twins::default();
    }
    let involved: FxHashSet<FileId> = pairs.iter().flat_map(|(s, t, _)| [*s, *t]).collect();
    let decls = declarations(program, &involved);
    // Source declaration -> twin declaration, file pair by file pair.
    let mut out = Twins::default();
    for (source, twin, c) in &pairs {
        let (Some(from), Some(to)) = (decls.get(source), decls.get(twin)) else {
            continue;
        };
        for (key, decl) in from {
            if let (Some(d), Some(Some(t))) = (decl, to.get(key)) {
                out.pairs.push((*d, *t, *c));
                out.of.insert((*d, *c), *t);
            }
        }
    }
    out
}

/// Gives the twins of the `compilations` (as [`seed`]) what
/// [`rlc_core::ownership::derive_ownership_flags`] derived from the bodies
/// where they are analysed: a constructor's ownership condition and its
/// field's ownership flag; the fields that guard a field
/// ([`rlc_core::field_guards::derive`]); and what
/// [`rlc_core::never_returns::derive`] and
/// [`rlc_core::construction::derive_construction_helpers`] found (lifecycle
/// starts and the fields construction fills included), and the parameters
/// [`rlc_core::reopens::derive`] found opened again.
/// Returns how many it gave.
pub fn seed_ownership_flags(program: &mut Program, loaded: &Loaded, compilations: &[u32]) -> usize {
    let twins = twins(program, loaded, compilations);
    let mut given = 0;
    for &(from, to, c) in &twins.pairs {
        match (from, to) {
            (Decl::Method(a), Decl::Method(b)) => {
                let source = program.method(a).ownership_condition.clone();
                let never_returns = program.method(a).never_returns;
                let construction_helper = program.method(a).construction_helper;
                let lifecycle_start = program.method(a).lifecycle_start;
                let reopened: Vec<bool> = program
                    .method(a)
                    .params
                    .iter()
                    .map(|p| p.reopened)
                    .collect();
                let twin = &mut program.methods[b.index()];
                for (p, r) in twin.params.iter_mut().zip(reopened) {
                    if r && !p.reopened {
                        p.reopened = true;
                        given += 1;
                    }
                }
                if never_returns && !twin.never_returns {
                    twin.never_returns = true;
                    given += 1;
                }
                if construction_helper && !twin.construction_helper {
                    twin.construction_helper = true;
                    given += 1;
                }
                if lifecycle_start != twin.lifecycle_start {
                    twin.lifecycle_start = lifecycle_start;
                    given += 1;
                }
                if twin.ownership_condition.is_none() && source.is_some() {
                    twin.ownership_condition = source;
                    given += 1;
                }
            }
            (Decl::Field(a), Decl::Field(b)) => {
                let source = program.field(a).ownership_flag;
                let set_in_construction = program.field(a).set_in_construction;
                // The twin's guards are the twins of the field's guards.
                let guards: Vec<FieldId> = program
                    .field(a)
                    .guards
                    .iter()
                    .filter_map(|g| match twins.of.get(&(Decl::Field(*g), c)) {
                        Some(Decl::Field(t)) => Some(*t),
                        _ => None,
                    })
                    .collect();
                let twin = &mut program.fields[b.index()];
                if twin.ownership_flag.is_none() && source.is_some() {
                    twin.ownership_flag = source;
                    given += 1;
                }
                if twin.guards.is_empty() && !guards.is_empty() {
                    twin.guards = guards;
                    given += 1;
                }
                if set_in_construction && !twin.set_in_construction {
                    twin.set_in_construction = true;
                    given += 1;
                }
            }
            _ => {}
        }
    }
    given
}

/// The methods and fields the `compilations` have but do not analyse, with
/// the declarations they stand for, for the checker's summaries (which are
/// computed from bodies, so only the analysed declarations have them).
pub fn summary_twins(
    program: &Program,
    loaded: &Loaded,
    compilations: &[u32],
) -> rlc_core::facts::Twins {
    let twins = twins(program, loaded, compilations);
    let mut out = rlc_core::facts::Twins::default();
    for &(from, to, c) in &twins.pairs {
        match (from, to) {
            (Decl::Method(a), Decl::Method(b)) => out.methods.push((a, b, c)),
            (Decl::Field(a), Decl::Field(b)) => out.fields.push((a, b, c)),
            _ => {}
        }
    }
    out
}

fn inferred(p: &Provenance) -> bool {
    matches!(p, Provenance::Inferred { .. })
}

/// Copies an inferred ownership over a default one; 1 if it did.
fn copy_ownership(from: &Ownership, to: &mut Ownership) -> usize {
    if *to == Ownership::Default && from.provenance().is_some_and(inferred) {
        *to = from.clone();
        return 1;
    }
    0
}

/// Copies an inferred spec where there is none; 1 if it did.
fn copy_option<T: Clone>(
    from: &Option<T>,
    to: &mut Option<T>,
    provenance: fn(&T) -> &Provenance,
) -> usize {
    if to.is_none() && from.as_ref().is_some_and(|v| inferred(provenance(v))) {
        *to = from.clone();
        return 1;
    }
    0
}

/// The source declarations of the `files`, by file and key; a key two
/// declarations of a file share maps to None.
fn declarations(
    program: &Program,
    files: &FxHashSet<FileId>,
) -> FxHashMap<FileId, FxHashMap<Key, Option<Decl>>> {
    let mut out: FxHashMap<FileId, FxHashMap<Key, Option<Decl>>> = FxHashMap::default();
    let mut add = |file: FileId, key: Key, decl: Decl| {
        if files.contains(&file) {
            out.entry(file)
                .or_default()
                .entry(key)
                .and_modify(|d| *d = None)
                .or_insert(Some(decl));
        }
    };
    for (i, t) in program.types.iter().enumerate() {
        if let Some(s) = t.span {
            add(
                s.file,
                Key::Type(s.start, s.end, t.name.clone()),
                Decl::Type(TypeId(i as u32)),
            );
        }
    }
    for (i, m) in program.methods.iter().enumerate() {
        if let Some(s) = m.span {
            add(
                s.file,
                Key::Method(s.start, s.end, m.name.clone(), m.kind),
                Decl::Method(MethodId(i as u32)),
            );
        }
    }
    for (i, f) in program.fields.iter().enumerate() {
        if let Some(s) = f.span {
            add(
                s.file,
                Key::Field(s.start, s.end, f.name.clone()),
                Decl::Field(FieldId(i as u32)),
            );
        }
    }
    out
}
