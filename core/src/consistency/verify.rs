//! The verifier: Algorithm 1 run for one value with the obligation kind
//! [`ObligationKind::Target`], which only a must-call call (or a hand-off to an
//! `[Owning]` parameter, or a closure that disposes it) discharges. It answers
//! "does this method call one of these methods on this value on every normal
//! path?", for `[Calls]` (RLC0006), owning fields (RLC0003), and the summaries
//! of closures and disposal loops; whether a closure disposes what it captured
//! is answered here too, for the summaries and for the verifier's own runs.

use rustc_hash::FxHashMap;

use super::obligations::ObligationKind;
use super::{Engine, Fact, Inputs, Loss};
use crate::facts::{BodyFacts, ProgramFacts, Summaries};
use crate::ir::{BodyId, NodeId, Operand, Stmt, VarId, VarKind};
use crate::must_call::MustCallType;
use crate::options::ExceptionModel;
use crate::program::{MethodId, MustCall, Provenance, Target};
use crate::resource_alias::{Alias, FieldKey};

/// The result of verifying a guarantee.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Guaranteed,
    /// A path where it does not hold: where it ends, and how.
    Fails(NodeId, Loss),
    /// The analysis gave up (budget).
    Unknown,
}

/// Verifies that on every normal path from each seed (a node and the alias it
/// holds there) one of `must_call` is called on the value before it is lost or
/// the method returns.
pub fn verify(
    facts: &BodyFacts<'_>,
    exceptions: ExceptionModel,
    seeds: &[(NodeId, Alias)],
    must_call: &MustCall,
) -> Verdict {
    verify_in(facts, &Summaries::default(), exceptions, seeds, must_call)
}

/// [`verify`], where a store into a collection field the program's
/// `summaries` find owning hands the value to an owner.
pub fn verify_in(
    facts: &BodyFacts<'_>,
    summaries: &Summaries,
    exceptions: ExceptionModel,
    seeds: &[(NodeId, Alias)],
    must_call: &MustCall,
) -> Verdict {
    let e = run_target(facts, summaries, exceptions, seeds, must_call);
    if e.aborted {
        return Verdict::Unknown;
    }
    match e.events.into_iter().next() {
        Some(ev) => Verdict::Fails(ev.at, ev.loss),
        None => Verdict::Guaranteed,
    }
}

/// Whether some normal path from the seeds calls one of `must_call` on the
/// value (or hands it to an `[Owning]` parameter): the optimistic question of
/// inference, answered flow-sensitively, so that a parameter reassigned
/// before the disposal is not taken as disposed.
pub fn discharged_on_some_path(
    facts: &BodyFacts<'_>,
    exceptions: ExceptionModel,
    seeds: &[(NodeId, Alias)],
    must_call: &MustCall,
) -> bool {
    let summaries = Summaries::default();
    let e = run_target(facts, &summaries, exceptions, seeds, must_call);
    e.aborted || e.discharged.first().copied().unwrap_or(false)
}

/// Algorithm 1 for one [`ObligationKind::Target`] obligation seeded at `seeds`.
fn run_target<'c, 'a>(
    facts: &'c BodyFacts<'a>,
    summaries: &'c Summaries,
    exceptions: ExceptionModel,
    seeds: &[(NodeId, Alias)],
    must_call: &MustCall,
) -> Engine<'c, 'a> {
    // Only calls, closures and hand-offs to owners discharge a guarantee.
    let mut e = Engine::new(Inputs {
        facts,
        summaries,
        exceptions,
        budget: crate::options::DEFAULT_METHOD_BUDGET,
    });
    let target = MustCallType {
        must_call: must_call.clone(),
        declared_by: None,
        provenance: Provenance::Default,
        harmless: None,
    };
    // A closure that disposes what it captured discharges it (see
    // `ObligationKind::Target`).
    e.closures_on_demand = Some(FxHashMap::default());
    let o = e.new_obligation(ObligationKind::Target, facts.body.entry, None, target, None);
    // Seeds at one node are aliases of one value there: one fact.
    let mut at: Vec<(NodeId, Vec<Alias>)> = Vec::new();
    for (node, alias) in seeds {
        match at.iter_mut().find(|(n, _)| n == node) {
            Some((_, aliases)) => aliases.push(*alias),
            None => at.push((*node, vec![*alias])),
        }
    }
    for (node, mut aliases) in at {
        aliases.sort();
        aliases.dedup();
        e.insert(node, Fact::new(aliases, o));
    }
    e.run();
    e
}

/// Whether every normal path of the body takes over the elements of its
/// method's parameter `i` (as the checker reads an `[Owning]` collection
/// parameter): disposes them element-wise, hands each to an owner, or hands
/// the collection on. What inference asks before proposing `[Owning]` there.
pub fn takes_elements(
    inputs: Inputs<'_, '_>,
    i: u32,
    summarize: impl FnOnce() -> crate::facts::BodySummaries,
) -> bool {
    let Some(ob) = super::obligations::elements_obligation(inputs.facts, i) else {
        return false;
    };
    let mut e = Engine::new(inputs);
    e.owning_elements(i, ob.clone());
    e.body_summaries = summarize();
    e.run();
    !e.aborted && !e.obligations.is_empty() && e.events.is_empty()
}

/// Whether the body of `method` calls one of `must_call` on `target` on every
/// normal path (what a `[Calls(target, ..)]` on it promises); a
/// `Dispose(bool disposing)` body is read with `disposing == true`.
pub fn guarantees(
    pf: &ProgramFacts<'_>,
    exceptions: ExceptionModel,
    method: MethodId,
    target: &Target,
    must_call: &MustCall,
) -> Verdict {
    let Some(facts) = pf.method_facts(method) else {
        return Verdict::Unknown;
    };
    let alias = match target {
        Target::This => facts.this.map(Alias::Var),
        Target::Field(f) => facts.this.map(|t| Alias::Path(t, FieldKey::Known(*f))),
        Target::Param(i) => facts.body.param_var(*i).map(Alias::Var),
    };
    let Some(alias) = alias else {
        return Verdict::Unknown;
    };
    verify(&facts, exceptions, &[(facts.body.entry, alias)], must_call)
}

/// The disposal methods to look for on a value of this variable's type.
pub fn disposal_of(facts: &BodyFacts<'_>, var: VarId) -> MustCall {
    facts.var_obligation(var).map_or_else(
        || MustCall::of(facts.program.conventions.disposal_methods.iter().cloned()),
        |o| o.must_call.clone(),
    )
}

/// Whether the lambda or local function `closure` disposes the enclosing
/// body's `var` (captured by name) on every normal path.
pub fn closure_disposes_captured(
    facts: &BodyFacts<'_>,
    exceptions: ExceptionModel,
    closure: BodyId,
    var: VarId,
) -> bool {
    let Some(outer) = facts.body.vars.get(var.index()) else {
        return false;
    };
    if registered_for_a_scope(facts, closure) {
        return false;
    }
    let pf = facts.program_facts();
    let Some(inner) = pf.body_facts(closure, &[]) else {
        return false;
    };
    let Some(captured) = inner
        .body
        .vars
        .iter()
        .position(|v| v.kind == VarKind::Captured && v.name == outer.name)
    else {
        return false;
    };
    let must_call = disposal_of(facts, var);
    let seed = [(inner.body.entry, Alias::Var(VarId(captured as u32)))];
    verify(&inner, exceptions, &seed, &must_call) == Verdict::Guaranteed
}

/// Whether the closure is handed to a call whose result the body disposes
/// (`using (token.Register(s.Dispose)) { .. }`): it runs only if the
/// registration fires before that, so it disposes nothing for sure.
fn registered_for_a_scope(facts: &BodyFacts<'_>, closure: BodyId) -> bool {
    let body = facts.body;
    let Some(made) = body.nodes.iter().find_map(|n| match &n.stmt {
        Stmt::Closure { dst, body: b, .. } if *b == closure => *dst,
        _ => None,
    }) else {
        return false;
    };
    let disposed = |r: VarId| {
        let aliases: Vec<VarId> = std::iter::once(r)
            .chain(body.nodes.iter().filter_map(|n| match &n.stmt {
                Stmt::Copy {
                    dst,
                    src: Operand::Var(s),
                } if *s == r => Some(*dst),
                _ => None,
            }))
            .collect();
        body.nodes.iter().any(|n| match &n.stmt {
            Stmt::Call(c) => {
                c.receiver.is_some_and(|v| aliases.contains(&v))
                    && c.callee_name(facts.program)
                        .is_some_and(|m| facts.program.conventions.is_disposal_method(m))
            }
            _ => false,
        })
    };
    body.nodes.iter().any(|n| match &n.stmt {
        Stmt::Call(c) => {
            c.args.iter().any(|a| a.value == Operand::Var(made)) && c.dst.is_some_and(disposed)
        }
        _ => false,
    })
}
