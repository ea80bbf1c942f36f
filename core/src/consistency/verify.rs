//! The verifier: Algorithm 1 run for one value with the obligation kind
//! [`ObligationKind::Target`], which only a must-call call (or a hand-off to an
//! `[Owning]` parameter) discharges. It answers "does this method call one of
//! these methods on this value on every normal path?", for `[Calls]` (RLC0006),
//! owning fields (RLC0003), and the summaries of closures and disposal loops.

use rustc_hash::FxHashMap;

use super::obligations::ObligationKind;
use super::{Engine, Fact, Inputs, Loss};
use crate::facts::{BodyFacts, ProgramFacts, Summaries};
use crate::ir::NodeId;
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
    let summaries = Summaries::default();
    let e = run_target(facts, &summaries, exceptions, seeds, must_call);
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
    // A guarantee never consults the program's summaries: only calls and
    // closures discharge it.
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
    for (node, alias) in seeds {
        e.insert(*node, Fact::new(vec![*alias], o));
    }
    e.run();
    e
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
