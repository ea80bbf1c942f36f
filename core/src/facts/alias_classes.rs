//! Flow-insensitive resource-alias classes of a body's variables: the union of
//! copies and `[MustCallAlias]` pairs (paper §4), and, for a `params` array,
//! its elements (the arguments the caller passed). Inference reads "which
//! parameter or field of `this` may this value be, or is it a resource the
//! body creates?" from them; the checker
//! tracks the same aliases flow-sensitively (`consistency`), over the same
//! `[MustCallAlias]` pairs ([`crate::resource_alias::wrapped_by`]).

use crate::ir::{Body, CallKind, Callee, FieldRef, Operand, Stmt, VarId, VarKind};
use crate::must_call::MustCallTypes;
use crate::ownership;
use crate::program::{FieldId, ParamMode, Program};
use crate::resource_alias::{Condition, Wrapped, condition_at, wrapped_by};

/// A value a resource-alias class may hold that inference can name.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ValueSource {
    /// The method's parameter at this index.
    Param(u32),
    /// The field `this.f`.
    ThisField(FieldId),
    /// A resource the body creates and owns: a `new`, an owning call result or
    /// an owning `out` argument, with an obligation.
    Created,
}

/// The classes of one body, each with the sources it may hold.
#[derive(Clone, Debug, Default)]
pub struct AliasClasses {
    /// The class of each variable.
    class: Vec<u32>,
    /// The sources of each class (indexed by class), sorted.
    sources: Vec<Vec<ValueSource>>,
}

impl AliasClasses {
    /// The classes of `body` under the program's current `[MustCallAlias]` specs.
    pub fn of(program: &Program, types: &MustCallTypes, body: &Body) -> AliasClasses {
        let n = body.vars.len();
        let mut uf = UnionFind::new(n);
        let this = body.this_var();
        let mut field_of: Vec<Option<FieldId>> = vec![None; n];
        let mut created = vec![false; n];
        let method = body.method.and_then(|m| program.get_method(m));
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
                } => uf.union(dst.0, src.0),
                Stmt::Element { dst, collection } => element_of.push((*dst, *collection)),
                Stmt::Load {
                    dst,
                    base: Some(b),
                    field: FieldRef::Known(f),
                } if Some(*b) == this => field_of[dst.index()] = Some(*f),
                Stmt::Call(call) => {
                    // What the checker starts an obligation for (InitialObligations);
                    // a resource alias of an argument (`NotNull(x)`, `new
                    // StreamReader(x)`) is that argument, not a new value: disposing
                    // it disposes the argument.
                    // `new Reader(s, leaveOpen: true)` is no alias of `s`.
                    let aliases = condition_at(program, call, |_| None) != Condition::Fails;
                    let wrapped = wrapped_by(program, call);
                    let alias_of_arg = aliases
                        && !wrapped.is_empty()
                        && !wrapped.iter().any(|w| matches!(w, Wrapped::Receiver(_)));
                    if let Some(dst) = call.dst
                        && !matches!(
                            call.kind,
                            CallKind::BaseConstructor | CallKind::ThisConstructor
                        )
                        && !alias_of_arg
                        && ownership::call_result_owning(program, call)
                        && types.of_call_result(program, call).is_some()
                    {
                        created[dst.index()] = true;
                    }
                    for a in &call.args {
                        let param = ownership::callee_param(program, call, a.param);
                        if let (ParamMode::Out, Some(v)) = (a.mode, a.value.var())
                            && ownership::out_param_owning(param)
                            && (types.of_value(&body.var(v).ty).is_some()
                                || param.is_some_and(|p| types.of_value(&p.ty).is_some()))
                        {
                            created[v.index()] = true;
                        }
                    }
                    let (Callee::Method(m), Some(dst)) = (&call.callee, call.dst) else {
                        continue;
                    };
                    let Some(md) = program.get_method(*m) else {
                        continue;
                    };
                    if aliases
                        && md.ret_must_call_alias.is_some()
                        && let Some(p) = md.must_call_alias_param()
                        && let Some(v) = call.arg_var(p)
                    {
                        uf.union(dst.0, v.0);
                    }
                    if md.this_must_call_alias.is_some()
                        && let Some(r) = call.receiver
                    {
                        uf.union(dst.0, r.0);
                    }
                }
                _ => {}
            }
        }
        for (dst, collection) in element_of {
            let c = uf.find(collection.0);
            if params_arrays.iter().any(|&v| uf.find(v) == c) {
                uf.union(dst.0, collection.0);
            }
        }
        let class: Vec<u32> = (0..n as u32).map(|v| uf.find(v)).collect();
        let mut sources: Vec<Vec<ValueSource>> = vec![Vec::new(); n];
        for (i, var) in body.vars.iter().enumerate() {
            let c = class[i] as usize;
            if let VarKind::Param(p) = var.kind {
                sources[c].push(ValueSource::Param(p));
            }
            if let Some(f) = field_of[i] {
                sources[c].push(ValueSource::ThisField(f));
            }
            if created[i] {
                sources[c].push(ValueSource::Created);
            }
        }
        for s in &mut sources {
            s.sort();
            s.dedup();
        }
        AliasClasses { class, sources }
    }

    /// The sources the class of `var` may hold.
    /// Whether `a` and `b` may be resource aliases of each other.
    pub fn same(&self, a: VarId, b: VarId) -> bool {
        self.class
            .get(a.index())
            .is_some_and(|c| self.class.get(b.index()) == Some(c))
    }

    pub fn sources(&self, var: VarId) -> &[ValueSource] {
        self.class
            .get(var.index())
            .and_then(|c| self.sources.get(*c as usize))
            .map_or(&[], Vec::as_slice)
    }
}

/// Union-find over variable indices; the smaller index represents a class.
struct UnionFind {
    parent: Vec<u32>,
}

impl UnionFind {
    fn new(n: usize) -> UnionFind {
        UnionFind {
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
