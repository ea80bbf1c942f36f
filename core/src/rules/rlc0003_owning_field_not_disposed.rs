//! RLC0003 owning-field-not-disposed (paper §3.2): a class with an `[Owning]`
//! field of a type with an obligation needs a must-call method that guarantees
//! the field's disposal, by its `[Calls]` or by its body (verified like
//! `[Calls]`; `Dispose(bool disposing)` counts with `disposing == true`).

use super::text::{must_call_fact, preferred};
use crate::consistency::{Verdict, guarantees};
use crate::rules::{Diagnostic, Keyed, Label, SpecFact, finish};
use crate::facts::ProgramFacts;
use crate::must_call::MustCallType;
use crate::options::ExceptionModel;
use crate::program::{CallsSpec, DeclaredIn, FieldDef, FieldId, MethodId, Program, Provenance, Target, TypeId, TypeKind};
use crate::ir::{Callee, Stmt};
use crate::rules::RuleId;
use crate::span::{FileId, Span};

pub(super) fn check(pf: &ProgramFacts<'_>, exceptions: ExceptionModel, out: &mut Vec<Diagnostic>) {
    let program = pf.program;
    for (ti, ty) in program.types.iter().enumerate() {
        if ty.declared_in != DeclaredIn::Source
            || matches!(
                ty.kind,
                TypeKind::Interface | TypeKind::Enum | TypeKind::Delegate
            )
        {
            continue;
        }
        let class_ob = pf.types.of_type(TypeId(ti as u32));
        let mut diags: Vec<Keyed> = Vec::new();
        for &f in &ty.fields {
            let Some(field) = program.get_field(f) else {
                continue;
            };
            if !field.is_owning() {
                continue;
            }
            let Some(field_ob) = pf.types.of_value(&field.ty) else {
                continue;
            };
            let target = Target::Field(f);
            let disposers: Vec<MethodId> = ty
                .methods
                .iter()
                .copied()
                .filter(|m| {
                    program.get_method(*m).is_some_and(|d| {
                        !d.is_static && class_ob.is_some_and(|o| o.is_satisfied_by(&d.name))
                    })
                })
                .chain(dispose_hooks(pf, TypeId(ti as u32), class_ob))
                .collect();
            let covered = disposers.iter().any(|&m| {
                program
                    .get_method(m)
                    .is_some_and(|d| d.calls.iter().any(|s| covers(s, &target, field_ob)))
                    || guarantees(pf, exceptions, m, &target, &field_ob.must_call)
                        == Verdict::Guaranteed
            });
            if covered {
                continue;
            }
            let d = report(program, ty.short_name(), f, field_ob, class_ob);
            let harmless = field_ob.harmless.as_ref();
            let d = super::rlc0011_resource_leak_releases_only_managed::demote_if_managed(
                program, d, harmless,
            );
            diags.push(super::rlc0010_resource_leak_releases_nothing::demote_if_nothing(
                program, d, harmless,
            ));
        }
        // The full name: types of one name in two namespaces differ.
        out.extend(finish(diags, &ty.name));
    }
}

/// The methods of `ty` through which a must-call method it inherits reaches
/// its fields: overrides of the virtual methods that method calls on `this`
/// (`Dispose()` calling a virtual `DisposeScope()`, `Dispose(bool)` an
/// abstract `Close()`).
fn dispose_hooks(pf: &ProgramFacts<'_>, ty: TypeId, class_ob: Option<&MustCallType>) -> Vec<MethodId> {
    let program = pf.program;
    let Some(class_ob) = class_ob else {
        return Vec::new();
    };
    let bases = program.ancestors(ty);
    let inherited = bases.iter().flat_map(|t| program.ty(*t).methods.iter().copied());
    let mut hooks: Vec<MethodId> = Vec::new();
    for m in inherited {
        let d = program.method(m);
        if d.is_static || !class_ob.is_satisfied_by(&d.name) {
            continue;
        }
        let Some(body) = pf.body_of(m).and_then(|b| pf.bodies.get(b)) else {
            continue;
        };
        let this = body.this_var();
        for node in &body.nodes {
            let Stmt::Call(call) = &node.stmt else {
                continue;
            };
            let Callee::Method(callee) = call.callee else {
                continue;
            };
            if this.is_none() || call.receiver != this {
                continue;
            }
            let virtual_callee = program.method(callee);
            if !(virtual_callee.is_virtual || virtual_callee.is_abstract) {
                continue;
            }
            hooks.extend(
                program
                    .ty(ty)
                    .methods
                    .iter()
                    .copied()
                    .filter(|o| program.overridden(*o).contains(&callee)),
            );
        }
    }
    hooks.sort_unstable();
    hooks.dedup();
    hooks
}

fn covers(spec: &CallsSpec, target: &Target, ob: &MustCallType) -> bool {
    spec.target == *target && ob.is_covered_by(&spec.methods)
}

fn report(
    program: &Program,
    class: &str,
    f: FieldId,
    field_ob: &MustCallType,
    class_ob: Option<&MustCallType>,
) -> Keyed {
    let field = program.get_field(f);
    let name = field.map_or("?", |d| d.name.as_str());
    let kind = field.map_or("field", FieldDef::kind_name);
    let ty = field.map_or("?", |d| program.type_name(d.ty.ty));
    let obl = preferred(program, &field_ob.must_call);
    let span = field
        .and_then(|d| d.span)
        .unwrap_or(Span::new(FileId(0), 0, 0));
    let (message, help) = match class_ob {
        None => (
            format!("`{class}` owns `{name}` but has no must-call method that disposes it"),
            no_must_call_help(program, field, name, &obl),
        ),
        Some(ob) => (
            format!(
                "no must-call method of `{class}` disposes the owning {kind} `{name}` (missing `{name}.{obl}` in `{}`)",
                preferred(program, &ob.must_call)
            ),
            format!(
                "call `{name}?.{obl};` in `{}` on every path (in `Dispose(bool disposing)` when `disposing` is true)",
                preferred(program, &ob.must_call)
            ),
        ),
    };
    let mut d = Diagnostic::new(
        RuleId::OwningFieldNotDisposed,
        message,
        Label {
            span,
            message: format!("`{name}` is an owning {kind} of type `{ty}`"),
        },
    );
    d.help = Some(help);
    if let Some(field) = field {
        let prov = field
            .ownership
            .provenance()
            .cloned()
            .unwrap_or(Provenance::Default);
        d.facts
            .push(SpecFact::new(format!("{kind} `{name}` is `[Owning]`"), prov));
    }
    d.facts.push(must_call_fact(program, field_ob, ty));
    if let Some(ob) = class_ob {
        d.facts.push(must_call_fact(program, ob, class));
    }
    (d, name.to_string())
}

/// The fix for a class with no must-call method: dispose the field in the
/// class's own disposal method when it has one that is not a must-call
/// method yet (`Task DisposeAsync()` without the interface), else implement
/// the interface whose method the field needs.
fn no_must_call_help(program: &Program, field: Option<&FieldDef>, name: &str, obl: &str) -> String {
    let own = field.and_then(|f| {
        program.ty(f.owner).methods.iter().find_map(|m| {
            let md = program.method(*m);
            (!md.is_static && md.params.is_empty() && program.conventions.is_disposal_method(&md.name))
                .then_some(md.name.as_str())
        })
    });
    let dispose_async = format!("{}()", program.conventions.dispose_async);
    let c = &program.conventions;
    match own {
        Some(m) if m == c.dispose || m == c.dispose_async => {
            let interface = if m == c.dispose { "IDisposable" } else { "IAsyncDisposable" };
            format!(
                "dispose the field in `{m}()` on every path, and declare `{interface}` so that callers must call it"
            )
        }
        Some(m) => format!("dispose the field in `{m}()` on every path"),
        None if obl == dispose_async => format!(
            "implement `IAsyncDisposable` and dispose the field: `public async ValueTask DisposeAsync() {{ if ({name} != null) await {name}.DisposeAsync(); }}`"
        ),
        None => format!(
            "implement `IDisposable` and dispose the field: `public void Dispose() => {name}?.{obl};`"
        ),
    }
}
