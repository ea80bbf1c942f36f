//! Must-call types (paper §2.2): which methods must be called on a value before
//! it becomes unreachable.
//!
//! The obligation of a type is its own `[MustCall]` (or the library model's
//! `must_call`), else the union over its supertypes; `IDisposable` gives `Dispose`,
//! `IAsyncDisposable` gives `DisposeAsync`, and a type with both may call either.
//! `also_disposes` (the library's `Close`) adds alternatives to a non-empty
//! obligation. C# has one disposal protocol per type, so the method set is
//! disjunctive (see [`MustCall`]). Structs count like classes.
//!
//! The table is computed once per program, iteratively (no recursion, so deep
//! hierarchies cannot overflow the stack); a cycle in the supertypes (a front-end
//! error) contributes nothing instead of looping.

use std::borrow::Cow;

use rustc_hash::{FxHashMap, FxHashSet};

use crate::ir::{Bodies, Body, Call, CallKind, Callee, Cond, FieldRef, Operand, Stmt, Succ, VarId};
use crate::program::{
    Const, DeclaredIn, FieldId, Harmless, MethodId, MethodKind, MustCall, Program, Provenance,
    TypeId, ValueTy,
};

/// The must-call type of a value (a non-empty obligation) and where it was stated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MustCallType {
    pub must_call: MustCall,
    /// The type whose `[MustCall]` (or model entry) stated it; `None` when it comes
    /// from a `[return: MustCall(..)]` of a method.
    pub declared_by: Option<TypeId>,
    pub provenance: Provenance,
    /// Losing it is harmless today (`TypeDef::harmless`), for every type it
    /// comes from: why, the type that says so, and who said it.
    pub harmless: Option<(Harmless, TypeId, Provenance)>,
}

impl MustCallType {
    /// Whether calling `method` discharges it.
    pub fn is_satisfied_by(&self, method: &str) -> bool {
        self.must_call.is_satisfied_by(method)
    }
    /// Whether a guarantee that one of `methods` was called discharges it: every
    /// alternative the guarantee allows must be one of ours.
    pub fn is_covered_by(&self, methods: &[String]) -> bool {
        !methods.is_empty() && methods.iter().all(|m| self.must_call.is_satisfied_by(m))
    }
}

/// The memoized must-call type of every type of a [`Program`].
#[derive(Debug)]
pub struct MustCallTypes {
    of: Vec<Option<MustCallType>>,
    /// Alternatives (`also_disposes`) of each type and of its supertypes.
    alternatives: Vec<Vec<String>>,
    /// Every type after its supertypes (cycles broken arbitrarily).
    supertypes_first: Vec<TypeId>,
}

impl MustCallTypes {
    pub fn compute(program: &Program) -> MustCallTypes {
        let n = program.types.len();
        let mut table = MustCallTypes {
            of: vec![None; n],
            alternatives: vec![Vec::new(); n],
            supertypes_first: Vec::with_capacity(n),
        };
        #[derive(Copy, Clone, PartialEq)]
        enum State {
            New,
            Open,
            Done,
        }
        let mut state = vec![State::New; n];
        let mut cycle = false;
        let mut stack: Vec<(usize, usize)> = Vec::new();
        for root in 0..n {
            if state[root] != State::New {
                continue;
            }
            state[root] = State::Open;
            // Post-order over the supertype graph, so supertypes are done first.
            stack.push((root, 0));
            while let Some(top) = stack.last_mut() {
                let (t, next) = *top;
                if let Some(s) = program.types[t].supertypes.get(next) {
                    top.1 += 1;
                    match state.get(s.index()) {
                        Some(State::New) => {
                            state[s.index()] = State::Open;
                            stack.push((s.index(), 0));
                        }
                        Some(State::Open) => cycle = true,
                        _ => {}
                    }
                    continue;
                }
                stack.pop();
                table.update(program, t);
                table.supertypes_first.push(TypeId(t as u32));
                state[t] = State::Done;
            }
        }
        // On a cycle (a front-end error) a type was finished before a supertype on
        // the cycle: repeat until nothing changes. Sets only grow, so this ends.
        while cycle {
            cycle = false;
            for t in 0..n {
                cycle |= table.update(program, t);
            }
        }
        table
    }

    /// Every type of the program, each after its supertypes.
    pub fn supertypes_first(&self) -> &[TypeId] {
        &self.supertypes_first
    }

    /// Recomputes the obligation of `t` after its own `[MustCall]` changed. Its
    /// subtypes keep their old value until they are refreshed in turn, so walk
    /// [`Self::supertypes_first`] to bring a whole program up to date.
    pub fn refresh(&mut self, program: &Program, t: TypeId) {
        if t.index() < self.of.len() {
            self.update(program, t.index());
        }
    }

    /// Recomputes the obligation of `t` from its supertypes' current values;
    /// returns whether it changed.
    fn update(&mut self, program: &Program, t: usize) -> bool {
        let def = &program.types[t];
        let id = TypeId(t as u32);
        // Most types of a program (the library model's especially) state
        // nothing and inherit nothing: no obligation, no alternatives, and
        // nothing to allocate. `compute` runs over every type several times
        // per check, so this is most of its time.
        if def.must_call.is_none()
            && def.also_disposes.is_empty()
            && program.well_known.disposable != Some(id)
            && program.well_known.async_disposable != Some(id)
            && def.supertypes.iter().all(|s| {
                self.of.get(s.index()).is_none_or(Option::is_none)
                    && self.alternatives.get(s.index()).is_none_or(Vec::is_empty)
            })
        {
            let changed = self.of[t].is_some() || !self.alternatives[t].is_empty();
            self.of[t] = None;
            self.alternatives[t] = Vec::new();
            return changed;
        }
        let alternatives = &mut self.alternatives;
        let supers: Vec<usize> = def
            .supertypes
            .iter()
            .map(|s| s.index())
            .filter(|&s| s < self.of.len())
            .collect();
        let mut alts: Vec<String> = def.also_disposes.clone();
        for &s in &supers {
            alts.extend(alternatives[s].iter().cloned());
        }
        alts.sort();
        alts.dedup();
        let stated = if let Some((mc, prov)) = &def.must_call {
            Some((mc.methods.clone(), Some(id), prov.clone(), None))
        } else if program.well_known.disposable == Some(id) {
            Some((
                vec![program.conventions.dispose.clone()],
                Some(id),
                Provenance::Default,
                None,
            ))
        } else if program.well_known.async_disposable == Some(id) {
            Some((
                vec![program.conventions.dispose_async.clone()],
                Some(id),
                Provenance::Default,
                None,
            ))
        } else {
            None
        };
        let base = match stated {
            Some(s) => Some(s),
            None => {
                let mut methods = Vec::new();
                let mut first: Option<&MustCallType> = None;
                // Harmless only when every supertype with an obligation is. What
                // the model says of a library type says nothing of what a
                // source subclass adds; inference judged the subclasses too.
                let mut weak = true;
                for &s in &supers {
                    if let Some(o) = &self.of[s] {
                        methods.extend(o.must_call.methods.iter().cloned());
                        first = first.or(Some(o));
                        weak &= o.harmless.as_ref().is_some_and(|(why, ..)| {
                            *why == Harmless::ReleasesNothing
                                || def.declared_in == DeclaredIn::Library
                        });
                    }
                }
                first.map(|o| {
                    let inherited = o.harmless.clone().filter(|_| weak);
                    (methods, o.declared_by, o.provenance.clone(), inherited)
                })
            }
        };
        let new = base.and_then(|(methods, declared_by, provenance, inherited)| {
            (!methods.is_empty()).then(|| MustCallType {
                must_call: MustCall::of(methods.into_iter().chain(alts.iter().cloned())),
                declared_by,
                provenance,
                harmless: def
                    .harmless
                    .clone()
                    .map(|(why, prov)| (why, id, prov))
                    .or(inherited),
            })
        });
        let changed = new.as_ref().map(|o| (&o.must_call, &o.harmless))
            != self.of[t].as_ref().map(|o| (&o.must_call, &o.harmless))
            || alts != alternatives[t];
        self.of[t] = new;
        alternatives[t] = alts;
        changed
    }

    /// The obligation of values of type `t` (`None`: no obligation or unknown type).
    pub fn of_type(&self, t: TypeId) -> Option<&MustCallType> {
        self.of.get(t.index()).and_then(Option::as_ref)
    }

    /// The obligation of a value of this static type.
    pub fn of_value(&self, ty: &ValueTy) -> Option<&MustCallType> {
        ty.ty.and_then(|t| self.of_type(t))
    }

    /// The obligation of the value a call returns (paper: FactsFromCall's
    /// HasObligation): `[return: MustCall(..)]` of the callee when present, else
    /// the type of `new`, else the static result type at the call site (which is
    /// the awaited type for `await m()` and the instantiated type of a generic
    /// return), else the callee's declared return type. Whether the caller owns
    /// it is [`crate::ownership`]'s question.
    pub fn of_call_result<'a>(
        &'a self,
        program: &Program,
        call: &Call,
    ) -> Option<Cow<'a, MustCallType>> {
        let method = match &call.callee {
            Callee::Method(m) => program.get_method(*m),
            _ => None,
        };
        if let Some((mc, prov)) = method.and_then(|m| m.ret_must_call.as_ref()) {
            if mc.is_empty() {
                return None;
            }
            return Some(Cow::Owned(MustCallType {
                must_call: mc.clone(),
                declared_by: None,
                provenance: prov.clone(),
                harmless: None,
            }));
        }
        let ty = match call.kind {
            CallKind::New => call.new_type.or(call.ty.ty),
            _ => call.ty.ty.or_else(|| method.and_then(|m| m.ret.ty)),
        };
        ty.and_then(|t| self.of_type(t)).map(Cow::Borrowed)
    }
}

/// Whether a subclass of `t` in the program declares a disposal method of
/// its own, which may release more than `t`'s.
pub fn subclass_overrides(p: &Program, t: TypeId) -> bool {
    overriding_subclasses(p, t).next().is_some()
}

/// The subclasses of `t` in the program that declare a disposal method of
/// their own.
pub fn overriding_subclasses(p: &Program, t: TypeId) -> impl Iterator<Item = TypeId> + '_ {
    p.types.iter().enumerate().filter_map(move |(i, ty)| {
        let sub = TypeId(i as u32);
        (sub != t
            && p.is_subtype(sub, t)
            && ty
                .methods
                .iter()
                .any(|m| p.conventions.is_disposal_method(&p.method(*m).name)))
        .then_some(sub)
    })
}

/// Whether running `body`, a disposal method of `owner`, may release
/// something: it calls a disposal method or one with `[Calls]`, hands a value
/// with an obligation to a call, detaches a handler from an event, stores
/// into another object or a static field, or calls a method of the class or
/// of a base on `this` (to a small depth) that does. With `assume` = (`g`, `x`), `this.g` holds `x` throughout:
/// a branch on it takes only the edge for `x` (`if (!_ownsInner) return;`).
pub fn releases_something<'b>(
    p: &Program,
    types: &MustCallTypes,
    body_of: &dyn Fn(MethodId) -> Option<&'b Body>,
    body: &Body,
    owner: TypeId,
    assume: Option<(FieldId, bool)>,
) -> bool {
    let within = Release {
        p,
        types,
        body_of,
        owner,
        assume,
    };
    within.releases(body, 0)
}

/// What [`releases_something`] reads a disposal method and its callees in.
struct Release<'a, 'b> {
    p: &'a Program,
    types: &'a MustCallTypes,
    body_of: &'a dyn Fn(MethodId) -> Option<&'b Body>,
    owner: TypeId,
    assume: Option<(FieldId, bool)>,
}

impl Release<'_, '_> {
    fn releases(&self, body: &Body, depth: u32) -> bool {
        let Release {
            p,
            types,
            body_of,
            owner,
            assume,
        } = *self;
        if depth > 3 {
            return true;
        }
        let runs = match assume {
            Some((g, value)) => {
                let this = body.this_var();
                let flags: Vec<VarId> = body
                    .nodes
                    .iter()
                    .filter_map(|n| match &n.stmt {
                        Stmt::Load {
                            dst,
                            base: Some(b),
                            field: FieldRef::Known(f),
                        } if Some(*b) == this && *f == g => Some(*dst),
                        _ => None,
                    })
                    .collect();
                crate::cfg::reachable_cut(body, |from, to| match &body.node(from).succ {
                    Succ::Branch {
                        cond: Cond::Bool(t),
                        if_true,
                        if_false,
                    } if flags.contains(t) => to == if value { *if_false } else { *if_true },
                    _ => false,
                })
            }
            None => vec![true; body.nodes.len()],
        };
        for (node, _) in body.nodes.iter().zip(&runs).filter(|(_, r)| **r) {
            let call = match &node.stmt {
                Stmt::Call(call) => call,
                // Clearing another object's or a static slot (`_connection.Current
                // = null`) ends a claim on shared state, as a lock's release
                // does; clearing its own fields releases nothing.
                Stmt::Store { base, .. } if *base != body.this_var() || base.is_none() => {
                    return true;
                }
                _ => continue,
            };
            // A publisher that keeps the object alive through its handler (a
            // static event, a longer-lived object) lets go of it.
            if call.kind == CallKind::Unsubscribe {
                return true;
            }
            let method = match &call.callee {
                Callee::Method(m) => p.get_method(*m),
                _ => None,
            };
            if method.is_some_and(|m| !m.calls.is_empty()) {
                return true;
            }
            let vars = call
                .receiver
                .into_iter()
                .chain(call.args.iter().filter_map(|a| a.value.var()));
            if vars
                .into_iter()
                .any(|v| types.of_value(&body.var(v).ty).is_some() && Some(v) != body.this_var())
            {
                return true;
            }
            let Some((m, md)) = method.and_then(|md| match call.callee {
                Callee::Method(m) => Some((m, md)),
                _ => None,
            }) else {
                if p.conventions
                    .is_disposal_method(call.callee_name(p).unwrap_or(""))
                {
                    return true;
                }
                continue;
            };
            // A method of the class or of a base it inherits from, called on
            // `this` (`base.Dispose()`, `Close()`), releases what its body
            // does, whatever its name; another method of the class too. A
            // virtual one runs whatever override the object's class has
            // (`OnClose()`), which may release: unless the call is its
            // override's `base.` call, it may.
            let on_this = body.this_var().is_some()
                && call.receiver == body.this_var()
                && p.is_subtype(owner, md.owner);
            let base_call = body
                .method
                .and_then(|c| p.get_method(c))
                .is_some_and(|c| c.overrides.contains(&m));
            if (md.is_virtual || md.is_abstract) && !base_call {
                return true;
            }
            if let Some(b) = body_of(m).filter(|_| on_this || md.owner == owner) {
                if self.releases(b, depth + 1) {
                    return true;
                }
            } else if p.conventions.is_disposal_method(&md.name) {
                return true;
            }
        }
        false
    }
}

/// A method of the program that returns what a call with a stated return
/// obligation made (`[return: MustCall("Dispose")]`: a response requested
/// with `ResponseHeadersRead`, a `CancellationTokenSource` with a timer)
/// states that obligation for its own result, so a helper does not turn the
/// value into one its type says is harmless to lose. Read through helpers
/// of helpers until nothing changes. A fact the code states, derived once
/// for checking and inference.
pub fn derive_stated_returns(program: &mut Program, bodies: &Bodies) {
    loop {
        let mut found: Vec<(MethodId, (MustCall, Provenance))> = Vec::new();
        for body in bodies.iter() {
            let Some(m) = body.method else { continue };
            let Some(d) = program.get_method(m) else {
                continue;
            };
            if d.ret_must_call.is_some() || d.ret_must_call_alias.is_some() {
                continue;
            }
            let stated = body.nodes.iter().find_map(|n| match &n.stmt {
                Stmt::Return(Some(Operand::Var(v))) => stated_obligation(program, body, *v),
                _ => None,
            });
            if let Some(s) = stated {
                found.push((m, s));
            }
        }
        if found.is_empty() {
            return;
        }
        for (m, s) in found {
            program.methods[m.index()].ret_must_call = Some(s);
        }
    }
}

/// The non-empty return obligation stated by the call that made `v`,
/// through copies.
fn stated_obligation(
    program: &Program,
    body: &Body,
    mut v: VarId,
) -> Option<(MustCall, Provenance)> {
    for _ in 0..8 {
        let mut defs = body.nodes.iter().filter_map(|n| match &n.stmt {
            Stmt::Copy {
                dst,
                src: Operand::Var(src),
            } if *dst == v => Some(Err(*src)),
            Stmt::Call(call) if call.dst == Some(v) => Some(Ok(call)),
            _ => None,
        });
        match (defs.next(), defs.next()) {
            (Some(Err(src)), None) => v = src,
            (Some(Ok(call)), None) => {
                let Callee::Method(c) = call.callee else {
                    return None;
                };
                return program
                    .get_method(c)?
                    .ret_must_call
                    .clone()
                    .filter(|(mc, _)| !mc.is_empty());
            }
            _ => return None,
        }
    }
    None
}

/// A program type whose `Dispose()` (or `DisposeAsync()`) only calls another
/// parameterless instance method of it on `this` (`Dispose() => Close();`)
/// may be released by calling that method instead: it becomes one of the
/// type's alternatives, as the library's `Close` is for `Stream`. So does a
/// method that only calls `Dispose()` or `DisposeAsync()` on `this`
/// (`async Task CloseAsync(CancellationToken t) => await DisposeAsync();`).
/// The method called may take arguments other than a flag
/// (`DisposeAsync() => CloseAsync(CloseReason.Local)`). An abstract or
/// interface method that every implementation in the program makes such an
/// alternative is one of its declaring type's too (`IConnection.CloseAsync`;
/// with forwarding implementations: [`implemented_alternatives`]).
/// A fact the code states, derived once for checking and inference.
pub fn derive_delegated_disposal(program: &mut Program, bodies: &Bodies) {
    let mut found: Vec<(TypeId, String)> = Vec::new();
    for body in bodies.iter() {
        let Some(d) = body.method.and_then(|m| program.get_method(m)) else {
            continue;
        };
        let c = &program.conventions;
        let is_dispose = |name: &str| name == c.dispose || name == c.dispose_async;
        if d.is_static
            || d.kind != MethodKind::Ordinary
            || (!d.params.is_empty() && is_dispose(&d.name))
        {
            continue;
        }
        let Some(this) = body.this_var() else {
            continue;
        };
        let mut calls = body.nodes.iter().filter_map(|n| match &n.stmt {
            Stmt::Call(call) => Some(call),
            _ => None,
        });
        let (Some(call), None) = (calls.next(), calls.next()) else {
            continue;
        };
        let only_the_call = body.nodes.iter().all(|n| {
            matches!(
                n.stmt,
                Stmt::Call(_) | Stmt::Nop | Stmt::ScopeEnd(_) | Stmt::Return(_) | Stmt::Copy { .. }
            )
        });
        let Callee::Method(target) = call.callee else {
            continue;
        };
        let Some(t) = program.get_method(target) else {
            continue;
        };
        let boolean = |p: &crate::program::ParamDef| {
            p.ty.ty.is_some() && p.ty.ty == program.well_known.boolean
        };
        if !only_the_call
            || call.receiver != Some(this)
            || t.is_static
            || t.params.iter().any(boolean)
            || t.name == d.name
        {
            continue;
        }
        if is_dispose(&d.name) && t.owner == d.owner {
            found.push((d.owner, t.name.clone()));
        } else if is_dispose(&t.name)
            && !is_dispose(&d.name)
            && program.is_subtype(d.owner, t.owner)
        {
            found.push((d.owner, d.name.clone()));
        }
    }
    add_alternatives(program, found);
    let declared = implemented_alternatives(program, bodies);
    add_alternatives(program, declared);
}

/// What a parameterless instance method does, in the two shapes
/// [`implemented_alternatives`] compares.
#[derive(Clone, PartialEq, Eq)]
enum Shape {
    /// No call, load or store, and no value returned.
    Nothing,
    /// One call on a field of `this`, with constant arguments
    /// (`_handle.Disconnect()`).
    Forward {
        field: FieldId,
        callee: MethodId,
        args: Vec<Operand>,
    },
}

fn shape(body: &Body) -> Option<Shape> {
    let this = body.this_var()?;
    let (mut load, mut call, mut returns) = (None, None, false);
    for n in &body.nodes {
        match &n.stmt {
            Stmt::Nop | Stmt::ScopeEnd(_) | Stmt::Copy { .. } => {}
            Stmt::Return(value) => returns |= value.is_some(),
            Stmt::Load {
                dst,
                base: Some(b),
                field: FieldRef::Known(f),
            } if *b == this && load.is_none() => load = Some((*dst, *f)),
            Stmt::Call(c) if call.is_none() => call = Some(c),
            _ => return None,
        }
    }
    let constant = |o: &Operand| match o {
        Operand::Const(k) => *k != Const::Other,
        Operand::Default => true,
        Operand::Var(_) => false,
    };
    match (load, call) {
        (None, None) if !returns => Some(Shape::Nothing),
        (Some((t, field)), Some(c))
            if c.receiver == Some(t)
                && c.kind == CallKind::Ordinary
                && c.args.iter().all(|a| constant(&a.value)) =>
        {
            let Callee::Method(callee) = c.callee else {
                return None;
            };
            Some(Shape::Forward {
                field,
                callee,
                args: c.args.iter().map(|a| a.value.clone()).collect(),
            })
        }
        _ => None,
    }
}

/// The alternatives an abstract or interface method `m` gets because every
/// implementation in the program makes it one of its type's (`IConnection.CloseAsync`),
/// where an implementation's `m` may also be one because it does what the
/// type's `Dispose()` does: both forward to the same field, `Dispose()` with
/// its disposal and `m` with a method that is an alternative on the field's
/// type (`Dispose() => _handle.Dispose(); Disconnect() => _handle.Disconnect();`
/// over `ConnectHandle _handle`), or both with the same call; or both do
/// nothing. Neither may be overridden in the program. The forwarding
/// rule and the interface rule depend on each other through the field's
/// type, so they are read as a greatest fixed point: assume every candidate,
/// drop those whose condition fails, until none does. Sound by induction on
/// the chain of forwarding objects (it ends at an implementation whose
/// `Dispose()` only calls `m`, or where both do nothing; an endless one never
/// returns from either call).
fn implemented_alternatives(program: &Program, bodies: &Bodies) -> Vec<(TypeId, String)> {
    let implementations = program.implementations();
    let mut shapes: FxHashMap<(TypeId, &str), Option<(MethodId, Shape)>> = FxHashMap::default();
    for body in bodies.iter() {
        let Some((id, d)) = body.method.and_then(|m| Some((m, program.get_method(m)?))) else {
            continue;
        };
        if d.is_static || d.kind != MethodKind::Ordinary || !d.params.is_empty() {
            continue;
        }
        let here = shape(body).map(|s| (id, s));
        shapes
            .entry((d.owner, d.name.as_str()))
            .and_modify(|e| *e = None)
            .or_insert(here);
    }
    // (declaring type, method) -> the owners of its implementations
    let mut declared: FxHashMap<(TypeId, &str), Vec<TypeId>> = FxHashMap::default();
    let mut assumed: FxHashSet<(TypeId, &str)> = FxHashSet::default();
    for (b, impls) in &implementations {
        let Some(d) = program.get_method(*b).filter(|d| d.is_abstract) else {
            continue;
        };
        let owners: Vec<TypeId> = impls
            .iter()
            .filter_map(|c| program.get_method(*c).map(|c| c.owner))
            .collect();
        assumed.insert((d.owner, d.name.as_str()));
        assumed.extend(owners.iter().map(|&o| (o, d.name.as_str())));
        declared
            .entry((d.owner, d.name.as_str()))
            .or_default()
            .extend(owners);
    }
    let c = &program.conventions;
    let is_dispose = |name: &str| name == c.dispose || name == c.dispose_async;
    let known = |t: TypeId, m: &str, assumed: &FxHashSet<(TypeId, &str)>| {
        program
            .get_ty(t)
            .is_some_and(|d| d.also_disposes.iter().any(|a| a == m))
            || assumed.contains(&(t, m))
    };
    let on_field_type = |f: FieldId, m: &str, assumed: &FxHashSet<(TypeId, &str)>| {
        let Some(t) = program.get_field(f).and_then(|f| f.ty.ty) else {
            return false;
        };
        std::iter::once(t)
            .chain(program.supertypes_of(t))
            .any(|s| known(s, m, assumed))
    };
    let not_overridden = |m: MethodId| !implementations.contains_key(&m);
    let forwards = |t: TypeId, m: &str, assumed: &FxHashSet<(TypeId, &str)>| {
        let Some(Some((mid, ms))) = shapes.get(&(t, m)) else {
            return false;
        };
        [c.dispose.as_str(), c.dispose_async.as_str()]
            .iter()
            .filter_map(|d| shapes.get(&(t, *d))?.as_ref())
            .any(|(did, ds)| {
                let same = match (ds, ms) {
                    (Shape::Nothing, Shape::Nothing) => true,
                    (
                        Shape::Forward {
                            field,
                            callee: x,
                            args,
                        },
                        Shape::Forward {
                            field: f,
                            callee: y,
                            args: a,
                        },
                    ) => {
                        let name = |m: &MethodId| program.method(*m).name.as_str();
                        field == f
                            && args == a
                            && (x == y
                                || (is_dispose(name(x)) && on_field_type(*f, name(y), assumed)))
                    }
                    _ => false,
                };
                same && not_overridden(*did) && not_overridden(*mid)
            })
    };
    loop {
        let failing: Vec<(TypeId, &str)> = assumed
            .iter()
            .filter(|&&(t, m)| {
                let by_implementations = declared
                    .get(&(t, m))
                    .is_some_and(|owners| owners.iter().all(|&o| known(o, m, &assumed)));
                !by_implementations && !forwards(t, m, &assumed)
            })
            .copied()
            .collect();
        if failing.is_empty() {
            break;
        }
        for k in failing {
            assumed.remove(&k);
        }
    }
    // An implementation's method is kept only for an interface method that
    // holds: alone, `Dispose() {}` would make any empty method a disposal.
    let needed: FxHashSet<(TypeId, &str)> = declared
        .iter()
        .filter(|(k, _)| assumed.contains(k))
        .flat_map(|(&(t, m), owners)| {
            std::iter::once((t, m)).chain(owners.iter().map(move |&o| (o, m)))
        })
        .collect();
    let mut out: Vec<(TypeId, String)> = assumed
        .iter()
        .copied()
        .filter(|k| needed.contains(k))
        .filter(|&(t, m)| !known(t, m, &FxHashSet::default()))
        .map(|(t, m)| (t, m.to_string()))
        .collect();
    out.sort();
    out
}

fn add_alternatives(program: &mut Program, found: Vec<(TypeId, String)>) {
    for (ty, name) in found {
        let alts = &mut program.types[ty.index()].also_disposes;
        if !alts.contains(&name) {
            alts.push(name);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::{DeclaredIn, TypeDef, TypeKind};

    fn ty(p: &mut Program, name: &str, supers: &[TypeId]) -> TypeId {
        let mut d = TypeDef::new(name, TypeKind::Class, DeclaredIn::Source);
        d.supertypes = supers.to_vec();
        p.add_type(d)
    }

    /// A program whose conventions name the well-known interfaces' methods.
    fn program() -> Program {
        let mut p = Program::default();
        p.conventions.dispose = "Dispose".into();
        p.conventions.dispose_async = "DisposeAsync".into();
        p
    }

    fn methods(t: &MustCallTypes, id: TypeId) -> Vec<String> {
        t.of_type(id)
            .map(|o| o.must_call.methods.clone())
            .unwrap_or_default()
    }

    #[test]
    fn inherited_union_alternatives_and_explicit_none() {
        let mut p = program();
        let disp = ty(&mut p, "System.IDisposable", &[]);
        let adisp = ty(&mut p, "System.IAsyncDisposable", &[]);
        p.well_known.disposable = Some(disp);
        p.well_known.async_disposable = Some(adisp);
        let stream = ty(&mut p, "System.IO.Stream", &[disp, adisp]);
        p.types[stream.index()].also_disposes = vec!["Close".into()];
        let file = ty(&mut p, "System.IO.FileStream", &[stream]);
        let mem = ty(&mut p, "System.IO.MemoryStream", &[stream]);
        p.types[mem.index()].must_call = Some((MustCall::none(), Provenance::Library));
        let sub_mem = ty(&mut p, "App.MyMemory", &[mem]);
        let plain = ty(&mut p, "App.Plain", &[]);
        let t = MustCallTypes::compute(&p);
        assert_eq!(methods(&t, disp), ["Dispose"]);
        assert_eq!(methods(&t, stream), ["Close", "Dispose", "DisposeAsync"]);
        assert_eq!(methods(&t, file), ["Close", "Dispose", "DisposeAsync"]);
        assert_eq!(t.of_type(file).and_then(|o| o.declared_by), Some(disp));
        assert!(t.of_type(mem).is_none());
        assert!(t.of_type(sub_mem).is_none());
        assert!(t.of_type(plain).is_none());
        assert!(t.of_type(TypeId(999)).is_none());
    }

    #[test]
    fn explicit_must_call_keeps_inherited_alternatives() {
        let mut p = program();
        let disp = ty(&mut p, "System.IDisposable", &[]);
        p.well_known.disposable = Some(disp);
        let reader = ty(&mut p, "System.IO.TextReader", &[disp]);
        p.types[reader.index()].also_disposes = vec!["Close".into()];
        let socket = ty(&mut p, "Net.Socket", &[reader]);
        p.types[socket.index()].must_call = Some((MustCall::of(["Shutdown"]), Provenance::Config));
        let t = MustCallTypes::compute(&p);
        assert_eq!(methods(&t, socket), ["Close", "Shutdown"]);
        assert_eq!(
            t.of_type(socket).map(|o| &o.provenance),
            Some(&Provenance::Config)
        );
    }

    #[test]
    fn releasing_nothing_is_inherited_only_when_every_source_releases_nothing() {
        let mut p = program();
        let disp = ty(&mut p, "System.IDisposable", &[]);
        p.well_known.disposable = Some(disp);
        let scope = ty(&mut p, "App.Scope", &[disp]);
        p.types[scope.index()].harmless = Some((Harmless::ReleasesNothing, Provenance::Default));
        let sub = ty(&mut p, "App.SubScope", &[scope]);
        let real = ty(&mut p, "App.Real", &[disp]);
        let both = ty(&mut p, "App.Both", &[scope, real]);
        let t = MustCallTypes::compute(&p);
        let weak = |id| t.of_type(id).map(|o| o.harmless.is_some());
        assert_eq!(weak(scope), Some(true));
        assert_eq!(weak(sub), Some(true));
        assert_eq!(weak(real), Some(false));
        assert_eq!(weak(both), Some(false));
        assert_eq!(methods(&t, sub), ["Dispose"]);
    }

    /// `interface IHandle : IDisposable { void Disconnect(); }` whose one
    /// implementation forwards both methods to its `IHandle _inner`, and, with
    /// `logged`, another whose `Dispose()` does more than `Disconnect()`: the
    /// alternatives `IHandle` gets.
    fn forwarding_handle(logged: bool) -> Vec<String> {
        use crate::testing::{Asm, Lib};
        let mut lib = Lib::new();
        let handle = lib.class("App.IHandle", &[lib.disposable]);
        lib.p.types[handle.index()].kind = TypeKind::Interface;
        let disconnect = lib.method(handle, "Disconnect", MethodKind::Ordinary, vec![], None);
        lib.p.methods[disconnect.index()].is_abstract = true;
        let fwd = lib.class("App.Forwarding", &[handle]);
        let inner = lib.field(fwd, "_inner", handle, false, true);
        let mut forwards = Vec::new();
        for (name, callee) in [("Disconnect", disconnect), ("Dispose", lib.dispose)] {
            let m = lib.method(fwd, name, MethodKind::Ordinary, vec![], None);
            lib.p.methods[m.index()].overrides = vec![disconnect];
            forwards.push((m, callee));
        }
        let logged_type = logged.then(|| {
            let t = lib.class("App.Logged", &[handle]);
            let log = lib.field(t, "_log", lib.stream, true, true);
            let d = lib.method(t, "Disconnect", MethodKind::Ordinary, vec![], None);
            lib.p.methods[d.index()].overrides = vec![disconnect];
            let dispose = lib.method(t, "Dispose", MethodKind::Ordinary, vec![], None);
            (log, d, dispose)
        });
        let mut bodies = Vec::new();
        for (m, callee) in forwards {
            let mut a = Asm::for_method(&lib, m);
            let t = a.temp(Some(handle));
            let this = a.this();
            a.load(t, this, inner);
            a.call(None, callee, Some(t), &[]);
            bodies.push(a.finish());
        }
        if let Some((log, d, dispose)) = logged_type {
            bodies.push(Asm::for_method(&lib, d).finish());
            let mut a = Asm::for_method(&lib, dispose);
            let this = a.this();
            a.call(None, d, Some(this), &[]);
            let s = a.temp(Some(lib.stream));
            a.load(s, this, log);
            a.dispose(s);
            bodies.push(a.finish());
        }
        derive_delegated_disposal(&mut lib.p, &Bodies::from(bodies));
        lib.p.ty(handle).also_disposes.clone()
    }

    #[test]
    fn forwarding_implementations_make_the_interface_method_a_disposal() {
        assert_eq!(forwarding_handle(false), ["Disconnect"]);
        assert!(forwarding_handle(true).is_empty());
    }

    #[test]
    fn cycles_and_deep_chains_terminate() {
        let mut p = program();
        let disp = ty(&mut p, "System.IDisposable", &[]);
        p.well_known.disposable = Some(disp);
        let a = ty(&mut p, "A", &[disp]);
        let b = ty(&mut p, "B", &[a]);
        p.types[a.index()].supertypes.push(b);
        let c = ty(&mut p, "C", &[b, TypeId(12345)]);
        let mut prev = c;
        for i in 0..100_000 {
            prev = ty(&mut p, &format!("D{i}"), &[prev]);
        }
        let t = MustCallTypes::compute(&p);
        assert_eq!(methods(&t, b), ["Dispose"]);
        assert_eq!(methods(&t, c), ["Dispose"]);
        assert_eq!(methods(&t, prev), ["Dispose"]);
    }
}
