//! Resource aliases (paper §4): the members of an alias set, the
//! `[MustCallAlias]` pairs of a call (a wrapper and what it wraps), and
//! ownership that depends on an argument's value (`leaveOpen`,
//! `disposeHandler`, `ownsHandle`): a parameter's [`OwnershipCondition`] is
//! decided from constants and from `bool` locals whose value is known on every
//! path to the call ([`BoolValues`], a small forward constant propagation
//! refined on `Cond::Bool` edges). An unknown value makes the conservative
//! choice: the callee does not take the argument over.

use rustc_hash::{FxHashMap, FxHashSet};

use crate::ir::{Body, Call, Callee, Cond, FieldRef, NodeId, Operand, Stmt, Succ, VarId, VarKind};
use crate::program::{Const, FieldId, OwnershipCondition, ParamMode, Program};

/// A field as an access-path component: a resolved field, or an unresolved
/// field name interned per body.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FieldKey {
    Known(FieldId),
    Unknown(u32),
}

/// A member of a resource-alias set: a variable, or the access path `base.f`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Alias {
    Var(VarId),
    Path(VarId, FieldKey),
}

impl Alias {
    /// The variable the alias is (or is rooted at).
    pub fn root(self) -> VarId {
        match self {
            Alias::Var(v) | Alias::Path(v, _) => v,
        }
    }
}

/// Interns unresolved field names of one body, so paths compare cheaply.
#[derive(Debug, Default)]
pub struct FieldKeys {
    unknown: FxHashMap<String, u32>,
}

impl FieldKeys {
    pub fn of_body(body: &Body) -> FieldKeys {
        let mut keys = FieldKeys::default();
        for node in &body.nodes {
            if let Stmt::Load {
                field: FieldRef::Unknown(name),
                ..
            }
            | Stmt::Store {
                field: FieldRef::Unknown(name),
                ..
            } = &node.stmt
            {
                let next = keys.unknown.len() as u32;
                keys.unknown.entry(name.clone()).or_insert(next);
            }
        }
        keys
    }
    pub fn key(&self, field: &FieldRef) -> FieldKey {
        match field {
            FieldRef::Known(f) => FieldKey::Known(*f),
            FieldRef::Unknown(name) => {
                FieldKey::Unknown(self.unknown.get(name).copied().unwrap_or(u32::MAX))
            }
        }
    }
    /// The name of an interned unresolved field.
    pub fn unknown_name(&self, key: u32) -> Option<&str> {
        self.unknown
            .iter()
            .find(|(_, k)| **k == key)
            .map(|(n, _)| n.as_str())
    }
}

/// What a `[MustCallAlias]` call wraps.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Wrapped {
    /// The argument bound to a `[MustCallAlias]` parameter.
    Arg { var: VarId, param: u32 },
    /// The receiver of a method whose receiver is `[MustCallAlias]`.
    Receiver(VarId),
}

impl Wrapped {
    pub fn var(self) -> VarId {
        match self {
            Wrapped::Arg { var, .. } | Wrapped::Receiver(var) => var,
        }
    }
}

/// The values the result of `call` is a resource alias of (paper:
/// IsMustCallAliasParam), before the ownership condition is consulted.
pub fn wrapped_by(program: &Program, call: &Call) -> Vec<Wrapped> {
    let Callee::Method(m) = &call.callee else {
        return Vec::new();
    };
    let Some(method) = program.get_method(*m) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for arg in &call.args {
        let (Some(p), Operand::Var(var)) = (arg.param, &arg.value) else {
            continue;
        };
        let by_value = !matches!(arg.mode, ParamMode::Out | ParamMode::Ref);
        if by_value
            && method
                .params
                .get(p as usize)
                .is_some_and(|d| d.must_call_alias.is_some())
        {
            out.push(Wrapped::Arg {
                var: *var,
                param: p,
            });
        }
    }
    if let (Some(_), Some(r)) = (&method.this_must_call_alias, call.receiver) {
        out.push(Wrapped::Receiver(r));
    }
    out
}

/// Whether a call's ownership transfer / resource alias holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Condition {
    /// No condition, or it is known to hold.
    Holds,
    /// Known not to hold (`leaveOpen: true`).
    Fails,
    /// Depends on a value not known here; names the parameter.
    Unknown(String),
}

/// Decides the callee's [`OwnershipCondition`] at a call site. `known` gives
/// the value of a `bool` variable right before the call, if known.
/// In a constructor that owns only under a condition on one of its
/// parameters (`Holder(s, owns) : this(s, owns, null)`), the value of that
/// parameter under which it owns: the case its specs speak of.
pub fn own_condition_value(program: &Program, body: &Body, var: VarId) -> Option<bool> {
    let cond = program
        .get_method(body.method?)?
        .ownership_condition
        .as_ref()?;
    (body.var(var).kind == VarKind::Param(cond.param)).then_some(cond.holds_when)
}

pub fn condition_at(
    program: &Program,
    call: &Call,
    known: impl Fn(VarId) -> Option<bool>,
) -> Condition {
    let Callee::Method(m) = &call.callee else {
        return Condition::Holds;
    };
    let Some(method) = program.get_method(*m) else {
        return Condition::Holds;
    };
    let Some(cond) = &method.ownership_condition else {
        return Condition::Holds;
    };
    let declared_default = || match method
        .params
        .get(cond.param as usize)
        .and_then(|p| p.default.as_ref())
    {
        Some(Const::Bool(b)) => Some(*b),
        _ => None,
    };
    let value = match call
        .args
        .iter()
        .find(|a| a.param == Some(cond.param))
        .map(|a| &a.value)
    {
        None | Some(Operand::Default) => cond.default.or_else(declared_default),
        Some(Operand::Const(Const::Bool(b))) => Some(*b),
        Some(Operand::Var(v)) => known(*v),
        Some(Operand::Const(_)) => None,
    };
    decide(cond, value, || {
        method
            .params
            .get(cond.param as usize)
            .map_or_else(|| format!("#{}", cond.param), |p| p.name.clone())
    })
}

fn decide(
    cond: &OwnershipCondition,
    value: Option<bool>,
    name: impl FnOnce() -> String,
) -> Condition {
    match value {
        Some(v) if v == cond.holds_when => Condition::Holds,
        Some(_) => Condition::Fails,
        None => Condition::Unknown(name()),
    }
}

/// Forward constant propagation of `bool` variables, only for the variables
/// that matter: arguments of conditional calls, seeded parameters, variables
/// a branch tests after a constant was assigned to them or that two branches
/// test (the flag that says whether a resource was created), and the variables
/// they are copied from. Values are known before each node when every path
/// (normal and exceptional) agrees; the facts of the consistency analysis carry
/// what their own paths know ([`BoolValues::known_before`], [`BoolValues::pass`]).
/// At most this many `bool` variables are tracked per body.
const MAX_TRACKED: usize = 64;

/// What a statement assigns to a variable.
#[derive(Copy, Clone)]
enum Assigned {
    Const(bool),
    Copy(VarId),
    Unknown,
}

/// The value `known` (sorted by variable) gives `v`.
pub fn known_value(known: &[(VarId, bool)], v: VarId) -> Option<bool> {
    known
        .binary_search_by_key(&v, |e| e.0)
        .ok()
        .map(|i| known[i].1)
}

/// Sets (or, with `None`, forgets) `v` in `known`, keeping it sorted.
pub fn set_known(known: &mut Vec<(VarId, bool)>, v: VarId, value: Option<bool>) {
    match (known.binary_search_by_key(&v, |e| e.0), value) {
        (Ok(i), Some(b)) => known[i].1 = b,
        (Ok(i), None) => {
            known.remove(i);
        }
        (Err(i), Some(b)) => known.insert(i, (v, b)),
        (Err(_), None) => {}
    }
}

#[derive(Debug, Default)]
pub struct BoolValues {
    /// Dense slot of each tracked variable.
    slot: FxHashMap<VarId, usize>,
    /// The state before each node; `None` for nodes not reached.
    before: Vec<Option<Box<[Option<bool>]>>>,
    /// Seeded variables defined by a load: the value each load gives them.
    loaded: FxHashMap<VarId, bool>,
}

impl BoolValues {
    /// `seeds`: variables with a known value at entry (`disposing == true`)
    /// and wherever a load defines them (an ownership flag field read).
    pub fn compute(program: &Program, body: &Body, seeds: &[(VarId, bool)]) -> BoolValues {
        let mut wanted: Vec<VarId> = seeds.iter().map(|(v, _)| *v).collect();
        for node in &body.nodes {
            if let Stmt::Call(call) = &node.stmt
                && let Callee::Method(m) = &call.callee
                && let Some(cond) = program
                    .get_method(*m)
                    .and_then(|m| m.ownership_condition.as_ref())
                && let Some(Operand::Var(v)) = call
                    .args
                    .iter()
                    .find(|a| a.param == Some(cond.param))
                    .map(|a| &a.value)
            {
                wanted.push(*v);
            }
        }
        // Flags: variables a branch tests or a `return` gives back, when a
        // constant is assigned to them or to a variable copied into them (`bool
        // first = Exchange(ref _d, 1) == 0; if (!first) return;`), or a second
        // branch tests them too.
        let mut tested: FxHashMap<VarId, u32> = FxHashMap::default();
        for node in &body.nodes {
            if let Succ::Branch {
                cond: Cond::Bool(v),
                ..
            } = &node.succ
            {
                *tested.entry(*v).or_default() += 1;
            }
        }
        let assigned_bool: FxHashSet<VarId> = body
            .nodes
            .iter()
            .filter_map(|n| match &n.stmt {
                Stmt::Copy {
                    dst,
                    src: Operand::Const(Const::Bool(_)),
                } => Some(*dst),
                _ => None,
            })
            .collect();
        // Variables a branch tests or a `return` gives back (`was = _flag; ..
        // return was;`).
        let mut tested_or_returned: FxHashSet<VarId> = tested.keys().copied().collect();
        tested_or_returned.extend(body.nodes.iter().filter_map(|n| match &n.stmt {
            Stmt::Return(Some(Operand::Var(v))) => Some(*v),
            _ => None,
        }));
        for node in &body.nodes {
            match &node.stmt {
                Stmt::Copy {
                    dst,
                    src: Operand::Const(Const::Bool(_)),
                } if tested_or_returned.contains(dst) => wanted.push(*dst),
                Stmt::Copy {
                    dst,
                    src: Operand::Var(src),
                } if tested.contains_key(dst) && assigned_bool.contains(src) => {
                    wanted.extend([*dst, *src]);
                }
                _ => {}
            }
        }
        let mut flags: Vec<VarId> = tested
            .into_iter()
            .filter(|(_, n)| *n >= 2)
            .map(|(v, _)| v)
            .collect();
        flags.sort();
        wanted.extend(flags);
        wanted.sort();
        wanted.dedup();
        wanted.truncate(MAX_TRACKED);
        if wanted.is_empty() {
            return BoolValues::default();
        }
        // Close over copies (`leaveOpen = keep;`) and branch variables on them,
        // both ways (`old = flag; if (old) ..`).
        let mut changed = true;
        while changed {
            changed = false;
            for node in &body.nodes {
                if let Stmt::Copy {
                    dst,
                    src: Operand::Var(src),
                } = &node.stmt
                {
                    if wanted.contains(dst) && !wanted.contains(src) {
                        wanted.push(*src);
                        changed = true;
                    } else if wanted.contains(src)
                        && !wanted.contains(dst)
                        && tested_or_returned.contains(dst)
                    {
                        wanted.push(*dst);
                        changed = true;
                    }
                }
            }
        }
        wanted.sort();
        wanted.dedup();
        wanted.truncate(MAX_TRACKED);
        let slot: FxHashMap<VarId, usize> =
            wanted.iter().enumerate().map(|(i, v)| (*v, i)).collect();
        let mut values = BoolValues {
            slot,
            before: vec![None; body.nodes.len()],
            loaded: seeds.iter().copied().collect(),
        };
        let mut entry: Box<[Option<bool>]> = vec![None; wanted.len()].into_boxed_slice();
        for (v, b) in seeds {
            if let Some(&i) = values.slot.get(v) {
                entry[i] = Some(*b);
            }
        }
        let mut work = vec![body.entry];
        values.before[body.entry.index()] = Some(entry);
        while let Some(n) = work.pop() {
            let Some(state) = values.before[n.index()].clone() else {
                continue;
            };
            let node = body.node(n);
            let after = values.transfer(&node.stmt, &state);
            let mut edges: Vec<(NodeId, Box<[Option<bool>]>)> = Vec::new();
            match &node.succ {
                Succ::Branch {
                    cond: Cond::Bool(v),
                    if_true,
                    if_false,
                } if values.slot.contains_key(v) => {
                    let i = values.slot[v];
                    for (target, b) in [(*if_true, true), (*if_false, false)] {
                        if after[i] != Some(!b) {
                            let mut s = after.clone();
                            s[i] = Some(b);
                            edges.push((target, s));
                        }
                    }
                }
                succ => edges.extend(succ.targets().map(|t| (t, after.clone()))),
            }
            if let Some(e) = &node.exc {
                edges.push((e.target, state));
            }
            for (target, s) in edges {
                if values.join_into(target, &s) {
                    work.push(target);
                }
            }
        }
        values
    }

    fn transfer(&self, stmt: &Stmt, state: &[Option<bool>]) -> Box<[Option<bool>]> {
        let mut out: Box<[Option<bool>]> = state.into();
        self.assigned(stmt, |v, value| {
            if let Some(&i) = self.slot.get(&v) {
                out[i] = match value {
                    Assigned::Const(b) => Some(b),
                    Assigned::Copy(s) => self.slot.get(&s).and_then(|&j| state[j]),
                    Assigned::Unknown => None,
                };
            }
        });
        out
    }

    /// The tracked variables `stmt` assigns, each with what it assigns.
    fn assigned(&self, stmt: &Stmt, mut f: impl FnMut(VarId, Assigned)) {
        match stmt {
            Stmt::Copy { dst, src } => f(
                *dst,
                match src {
                    Operand::Const(Const::Bool(b)) => Assigned::Const(*b),
                    Operand::Var(s) => Assigned::Copy(*s),
                    _ => Assigned::Unknown,
                },
            ),
            Stmt::Load { dst, .. } if self.loaded.contains_key(dst) => {
                f(*dst, Assigned::Const(self.loaded[dst]))
            }
            Stmt::Opaque { dst, .. } | Stmt::Load { dst, .. } | Stmt::Element { dst, .. } => {
                f(*dst, Assigned::Unknown)
            }
            Stmt::Closure { dst: Some(dst), .. } => f(*dst, Assigned::Unknown),
            Stmt::Call(call) => {
                // A seeded call result (a flag test's answer) has its seed.
                if let Some(d) = call.dst {
                    f(
                        d,
                        self.loaded
                            .get(&d)
                            .map_or(Assigned::Unknown, |b| Assigned::Const(*b)),
                    );
                }
                for a in &call.args {
                    if let (ParamMode::Out | ParamMode::Ref, Operand::Var(v)) = (a.mode, &a.value) {
                        f(*v, Assigned::Unknown);
                    }
                }
            }
            Stmt::ScopeEnd(vars) | Stmt::Escape(vars) => {
                for v in vars {
                    f(*v, Assigned::Unknown);
                }
            }
            _ => {}
        }
    }

    fn join_into(&mut self, node: NodeId, state: &[Option<bool>]) -> bool {
        let Some(slot) = self.before.get_mut(node.index()) else {
            return false;
        };
        match slot {
            None => {
                *slot = Some(state.into());
                true
            }
            Some(old) => {
                let mut changed = false;
                for (o, n) in old.iter_mut().zip(state) {
                    if o.is_some() && *o != *n {
                        *o = None;
                        changed = true;
                    }
                }
                changed
            }
        }
    }

    /// Whether `var` is one of the tracked variables.
    pub fn tracks(&self, var: VarId) -> bool {
        self.slot.contains_key(&var)
    }

    /// Every tracked variable with a known value right before `node`, sorted.
    pub fn known_before(&self, node: NodeId) -> Vec<(VarId, bool)> {
        let Some(Some(state)) = self.before.get(node.index()) else {
            return Vec::new();
        };
        let mut out: Vec<(VarId, bool)> = self
            .slot
            .iter()
            .filter_map(|(v, &i)| state[i].map(|b| (*v, b)))
            .collect();
        out.sort();
        out
    }

    /// What a path that knew `known` (sorted) knows after `stmt`.
    pub fn pass(&self, stmt: &Stmt, known: &mut Vec<(VarId, bool)>) {
        if self.slot.is_empty() {
            return;
        }
        self.assigned(stmt, |v, value| {
            if !self.tracks(v) {
                return;
            }
            let value = match value {
                Assigned::Const(b) => Some(b),
                Assigned::Copy(s) => known_value(known, s),
                Assigned::Unknown => None,
            };
            set_known(known, v, value);
        });
    }

    /// Whether some path under the known values reaches `node` (always, when
    /// nothing is tracked).
    pub fn reached(&self, node: NodeId) -> bool {
        self.before.is_empty() || matches!(self.before.get(node.index()), Some(Some(_)))
    }

    /// The value of `var` right before `node`, if known.
    pub fn before(&self, node: NodeId, var: VarId) -> Option<bool> {
        let i = *self.slot.get(&var)?;
        self.before.get(node.index())?.as_ref()?[i]
    }

    /// Whether the branch edge of `node` that knows `var == value` can be taken.
    pub fn edge_feasible(&self, body: &Body, node: NodeId, var: VarId, value: bool) -> bool {
        let Some(&i) = self.slot.get(&var) else {
            return true;
        };
        let Some(Some(state)) = self.before.get(node.index()) else {
            return true;
        };
        self.transfer(&body.node(node).stmt, state)[i] != Some(!value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::BodyKind;
    use crate::program::MethodKind;
    use crate::testing::{Asm, Lib, param, str_, v};

    fn bool_op(b: bool) -> Operand {
        Operand::Const(Const::Bool(b))
    }

    #[test]
    fn bools_join_and_refine_on_branches() {
        let mut lib = Lib::new();
        let c = lib.class("App.B", &[lib.object]);
        let m = lib.method(
            c,
            "M",
            MethodKind::Ordinary,
            vec![param("p", lib.boolean)],
            None,
        );
        let mut a = Asm::for_method(&lib, m);
        let p = a.param(0);
        let (keep, other) = (a.local("keep", lib.boolean), a.local("other", lib.boolean));
        let s = a.local("s", lib.file_stream);
        a.copy(keep, bool_op(true));
        a.if_(
            Cond::Opaque,
            |a| {
                a.copy(other, bool_op(true));
            },
            |a| {
                a.copy(other, bool_op(false));
            },
        );
        let (mut in_true, mut in_false) = (None, None);
        a.if_(
            Cond::Bool(p),
            |a| {
                in_true = Some(a.new_(Some(s), lib.reader_new_leave_open, &[v(s), v(p)]));
            },
            |a| {
                in_false = Some(a.new_(Some(s), lib.reader_new_leave_open, &[v(s), v(p)]));
            },
        );
        let after = a.new_(Some(s), lib.reader_new_leave_open, &[v(s), v(keep)]);
        let joined = a.new_(Some(s), lib.reader_new_leave_open, &[v(s), v(other)]);
        let body = a.finish();
        let values = BoolValues::compute(&lib.p, &body, &[]);
        assert_eq!(values.before(after, keep), Some(true));
        assert_eq!(values.before(joined, other), None);
        let (t, f) = (in_true.unwrap_or(after), in_false.unwrap_or(after));
        assert_eq!(values.before(t, p), Some(true));
        assert_eq!(values.before(f, p), Some(false));
        assert_eq!(values.before(after, p), None);
        // A seeded parameter prunes the other edge.
        let seeded = BoolValues::compute(&lib.p, &body, &[(p, true)]);
        assert_eq!(seeded.before(f, p), None, "the false branch is not reached");
        assert_eq!(seeded.before(after, p), Some(true));
    }

    #[test]
    fn conditions_from_constants_defaults_and_locals() {
        let lib = Lib::new();
        let mut a = Asm::new(&lib, "C.M", BodyKind::Method);
        let (s, b) = (a.local("s", lib.file_stream), a.local("b", lib.boolean));
        a.new_(Some(s), lib.file_stream_new, &[str_("p")]);
        let calls: Vec<NodeId> = [bool_op(false), bool_op(true), Operand::Default, v(b)]
            .into_iter()
            .map(|arg| a.new_(None, lib.reader_new_leave_open, &[v(s), arg]))
            .collect();
        let plain = a.new_(None, lib.reader_new, &[v(s)]);
        let body = a.finish();
        let at = |n: NodeId| match &body.node(n).stmt {
            Stmt::Call(c) => condition_at(&lib.p, c, |_| None),
            _ => Condition::Holds,
        };
        assert_eq!(at(calls[0]), Condition::Holds);
        assert_eq!(at(calls[1]), Condition::Fails);
        assert_eq!(at(calls[2]), Condition::Holds);
        assert_eq!(at(calls[3]), Condition::Unknown("leaveOpen".into()));
        assert_eq!(at(plain), Condition::Holds);
        let Stmt::Call(c) = &body.node(plain).stmt else {
            unreachable!()
        };
        assert_eq!(wrapped_by(&lib.p, c), [Wrapped::Arg { var: s, param: 0 }]);
    }
}
