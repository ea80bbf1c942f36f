//! Fields that hold nothing their object owes while a `bool` field of the
//! object has some value, as its constructors leave them: a flag recording
//! whether the object created a value or was given it (`_owns = arg == null;
//! _f = arg ?? new F();`, then `if (_owns) _f.Dispose();`), or a mode under
//! which a field is never created (`if (!manualPoll) _cts = new ..;`, then
//! `if (!manualPoll) _cts.Dispose();`). A test of the flag then says the
//! field owes nothing on that edge, as a `null` test of a guard does
//! ([`crate::field_guards`]). A fact the code states, derived once for
//! checking and inference.

use rustc_hash::FxHashMap;

use crate::ir::{Bodies, Body, Cond, FieldRef, NodeId, Operand, Stmt, Succ, VarId, VarKind};
use crate::ownership::{call_result_owning, param_is_owning};
use crate::program::{Const, FieldId, Program, TypeId};

/// Paths of one constructor beyond which it is not read (each `if` doubles them).
const MAX_PATHS: usize = 256;

/// Adds (`b`, `x`) to [`crate::program::FieldDef::owes_nothing_when`] of `f` when
/// - on every normal exit of every constructor of the class where `this.b`
///   may be `x`, `this.f` holds nothing the object owes (`null`, nothing, or
///   a value given to a parameter that is not `[Owning]`), and on some other
///   exit it holds a value it created; the paths are told apart by the
///   `null` tests and `bool` values the constructor computes;
/// - no other method stores into `f` but `null`, none stores into `b` at all,
///   and no code stores into either through another object.
pub fn derive(program: &mut Program, bodies: &Bodies) {
    let mut ctors: FxHashMap<TypeId, Vec<&Body>> = FxHashMap::default();
    for body in bodies.iter() {
        let Some(md) = body.method.and_then(|m| program.get_method(m)) else {
            continue;
        };
        if md.is_constructor() && !md.is_static {
            ctors.entry(md.owner).or_default().push(body);
        }
    }
    let stores = later_stores(program, bodies);
    let mut found: Vec<(FieldId, FieldId, bool)> = Vec::new();
    for (owner, ctor_bodies) in ctors {
        let mut exits: Vec<Exit> = Vec::new();
        let all_read = ctor_bodies.iter().all(|b| {
            constructor_exits(program, b)
                .map(|e| exits.extend(e))
                .is_some()
        });
        if !all_read {
            continue;
        }
        let of_owner = |f: FieldId| {
            program
                .get_field(f)
                .is_some_and(|d| d.owner == owner && !d.is_static)
        };
        for (f, b, x) in flag_guarded(&exits) {
            if of_owner(f) && of_owner(b) && only_released_elsewhere(program, bodies, f, b) {
                found.push((f, b, x));
            }
        }
        found.extend(
            set_once_guarded(program, owner, &exits, &stores)
                .into_iter()
                .map(|(f, b)| (f, b, false)),
        );
    }
    for (f, b, x) in found {
        program.fields[f.index()].owes_nothing_when.push((b, x));
    }
}

/// What a variable or field holds, as far as the flags are concerned.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Value {
    /// Created by the constructor: the object owns it.
    Created,
    /// Anything else that may carry an obligation (a loaded value, a
    /// non-owning call's result).
    Other,
    Null,
    Bool(bool),
    /// The value of this (root) variable, which the path may test later
    /// (`this.manualPoll = manualPoll; if (!manualPoll) ..`); `borrowed`: a
    /// parameter that is not `[Owning]`, whose value stays the caller's.
    Of {
        root: VarId,
        borrowed: bool,
    },
}

impl Value {
    fn owes_nothing(self) -> bool {
        matches!(self, Value::Null | Value::Of { borrowed: true, .. })
    }
}

/// What one normal exit of a constructor leaves in the object's fields.
struct Exit {
    stored: FxHashMap<FieldId, Value>,
}

impl Exit {
    /// The value of a `bool` field at the exit; `None` when not known.
    fn flag(&self, b: FieldId) -> Option<bool> {
        match self.stored.get(&b) {
            // A field no constructor path stores into keeps its default.
            None => Some(false),
            Some(Value::Bool(v)) => Some(*v),
            Some(_) => None,
        }
    }
}

#[derive(Clone, Default)]
struct PathState {
    value: FxHashMap<VarId, Value>,
    /// The variable each one copies (`t = arg`), so a test of either tells both.
    root: FxHashMap<VarId, VarId>,
    /// What the path's tests said of root variables.
    is_null: FxHashMap<VarId, bool>,
    is_true: FxHashMap<VarId, bool>,
    stored: FxHashMap<FieldId, Value>,
    /// The nodes this path went through (a loop is not read).
    seen: Vec<NodeId>,
}

impl PathState {
    fn root(&self, v: VarId) -> VarId {
        self.root.get(&v).copied().unwrap_or(v)
    }
    fn value(&self, program: &Program, body: &Body, v: VarId) -> Value {
        if let Some(value) = self.value.get(&v) {
            return *value;
        }
        let borrowed = match body.var(v).kind {
            VarKind::Param(i) => body
                .method
                .and_then(|m| program.get_method(m))
                .and_then(|md| md.params.get(i as usize))
                .is_some_and(|pd| !param_is_owning(pd) && pd.must_call_alias.is_none()),
            _ => false,
        };
        Value::Of {
            root: self.root(v),
            borrowed,
        }
    }
    /// What is known of a variable: its value, with what the tests said.
    fn resolved(&self, program: &Program, body: &Body, v: VarId) -> Value {
        match self.value(program, body, v) {
            value @ Value::Of { root, .. } => self.resolve(value, root),
            value => value,
        }
    }
    /// A variable's value at a point where the path's tests said what `root` is.
    fn resolve(&self, value: Value, root: VarId) -> Value {
        self.is_true.get(&root).map_or(value, |b| Value::Bool(*b))
    }
    fn known_null(&self, program: &Program, body: &Body, v: VarId) -> Option<bool> {
        match self.value(program, body, v) {
            Value::Null => Some(true),
            Value::Created => Some(false),
            _ => self.is_null.get(&self.root(v)).copied(),
        }
    }
    fn set(&mut self, dst: VarId, value: Value, root: VarId) {
        self.value.insert(dst, value);
        self.root.insert(dst, root);
        self.is_null.remove(&dst);
        self.is_true.remove(&dst);
    }
}

/// The normal exits of a constructor's paths, or `None` when it has loops,
/// too many paths, or calls another constructor of its class.
fn constructor_exits(program: &Program, body: &Body) -> Option<Vec<Exit>> {
    let this = body.this_var()?;
    let mut out = Vec::new();
    let mut stack = vec![(body.entry, PathState::default())];
    while let Some((n, mut st)) = stack.pop() {
        if st.seen.contains(&n) {
            return None;
        }
        st.seen.push(n);
        if n == body.exit {
            if out.len() == MAX_PATHS {
                return None;
            }
            let stored = st
                .stored
                .iter()
                .map(|(f, v)| {
                    let v = match v {
                        Value::Of { root, .. } => st.resolve(*v, *root),
                        v => *v,
                    };
                    (*f, v)
                })
                .collect();
            out.push(Exit { stored });
            continue;
        }
        let node = body.node(n);
        match &node.stmt {
            Stmt::Copy { dst, src } => {
                let (value, root) = match src {
                    Operand::Var(v) => (st.value(program, body, *v), st.root(*v)),
                    Operand::Const(c) => (constant(c), *dst),
                    Operand::Default => (Value::Null, *dst),
                };
                st.set(*dst, value, root);
            }
            Stmt::Call(call) => {
                if call.kind == crate::ir::CallKind::ThisConstructor {
                    return None;
                }
                if let Some(dst) = call.dst {
                    let value = if call_result_owning(program, call) {
                        Value::Created
                    } else {
                        Value::Other
                    };
                    st.set(dst, value, dst);
                }
            }
            Stmt::Load { dst, .. } | Stmt::Opaque { dst, .. } | Stmt::Element { dst, .. } => {
                st.set(*dst, Value::Other, *dst);
            }
            Stmt::Store {
                base: Some(b),
                field: FieldRef::Known(f),
                src,
            } if *b == this => {
                let value = match src {
                    Operand::Var(v) => st.resolved(program, body, *v),
                    Operand::Const(c) => constant(c),
                    Operand::Default => Value::Null,
                };
                st.stored.insert(*f, value);
            }
            _ => {}
        }
        // A constructor that throws makes no object: its exceptional edges
        // do not matter here.
        match &node.succ {
            Succ::None => {}
            Succ::Goto(t) => stack.push((*t, st)),
            Succ::Branch {
                cond,
                if_true,
                if_false,
            } => {
                let known = match cond {
                    Cond::IsNull(v) => st.known_null(program, body, *v),
                    Cond::Bool(v) => match st.resolved(program, body, *v) {
                        Value::Bool(b) => Some(b),
                        _ => None,
                    },
                    Cond::Opaque => None,
                };
                match known {
                    Some(true) => stack.push((*if_true, st)),
                    Some(false) => stack.push((*if_false, st)),
                    None => {
                        for (to, value) in [(*if_true, true), (*if_false, false)] {
                            let mut s = st.clone();
                            match cond {
                                Cond::IsNull(v) => {
                                    s.is_null.insert(s.root(*v), value);
                                }
                                Cond::Bool(v) => {
                                    s.is_true.insert(s.root(*v), value);
                                }
                                Cond::Opaque => {}
                            }
                            stack.push((to, s));
                        }
                    }
                }
            }
            Succ::Multi(targets) => {
                stack.extend(targets.iter().map(|t| (*t, st.clone())));
            }
        }
    }
    Some(out)
}

fn constant(c: &Const) -> Value {
    match c {
        Const::Null => Value::Null,
        Const::Bool(b) => Value::Bool(*b),
        _ => Value::Other,
    }
}

/// The triples (`f`, `b`, `x`) where every exit that may leave `b == x`
/// leaves nothing owed in `f`, and some exit leaves a created value in `f`.
fn flag_guarded(exits: &[Exit]) -> Vec<(FieldId, FieldId, bool)> {
    let mut fields: Vec<FieldId> = Vec::new();
    let mut flags: Vec<FieldId> = Vec::new();
    for e in exits {
        for (f, v) in &e.stored {
            let list = match v {
                Value::Created => &mut fields,
                Value::Bool(_) | Value::Of { .. } => &mut flags,
                _ => continue,
            };
            if !list.contains(f) {
                list.push(*f);
            }
        }
    }
    let mut out = Vec::new();
    for &f in &fields {
        for &b in &flags {
            for x in [false, true] {
                let holds = exits.iter().all(|e| {
                    e.flag(b).is_some_and(|v| v != x)
                        || e.stored.get(&f).is_none_or(|v| v.owes_nothing())
                });
                if holds {
                    out.push((f, b, x));
                }
            }
        }
    }
    out
}

/// The stores into one instance field outside its class's constructors.
#[derive(Default)]
struct LaterStores<'b> {
    /// Some store is the constant `true`.
    sets_true: bool,
    /// Some store is anything but the constant `true`.
    sets_other: bool,
    /// The stores of anything but `null` or `true`: the ones that fill it.
    fills: Vec<(&'b Body, NodeId)>,
    /// Some store, in any body, goes through another object than `this`.
    foreign: bool,
}

/// [`LaterStores`] of every instance field, read in one pass over the bodies.
fn later_stores<'b>(program: &Program, bodies: &'b Bodies) -> FxHashMap<FieldId, LaterStores<'b>> {
    let mut out: FxHashMap<FieldId, LaterStores<'b>> = FxHashMap::default();
    for body in bodies.iter() {
        let constructor_of = body
            .method
            .and_then(|m| program.get_method(m))
            .filter(|md| md.is_constructor())
            .map(|md| md.owner);
        let this = body.this_var();
        for (n, node) in body.nodes.iter().enumerate() {
            let Stmt::Store {
                base,
                field: FieldRef::Known(h),
                src,
            } = &node.stmt
            else {
                continue;
            };
            let Some(fd) = program.get_field(*h).filter(|d| !d.is_static) else {
                continue;
            };
            let s = out.entry(*h).or_default();
            if base.is_none() || *base != this {
                s.foreign = true;
            } else if constructor_of != Some(fd.owner) {
                match src {
                    Operand::Const(Const::Bool(true)) => s.sets_true = true,
                    Operand::Const(Const::Null) => s.sets_other = true,
                    _ => {
                        s.sets_other = true;
                        s.fills.push((body, NodeId(n as u32)));
                    }
                }
            }
        }
    }
    out
}

/// Set-once flags (`if (_started) return; _started = true; _log =
/// File.Open(..)`): pairs of a field `f` and a `bool` field `b` of `owner`
/// such that every constructor exit leaves `f` owing nothing and `b`
/// `false`, code after construction only ever sets `b` to `true`, and stores
/// into `f` anything but `null` only after `b = true` on every path of its
/// body, or with `b = true` following on every path that leaves it, all
/// through `this`. While `b` is `false`, no such store has run
/// since construction, so `f` still owes nothing.
fn set_once_guarded(
    program: &Program,
    owner: TypeId,
    exits: &[Exit],
    stores: &FxHashMap<FieldId, LaterStores<'_>>,
) -> Vec<(FieldId, FieldId)> {
    let none = LaterStores::default();
    let stores_of = |f: FieldId| stores.get(&f).unwrap_or(&none);
    let fields = &program.ty(owner).fields;
    let mut out = Vec::new();
    for &b in fields {
        let sb = stores_of(b);
        let set_once = sb.sets_true
            && !sb.sets_other
            && !sb.foreign
            && exits.iter().all(|e| e.flag(b) == Some(false));
        if !set_once {
            continue;
        }
        for &f in fields {
            let sf = stores_of(f);
            let owes_nothing = exits
                .iter()
                .all(|e| e.stored.get(&f).is_none_or(|v| v.owes_nothing()));
            let after_set = sf.fills.iter().all(|&(body, at)| {
                let sets_b = |n: NodeId| {
                    matches!(&body.node(n).stmt, Stmt::Store { field: FieldRef::Known(h), .. } if *h == b)
                };
                let set_before = at != body.entry && !crate::cfg::reaches(body, body.entry, at, sets_b);
                // Or set right after, before the body can leave in any way
                // (`_f = Open(); _opened = true;` in a lazy getter).
                let set_after = [body.exit, body.exc_exit]
                    .into_iter()
                    .all(|exit| !crate::cfg::reaches(body, at, exit, sets_b));
                set_before || set_after
            });
            if f != b && !sf.foreign && !sf.fills.is_empty() && owes_nothing && after_set {
                out.push((f, b));
            }
        }
    }
    out
}

/// Whether the bodies that are not constructors of the class store into `f`
/// only `null` and never into `b`, and always through `this`.
fn only_released_elsewhere(program: &Program, bodies: &Bodies, f: FieldId, b: FieldId) -> bool {
    let owner = program.field(f).owner;
    bodies.iter().all(|body| {
        let in_ctor = body
            .method
            .and_then(|m| program.get_method(m))
            .is_some_and(|md| md.is_constructor() && md.owner == owner);
        let this = body.this_var();
        body.nodes.iter().all(|node| match &node.stmt {
            Stmt::Store {
                base,
                field: FieldRef::Known(h),
                src,
            } if *h == f || *h == b => {
                let released = *h == f && matches!(src, Operand::Const(Const::Null));
                base.is_some() && *base == this && (in_ctor || released)
            }
            _ => true,
        })
    })
}
