//! MCSatisfiedAfter, kill and gen of each IR statement for one fact (the
//! paper's transfer function, with §3 ownership transfer, §4 resource aliases
//! and §5 `[CreatesMustCallFor]`), plus the collection rules: storing a value
//! into a collection moves its obligation to the collection's elements.

use super::obligations::{Discharges, ObligationKind, cmcf_target, may_own};
use super::{ConditionNote, Engine, Fact, Loss, Step};
use crate::cfg;
use crate::facts::{BodyFacts, StoredAs, reads_var};
use crate::ir::{Call, CallKind, Callee, FieldRef, Node, NodeId, Operand, Stmt, VarId, VarKind};
use crate::ownership;
use crate::program::ParamMode;
use crate::resource_alias::{Alias, Condition, FieldKey, condition_at};

/// Who holds the collection a value is stored into.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CollectionHolder {
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

/// Whether `v` (not `this`) holds the fact's value as a member: the fact has
/// an access path rooted at it.
fn holds_member(fact: &Fact, v: VarId, this: Option<VarId>) -> bool {
    Some(v) != this && members_of(fact, v, this).next().is_some()
}

/// The members of `v` (not `this`) that hold the fact's value.
fn members_of(fact: &Fact, v: VarId, this: Option<VarId>) -> impl Iterator<Item = FieldKey> + '_ {
    fact.aliases.iter().filter_map(move |a| match *a {
        Alias::Path(b, k) if b == v && Some(v) != this => Some(k),
        _ => None,
    })
}

/// The access-path key of a container's member: its field, or, for a member
/// the program has no field for, the field of that name of the container's
/// type, else the body's key for the name.
fn member_key(cx: &BodyFacts<'_>, container: VarId, stored: &StoredAs) -> FieldKey {
    match stored {
        StoredAs::Field(f) => FieldKey::Known(*f),
        StoredAs::Member(name) => {
            let field = cx.body.var(container).ty.ty.and_then(|t| {
                let ty = cx.program.get_ty(t)?;
                ty.fields
                    .iter()
                    .copied()
                    .find(|f| cx.program.get_field(*f).is_some_and(|d| &d.name == name))
            });
            match field {
                Some(f) => FieldKey::Known(f),
                None => cx.fields.key(&FieldRef::Unknown(name.clone())),
            }
        }
    }
}

impl Engine<'_, '_> {
    /// What statement `n` does to `fact`: whether it discharges the obligation
    /// (MCSatisfiedAfter) on the normal and the exceptional edge, and which
    /// aliases it kills and generates.
    pub(super) fn mc_satisfied_after(&mut self, n: NodeId, node: &Node, fact: &Fact) -> Step {
        let discharges = self.discharges(fact.obligation);
        let mut step = Step {
            normal: Some(fact.clone()),
            exc: Some(fact.clone()),
            kills: Vec::new(),
            path_kill: None,
            gens: Vec::new(),
        };
        // An element-wise disposal loop headed here disposes the collection's elements.
        if discharges.elements
            && self
                .body_summaries
                .element_loop_collections(n)
                .iter()
                .any(|c| fact.has_var(*c))
        {
            self.discharge(fact.obligation);
            step.normal = None;
            step.exc = None;
            return step;
        }
        self.transfer(n, node, fact, discharges, &mut step);
        step
    }

    fn transfer(
        &mut self,
        n: NodeId,
        node: &Node,
        fact: &Fact,
        discharges: Discharges,
        step: &mut Step,
    ) {
        let cx = self.cx;
        let held = |op: &Operand| op.var().is_some_and(|v| fact.has_var(v));
        // The value itself, or a container that keeps it as a member: where
        // the container goes (returned, stored, captured), the value goes.
        let carried =
            |op: &Operand| held(op) || op.var().is_some_and(|v| holds_member(fact, v, cx.this));
        match &node.stmt {
            Stmt::Nop => {}
            Stmt::Copy { dst, src } => {
                if carried(src)
                    && cx.body.var(*dst).kind == VarKind::Captured
                    && discharges.hands_out
                {
                    // Assigned to a variable of the enclosing method: its business.
                    self.escape(fact, step);
                } else if held(src) {
                    step.gens.push(Alias::Var(*dst));
                }
                if let Operand::Var(s) = src {
                    step.gens
                        .extend(members_of(fact, *s, cx.this).map(|k| Alias::Path(*dst, k)));
                }
                step.kills.push(*dst);
            }
            Stmt::Opaque { dst, .. } | Stmt::Element { dst, .. } => step.kills.push(*dst),
            Stmt::Load { dst, base, field } => {
                if let Some(b) = base
                    && fact.has(Alias::Path(*b, cx.fields.key(field)))
                {
                    step.gens.push(Alias::Var(*dst));
                }
                step.kills.push(*dst);
            }
            Stmt::Store { base, field, src } => {
                let path = base.map(|b| Alias::Path(b, cx.fields.key(field)));
                let nested = base.is_some_and(|b| cx.body.var(b).kind == VarKind::Temp);
                if !held(src) && carried(src) && nested {
                    // A container put in a temporary container (`((r, 0), 1)`)
                    // stays the method's, reachable through the outer one.
                    step.gens.extend(path);
                } else if !held(src) && carried(src) && discharges.hands_out {
                    // A container stored away takes its members along.
                    self.escape(fact, step);
                } else if held(src) {
                    self.store(n, *base, field, fact, discharges, step);
                    if let Some(p) = path {
                        step.gens.push(p);
                    }
                }
                step.path_kill = path;
            }
            Stmt::Call(call) => self.transfer_call(n, call, fact, discharges, step),
            Stmt::StoreElement { collection, src } => {
                if carried(src) && discharges.collection_store {
                    self.store_element(n, *collection, fact, step);
                } else if held(src) {
                    self.hand_to_owned_collection(*collection, fact, step);
                }
            }
            Stmt::Closure {
                dst,
                body,
                captures,
            } => {
                if discharges.closure
                    && captures
                        .iter()
                        .any(|q| fact.has_var(*q) && self.closure_disposes(*body, *q))
                {
                    self.discharge_both(fact, step);
                } else if discharges.hands_out
                    && captures.iter().any(|q| holds_member(fact, *q, cx.this))
                {
                    self.escape(fact, step);
                }
                step.kills.extend(*dst);
            }
            Stmt::Return(value) => {
                let alias = value.as_ref().is_some_and(carried);
                if alias && discharges.returns && cx.returns_owning {
                    self.discharge_both(fact, step);
                } else if let Some(f) = &mut step.normal {
                    f.exit_via = Some((n, alias));
                }
            }
            Stmt::Yield(value) => {
                if carried(value) && discharges.hands_out {
                    self.discharge_both(fact, step);
                }
            }
            Stmt::Throw(value) => {
                // A thrown disposable exception object goes to whoever catches it.
                // A broken precondition (`throw new ArgumentNullException(..)`)
                // is the caller's bug: what the caller handed over is not lost
                // to it in any way the caller could act on.
                let caller_bug = matches!(
                    self.obligations[fact.obligation as usize].kind,
                    ObligationKind::OwningParam(_) | ObligationKind::OwningElements(_)
                ) && value.is_some_and(|v| {
                    let program = cx.program;
                    match (cx.body.var(v).ty.ty, program.well_known.argument_exception) {
                        (Some(t), Some(a)) => program.is_subtype(t, a),
                        _ => false,
                    }
                });
                if caller_bug || value.is_some_and(|v| fact.has_var(v)) {
                    self.escape(fact, step);
                }
                step.normal = None;
            }
            Stmt::Escape(vars) => {
                if vars
                    .iter()
                    .any(|v| fact.has_var(*v) || holds_member(fact, *v, cx.this))
                {
                    self.escape(fact, step);
                }
            }
            Stmt::ScopeEnd(vars) => step.kills.extend(vars.iter().copied()),
        }
    }

    /// `base.f = x` with `x` an alias of the fact.
    fn store(
        &mut self,
        n: NodeId,
        base: Option<VarId>,
        field: &FieldRef,
        fact: &Fact,
        discharges: Discharges,
        step: &mut Step,
    ) {
        let cx = self.cx;
        let Some(b) = base else {
            // A static field keeps the value for the program's lifetime (the C#
            // idiom `static readonly HttpClient`): not this method's leak.
            return self.escape(fact, step);
        };
        let FieldRef::Known(f) = field else {
            // A member of `this` nothing describes (`Children = new[] { new
            // Child() }` of an unread package's base) is a setter nothing
            // describes. Other objects' unknown members (a tuple's items, an
            // initializer's) are followed with their object.
            if Some(b) == cx.this && self.made_only_to_pass(fact) {
                self.escape(fact, step);
            }
            return;
        };
        let Some(def) = cx.program.get_field(*f) else {
            return;
        };
        let kind = &self.obligations[fact.obligation as usize].kind;
        if kind.is_elements() {
            if def.is_owning() || self.summaries.owning_collections.contains(f) {
                self.discharge_both(fact, step);
            }
            return;
        }
        if !def.is_owning() || !discharges.owning_field {
            // A member of an object the method does not own (a parameter's, a
            // field's object's, an element's): the value now lives with that
            // object, as with a static field; its class answers for it (RLC0003
            // when it owns the member). CA2000 and IDisposableAnalyzers agree.
            if kind.is_leak() && Some(b) != cx.this && !may_own(cx, b) {
                self.escape(fact, step);
            }
            return;
        }
        self.discharge(fact.obligation);
        step.exc = None;
        // The field now owns it; on `this` it is still tracked, so that a second
        // assignment before disposal is caught (RLC0004).
        if Some(b) == cx.this && step.normal.is_some() {
            let o = self.site_obligation(n, ObligationKind::FieldValue(FieldKey::Known(*f)), fact);
            if let Some(nf) = &mut step.normal {
                nf.obligation = o;
                nf.exc_from = None;
                nf.exit_via = None;
            }
        } else {
            step.normal = None;
        }
    }

    /// `collection.Add(x)` / `collection[i] = x` with `x` an alias of the fact.
    fn store_element(&mut self, n: NodeId, collection: VarId, fact: &Fact, step: &mut Step) {
        let cx = self.cx;
        if step.normal.is_none() {
            return;
        }
        // A disposable container (`CompositeDisposable`) disposes what it holds.
        if cx.var_obligation(collection).is_some() {
            self.discharge(fact.obligation);
            step.normal = None;
            return;
        }
        match self.collection_holder(collection) {
            CollectionHolder::Owned | CollectionHolder::Escaped => {
                self.discharge(fact.obligation);
                step.normal = None;
            }
            CollectionHolder::Local => {
                let o = self.site_obligation(n, ObligationKind::Element, fact);
                self.discharge(fact.obligation);
                // A gen, so that it outlives the kill of a constructor's result
                // (`new List<T>(items)`).
                step.gens.clear();
                step.gens.push(Alias::Var(collection));
                step.normal = Some(Fact {
                    aliases: Vec::new(),
                    obligation: o,
                    exc_from: fact.exc_from,
                    exit_via: None,
                    wrapper: None,
                    dropped: None,
                    known: fact.known.clone(),
                });
            }
            CollectionHolder::Unowned => {
                let o = self.site_obligation(n, ObligationKind::Element, fact);
                self.discharge(fact.obligation);
                step.normal = None;
                self.event_at(
                    o,
                    n,
                    Loss::UnownedCollection,
                    Some(Alias::Var(collection)),
                    None,
                    None,
                );
            }
        }
    }

    /// A guarantee being verified counts a store into an owned collection (a
    /// field whose elements its class disposes) as a hand-off to an owner, as
    /// passing the value to an `[Owning]` parameter: so a loop that adds each
    /// element of a collection to one (`foreach (var p in ps) _items.Add(p);`)
    /// takes the collection's elements over.
    fn hand_to_owned_collection(&mut self, collection: VarId, fact: &Fact, step: &mut Step) {
        let kind = &self.obligations[fact.obligation as usize].kind;
        if *kind == ObligationKind::Target
            && self.collection_holder(collection) == CollectionHolder::Owned
        {
            self.discharge_both(fact, step);
        }
    }

    /// Follows single-definition copies back to where the collection comes from.
    fn collection_holder(&self, collection: VarId) -> CollectionHolder {
        let cx = self.cx;
        let mut v = collection;
        for _ in 0..16 {
            let Some(var) = cx.body.vars.get(v.index()) else {
                return CollectionHolder::Unowned;
            };
            match var.kind {
                VarKind::Param(i) => {
                    let owning = cx
                        .method
                        .and_then(|m| m.params.get(i as usize))
                        .is_some_and(|p| p.ownership.is_owning(false));
                    return if owning {
                        CollectionHolder::Owned
                    } else {
                        CollectionHolder::Unowned
                    };
                }
                VarKind::Captured => return CollectionHolder::Escaped,
                VarKind::This => return CollectionHolder::Unowned,
                VarKind::Local | VarKind::Temp => {}
            }
            match cx.single_def(v) {
                Some(Stmt::Copy {
                    src: Operand::Var(s),
                    ..
                }) => v = *s,
                Some(Stmt::Load {
                    field: FieldRef::Known(f),
                    ..
                }) => {
                    let owned = cx.program.get_field(*f).is_some_and(|d| d.is_owning())
                        || self.summaries.owning_collections.contains(f);
                    return if owned {
                        CollectionHolder::Owned
                    } else {
                        CollectionHolder::Unowned
                    };
                }
                Some(Stmt::Load { .. } | Stmt::Element { .. } | Stmt::Opaque { .. }) => {
                    return CollectionHolder::Unowned;
                }
                // A collection a property exposes belongs to the object.
                Some(Stmt::Call(call)) if !ownership::call_result_owning(cx.program, call) => {
                    return CollectionHolder::Unowned;
                }
                _ => return CollectionHolder::Local,
            }
        }
        CollectionHolder::Local
    }

    fn transfer_call(
        &mut self,
        n: NodeId,
        call: &Call,
        fact: &Fact,
        discharges: Discharges,
        step: &mut Step,
    ) {
        let cx = self.cx;
        let program = cx.program;
        let must_call = &self.obligations[fact.obligation as usize]
            .must_call
            .must_call;
        let method = match &call.callee {
            Callee::Method(m) => program.get_method(*m),
            _ => None,
        };
        if discharges.calls {
            let mut called = None;
            for cm in cx.called(n) {
                // MCAfter(p, s) is p's own must-call type: closing a wrapper with
                // its own method disposes what it wraps.
                let own = match cm.target {
                    Alias::Var(v) => cx
                        .var_obligation(v)
                        .is_some_and(|o| cm.called.discharges(&o.must_call)),
                    Alias::Path(..) => false,
                };
                if fact.has(cm.target) && (own || cm.called.discharges(must_call)) {
                    called = Some(called.unwrap_or(false) || cm.even_if_throws);
                }
            }
            if let Some(even_if_throws) = called {
                self.discharge(fact.obligation);
                step.normal = None;
                if even_if_throws {
                    step.exc = None;
                }
            }
            // §5: a [CreatesMustCallFor] call resets its target; the fresh
            // obligation comes from obligations_from_call.
            if let Some(m) = method
                && m.creates_must_call_for
                    .iter()
                    .any(|(t, _)| cmcf_target(call, t).is_some_and(|v| fact.has_var(v)))
            {
                self.discharge(fact.obligation);
                step.normal = None;
            }
        }
        let mut condition: Option<Condition> = None;
        for arg in &call.args {
            let Operand::Var(q) = arg.value else {
                continue;
            };
            if !fact.has_var(q) {
                // A container of the value handed over, or passed by `ref`, or
                // put in a collection (`sessions.TryAdd(key, (lease, timer))`).
                if holds_member(fact, q, cx.this) {
                    let param = ownership::callee_param(program, call, arg.param);
                    let takes = param.is_some_and(ownership::param_takes_ownership);
                    if arg.mode == ParamMode::Ref
                        || (takes && discharges.owning_param)
                        || self.handed_blind(n, q, call, fact)
                    {
                        self.escape(fact, step);
                    } else if param.is_some_and(|p| p.collection_element)
                        && discharges.collection_store
                        && let Some(c) = call.element_receiver()
                    {
                        self.store_element(n, c, fact, step);
                    }
                }
                continue;
            }
            // A container keeps the argument as a member of the result.
            if let (Callee::Method(m), Some(p), Some(d)) = (&call.callee, arg.param, call.dst)
                && let Some(stored) = self.summaries.stored_args.get(&(*m, p))
            {
                step.gens.push(Alias::Path(d, member_key(cx, d, stored)));
            }
            // The callee only writes the variable: the value it held is not passed.
            if self.summaries.only_written(call, arg) {
                continue;
            }
            // The callee keeps it where the program holds it for its lifetime,
            // as a static field does.
            if ownership::callee_param(program, call, arg.param).is_some_and(|p| p.kept_statically)
            {
                self.escape(fact, step);
                continue;
            }
            // The callee may keep or replace it: give up on it silently.
            if arg.mode == ParamMode::Ref || self.handed_blind(n, q, call, fact) {
                self.escape(fact, step);
                continue;
            }
            let Some(param) = ownership::callee_param(program, call, arg.param) else {
                continue;
            };
            let takes = ownership::param_takes_ownership(param) && discharges.owning_param;
            let wraps = param.must_call_alias.is_some();
            if !takes && !wraps && !param.collection_element {
                continue;
            }
            let cond = condition
                .get_or_insert_with(|| condition_at(program, call, |v| cx.bool_before(n, v)))
                .clone();
            if let Condition::Unknown(name) = &cond
                && (takes || wraps)
            {
                self.notes.push(ConditionNote {
                    obligation: fact.obligation,
                    at: n,
                    param: name.clone(),
                });
            }
            if takes && cond == Condition::Holds {
                self.discharge_both(fact, step);
            }
            if wraps && cond == Condition::Holds {
                if matches!(
                    call.kind,
                    CallKind::BaseConstructor | CallKind::ThisConstructor
                ) {
                    if discharges.mca_ctor {
                        self.discharge_both(fact, step);
                    }
                } else if let Some(d) = call.dst {
                    step.gens.push(Alias::Var(d));
                    if call.kind == CallKind::New
                        && let Some(f) = &mut step.normal
                    {
                        f.wrapper = Some(n);
                    }
                }
            }
            if param.collection_element
                && let Some(c) = call.element_receiver()
            {
                // A collection whose elements are the fact's goes into the
                // receiver element by element (`new List<T>(items)`, `AddRange`).
                let elements_in = param.ty.ty.is_some()
                    && param.ty.ty != program.well_known.object
                    && cx.body.var(q).ty.element.is_some()
                    && self.obligations[fact.obligation as usize]
                        .kind
                        .is_elements();
                if discharges.collection_store || elements_in {
                    self.store_element(n, c, fact, step);
                } else {
                    self.hand_to_owned_collection(c, fact, step);
                }
            }
        }
        if let (Some(m), Some(r), Some(d)) = (method, call.receiver, call.dst)
            && m.this_must_call_alias.is_some()
            && fact.has_var(r)
        {
            step.gens.push(Alias::Var(d));
        }
        if discharges.elements
            && step.normal.is_some()
            && self
                .body_summaries
                .foreach_disposals
                .get(&n)
                .is_some_and(|c| fact.has_var(*c))
        {
            self.discharge(fact.obligation);
            step.normal = None;
        }
        step.kills.extend(call.dst);
        step.kills.extend(
            call.args
                .iter()
                .filter(|a| a.mode.is_written())
                .filter_map(|a| a.value.var()),
        );
    }

    fn discharge_both(&mut self, fact: &Fact, step: &mut Step) {
        self.discharge(fact.obligation);
        step.normal = None;
        step.exc = None;
    }

    /// Whether the fact's value was made only to be passed on: every alias a
    /// temporary or a member of one (`parent.Add(new Child())`, `Add(new
    /// Box { Child = new Child() })`), none a field, local or parameter. Handed
    /// to a callee nothing describes (an unread package's method or setter),
    /// only the callee could dispose it, as its maker keeps no name to dispose
    /// it by; what the callee does cannot be seen, so a leak claimed there
    /// could not be shown.
    fn made_only_to_pass(&self, fact: &Fact) -> bool {
        fact.aliases
            .iter()
            .all(|a| self.cx.body.var(a.root()).kind == VarKind::Temp)
    }

    /// Whether `call`, at `n`, is to a callee nothing describes and the fact's
    /// value was made only to be passed to it as `passed`: a temporary, whose
    /// other names (the local a wrapped handle was kept in: `Wrap(new
    /// FileStream(handle))`) the method does not read again.
    fn handed_blind(&self, n: NodeId, passed: VarId, call: &Call, fact: &Fact) -> bool {
        let body = self.cx.body;
        let temp = |v: VarId| body.var(v).kind == VarKind::Temp;
        let read_after = |v: VarId| {
            body.nodes.iter().enumerate().any(|(i, m)| {
                reads_var(&m.stmt, v) && cfg::reaches(body, n, NodeId(i as u32), |_| false)
            })
        };
        // A field names the value beyond this method: it stays its maker's.
        let unnamed_after = |a: &Alias| match *a {
            Alias::Var(v) => temp(v) || !read_after(v),
            Alias::Path(v, _) => temp(v),
        };
        matches!(call.callee, Callee::Unresolved(_))
            && (self.made_only_to_pass(fact)
                || temp(passed) && fact.aliases.iter().all(unnamed_after))
    }

    /// The value escapes where the analysis cannot follow: given up silently.
    fn escape(&mut self, fact: &Fact, step: &mut Step) {
        self.discharge_both(fact, step);
    }

    /// A call of a must-call method (`Dispose`, `Close`, ...), or of a
    /// disposal method on a value that owes none (a `MemoryStream`): taken not
    /// to throw, as .NET's guidelines require of `Dispose`; otherwise every
    /// `finally` that disposes two resources would be reported under the `all`
    /// model.
    pub(super) fn is_disposal_call(&self, node: &Node) -> bool {
        let Stmt::Call(call) = &node.stmt else {
            return false;
        };
        let Some(name) = call.callee_name(self.cx.program) else {
            return false;
        };
        call.receiver
            .is_some_and(|r| match self.cx.var_obligation(r) {
                Some(o) => o.is_satisfied_by(name),
                None => self.cx.program.conventions.is_disposal_method(name),
            })
    }
}
