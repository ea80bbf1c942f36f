//! The inference rules of both phases, applied to a fixed point.
//!
//! Phase 1 (owned resources and disposal methods): `[Owning]` on parameters a
//! method disposes or hands to an `[Owning]` parameter; `[Calls("this.f", m)]`
//! on methods that dispose a field and do not reassign it afterwards; `[Owning]`
//! on fields some method disposes; `[MustCall(d)]` on a class whose method `d`
//! disposes all its owning fields. Phase 2: `[MustCallAlias]` on constructors
//! that always store a parameter into the single owning field or pass it on to
//! a `[MustCallAlias]` constructor, and on methods that always return a wrapper
//! of a parameter; `[Owning]` on constructor parameters stored into owning
//! fields otherwise; `[return: NotOwning]` on methods returning an owning field.
//! Both phases repeat until nothing changes, since each phase's results feed the
//! other (new `[MustCallAlias]` pairs add resource aliases, new obligations
//! make more parameters and fields relevant). After both phases,
//! `[CreatesMustCallFor("this")]` (beyond the paper, see
//! [`super::creates_must_call_for`]) on methods that reassign owning fields or
//! call such methods on `this`.

use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};

use super::evidence::{Evidence, evidence};
use super::{
    Inference, InferredAttr, InferredSpec, Scope, SpecTarget, borrowed_return,
    creates_must_call_for, no_obligation,
};
use crate::consistency::{
    Inputs, ObligationKind, Verdict, discharged_on_some_path, guarantees, takes_elements, verify,
};
use crate::facts::{Definitions, ProgramFacts, ValueSource, defined_vars};
use crate::ir::{
    Bodies, Body, BodyId, BodyKind, CallKind, Callee, NodeId, Operand, Stmt, VarId, VarKind,
};
use crate::must_call::MustCallTypes;
use crate::options::ExceptionModel;
use crate::ownership::call_result_owning;
use crate::program::{
    CallsSpec, DeclaredIn, FieldId, InferRule, MethodDef, MethodId, MethodKind, MustCall,
    Ownership, ParamMode, Program, Provenance, Target, TypeId, TypeKind,
};
use crate::resource_alias::{Alias, FieldKey};
use crate::span::Span;

/// The most rounds inference runs; every round adds facts, and there are
/// finitely many, so this only guards against a bug.
const MAX_ROUNDS: u32 = 64;

pub(super) fn run(program: Program, bodies: &Bodies, scope: &Scope) -> Inference {
    let mut st = State {
        p: program,
        scope,
        specs: Vec::new(),
        body_of: FxHashMap::default(),
        withdrawn: FxHashSet::default(),
        type_tested: FxHashSet::default(),
        tracking: FxHashSet::default(),
        owning_collections: None,
    };
    st.type_tested = disposed_through_type_test(&st.p, bodies);
    st.tracking = borrowed_return::tracking_fields(&st.p, bodies);
    for (id, b) in bodies.enumerate() {
        if let Some(m) = b.method {
            st.body_of.entry(m).or_insert(id);
        }
    }
    no_obligation::apply(&mut st.p, bodies, &st.body_of, &mut st.specs);
    no_obligation::keep_obligations(&mut st.p);
    let mut rounds = 0;
    // The must-call types are computed again only when a rule changed an
    // obligation: only `must_call_classes` changes types (each computation
    // walks every type of the program, the library model's included).
    let mut types = MustCallTypes::compute(&st.p);
    // Whether a round has added nothing yet. Until then a call's result is not
    // taken to be created by its caller, since the rules that say a call returns
    // an alias of its argument or a borrowed value may still fire for its callee
    // (`_system = Context.System.AsInstanceOf<T>()` stores no new resource), and
    // no class is given a must-call method, which must dispose all its owning
    // fields: neither is ever taken back.
    let mut settled = false;
    // A body's evidence reads the program only: the specs of its own method
    // and of its callees, and the must-call types. Each round reads it again,
    // in parallel, for the bodies that read a method the last round gave a
    // spec (`changed`; `None`: every body).
    let mut ev: Vec<Evidence> = (0..bodies.len()).map(|_| Evidence::default()).collect();
    let mut changed: Option<FxHashSet<MethodId>> = None;
    loop {
        rounds += 1;
        let before = st.specs.len();
        ev.par_iter_mut()
            .zip(bodies.iter().as_slice())
            .for_each(|(e, b)| {
                if changed.as_ref().is_none_or(|c| reads_any(b, c)) {
                    *e = evidence(&st.p, &types, bodies, b);
                }
            });
        st.owning_params(bodies, &types, &ev);
        st.owning_params_of_declarations(&types);
        st.calls(bodies, &types, &ev);
        st.owning_fields(bodies, &types, &ev, settled);
        let types_changed = settled && st.must_call_classes(&types);
        if types_changed {
            types = MustCallTypes::compute(&st.p);
            st.owning_collections = None;
        }
        st.must_call_alias_constructors(bodies, &types, &ev);
        st.must_call_alias_methods(bodies, &types, &ev);
        st.must_call_alias_declarations(&types);
        st.must_call_alias_receivers(bodies, &types);
        st.not_owning_getters(bodies, &types, &ev);
        st.owning_getters(bodies, &ev);
        st.borrowed_returns(bodies, &types);
        creates_must_call_for::apply(&mut st.p, bodies, &types, &mut st.specs);
        if rounds >= MAX_ROUNDS {
            break;
        }
        let added = &st.specs[before..];
        if added.is_empty() && !settled {
            // The rules that wait for it run next, on the same evidence.
            settled = true;
            changed = Some(FxHashSet::default());
            continue;
        }
        if added.is_empty() {
            // Withdrawn specs are taken out of `specs`: read every body again.
            if !st.withdraw_unverified_aliases(bodies) {
                break;
            }
            changed = None;
            continue;
        }
        // A type's spec changes the must-call types, which every body reads;
        // no evidence reads a field's spec.
        let new_type = added
            .iter()
            .any(|s| matches!(s.target, SpecTarget::Type(_)));
        changed = (!types_changed && !new_type).then(|| {
            added
                .iter()
                .filter_map(|s| match s.target {
                    SpecTarget::Method(m) | SpecTarget::Param(m, _) | SpecTarget::Return(m) => {
                        Some(m)
                    }
                    SpecTarget::Field(_) | SpecTarget::Type(_) => None,
                })
                .collect()
        });
    }
    st.specs.sort_by(|a, b| {
        a.target
            .cmp(&b.target)
            .then(a.attr.kind().cmp(b.attr.kind()))
    });
    Inference {
        program: st.p,
        specs: st.specs,
        rounds,
    }
}

/// Whether `body`'s evidence reads a spec of one of `methods`: its own
/// method's or a callee's.
fn reads_any(body: &Body, methods: &FxHashSet<MethodId>) -> bool {
    body.method.is_some_and(|m| methods.contains(&m))
        || body.nodes.iter().any(|n| {
            matches!(&n.stmt, Stmt::Call(c) if matches!(c.callee, Callee::Method(m) if methods.contains(&m)))
        })
}

pub(super) struct State<'s> {
    pub p: Program,
    /// The classes whose fields and obligations this run decides.
    scope: &'s Scope,
    pub specs: Vec<InferredSpec>,
    /// The body of each method.
    pub body_of: FxHashMap<MethodId, BodyId>,
    /// Methods whose `[MustCallAlias]` the verifier rejected: never inferred again.
    withdrawn: FxHashSet<MethodId>,
    /// Fields disposed through a type test (`disposed_through_type_test`); the
    /// bodies do not change between rounds.
    type_tested: FxHashSet<FieldId>,
    /// Fields that only track a value someone else owns
    /// ([`borrowed_return::tracking_fields`]).
    tracking: FxHashSet<FieldId>,
    /// Collection fields whose elements their class disposes
    /// ([`State::owning_collections`]); `None` until needed.
    owning_collections: Option<FxHashSet<FieldId>>,
}

/// Whether body `id` assigns its parameter `i`.
fn param_reassigned(bodies: &Bodies, id: BodyId, i: u32) -> bool {
    let Some(body) = bodies.get(id) else {
        return false;
    };
    let Some(var) = body.param_var(i) else {
        return false;
    };
    body.nodes
        .iter()
        .any(|n| defined_vars(&n.stmt).any(|v| v == var))
}

/// Whether some path of body `id` disposes (or hands on) the value the caller
/// passed as parameter `i` of `m`, as the checker's engine finds it.
fn disposes_entry_value(pf: &ProgramFacts<'_>, m: MethodId, i: u32, id: BodyId) -> bool {
    let (Some(body), Some(var)) = (
        pf.bodies.get(id),
        pf.bodies.get(id).and_then(|b| b.param_var(i)),
    ) else {
        return false;
    };
    let Some(facts) = pf.body_facts(id, &[]) else {
        return false;
    };
    let p = pf.program.method(m).params.get(i as usize);
    let Some(ob) = p.and_then(|p| pf.types.of_value(&p.ty)) else {
        return false;
    };
    discharged_on_some_path(
        &facts,
        ExceptionModel::None,
        &[(body.entry, Alias::Var(var))],
        &ob.must_call,
    )
}

/// Whether every normal path of `m` disposes (or hands on) parameter `i`.
fn disposes_on_every_path(pf: &ProgramFacts<'_>, m: MethodId, i: u32) -> bool {
    let Some(p) = pf.program.method(m).params.get(i as usize) else {
        return false;
    };
    // An `object` parameter is disposed the way any resource is.
    let must_call = pf.types.of_value(&p.ty).map_or_else(
        || MustCall::of(pf.program.conventions.disposal_methods.iter().cloned()),
        |ob| ob.must_call.clone(),
    );
    guarantees(pf, ExceptionModel::None, m, &Target::Param(i), &must_call) == Verdict::Guaranteed
}

/// Of the parameters `candidates`, those to which some call in the program
/// passes a variable that its body assigns once and disposes too
/// (`Dispose()`, or another disposal method, on the variable or a copy of it).
fn callers_dispose_argument(
    p: &Program,
    bodies: &Bodies,
    candidates: impl Iterator<Item = (MethodId, u32)>,
) -> FxHashSet<(MethodId, u32)> {
    let candidates: FxHashSet<(MethodId, u32)> = candidates.collect();
    let mut found = FxHashSet::default();
    if candidates.is_empty() {
        return found;
    }
    for body in bodies.iter() {
        let mut passed: Vec<((MethodId, u32), VarId)> = Vec::new();
        for node in &body.nodes {
            let Stmt::Call(call) = &node.stmt else {
                continue;
            };
            let Callee::Method(m) = call.callee else {
                continue;
            };
            for a in &call.args {
                if let (Some(i), Some(v)) = (a.param, a.value.var())
                    && candidates.contains(&(m, i))
                    && !found.contains(&(m, i))
                {
                    passed.push(((m, i), v));
                }
            }
        }
        if passed.is_empty() {
            continue;
        }
        let defs = Definitions::of(body);
        let is_param = |v: VarId| matches!(body.var(v).kind, VarKind::Param(_));
        let root = |v: VarId| defs.copied_from_until(body, v, is_param);
        let disposed = disposed_locals(p, body, root);
        for (key, v) in passed {
            // Only a variable assigned once disposes the value passed, not one
            // that the call's result replaces (`bmp = Normalize(bmp);`).
            let root = root(v);
            let assignments = usize::from(is_param(root)) + defs.all(root).len();
            if assignments <= 1 && disposed.contains(&root) {
                found.insert(key);
            }
        }
    }
    found
}

/// The variables of `body` (as `root` gives them) on which it calls a
/// disposal method on a path without exceptions.
fn disposed_locals(p: &Program, body: &Body, root: impl Fn(VarId) -> VarId) -> FxHashSet<VarId> {
    // Along normal edges only: a `catch { s.Dispose(); throw; }` cleans up
    // after a failure, it does not keep the value when the call returns.
    let normal = crate::cfg::reachable_cut(body, |from, to| {
        !body.node(from).succ.targets().any(|t| t == to)
    });
    body.nodes
        .iter()
        .zip(normal)
        .filter(|(_, normal)| *normal)
        .filter_map(|(n, _)| match &n.stmt {
            Stmt::Call(call)
                if call
                    .callee_name(p)
                    .is_some_and(|name| p.conventions.is_disposal_method(name)) =>
            {
                call.receiver.map(&root)
            }
            _ => None,
        })
        .collect()
}

/// Whether the store at `n` stores a member of another object (`_input =
/// transport.Input`): a value the class cannot own.
fn stores_borrowed(p: &Program, body: &Body, defs: &crate::facts::Definitions, n: NodeId) -> bool {
    let Stmt::Store {
        src: Operand::Var(v),
        ..
    } = &body.node(n).stmt
    else {
        return false;
    };
    let mut v = *v;
    for _ in 0..8 {
        let [d] = defs.all(v) else {
            return false;
        };
        match &body.node(*d).stmt {
            Stmt::Copy {
                src: Operand::Var(s),
                ..
            } => v = *s,
            Stmt::Load { base: Some(b), .. } => return Some(*b) != body.this_var(),
            Stmt::Call(call) => {
                let getter = matches!(call.callee, crate::ir::Callee::Method(m)
                    if p.get_method(m).is_some_and(|d| d.kind == MethodKind::Getter));
                return getter && call.receiver != body.this_var() && !call_result_owning(p, call);
            }
            _ => return false,
        }
    }
    false
}

/// Whether the body `id` keeps its `[MustCallAlias]` promise for parameter
/// `i` on every normal path (the question RLC0007 asks), under the program's
/// current specs: inference proposes only the aliases this verifier accepts.
fn must_call_alias_holds(pf: &ProgramFacts<'_>, id: BodyId, i: u32) -> bool {
    let Some(facts) = pf.body_facts(id, &[]) else {
        return false;
    };
    let summaries = crate::facts::Summaries::default();
    let outcome = crate::consistency::check(
        Inputs {
            facts: &facts,
            summaries: &summaries,
            exceptions: ExceptionModel::None,
            budget: crate::options::DEFAULT_METHOD_BUDGET,
        },
        || crate::summarize::body(&facts, &summaries, ExceptionModel::None),
    );
    !outcome.aborted
        && !outcome.events.iter().any(|ev| {
            outcome.obligations[ev.obligation as usize].kind
                == ObligationKind::MustCallAliasParam(i)
        })
}

/// Whether the value body `id` stores into field `f` at `n` is disposed (or
/// handed to an owner) on every normal path from there, through the value or
/// the field: the field then only tracks it.
fn disposed_after_store(pf: &ProgramFacts<'_>, id: BodyId, n: NodeId, f: FieldId) -> bool {
    let Some(body) = pf.bodies.get(id) else {
        return false;
    };
    let Stmt::Store {
        src: Operand::Var(v),
        ..
    } = &body.node(n).stmt
    else {
        return false;
    };
    // From after the store, which would take the value out of the check.
    let crate::ir::Succ::Goto(next) = body.node(n).succ else {
        return false;
    };
    let (Some(facts), Some(ob)) = (
        pf.body_facts(id, &[]),
        pf.types.of_value(&pf.program.field(f).ty),
    ) else {
        return false;
    };
    // The value, and the field that now holds it (`_tree = new View();
    // Add(_tree);` hands the field's value on).
    let mut seeds = vec![(next, Alias::Var(*v))];
    seeds.extend(
        facts
            .this
            .map(|t| (next, Alias::Path(t, FieldKey::Known(f)))),
    );
    verify(&facts, ExceptionModel::None, &seeds, &ob.must_call) == Verdict::Guaranteed
}

fn inferred(rule: InferRule, evidence: Span) -> Provenance {
    Provenance::Inferred { rule, evidence }
}

fn is_source_method(p: &Program, m: MethodId) -> bool {
    p.get_method(m)
        .and_then(|md| p.get_ty(md.owner))
        .is_some_and(|t| t.declared_in == DeclaredIn::Source)
}

/// Whether a body's results are new objects: what `owning-getter` asks of the
/// calls a getter returns the result of. A call's result is created by the
/// call only when the callee's body, if the program has it, returns new
/// objects on every path too (not a field, a parameter, or a value it looked
/// up: `GetContext() => _cached ?? Registry.Get(key)`); a method that may be
/// overridden in the program says nothing.
struct Fresh<'a> {
    p: &'a Program,
    bodies: &'a [&'a Body],
    ev: &'a [Evidence],
    of_method: &'a FxHashMap<MethodId, usize>,
    overridden: &'a FxHashSet<MethodId>,
}

impl Fresh<'_> {
    fn returns_fresh(&self, i: usize, depth: u32) -> bool {
        let (body, f) = (self.bodies[i], &self.ev[i]);
        let defs = crate::facts::Definitions::of(body);
        f.returns
            .iter()
            .all(|(n, sources)| match sources.as_deref() {
                None => true,
                Some([ValueSource::Created]) => match &body.node(*n).stmt {
                    Stmt::Return(Some(Operand::Var(v))) => {
                        self.origins_fresh(body, &defs, *v, depth)
                    }
                    _ => true,
                },
                Some(_) => false,
            })
    }

    /// Whether every call that may define `v` (through copies) creates it.
    fn origins_fresh(
        &self,
        body: &Body,
        defs: &crate::facts::Definitions,
        v: VarId,
        depth: u32,
    ) -> bool {
        defs.origins(body, v)
            .iter()
            .all(|n| match &body.node(*n).stmt {
                Stmt::Call(call) if call.kind != CallKind::New => self.call_creates(call, depth),
                _ => true,
            })
    }

    fn call_creates(&self, call: &crate::ir::Call, depth: u32) -> bool {
        let Callee::Method(m) = call.callee else {
            return true;
        };
        let Some(&i) = self.of_method.get(&m) else {
            // No body in the program: its spec decides.
            return true;
        };
        let md = self.p.method(m);
        if md.is_abstract || self.overridden.contains(&m) || !md.overrides.is_empty() {
            return false;
        }
        depth < 3 && self.returns_fresh(i, depth + 1)
    }
}

/// Whether a non-null store to `this.f` is reachable from `node` (the paper's
/// "NotWrittenAfter" fails). Storing `null` after disposal is the usual tidy-up.
fn written_after(body: &Body, ev: &Evidence, node: NodeId, f: FieldId) -> bool {
    let stores: Vec<NodeId> = ev
        .field_stores
        .iter()
        .filter(|(_, g, _, null)| *g == f && !null)
        .map(|(n, ..)| *n)
        .collect();
    if stores.is_empty() {
        return false;
    }
    let mut seen = vec![false; body.nodes.len()];
    let mut stack: Vec<NodeId> = body.successors(node).collect();
    while let Some(n) = stack.pop() {
        let Some(slot) = seen.get_mut(n.index()) else {
            continue;
        };
        if *slot {
            continue;
        }
        *slot = true;
        if stores.contains(&n) {
            return true;
        }
        stack.extend(body.successors(n));
    }
    false
}

/// Where `body` returns, if every `return` gives `this` (directly or through
/// temporaries that only ever copy it).
fn returns_this(body: &Body) -> Option<Span> {
    let this = body.this_var()?;
    let is_this = |v: VarId| {
        v == this
            || body.nodes.iter().all(|n| {
                !defined_vars(&n.stmt).any(|d| d == v)
                    || matches!(&n.stmt, Stmt::Copy { src: Operand::Var(s), .. } if *s == this)
            })
    };
    let mut first = None;
    for n in &body.nodes {
        if let Stmt::Return(value) = &n.stmt {
            let Some(Operand::Var(v)) = value else {
                return None;
            };
            if !is_this(*v) {
                return None;
            }
            first.get_or_insert(n.span);
        }
    }
    first
}

/// Whether every normal path from the entry to the exit passes through one of `through`.
fn always_passes(body: &Body, through: &[NodeId]) -> bool {
    if through.is_empty() {
        return false;
    }
    let mut seen = vec![false; body.nodes.len()];
    let mut stack = vec![body.entry];
    while let Some(n) = stack.pop() {
        let Some(slot) = seen.get_mut(n.index()) else {
            continue;
        };
        if *slot || through.contains(&n) {
            continue;
        }
        *slot = true;
        if n == body.exit {
            return false;
        }
        stack.extend(body.node(n).succ.targets());
    }
    true
}

impl State<'_> {
    fn record(&mut self, target: SpecTarget, attr: InferredAttr, rule: InferRule, evidence: Span) {
        self.specs.push(InferredSpec {
            target,
            attr,
            rule,
            evidence,
        });
    }

    /// Owning fields of a type (non-static, with an obligation).
    fn owning_fields_of(&self, types: &MustCallTypes, t: TypeId) -> Vec<FieldId> {
        let Some(ty) = self.p.get_ty(t) else {
            return Vec::new();
        };
        ty.fields
            .iter()
            .copied()
            .filter(|f| {
                let fd = self.p.field(*f);
                !fd.is_static && fd.ownership.is_owning(false) && types.of_value(&fd.ty).is_some()
            })
            .collect()
    }

    /// `[Owning]` on parameters the method disposes, keeps in an owning field of
    /// its object (not a constructor), or hands to an `[Owning]`
    /// parameter (phase 1; through resource aliases in phase 2).
    fn owning_params(&mut self, bodies: &Bodies, types: &MustCallTypes, ev: &[Evidence]) {
        if ev.iter().any(|f| !f.element_stores.is_empty()) {
            self.owning_collections(bodies);
        }
        let mut found: Vec<(MethodId, u32, BodyId, InferRule, Span)> = Vec::new();
        // Parameters with evidence other than a closure's disposal.
        let mut direct: FxHashSet<(MethodId, u32)> = FxHashSet::default();
        for ((id, body), f) in bodies.enumerate().zip(ev) {
            let Some(m) = f.method.filter(|m| is_source_method(&self.p, *m)) else {
                continue;
            };
            for d in &f.disposals {
                let ValueSource::Param(i) = d.source else {
                    continue;
                };
                let md = self.p.method(m);
                let Some(pd) = md.params.get(i as usize) else {
                    continue;
                };
                // An `object` handed on to an owning parameter (`GCHandle.Alloc(item)`)
                // or disposed as what it turns out to be (`if (o is IDisposable d)
                // d.Dispose();`, a callback's `((Stream)state).Dispose()`) takes
                // whatever resource its callers pass. A `params` array owes its elements, which
                // `owning_elements_params` reads as such.
                let resource = match pd.mode {
                    ParamMode::Value | ParamMode::In => {
                        types.of_value(&pd.ty).is_some() || d.transferred || d.typed_as_resource
                    }
                    _ => false,
                };
                let eligible = pd.ownership == Ownership::Default
                    && resource
                    && pd.must_call_alias.is_none()
                    && md.kind != MethodKind::Setter;
                if eligible && !d.deferred {
                    direct.insert((m, i));
                }
                if eligible && !found.iter().any(|c| (c.0, c.1) == (m, i)) {
                    let rule = if d.transferred {
                        InferRule::OwningParamPassed
                    } else {
                        InferRule::OwningParamDisposed
                    };
                    found.push((m, i, id, rule, body.node(d.node).span));
                }
            }
            // A method other than a constructor (those alias or own in
            // `must_call_alias_constructors`) that keeps the parameter in an
            // owning field of its object takes it over (`engine.Connect(stream)`),
            // as does a setter (`set { _cmd?.Dispose(); _cmd = value; }`);
            // any method that adds it to a collection field whose elements
            // its class disposes does too (`composite.Add(processor)`).
            let md = self.p.method(m);
            if md.is_static || (f.field_stores.is_empty() && f.element_stores.is_empty()) {
                continue;
            }
            let fields = if matches!(md.kind, MethodKind::Ordinary | MethodKind::Setter) {
                self.owning_fields_of(types, md.owner)
            } else {
                Vec::new()
            };
            let collections = self.owning_collections.as_ref();
            let stores = f.field_stores.iter().map(|(n, g, roots, _)| (n, g, roots));
            let element_stores = f.element_stores.iter().map(|(n, g, roots)| (n, g, roots));
            for (n, g, roots) in stores.chain(element_stores) {
                if !fields.contains(g) && !collections.is_some_and(|c| c.contains(g)) {
                    continue;
                }
                for r in roots {
                    let ValueSource::Param(i) = *r else { continue };
                    let Some(pd) = md.params.get(i as usize) else {
                        continue;
                    };
                    let eligible = pd.ownership == Ownership::Default
                        && pd.must_call_alias.is_none()
                        && pd.mode == ParamMode::Value
                        && types.of_value(&pd.ty).is_some();
                    if eligible && !found.iter().any(|c| (c.0, c.1) == (m, i)) {
                        let span = body.node(*n).span;
                        found.push((m, i, id, InferRule::OwningParamStored, span));
                    }
                }
            }
        }
        self.owning_elements_params(bodies, types, &mut found);
        // The evidence is flow-insensitive: a parameter reassigned in the body
        // may be disposed only in its new value. Ask the checker's engine
        // whether some path disposes the value the caller passed. Two kinds
        // of evidence hold only when every path disposes or hands on the
        // parameter: a parameter the body opens again is closed after its own
        // opening (`if (wasClosed) { cnn.Open(); .. cnn.Close(); }`), and a
        // hand-off on some paths only (`if (!c.TrySend(data)) Drop(c);`) is a
        // decision the callee makes, not ownership the caller gives up (the
        // optimistic guess would spread up every caller), and a closure's
        // disposal is one only when the closure disposes it on every path
        // (`AddFrameEndTask(w => { if (consumed) self.Dispose(); })`).
        let reassigned: Vec<bool> = found
            .iter()
            .map(|&(_, i, id, ..)| param_reassigned(bodies, id, i))
            .collect();
        // A disposal on some paths of a value its callers dispose after the
        // call anyway (`using var s = ..; Parse(s);` over a `Parse` that
        // disposes it unless it returns early) is a second disposal, not
        // ownership taken over: only one on every path is.
        let caller_disposed = callers_dispose_argument(
            &self.p,
            bodies,
            found
                .iter()
                .filter(|c| c.3 == InferRule::OwningParamDisposed)
                .map(|c| (c.0, c.1)),
        );
        let every_path: Vec<bool> = found
            .iter()
            .map(|&(m, i, _, rule, _)| {
                rule == InferRule::OwningParamPassed
                    || self.p.method(m).params[i as usize].reopened
                    || (rule == InferRule::OwningParamDisposed
                        && (!direct.contains(&(m, i)) || caller_disposed.contains(&(m, i))))
            })
            .collect();
        let confirmed: Vec<bool> = if reassigned.contains(&true) || every_path.contains(&true) {
            let pf = ProgramFacts::new(&self.p, bodies);
            found
                .iter()
                .zip(reassigned.iter().zip(&every_path))
                .map(|(&(m, i, id, ..), (&r, &o))| {
                    (!r || disposes_entry_value(&pf, m, i, id))
                        && (!o || disposes_on_every_path(&pf, m, i))
                })
                .collect()
        } else {
            vec![true; found.len()]
        };
        for ((m, i, _, rule, span), ok) in found.into_iter().zip(confirmed) {
            if ok {
                self.p.methods[m.index()].params[i as usize].ownership =
                    Ownership::Owning(inferred(rule, span));
                self.record(SpecTarget::Param(m, i), InferredAttr::Owning, rule, span);
            }
        }
    }

    /// `[Owning]` on a collection parameter whose elements carry an obligation
    /// (`IEnumerable<Processor>`, `Stream[]`) when every normal path takes them
    /// over, as the checker reads such a parameter ([`takes_elements`]): a
    /// composite that adds each to a collection field its class disposes
    /// element-wise (`foreach (var p in ps) _items.Add(p);`), keeps a copy of
    /// the collection there, or disposes them. Callers then hand over the
    /// elements of the collections they build (`new Composite([a, b])`).
    fn owning_elements_params(
        &mut self,
        bodies: &Bodies,
        types: &MustCallTypes,
        found: &mut Vec<(MethodId, u32, BodyId, InferRule, Span)>,
    ) {
        let mut candidates: Vec<(MethodId, u32, BodyId)> = Vec::new();
        for (id, body) in bodies.enumerate() {
            let Some(m) = body.method.filter(|m| is_source_method(&self.p, *m)) else {
                continue;
            };
            // A setter's `value` too (`Children = new[] { .. }` over a setter that
            // adds each child to the list its class disposes).
            let md = self.p.method(m);
            for (i, pd) in md.params.iter().enumerate() {
                let i = i as u32;
                let read = body.param_var(i).is_some_and(|v| {
                    body.nodes
                        .iter()
                        .any(|n| crate::facts::reads_var(&n.stmt, v))
                });
                if read
                    && pd.ownership == Ownership::Default
                    && pd.must_call_alias.is_none()
                    && types.of_value(&pd.ty).is_none()
                    && pd.ty.element.and_then(|t| types.of_type(t)).is_some()
                    && matches!(pd.mode, ParamMode::Value | ParamMode::Params)
                    && !found.iter().any(|c| (c.0, c.1) == (m, i))
                {
                    candidates.push((m, i, id));
                }
            }
        }
        if candidates.is_empty() {
            return;
        }
        let summaries = crate::facts::Summaries {
            owning_collections: self.owning_collections(bodies).clone(),
            ..Default::default()
        };
        let pf = ProgramFacts::new(&self.p, bodies);
        for (m, i, id) in candidates {
            let Some(facts) = pf.body_facts(id, &[]) else {
                continue;
            };
            let inputs = Inputs {
                facts: &facts,
                summaries: &summaries,
                exceptions: ExceptionModel::None,
                budget: crate::options::DEFAULT_METHOD_BUDGET,
            };
            let summarize = || crate::summarize::body(&facts, &summaries, ExceptionModel::None);
            if takes_elements(inputs, i, summarize) {
                let span = self.p.method(m).params[i as usize].span;
                let span = span.unwrap_or(facts.body.span);
                found.push((m, i, id, InferRule::OwningParamElements, span));
            }
        }
    }

    /// Collection fields whose elements their class disposes, as the checker
    /// finds them; found once, and again after the must-call types change.
    fn owning_collections(&mut self, bodies: &Bodies) -> &FxHashSet<FieldId> {
        if self.owning_collections.is_none() {
            let pf = ProgramFacts::new(&self.p, bodies);
            let found = crate::summarize::owning_collections(&pf, ExceptionModel::None);
            self.owning_collections = Some(found);
        }
        self.owning_collections.get_or_insert_default()
    }

    /// `[Owning]` on a parameter of an abstract or interface method that every
    /// implementation in the program takes: a caller of the declaration hands
    /// the value on as a caller of any implementation does.
    fn owning_params_of_declarations(&mut self, types: &MustCallTypes) {
        let implementations = self.p.implementations();
        let mut found: Vec<(MethodId, u32, Span)> = Vec::new();
        for (m, impls) in &implementations {
            let md = self.p.method(*m);
            if md.has_body || !is_source_method(&self.p, *m) {
                continue;
            }
            for (i, pd) in md.params.iter().enumerate() {
                let eligible = pd.ownership == Ownership::Default
                    && pd.must_call_alias.is_none()
                    && pd.mode == ParamMode::Value
                    && types.of_value(&pd.ty).is_some();
                if !eligible {
                    continue;
                }
                let evidence =
                    self.implementations_evidence(impls, |c| match &c.params.get(i)?.ownership {
                        Ownership::Owning(prov) => Some(prov),
                        _ => None,
                    });
                if let Some(span) = evidence.and_then(|e| e.into_iter().next()) {
                    found.push((*m, i as u32, span));
                }
            }
        }
        found.sort_by_key(|&(m, i, _)| (m, i));
        for (m, i, span) in found {
            let rule = InferRule::OwningParamImplementations;
            self.p.methods[m.index()].params[i as usize].ownership =
                Ownership::Owning(inferred(rule, span));
            self.record(SpecTarget::Param(m, i), InferredAttr::Owning, rule, span);
        }
    }

    /// Where every one of `impls` got `spec` (the evidence of an inferred one,
    /// the place of a stated one), in order; `None` when one lacks it.
    fn implementations_evidence(
        &self,
        impls: &[MethodId],
        spec: impl Fn(&MethodDef) -> Option<&Provenance>,
    ) -> Option<Vec<Span>> {
        let mut spans = Vec::new();
        for c in impls {
            let c = self.p.method(*c);
            match spec(c)? {
                Provenance::Inferred { evidence, .. } => spans.push(*evidence),
                _ => spans.extend(c.span),
            }
        }
        Some(spans)
    }

    /// `[Calls("this.f", m)]` on instance methods that dispose `this.f` (directly,
    /// through a method with such a `[Calls]`, or by handing it to an `[Owning]`
    /// parameter) and do not reassign it afterwards.
    fn calls(&mut self, bodies: &Bodies, types: &MustCallTypes, ev: &[Evidence]) {
        let overridden = self.p.overridden_methods();
        // Per method and field: the methods each disposal calls, in order (the
        // first one the checker verifies is proposed), and the first's span.
        let mut found: Vec<(MethodId, FieldId, Vec<Vec<String>>, Span)> = Vec::new();
        for (body, f) in bodies.iter().zip(ev) {
            let Some(m) = f.method.filter(|m| is_source_method(&self.p, *m)) else {
                continue;
            };
            let md = self.p.method(m);
            if md.is_static || md.kind != MethodKind::Ordinary {
                continue;
            }
            // A [Calls] binds every override (RLC0008); only a disposal method
            // is expected to keep it in all of them, or a hook whose overrides
            // all run it (`override void Rollback() { base.Rollback(); .. }`).
            let overridden = overridden.contains(&m);
            let disposal = self.p.conventions.is_disposal_method(&md.name)
                || types
                    .of_type(md.owner)
                    .is_some_and(|o| o.must_call.methods.contains(&md.name));
            if overridden && !disposal && !self.overrides_call_base(bodies, m) {
                continue;
            }
            let owner = md.owner;
            for d in &f.disposals {
                let ValueSource::ThisField(field) = d.source else {
                    continue;
                };
                let fd = self.p.field(field);
                if fd.is_static || !self.p.is_subtype(owner, fd.owner) {
                    continue;
                }
                let Some(ob) = types.of_value(&fd.ty) else {
                    continue;
                };
                if self
                    .p
                    .method(m)
                    .calls
                    .iter()
                    .any(|c| c.target == Target::Field(field))
                {
                    continue;
                }
                if written_after(body, f, d.node, field) {
                    continue;
                }
                let methods = if d.transferred {
                    // The callee disposes it somehow; name the canonical alternative.
                    let ms = &ob.must_call.methods;
                    let conventions = &self.p.conventions;
                    let pick = ms
                        .iter()
                        .find(|m| **m == conventions.dispose)
                        .or_else(|| ms.first());
                    pick.into_iter().cloned().collect()
                } else {
                    d.methods.clone()
                };
                match found.iter_mut().find(|(n, g, ..)| *n == m && *g == field) {
                    Some((.., candidates, _)) => {
                        if !candidates.contains(&methods) {
                            candidates.push(methods);
                        }
                    }
                    None => found.push((m, field, vec![methods], body.node(d.node).span)),
                }
            }
        }
        if found.is_empty() {
            return;
        }
        // A `[Calls]` promises the disposal on every path: propose only what the
        // checker then verifies (a disposal on an error path, or under a flag
        // the method is given, is no promise). `_s.Close()` on one path and
        // `base.Dispose(disposing)` on all of them promise the latter's.
        let pf = ProgramFacts::new(&self.p, bodies);
        let verified: Vec<Option<Vec<String>>> = found
            .iter()
            .map(|(m, field, candidates, _)| {
                let target = Target::Field(*field);
                candidates.iter().find_map(|methods| {
                    let must_call = MustCall::of(methods.iter().cloned());
                    let verdict =
                        guarantees(&pf, ExceptionModel::default(), *m, &target, &must_call);
                    (!matches!(verdict, Verdict::Fails(..))).then(|| methods.clone())
                })
            })
            .collect();
        drop(pf);
        for ((m, field, _, span), methods) in found.into_iter().zip(verified) {
            let Some(methods) = methods else {
                continue;
            };
            let target = format!("this.{}", self.p.field(field).name);
            self.p.methods[m.index()].calls.push(CallsSpec {
                target: Target::Field(field),
                methods: methods.clone(),
                provenance: inferred(InferRule::CallsFieldDisposed, span),
            });
            self.record(
                SpecTarget::Method(m),
                InferredAttr::Calls { target, methods },
                InferRule::CallsFieldDisposed,
                span,
            );
        }
    }

    /// Whether every override of `m` in the program calls `m` itself
    /// (`base.M()`) on every path that returns; the program's own overrides
    /// are all the checker sees.
    fn overrides_call_base(&self, bodies: &Bodies, m: MethodId) -> bool {
        self.p
            .methods
            .iter()
            .enumerate()
            .filter(|(_, d)| d.overrides.contains(&m))
            .all(|(o, _)| {
                let body = self.body_of.get(&MethodId(o as u32)).map(|b| &bodies[*b]);
                body.is_some_and(|b| {
                    let this = b.this_var();
                    let calls_base = |n: NodeId| match &b.node(n).stmt {
                        Stmt::Call(c) => {
                            c.callee == Callee::Method(m) && this.is_some() && c.receiver == this
                        }
                        _ => false,
                    };
                    // The exit is not reached around the base calls.
                    let mut seen: FxHashSet<NodeId> = FxHashSet::default();
                    let mut stack = vec![b.entry];
                    while let Some(n) = stack.pop() {
                        if n == b.exit {
                            return false;
                        }
                        if seen.insert(n) && !calls_base(n) {
                            stack.extend(b.node(n).succ.targets());
                        }
                    }
                    true
                })
            })
    }

    /// `[Owning]` on fields some method disposes (a `[Calls]` names them), and,
    /// once `settled`, on fields the class stores a resource it created into:
    /// the object then holds that resource, and nobody else has it to dispose.
    fn owning_fields(
        &mut self,
        bodies: &Bodies,
        types: &MustCallTypes,
        ev: &[Evidence],
        settled: bool,
    ) {
        let mut found: Vec<(FieldId, Span, InferRule)> = Vec::new();
        let tested = &self.type_tested;
        let scope = self.scope;
        let candidate = |p: &Program, f: FieldId| {
            let fd = p.field(f);
            scope.decides_field(p, f)
                && fd.ownership == Ownership::Default
                && !fd.is_static
                && (types.of_value(&fd.ty).is_some() || tested.contains(&f))
        };
        // Fields only ever given values the class cannot own (another object's
        // member, a not-owning result: `_input = transport.Input`): a method
        // that releases them acts for their owner.
        let mut ownable: FxHashSet<FieldId> = FxHashSet::default();
        let mut borrowed: FxHashSet<FieldId> = FxHashSet::default();
        // Fields the class lends: it never creates their values, and some
        // method other than a constructor lets one go without disposing it
        // (`SetStream(s) { _s = s; }`, `ReleaseStream() { _s = null; }`): a
        // method that disposes one (`CloseStream()`) acts for the caller who
        // gave it.
        let mut created: FxHashSet<FieldId> = FxHashSet::default();
        let mut let_go: FxHashSet<FieldId> = FxHashSet::default();
        for (body, e) in bodies.iter().zip(ev) {
            if e.field_stores.is_empty() {
                continue;
            }
            let defs = crate::facts::Definitions::of(body);
            let calls = body
                .method
                .and_then(|m| self.p.get_method(m))
                .map_or(&[][..], |md| &md.calls[..]);
            for (n, f, sources, is_null) in &e.field_stores {
                if sources.contains(&ValueSource::Created) {
                    created.insert(*f);
                }
                if *is_null
                    && body.kind != BodyKind::Constructor
                    && !calls.iter().any(|c| c.target == Target::Field(*f))
                {
                    let_go.insert(*f);
                }
                if stores_borrowed(&self.p, body, &defs, *n) {
                    borrowed.insert(*f);
                } else if !is_null {
                    ownable.insert(*f);
                }
            }
        }
        let only_borrowed = |f: FieldId| {
            borrowed.contains(&f) && !ownable.contains(&f)
                || let_go.contains(&f) && !created.contains(&f)
        };
        for md in &self.p.methods {
            for c in &md.calls {
                let Target::Field(f) = c.target else { continue };
                if candidate(&self.p, f)
                    && !only_borrowed(f)
                    && !found.iter().any(|(g, ..)| *g == f)
                {
                    let span = match &c.provenance {
                        Provenance::Inferred { evidence, .. } | Provenance::Source(evidence) => {
                            *evidence
                        }
                        _ => md.span.unwrap_or(Span::new(crate::FileId(0), 0, 0)),
                    };
                    found.push((f, span, InferRule::OwningField));
                }
            }
        }
        let mut pf: Option<ProgramFacts> = None;
        for ((id, body), e) in bodies.enumerate().zip(ev).filter(|_| settled) {
            for (n, f, sources, _) in &e.field_stores {
                if sources.contains(&ValueSource::Created)
                    && candidate(&self.p, *f)
                    && !found.iter().any(|(g, ..)| g == f)
                {
                    // `using (_out = File.Create(p)) { .. }`: the field only lends
                    // callees a value the method itself disposes; `return Current
                    // = new Tx(this)`: it tracks a value the caller owns.
                    let pf = pf.get_or_insert_with(|| ProgramFacts::new(&self.p, bodies));
                    let handed_back = self.tracking.contains(f)
                        && borrowed_return::hands_back_stored(&self.p, body, *n, *f);
                    if !handed_back && !disposed_after_store(pf, id, *n, *f) {
                        found.push((*f, body.node(*n).span, InferRule::OwningFieldCreated));
                    }
                }
            }
        }
        for (f, span, rule) in found {
            self.p.fields[f.index()].ownership = Ownership::Owning(inferred(rule, span));
            self.record(SpecTarget::Field(f), InferredAttr::Owning, rule, span);
        }
    }

    /// `[MustCall(d)]` on a class without an obligation whose instance method
    /// `d`, callable by its clients or its framework, guarantees the disposal of every owning field (preferring
    /// `Dispose`, then `Close`, then the first by name). True if it gave
    /// any class an obligation.
    fn must_call_classes(&mut self, types: &MustCallTypes) -> bool {
        let mut changed = false;
        for t in 0..self.p.types.len() {
            let tid = TypeId(t as u32);
            let ty = &self.p.types[t];
            if !self.scope.decides_type(&self.p, tid)
                || ty.kind == TypeKind::Interface
                || ty.is_static
            {
                continue;
            }
            if types.of_type(tid).is_some() || ty.must_call.is_some() {
                continue;
            }
            let fields = self.owning_fields_of(types, tid);
            if fields.is_empty() {
                continue;
            }
            let mut candidates: Vec<MethodId> = ty
                .methods
                .iter()
                .copied()
                .filter(|m| {
                    let md = self.p.method(*m);
                    // Clients must be able to call it: an internal helper is no
                    // protocol, while a framework's base class calls a protected
                    // override (an actor's `PostStop`, a stage's `OnStop`), and
                    // an interface its explicit implementation
                    // (`void INotifyDisposing.Disposing()`).
                    let through_interface =
                        md.overrides.iter().any(|o| self.p.method(*o).is_public);
                    md.kind == MethodKind::Ordinary
                        && !md.is_static
                        && (md.is_public || (md.is_virtual && !md.is_private) || through_interface)
                        && md.has_body
                        && fields
                            .iter()
                            .all(|f| md.calls.iter().any(|c| c.target == Target::Field(*f)))
                })
                .collect();
            candidates.sort_by_key(|m| {
                let md = self.p.method(*m);
                (
                    self.p.conventions.disposal_rank(&md.name),
                    md.name.clone(),
                    *m,
                )
            });
            let Some(&d) = candidates.first() else {
                continue;
            };
            let md = self.p.method(d);
            let span = md.span.unwrap_or(Span::new(crate::FileId(0), 0, 0));
            let name = md.name.clone();
            self.p.types[t].must_call = Some((
                MustCall::of([name.clone()]),
                inferred(InferRule::MustCallClass, span),
            ));
            changed = true;
            self.record(
                SpecTarget::Type(tid),
                InferredAttr::MustCall(vec![name]),
                InferRule::MustCallClass,
                span,
            );
        }
        changed
    }

    /// `[MustCallAlias]` on constructors: the parameter is always stored into the
    /// class's single owning field, or passed to a `[MustCallAlias]` position of
    /// a `this(..)`/`base(..)` constructor. With several owning fields, a stored
    /// parameter is `[Owning]` instead.
    fn must_call_alias_constructors(
        &mut self,
        bodies: &Bodies,
        types: &MustCallTypes,
        ev: &[Evidence],
    ) {
        for (body, f) in bodies.iter().zip(ev) {
            let Some(m) = f.method.filter(|m| is_source_method(&self.p, *m)) else {
                continue;
            };
            let md = self.p.method(m);
            if md.kind != MethodKind::Constructor
                || md.ret_must_call_alias.is_some()
                || self.withdrawn.contains(&m)
            {
                continue;
            }
            let owner = md.owner;
            let fields = self.owning_fields_of(types, owner);
            let nparams = md.params.len() as u32;
            let mut alias: Option<(u32, InferRule, Span)> = None;
            let mut owning: Vec<(u32, Span)> = Vec::new();
            for i in 0..nparams {
                let pd = &self.p.method(m).params[i as usize];
                if pd.ownership != Ownership::Default
                    || pd.must_call_alias.is_some()
                    || pd.mode != ParamMode::Value
                    || types.of_value(&pd.ty).is_none()
                {
                    continue;
                }
                let chained = f.ctor_chain.iter().find(|(_, callee, p, roots)| {
                    roots.contains(&ValueSource::Param(i))
                        && self.p.get_method(*callee).is_some_and(|c| {
                            c.ret_must_call_alias.is_some() && c.must_call_alias_param() == Some(*p)
                        })
                });
                if let Some((node, ..)) = chained {
                    alias = alias.or(Some((
                        i,
                        InferRule::MustCallAliasChained,
                        body.node(*node).span,
                    )));
                    continue;
                }
                let stores: Vec<(NodeId, FieldId)> = f
                    .field_stores
                    .iter()
                    .filter(|(_, g, roots, _)| {
                        fields.contains(g)
                            && self.p.field(*g).owes_nothing_when.is_empty()
                            && roots.contains(&ValueSource::Param(i))
                    })
                    .map(|(n, g, ..)| (*n, *g))
                    .collect();
                let Some(&(first, _)) = stores.first() else {
                    continue;
                };
                let nodes: Vec<NodeId> = stores.iter().map(|(n, _)| *n).collect();
                if fields.len() == 1 && always_passes(body, &nodes) {
                    alias = alias.or(Some((
                        i,
                        InferRule::MustCallAliasConstructor,
                        body.node(first).span,
                    )));
                } else {
                    owning.push((i, body.node(first).span));
                }
            }
            if let Some((i, rule, span)) = alias {
                self.set_must_call_alias(m, i, rule, span);
                owning.retain(|(j, _)| *j != i);
            }
            for (i, span) in owning {
                self.p.methods[m.index()].params[i as usize].ownership =
                    Ownership::Owning(inferred(InferRule::OwningConstructorParam, span));
                self.record(
                    SpecTarget::Param(m, i),
                    InferredAttr::Owning,
                    InferRule::OwningConstructorParam,
                    span,
                );
            }
        }
    }

    /// `[MustCallAlias]` on a method that always returns (a resource alias of) one
    /// of its parameters. A generic method (`T NotNull<T>(T value)`, an open
    /// type on both sides) qualifies when it returns exactly that parameter.
    fn must_call_alias_methods(&mut self, bodies: &Bodies, types: &MustCallTypes, ev: &[Evidence]) {
        for (body, f) in bodies.iter().zip(ev) {
            let Some(m) = f.method.filter(|m| is_source_method(&self.p, *m)) else {
                continue;
            };
            let md = self.p.method(m);
            let open = md.ret.ty.is_none();
            // A task's declared type says nothing of what awaiting it gives:
            // `async Task<Db> InitAsync(Db db) { ..; return db; }` qualifies
            // when it returns exactly the parameter.
            let task_like = !open && types.of_value(&md.ret).is_none();
            if md.kind != MethodKind::Ordinary
                || self.withdrawn.contains(&m)
                || md.ret_must_call_alias.is_some()
                || md.must_call_alias_param().is_some()
                || md.ret_ownership != Ownership::Default
                || f.returns.is_empty()
            {
                continue;
            }
            let candidate = (0..md.params.len() as u32).find(|&i| {
                let pd = &md.params[i as usize];
                let returned = |r: &Vec<ValueSource>| match open || task_like {
                    true => r == &[ValueSource::Param(i)],
                    false => r.contains(&ValueSource::Param(i)),
                };
                pd.ownership == Ownership::Default
                    && pd.mode == ParamMode::Value
                    && if open {
                        // A generic cast helper: `T As<T>(this object o) => (T)o`.
                        pd.ty.ty.is_none_or(|t| self.p.well_known.object == Some(t))
                    } else {
                        types.of_value(&pd.ty).is_some()
                    }
                    && f.returns
                        .iter()
                        .all(|(_, roots)| roots.as_ref().is_some_and(returned))
            });
            let Some(i) = candidate else { continue };
            let span = body.node(f.returns[0].0).span;
            self.set_must_call_alias(m, i, InferRule::MustCallAliasMethod, span);
        }
    }

    /// `[MustCallAlias]` on an abstract or interface method of the program
    /// whose result is (a wrapper of) one parameter: every implementation in
    /// the program says so, or it takes and returns the same resource type
    /// through exactly one parameter (an extension point such as `DbConnection
    /// UnwrapConnection(DbConnection c)`, whose implementations may chain it).
    /// The latter is optimistic, as the paper's inference is: at the fixed
    /// point it is withdrawn if an implementation does not return that
    /// parameter ([`State::withdraw_unverified_aliases`]). The paper's default
    /// would make every caller, which lends a borrowed argument, own the result.
    fn must_call_alias_declarations(&mut self, types: &MustCallTypes) {
        let implementations = self.p.implementations();
        let mut found: Vec<(MethodId, u32, InferRule, Span)> = Vec::new();
        for (m, md) in self.p.methods.iter().enumerate() {
            let m = MethodId(m as u32);
            // Abstract only: an `extern` method's result is the platform's new handle.
            if !md.is_abstract
                || md.kind != MethodKind::Ordinary
                || self.withdrawn.contains(&m)
                || !is_source_method(&self.p, m)
                || md.ret_must_call_alias.is_some()
                || md.must_call_alias_param().is_some()
                || md.ret_ownership != Ownership::Default
                || types.of_value(&md.ret).is_none()
            {
                continue;
            }
            let plain = |i: &u32| {
                let pd = &md.params[*i as usize];
                pd.ownership == Ownership::Default && pd.mode == ParamMode::Value
            };
            let impls = implementations.get(&m).map_or(&[][..], Vec::as_slice);
            let aliased = |c: MethodId| self.p.method(c).must_call_alias_param();
            if let Some(&first) = impls.first()
                && let Some(i) = aliased(first).filter(|i| {
                    plain(i)
                        && impls.iter().all(|c| aliased(*c) == Some(*i))
                        && types.of_value(&md.params[*i as usize].ty).is_some()
                })
                && let Some(span) = impls.iter().filter_map(|c| self.p.method(*c).span).min()
            {
                found.push((m, i, InferRule::MustCallAliasImplementations, span));
                continue;
            }
            let same: Vec<u32> = (0..md.params.len() as u32)
                .filter(|i| md.params[*i as usize].ty.ty == md.ret.ty)
                .collect();
            if let ([i], Some(span)) = (same.as_slice(), md.span)
                && plain(i)
            {
                found.push((m, *i, InferRule::MustCallAliasSameType, span));
            }
        }
        for (m, i, rule, span) in found {
            self.set_must_call_alias(m, i, rule, span);
        }
    }

    /// `[MustCallAlias]` on an instance method that returns `this` on every
    /// path (`async Task<Connection> OpenAsync() { ..; return this; }`, fluent
    /// setters), whatever its declared return type (a `Task` of it, an
    /// interface): its result is the receiver, not a new resource. A method
    /// the program overrides (abstract, interface or virtual) qualifies when
    /// its own body, if any, returns `this` and every override in the program
    /// has the spec (one that never returns counts as neither), so a call
    /// through the base gets the receiver back as a call of any override does
    /// (`new KernelSession(p).EnableProviders()`); overrides of overrides are
    /// reached in later rounds, as for `[NotOwning]` results.
    fn must_call_alias_receivers(&mut self, bodies: &Bodies, types: &MustCallTypes) {
        let implementations = self.p.implementations();
        let eligible = |md: &MethodDef| {
            md.kind == MethodKind::Ordinary
                && !md.is_static
                && md.ret_must_call_alias.is_none()
                && md.this_must_call_alias.is_none()
                && md.ret_ownership == Ownership::Default
                && types.of_type(md.owner).is_some()
        };
        let mut found = Vec::new();
        for body in bodies.iter() {
            let Some(m) = body.method.filter(|m| is_source_method(&self.p, *m)) else {
                continue;
            };
            if !eligible(self.p.method(m)) || implementations.contains_key(&m) {
                continue;
            }
            if let Some(span) = returns_this(body) {
                found.push((m, span));
            }
        }
        self.set_receiver_aliases(found);
        let mut found = Vec::new();
        for (&m, impls) in &implementations {
            let md = self.p.method(m);
            if !is_source_method(&self.p, m) || !eligible(md) {
                continue;
            }
            // The method's own evidence: `Some(None)` for one without a body.
            let own = match self.body_of.get(&m).and_then(|id| bodies.get(*id)) {
                Some(body) => returns_this(body).map(Some),
                None if md.is_abstract => Some(None),
                None => None,
            };
            let returning: Vec<MethodId> = impls
                .iter()
                .copied()
                .filter(|c| !self.p.method(*c).never_returns)
                .collect();
            let evidence =
                self.implementations_evidence(&returning, |c| c.this_must_call_alias.as_ref());
            if let (Some(own), Some(spans)) = (own, evidence)
                && let Some(span) = spans.into_iter().chain(own).min()
            {
                found.push((m, span));
            }
        }
        found.sort_by_key(|(m, _)| *m);
        self.set_receiver_aliases(found);
    }

    /// `[MustCallAlias]` on the receivers of `found` (method, evidence).
    fn set_receiver_aliases(&mut self, found: Vec<(MethodId, Span)>) {
        for (m, span) in found {
            let rule = InferRule::MustCallAliasReceiver;
            self.p.methods[m.index()].this_must_call_alias = Some(inferred(rule, span));
            self.record(
                SpecTarget::Method(m),
                InferredAttr::MustCallAlias,
                rule,
                span,
            );
        }
    }

    /// At a fixed point, takes back the inferred `[MustCallAlias]` specs the
    /// checker's verifier (RLC0007) rejects, and says whether there were any
    /// (then inference goes on without them). The evidence is flow-insensitive
    /// (`return cond ? p : null`, a parameter reassigned in a loop) and the
    /// verifier is not; inference must never propose what checking reports.
    fn withdraw_unverified_aliases(&mut self, bodies: &Bodies) -> bool {
        let implementations = self.p.implementations();
        let rejected: Vec<MethodId> = {
            let pf = ProgramFacts::new(&self.p, bodies);
            self.specs
                .iter()
                .filter_map(|s| match (&s.target, &s.attr) {
                    (SpecTarget::Param(m, i), InferredAttr::MustCallAlias) => Some((*m, *i)),
                    _ => None,
                })
                .filter(|&(m, i)| match self.body_of.get(&m) {
                    Some(&id) => !must_call_alias_holds(&pf, id, i),
                    // A declaration: every implementation must alias the same parameter.
                    None => implementations.get(&m).is_some_and(|impls| {
                        impls
                            .iter()
                            .any(|c| self.p.method(*c).must_call_alias_param() != Some(i))
                    }),
                })
                .map(|(m, _)| m)
                .collect()
        };
        for &m in &rejected {
            self.withdrawn.insert(m);
            let md = &mut self.p.methods[m.index()];
            md.ret_must_call_alias = None;
            for p in &mut md.params {
                p.must_call_alias = None;
            }
            self.specs.retain(|s| {
                !(s.attr == InferredAttr::MustCallAlias
                    && matches!(s.target, SpecTarget::Method(t) | SpecTarget::Param(t, _) if t == m))
            });
        }
        !rejected.is_empty()
    }

    /// `[MustCallAlias]` on method `m` and its parameter `i`.
    fn set_must_call_alias(&mut self, m: MethodId, i: u32, rule: InferRule, span: Span) {
        self.p.methods[m.index()].ret_must_call_alias = Some(inferred(rule, span));
        self.p.methods[m.index()].params[i as usize].must_call_alias = Some(inferred(rule, span));
        self.record(
            SpecTarget::Method(m),
            InferredAttr::MustCallAlias,
            rule,
            span,
        );
        self.record(
            SpecTarget::Param(m, i),
            InferredAttr::MustCallAlias,
            rule,
            span,
        );
    }

    /// `[return: NotOwning]` on method `m`.
    fn set_not_owning_return(&mut self, m: MethodId, rule: InferRule, span: Span) {
        self.p.methods[m.index()].ret_ownership = Ownership::NotOwning(inferred(rule, span));
        self.record(SpecTarget::Return(m), InferredAttr::NotOwning, rule, span);
    }

    /// `[return: NotOwning]` on a method that returns an owning field of its class:
    /// the class keeps the obligation, the caller only borrows.
    fn not_owning_getters(&mut self, bodies: &Bodies, types: &MustCallTypes, ev: &[Evidence]) {
        for (body, f) in bodies.iter().zip(ev) {
            let Some(m) = f.method.filter(|m| is_source_method(&self.p, *m)) else {
                continue;
            };
            let md = self.p.method(m);
            if md.kind != MethodKind::Ordinary
                || md.is_static
                || md.ret_ownership != Ownership::Default
                || md.ret_must_call_alias.is_some()
                || types.of_value(&md.ret).is_none()
            {
                continue;
            }
            let returned = f.returns.iter().find_map(|(n, roots)| {
                roots.as_ref()?.iter().find_map(|r| match r {
                    ValueSource::ThisField(g) if self.p.field(*g).ownership.is_owning(false) => {
                        Some(*n)
                    }
                    _ => None,
                })
            });
            let Some(node) = returned else { continue };
            self.set_not_owning_return(m, InferRule::NotOwningGetter, body.node(node).span);
        }
    }

    /// `[return: Owning]` on a getter whose every return is a resource it
    /// creates (`public Stream Data => File.OpenRead(path)`): each read hands
    /// the caller a new object, so the caller owns it, against the C#
    /// default that a property exposes state its object owns. Getters in an
    /// override chain keep the default, which every override must agree with.
    fn owning_getters(&mut self, bodies: &Bodies, ev: &[Evidence]) {
        let overridden = self.p.overridden_methods();
        let of_method: FxHashMap<MethodId, usize> = ev
            .iter()
            .enumerate()
            .filter_map(|(i, f)| Some((f.method?, i)))
            .collect();
        let all: Vec<&Body> = bodies.iter().collect();
        for (i, (body, f)) in bodies.iter().zip(ev).enumerate() {
            let Some(m) = f.method.filter(|m| is_source_method(&self.p, *m)) else {
                continue;
            };
            let md = self.p.method(m);
            if md.kind != MethodKind::Getter
                || md.ret_ownership != Ownership::Default
                || md.ret_must_call_alias.is_some()
                || !md.overrides.is_empty()
                || overridden.contains(&m)
            {
                continue;
            }
            // `return null` is allowed; any other value must be created here.
            let created = |s: &Option<Vec<ValueSource>>| {
                s.as_ref().is_none_or(|s| s == &[ValueSource::Created])
            };
            let first = f
                .returns
                .iter()
                .find(|(_, s)| s.as_deref() == Some(&[ValueSource::Created]));
            let Some((node, _)) = first else {
                continue;
            };
            if !f.returns.iter().all(|(_, s)| created(s)) {
                continue;
            }
            let fresh = Fresh {
                p: &self.p,
                bodies: &all,
                ev,
                of_method: &of_method,
                overridden: &overridden,
            };
            if !fresh.returns_fresh(i, 0) {
                continue;
            }
            let rule = InferRule::OwningGetter;
            let span = body.node(*node).span;
            self.p.methods[m.index()].ret_ownership = Ownership::Owning(inferred(rule, span));
            self.record(SpecTarget::Return(m), InferredAttr::Owning, rule, span);
        }
    }

    /// `[return: NotOwning]` on methods that only return borrowed values.
    fn borrowed_returns(&mut self, bodies: &Bodies, types: &MustCallTypes) {
        let overridden = self.p.overridden_methods();
        // What the bodies of overridden methods lend, decided with their overrides.
        let mut own = OwnLending::default();
        for body in bodies {
            let Some(m) = body.method.filter(|m| is_source_method(&self.p, *m)) else {
                continue;
            };
            if borrowed_return::returns_nothing(&self.p, body)
                || borrowed_return::forwards_base(&self.p, body)
            {
                own.returns_nothing.insert(m);
            }
            if overridden.contains(&m) {
                for (i, span) in borrowed_return::borrowed_out_params(&self.p, types, body) {
                    own.out_params.insert((m, i), span);
                }
                if let Some(span) = borrowed_return::evidence(&self.p, types, body, &self.tracking)
                {
                    own.returns.insert(m, span);
                }
                continue;
            }
            for (i, span) in borrowed_return::borrowed_out_params(&self.p, types, body) {
                let rule = borrowed_return::RULE;
                self.p.methods[m.index()].params[i as usize].ownership =
                    Ownership::NotOwning(inferred(rule, span));
                self.record(SpecTarget::Param(m, i), InferredAttr::NotOwning, rule, span);
            }
            let Some(span) = borrowed_return::evidence(&self.p, types, body, &self.tracking) else {
                continue;
            };
            self.set_not_owning_return(m, borrowed_return::RULE, span);
        }
        self.borrowed_overridden(&overridden, &own);
    }

    /// `[NotOwning]` on the result or an `out` parameter of an overridden
    /// method of the program (abstract, interface or virtual) when its own body,
    /// if any, and every override in the program lend it (a registry's lookup,
    /// `GetBaseStream() => _stream`): a call through the base lends too.
    fn borrowed_overridden(&mut self, overridden: &FxHashSet<MethodId>, own: &OwnLending) {
        let implementations = self.p.implementations();
        // Where an override shows that it lends (`None`: it does not).
        let lends = |ownership: &Ownership, d: &MethodDef| match ownership {
            Ownership::NotOwning(Provenance::Inferred { evidence, .. }) => Some(*evidence),
            Ownership::NotOwning(_) => d.span,
            _ => None,
        };
        let mut returns = Vec::new();
        let mut out_params = Vec::new();
        for (m, impls) in implementations {
            let md = self.p.method(m);
            // An implementation overridden in turn speaks for its overrides
            // once its own spec is decided (with them, in an earlier round).
            let undecided = |i: &MethodId| {
                overridden.contains(i) && self.p.method(*i).ret_ownership == Ownership::Default
            };
            if !is_source_method(&self.p, m) || impls.iter().any(undecided) {
                continue;
            }
            // The spans of the base's own evidence and of every override's.
            // An override gives evidence (`Some(Some(span))`), is neutral
            // (`Some(None)`: it hands out nothing) or does not lend (`None`).
            let all = |base: Option<Span>, of: &dyn Fn(MethodId) -> Option<Option<Span>>| {
                let base = if md.is_abstract {
                    Some(None)
                } else {
                    base.map(Some)
                }?;
                let mut spans = Vec::new();
                for i in &impls {
                    spans.extend(of(*i)?);
                }
                spans.extend(base);
                spans.into_iter().min()
            };
            let returned = |i: MethodId| {
                let d = self.p.method(i);
                match lends(&d.ret_ownership, d) {
                    Some(span) => Some(Some(span)),
                    None => own.returns_nothing.contains(&i).then_some(None),
                }
            };
            // The base lends: found now, or inferred before (in an earlier
            // stage of target frameworks, or for the twin it stands for).
            let lent = match &md.ret_ownership {
                Ownership::NotOwning(Provenance::Inferred { evidence, .. }) => Some(*evidence),
                Ownership::Default
                    if md.ret_must_call_alias.is_none() && md.this_must_call_alias.is_none() =>
                {
                    let span = all(own.returns.get(&m).copied(), &returned);
                    returns.extend(span.map(|span| (m, span)));
                    span
                }
                _ => None,
            };
            if let Some(span) = lent {
                // Overrides that hand out nothing take the base's spec, which
                // RLC0008 asks them to keep.
                let nothing = impls.iter().filter(|i| {
                    own.returns_nothing.contains(i)
                        && self.p.method(**i).ret_ownership == Ownership::Default
                });
                returns.extend(nothing.map(|i| (*i, span)));
            }
            for (i, p) in md.params.iter().enumerate() {
                let i = i as u32;
                if p.mode != ParamMode::Out || p.ownership != Ownership::Default {
                    continue;
                }
                let of = |c: MethodId| {
                    let d = self.p.method(c);
                    lends(&d.params.get(i as usize)?.ownership, d).map(Some)
                };
                if let Some(span) = all(own.out_params.get(&(m, i)).copied(), &of) {
                    out_params.push((m, i, span));
                }
            }
        }
        returns.sort_by_key(|(m, _)| *m);
        for (m, span) in returns {
            self.set_not_owning_return(m, borrowed_return::RULE, span);
        }
        out_params.sort_by_key(|(m, i, _)| (*m, *i));
        for (m, i, span) in out_params {
            let rule = borrowed_return::RULE;
            self.p.methods[m.index()].params[i as usize].ownership =
                Ownership::NotOwning(inferred(rule, span));
            self.record(SpecTarget::Param(m, i), InferredAttr::NotOwning, rule, span);
        }
    }
}

/// What the bodies of overridden methods lend by themselves: results and
/// `out` parameters, each with its evidence.
#[derive(Default)]
struct OwnLending {
    returns: FxHashMap<MethodId, Span>,
    out_params: FxHashMap<(MethodId, u32), Span>,
    /// Overrides that return only `null` or always throw (`=> null`,
    /// `=> throw new NotSupportedException()`), or only what their base
    /// returns (`=> base.Prepare()`): they neither lend nor give of their own.
    returns_nothing: FxHashSet<MethodId>,
}

/// Fields of `this` whose declared type has no obligation but that a method of
/// their class disposes when the value turns out to be disposable: `if (_impl is
/// IDisposable d) d.Dispose();`, `(_impl as IDisposable)?.Dispose()`. The class
/// keeps whatever disposable it stores there and releases it that way.
fn disposed_through_type_test(p: &Program, bodies: &Bodies) -> FxHashSet<FieldId> {
    let disposable = |v: &crate::ir::Var| {
        v.ty.ty.is_some()
            && (v.ty.ty == p.well_known.disposable || v.ty.ty == p.well_known.async_disposable)
    };
    let mut out = FxHashSet::default();
    for body in bodies.iter() {
        let loaded: FxHashMap<VarId, FieldId> = crate::ownership::this_field_loads(body).collect();
        if loaded.is_empty() {
            continue;
        }
        let mut tested: FxHashMap<VarId, FieldId> = FxHashMap::default();
        for node in &body.nodes {
            match &node.stmt {
                Stmt::Copy {
                    dst,
                    src: Operand::Var(src),
                } => {
                    if let Some(&f) = loaded.get(src).or_else(|| tested.get(src))
                        && disposable(body.var(*dst))
                    {
                        tested.insert(*dst, f);
                    }
                }
                Stmt::Call(call) => {
                    let c = &p.conventions;
                    let method = match &call.callee {
                        crate::ir::Callee::Method(m) => p.get_method(*m),
                        _ => None,
                    };
                    // A cast keeps the loaded variable (`((IDisposable)_o).Dispose()`):
                    // the interface's own method on a field's value is the test.
                    let cast = |r: &VarId| {
                        method
                            .is_some_and(|m| {
                                Some(m.owner) == p.well_known.disposable
                                    || Some(m.owner) == p.well_known.async_disposable
                            })
                            .then(|| loaded.get(r))
                            .flatten()
                    };
                    if let (Some(r), Some(m)) = (call.receiver, method)
                        && (m.name == c.dispose || m.name == c.dispose_async)
                        && let Some(&f) = tested.get(&r).or_else(|| cast(&r))
                    {
                        out.insert(f);
                    }
                }
                _ => {}
            }
        }
    }
    out
}
