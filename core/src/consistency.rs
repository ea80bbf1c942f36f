//! Must-call consistency checking: Algorithm 1 of Kellogg et al. (§2.4), with
//! the enhancements of §3 (ownership transfer), §4 (resource aliases) and §5
//! (`[CreatesMustCallFor]`).
//!
//! The analysis maps every CFG node `s` to the set `D(s)` of facts reaching it.
//! A fact ⟨P, e⟩ says: the value created at obligation origin `e` has not had
//! its must-call obligation discharged yet, and every member of `P` (locals,
//! temporaries, parameters, access paths `base.f`) must-aliases it.
//!
//! ```text
//! D <- InitialObligations(CFG)                       // initial_obligations()
//! until fixed point:                                 // run(): worklist of facts
//!   for s, <P, e> in D(s):
//!     if s is exit: report e                         // at_exit()
//!     else if not MCSatisfiedAfter(P, s):            // discharges in process()
//!       N <- (P - kill(s)) + gen(P, s)               // kill_gen()
//!       if N is empty: report e where it was lost    // lost()
//!       for t in succ(s): D(t) <- D(t) + {<N, e>}    // flow_normal(), flow_exc()
//! ```
//!
//! Two engineering choices keep it fast and guaranteed to terminate:
//! - a fact whose alias set is a superset of another fact of the same
//!   obligation at the same node is dropped (the smaller set discharges less and
//!   is lost sooner, so every report the larger would give, it gives too);
//! - after [`VARIANTS`] alias sets of one obligation at one node (or once the
//!   body has used its step budget, one) they are merged into their
//!   intersection, the classic must-alias join. Alias sets are drawn from a
//!   finite set, and each change makes the up-closure of a node's sets grow, so
//!   the fixed point is reached; a hard budget ends pathological bodies with a
//!   note instead of a long run.
//!
//! The same engine verifies guarantees ([`verify`]): "one of these methods is
//! called on this value on every normal path", used for `[Calls]`, owning
//! fields, closures and element-wise disposal loops.

use std::collections::VecDeque;

use rustc_hash::FxHashMap;

use crate::checker::ExceptionModel;
use crate::collections::{self, Root};
use crate::context::BodyCx;
use crate::ir::{
    BodyKind, Call, CallKind, Callee, Cond, FieldRef, Node, NodeId, Operand, Stmt, Succ, VarId,
    VarKind,
};
use crate::must_call::Obligation;
use crate::ownership;
use crate::program::{MustCall, ParamMode, Provenance, Target, TypeId};
use crate::resource_alias::{Alias, Condition, FieldKey, condition_at, wrapped_by};

/// Alias sets of one obligation kept apart at one node before they are merged.
pub const VARIANTS: usize = 4;

pub type OriginId = u32;

/// A dataflow fact ⟨P, e⟩ plus what the report needs about the path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fact {
    /// P: sorted, without duplicates.
    pub aliases: Vec<Alias>,
    /// e: index into the body's origins.
    pub origin: OriginId,
    /// The first node whose exception edge this fact followed: the fact lives on
    /// an exceptional path (RLC0002 rather than RLC0001).
    pub exc_from: Option<NodeId>,
    /// The last `return` it passed, and whether the returned value was an alias.
    pub exit_via: Option<(NodeId, bool)>,
    /// The outermost `new` wrapper (`[MustCallAlias]` constructor) around it.
    pub wrapper: Option<NodeId>,
    /// Where the last user-visible alias was lost while temporaries still hold
    /// it: the place to report if it then leaks.
    pub dropped: Option<(NodeId, Loss)>,
}

impl Fact {
    fn new(aliases: Vec<Alias>, origin: OriginId) -> Fact {
        Fact {
            aliases,
            origin,
            exc_from: None,
            exit_via: None,
            wrapper: None,
            dropped: None,
        }
    }
    fn key(&self) -> (OriginId, bool) {
        (self.origin, self.exc_from.is_some())
    }
    fn has(&self, a: Alias) -> bool {
        self.aliases.binary_search(&a).is_ok()
    }
    fn has_var(&self, v: VarId) -> bool {
        self.has(Alias::Var(v))
    }
}

/// Where an obligation comes from (the paper's `e`), which decides what may
/// discharge it and which rule reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OriginKind {
    /// The result of `new` or of a call returning an owning value.
    Alloc,
    /// A value a callee stored into an `out` argument.
    OutArg,
    /// An `[Owning]` parameter of the analysed method.
    OwningParam(u32),
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
struct Rules {
    /// A must-call method called on an alias (directly or by `[Calls]`).
    calls: bool,
    /// Passed to an `[Owning]` parameter.
    owning_param: bool,
    /// Stored into an `[Owning]` field.
    owning_field: bool,
    /// Returned from a method whose return is owning.
    returns: bool,
    /// `yield return`ed, or assigned to an owning `out` parameter.
    hands_out: bool,
    /// Captured by a closure that disposes it.
    closure: bool,
    /// Disposed element-wise (a disposal loop over the collection, `ForEach`).
    elements: bool,
    /// Passed to a `[MustCallAlias]` parameter of `base(..)`/`this(..)`.
    mca_ctor: bool,
    /// Stored into a collection (moved to the collection's element obligation).
    collection_store: bool,
}

impl OriginKind {
    fn rules(&self) -> Rules {
        let leak = Rules {
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
        let none = Rules {
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
            OriginKind::MustCallAliasParam(_) => Rules {
                owning_field: true,
                returns: true,
                mca_ctor: true,
                ..none
            },
            OriginKind::Element => Rules {
                owning_param: true,
                owning_field: true,
                returns: true,
                hands_out: true,
                elements: true,
                ..none
            },
            // Calling it, or (as inference's [Calls] rule) handing it to an owner.
            OriginKind::Target => Rules {
                calls: true,
                owning_param: true,
                ..none
            },
            _ => leak,
        }
    }

    /// Kinds whose exceptional paths are reported (RLC0002).
    pub fn is_leak(&self) -> bool {
        matches!(
            self,
            OriginKind::Alloc
                | OriginKind::OutArg
                | OriginKind::OwningParam(_)
                | OriginKind::Opaque
                | OriginKind::CreatesMustCallFor { .. }
        )
    }
}

#[derive(Clone, Debug)]
pub struct Origin {
    pub kind: OriginKind,
    /// Where the obligation starts (the allocation, the store site, the entry).
    pub node: NodeId,
    /// The variable that first holds it.
    pub var: Option<VarId>,
    pub obligation: Obligation,
    /// The resource's type, for messages.
    pub ty: Option<TypeId>,
}

/// How a value was lost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Loss {
    /// It reached the end of the method.
    Exit,
    /// It reached the exit through this `return`; `value_is_alias`: the
    /// returned value was the resource but the return is not owning.
    Return { value_is_alias: bool },
    /// An exception left the method (at the event's node).
    ExceptionalExit,
    /// The last alias was overwritten.
    Overwritten(Alias),
    /// The last alias went out of scope.
    OutOfScope(VarId),
    /// The call's result was never stored.
    Discarded,
    /// Stored in a collection this method does not own and nobody disposes.
    UnownedCollection,
}

#[derive(Clone, Debug)]
pub struct Event {
    pub origin: OriginId,
    /// Where it was lost (the secondary label).
    pub at: NodeId,
    pub loss: Loss,
    /// Set when the path went through an exception edge (first throwing node).
    pub exc_from: Option<NodeId>,
    /// A user-visible alias that still held it, for the message.
    pub holder: Option<Alias>,
    pub wrapper: Option<NodeId>,
    /// Access paths it was stored under (non-owning fields), for the help.
    pub paths: Vec<Alias>,
}

/// A call whose ownership transfer depended on a value not known there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConditionNote {
    pub origin: OriginId,
    pub at: NodeId,
    pub param: String,
}

/// The result of checking one body.
#[derive(Debug, Default)]
pub struct Outcome {
    pub origins: Vec<Origin>,
    pub events: Vec<Event>,
    pub notes: Vec<ConditionNote>,
    /// Whether each origin was discharged on some path.
    pub discharged: Vec<bool>,
    /// The step budget ran out; the events are incomplete.
    pub aborted: bool,
}

/// The result of verifying a guarantee.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Guaranteed,
    /// A path where it does not hold: where it ends, and how.
    Fails(NodeId, Loss),
    /// The analysis gave up (budget).
    Unknown,
}

struct Entry {
    node: NodeId,
    fact: Fact,
    live: bool,
}

/// Statement-level effects collected before the facts move on.
struct Step {
    normal: Option<Fact>,
    exc: Option<Fact>,
    kills: Vec<VarId>,
    path_kill: Option<Alias>,
    gens: Vec<Alias>,
}

struct Engine<'c, 'a> {
    cx: &'c BodyCx<'a>,
    origins: Vec<Origin>,
    /// Origins created at a node while the analysis runs (store sites).
    site_origins: FxHashMap<(NodeId, bool), OriginId>,
    arena: Vec<Entry>,
    at: Vec<Vec<u32>>,
    work: VecDeque<u32>,
    events: Vec<Event>,
    notes: Vec<ConditionNote>,
    discharged: Vec<bool>,
    steps: usize,
    soft_budget: usize,
    hard_budget: usize,
    variants: usize,
    aborted: bool,
}

/// Checks one body: Algorithm 1 from InitialObligations to the fixed point.
pub fn check(cx: &BodyCx<'_>) -> Outcome {
    let mut e = Engine::new(cx);
    e.initial_obligations();
    e.run();
    Outcome {
        origins: e.origins,
        events: e.events,
        notes: e.notes,
        discharged: e.discharged,
        aborted: e.aborted,
    }
}

/// Verifies that on every normal path from each seed (a node and the alias it
/// holds there) one of `must_call` is called on the value before it is lost or
/// the method returns.
pub fn verify(cx: &BodyCx<'_>, seeds: &[(NodeId, Alias)], must_call: &MustCall) -> Verdict {
    let mut e = Engine::new(cx);
    let obligation = Obligation {
        must_call: must_call.clone(),
        declared_by: None,
        provenance: Provenance::Default,
    };
    let o = e.new_origin(OriginKind::Target, cx.body.entry, None, obligation, None);
    for (node, alias) in seeds {
        e.insert(*node, Fact::new(vec![*alias], o));
    }
    e.run();
    if e.aborted {
        return Verdict::Unknown;
    }
    match e.events.into_iter().next() {
        Some(ev) => Verdict::Fails(ev.at, ev.loss),
        None => Verdict::Guaranteed,
    }
}

fn insert_sorted(v: &mut Vec<Alias>, a: Alias) {
    if let Err(i) = v.binary_search(&a) {
        v.insert(i, a);
    }
}

fn is_subset(small: &[Alias], big: &[Alias]) -> bool {
    small.len() <= big.len() && small.iter().all(|a| big.binary_search(a).is_ok())
}

fn intersect(a: &[Alias], b: &[Alias]) -> Vec<Alias> {
    a.iter()
        .filter(|x| b.binary_search(x).is_ok())
        .copied()
        .collect()
}

impl<'c, 'a> Engine<'c, 'a> {
    fn new(cx: &'c BodyCx<'a>) -> Engine<'c, 'a> {
        let n = cx.body.nodes.len();
        Engine {
            cx,
            origins: Vec::new(),
            site_origins: FxHashMap::default(),
            arena: Vec::new(),
            at: vec![Vec::new(); n],
            work: VecDeque::new(),
            events: Vec::new(),
            notes: Vec::new(),
            discharged: Vec::new(),
            steps: 0,
            soft_budget: 32 * n + 4096,
            hard_budget: 400 * n + 200_000,
            variants: VARIANTS,
            aborted: false,
        }
    }

    fn new_origin(
        &mut self,
        kind: OriginKind,
        node: NodeId,
        var: Option<VarId>,
        obligation: Obligation,
        ty: Option<TypeId>,
    ) -> OriginId {
        self.origins.push(Origin {
            kind,
            node,
            var,
            obligation,
            ty,
        });
        self.discharged.push(false);
        (self.origins.len() - 1) as OriginId
    }

    /// The origin of a store site (an owning field's new value, or a collection's
    /// elements), created once per site.
    fn site_origin(&mut self, node: NodeId, kind: OriginKind, from: &Fact) -> OriginId {
        let element = kind == OriginKind::Element;
        if let Some(&o) = self.site_origins.get(&(node, element)) {
            return o;
        }
        let src = &self.origins[from.origin as usize];
        let (obligation, ty) = (src.obligation.clone(), src.ty);
        let o = self.new_origin(kind, node, None, obligation, ty);
        self.site_origins.insert((node, element), o);
        o
    }

    fn rules(&self, o: OriginId) -> Rules {
        self.origins[o as usize].kind.rules()
    }

    fn discharge(&mut self, o: OriginId) {
        self.discharged[o as usize] = true;
    }

    // ---- InitialObligations ------------------------------------------------

    fn initial_obligations(&mut self) {
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
                Stmt::Call(call) => self.facts_from_call(n, call),
                Stmt::Opaque { dst, owning: true } => {
                    if let Some(ob) = cx.var_obligation(*dst) {
                        let ty = body.var(*dst).ty.ty;
                        let o = self.new_origin(OriginKind::Opaque, n, Some(*dst), ob.clone(), ty);
                        self.flow_normal(n, Fact::new(vec![Alias::Var(*dst)], o));
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
                OriginKind::OwningParam(i as u32)
            } else if p
                .must_call_alias
                .as_ref()
                .is_some_and(Provenance::is_verified)
            {
                OriginKind::MustCallAliasParam(i as u32)
            } else {
                continue;
            };
            let ob = cx.var_obligation(var).or_else(|| cx.types.of_value(&p.ty));
            if let Some(ob) = ob {
                let ty = cx.body.var(var).ty.ty.or(p.ty.ty);
                let o = self.new_origin(kind, cx.body.entry, Some(var), ob.clone(), ty);
                self.insert(cx.body.entry, Fact::new(vec![Alias::Var(var)], o));
            }
        }
    }

    /// The old value of each non-readonly owning field this method assigns
    /// (paper §5.1: it must be disposed before the field is overwritten).
    /// Constructors are exempt: the field holds nothing yet.
    fn field_obligations(&mut self) {
        let cx = self.cx;
        let (Some(this), Some(method)) = (cx.this, cx.method) else {
            return;
        };
        if method.is_constructor() || method.is_static {
            return;
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
            if !def.is_owning() || def.is_readonly {
                continue;
            }
            if let Some(ob) = cx.types.of_value(&def.ty) {
                seeded.push(key);
                let o = self.new_origin(
                    OriginKind::FieldValue(key),
                    cx.body.entry,
                    None,
                    ob.clone(),
                    def.ty.ty,
                );
                self.insert(cx.body.entry, Fact::new(vec![Alias::Path(this, key)], o));
            }
        }
    }

    /// FactsFromCall: the owning result, owning `out` arguments, and fresh
    /// obligations of `[CreatesMustCallFor]` targets.
    fn facts_from_call(&mut self, n: NodeId, call: &Call) {
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
                wraps && condition_at(program, call, |v| cx.bools.before(n, v)) == Condition::Holds;
            if !aliased && let Some(ob) = cx.types.of_call_result(program, call) {
                let ty = match call.kind {
                    CallKind::New => call.new_type.or(call.ty.ty),
                    _ => call.ty.ty.or_else(|| method.and_then(|m| m.ret.ty)),
                };
                let o = self.new_origin(OriginKind::Alloc, n, call.dst, ob.into_owned(), ty);
                match call.dst {
                    Some(d) => self.flow_normal(n, Fact::new(vec![Alias::Var(d)], o)),
                    None => self.event_at(o, n, Loss::Discarded, None, None, None),
                }
            }
        }
        for arg in &call.args {
            let (ParamMode::Out, Operand::Var(v)) = (arg.mode, &arg.value) else {
                continue;
            };
            let param = ownership::callee_param(program, call, arg.param);
            if !ownership::out_param_owning(param) {
                continue;
            }
            let ob = cx
                .var_obligation(*v)
                .or_else(|| param.and_then(|p| cx.types.of_value(&p.ty)));
            if let Some(ob) = ob {
                let ty = cx.body.var(*v).ty.ty;
                let o = self.new_origin(OriginKind::OutArg, n, Some(*v), ob.clone(), ty);
                self.flow_normal(n, Fact::new(vec![Alias::Var(*v)], o));
            }
        }
        let Some(method) = method else {
            return;
        };
        for (target, _) in &method.creates_must_call_for {
            let Some(var) = cmcf_target(call, target) else {
                continue;
            };
            // A closure cannot carry `[CreatesMustCallFor]`; the object it
            // captured stays its owner's to dispose.
            let closure = matches!(cx.body.kind, BodyKind::Lambda | BodyKind::LocalFunction);
            if closure && Some(var) == cx.this {
                continue;
            }
            // §5: inside a method that creates the same obligation for its own
            // caller, the new obligation is the caller's.
            let own = cx.method.is_some_and(|m| {
                m.creates_must_call_for.iter().any(|(t, _)| match t {
                    Target::This => Some(var) == cx.this,
                    Target::Param(i) => cx.body.param_var(*i) == Some(var),
                    Target::Field(_) => false,
                })
            });
            if own {
                continue;
            }
            let ob = cx
                .var_obligation(var)
                .or_else(|| cx.types.of_type(method.owner));
            if let Some(ob) = ob {
                let on_this = Some(var) == cx.this;
                let ty = cx.body.var(var).ty.ty.or(Some(method.owner));
                let o = self.new_origin(
                    OriginKind::CreatesMustCallFor { on_this },
                    n,
                    Some(var),
                    ob.clone(),
                    ty,
                );
                self.flow_normal(n, Fact::new(vec![Alias::Var(var)], o));
            }
        }
    }

    // ---- the fixed point ---------------------------------------------------

    /// Adds a fact to D(node) unless a fact of the same obligation with fewer
    /// aliases is there; merges variants past the limit (see the module docs).
    fn insert(&mut self, node: NodeId, mut fact: Fact) {
        let Some(list) = self.at.get_mut(node.index()) else {
            return;
        };
        let arena = &mut self.arena;
        list.retain(|&id| arena[id as usize].live);
        let key = fact.key();
        let mut same: Vec<u32> = Vec::new();
        for &id in list.iter() {
            let g = &arena[id as usize].fact;
            if g.key() != key {
                continue;
            }
            if is_subset(&g.aliases, &fact.aliases) {
                return;
            }
            same.push(id);
        }
        for &id in &same {
            if is_subset(&fact.aliases, &arena[id as usize].fact.aliases) {
                arena[id as usize].live = false;
            }
        }
        same.retain(|&id| arena[id as usize].live);
        if same.len() >= self.variants {
            let merged = same.iter().fold(fact.aliases.clone(), |acc, &id| {
                intersect(&acc, &arena[id as usize].fact.aliases)
            });
            // Disjoint holders on different paths have nothing in common: keep
            // them apart rather than invent a loss at the join.
            if !merged.is_empty() {
                for &id in &same {
                    arena[id as usize].live = false;
                }
                fact.aliases = merged;
            }
        }
        list.retain(|&id| arena[id as usize].live);
        let id = arena.len() as u32;
        arena.push(Entry {
            node,
            fact,
            live: true,
        });
        list.push(id);
        self.work.push_back(id);
    }

    fn run(&mut self) {
        while let Some(id) = self.work.pop_front() {
            if !self.arena[id as usize].live {
                continue;
            }
            self.steps += 1;
            if self.steps > self.soft_budget {
                self.variants = 1;
            }
            if self.steps > self.hard_budget {
                self.aborted = true;
                return;
            }
            self.process(id);
        }
    }

    fn process(&mut self, id: u32) {
        let (n, fact) = {
            let e = &self.arena[id as usize];
            (e.node, e.fact.clone())
        };
        let cx = self.cx;
        let body = cx.body;
        if n == body.exit || n == body.exc_exit {
            return self.at_exit(&fact, n == body.exc_exit);
        }
        let rules = self.rules(fact.origin);
        if rules.elements
            && cx
                .element_loop_collections(n)
                .iter()
                .any(|c| fact.has_var(*c))
        {
            return self.discharge(fact.origin);
        }
        let node = body.node(n);
        let mut step = Step {
            normal: Some(fact.clone()),
            exc: Some(fact.clone()),
            kills: Vec::new(),
            path_kill: None,
            gens: Vec::new(),
        };
        self.transfer(n, node, &fact, rules, &mut step);
        if let Some(mut f) = step.normal.take() {
            let named = |a: &Alias| match *a {
                Alias::Var(v) => cx.var_name(v).is_some(),
                Alias::Path(b, _) => Some(b) == cx.this || cx.var_name(b).is_some(),
            };
            let (mut last, mut last_named) = (None, None);
            f.aliases.retain(|a| {
                let dead = step.kills.contains(&a.root()) || Some(*a) == step.path_kill;
                if dead {
                    last = Some(*a);
                    if named(a) {
                        last_named = Some(*a);
                    }
                }
                !dead
            });
            for g in &step.gens {
                insert_sorted(&mut f.aliases, *g);
            }
            let loss_of = |a: Alias| match (&node.stmt, a) {
                (Stmt::ScopeEnd(_), Alias::Var(v)) => Loss::OutOfScope(v),
                _ => Loss::Overwritten(a),
            };
            if f.aliases.iter().any(named) {
                f.dropped = None;
            } else if let Some(a) = last_named {
                f.dropped = Some((n, loss_of(a)));
            }
            match (f.aliases.is_empty(), last) {
                (true, Some(last)) => {
                    let (at, loss) = f.dropped.clone().unwrap_or((n, loss_of(last)));
                    let paths = fact
                        .aliases
                        .iter()
                        .filter(|a| matches!(a, Alias::Path(..)))
                        .copied()
                        .collect();
                    self.event_at(
                        f.origin,
                        at,
                        loss,
                        Some(last_named.unwrap_or(last)),
                        f.wrapper,
                        f.exc_from,
                    );
                    if let Some(ev) = self.events.last_mut() {
                        ev.paths = paths;
                    }
                }
                (true, None) => {}
                (false, _) => self.flow_normal(n, f),
            }
        }
        if let Some(f) = step.exc {
            self.flow_exc(n, node, f);
        }
    }

    /// MCSatisfiedAfter, kill and gen of one statement for one fact.
    fn transfer(&mut self, n: NodeId, node: &Node, fact: &Fact, rules: Rules, step: &mut Step) {
        let cx = self.cx;
        let held = |op: &Operand| op.var().is_some_and(|v| fact.has_var(v));
        match &node.stmt {
            Stmt::Nop => {}
            Stmt::Copy { dst, src } => {
                if held(src) {
                    if cx.body.var(*dst).kind == VarKind::Captured && rules.hands_out {
                        // Assigned to a variable of the enclosing method: its business.
                        self.escape(fact, step);
                    } else {
                        step.gens.push(Alias::Var(*dst));
                    }
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
                if held(src) {
                    self.store(n, *base, field, fact, rules, step);
                    if let Some(p) = path {
                        step.gens.push(p);
                    }
                }
                step.path_kill = path;
            }
            Stmt::Call(call) => self.transfer_call(n, call, fact, rules, step),
            Stmt::StoreElement { collection, src } => {
                if held(src) && rules.collection_store {
                    self.store_element(n, *collection, fact, step);
                }
            }
            Stmt::Closure {
                dst,
                body,
                captures,
            } => {
                let must_call = &self.origins[fact.origin as usize].obligation.must_call;
                if rules.closure
                    && captures
                        .iter()
                        .any(|q| fact.has_var(*q) && cx.closure_disposes(*body, *q, must_call))
                {
                    self.discharge_both(fact, step);
                }
                step.kills.extend(*dst);
            }
            Stmt::Return(value) => {
                let alias = value.as_ref().is_some_and(held);
                if alias && rules.returns && cx.returns_owning {
                    self.discharge_both(fact, step);
                } else if let Some(f) = &mut step.normal {
                    f.exit_via = Some((n, alias));
                }
            }
            Stmt::Yield(value) => {
                if held(value) && rules.hands_out {
                    self.discharge_both(fact, step);
                }
            }
            Stmt::Throw(value) => {
                // A thrown disposable exception object goes to whoever catches it.
                if value.is_some_and(|v| fact.has_var(v)) {
                    self.escape(fact, step);
                }
                step.normal = None;
            }
            Stmt::Escape(vars) => {
                if vars.iter().any(|v| fact.has_var(*v)) {
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
        rules: Rules,
        step: &mut Step,
    ) {
        let cx = self.cx;
        let Some(b) = base else {
            // A static field keeps the value for the program's lifetime (the C#
            // idiom `static readonly HttpClient`): not this method's leak.
            return self.escape(fact, step);
        };
        let FieldRef::Known(f) = field else {
            return;
        };
        let Some(def) = cx.program.get_field(*f) else {
            return;
        };
        let kind = &self.origins[fact.origin as usize].kind;
        if *kind == OriginKind::Element {
            if def.is_owning() || cx.checker.owning_collections.contains(f) {
                self.discharge_both(fact, step);
            }
            return;
        }
        if !def.is_owning() || !rules.owning_field {
            return;
        }
        self.discharge(fact.origin);
        step.exc = None;
        // The field now owns it; on `this` it is still tracked, so that a second
        // assignment before disposal is caught (RLC0004).
        if Some(b) == cx.this && step.normal.is_some() {
            let o = self.site_origin(n, OriginKind::FieldValue(FieldKey::Known(*f)), fact);
            if let Some(nf) = &mut step.normal {
                nf.origin = o;
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
            self.discharge(fact.origin);
            step.normal = None;
            return;
        }
        match collections::root(cx, collection) {
            Root::Owned => {
                self.discharge(fact.origin);
                step.normal = None;
            }
            Root::Escaped => {
                self.discharge(fact.origin);
                step.normal = None;
            }
            Root::Local => {
                let o = self.site_origin(n, OriginKind::Element, fact);
                self.discharge(fact.origin);
                step.gens.clear();
                step.normal = Some(Fact {
                    aliases: vec![Alias::Var(collection)],
                    origin: o,
                    exc_from: fact.exc_from,
                    exit_via: None,
                    wrapper: None,
                    dropped: None,
                });
            }
            Root::Unowned => {
                let o = self.site_origin(n, OriginKind::Element, fact);
                self.discharge(fact.origin);
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

    fn transfer_call(
        &mut self,
        n: NodeId,
        call: &Call,
        fact: &Fact,
        rules: Rules,
        step: &mut Step,
    ) {
        let cx = self.cx;
        let program = cx.program;
        let must_call = &self.origins[fact.origin as usize].obligation.must_call;
        let method = match &call.callee {
            Callee::Method(m) => program.get_method(*m),
            _ => None,
        };
        if rules.calls {
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
                self.discharge(fact.origin);
                step.normal = None;
                if even_if_throws {
                    step.exc = None;
                }
            }
            // §5: a [CreatesMustCallFor] call resets its target; the fresh
            // obligation comes from facts_from_call.
            if let Some(m) = method
                && m.creates_must_call_for
                    .iter()
                    .any(|(t, _)| cmcf_target(call, t).is_some_and(|v| fact.has_var(v)))
            {
                self.discharge(fact.origin);
                step.normal = None;
            }
        }
        let mut condition: Option<Condition> = None;
        for arg in &call.args {
            let Operand::Var(q) = arg.value else {
                continue;
            };
            if !fact.has_var(q) {
                continue;
            }
            match arg.mode {
                // The callee may keep or replace it: give up on it silently.
                ParamMode::Ref => {
                    self.escape(fact, step);
                    continue;
                }
                ParamMode::Out => continue,
                _ => {}
            }
            let Some(param) = ownership::callee_param(program, call, arg.param) else {
                continue;
            };
            let takes = ownership::param_takes_ownership(param) && rules.owning_param;
            let wraps = param.must_call_alias.is_some();
            if !takes && !wraps && !param.collection_element {
                continue;
            }
            let cond = condition
                .get_or_insert_with(|| condition_at(program, call, |v| cx.bools.before(n, v)))
                .clone();
            if let Condition::Unknown(name) = &cond
                && (takes || wraps)
            {
                self.notes.push(ConditionNote {
                    origin: fact.origin,
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
                    if rules.mca_ctor {
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
                && rules.collection_store
                && let Some(c) = call.receiver
            {
                self.store_element(n, c, fact, step);
            }
        }
        if let (Some(m), Some(r), Some(d)) = (method, call.receiver, call.dst)
            && m.this_must_call_alias.is_some()
            && fact.has_var(r)
        {
            step.gens.push(Alias::Var(d));
        }
        if rules.elements
            && step.normal.is_some()
            && collections::disposes_elements(cx, call, |v| fact.has_var(v))
        {
            self.discharge(fact.origin);
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
        self.discharge(fact.origin);
        step.normal = None;
        step.exc = None;
    }

    /// The value escapes where the analysis cannot follow: given up silently.
    fn escape(&mut self, fact: &Fact, step: &mut Step) {
        self.discharge_both(fact, step);
    }

    /// Propagates a fact along the normal edges of `n`, refined by the branch:
    /// on the true edge of `x == null` the value is null and nothing is owed
    /// (paper Fig. 1); a `bool` edge known infeasible is not taken.
    fn flow_normal(&mut self, n: NodeId, fact: Fact) {
        let cx = self.cx;
        let node = cx.body.node(n);
        match &node.succ {
            Succ::None => {}
            Succ::Goto(t) => self.insert(*t, fact),
            Succ::Branch {
                cond,
                if_true,
                if_false,
            } => {
                let take_true = match cond {
                    Cond::IsNull(x) => !fact.has_var(*x),
                    Cond::Bool(v) => cx.bools.edge_feasible(cx.body, n, *v, true),
                    Cond::Opaque => true,
                };
                let take_false = match cond {
                    Cond::Bool(v) => cx.bools.edge_feasible(cx.body, n, *v, false),
                    _ => true,
                };
                if take_true {
                    self.insert(*if_true, fact.clone());
                }
                if take_false {
                    self.insert(*if_false, fact);
                }
            }
            Succ::Multi(targets) => {
                for t in targets {
                    self.insert(*t, fact.clone());
                }
            }
        }
    }

    /// Propagates along the exceptional edge if the exception model believes it
    /// (a `throw` always goes to its handler).
    fn flow_exc(&mut self, n: NodeId, node: &Node, mut fact: Fact) {
        let Some(edge) = &node.exc else {
            return;
        };
        // A guarantee is about normal returns, but an exception caught inside the
        // method ends in one too, so verification follows believed edges as well;
        // reaching the exceptional exit does not break a guarantee.
        let believed = matches!(node.stmt, Stmt::Throw(_))
            || !self.is_disposal_call(node)
                && match self.cx.checker.options.exception_model {
                    ExceptionModel::None => false,
                    ExceptionModel::Explicit => edge.explicit,
                    ExceptionModel::All => true,
                };
        if !believed {
            return;
        }
        fact.exc_from.get_or_insert(n);
        fact.exit_via = None;
        self.insert(edge.target, fact);
    }

    /// A call of a must-call method (`Dispose`, `Close`, ...): taken not to throw,
    /// as .NET's guidelines require of `Dispose`; otherwise every `finally` that
    /// disposes two resources would be reported under the `all` model.
    fn is_disposal_call(&self, node: &Node) -> bool {
        let Stmt::Call(call) = &node.stmt else {
            return false;
        };
        let name = match &call.callee {
            crate::ir::Callee::Method(m) => self
                .cx
                .checker
                .program
                .get_method(*m)
                .map(|m| m.name.as_str()),
            crate::ir::Callee::Unresolved(n) => Some(n.rsplit('.').next().unwrap_or(n)),
            crate::ir::Callee::Delegate(_) => None,
        };
        let Some(name) = name else { return false };
        call.receiver.is_some_and(|r| {
            self.cx
                .var_obligation(r)
                .is_some_and(|o| o.is_satisfied_by(name))
        })
    }

    /// A fact reaching an exit: a leak unless an alias still hands the value on.
    fn at_exit(&mut self, fact: &Fact, exceptional_exit: bool) {
        let cx = self.cx;
        let origin = &self.origins[fact.origin as usize];
        let kind = origin.kind.clone();
        if exceptional_exit && !kind.is_leak() {
            return;
        }
        if !exceptional_exit && kind != OriginKind::Target {
            let rules = kind.rules();
            let handed_out = fact.aliases.iter().any(|a| match *a {
                Alias::Var(v) => match cx.body.vars.get(v.index()).map(|v| &v.kind) {
                    Some(VarKind::Param(i)) => {
                        rules.hands_out && ownership::out_param_of_body(cx.method, *i)
                    }
                    Some(VarKind::Captured) => true,
                    _ => false,
                },
                // Still held by an owning field of this object.
                Alias::Path(b, FieldKey::Known(f)) => {
                    Some(b) == cx.this && cx.program.get_field(f).is_some_and(|d| d.is_owning())
                }
                Alias::Path(..) => false,
            });
            if handed_out {
                return self.discharge(fact.origin);
            }
        }
        let (at, loss) = if exceptional_exit {
            (
                fact.exc_from.unwrap_or(cx.body.exc_exit),
                Loss::ExceptionalExit,
            )
        } else if let Some(dropped) = &fact.dropped {
            dropped.clone()
        } else {
            match fact.exit_via {
                Some((r, alias)) => (
                    r,
                    Loss::Return {
                        value_is_alias: alias,
                    },
                ),
                None => (cx.body.exit, Loss::Exit),
            }
        };
        let holder = fact
            .aliases
            .iter()
            .find(|a| matches!(a, Alias::Var(v) if cx.var_name(*v).is_some()))
            .copied();
        self.event_at(fact.origin, at, loss, holder, fact.wrapper, fact.exc_from);
        if let Some(ev) = self.events.last_mut() {
            ev.paths = fact
                .aliases
                .iter()
                .filter(|a| matches!(a, Alias::Path(..)))
                .copied()
                .collect();
        }
    }

    fn event_at(
        &mut self,
        origin: OriginId,
        at: NodeId,
        loss: Loss,
        holder: Option<Alias>,
        wrapper: Option<NodeId>,
        exc_from: Option<NodeId>,
    ) {
        self.events.push(Event {
            origin,
            at,
            loss,
            exc_from,
            holder,
            wrapper,
            paths: Vec::new(),
        });
    }
}

/// The caller's variable a `[CreatesMustCallFor]` target names.
fn cmcf_target(call: &Call, target: &Target) -> Option<VarId> {
    match target {
        Target::This => call.receiver,
        Target::Param(i) => call
            .args
            .iter()
            .find(|a| a.param == Some(*i))
            .and_then(|a| a.value.var()),
        Target::Field(_) => None,
    }
}

#[cfg(test)]
mod tests;
