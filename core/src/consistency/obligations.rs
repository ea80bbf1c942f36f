//! InitialObligations (Algorithm 1, line 1): where obligations start, what
//! kind each is, and which transfers discharge each kind.

use super::{Engine, Loss};
use crate::ir::{
    BodyKind, Call, CallKind, Callee, FieldRef, NodeId, Operand, Stmt, VarId, VarKind,
};
use crate::must_call::MustCallType;
use crate::ownership;
use crate::program::{ParamMode, Provenance, Target};
use crate::resource_alias::{Alias, Condition, FieldKey, condition_at, wrapped_by};

/// Where an obligation comes from (the paper's `e`), which decides what may
/// discharge it and which rule reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ObligationKind {
    /// The result of `new` or of a call returning an owning value.
    Alloc,
    /// A value a callee stored into an `out` argument.
    OutArg,
    /// An `[Owning]` parameter of the analysed method.
    OwningParam(u32),
    /// The elements of an `[Owning]` parameter of a collection type whose
    /// elements carry an obligation (`IEnumerable<Processor>`, `Stream[]`):
    /// the method takes over what the caller's collection holds.
    OwningElements(u32),
    /// A `[MustCallAlias]` parameter: the body must make the result wrap it.
    MustCallAliasParam(u32),
    /// `Opaque { owning: true }`.
    Opaque,
    /// The fresh obligation a `[CreatesMustCallFor]` call creates (§5).
    CreatesMustCallFor { on_this: bool },
    /// The value of an owning field of `this` (old value at entry, or a value
    /// stored in this body): it must be disposed before the field is overwritten.
    FieldValue(FieldKey),
    /// Values stored in a local collection at this site: the collection must be
    /// disposed element-wise before it is dropped.
    Element,
    /// A guarantee being verified.
    Target,
}

/// Which transfers discharge an obligation of a kind (MCSatisfiedAfter).
#[derive(Copy, Clone, Debug)]
pub struct Discharges {
    /// A must-call method called on an alias (directly or by `[Calls]`).
    pub calls: bool,
    /// Passed to an `[Owning]` parameter.
    pub owning_param: bool,
    /// Stored into an `[Owning]` field.
    pub owning_field: bool,
    /// Returned from a method whose return is owning.
    pub returns: bool,
    /// `yield return`ed, or assigned to an owning `out` parameter.
    pub hands_out: bool,
    /// Captured by a closure that disposes it.
    pub closure: bool,
    /// Disposed element-wise (a disposal loop over the collection, `ForEach`).
    pub elements: bool,
    /// Passed to a `[MustCallAlias]` parameter of `base(..)`/`this(..)`.
    pub mca_ctor: bool,
    /// Stored into a collection (moved to the collection's element obligation).
    pub collection_store: bool,
}

impl ObligationKind {
    pub fn discharges(&self) -> Discharges {
        let leak = Discharges {
            calls: true,
            owning_param: true,
            owning_field: true,
            returns: true,
            hands_out: true,
            closure: true,
            elements: false,
            mca_ctor: true,
            collection_store: true,
        };
        let none = Discharges {
            calls: false,
            owning_param: false,
            owning_field: false,
            returns: false,
            hands_out: false,
            closure: false,
            elements: false,
            mca_ctor: false,
            collection_store: false,
        };
        match self {
            // Paper §4.3: verified by wrapping it in the returned value, storing it
            // in an owning field, or handing it to base(..)/this(..).
            ObligationKind::MustCallAliasParam(_) => Discharges {
                owning_field: true,
                returns: true,
                mca_ctor: true,
                ..none
            },
            // A collection's elements: disposed element-wise (or handed to an
            // owner one by one), or the collection handed to an owner.
            ObligationKind::Element | ObligationKind::OwningElements(_) => Discharges {
                owning_param: true,
                owning_field: true,
                returns: true,
                hands_out: true,
                elements: true,
                ..none
            },
            // Calling it, or (as inference's [Calls] rule) handing it to an owner.
            // A closure that disposes a captured variable (a parameter; fields
            // are not captured) is its disposal, as for the parameter's own
            // obligation, so inference's every-path test of `[Owning]` agrees
            // with the checker.
            ObligationKind::Target => Discharges {
                calls: true,
                owning_param: true,
                closure: true,
                ..none
            },
            _ => leak,
        }
    }

    /// Whether the obligation is a collection's elements' (a store site's or
    /// an `[Owning]` collection parameter's).
    pub fn is_elements(&self) -> bool {
        matches!(
            self,
            ObligationKind::Element | ObligationKind::OwningElements(_)
        )
    }

    /// Kinds whose exceptional paths are reported (RLC0002).
    pub fn is_leak(&self) -> bool {
        matches!(
            self,
            ObligationKind::Alloc
                | ObligationKind::OutArg
                | ObligationKind::OwningParam(_)
                | ObligationKind::OwningElements(_)
                | ObligationKind::Opaque
                | ObligationKind::CreatesMustCallFor { .. }
        )
    }
}

impl Engine<'_, '_> {
    pub(super) fn initial_obligations(&mut self) {
        let cx = self.cx;
        let body = cx.body;
        self.parameter_obligations();
        self.field_obligations();
        for (i, node) in body.nodes.iter().enumerate() {
            let n = NodeId(i as u32);
            if !cx.reachable[i] {
                continue;
            }
            match &node.stmt {
                Stmt::Call(call) => self.obligations_from_call(n, call),
                Stmt::Opaque { dst, owning: true } => {
                    if let Some(ob) = cx.var_obligation(*dst) {
                        let ty = body.var(*dst).ty.ty;
                        let o = self.new_obligation(
                            ObligationKind::Opaque,
                            n,
                            Some(*dst),
                            ob.clone(),
                            ty,
                        );
                        self.flow_normal(n, self.born(n, vec![Alias::Var(*dst)], o));
                    }
                }
                _ => {}
            }
        }
    }

    /// `[Owning]` parameters are obligations of the body; `[MustCallAlias]`
    /// parameters written in the source are too, to verify them (§4.3).
    fn parameter_obligations(&mut self) {
        let cx = self.cx;
        let Some(method) = cx.method else {
            return;
        };
        for (i, p) in method.params.iter().enumerate() {
            let Some(var) = cx.body.param_var(i as u32) else {
                continue;
            };
            let kind = if ownership::param_is_owning(p) {
                ObligationKind::OwningParam(i as u32)
            } else if p
                .must_call_alias
                .as_ref()
                .is_some_and(Provenance::is_verified)
            {
                ObligationKind::MustCallAliasParam(i as u32)
            } else {
                continue;
            };
            let ob = cx.var_obligation(var).or_else(|| cx.types.of_value(&p.ty));
            if ob.is_none()
                && kind == ObligationKind::OwningParam(i as u32)
                && let Some(ob) = elements_obligation(cx, i as u32)
            {
                self.owning_elements(i as u32, ob.clone());
                continue;
            }
            if let Some(ob) = ob {
                let ty = cx.body.var(var).ty.ty.or(p.ty.ty);
                let o = self.new_obligation(kind, cx.body.entry, Some(var), ob.clone(), ty);
                self.insert(
                    cx.body.entry,
                    self.born(cx.body.entry, vec![Alias::Var(var)], o),
                );
            }
        }
    }

    /// The obligation of the elements of `[Owning]` collection parameter `i`,
    /// seeded at the entry.
    pub(super) fn owning_elements(&mut self, i: u32, ob: MustCallType) {
        let cx = self.cx;
        let Some(var) = cx.body.param_var(i) else {
            return;
        };
        let ty = param_elements(cx, i);
        let kind = ObligationKind::OwningElements(i);
        let o = self.new_obligation(kind, cx.body.entry, Some(var), ob, ty);
        self.insert(
            cx.body.entry,
            self.born(cx.body.entry, vec![Alias::Var(var)], o),
        );
    }

    /// The old value of each non-readonly owning field this method assigns
    /// (paper §5.1: it must be disposed before the field is overwritten).
    /// Constructors are exempt: the field holds nothing yet; so is a lifecycle
    /// start for the fields construction leaves empty. A lambda or local
    /// function (even one a constructor makes) runs later, when it may.
    fn field_obligations(&mut self) {
        let cx = self.cx;
        let Some(this) = cx.this else {
            return;
        };
        let nested = matches!(cx.body.kind, BodyKind::Lambda | BodyKind::LocalFunction);
        match cx.method {
            Some(m) if m.in_construction() || m.is_static => return,
            None if !nested => return,
            _ => {}
        }
        let mut seeded: Vec<FieldKey> = Vec::new();
        for node in &cx.body.nodes {
            let Stmt::Store {
                base: Some(b),
                field: FieldRef::Known(f),
                ..
            } = &node.stmt
            else {
                continue;
            };
            let key = FieldKey::Known(*f);
            if *b != this || seeded.contains(&key) {
                continue;
            }
            let Some(def) = cx.program.get_field(*f) else {
                continue;
            };
            let empty_at_start =
                cx.method.is_some_and(|m| m.lifecycle_start) && !def.set_in_construction;
            if !def.is_owning() || def.is_readonly || empty_at_start {
                continue;
            }
            if let Some(ob) = cx.types.of_value(&def.ty) {
                seeded.push(key);
                let o = self.new_obligation(
                    ObligationKind::FieldValue(key),
                    cx.body.entry,
                    None,
                    ob.clone(),
                    def.ty.ty,
                );
                self.insert(
                    cx.body.entry,
                    self.born(cx.body.entry, vec![Alias::Path(this, key)], o),
                );
            }
        }
    }

    /// FactsFromCall: the owning result, owning `out` arguments, and fresh
    /// obligations of `[CreatesMustCallFor]` targets.
    fn obligations_from_call(&mut self, n: NodeId, call: &Call) {
        let cx = self.cx;
        let program = cx.program;
        let method = match &call.callee {
            Callee::Method(m) => program.get_method(*m),
            _ => None,
        };
        let ctor_chain = matches!(
            call.kind,
            CallKind::BaseConstructor | CallKind::ThisConstructor
        );
        if !ctor_chain && ownership::call_result_owning(program, call) {
            // A `[MustCallAlias]` result shares the argument's obligation: it joins
            // the argument's alias set instead of starting one (§4.1). A wrapper of
            // a value this method does not own is the owner's business (Tracker:
            // wrappers of independently released resources are not actionable).
            let wraps = !wrapped_by(program, call).is_empty()
                || method.is_some_and(|m| m.params.iter().any(|p| p.must_call_alias.is_some()));
            let aliased =
                wraps && condition_at(program, call, |v| cx.bool_before(n, v)) == Condition::Holds;
            if !aliased && let Some(ob) = cx.types.of_call_result(program, call) {
                let ty = match call.kind {
                    CallKind::New => call.new_type.or(call.ty.ty),
                    _ => call.ty.ty.or_else(|| method.and_then(|m| m.ret.ty)),
                };
                let o =
                    self.new_obligation(ObligationKind::Alloc, n, call.dst, ob.into_owned(), ty);
                match call.dst {
                    Some(d) => self.flow_normal(n, self.born(n, vec![Alias::Var(d)], o)),
                    None => self.event_at(o, n, Loss::Discarded, None, None, None),
                }
            }
        }
        for arg in &call.args {
            let Operand::Var(v) = &arg.value else {
                continue;
            };
            if !self.summaries.only_written(call, arg) {
                continue;
            }
            let param = ownership::callee_param(program, call, arg.param);
            if !ownership::out_param_owning(param) {
                continue;
            }
            let ob = cx
                .var_obligation(*v)
                .or_else(|| param.and_then(|p| cx.types.of_value(&p.ty)));
            if let Some(ob) = ob {
                let ty = cx.body.var(*v).ty.ty;
                let o = self.new_obligation(ObligationKind::OutArg, n, Some(*v), ob.clone(), ty);
                self.flow_normal(n, self.born(n, vec![Alias::Var(*v)], o));
            }
        }
        let Some(method) = method else {
            return;
        };
        for (target, _) in &method.creates_must_call_for {
            let Some(var) = cmcf_target(call, target) else {
                continue;
            };
            // `var client = this; client.Reconnect();` re-arms `this`.
            let is_this = cx.this == Some(cx.defs.copied_from(cx.body, var));
            // A closure cannot carry `[CreatesMustCallFor]`; the object it
            // captured stays its owner's to dispose.
            let closure = matches!(cx.body.kind, BodyKind::Lambda | BodyKind::LocalFunction);
            if closure && is_this {
                continue;
            }
            // §5: inside a method that creates the same obligation for its own
            // caller, the new obligation is the caller's; so is one a
            // constructor creates for the object it returns.
            let own = cx.method.is_some_and(|m| {
                ((m.in_construction() || m.lifecycle_start) && is_this)
                    || m.creates_must_call_for.iter().any(|(t, _)| match t {
                        Target::This => is_this,
                        Target::Param(i) => cx.body.param_var(*i) == Some(var),
                        Target::Field(_) => false,
                    })
            });
            // Re-arming an object this method only borrows (a parameter it does
            // not own, a field, a getter's result) is its owner's business: the
            // owner disposes it at the end of its life, after any re-arming.
            if own || !may_own(cx, var) {
                continue;
            }
            let ob = cx
                .var_obligation(var)
                .or_else(|| cx.types.of_type(method.owner));
            if let Some(ob) = ob {
                let on_this = is_this;
                let ty = cx.body.var(var).ty.ty.or(Some(method.owner));
                let o = self.new_obligation(
                    ObligationKind::CreatesMustCallFor { on_this },
                    n,
                    Some(var),
                    ob.clone(),
                    ty,
                );
                self.flow_normal(n, self.born(n, vec![Alias::Var(var)], o));
            }
        }
    }
}

/// The element type of parameter `i` of the body's method, when the
/// parameter is passed by value and is a collection. (A `params` array's
/// elements are handed over one by one, each an argument of the call.)
fn param_elements(cx: &crate::facts::BodyFacts<'_>, i: u32) -> Option<crate::program::TypeId> {
    let p = cx.method?.params.get(i as usize)?;
    match p.mode {
        ParamMode::Value | ParamMode::In | ParamMode::Params => {
            p.ty.element
                .or_else(|| cx.body.param_var(i).and_then(|v| cx.body.var(v).ty.element))
        }
        _ => None,
    }
}

/// The obligation of the elements of parameter `i`, when the parameter itself
/// has none (`IEnumerable<Processor>`, `Stream[]`).
pub fn elements_obligation<'a>(
    cx: &crate::facts::BodyFacts<'a>,
    i: u32,
) -> Option<&'a MustCallType> {
    let p = cx.method?.params.get(i as usize)?;
    if cx.types.of_value(&p.ty).is_some() {
        return None;
    }
    cx.types.of_type(param_elements(cx, i)?)
}

/// Whether `var` may hold a value this method owns: anything but a parameter
/// it does not own, a captured variable, or a borrowed value (a field, an
/// element, a not-owning result), followed through single-definition copies.
pub(super) fn may_own(cx: &crate::facts::BodyFacts<'_>, var: VarId) -> bool {
    let mut v = var;
    for _ in 0..16 {
        match cx.body.vars.get(v.index()).map(|x| &x.kind) {
            // A lambda's parameters are its caller's (no attribute can say
            // otherwise); a method's unless `[Owning]`.
            Some(VarKind::Param(i)) => {
                return match cx.method {
                    Some(m) => m
                        .params
                        .get(*i as usize)
                        .is_none_or(ownership::param_is_owning),
                    None => false,
                };
            }
            Some(VarKind::Captured) => return false,
            Some(VarKind::This) | None => return true,
            Some(VarKind::Local | VarKind::Temp) => {}
        }
        match cx.single_def(v) {
            Some(Stmt::Copy {
                src: Operand::Var(s),
                ..
            }) => v = *s,
            Some(Stmt::Load { .. } | Stmt::Element { .. } | Stmt::Opaque { owning: false, .. }) => {
                return false;
            }
            Some(Stmt::Call(call)) if call.dst == Some(v) => {
                return ownership::call_result_owning(cx.program, call);
            }
            // `TryGetConnection(out var c)`: what a `[NotOwning]` out lends.
            Some(Stmt::Call(call)) => {
                return call
                    .args
                    .iter()
                    .find(|a| a.value == Operand::Var(v))
                    .is_none_or(|a| {
                        ownership::out_param_owning(ownership::callee_param(
                            cx.program, call, a.param,
                        ))
                    });
            }
            _ => return true,
        }
    }
    true
}

/// The caller's variable a `[CreatesMustCallFor]` target names.
pub(super) fn cmcf_target(call: &Call, target: &Target) -> Option<VarId> {
    match target {
        Target::This => call.receiver,
        Target::Param(i) => call.arg_var(*i),
        Target::Field(_) => None,
    }
}
