//! Fields that hold a value only while another field of the object is
//! non-null: a lazy initialisation that fills two fields under one test
//! (`if (_cts == null) { _cts = new ..; _reg = token.Register(..); }`), a
//! connection and its endpoint set and cleared together. A `null` test of
//! the guard then says the guarded field is empty too, for checking (the old
//! value owes nothing on that edge) and for `[CreatesMustCallFor]` inference
//! alike. A fact the code states, derived once from the bodies.

use rustc_hash::{FxHashMap, FxHashSet};

use crate::ir::{Bodies, Body, Callee, Cond, FieldRef, NodeId, Operand, Stmt, Succ, VarId};
use crate::program::{Const, FieldId, MethodId, Program};

/// Sets [`crate::program::FieldDef::guards`] for the fields `bodies` store
/// into: `f` guards `g` when
/// - every store of a value into `this.g` (in constructors too) has a store
///   of a value that is not `null` into `this.f` on the same straight run of
///   statements, or on every path to it, so `g` is filled only together with
///   `f` (`_cts = new ..; if (..) _cts.Cancel(); else _reg = ..;`); a call of
///   a helper on `this` that fills `f` on every path counts as a store
///   (`_sub = ..; UpdateSnapshot();`, a `[MemberNotNull]` helper);
/// - every store of `null` into `this.f` is in a body that also releases `g`
///   (disposes it or stores `null` into it), so `f` is emptied only after `g`;
/// - neither is stored through another object than `this` (where the run
///   cannot be seen).
pub fn derive(program: &mut Program, bodies: &Bodies) {
    // Per guarded field: the fields every one of its stores so far came with.
    let mut guards: FxHashMap<FieldId, Vec<FieldId>> = FxHashMap::default();
    let mut unseen: FxHashSet<FieldId> = FxHashSet::default();
    // Per body: the fields it empties, and the fields it releases.
    let mut clears: Vec<(Vec<FieldId>, FxHashSet<FieldId>)> = Vec::new();
    let helpers = helper_fills(program, bodies);
    for body in bodies.iter() {
        let this = body.this_var();
        let runs = straight_runs(body);
        // The fields given a value that is not `null` on each run.
        let mut filled: FxHashMap<NodeId, Vec<FieldId>> = FxHashMap::default();
        for (i, node) in body.nodes.iter().enumerate() {
            let fills = filled_by(&node.stmt, this, &helpers);
            filled.entry(runs[i]).or_default().extend(fills);
        }
        let before = FilledBefore::compute(body, this, &helpers);
        let mut emptied: Vec<FieldId> = Vec::new();
        let mut released: FxHashSet<FieldId> = FxHashSet::default();
        for (i, node) in body.nodes.iter().enumerate() {
            let Stmt::Store {
                base,
                field: FieldRef::Known(g),
                src,
            } = &node.stmt
            else {
                continue;
            };
            if base.is_none() || *base != this {
                unseen.insert(*g);
                continue;
            }
            if is_null(src) {
                emptied.push(*g);
                released.insert(*g);
                continue;
            }
            let with: Vec<FieldId> = filled
                .get(&runs[i])
                .into_iter()
                .flatten()
                .copied()
                .chain(before.filled_at(i))
                .filter(|f| f != g)
                .collect();
            guards
                .entry(*g)
                .and_modify(|gs| gs.retain(|f| with.contains(f)))
                .or_insert(with);
        }
        released.extend(crate::ownership::disposed_this_fields(program, body));
        if !emptied.is_empty() {
            clears.push((emptied, released));
        }
    }
    for (emptied, released) in &clears {
        for (g, gs) in guards.iter_mut() {
            if !released.contains(g) {
                gs.retain(|f| !emptied.contains(f));
            }
        }
    }
    for (g, mut gs) in guards {
        gs.retain(|f| !unseen.contains(f));
        if unseen.contains(&g) {
            gs.clear();
        }
        if let Some(def) = program.fields.get_mut(g.index()) {
            def.guards = gs;
        }
    }
}

/// `this.f = src`.
fn this_store(stmt: &Stmt, this: Option<VarId>) -> Option<(FieldId, &Operand)> {
    match stmt {
        Stmt::Store {
            base: Some(b),
            field: FieldRef::Known(f),
            src,
        } if Some(*b) == this => Some((*f, src)),
        _ => None,
    }
}

fn is_null(src: &Operand) -> bool {
    matches!(src, Operand::Const(Const::Null))
}

/// The fields of `this` a statement gives a value that is not `null`: a store,
/// or a call of a helper on `this` that fills them on every path.
fn filled_by<'a>(
    stmt: &'a Stmt,
    this: Option<VarId>,
    helpers: &'a FxHashMap<MethodId, Vec<FieldId>>,
) -> impl Iterator<Item = FieldId> + 'a {
    let stored = this_store(stmt, this).filter(|(_, src)| !is_null(src));
    let called = match stmt {
        Stmt::Call(call) if this.is_some() && call.receiver == this => match call.callee {
            Callee::Method(m) => helpers.get(&m),
            _ => None,
        },
        _ => None,
    };
    stored
        .map(|(f, _)| f)
        .into_iter()
        .chain(called.into_iter().flatten().copied())
}

/// The fields each instance method that binds exactly (not virtual) fills on
/// every path to its normal exit; helpers of helpers are seen up to a few
/// levels deep (later rounds revisit only the bodies that call a helper).
fn helper_fills(program: &Program, bodies: &Bodies) -> FxHashMap<MethodId, Vec<FieldId>> {
    let mut pending: Vec<(MethodId, &Body)> = bodies
        .iter()
        .filter_map(|body| {
            let m = body.method?;
            let exact = program
                .get_method(m)
                .is_some_and(|d| !d.is_static && !d.is_virtual && !d.is_abstract && !d.is_async);
            (exact && !body.is_iterator && body.this_var().is_some()).then_some((m, body))
        })
        .collect();
    let mut helpers: FxHashMap<MethodId, Vec<FieldId>> = FxHashMap::default();
    for _ in 0..3 {
        let mut changed = false;
        for &(m, body) in &pending {
            let before = FilledBefore::compute(body, body.this_var(), &helpers);
            let fills: Vec<FieldId> = before.filled_at(body.exit.index()).collect();
            if helpers
                .get(&m)
                .map_or(!fills.is_empty(), |old| *old != fills)
            {
                helpers.insert(m, fills);
                changed = true;
            }
        }
        if !changed {
            break;
        }
        let calls_a_helper = |body: &Body| {
            body.nodes.iter().any(|n| {
                matches!(&n.stmt, Stmt::Call(c) if c.receiver == body.this_var()
                    && matches!(c.callee, Callee::Method(h) if helpers.contains_key(&h)))
            })
        };
        pending.retain(|(_, body)| calls_a_helper(body));
    }
    helpers
}

/// The first node of the straight run of statements each node is on: runs
/// are joined where a node's only successor has no other predecessor
/// (exceptional edges count as predecessors: a handler starts a run).
fn straight_runs(body: &Body) -> Vec<NodeId> {
    let n = body.nodes.len();
    let mut preds = vec![0u32; n];
    for node in &body.nodes {
        for t in node
            .succ
            .targets()
            .chain(node.exc.as_ref().map(|e| e.target))
        {
            if let Some(p) = preds.get_mut(t.index()) {
                *p += 1;
            }
        }
    }
    let mut prev: Vec<Option<NodeId>> = vec![None; n];
    for (i, node) in body.nodes.iter().enumerate() {
        if let Succ::Goto(t) = node.succ
            && preds.get(t.index()) == Some(&1)
            && t.index() != i
        {
            prev[t.index()] = Some(NodeId(i as u32));
        }
    }
    // Each node's run start, by walking back once per run (a cycle of
    // single-successor nodes is its own run, started where the walk began).
    let mut start: Vec<Option<NodeId>> = vec![None; n];
    let mut walked: Vec<usize> = vec![usize::MAX; n];
    for i in 0..n {
        if start[i].is_some() {
            continue;
        }
        let mut chain = vec![NodeId(i as u32)];
        walked[i] = i;
        let found = loop {
            let head = chain[chain.len() - 1];
            match prev[head.index()] {
                Some(p) if start[p.index()].is_some() => break start[p.index()],
                Some(p) if walked[p.index()] != i => {
                    walked[p.index()] = i;
                    chain.push(p);
                }
                Some(_) => break Some(NodeId(i as u32)),
                None => break Some(head),
            }
        };
        for c in chain {
            start[c.index()] = found;
        }
    }
    start
        .into_iter()
        .enumerate()
        .map(|(i, s)| s.unwrap_or(NodeId(i as u32)))
        .collect()
}

/// The fields of `this` stored a value that is not `null` on every path from
/// the entry to each node (and not emptied since), or tested not `null` on the
/// way (`if (_f is null) { .. throw; } return;`), for the first 64 fields the
/// body fills.
struct FilledBefore {
    fields: Vec<FieldId>,
    at: Vec<u64>,
}

impl FilledBefore {
    fn compute(
        body: &Body,
        this: Option<VarId>,
        helpers: &FxHashMap<MethodId, Vec<FieldId>>,
    ) -> FilledBefore {
        let mut fields: Vec<FieldId> = Vec::new();
        for node in &body.nodes {
            for f in filled_by(&node.stmt, this, helpers) {
                if !fields.contains(&f) && fields.len() < 64 {
                    fields.push(f);
                }
            }
        }
        let n = body.nodes.len();
        if fields.is_empty() || body.entry.index() >= n {
            return FilledBefore {
                fields,
                at: vec![0; n],
            };
        }
        let bit = |f: FieldId| fields.iter().position(|g| *g == f).map(|i| 1u64 << i);
        let loaded: FxHashMap<VarId, FieldId> = crate::ownership::this_field_loads(body).collect();
        // Must-analysis: unreached nodes start full, the entry empty.
        let mut at = vec![u64::MAX; n];
        let mut reached = vec![false; n];
        at[body.entry.index()] = 0;
        reached[body.entry.index()] = true;
        let mut work = vec![body.entry];
        while let Some(v) = work.pop() {
            let node = body.node(v);
            let mut out = at[v.index()];
            if let Some((f, src)) = this_store(&node.stmt, this)
                && is_null(src)
                && let Some(b) = bit(f)
            {
                out &= !b;
            }
            for b in filled_by(&node.stmt, this, helpers).filter_map(bit) {
                out |= b;
            }
            let exc = node.exc.as_ref().map(|e| (e.target, at[v.index()]));
            // The edge on which a loaded field tested for `null` is not.
            let not_null = match &node.succ {
                Succ::Branch {
                    cond: Cond::IsNull(t),
                    if_true,
                    if_false,
                } if if_true != if_false => {
                    loaded.get(t).and_then(|f| bit(*f)).map(|b| (*if_false, b))
                }
                _ => None,
            };
            for (t, mut state) in node.succ.targets().map(|t| (t, out)).chain(exc) {
                if let Some((edge, b)) = not_null
                    && edge == t
                {
                    state |= b;
                }
                let Some(slot) = at.get_mut(t.index()) else {
                    continue;
                };
                let joined = if reached[t.index()] {
                    *slot & state
                } else {
                    state
                };
                if !reached[t.index()] || joined != *slot {
                    *slot = joined;
                    reached[t.index()] = true;
                    work.push(t);
                }
            }
        }
        for (slot, r) in at.iter_mut().zip(&reached) {
            if !r {
                *slot = 0;
            }
        }
        FilledBefore { fields, at }
    }

    fn filled_at(&self, node: usize) -> impl Iterator<Item = FieldId> + '_ {
        let set = self.at.get(node).copied().unwrap_or(0);
        self.fields
            .iter()
            .enumerate()
            .filter(move |(i, _)| set & (1u64 << i) != 0)
            .map(|(_, f)| *f)
    }
}
