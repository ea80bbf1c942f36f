//! Lightweight ownership transfer (paper §3): which positions take over a
//! value's obligation.
//!
//! The paper's defaults: method returns are owning, parameters and fields are
//! not, constructors return owning. C# conventions add: property getters are not
//! owning (a property exposes state the object already owns), `out` parameters
//! are owning (the caller receives the value), static fields are never owning.
//! A callee the front end could not bind (`Callee::Unresolved`) or a delegate
//! never takes ownership of an argument, but its result is owning like any
//! unannotated return, so an unknown library is handled soundly; save for a
//! value made only to be passed to such a callee (`parent.Add(new Child())`),
//! which only the callee could dispose: the checker lets it go there.

use rustc_hash::{FxHashMap, FxHashSet};

use crate::cfg;
use crate::ir::{
    Bodies, Body, BodyKind, Call, CallKind, Callee, Cond, FieldRef, NodeId, Operand, Stmt, Succ,
    VarId, VarKind,
};
use crate::must_call::{MustCallTypes, releases_something, subclass_overrides};
use crate::program::{
    Const, FieldId, MethodDef, MethodId, MethodKind, OwnershipCondition, ParamDef, ParamMode,
    Program,
};
use crate::resource_alias::{BoolValues, Condition, condition_at};

/// Whether returning a value from `body` hands its obligation to the caller.
/// Constructors return nothing; getters and `[return: NotOwning]` methods do not
/// pass ownership; lambdas follow the default for returns (owning).
pub fn body_returns_owning(program: &Program, body: &Body) -> bool {
    match body.kind {
        BodyKind::Constructor | BodyKind::StaticConstructor | BodyKind::TopLevel => false,
        _ => body
            .method
            .and_then(|m| program.get_method(m))
            .is_none_or(|m| !m.is_constructor() && m.returns_owning()),
    }
}

/// Whether the caller owns the value a call returns: always for `new`, else
/// the callee's return ownership; unresolved calls and delegates return owning.
pub fn call_result_owning(program: &Program, call: &Call) -> bool {
    if call.kind == CallKind::New {
        return !new_owns_nothing(program, call);
    }
    match &call.callee {
        // A method that never returns gives no result to own.
        Callee::Method(m) => program
            .get_method(*m)
            .is_none_or(|d| d.returns_owning() && !d.never_returns),
        Callee::Unresolved(_) | Callee::Delegate(_) => true,
    }
}

/// Whether a constructor's ownership condition is about the object's own
/// resource (`SafeHandle(nint h, [OwnsIf(true)] bool ownsHandle)`), so the
/// object owns a resource only when it holds.
pub fn conditions_own_resource(md: &MethodDef) -> bool {
    md.is_constructor()
        && md
            .ownership_condition
            .as_ref()
            .is_some_and(|c| c.own_resource)
}

/// Whether the object a `new` (or `base(..)`) call makes owns nothing: its
/// constructor's condition on its own resource fails on a constant argument
/// (`new SafeFileHandle(h, ownsHandle: false)`), or it is such a constructor
/// itself ([`MethodDef::makes_borrowed`]).
fn new_owns_nothing(program: &Program, call: &Call) -> bool {
    let Callee::Method(m) = call.callee else {
        return false;
    };
    program.get_method(m).is_some_and(|md| {
        md.makes_borrowed
            || conditions_own_resource(md)
                && condition_at(program, call, |_| None) == Condition::Fails
    })
}

/// The declaration of the callee parameter an argument binds to, if known.
pub fn callee_param<'p>(
    program: &'p Program,
    call: &Call,
    param: Option<u32>,
) -> Option<&'p ParamDef> {
    let Callee::Method(m) = &call.callee else {
        return None;
    };
    program.get_method(*m)?.params.get(param? as usize)
}

/// Whether passing an argument to this parameter transfers its obligation
/// (`[Owning]`; by-value kinds only). The ownership condition is checked by
/// the caller ([`crate::resource_alias::condition_at`]).
pub fn param_takes_ownership(param: &ParamDef) -> bool {
    matches!(
        param.mode,
        ParamMode::Value | ParamMode::In | ParamMode::Params
    ) && param.ownership.is_owning(false)
}

/// Whether the value a callee stores into an `out` argument is owned by the
/// caller: yes by default, no when the parameter is `[NotOwning]`; unknown
/// callees follow the default.
pub fn out_param_owning(param: Option<&ParamDef>) -> bool {
    param.is_none_or(|p| p.ownership.is_owning(true))
}

/// Whether a parameter of the method a body implements is an obligation of the
/// body: `[Owning]` parameters (not default ones).
pub fn param_is_owning(param: &ParamDef) -> bool {
    param.mode != ParamMode::Out && param.ownership.is_owning(false)
}

/// Whether assigning to this parameter of the analysed body hands the value
/// to the caller: `out` and `ref` parameters are owning by default (the caller
/// reads the variable after the call; it gave up the value it passed in).
/// A lambda's parameters, which no attribute can annotate, follow the default.
pub fn param_hands_out(method: Option<&MethodDef>, body: &Body, index: u32) -> bool {
    match method {
        Some(m) => m
            .params
            .get(index as usize)
            .is_some_and(|p| p.mode.is_written() && p.ownership.is_owning(true)),
        None => body
            .param_modes
            .get(index as usize)
            .is_some_and(|m| m.is_written()),
    }
}

/// The `Dispose(bool disposing)` convention: an instance method with a single
/// `bool` parameter, named like one of the owner's must-call methods that is a
/// conventional disposal method (not `Disconnect(bool userInitiated)` of a
/// class whose must-call method is `Disconnect()`), or whose
/// parameter is named `disposing` (the helper `Dispose(bool)` hands its flag
/// to: `ReleaseResources(disposing)`). Its guarantees (`[Calls]`) are
/// understood for `disposing == true`, the call `Dispose()` makes.
pub fn is_dispose_pattern(program: &Program, method: &MethodDef, must_call: &[String]) -> bool {
    let [p] = method.params.as_slice() else {
        return false;
    };
    let is_bool = match p.ty.ty.filter(|t| program.get_ty(*t).is_some()) {
        Some(t) => Some(t) == program.well_known.boolean,
        None => p.name == program.conventions.dispose_flag,
    };
    method.kind == MethodKind::Ordinary
        && !method.is_static
        && p.mode == ParamMode::Value
        && is_bool
        && (must_call.contains(&method.name)
            && program.conventions.is_disposal_method(&method.name)
            || p.name == program.conventions.dispose_flag)
}

/// The first reachable store of each non-readonly owning field of `this` that
/// may give the object a new obligation (paper §5): a value whose static type
/// may carry one (not `null`, not a value of a type known to carry none).
/// What needs `[CreatesMustCallFor("this")]`, for the checker (RLC0009) and
/// inference alike. `reachable` is computed when not given and needed.
pub fn new_owning_field_stores(
    program: &Program,
    types: &MustCallTypes,
    body: &Body,
    reachable: Option<&[bool]>,
) -> Vec<(NodeId, FieldId)> {
    let Some(this) = body.this_var() else {
        return Vec::new();
    };
    let mut out: Vec<(NodeId, FieldId)> = Vec::new();
    let mut computed: Option<Vec<bool>> = None;
    for (i, node) in body.nodes.iter().enumerate() {
        let Stmt::Store {
            base: Some(b),
            field: FieldRef::Known(f),
            src: Operand::Var(v),
        } = &node.stmt
        else {
            continue;
        };
        if *b != this || out.iter().any(|(_, g)| g == f) {
            continue;
        }
        let Some(fd) = program.get_field(*f) else {
            continue;
        };
        if !fd.is_owning() || fd.is_readonly || types.of_value(&fd.ty).is_none() {
            continue;
        }
        let known_free = body
            .vars
            .get(v.index())
            .is_some_and(|var| var.ty.ty.is_some() && types.of_value(&var.ty).is_none());
        let reach = match reachable {
            Some(r) => r,
            None => computed.get_or_insert_with(|| crate::cfg::reachable(body)),
        };
        let n = NodeId(i as u32);
        if !known_free
            && reach.get(i).copied().unwrap_or(false)
            && !lazily_initialized(program, body, *f, n)
        {
            out.push((n, *f));
        }
    }
    out
}

/// Whether the store `n` into `this.f` runs only where `this.f` (or a field
/// guarding it) was just seen to be `null` (`f ??= new T()`, `if (f == null)
/// f = new T()`): a lazy
/// initialisation fills the object's own slot once instead of replacing a
/// value, so the object's existing obligation covers it.
fn lazily_initialized(program: &Program, body: &Body, f: FieldId, n: NodeId) -> bool {
    let guards = &program.field(f).guards;
    let loaded: Vec<VarId> = this_field_loads(body)
        .filter(|(_, g)| *g == f || guards.contains(g))
        .map(|(dst, _)| dst)
        .collect();
    if loaded.is_empty() {
        return false;
    }
    let null_edge = |from: NodeId, to: NodeId| match &body.node(from).succ {
        Succ::Branch {
            cond: Cond::IsNull(v),
            if_true,
            ..
        } => *if_true == to && loaded.contains(v),
        _ => false,
    };
    !cfg::reachable_without(body, n, null_edge)
}

/// The `leaveOpen` idiom in the program's own classes: a constructor stores a
/// `bool` parameter in a field, and a method of the class disposes another
/// field only under one value of it (`if (!this.leaveOpen) this.stream.Dispose()`).
/// The constructor's ownership then holds only for that value (as `[OwnsIf]`
/// states for the library), and the field is the object's ownership flag. A
/// fact the code states, derived the same way for checking and inference.
pub fn derive_ownership_flags(program: &mut Program, bodies: &Bodies) {
    // The bodies of each type's instance methods, where a flag may guard a disposal.
    let mut methods_of: rustc_hash::FxHashMap<crate::program::TypeId, Vec<&Body>> =
        Default::default();
    for d in bodies.iter() {
        if let Some(dm) = d.method.and_then(|m| program.get_method(m))
            && !dm.is_constructor()
            && !dm.is_static
        {
            methods_of.entry(dm.owner).or_default().push(d);
        }
    }
    let mut found: Vec<(crate::program::MethodId, u32, FieldId, bool)> = Vec::new();
    for body in bodies.iter() {
        let Some(m) = body.method else { continue };
        let Some(md) = program.get_method(m) else {
            continue;
        };
        let Some(this) = body.this_var() else {
            continue;
        };
        if !md.is_constructor() || md.ownership_condition.is_some() {
            continue;
        }
        // `this.f = param`: the fields this constructor fills from its arguments.
        let from_params: Vec<(FieldId, u32)> = body
            .nodes
            .iter()
            .filter_map(|node| match &node.stmt {
                Stmt::Store {
                    base: Some(b),
                    field: FieldRef::Known(f),
                    src: Operand::Var(v),
                } if *b == this => match body.var(*v).kind {
                    VarKind::Param(q) if program.get_field(*f).is_some_and(|f| !f.is_static) => {
                        Some((*f, q))
                    }
                    _ => None,
                },
                _ => None,
            })
            .collect();
        for &(g, q) in &from_params {
            // The flag must govern a value the constructor was given.
            let given: Vec<FieldId> = from_params
                .iter()
                .filter(|(f, p)| *f != g && *p != q)
                .map(|(f, _)| *f)
                .collect();
            let owner = program.field(g).owner;
            let guarded = methods_of
                .get(&owner)
                .and_then(|ds| ds.iter().find_map(|d| owned_when(program, d, g, &given)));
            if let Some(owned) = guarded {
                found.push((m, q, g, owned));
            }
        }
    }
    if !found.is_empty() {
        let types = MustCallTypes::compute(program);
        let body_of: FxHashMap<MethodId, &Body> =
            bodies.iter().filter_map(|b| Some((b.method?, b))).collect();
        let body = |d: MethodId| body_of.get(&d).copied();
        // Read before any condition is stored: the disposal bodies do not change.
        let own: Vec<bool> = found
            .iter()
            .map(|&(_, _, g, owned)| owes_nothing_unless(program, &types, &body, g, owned))
            .collect();
        set_ownership_conditions(program, found, own);
    }
    chain_ownership_conditions(program, bodies);
}

/// Stores each found condition (the first per constructor) and its flag field.
fn set_ownership_conditions(
    program: &mut Program,
    found: Vec<(MethodId, u32, FieldId, bool)>,
    own: Vec<bool>,
) {
    for ((m, q, g, owned), own_resource) in found.into_iter().zip(own) {
        if program.method(m).ownership_condition.is_some() {
            continue;
        }
        let md = &mut program.methods[m.index()];
        let default = match md.params.get(q as usize).and_then(|p| p.default.as_ref()) {
            Some(crate::program::Const::Bool(b)) => Some(*b),
            _ => None,
        };
        md.ownership_condition = Some(OwnershipCondition {
            param: q,
            holds_when: owned,
            default,
            own_resource,
        });
        program.fields[g.index()].ownership_flag = Some(owned);
    }
}

/// Whether an object of the ownership flag `g`'s class owes nothing unless
/// the flag is `owned`: with the other value its disposal methods release
/// nothing (`if (!_ownsInner) return; _inner.Dispose();`), so an object made
/// not owning is a view whose `Dispose` would do nothing. A finalizer or a
/// subclass with a disposal method of its own may release more.
fn owes_nothing_unless<'b>(
    program: &Program,
    types: &MustCallTypes,
    body_of: &dyn Fn(MethodId) -> Option<&'b Body>,
    g: FieldId,
    owned: bool,
) -> bool {
    let owner = program.field(g).owner;
    let ty = program.ty(owner);
    if ty.has_finalizer || subclass_overrides(program, owner) {
        return false;
    }
    let mut disposers = ty
        .methods
        .iter()
        .filter(|m| {
            let md = program.method(**m);
            !md.is_static && program.conventions.is_disposal_method(&md.name)
        })
        .peekable();
    disposers.peek().is_some()
        && disposers.all(|d| {
            body_of(*d).is_some_and(|b| {
                !releases_something(program, types, body_of, b, owner, Some((g, !owned)))
            })
        })
}

/// A constructor that passes one of its `bool` parameters on as the condition
/// of the `this(..)` or `base(..)` it calls owns under the same condition
/// (`Holder(Stream s, bool owns) : this(s, owns, null)`, `TlsStream(Stream s,
/// bool leaveOpen) : base(s, leaveOpen)` over `SslStream`), along chains of any
/// length. One that calls a constructor whose object owns nothing makes such
/// objects too (`Borrowed(nint h) : base(h, ownsHandle: false)`).
fn chain_ownership_conditions(program: &mut Program, bodies: &Bodies) {
    loop {
        let mut found: Vec<(crate::program::MethodId, u32, bool, bool)> = Vec::new();
        let mut borrowed: Vec<crate::program::MethodId> = Vec::new();
        for body in bodies.iter() {
            let Some(m) = body.method else { continue };
            if program.get_method(m).is_none_or(|md| {
                !md.is_constructor() || md.ownership_condition.is_some() || md.makes_borrowed
            }) {
                continue;
            }
            for node in &body.nodes {
                let Stmt::Call(call) = &node.stmt else {
                    continue;
                };
                let (CallKind::ThisConstructor | CallKind::BaseConstructor, Callee::Method(d)) =
                    (call.kind, &call.callee)
                else {
                    continue;
                };
                if new_owns_nothing(program, call) {
                    borrowed.push(m);
                    continue;
                }
                let Some(cond) = program
                    .get_method(*d)
                    .and_then(|d| d.ownership_condition.as_ref())
                else {
                    continue;
                };
                let passed = call
                    .args
                    .iter()
                    .find(|a| a.param == Some(cond.param))
                    .and_then(|a| a.value.var());
                if let Some(&VarKind::Param(q)) = passed.map(|v| &body.var(v).kind) {
                    found.push((m, q, cond.holds_when, cond.own_resource));
                }
            }
        }
        if found.is_empty() && borrowed.is_empty() {
            return;
        }
        for m in borrowed {
            program.methods[m.index()].makes_borrowed = true;
        }
        for (m, q, holds_when, own_resource) in found {
            let md = &mut program.methods[m.index()];
            let default = match md.params.get(q as usize).and_then(|p| p.default.as_ref()) {
                Some(crate::program::Const::Bool(b)) => Some(*b),
                _ => None,
            };
            md.ownership_condition = Some(OwnershipCondition {
                param: q,
                holds_when,
                default,
                own_resource,
            });
        }
    }
}

/// The value of `this.g` under which `body` disposes the fields `given`,
/// when it does so only under that value.
fn owned_when(program: &Program, body: &Body, g: FieldId, given: &[FieldId]) -> Option<bool> {
    let loads: rustc_hash::FxHashMap<VarId, FieldId> = this_field_loads(body).collect();
    let loaded_from = |v: VarId| loads.get(&v).copied();
    let flags: Vec<VarId> = body
        .nodes
        .iter()
        .filter_map(|node| match &node.succ {
            Succ::Branch {
                cond: Cond::Bool(t),
                ..
            } if loaded_from(*t) == Some(g) => Some(*t),
            _ => None,
        })
        .collect();
    if flags.is_empty() {
        return None;
    }
    let disposals = body
        .nodes
        .iter()
        .enumerate()
        .filter_map(|(i, node)| match &node.stmt {
            Stmt::Call(call)
                if call
                    .callee_name(program)
                    .is_some_and(|n| program.conventions.is_disposal_method(n))
                    && call
                        .receiver
                        .and_then(loaded_from)
                        .is_some_and(|f| given.contains(&f)) =>
            {
                Some(NodeId(i as u32))
            }
            _ => None,
        });
    let mut owned = None;
    for n in disposals {
        // Cut the edges taken when the flag is `value`: if the disposal is then
        // unreachable, it runs only while the flag is `value`.
        let only_when = [false, true].into_iter().find(|&value| {
            let cut = |from: NodeId, to: NodeId| match &body.node(from).succ {
                Succ::Branch {
                    cond: Cond::Bool(t),
                    if_true,
                    if_false,
                } if flags.contains(t) => to == if value { *if_true } else { *if_false },
                _ => false,
            };
            !cfg::reachable_without(body, n, cut)
        });
        match (owned, only_when) {
            // Disposed whatever the flag says: not this disposal's business.
            (_, None) => {}
            (Some(o), Some(v)) if o != v => return None,
            (_, Some(v)) => owned = Some(v),
        }
    }
    owned
}

/// `dst = this.f` in `body`: each load of a field of `this`, as (dst, f).
pub(crate) fn this_field_loads(body: &Body) -> impl Iterator<Item = (VarId, FieldId)> + '_ {
    let this = body.this_var();
    body.nodes.iter().filter_map(move |node| match &node.stmt {
        Stmt::Load {
            dst,
            base: Some(b),
            field: FieldRef::Known(f),
        } if Some(*b) == this => Some((*dst, *f)),
        _ => None,
    })
}

/// The fields of `this` that `body` calls a disposal method on.
pub(crate) fn disposed_this_fields(program: &Program, body: &Body) -> Vec<FieldId> {
    let loaded: FxHashMap<VarId, FieldId> = this_field_loads(body).collect();
    if loaded.is_empty() {
        return Vec::new();
    }
    body.nodes
        .iter()
        .filter_map(|node| {
            let Stmt::Call(call) = &node.stmt else {
                return None;
            };
            let r = call.receiver?;
            let name = call.callee_name(program)?;
            if !program.conventions.is_disposal_method(name) {
                return None;
            }
            loaded.get(&r).copied()
        })
        .collect()
}

/// The loads of `this`'s ownership flags in `body`, each with the value under
/// which the object owns.
pub fn flag_loads(program: &Program, body: &Body) -> Vec<(VarId, bool)> {
    this_field_loads(body)
        .filter_map(|(dst, f)| {
            program
                .get_field(f)?
                .ownership_flag
                .map(|owned| (dst, owned))
        })
        .collect()
}

/// A method that tests and sets an idempotence flag, and the answer it
/// gives while the flag is not set yet: the first disposal that asks it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct FlagTest {
    pub flag: TestedFlag,
    pub first_answer: bool,
}

/// Where a [`FlagTest`] finds its flag.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TestedFlag {
    /// A field of `this` (`bool IsDisposing { get { .. } }`).
    OfThis,
    /// The field its caller passes by `ref` to this parameter
    /// (`static bool CanDispose(ref long state)`).
    RefParam(u32),
}

/// Whether `def` (with `body`) tests and sets an idempotence flag and
/// returns one constant while it is not set: of `this` (`bool IsDisposing {
/// get { if (Interlocked.Exchange(ref _d, 1) != 0) return true; return false;
/// } }`, `{ var was = _flag; _flag = true; return was; }`), or passed by
/// `ref` (`static bool CanDispose(ref long state) => Interlocked
/// .CompareExchange(ref state, 1, 0) == 0;`). A disposal method that returns
/// early on the other answer is guarded as by the flag itself.
pub fn flag_test(program: &Program, def: &MethodDef, body: &Body) -> Option<FlagTest> {
    if def.is_virtual {
        return None;
    }
    let (flag, seeds) = if !def.is_static && def.params.is_empty() {
        (TestedFlag::OfThis, idempotence_flag_loads(body))
    } else {
        let mut refs = def
            .params
            .iter()
            .enumerate()
            .filter(|(_, p)| p.mode == ParamMode::Ref);
        let (Some((i, _)), None) = (refs.next(), refs.next()) else {
            return None;
        };
        let v = body.param_var(i as u32)?;
        // It sets the flag: the location receives a value.
        let sets = body.nodes.iter().any(|n| {
            matches!(&n.stmt, Stmt::Copy { dst, src: Operand::Const(Const::Int(_) | Const::Bool(_)) } if *dst == v)
        });
        if !sets {
            return None;
        }
        (TestedFlag::RefParam(i as u32), vec![(v, false)])
    };
    if seeds.is_empty() {
        return None;
    }
    let bools = BoolValues::compute(program, body, &seeds);
    let mut answers = body
        .nodes
        .iter()
        .enumerate()
        .filter_map(|(i, n)| match &n.stmt {
            Stmt::Return(value) => Some((NodeId(i as u32), value)),
            _ => None,
        })
        .filter(|(n, _)| bools.reached(*n))
        .map(|(n, value)| match value {
            Some(Operand::Const(Const::Bool(b))) => Some(*b),
            Some(Operand::Var(v)) => bools.before(n, *v),
            _ => None,
        });
    let first_answer = answers.next()??;
    answers
        .all(|a| a == Some(first_answer))
        .then_some(FlagTest { flag, first_answer })
}

/// The results of calls to flag tests ([`flag_test`]) of `this`'s flags, each
/// read as the test's first answer: on `this` for its own flags, or given a
/// field of `this` by `ref`.
pub fn flag_test_results(body: &Body, tests: &FxHashMap<MethodId, FlagTest>) -> Vec<(VarId, bool)> {
    let this = body.this_var();
    let fields: FxHashSet<VarId> = this_field_loads(body).map(|(v, _)| v).collect();
    body.nodes
        .iter()
        .filter_map(|node| {
            let Stmt::Call(call) = &node.stmt else {
                return None;
            };
            let Callee::Method(m) = call.callee else {
                return None;
            };
            let test = tests.get(&m)?;
            let of_this = match test.flag {
                TestedFlag::OfThis => call.receiver.is_some() && call.receiver == this,
                TestedFlag::RefParam(i) => call.args.iter().any(|a| {
                    a.param == Some(i)
                        && a.mode == ParamMode::Ref
                        && a.value.var().is_some_and(|v| fields.contains(&v))
                }),
            };
            of_this.then_some((call.dst?, test.first_answer))
        })
        .collect()
}

/// The loads of `this`'s idempotence flags in `body`, each read as `false`: a
/// method that sets a `bool` field of `this` to `true` (or an integer one to
/// non-zero) and returns early when it is already set (`if (_disposed)
/// return; ... _disposed = true;`, `if (Interlocked.Exchange(ref _d, 1) != 0)`)
/// promises its disposals for its first call, when the flag is not set yet.
pub fn idempotence_flag_loads(body: &Body) -> Vec<(VarId, bool)> {
    let Some(this) = body.this_var() else {
        return Vec::new();
    };
    let set: Vec<FieldId> = body
        .nodes
        .iter()
        .filter_map(|node| match &node.stmt {
            // `_disposed = true`, or an integer flag set to non-zero.
            Stmt::Store {
                base: Some(b),
                field: FieldRef::Known(f),
                src: Operand::Const(Const::Bool(true)),
            } if *b == this => Some(*f),
            Stmt::Store {
                base: Some(b),
                field: FieldRef::Known(f),
                src: Operand::Const(Const::Int(k)),
            } if *b == this && *k != 0 => Some(*f),
            _ => None,
        })
        .collect();
    if set.is_empty() {
        return Vec::new();
    }
    this_field_loads(body)
        .filter(|(_, f)| set.contains(f))
        .map(|(dst, _)| (dst, false))
        .collect()
}
