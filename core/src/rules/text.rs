//! How findings name things: types, obligations, parameters, callees, and
//! where a value was lost. Shared by the rules' messages.

use crate::consistency::{Event, Loss, Obligation};
use crate::facts::BodyFacts;
use crate::ir::{Callee, NodeId, Stmt, VarId};
use crate::must_call::MustCallType;
use crate::program::{MethodDef, MethodKind, MustCall, Program, Provenance, Target, TypeKind};
use crate::rules::{Label, SpecFact};
use crate::span::{FileId, Span};

/// The method to name in a message: the conventional disposal method first
/// (`Dispose()` before its alternatives).
pub fn preferred(program: &Program, mc: &MustCall) -> String {
    let pick = program
        .conventions
        .disposal_methods
        .iter()
        .map(String::as_str)
        .find(|m| mc.is_satisfied_by(m))
        .or_else(|| mc.methods.first().map(String::as_str))
        .unwrap_or("Dispose");
    format!("{pick}()")
}

/// Whether `using` (or `await using`) discharges the obligation: not for a
/// class whose must-call method is its own `Stop()`, which `using` cannot call.
pub fn satisfied_by_using(program: &Program, mc: &MustCall) -> bool {
    mc.is_satisfied_by(&program.conventions.dispose)
        || mc.is_satisfied_by(&program.conventions.dispose_async)
}

/// For a method that took its `[return: NotOwning]` from a method it
/// overrides or implements: that method's name (`IServiceProvider.GetService`)
/// and the relation (`implements`, `overrides`), so that a message does not
/// send the user to remove an attribute their method does not have.
pub fn not_owning_return_origin(
    program: &Program,
    md: &MethodDef,
) -> Option<(String, &'static str)> {
    let base = program.not_owning_return_from(md)?;
    let owner = program.get_ty(base.owner);
    let relation = if owner.is_some_and(|t| t.kind == TypeKind::Interface) {
        "implements"
    } else {
        "overrides"
    };
    let name = base.property.as_deref().unwrap_or(&base.name);
    Some((
        format!("{}.{name}", program.type_name(Some(base.owner))),
        relation,
    ))
}

/// `` `Dispose()` or `Close()` ``.
pub fn list(mc: &MustCall) -> String {
    mc.methods
        .iter()
        .map(|m| format!("`{m}()`"))
        .collect::<Vec<_>>()
        .join(" or ")
}

/// The resource's type as messages name it.
pub fn type_of(cx: &BodyFacts<'_>, ob: &Obligation) -> String {
    cx.program.type_name(ob.ty).to_string()
}

/// "`T` must call `Dispose()`", with the type that declared it when another.
pub fn obligation_fact(cx: &BodyFacts<'_>, ob: &Obligation, ty: &str) -> SpecFact {
    must_call_fact(cx.program, &ob.must_call, ty)
}

/// "`T` must call `Dispose()`" for a value of `ty` with must-call type `mc`.
pub fn must_call_fact(program: &Program, mc: &MustCallType, ty: &str) -> SpecFact {
    // The provenance is the declaring type's: say so, so that a model fact
    // about `IDisposable` does not read as a model fact about the user's type.
    let by = match mc.declared_by.and_then(|t| program.get_ty(t)) {
        Some(d) if d.short_name() != ty => format!(", as every `{}` must", d.short_name()),
        _ => String::new(),
    };
    SpecFact::new(
        format!("`{ty}` must call {}{by}", list(&mc.must_call)),
        mc.provenance.clone(),
    )
}

/// The callee of a call node, as a message says it: "`OpenRead`", "the
/// getter of `Stream`", "the delegate `f`", or "a call" when it has no name.
pub fn callee_phrase(cx: &BodyFacts<'_>, n: NodeId) -> String {
    let Some(Stmt::Call(call)) = cx.body.nodes.get(n.index()).map(|n| &n.stmt) else {
        return "a call".into();
    };
    match &call.callee {
        Callee::Method(m) => match cx.program.get_method(*m) {
            Some(d) => match (&d.property, d.kind) {
                (Some(p), MethodKind::Getter) => format!("the getter of `{p}`"),
                (Some(p), _) => format!("`{p}`"),
                (None, _) => format!("`{}`", d.name),
            },
            None => "a call".into(),
        },
        Callee::Unresolved(name) => format!("`{name}`"),
        Callee::Delegate(v) => match cx.var_name(*v) {
            Some(name) => format!("the delegate `{name}`"),
            None => "a delegate".into(),
        },
    }
}

/// A variable as a message says it: "`x`", or `fallback` for a temporary.
pub fn var_phrase(cx: &BodyFacts<'_>, var: Option<VarId>, fallback: &str) -> String {
    match var.and_then(|v| cx.var_name(v)) {
        Some(name) => format!("`{name}`"),
        None => fallback.to_string(),
    }
}

/// The declaration of the analysed method's parameter `i`.
pub fn param_span(cx: &BodyFacts<'_>, i: u32, ob: &Obligation) -> Span {
    cx.method
        .and_then(|m| m.params.get(i as usize))
        .and_then(|p| p.span)
        .or_else(|| {
            ob.var
                .and_then(|v| cx.body.vars.get(v.index()))
                .map(|v| v.span)
        })
        .unwrap_or(cx.body.span)
}

pub fn param_name(cx: &BodyFacts<'_>, i: u32) -> String {
    cx.method
        .and_then(|m| m.params.get(i as usize))
        .map_or_else(|| format!("#{i}"), |p| p.name.clone())
}

/// Where a parameter's spec came from.
pub fn param_provenance(cx: &BodyFacts<'_>, i: u32) -> Provenance {
    cx.method
        .and_then(|m| m.params.get(i as usize))
        .and_then(|p| p.ownership.provenance().cloned())
        .unwrap_or(Provenance::Default)
}

/// The secondary label of a loss: the place to fix, as LeakPoint argues.
/// `without` completes "... without": "`Dispose()`", "disposing its elements".
pub fn loss_label(cx: &BodyFacts<'_>, event: &Event, without: &str) -> Option<Label> {
    let message = match &event.loss {
        Loss::OutOfScope(v) => match cx.var_name(*v) {
            Some(name) => format!("`{name}` goes out of scope here without {without}"),
            None => format!("the last reference goes out of scope here without {without}"),
        },
        Loss::Overwritten(a) => match cx.alias_text(*a) {
            Some(t) => format!("`{t}` is overwritten here while it holds the last reference"),
            None => "the last reference is overwritten here".to_string(),
        },
        Loss::Exit => match event.holder.and_then(|h| cx.alias_text(h)) {
            Some(t) => format!("`{t}` is still undisposed when the method ends here"),
            None => format!("the method ends here without {without}"),
        },
        Loss::Return {
            value_is_alias: false,
        } => format!("the method returns here without {without}"),
        Loss::Return {
            value_is_alias: true,
        } => {
            if cx.method.is_some_and(|m| m.kind == MethodKind::Getter) {
                "returned here, but a property getter does not pass ownership to its caller"
                    .to_string()
            } else {
                format!(
                    "returned here, but `{}` does not return ownership",
                    cx.member_name()
                )
            }
        }
        Loss::ExceptionalExit => {
            format!("an exception thrown here leaves the method without {without}")
        }
        Loss::Discarded | Loss::UnownedCollection => return None,
    };
    Some(Label {
        span: cx.node_span(event.at),
        message,
    })
}

/// The span of a method's name, for class-level findings about it.
pub fn method_span(method: &MethodDef) -> Span {
    method.span.unwrap_or(Span::new(FileId(0), 0, 0))
}

/// How a `[Calls]`/`[CreatesMustCallFor]` target reads: `this`, a field, a parameter.
pub fn target_text(program: &Program, method: &MethodDef, target: &Target) -> String {
    match target {
        Target::This => "this".into(),
        Target::Field(f) => program
            .get_field(*f)
            .map_or_else(|| "?".into(), |d| d.name.clone()),
        Target::Param(i) => method
            .params
            .get(*i as usize)
            .map_or_else(|| format!("#{i}"), |p| p.name.clone()),
    }
}
