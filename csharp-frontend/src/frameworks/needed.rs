//! Which of its files a later compilation needs. It analyses only the files
//! whose active code no earlier compilation of its project analysed; of the
//! others it needs only the declarations that code (or code compiled against
//! it) can reach: the types it names, the types their signatures name, and so
//! on, plus the files that act on every file (global usings, assembly
//! attributes) and the extension methods. Leaving out the rest keeps the
//! cost of an extra target framework near that of the code it adds.

use rustc_hash::FxHashSet;

use super::{Parsed, Plan};
use crate::hir::{FileSyntax, ParamModifier, TypeRef};

/// What a file declares and what its declarations name.
struct Outline<'a> {
    declares: Vec<&'a str>,
    names: FxHashSet<&'a str>,
    /// Needed whatever is named: global usings, assembly attributes,
    /// extension methods.
    always: bool,
}

fn outline(syntax: &FileSyntax) -> Outline<'_> {
    let mut names = FxHashSet::default();
    let mut declares = Vec::new();
    let mut extension = false;
    for t in &syntax.types {
        declares.push(t.name.as_str());
        let params = t.primary_ctor.iter().flatten();
        let bounds = t.constraints.iter().flat_map(|c| &c.bounds);
        for r in t
            .bases
            .iter()
            .chain(bounds)
            .chain(params.filter_map(|p| p.ty.as_ref()))
        {
            type_names(r, &mut names);
        }
        for m in &t.members {
            extension |= m
                .params
                .first()
                .is_some_and(|p| p.modifier == ParamModifier::This);
            let params = m.params.iter().filter_map(|p| p.ty.as_ref());
            let bounds = m.constraints.iter().flat_map(|c| &c.bounds);
            for r in
                m.ty.iter()
                    .chain(params)
                    .chain(bounds)
                    .chain(&m.explicit_interface)
            {
                type_names(r, &mut names);
            }
        }
    }
    let global_usings = syntax
        .scopes
        .iter()
        .any(|s| s.usings.iter().any(|u| u.global));
    Outline {
        declares,
        names,
        always: extension || global_usings || !syntax.global_attrs.is_empty(),
    }
}

fn type_names<'a>(r: &'a TypeRef, out: &mut FxHashSet<&'a str>) {
    match r {
        TypeRef::Path { segments, .. } => {
            for s in segments {
                out.insert(s.name.as_str());
                for a in &s.args {
                    type_names(a, out);
                }
            }
        }
        TypeRef::Array(t, _) | TypeRef::Nullable(t) | TypeRef::Pointer(t) | TypeRef::Ref(t) => {
            type_names(t, out)
        }
        TypeRef::Tuple(items) => {
            for (t, _) in items {
                type_names(t, out);
            }
        }
        TypeRef::Predefined(_) | TypeRef::FunctionPointer | TypeRef::Var | TypeRef::Error => {}
    }
}

/// Every identifier of a text (a superset of the names its code uses).
fn identifiers(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| w.starts_with(|c: char| c.is_alphabetic() || c == '_'))
}

/// Per file of the plan, whether its compilation needs it: every file of a
/// first compilation and every file a compilation analyses; of the other
/// files of later compilations, those [the module documentation](self) says.
pub(crate) fn needed(plan: &Plan, parsed: &[Parsed]) -> Vec<bool> {
    let compilations = plan.compilations.len();
    let later = |c: u32| plan.compilations[c as usize].level > 0;
    let analysed = |i: usize| {
        let f = &plan.files[i];
        plan.units[f.unit as usize].analysed_in == f.compilation
    };
    let mut keep: Vec<bool> = (0..plan.files.len())
        .map(|i| !later(plan.files[i].compilation) || analysed(i))
        .collect();
    // The names each later compilation needs: those its analysed code uses,
    // and those of the first compilations that reference it (a project with
    // one framework compiles against a library's build for that framework).
    let wants = |c: u32| later(c) || plan.references[c as usize].iter().any(|&r| later(r));
    let mut wanted: Vec<FxHashSet<&str>> = vec![FxHashSet::default(); compilations];
    for (i, f) in plan.files.iter().enumerate() {
        if wants(f.compilation)
            && analysed(i)
            && let Ok(text) = &plan.texts[f.path as usize]
        {
            wanted[f.compilation as usize].extend(identifiers(text));
        }
    }
    let outlines: Vec<Option<Outline<'_>>> = plan
        .files
        .iter()
        .enumerate()
        .map(|(i, f)| match (&parsed[f.variant as usize], keep[i]) {
            (Ok(syntax), false) => Some(outline(syntax)),
            _ => None,
        })
        .collect();
    let mut by_compilation: Vec<Vec<usize>> = vec![Vec::new(); compilations];
    for (i, f) in plan.files.iter().enumerate() {
        if !keep[i] {
            by_compilation[f.compilation as usize].push(i);
        }
    }
    // To a fixed point: a needed file's declarations name more types, and
    // what a compilation needs of the later compilations it references,
    // they need too.
    loop {
        let mut changed = false;
        for c in 0..compilations {
            for &i in &by_compilation[c] {
                let Some(o) = &outlines[i] else { continue };
                if keep[i] || !(o.always || o.declares.iter().any(|d| wanted[c].contains(d))) {
                    continue;
                }
                keep[i] = true;
                changed = true;
                let names: Vec<&str> = o.names.iter().copied().collect();
                wanted[c].extend(names);
            }
            for &r in &plan.references[c] {
                if later(r) && r as usize != c {
                    let names: Vec<&str> = wanted[c]
                        .iter()
                        .copied()
                        .filter(|n| !wanted[r as usize].contains(n))
                        .collect();
                    changed |= !names.is_empty();
                    wanted[r as usize].extend(names);
                }
            }
        }
        if !changed {
            return keep;
        }
    }
}
