//! The summaries Algorithm 1 consults (`crate::facts::Summaries`,
//! `crate::facts::BodySummaries`), computed before a body is checked, with the
//! verifier:
//!
//! - element-wise disposal loops: a loop whose body reads an element
//!   (`Element { dst, collection }`) and disposes `dst` on every path before
//!   the next element disposes the collection's elements;
//! - `c.ForEach(x => x.Dispose())` (or `ForEach(c, ..)`) with a lambda that
//!   disposes its parameter on every path;
//! - closures (lambdas, local functions) that dispose a captured variable on
//!   every normal path of their body;
//! - owning collection fields: collections that a must-call method of the
//!   class (or a method of the class it calls on `this`, like `Dispose(bool)`)
//!   disposes element-wise, or whose elements leave through a removal that
//!   hands them over and are disposed there;
//! - containers: constructors that keep a parameter in a non-owning field on
//!   every path (`new Pair<T>(a, b)`), factories returning such a container
//!   built from their parameters (`Pair.Create(a, b)`), and the library's
//!   `[StoredAs]` (`Tuple.Create`).

use rustc_hash::{FxHashMap, FxHashSet};

use crate::cfg;
use crate::consistency::{Verdict, closure_disposes_captured, disposal_of, verify, verify_in};
use crate::facts::{
    BodyFacts, BodySummaries, Definitions, ProgramFacts, StoredAs, Summaries, Twins, defined_vars,
    reads_var,
};
use crate::ir::{Body, Call, CallKind, Callee, FieldRef, NodeId, Operand, Stmt, VarId, VarKind};
use crate::options::ExceptionModel;
use crate::ownership;
use crate::program::{FieldId, MethodDef, MethodId, MethodKind, ParamMode};
use crate::resource_alias::{self, Alias};

/// The program-wide summaries.
pub fn program(pf: &ProgramFacts<'_>, exceptions: ExceptionModel) -> Summaries {
    program_with_twins(pf, exceptions, &Twins::default())
}

/// [`program`], with the summaries of analysed declarations given to their
/// `twins` too (before the factories are found, so that a factory calling a
/// twin constructor is one).
pub fn program_with_twins(
    pf: &ProgramFacts<'_>,
    exceptions: ExceptionModel,
    twins: &Twins,
) -> Summaries {
    let mut owning_collections = owning_collections(pf, exceptions);
    let twin_collections: Vec<FieldId> = twins
        .fields
        .iter()
        .filter(|(from, ..)| owning_collections.contains(from))
        .map(|&(_, to, _)| to)
        .collect();
    owning_collections.extend(twin_collections);
    Summaries {
        owning_collections,
        stored_args: stored_args(pf, twins),
        overwritten_refs: overwritten_refs(pf, twins),
        registrations: crate::registrations::registration_methods(pf, twins),
    }
}

/// Collection fields whose elements their class releases: disposed
/// element-wise by a must-call method, or one by one as they leave.
pub fn owning_collections(pf: &ProgramFacts<'_>, exceptions: ExceptionModel) -> FxHashSet<FieldId> {
    let mut out = owning_collection_fields(pf, exceptions);
    out.extend(released_on_removal(pf));
    out
}

/// `ref` parameters assigned on every normal path before anything reads them
/// (`void Assign(ref Stream s) { s = File.OpenRead(p); }`): `out` in all but
/// the keyword.
fn overwritten_refs(pf: &ProgramFacts<'_>, twins: &Twins) -> FxHashSet<(MethodId, u32)> {
    let mut out = FxHashSet::default();
    for body in pf.bodies.iter() {
        let Some((m, def)) = body
            .method
            .and_then(|m| Some((m, pf.program.get_method(m)?)))
        else {
            continue;
        };
        for (i, p) in def.params.iter().enumerate() {
            let i = i as u32;
            if p.mode == ParamMode::Ref
                && let Some(v) = body.param_var(i)
                && assigned_before_read(body, v)
            {
                out.insert((m, i));
            }
        }
    }
    let twin_refs: Vec<(MethodId, u32)> = twins
        .methods
        .iter()
        .flat_map(|&(from, to, _)| {
            out.iter()
                .filter(move |(m, _)| *m == from)
                .map(move |&(_, i)| (to, i))
        })
        .collect();
    out.extend(twin_refs);
    out
}

/// Whether every path from the entry defines `v` before reading it and no
/// normal path reaches the exit without defining it.
fn assigned_before_read(body: &crate::ir::Body, v: VarId) -> bool {
    let mut seen = vec![false; body.nodes.len()];
    let mut stack = vec![body.entry];
    while let Some(n) = stack.pop() {
        if std::mem::replace(&mut seen[n.index()], true) {
            continue;
        }
        let node = body.node(n);
        if n == body.exit || reads_var(&node.stmt, v) || node.succ.tests(v) {
            return false;
        }
        if defined_vars(&node.stmt).any(|d| d == v) {
            continue;
        }
        stack.extend(body.successors(n));
    }
    true
}

/// Gives each twin method the stored arguments of the method it stands for
/// (those it does not have yet).
fn copy_to_twins(out: &mut FxHashMap<(MethodId, u32), StoredAs>, twins: &Twins) {
    if twins.methods.is_empty() {
        return;
    }
    let field_twin: FxHashMap<(FieldId, u32), FieldId> = twins
        .fields
        .iter()
        .map(|&(from, to, group)| ((from, group), to))
        .collect();
    let mut by_method: FxHashMap<MethodId, Vec<(u32, StoredAs)>> = FxHashMap::default();
    for ((m, p), s) in out.iter() {
        by_method.entry(*m).or_default().push((*p, s.clone()));
    }
    for &(from, to, group) in &twins.methods {
        let Some(stored) = by_method.get(&from) else {
            continue;
        };
        for (p, s) in stored {
            let s = match s {
                StoredAs::Field(f) => match field_twin.get(&(*f, group)) {
                    Some(t) => StoredAs::Field(*t),
                    None => continue,
                },
                StoredAs::Member(name) => StoredAs::Member(name.clone()),
            };
            out.entry((to, *p)).or_insert(s);
        }
    }
}

/// Which arguments each method's result keeps as a member (see
/// [`Summaries::stored_args`]).
fn stored_args(pf: &ProgramFacts<'_>, twins: &Twins) -> FxHashMap<(MethodId, u32), StoredAs> {
    let program = pf.program;
    let mut out = FxHashMap::default();
    for (i, m) in program.methods.iter().enumerate() {
        for (p, pd) in m.params.iter().enumerate() {
            if let Some(name) = &pd.stored_as {
                out.insert(
                    (MethodId(i as u32), p as u32),
                    StoredAs::Member(name.clone()),
                );
            }
        }
    }
    // Constructors: `this.f = p` on every path, `f` not owning and `p` never
    // reassigned, so the field holds exactly the caller's argument; or `this.f
    // = new State(.., p)` with a constructor that keeps `p` (grpc's
    // `callState = new AsyncCallState(.., state)`), so `f` holds it as a
    // member. A few rounds reach constructors of constructors.
    for _ in 0..3 {
        let found = constructor_stores(pf, &out);
        if found.is_empty() {
            break;
        }
        out.extend(found);
    }
    copy_to_twins(&mut out, twins);
    // Factories: every return is a container call whose kept arguments are
    // the factory's parameters. A few rounds reach factories of factories.
    for _ in 0..3 {
        let mut found = Vec::new();
        for body in pf.bodies.iter() {
            let Some(m) = body.method else { continue };
            if program.get_method(m).is_none_or(MethodDef::is_constructor) {
                continue;
            }
            let defs = Definitions::of(body);
            let mut kept: Option<Vec<(u32, StoredAs)>> = None;
            for node in &body.nodes {
                let Stmt::Return(Some(Operand::Var(r))) = &node.stmt else {
                    continue;
                };
                let here = returned_container(body, &defs, &out, *r);
                kept = Some(match kept {
                    None => here,
                    Some(k) => k.into_iter().filter(|e| here.contains(e)).collect(),
                });
            }
            for (p, s) in kept.unwrap_or_default() {
                if !out.contains_key(&(m, p)) {
                    found.push(((m, p), s));
                }
            }
        }
        if found.is_empty() {
            break;
        }
        out.extend(found);
        copy_to_twins(&mut out, twins);
    }
    out
}

/// What the constructors' bodies store on every path into plain fields of
/// `this`: their parameters, or objects made by constructors that keep them
/// (`stored`); only those `stored` lacks.
fn constructor_stores(
    pf: &ProgramFacts<'_>,
    stored: &FxHashMap<(MethodId, u32), StoredAs>,
) -> Vec<((MethodId, u32), StoredAs)> {
    let program = pf.program;
    let mut found = Vec::new();
    for body in pf.bodies.iter() {
        let (Some(m), Some(this)) = (body.method, body.this_var()) else {
            continue;
        };
        if !program.get_method(m).is_some_and(MethodDef::is_constructor) {
            continue;
        }
        let defs = Definitions::of(body);
        for (n, node) in body.nodes.iter().enumerate() {
            let Stmt::Store {
                base: Some(b),
                field: FieldRef::Known(f),
                src: Operand::Var(v),
            } = &node.stmt
            else {
                continue;
            };
            let plain_field = program
                .get_field(*f)
                .is_some_and(|d| !d.is_owning() && !d.is_static);
            if *b != this || !plain_field || !cfg::on_every_path(body, NodeId(n as u32)) {
                continue;
            }
            let kept: Vec<u32> = match defs.unassigned_param(body, *v) {
                Some(p) => vec![p],
                None => match defs.single(*v).map(|d| &body.node(d).stmt) {
                    Some(Stmt::Call(call)) if call.kind == CallKind::New => match call.callee {
                        Callee::Method(c) => call
                            .args
                            .iter()
                            .filter(|a| a.param.is_some_and(|q| stored.contains_key(&(c, q))))
                            .filter_map(|a| defs.unassigned_param(body, a.value.var()?))
                            .collect(),
                        _ => Vec::new(),
                    },
                    _ => Vec::new(),
                },
            };
            for p in kept {
                if !stored.contains_key(&(m, p)) && !found.iter().any(|(k, _)| *k == (m, p)) {
                    found.push(((m, p), StoredAs::Field(*f)));
                }
            }
        }
    }
    found
}

/// The parameters of `body` that the container returned in `r` keeps, with
/// their members: `r` comes (through copies) from one call whose kept
/// arguments are parameters never reassigned.
fn returned_container(
    body: &crate::ir::Body,
    defs: &Definitions,
    stored: &FxHashMap<(MethodId, u32), StoredAs>,
    r: VarId,
) -> Vec<(u32, StoredAs)> {
    let mut v = r;
    for _ in 0..16 {
        let &[n] = defs.all(v) else {
            return Vec::new();
        };
        match &body.node(n).stmt {
            Stmt::Copy {
                src: Operand::Var(s),
                ..
            } => v = *s,
            Stmt::Call(call) => {
                let Callee::Method(callee) = &call.callee else {
                    return Vec::new();
                };
                return call
                    .args
                    .iter()
                    .filter_map(|a| {
                        let s = stored.get(&(*callee, a.param?))?;
                        let pv = a.value.var()?;
                        let VarKind::Param(p) = body.var(pv).kind else {
                            return None;
                        };
                        defs.all(pv).is_empty().then(|| (p, s.clone()))
                    })
                    .collect();
            }
            _ => return Vec::new(),
        }
    }
    Vec::new()
}

/// The summaries of one body; `summaries` says which collection fields are
/// owning, for loops that hand each element to one.
pub fn body(
    facts: &BodyFacts<'_>,
    summaries: &Summaries,
    exceptions: ExceptionModel,
) -> BodySummaries {
    let mut out = BodySummaries::default();
    // Collection parameters whose elements may be the method's own.
    let mut stores_elements = facts.method.is_some_and(|m| {
        (0..m.params.len() as u32)
            .any(|i| crate::consistency::elements_obligation(facts, i).is_some())
    });
    for (i, node) in facts.body.nodes.iter().enumerate() {
        match &node.stmt {
            Stmt::StoreElement { .. } => stores_elements = true,
            Stmt::Call(call) => {
                stores_elements |= adds_element(facts, call);
                if let Some(c) = foreach_collection(facts, exceptions, call) {
                    out.foreach_disposals.insert(NodeId(i as u32), c);
                }
            }
            Stmt::Closure { body, captures, .. } => {
                for &q in captures {
                    if closure_disposes_captured(facts, exceptions, *body, q) {
                        out.closure_disposals.insert((*body, q));
                    }
                }
            }
            _ => {}
        }
    }
    // Only element obligations look for disposal loops.
    if stores_elements {
        out.element_loops = element_disposal_loops(facts, summaries, exceptions);
    }
    out
}

/// Whether `call` stores an argument into its receiver collection.
fn adds_element(facts: &BodyFacts<'_>, call: &Call) -> bool {
    let Callee::Method(m) = &call.callee else {
        return false;
    };
    facts
        .program
        .get_method(*m)
        .is_some_and(|md| md.params.iter().any(|p| p.collection_element))
}

/// The collection a disposing `ForEach` call disposes element-wise.
fn foreach_collection(
    facts: &BodyFacts<'_>,
    exceptions: ExceptionModel,
    call: &Call,
) -> Option<VarId> {
    if call.callee_name(facts.program)? != "ForEach" {
        return None;
    }
    let vars: Vec<VarId> = call
        .receiver
        .into_iter()
        .chain(call.args.iter().filter_map(|a| a.value.var()))
        .collect();
    let lambda = vars.iter().find_map(|v| match facts.single_def(*v) {
        Some(Stmt::Closure { body, .. }) => Some((*v, *body)),
        _ => None,
    })?;
    let collection = vars.iter().copied().find(|v| *v != lambda.0)?;
    let pf = facts.program_facts();
    let inner = pf.body_facts(lambda.1, &[])?;
    let param = inner.body.param_var(0)?;
    let must_call = disposal_of(&inner, param);
    let seed = [(inner.body.entry, Alias::Var(param))];
    let disposes = verify(&inner, exceptions, &seed, &must_call) == Verdict::Guaranteed;
    disposes.then_some(collection)
}

/// Loop headers of the body, each with the collections its loop disposes
/// element-wise: the element itself, or, for an entry without an obligation
/// of its own (a dictionary's `KeyValuePair`, `DictionaryEntry`), the member
/// it holds the resource in (`pair.Value.Dispose()`).
fn element_disposal_loops(
    facts: &BodyFacts<'_>,
    summaries: &Summaries,
    exceptions: ExceptionModel,
) -> FxHashMap<NodeId, Vec<VarId>> {
    let mut out: FxHashMap<NodeId, Vec<VarId>> = FxHashMap::default();
    let body = facts.body;
    if !body
        .nodes
        .iter()
        .any(|n| matches!(n.stmt, Stmt::Element { .. }))
    {
        return out;
    }
    for lp in cfg::natural_loops(body) {
        for &m in &lp.nodes {
            let Stmt::Element { dst, collection } = &body.node(m).stmt else {
                continue;
            };
            let seed = |alias: Alias| -> Vec<(NodeId, Alias)> {
                body.node(m).succ.targets().map(|t| (t, alias)).collect()
            };
            let mut held = vec![(Alias::Var(*dst), disposal_of(facts, *dst))];
            if facts.var_obligation(*dst).is_none() {
                held.extend(lp.nodes.iter().filter_map(|&l| match &body.node(l).stmt {
                    Stmt::Load {
                        dst: member,
                        base: Some(b),
                        field,
                    } if b == dst => Some((
                        Alias::Path(*dst, facts.fields.key(field)),
                        disposal_of(facts, *member),
                    )),
                    _ => None,
                }));
            }
            if held.into_iter().any(|(alias, must_call)| {
                verify_in(facts, summaries, exceptions, &seed(alias), &must_call)
                    == Verdict::Guaranteed
            }) {
                out.entry(lp.header).or_default().push(*collection);
            }
        }
    }
    out
}

/// The field of `this` a variable was loaded from (through copies, through
/// a getter's view of a collection, as a dictionary's `Values`, and through
/// a copy that keeps its elements, a `[MustCallAlias]` of the collection such
/// as `Values.ToArray()`: disposing every element of the copy disposes every
/// element the field held when it was taken).
fn field_of_this(facts: &BodyFacts<'_>, var: VarId) -> Option<FieldId> {
    let collection = |v: VarId| facts.body.var(v).ty.element.is_some();
    let is_view = |v: VarId, of: VarId| collection(v) && collection(of);
    let mut v = var;
    for _ in 0..16 {
        match facts.single_def(v)? {
            Stmt::Copy {
                src: Operand::Var(s),
                ..
            } => v = *s,
            Stmt::Load {
                base: Some(b),
                field: FieldRef::Known(f),
                ..
            } if Some(*b) == facts.this => return Some(*f),
            Stmt::Load { base: Some(b), .. } if is_view(v, *b) => v = *b,
            Stmt::Call(call)
                if call.receiver.is_some_and(|r| is_view(v, r))
                    && matches!(call.callee, Callee::Method(m)
                        if facts.program.get_method(m).is_some_and(|d| d.kind == MethodKind::Getter)) =>
            {
                v = call.receiver?;
            }
            Stmt::Call(call) => match resource_alias::wrapped_by(facts.program, call)[..] {
                [w] if is_view(v, w.var()) => v = w.var(),
                _ => return None,
            },
            _ => return None,
        }
    }
    None
}

/// Collection fields (of an object or static) whose elements leave through a
/// removal that hands them to the caller (`TryRemove(key, out v)`,
/// `TryDequeue(out v)`: an owning `out` argument of a call on the collection)
/// and are disposed there, or a member of them is (`v.Timer.Dispose()` for a
/// tuple): a registry that releases its elements one by one as they leave.
/// An element stored in one is not lost, as with a collection disposed
/// element-wise.
fn released_on_removal(pf: &ProgramFacts<'_>) -> FxHashSet<FieldId> {
    let program = pf.program;
    let mut out = FxHashSet::default();
    for body in pf.bodies.iter() {
        // (collection, the value taken out of it)
        let removals: Vec<(VarId, VarId)> = body
            .nodes
            .iter()
            .filter_map(|n| match &n.stmt {
                Stmt::Call(call) => call
                    .receiver
                    .filter(|r| body.var(*r).ty.element.is_some())
                    .map(|r| (&**call, r)),
                _ => None,
            })
            .flat_map(|(call, r)| {
                call.args.iter().filter_map(move |a| {
                    let v = a.value.var()?;
                    let param = ownership::callee_param(program, call, a.param);
                    (a.mode == ParamMode::Out && ownership::out_param_owning(param))
                        .then_some((r, v))
                })
            })
            .collect();
        if removals.is_empty() {
            continue;
        }
        let defs = Definitions::of(body);
        for (r, v) in removals {
            if let Some(f) = loaded_field(body, &defs, r)
                && disposed_here(pf, body, v)
            {
                out.insert(f);
            }
        }
    }
    out
}

/// The field whose value `v` is, through copies.
fn loaded_field(body: &Body, defs: &Definitions, mut v: VarId) -> Option<FieldId> {
    for _ in 0..16 {
        match &body.node(defs.single(v)?).stmt {
            Stmt::Copy {
                src: Operand::Var(s),
                ..
            } => v = *s,
            Stmt::Load {
                field: FieldRef::Known(f),
                ..
            } => return Some(*f),
            _ => return None,
        }
    }
    None
}

/// Whether `body` calls a method that discharges the obligation of `v`, or of
/// a member read from it, on that value.
fn disposed_here(pf: &ProgramFacts<'_>, body: &Body, v: VarId) -> bool {
    let mut held = vec![v];
    for n in &body.nodes {
        match &n.stmt {
            Stmt::Load {
                dst, base: Some(b), ..
            } if *b == v => held.push(*dst),
            Stmt::Copy {
                dst,
                src: Operand::Var(s),
            } if *s == v => held.push(*dst),
            _ => {}
        }
    }
    body.nodes.iter().any(|n| match &n.stmt {
        Stmt::Call(call) => match (&call.callee, call.receiver) {
            (Callee::Method(m), Some(r)) if held.contains(&r) => {
                let name = &pf.program.method(*m).name;
                pf.types
                    .of_value(&body.var(r).ty)
                    .is_some_and(|o| o.must_call.is_satisfied_by(name))
            }
            _ => false,
        },
        _ => false,
    })
}

/// Fields whose elements the class disposes: collections that a must-call
/// method of the class (or a method of the class it calls on `this`, like
/// `Dispose(bool)` or `DisposeAsyncCore()`) disposes element-wise.
fn owning_collection_fields(
    pf: &ProgramFacts<'_>,
    exceptions: ExceptionModel,
) -> FxHashSet<FieldId> {
    let program = pf.program;
    let mut out = FxHashSet::default();
    let mut work = Vec::new();
    let mut seen = FxHashSet::default();
    for (id, body) in pf.bodies.enumerate() {
        let Some(m) = body.method.and_then(|m| program.get_method(m)) else {
            continue;
        };
        let disposal = pf
            .types
            .of_type(m.owner)
            .is_some_and(|o| o.must_call.is_satisfied_by(&m.name));
        if disposal && seen.insert(id) {
            work.push(id);
        }
    }
    while let Some(id) = work.pop() {
        let Some(facts) = pf.body_facts(id, &[]) else {
            continue;
        };
        let has_collections = facts
            .body
            .nodes
            .iter()
            .any(|n| matches!(&n.stmt, Stmt::Element { .. } | Stmt::Call(_)));
        if !has_collections {
            continue;
        }
        for c in element_disposal_loops(&facts, &Summaries::default(), exceptions)
            .values()
            .flatten()
        {
            out.extend(field_of_this(&facts, *c));
        }
        for node in &facts.body.nodes {
            let Stmt::Call(call) = &node.stmt else {
                continue;
            };
            if let Some(c) = foreach_collection(&facts, exceptions, call) {
                out.extend(field_of_this(&facts, c));
            }
            // Helpers the disposal method calls on `this`.
            if let (Callee::Method(m), Some(r)) = (&call.callee, call.receiver)
                && Some(r) == facts.this
                && let Some(b) = pf.body_of(*m)
                && seen.insert(b)
            {
                work.push(b);
            }
        }
    }
    out
}
