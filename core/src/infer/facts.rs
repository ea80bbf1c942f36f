//! The base facts inference reads off one body (the paper's Table 1), computed
//! optimistically: "there exists a statement that ...". Resource aliases are a
//! flow-insensitive union of copies and `[MustCallAlias]` pairs, recomputed each
//! round because inferred `[MustCallAlias]` specs add pairs.

use crate::ir::{Body, CallKind, Callee, FieldRef, NodeId, Operand, Stmt, VarId, VarKind};
use crate::must_call::MustCallTypes;
use crate::program::{Const, FieldId, MethodId, ParamMode, Program, Target};

/// What a resource-alias class of variables may hold.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Root {
    /// The method's parameter at this index.
    Param(u32),
    /// The field `this.f`.
    ThisField(FieldId),
}

/// Union-find over a body's variables.
struct Classes {
    parent: Vec<u32>,
}

impl Classes {
    fn new(n: usize) -> Classes {
        Classes {
            parent: (0..n as u32).collect(),
        }
    }
    fn find(&mut self, v: u32) -> u32 {
        let mut r = v;
        while self.parent[r as usize] != r {
            r = self.parent[r as usize];
        }
        let mut c = v;
        while self.parent[c as usize] != r {
            let next = self.parent[c as usize];
            self.parent[c as usize] = r;
            c = next;
        }
        r
    }
    fn union(&mut self, a: u32, b: u32) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            self.parent[ra.max(rb) as usize] = ra.min(rb);
        }
    }
}

/// One use of an alias class that may discharge or transfer its obligation.
#[derive(Clone, Debug)]
pub struct Disposal {
    pub node: NodeId,
    pub root: Root,
    /// How: the must-call methods it calls (direct call or `[Calls]` of the callee).
    pub methods: Vec<String>,
    /// It was handed to an `[Owning]` parameter rather than disposed.
    pub transferred: bool,
}

/// The facts of one body under the current specs.
#[derive(Clone, Debug, Default)]
pub struct BodyFacts {
    pub method: Option<MethodId>,
    /// Disposals (and ownership transfers) of parameters and `this` fields.
    pub disposals: Vec<Disposal>,
    /// `this.f = value`: (node, field, roots of the value, stored null).
    pub field_stores: Vec<(NodeId, FieldId, Vec<Root>, bool)>,
    /// `return value`: (node, roots of the value); `None` value for `return;`.
    pub returns: Vec<(NodeId, Option<Vec<Root>>)>,
    /// Arguments passed to `: this(..)`/`: base(..)`: (node, callee, param, roots).
    pub ctor_chain: Vec<(NodeId, MethodId, u32, Vec<Root>)>,
}

/// Reads the facts of `body` given the current specs.
pub fn body_facts(program: &Program, types: &MustCallTypes, body: &Body) -> BodyFacts {
    let n = body.vars.len();
    let mut classes = Classes::new(n);
    let this = body.this_var();
    let mut field_of: Vec<Option<FieldId>> = vec![None; n];
    let method = body.method.and_then(|m| program.get_method(m));
    // The elements of a `params` array are the arguments the caller passed: a
    // method that disposes them (`IOUtils.Dispose(params IDisposable[] objects)`)
    // disposes its parameter.
    let params_arrays: Vec<u32> = (0..n as u32)
        .filter(|&v| match body.vars[v as usize].kind {
            VarKind::Param(p) => method
                .and_then(|m| m.params.get(p as usize))
                .is_some_and(|pd| pd.mode == ParamMode::Params),
            _ => false,
        })
        .collect();
    let mut element_of: Vec<(VarId, VarId)> = Vec::new();
    for node in &body.nodes {
        match &node.stmt {
            Stmt::Copy {
                dst,
                src: Operand::Var(src),
            } => classes.union(dst.0, src.0),
            Stmt::Element { dst, collection } => element_of.push((*dst, *collection)),
            Stmt::Load {
                dst,
                base: Some(b),
                field: FieldRef::Known(f),
            } if Some(*b) == this => field_of[dst.index()] = Some(*f),
            Stmt::Call(call) => {
                let Callee::Method(m) = &call.callee else {
                    continue;
                };
                let Some(md) = program.get_method(*m) else {
                    continue;
                };
                if let Some(dst) = call.dst {
                    if md.ret_must_call_alias.is_some()
                        && let Some(p) = md.must_call_alias_param()
                        && let Some(v) = arg_var(call, p)
                    {
                        classes.union(dst.0, v.0);
                    }
                    if md.this_must_call_alias.is_some()
                        && let Some(r) = call.receiver
                    {
                        classes.union(dst.0, r.0);
                    }
                }
            }
            _ => {}
        }
    }
    for (dst, collection) in element_of {
        let c = classes.find(collection.0);
        if params_arrays.iter().any(|&v| classes.find(v) == c) {
            classes.union(dst.0, collection.0);
        }
    }
    // Roots of each class.
    let mut roots: Vec<Vec<Root>> = vec![Vec::new(); n];
    for (i, var) in body.vars.iter().enumerate() {
        let c = classes.find(i as u32) as usize;
        if let VarKind::Param(p) = var.kind {
            roots[c].push(Root::Param(p));
        }
        if let Some(f) = field_of[i] {
            roots[c].push(Root::ThisField(f));
        }
    }
    for r in &mut roots {
        r.sort();
        r.dedup();
    }
    let mut roots_of = |v: VarId| -> Vec<Root> {
        let c = classes.find(v.0) as usize;
        roots[c].clone()
    };
    let mut facts = BodyFacts {
        method: body.method,
        ..BodyFacts::default()
    };
    for (i, node) in body.nodes.iter().enumerate() {
        let id = NodeId(i as u32);
        match &node.stmt {
            Stmt::Call(call) => {
                let method = match &call.callee {
                    Callee::Method(m) => program.get_method(*m),
                    _ => None,
                };
                let name = match &call.callee {
                    Callee::Method(_) => method.map(|m| m.name.as_str()).unwrap_or(""),
                    Callee::Unresolved(n) => n.rsplit('.').next().unwrap_or(n),
                    Callee::Delegate(_) => "",
                };
                // A direct call of a must-call method on the receiver.
                if let Some(r) = call.receiver
                    && types
                        .of_value(&body.var(r).ty)
                        .is_some_and(|o| o.is_satisfied_by(name))
                {
                    for root in roots_of(r) {
                        facts.disposals.push(Disposal {
                            node: id,
                            root,
                            methods: vec![name.to_string()],
                            transferred: false,
                        });
                    }
                }
                if let Some(m) = method {
                    // `[Calls]` postconditions of the callee.
                    for spec in &m.calls {
                        let vars: Vec<Root> = match &spec.target {
                            Target::This => call.receiver.map(&mut roots_of).unwrap_or_default(),
                            Target::Param(p) => {
                                arg_var(call, *p).map(&mut roots_of).unwrap_or_default()
                            }
                            Target::Field(f) => {
                                if call.receiver.is_some() && call.receiver == this {
                                    vec![Root::ThisField(*f)]
                                } else {
                                    Vec::new()
                                }
                            }
                        };
                        for root in vars {
                            facts.disposals.push(Disposal {
                                node: id,
                                root,
                                methods: spec.methods.clone(),
                                transferred: false,
                            });
                        }
                    }
                    // Arguments handed to `[Owning]` parameters (unless `leaveOpen`-like
                    // arguments say otherwise).
                    let holds = condition_holds(program, call);
                    for a in &call.args {
                        let (Some(p), Some(v)) = (a.param, a.value.var()) else {
                            continue;
                        };
                        let Some(pd) = m.params.get(p as usize) else {
                            continue;
                        };
                        if holds && pd.ownership.is_owning(false) {
                            for root in roots_of(v) {
                                facts.disposals.push(Disposal {
                                    node: id,
                                    root,
                                    methods: Vec::new(),
                                    transferred: true,
                                });
                            }
                        }
                        if matches!(
                            call.kind,
                            CallKind::ThisConstructor | CallKind::BaseConstructor
                        ) && let Callee::Method(mid) = &call.callee
                        {
                            facts.ctor_chain.push((id, *mid, p, roots_of(v)));
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
                let rs = src.var().map(&mut roots_of).unwrap_or_default();
                facts.field_stores.push((id, *f, rs, is_null));
            }
            Stmt::Return(value) => {
                let rs = value.as_ref().and_then(Operand::var).map(&mut roots_of);
                facts.returns.push((id, rs));
            }
            _ => {}
        }
    }
    facts
}

fn arg_var(call: &crate::ir::Call, param: u32) -> Option<VarId> {
    call.args
        .iter()
        .find(|a| a.param == Some(param))
        .and_then(|a| a.value.var())
}

/// Whether the call's ownership condition (`leaveOpen: false`, `disposeHandler:
/// true`) holds as written; a value not known from the call itself does not.
fn condition_holds(program: &Program, call: &crate::ir::Call) -> bool {
    matches!(
        crate::resource_alias::condition_at(program, call, |_| None),
        crate::resource_alias::Condition::Holds
    )
}
