//! Owning collections and element-wise disposal.
//!
//! Storing a value into a collection (`StoreElement`, or an argument bound to a
//! `[CollectionElement]` parameter of a call on the collection) moves the
//! value's obligation to the collection's elements:
//! - a disposable container (the collection's type has an obligation itself,
//!   like `CompositeDisposable`) or an owning collection (a field that the
//!   class's disposal methods dispose element-wise, an `[Owning]` field or
//!   parameter) takes it over: discharged;
//! - a collection created in this method gets an *element obligation*, a fact
//!   ⟨{collection}, store site⟩ that an element-wise disposal discharges: a
//!   loop whose body reads an element (`Element { dst, collection }`) and
//!   disposes `dst` on every path before the next element, or a call named
//!   `ForEach` on the collection with a lambda that disposes its parameter.
//!   Returning the collection, storing it in an owning field or passing it to
//!   an `[Owning]` parameter hands the elements on too. A collection lost with
//!   the obligation is reported at the store site (RLC0005);
//! - any other collection (a non-owning field or parameter) is reported right
//!   away at the store site (RLC0005).
//!
//! The lowering shows `foreach (var x in c)` as a loop whose body starts with
//! `Element { dst: x, collection: c }` (`c` the collection, not its enumerator).

use rustc_hash::{FxHashMap, FxHashSet};

use crate::cfg;
use crate::checker::Checker;
use crate::consistency::{Verdict, verify};
use crate::context::BodyCx;
use crate::ir::{Call, Callee, FieldRef, NodeId, Operand, Stmt, VarId, VarKind};
use crate::program::{FieldId, MustCall};
use crate::resource_alias::Alias;

/// The disposal methods assumed for a value whose type is not known.
const DISPOSAL: [&str; 3] = ["Close", "Dispose", "DisposeAsync"];

/// Who holds the collection a value is stored into.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Root {
    /// An owning collection: a field disposed element-wise, an `[Owning]` field
    /// or parameter.
    Owned,
    /// Created in this method (or assigned more than once here).
    Local,
    /// A variable of an enclosing method (inside a lambda): not followed.
    Escaped,
    /// A collection someone else holds without disposing its elements.
    Unowned,
}

/// Follows single-definition copies back to where the collection comes from.
pub fn root(cx: &BodyCx<'_>, collection: VarId) -> Root {
    let mut v = collection;
    for _ in 0..16 {
        let Some(var) = cx.body.vars.get(v.index()) else {
            return Root::Unowned;
        };
        match var.kind {
            VarKind::Param(i) => {
                let owning = cx
                    .method
                    .and_then(|m| m.params.get(i as usize))
                    .is_some_and(|p| p.ownership.is_owning(false));
                return if owning { Root::Owned } else { Root::Unowned };
            }
            VarKind::Captured => return Root::Escaped,
            VarKind::This => return Root::Unowned,
            VarKind::Local | VarKind::Temp => {}
        }
        match cx.single_def(v) {
            Some(Stmt::Copy {
                src: Operand::Var(s),
                ..
            }) => v = *s,
            Some(Stmt::Load {
                base: Some(_),
                field: FieldRef::Known(f),
                ..
            }) => {
                let owned = cx.program.get_field(*f).is_some_and(|d| d.is_owning())
                    || cx.checker.owning_collections.contains(f);
                return if owned { Root::Owned } else { Root::Unowned };
            }
            Some(Stmt::Load { .. } | Stmt::Element { .. } | Stmt::Opaque { .. }) => {
                return Root::Unowned;
            }
            // A collection a property exposes belongs to the object.
            Some(Stmt::Call(call)) if !crate::ownership::call_result_owning(cx.program, call) => {
                return Root::Unowned;
            }
            _ => return Root::Local,
        }
    }
    Root::Local
}

/// The field of `this` a variable was loaded from (through copies).
fn field_of_this(cx: &BodyCx<'_>, var: VarId) -> Option<FieldId> {
    let mut v = var;
    for _ in 0..16 {
        match cx.single_def(v)? {
            Stmt::Copy {
                src: Operand::Var(s),
                ..
            } => v = *s,
            Stmt::Load {
                base: Some(b),
                field: FieldRef::Known(f),
                ..
            } if Some(*b) == cx.this => return Some(*f),
            _ => return None,
        }
    }
    None
}

/// The disposal methods to look for on a value of this variable's type.
fn disposal_of(cx: &BodyCx<'_>, var: VarId) -> MustCall {
    cx.var_obligation(var)
        .map_or_else(|| MustCall::of(DISPOSAL), |o| o.must_call.clone())
}

/// Whether `call` is `c.ForEach(x => x.Dispose())` (or `ForEach(c, ..)`) over a
/// collection `in_fact` accepts, with a lambda disposing its parameter.
pub fn disposes_elements(cx: &BodyCx<'_>, call: &Call, in_fact: impl Fn(VarId) -> bool) -> bool {
    foreach_collection(cx, call).is_some_and(in_fact)
}

/// The collection a disposing `ForEach` call disposes element-wise.
fn foreach_collection(cx: &BodyCx<'_>, call: &Call) -> Option<VarId> {
    let name = match &call.callee {
        Callee::Method(m) => cx.program.get_method(*m)?.name.as_str(),
        Callee::Unresolved(n) => n.rsplit('.').next().unwrap_or(n),
        Callee::Delegate(_) => return None,
    };
    if name != "ForEach" {
        return None;
    }
    let vars: Vec<VarId> = call
        .receiver
        .into_iter()
        .chain(call.args.iter().filter_map(|a| a.value.var()))
        .collect();
    let lambda = vars.iter().find_map(|v| match cx.single_def(*v) {
        Some(Stmt::Closure { body, .. }) => Some((*v, *body)),
        _ => None,
    })?;
    let collection = vars.iter().copied().find(|v| *v != lambda.0)?;
    let inner = cx.checker.bodies.get(lambda.1 as usize)?;
    let param = inner.param_var(0)?;
    let inner_cx = BodyCx::new(cx.checker, lambda.1 as usize, &[])?;
    let must_call = disposal_of(&inner_cx, param);
    let disposes =
        verify(&inner_cx, &[(inner.entry, Alias::Var(param))], &must_call) == Verdict::Guaranteed;
    disposes.then_some(collection)
}

/// Loop headers of the body, each with the collections its loop disposes
/// element-wise.
pub fn element_disposal_loops(cx: &BodyCx<'_>) -> FxHashMap<NodeId, Vec<VarId>> {
    let mut out: FxHashMap<NodeId, Vec<VarId>> = FxHashMap::default();
    let has_elements = cx
        .body
        .nodes
        .iter()
        .any(|n| matches!(n.stmt, Stmt::Element { .. }));
    if !has_elements {
        return out;
    }
    for lp in cfg::natural_loops(cx.body) {
        for &m in &lp.nodes {
            let Stmt::Element { dst, collection } = &cx.body.node(m).stmt else {
                continue;
            };
            let seeds: Vec<(NodeId, Alias)> = cx
                .body
                .node(m)
                .succ
                .targets()
                .map(|t| (t, Alias::Var(*dst)))
                .collect();
            if verify(cx, &seeds, &disposal_of(cx, *dst)) == Verdict::Guaranteed {
                out.entry(lp.header).or_default().push(*collection);
            }
        }
    }
    out
}

/// Whether the lambda or local function at body index `closure` disposes the
/// enclosing method's `var` on every normal path.
pub fn closure_disposes_captured(
    cx: &BodyCx<'_>,
    closure: u32,
    var: VarId,
    must_call: &MustCall,
) -> bool {
    let Some(outer) = cx.body.vars.get(var.index()) else {
        return false;
    };
    let Some(inner) = cx.checker.bodies.get(closure as usize) else {
        return false;
    };
    let Some(captured) = inner
        .vars
        .iter()
        .position(|v| v.kind == VarKind::Captured && v.name == outer.name)
    else {
        return false;
    };
    let Some(inner_cx) = BodyCx::new(cx.checker, closure as usize, &[]) else {
        return false;
    };
    let seed = [(inner.entry, Alias::Var(VarId(captured as u32)))];
    verify(&inner_cx, &seed, must_call) == Verdict::Guaranteed
}

/// Fields whose elements the class disposes: collections that a must-call
/// method of the class (or a method of the class it calls on `this`, like
/// `Dispose(bool)` or `DisposeAsyncCore()`) disposes element-wise.
pub fn owning_collection_fields(checker: &Checker<'_>) -> FxHashSet<FieldId> {
    let program = checker.program;
    let mut out = FxHashSet::default();
    let mut work: Vec<usize> = Vec::new();
    let mut seen: FxHashSet<usize> = FxHashSet::default();
    for (i, body) in checker.bodies.iter().enumerate() {
        let Some(m) = body.method.and_then(|m| program.get_method(m)) else {
            continue;
        };
        let disposal = checker
            .types
            .of_type(m.owner)
            .is_some_and(|o| o.must_call.is_satisfied_by(&m.name));
        if disposal && seen.insert(i) {
            work.push(i);
        }
    }
    while let Some(i) = work.pop() {
        let Some(cx) = BodyCx::new(checker, i, &[]) else {
            continue;
        };
        let has_collections = cx
            .body
            .nodes
            .iter()
            .any(|n| matches!(&n.stmt, Stmt::Element { .. } | Stmt::Call(_)));
        if !has_collections {
            continue;
        }
        for lp in cfg::natural_loops(cx.body) {
            for c in cx.element_loop_collections(lp.header) {
                out.extend(field_of_this(&cx, *c));
            }
        }
        for node in &cx.body.nodes {
            let Stmt::Call(call) = &node.stmt else {
                continue;
            };
            if let Some(c) = foreach_collection(&cx, call) {
                out.extend(field_of_this(&cx, c));
            }
            // Helpers the disposal method calls on `this`.
            if let (Callee::Method(m), Some(r)) = (&call.callee, call.receiver)
                && Some(r) == cx.this
                && let Some(&b) = checker.body_of.get(m)
                && seen.insert(b)
            {
                work.push(b);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests;
