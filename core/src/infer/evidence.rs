//! The evidence inference reads off one body (the paper's Table 1), computed
//! optimistically: "there exists a statement that ...". Which parameter or
//! field of `this` a value may be comes from the body's flow-insensitive
//! resource-alias classes ([`AliasClasses`]), recomputed each round because
//! inferred `[MustCallAlias]` specs add pairs.

use rustc_hash::{FxHashMap, FxHashSet};

use crate::facts::{AliasClasses, ValueSource, defined_vars};
use crate::ir::{Bodies, Body, CallKind, Callee, FieldRef, NodeId, Operand, Stmt, VarId, VarKind};
use crate::must_call::MustCallTypes;
use crate::program::{Const, FieldId, MethodId, Program, Target};
use crate::resource_alias::{Condition, condition_at, own_condition_value};

/// One use of an alias class that may discharge or transfer its obligation.
#[derive(Clone, Debug)]
pub struct Disposal {
    pub node: NodeId,
    pub source: ValueSource,
    /// How: the must-call methods it calls (direct call or `[Calls]` of the callee).
    pub methods: Vec<String>,
    /// It was handed to an `[Owning]` parameter rather than disposed.
    pub transferred: bool,
    /// By a closure, which the checker takes as the disposal only when the
    /// closure disposes it on every path.
    pub deferred: bool,
    /// Through a variable whose type owes the disposal, whatever the declared
    /// type of the parameter it holds (`if (o is IDisposable d) d.Dispose();`,
    /// `((Stream)state).Dispose()` of an `object state`).
    pub typed_as_resource: bool,
}

/// The evidence of one body under the current specs.
#[derive(Clone, Debug, Default)]
pub struct Evidence {
    pub method: Option<MethodId>,
    /// Disposals (and ownership transfers) of parameters and `this` fields.
    pub disposals: Vec<Disposal>,
    /// `this.f = value`: (node, field, sources of the value, stored null).
    pub field_stores: Vec<(NodeId, FieldId, Vec<ValueSource>, bool)>,
    /// `this.f.Add(value)`, `this.f[k] = value`: (node, the collection's
    /// field, sources of the element).
    pub element_stores: Vec<(NodeId, FieldId, Vec<ValueSource>)>,
    /// `return value`: (node, sources of the value); `None` value for `return;`.
    pub returns: Vec<(NodeId, Option<Vec<ValueSource>>)>,
    /// Arguments passed to `: this(..)`/`: base(..)`: (node, callee, param, sources).
    pub ctor_chain: Vec<(NodeId, MethodId, u32, Vec<ValueSource>)>,
}

/// Reads the evidence of `body` (one of `bodies`, which hold its closures)
/// given the current specs.
pub fn evidence(
    program: &Program,
    types: &MustCallTypes,
    bodies: &Bodies,
    body: &Body,
) -> Evidence {
    let classes = AliasClasses::of(program, types, body);
    let this = body.this_var();
    let sources_of = |v: VarId| -> Vec<ValueSource> { classes.sources(v).to_vec() };
    // What a disposal of `v` disposes: a variable that may also hold a value the
    // body created (`conn = clone ? Clone() : client; .. if (clone) conn.Dispose()`)
    // is taken to dispose that value, not the parameter it may alias.
    // Parameters the body never assigns: disposing one disposes what the caller passed.
    let assigned: FxHashSet<VarId> = body
        .nodes
        .iter()
        .flat_map(|n| defined_vars(&n.stmt))
        .collect();
    // Fields the body opens again (`_connection.Open(); .. finally {
    // _connection.Close(); }`): closing one returns it to the state the
    // body found it in, which says nothing of who owns it (as for a
    // parameter: `crate::reopens`).
    let reopened: FxHashSet<ValueSource> = body
        .nodes
        .iter()
        .filter_map(|n| match &n.stmt {
            Stmt::Call(call)
                if matches!(call.callee, Callee::Method(m)
                    if program.get_method(m).is_some_and(|d| d.reopens)) =>
            {
                call.receiver
            }
            _ => None,
        })
        .flat_map(|r| classes.sources(r).iter().copied())
        .filter(|s| matches!(s, ValueSource::ThisField(_)))
        .collect();
    let disposed_of = |v: VarId| -> Vec<ValueSource> {
        if let VarKind::Param(i) = body.var(v).kind
            && !assigned.contains(&v)
        {
            return vec![ValueSource::Param(i)];
        }
        let sources = classes.sources(v);
        let created = sources.contains(&ValueSource::Created);
        sources
            .iter()
            .filter(|s| !(created && matches!(s, ValueSource::Param(_))))
            .filter(|s| !reopened.contains(s))
            .copied()
            .collect()
    };
    let mut ev = Evidence {
        method: body.method,
        ..Evidence::default()
    };
    let collections: FxHashMap<VarId, FieldId> = crate::ownership::this_field_loads(body).collect();
    for (i, node) in body.nodes.iter().enumerate() {
        let id = NodeId(i as u32);
        match &node.stmt {
            Stmt::Call(call) => {
                let method = match &call.callee {
                    Callee::Method(m) => program.get_method(*m),
                    _ => None,
                };
                let name = call.callee_name(program).unwrap_or("");
                // A direct call of a must-call method on the receiver.
                if let Some(r) = call.receiver
                    && types
                        .of_value(&body.var(r).ty)
                        .is_some_and(|o| o.is_satisfied_by(name))
                {
                    for source in disposed_of(r) {
                        ev.disposals.push(Disposal {
                            node: id,
                            source,
                            methods: vec![name.to_string()],
                            transferred: false,
                            deferred: false,
                            typed_as_resource: true,
                        });
                    }
                }
                if let Some(m) = method {
                    // `[Calls]` postconditions of the callee.
                    for spec in &m.calls {
                        let vars: Vec<ValueSource> = match &spec.target {
                            Target::This => call.receiver.map(disposed_of).unwrap_or_default(),
                            Target::Param(p) => {
                                call.arg_var(*p).map(disposed_of).unwrap_or_default()
                            }
                            Target::Field(f) => {
                                if call.receiver.is_some() && call.receiver == this {
                                    vec![ValueSource::ThisField(*f)]
                                } else {
                                    Vec::new()
                                }
                            }
                        };
                        for source in vars {
                            ev.disposals.push(Disposal {
                                node: id,
                                source,
                                methods: spec.methods.clone(),
                                transferred: false,
                                deferred: false,
                                typed_as_resource: false,
                            });
                        }
                    }
                    // Arguments handed to `[Owning]` parameters (unless `leaveOpen`-like
                    // arguments say otherwise).
                    let holds = condition_holds(program, body, call);
                    for a in &call.args {
                        let (Some(p), Some(v)) = (a.param, a.value.var()) else {
                            continue;
                        };
                        let Some(pd) = m.params.get(p as usize) else {
                            continue;
                        };
                        if pd.collection_element
                            && let Some(&f) = call.receiver.and_then(|r| collections.get(&r))
                        {
                            ev.element_stores.push((id, f, sources_of(v)));
                        }
                        if holds && pd.ownership.is_owning(false) {
                            for source in disposed_of(v) {
                                ev.disposals.push(Disposal {
                                    node: id,
                                    source,
                                    methods: Vec::new(),
                                    transferred: true,
                                    deferred: false,
                                    typed_as_resource: false,
                                });
                            }
                        }
                        // `this(input, owns: false)` hands nothing on.
                        if matches!(
                            call.kind,
                            CallKind::ThisConstructor | CallKind::BaseConstructor
                        ) && condition_at(program, call, |_| None) != Condition::Fails
                            && let Callee::Method(mid) = &call.callee
                        {
                            ev.ctor_chain.push((id, *mid, p, sources_of(v)));
                        }
                    }
                }
            }
            Stmt::Store {
                base,
                field: FieldRef::Known(f),
                src,
            } if base.is_some() && *base == this => {
                let is_null = matches!(src, Operand::Const(Const::Null));
                let rs = src.var().map(sources_of).unwrap_or_default();
                ev.field_stores.push((id, *f, rs, is_null));
            }
            Stmt::StoreElement {
                collection,
                src: Operand::Var(v),
            } => {
                if let Some(&f) = collections.get(collection) {
                    ev.element_stores.push((id, f, sources_of(*v)));
                }
            }
            Stmt::Return(value) => {
                let rs = value.as_ref().and_then(Operand::var).map(sources_of);
                ev.returns.push((id, rs));
            }
            // `token.Register(() => s.Dispose())`, `Register(s.Dispose)`: the
            // checker takes a closure that disposes what it captured as that
            // disposal.
            Stmt::Closure {
                body: closure,
                captures,
                ..
            } => {
                let Some(closure) = bodies.get(*closure) else {
                    continue;
                };
                for &q in captures {
                    let methods = closure_must_calls(program, types, closure, &body.var(q).name);
                    if methods.is_empty() {
                        continue;
                    }
                    for source in disposed_of(q) {
                        ev.disposals.push(Disposal {
                            node: id,
                            source,
                            methods: methods.clone(),
                            transferred: false,
                            deferred: true,
                            typed_as_resource: false,
                        });
                    }
                }
            }
            _ => {}
        }
    }
    ev
}

/// The must-call methods a closure calls on the variable it captured as `name`.
fn closure_must_calls(
    program: &Program,
    types: &MustCallTypes,
    closure: &Body,
    name: &str,
) -> Vec<String> {
    let mut methods: Vec<String> = Vec::new();
    for node in &closure.nodes {
        let Stmt::Call(call) = &node.stmt else {
            continue;
        };
        let Some(r) = call.receiver else { continue };
        let var = closure.var(r);
        if var.kind != VarKind::Captured || var.name != name {
            continue;
        }
        if let Some(m) = call.callee_name(program)
            && types
                .of_value(&var.ty)
                .is_some_and(|o| o.is_satisfied_by(m))
            && !methods.iter().any(|x| x == m)
        {
            methods.push(m.to_string());
        }
    }
    methods
}

/// Whether the call's ownership condition (`leaveOpen: false`, `disposeHandler:
/// true`) holds as written, or as the body's own ownership condition says when
/// the body passes that parameter on; another value not known from the call
/// itself does not.
fn condition_holds(program: &Program, body: &Body, call: &crate::ir::Call) -> bool {
    condition_at(program, call, |v| own_condition_value(program, body, v)) == Condition::Holds
}
