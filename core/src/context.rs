//! What the analyses of one body share: the body, the spec queries about it,
//! and facts computed once per body (reachability, known `bool` values, the
//! called-methods facts of every call, definitions of variables). Built per
//! body and thrown away after it, so bodies can be checked in parallel.

use std::cell::{OnceCell, RefCell};

use rustc_hash::FxHashMap;

use crate::called_methods::{CalledMethod, called_methods};
use crate::cfg;
use crate::checker::Checker;
use crate::ir::{Body, NodeId, Operand, Stmt, VarId, VarKind};
use crate::must_call::{MustCallTypes, Obligation};
use crate::ownership;
use crate::program::{MethodDef, MustCall, Program};
use crate::resource_alias::{BoolValues, FieldKeys};

/// How a variable is defined in the body (flow-insensitively).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Def {
    None,
    One(NodeId),
    Many,
}

pub struct BodyCx<'a> {
    pub checker: &'a Checker<'a>,
    pub program: &'a Program,
    pub types: &'a MustCallTypes,
    pub index: usize,
    pub body: &'a Body,
    pub method: Option<&'a MethodDef>,
    pub this: Option<VarId>,
    pub fields: FieldKeys,
    pub bools: BoolValues,
    pub reachable: Vec<bool>,
    /// Whether `return x` hands `x`'s obligation to the caller.
    pub returns_owning: bool,
    pub defs: Vec<Def>,
    called: Vec<Vec<CalledMethod<'a>>>,
    /// Loop headers of element-wise disposal loops, with the collections they dispose.
    element_loops: OnceCell<FxHashMap<NodeId, Vec<VarId>>>,
    closure_cache: RefCell<FxHashMap<(u32, VarId, MustCall), bool>>,
}

impl<'a> BodyCx<'a> {
    /// `seeds`: `bool` parameters whose value is assumed at entry.
    pub fn new(
        checker: &'a Checker<'a>,
        index: usize,
        seeds: &[(VarId, bool)],
    ) -> Option<BodyCx<'a>> {
        let program = checker.program;
        let body = checker.bodies.get(index)?;
        let bools = BoolValues::compute(program, body, seeds);
        let types = &checker.types;
        let called = body
            .nodes
            .iter()
            .enumerate()
            .map(|(i, node)| match &node.stmt {
                Stmt::Call(call) => {
                    called_methods(program, types, call, |v| bools.before(NodeId(i as u32), v))
                }
                _ => Vec::new(),
            })
            .collect();
        let mut defs = vec![Def::None; body.vars.len()];
        for (i, node) in body.nodes.iter().enumerate() {
            for v in defined_vars(&node.stmt) {
                if let Some(d) = defs.get_mut(v.index()) {
                    *d = match d {
                        Def::None => Def::One(NodeId(i as u32)),
                        _ => Def::Many,
                    };
                }
            }
        }
        Some(BodyCx {
            checker,
            program,
            types,
            index,
            body,
            method: body.method.and_then(|m| program.get_method(m)),
            this: body.this_var(),
            fields: FieldKeys::of_body(body),
            bools,
            reachable: cfg::reachable(body),
            returns_owning: ownership::body_returns_owning(program, body),
            defs,
            called,
            element_loops: OnceCell::new(),
            closure_cache: RefCell::new(FxHashMap::default()),
        })
    }

    /// The called-methods facts of the call at `node` (empty for other statements).
    pub fn called(&self, node: NodeId) -> &[CalledMethod<'a>] {
        self.called.get(node.index()).map_or(&[], Vec::as_slice)
    }

    /// The obligation of a variable's static type.
    pub fn var_obligation(&self, var: VarId) -> Option<&'a Obligation> {
        self.types.of_value(&self.body.vars.get(var.index())?.ty)
    }

    /// A user-visible name for a variable (`None` for temporaries).
    pub fn var_name(&self, var: VarId) -> Option<&'a str> {
        let v = self.body.vars.get(var.index())?;
        match v.kind {
            VarKind::Temp => None,
            VarKind::This => Some("this"),
            _ => Some(v.name.as_str()),
        }
    }

    /// The statement that defines `var`, when there is exactly one.
    pub fn single_def(&self, var: VarId) -> Option<&'a Stmt> {
        match self.defs.get(var.index())? {
            Def::One(n) => Some(&self.body.node(*n).stmt),
            _ => None,
        }
    }

    /// Collections that an element-wise disposal loop headed at `node` disposes.
    pub fn element_loop_collections(&self, node: NodeId) -> &[VarId] {
        let loops = self
            .element_loops
            .get_or_init(|| crate::collections::element_disposal_loops(self));
        loops.get(&node).map_or(&[], Vec::as_slice)
    }

    /// Whether the lambda or local function `closure` disposes the enclosing
    /// method's `var` (captured by name) on every normal path, memoized.
    pub fn closure_disposes(&self, closure: u32, var: VarId, must_call: &MustCall) -> bool {
        let key = (closure, var, must_call.clone());
        if let Some(&known) = self.closure_cache.borrow().get(&key) {
            return known;
        }
        let result = crate::collections::closure_disposes_captured(self, closure, var, must_call);
        self.closure_cache.borrow_mut().insert(key, result);
        result
    }
}

/// The variables a statement assigns.
pub fn defined_vars(stmt: &Stmt) -> impl Iterator<Item = VarId> + '_ {
    let (single, call_outs): (Option<VarId>, &[crate::ir::Arg]) = match stmt {
        Stmt::Copy { dst, .. }
        | Stmt::Opaque { dst, .. }
        | Stmt::Load { dst, .. }
        | Stmt::Element { dst, .. } => (Some(*dst), &[]),
        Stmt::Closure { dst, .. } => (*dst, &[]),
        Stmt::Call(call) => (call.dst, call.args.as_slice()),
        _ => (None, &[]),
    };
    single.into_iter().chain(call_outs.iter().filter_map(|a| {
        match (&a.value, a.mode.is_written()) {
            (Operand::Var(v), true) => Some(*v),
            _ => None,
        }
    }))
}
