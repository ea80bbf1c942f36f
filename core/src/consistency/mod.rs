//! Must-call consistency checking: Algorithm 1 of Kellogg et al. (§2.4), with
//! the enhancements of §3 (ownership transfer), §4 (resource aliases) and §5
//! (`[CreatesMustCallFor]`).
//!
//! The analysis maps every CFG node `s` to the set `D(s)` of facts reaching it.
//! A fact ⟨P, o⟩ says: obligation `o` (created at the paper's expression `e`)
//! has not been discharged yet, and every member of `P` (locals, temporaries,
//! parameters, access paths `base.f`) must-aliases the value that carries it.
//!
//! ```text
//! D <- InitialObligations(CFG)                       // obligations.rs: initial_obligations()
//! until fixed point:                                 // run(): a worklist of facts
//!   for s, <P, o> in D(s):                           // process()
//!     if s is exit: report o                         // at_exit()
//!     else if not MCSatisfiedAfter(P, s):            // satisfied.rs: mc_satisfied_after()
//!       N <- (P - kill(s)) + gen(P, s)               // kill_gen()
//!       if N is empty: report o where it was lost    // lost()
//!       for t in succ(s): D(t) <- D(t) + {<N, o>}    // flow_normal(), flow_exc()
//! ```
//!
//! It reads only the body's facts ([`BodyFacts`]) and the summaries computed
//! before it ([`BodySummaries`], [`Summaries`]); it knows nothing of rules or
//! reports, which turn its [`Outcome`] into diagnostics (`crate::rules`).
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
//! The same engine verifies guarantees ([`verify()`]): "one of these methods is
//! called on this value on every normal path", used for `[Calls]`, owning
//! fields, closures and element-wise disposal loops.

mod obligations;
mod satisfied;
mod verify;

use std::collections::VecDeque;

use rustc_hash::FxHashMap;

use crate::facts::{BodyFacts, BodySummaries, Summaries};
use crate::ir::{BodyId, Callee, FieldRef, Node, NodeId, Stmt, Succ, VarId, VarKind};
use crate::must_call::MustCallType;
use crate::never_returns;
use crate::options::ExceptionModel;
use crate::ownership;
use crate::resource_alias::{Alias, FieldKey, known_value, set_known};

pub use obligations::elements_obligation;
pub use obligations::{Discharges, ObligationKind};
pub use verify::{
    Verdict, closure_disposes_captured, discharged_on_some_path, disposal_of, guarantees,
    takes_elements, verify, verify_in,
};

/// Alias sets of one obligation kept apart at one node before they are merged.
pub const VARIANTS: usize = 4;

pub type ObligationId = u32;

/// A dataflow fact ⟨P, o⟩ plus what the report needs about the path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fact {
    /// P: sorted, without duplicates.
    pub aliases: Vec<Alias>,
    /// o: index into the body's obligations.
    pub obligation: ObligationId,
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
    /// Flags whose value every path of this fact agrees on, sorted
    /// ([`crate::resource_alias::BoolValues`]): `if (owns) s.Dispose();` is
    /// taken only when `owns` may be true for the stream `owns` was set for.
    pub known: Vec<(VarId, bool)>,
}

impl Fact {
    fn new(aliases: Vec<Alias>, obligation: ObligationId) -> Fact {
        Fact {
            aliases,
            obligation,
            exc_from: None,
            exit_via: None,
            wrapper: None,
            dropped: None,
            known: Vec::new(),
        }
    }

    /// Whether this fact stands for every path `other` stands for: as few
    /// aliases and no more knowledge.
    fn covers(&self, other: &Fact) -> bool {
        is_subset(&self.aliases, &other.aliases)
            && self
                .known
                .iter()
                .all(|k| other.known.binary_search(k).is_ok())
    }
    fn key(&self) -> (ObligationId, bool) {
        (self.obligation, self.exc_from.is_some())
    }
    fn has(&self, a: Alias) -> bool {
        self.aliases.binary_search(&a).is_ok()
    }
    fn has_var(&self, v: VarId) -> bool {
        self.has(Alias::Var(v))
    }
}

/// An obligation the analysis tracks: where it starts (the paper's `e`), what
/// discharges it, and which rule reports it.
#[derive(Clone, Debug)]
pub struct Obligation {
    pub kind: ObligationKind,
    /// Where the obligation starts (the allocation, the store site, the entry).
    pub node: NodeId,
    /// The variable that first holds it.
    pub var: Option<VarId>,
    pub must_call: MustCallType,
    /// The resource's type, for messages.
    pub ty: Option<crate::program::TypeId>,
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

/// An obligation lost on some path.
#[derive(Clone, Debug)]
pub struct Event {
    pub obligation: ObligationId,
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
    pub obligation: ObligationId,
    pub at: NodeId,
    pub param: String,
}

/// The result of checking one body.
#[derive(Debug, Default)]
pub struct Outcome {
    pub obligations: Vec<Obligation>,
    pub events: Vec<Event>,
    pub notes: Vec<ConditionNote>,
    /// Whether each obligation was discharged on some path.
    pub discharged: Vec<bool>,
    /// The step budget ran out; the events are incomplete.
    pub aborted: bool,
}

/// What the analysis of one body reads, besides its own summaries (which
/// [`check`] asks for only when the body has an obligation to track).
#[derive(Copy, Clone)]
pub struct Inputs<'c, 'a> {
    pub facts: &'c BodyFacts<'a>,
    pub summaries: &'c Summaries,
    pub exceptions: ExceptionModel,
    /// The most steps the analysis takes (besides its own limit by body size).
    pub budget: usize,
}

struct Entry {
    node: NodeId,
    fact: Fact,
    live: bool,
    /// The previous entry with the same node and key ([`NONE`] ends the list).
    prev: u32,
}

const NONE: u32 = u32::MAX;

/// Statement-level effects collected before the facts move on.
struct Step {
    normal: Option<Fact>,
    exc: Option<Fact>,
    kills: Vec<VarId>,
    path_kill: Option<Alias>,
    gens: Vec<Alias>,
}

struct Engine<'c, 'a> {
    cx: &'c BodyFacts<'a>,
    summaries: &'c Summaries,
    body_summaries: BodySummaries,
    /// Closures' disposals are worked out when a fact meets the closure
    /// rather than taken from `body_summaries` (the verifier's runs, which
    /// seldom meet one), and kept here.
    closures_on_demand: Option<FxHashMap<(BodyId, VarId), bool>>,
    exceptions: ExceptionModel,
    obligations: Vec<Obligation>,
    /// Obligations created at a node while the analysis runs (store sites).
    site_obligations: FxHashMap<(NodeId, bool), ObligationId>,
    arena: Vec<Entry>,
    /// D(s), by node and fact key: the last arena entry of the list of
    /// facts there (linked by `Entry::prev`; dead ones are unlinked as met).
    at: FxHashMap<(NodeId, ObligationId, bool), u32>,
    /// Reused for the live entries of one list.
    same: Vec<u32>,
    /// The body's `using` variables for which settling early is exact ([`guards`]).
    guards: FxHashMap<VarId, NodeId>,
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
/// `summarize` gives the body's summaries; it is called only when the body
/// has obligations (most bodies have none, and summaries cost verifier runs).
pub fn check(inputs: Inputs<'_, '_>, summarize: impl FnOnce() -> BodySummaries) -> Outcome {
    let mut e = Engine::new(inputs);
    e.initial_obligations();
    if !e.obligations.is_empty() {
        e.body_summaries = summarize();
    }
    e.run();
    Outcome {
        obligations: e.obligations,
        events: e.events,
        notes: e.notes,
        discharged: e.discharged,
        aborted: e.aborted,
    }
}

/// Marks an entry dead and frees its aliases (it is never read again).
fn kill(e: &mut Entry) {
    e.live = false;
    e.fact.aliases = Vec::new();
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
    /// Whether closure `body` disposes the body's `var` on every path.
    fn closure_disposes(&mut self, body: BodyId, var: VarId) -> bool {
        let (cx, exceptions) = (self.cx, self.exceptions);
        match &mut self.closures_on_demand {
            None => self.body_summaries.closure_disposes(body, var),
            Some(memo) => *memo
                .entry((body, var))
                .or_insert_with(|| closure_disposes_captured(cx, exceptions, body, var)),
        }
    }

    fn new(inputs: Inputs<'c, 'a>) -> Engine<'c, 'a> {
        let n = inputs.facts.body.nodes.len();
        Engine {
            cx: inputs.facts,
            summaries: inputs.summaries,
            body_summaries: BodySummaries::default(),
            closures_on_demand: None,
            exceptions: inputs.exceptions,
            obligations: Vec::new(),
            site_obligations: FxHashMap::default(),
            arena: Vec::new(),
            at: FxHashMap::default(),
            same: Vec::new(),
            guards: guards(inputs.facts),
            work: VecDeque::new(),
            events: Vec::new(),
            notes: Vec::new(),
            discharged: Vec::new(),
            steps: 0,
            soft_budget: 32 * n + 4096,
            hard_budget: (400 * n + 200_000).min(inputs.budget),
            variants: VARIANTS,
            aborted: false,
        }
    }

    fn new_obligation(
        &mut self,
        kind: ObligationKind,
        node: NodeId,
        var: Option<VarId>,
        must_call: MustCallType,
        ty: Option<crate::program::TypeId>,
    ) -> ObligationId {
        self.obligations.push(Obligation {
            kind,
            node,
            var,
            must_call,
            ty,
        });
        self.discharged.push(false);
        (self.obligations.len() - 1) as ObligationId
    }

    /// The obligation of a store site (an owning field's new value, or a
    /// collection's elements), created once per site.
    fn site_obligation(&mut self, node: NodeId, kind: ObligationKind, from: &Fact) -> ObligationId {
        let element = kind == ObligationKind::Element;
        if let Some(&o) = self.site_obligations.get(&(node, element)) {
            return o;
        }
        let src = &self.obligations[from.obligation as usize];
        let (must_call, ty) = (src.must_call.clone(), src.ty);
        let o = self.new_obligation(kind, node, None, must_call, ty);
        self.site_obligations.insert((node, element), o);
        o
    }

    fn discharges(&self, o: ObligationId) -> Discharges {
        self.obligations[o as usize].kind.discharges()
    }

    fn discharge(&mut self, o: ObligationId) {
        self.discharged[o as usize] = true;
    }

    // ---- the fixed point ---------------------------------------------------

    /// Adds a fact to D(node) unless a fact of the same obligation with fewer
    /// aliases is there; merges variants past the limit (see the module docs).
    /// A new fact at `at`, knowing what every path to `at` knows of the flags.
    fn born(&self, at: NodeId, aliases: Vec<Alias>, obligation: ObligationId) -> Fact {
        let mut fact = Fact::new(aliases, obligation);
        fact.known = self.cx.bools.known_before(at);
        fact
    }

    fn insert(&mut self, node: NodeId, mut fact: Fact) {
        if node.index() >= self.cx.body.nodes.len() {
            return;
        }
        if self.settled_by_guard(&fact) {
            return self.discharge(fact.obligation);
        }
        let (o, exc) = fact.key();
        let arena = &mut self.arena;
        let head = self.at.entry((node, o, exc)).or_insert(NONE);
        let same = &mut self.same;
        same.clear();
        let mut id = *head;
        while id != NONE {
            let e = &arena[id as usize];
            if e.live {
                same.push(id);
            }
            id = e.prev;
        }
        if same.iter().any(|&id| arena[id as usize].fact.covers(&fact)) {
            return;
        }
        for &id in same.iter() {
            if fact.covers(&arena[id as usize].fact) {
                kill(&mut arena[id as usize]);
            }
        }
        same.retain(|&id| arena[id as usize].live);
        if same.len() >= self.variants {
            let merged = same.iter().fold(fact.aliases.clone(), |acc, &id| {
                intersect(&acc, &arena[id as usize].fact.aliases)
            });
            let known: Vec<(VarId, bool)> = fact
                .known
                .iter()
                .filter(|k| {
                    same.iter()
                        .all(|&id| arena[id as usize].fact.known.binary_search(k).is_ok())
                })
                .copied()
                .collect();
            // Disjoint holders on different paths have nothing in common: keep
            // them apart rather than invent a loss at the join.
            if !merged.is_empty() {
                for &id in same.iter() {
                    kill(&mut arena[id as usize]);
                }
                same.clear();
                fact.aliases = merged;
                fact.known = known;
            }
        }
        // Relink the live entries (oldest first) and append the new one.
        let mut prev = NONE;
        for &id in same.iter().rev() {
            arena[id as usize].prev = prev;
            prev = id;
        }
        let id = arena.len() as u32;
        arena.push(Entry {
            node,
            fact,
            live: true,
            prev,
        });
        *head = id;
        self.work.push_back(id);
    }

    /// Whether a fact is held by a `using` variable alone whose disposal
    /// discharges it: every way on passes that disposal, and until then nothing
    /// can lose, store or hand on the value ([`guards`]), so walking it to the
    /// end of the scope would end the same way. This keeps a method with many
    /// `using` declarations linear rather than quadratic.
    fn settled_by_guard(&self, fact: &Fact) -> bool {
        let [Alias::Var(u)] = fact.aliases[..] else {
            return false;
        };
        let Some(&disposal) = self.guards.get(&u) else {
            return false;
        };
        if !self.discharges(fact.obligation).calls {
            return false;
        }
        let must_call = &self.obligations[fact.obligation as usize]
            .must_call
            .must_call;
        let own = self.cx.var_obligation(u);
        self.cx.called(disposal).iter().any(|cm| {
            cm.target == Alias::Var(u)
                && cm.even_if_throws
                && (own.is_some_and(|o| cm.called.discharges(&o.must_call))
                    || cm.called.discharges(must_call))
        })
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

    /// One fact at one statement: the body of Algorithm 1's loop.
    fn process(&mut self, id: u32) {
        let (n, fact) = {
            let e = &self.arena[id as usize];
            (e.node, e.fact.clone())
        };
        let body = self.cx.body;
        if n == body.exit || n == body.exc_exit {
            return self.at_exit(&fact, n == body.exc_exit);
        }
        let node = body.node(n);
        let mut step = self.mc_satisfied_after(n, node, &fact);
        if let Some(f) = step.normal.take() {
            let f = self.kill_gen(n, node, &fact, f, &step);
            if !f.aliases.is_empty() {
                self.flow_normal(n, f);
            }
        }
        if let Some(f) = step.exc {
            self.flow_exc(n, node, f);
        }
    }

    /// N <- (P - kill(s)) + gen(P, s); reports the fact as lost (`lost()`) when
    /// N is empty because `s` killed its last alias.
    fn kill_gen(
        &mut self,
        n: NodeId,
        node: &Node,
        before: &Fact,
        mut f: Fact,
        step: &Step,
    ) -> Fact {
        let cx = self.cx;
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
            (Stmt::ScopeEnd(_), Alias::Var(v) | Alias::Path(v, _)) => Loss::OutOfScope(v),
            _ => Loss::Overwritten(a),
        };
        if f.aliases.iter().any(named) {
            f.dropped = None;
        } else if let Some(a) = last_named {
            f.dropped = Some((n, loss_of(a)));
        }
        if f.aliases.is_empty()
            && let Some(last) = last
        {
            let (at, loss) = f.dropped.clone().unwrap_or((n, loss_of(last)));
            self.lost(&f, before, at, loss, last_named.unwrap_or(last));
        }
        f
    }

    /// The last alias of a fact is gone at `at`: the obligation leaks there.
    fn lost(&mut self, f: &Fact, before: &Fact, at: NodeId, loss: Loss, holder: Alias) {
        self.event_at(f.obligation, at, loss, Some(holder), f.wrapper, f.exc_from);
        if let Some(ev) = self.events.last_mut() {
            ev.paths = paths_of(before);
        }
    }

    /// Propagates a fact along the normal edges of `n`, refined by the branch:
    /// on the true edge of `x == null` the value is null and nothing is owed
    /// (paper Fig. 1); a `bool` edge known infeasible is not taken.
    fn flow_normal(&mut self, n: NodeId, mut fact: Fact) {
        let cx = self.cx;
        let node = cx.body.node(n);
        cx.bools.pass(&node.stmt, &mut fact.known);
        match &node.succ {
            Succ::None => {}
            Succ::Goto(t) => self.insert(*t, fact),
            Succ::Branch {
                cond,
                if_true,
                if_false,
            } => {
                use crate::ir::Cond;
                let known = |v: VarId| known_value(&fact.known, v);
                let take_true = match cond {
                    Cond::IsNull(x) => {
                        !fact.has_var(*x)
                            && !self.guard_is_null(*x, &fact)
                            && cx.not_null.binary_search(x).is_err()
                    }
                    Cond::Bool(v) => {
                        cx.bools.edge_feasible(cx.body, n, *v, true)
                            && known(*v) != Some(false)
                            && !self.owes_nothing_on(*v, true, &fact)
                    }
                    Cond::Opaque => true,
                };
                let take_false = match cond {
                    Cond::Bool(v) => {
                        cx.bools.edge_feasible(cx.body, n, *v, false)
                            && known(*v) != Some(true)
                            && !self.unset_when_false(*v, &fact)
                            && !self.owes_nothing_on(*v, false, &fact)
                    }
                    _ => true,
                };
                // Each edge knows the flag it tested.
                let edge = |fact: &Fact, value: bool| {
                    let mut f = fact.clone();
                    if let Cond::Bool(v) = cond
                        && cx.bools.tracks(*v)
                    {
                        set_known(&mut f.known, *v, Some(value));
                    }
                    f
                };
                if take_true {
                    self.insert(*if_true, edge(&fact, true));
                }
                if take_false {
                    self.insert(*if_false, edge(&fact, false));
                }
            }
            Succ::Multi(targets) => {
                for t in targets {
                    self.insert(*t, fact.clone());
                }
            }
        }
    }

    /// Whether the `value` edge of a branch on `v` owes nothing for `fact`,
    /// as the null edge of `x == null` does: `v` reads a `[ReleasedIf(value)]`
    /// property of a value `fact` holds (`if (h.IsAllocated) h.Free();`), or
    /// an ownership flag of `this` saying the object does not own what its
    /// fields hold (`if (ownsStream) stream.Dispose(); stream = null;`), or
    /// a flag under which the field whose value `fact` is holds nothing owed
    /// ([`crate::flag_guards`]).
    fn owes_nothing_on(&self, v: VarId, value: bool, fact: &Fact) -> bool {
        let cx = self.cx;
        let [def] = cx.defs.all(v) else {
            return false;
        };
        let (base, flag) = match &cx.body.node(*def).stmt {
            Stmt::Load {
                base: Some(base),
                field: FieldRef::Known(f),
                ..
            } => (*base, *f),
            // A getter of a `[ReleasedIf]` property (`override bool IsInvalid`).
            Stmt::Call(call) if call.dst == Some(v) => {
                let Callee::Method(m) = call.callee else {
                    return false;
                };
                return call.receiver.is_some_and(|r| fact.has_var(r))
                    && cx.program.released_if_of_getter(m) == Some(value);
            }
            _ => return false,
        };
        let field = cx.program.field(flag);
        if field.released_if == Some(value) && fact.has_var(base) {
            return true;
        }
        if Some(base) != cx.this {
            return false;
        }
        let kind = &self.obligations[fact.obligation as usize].kind;
        if field.ownership_flag == Some(!value) && matches!(kind, ObligationKind::FieldValue(_)) {
            return true;
        }
        // The value of a field (or a guarantee about it) the flag says owes nothing.
        matches!(kind, ObligationKind::FieldValue(_) | ObligationKind::Target)
            && fact.aliases.iter().any(|a| {
                matches!(a, Alias::Path(b, FieldKey::Known(g))
                    if *b == base
                        && cx.program.field(*g).owes_nothing_when.contains(&(flag, value)))
            })
    }

    /// Whether `x == null` says the field whose value `fact` is (or a
    /// guarantee is about) holds nothing: `x` reads a field of `this` that
    /// guards it (`if (_cts == null) { _cts = ..; _reg = ..; }`, see
    /// [`crate::field_guards`]).
    fn guard_is_null(&self, x: VarId, fact: &Fact) -> bool {
        let cx = self.cx;
        if !matches!(
            self.obligations[fact.obligation as usize].kind,
            ObligationKind::FieldValue(_) | ObligationKind::Target
        ) {
            return false;
        }
        let Some(this) = cx.this else {
            return false;
        };
        let [def] = cx.defs.all(x) else {
            return false;
        };
        let Stmt::Load {
            base: Some(b),
            field: FieldRef::Known(f),
            ..
        } = &cx.body.node(*def).stmt
        else {
            return false;
        };
        *b == this
            && fact.aliases.iter().any(|a| {
                matches!(a, Alias::Path(p, FieldKey::Known(g))
                    if *p == this && cx.program.field(*g).guards.contains(f))
            })
    }

    /// Whether `fact` is the `out` value of a try-pattern call whose `bool`
    /// result is `v`: on `false` the callee gave nothing.
    fn unset_when_false(&self, v: VarId, fact: &Fact) -> bool {
        let cx = self.cx;
        let ob = &self.obligations[fact.obligation as usize];
        if ob.kind != ObligationKind::OutArg {
            return false;
        }
        let Stmt::Call(call) = &cx.body.node(ob.node).stmt else {
            return false;
        };
        call.dst == Some(v)
            && call.args.iter().any(|a| {
                a.value.var() == ob.var
                    && ownership::callee_param(cx.program, call, a.param)
                        .is_some_and(|p| p.unset_when_false)
            })
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
        let believed = never_returns::always_throws(self.cx.body, n)
            || !self.is_disposal_call(node)
                && match self.exceptions {
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

    /// A fact reaching an exit: a leak unless an alias still hands the value on.
    fn at_exit(&mut self, fact: &Fact, exceptional_exit: bool) {
        let cx = self.cx;
        let kind = self.obligations[fact.obligation as usize].kind.clone();
        if exceptional_exit && !kind.is_leak() {
            return;
        }
        if !exceptional_exit && kind != ObligationKind::Target {
            let discharges = kind.discharges();
            // Held by a variable the caller reads after the call.
            let hands_out = |v: VarId| match cx.body.vars.get(v.index()).map(|v| &v.kind) {
                Some(VarKind::Param(i)) => {
                    discharges.hands_out && ownership::param_hands_out(cx.method, cx.body, *i)
                }
                Some(VarKind::Captured) => true,
                _ => false,
            };
            let handed_out = fact.aliases.iter().any(|a| match *a {
                Alias::Var(v) => hands_out(v),
                // Still held by an owning field of this object.
                Alias::Path(b, FieldKey::Known(f)) if Some(b) == cx.this => {
                    cx.program.get_field(f).is_some_and(|d| d.is_owning())
                }
                // A member of a tuple or object handed to the caller.
                Alias::Path(b, _) => hands_out(b),
            });
            if handed_out {
                return self.discharge(fact.obligation);
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
        self.event_at(
            fact.obligation,
            at,
            loss,
            holder,
            fact.wrapper,
            fact.exc_from,
        );
        if let Some(ev) = self.events.last_mut() {
            ev.paths = paths_of(fact);
        }
    }

    fn event_at(
        &mut self,
        obligation: ObligationId,
        at: NodeId,
        loss: Loss,
        holder: Option<Alias>,
        wrapper: Option<NodeId>,
        exc_from: Option<NodeId>,
    ) {
        self.events.push(Event {
            obligation,
            at,
            loss,
            exc_from,
            holder,
            wrapper,
            paths: Vec::new(),
        });
    }
}

/// The body's `guarded` variables (with a disposal call) that a fact held by
/// them alone can meet only where nothing is reported, stored or handed on:
/// defined once, and otherwise only a call's receiver (not one whose result
/// aliases it), tested for null, captured, returned, yielded, thrown, escaped,
/// ended, or the base of a field access. Any use as a value (an argument, the
/// source of a copy or store) disqualifies the variable.
fn guards(cx: &BodyFacts<'_>) -> FxHashMap<VarId, NodeId> {
    let body = cx.body;
    if body.guarded.is_empty() {
        return FxHashMap::default();
    }
    let mut guards: FxHashMap<VarId, NodeId> = body.guarded.iter().copied().collect();
    let mut defs: FxHashMap<VarId, u32> = FxHashMap::default();
    for node in &body.nodes {
        let mut used = Vec::new();
        let mut defined = Vec::new();
        match &node.stmt {
            Stmt::Copy { dst, src } => {
                defined.push(*dst);
                used.extend(src.var());
            }
            Stmt::Opaque { dst, .. } | Stmt::Load { dst, .. } | Stmt::Element { dst, .. } => {
                defined.push(*dst)
            }
            Stmt::Store { src, .. } | Stmt::StoreElement { src, .. } => used.extend(src.var()),
            Stmt::Call(call) => {
                defined.extend(call.dst);
                used.extend(call.args.iter().filter_map(|a| a.value.var()));
                if let Callee::Delegate(d) = &call.callee {
                    used.push(*d);
                }
                let aliases_receiver = match &call.callee {
                    Callee::Method(m) => cx
                        .program
                        .get_method(*m)
                        .is_some_and(|m| m.this_must_call_alias.is_some()),
                    _ => false,
                };
                if aliases_receiver && call.dst.is_some() {
                    used.extend(call.receiver);
                }
            }
            Stmt::Closure { dst, .. } => defined.extend(*dst),
            Stmt::Nop
            | Stmt::Return(_)
            | Stmt::Yield(_)
            | Stmt::Throw(_)
            | Stmt::Escape(_)
            | Stmt::ScopeEnd(_) => {}
        }
        for v in used {
            guards.remove(&v);
        }
        for v in defined {
            *defs.entry(v).or_default() += 1;
        }
    }
    guards.retain(|v, _| defs.get(v) == Some(&1));
    guards
}

/// The access paths among a fact's aliases (non-owning fields it was stored in).
fn paths_of(fact: &Fact) -> Vec<Alias> {
    fact.aliases
        .iter()
        .filter(|a| matches!(a, Alias::Path(..)))
        .copied()
        .collect()
}

#[cfg(test)]
mod collection_tests;
#[cfg(test)]
mod tests;
