//! Def-use facts: which statements assign each variable of a body
//! (flow-insensitively). The checker's collection rules, the summaries and
//! inference all ask "where does this value come from?" through this one table.

use crate::ir::{Body, Callee, NodeId, Operand, Stmt, VarId, defined_vars};
use crate::program::ParamMode;

/// The statements that assign each variable, in node order, stored flat
/// (`nodes[starts[v]..starts[v + 1]]`): one allocation per body, not per
/// variable.
#[derive(Clone, Debug, Default)]
pub struct Definitions {
    starts: Vec<u32>,
    nodes: Vec<NodeId>,
}

impl Definitions {
    pub fn of(body: &Body) -> Definitions {
        let vars = body.vars.len();
        let mut starts = vec![0u32; vars + 1];
        for node in &body.nodes {
            for v in defined_vars(&node.stmt) {
                if v.index() < vars {
                    starts[v.index() + 1] += 1;
                }
            }
        }
        for i in 0..vars {
            starts[i + 1] += starts[i];
        }
        let mut next = starts.clone();
        let mut nodes = vec![NodeId(0); starts[vars] as usize];
        for (i, node) in body.nodes.iter().enumerate() {
            for v in defined_vars(&node.stmt) {
                if let Some(slot) = next.get_mut(v.index()).filter(|_| v.index() < vars) {
                    nodes[*slot as usize] = NodeId(i as u32);
                    *slot += 1;
                }
            }
        }
        Definitions { starts, nodes }
    }

    /// Every statement that assigns `var`.
    pub fn all(&self, var: VarId) -> &[NodeId] {
        let i = var.index();
        match (self.starts.get(i), self.starts.get(i + 1)) {
            (Some(&a), Some(&b)) => &self.nodes[a as usize..b as usize],
            _ => &[],
        }
    }

    /// The statement that assigns `var`, when there is exactly one.
    pub fn single(&self, var: VarId) -> Option<NodeId> {
        match self.all(var) {
            [one] => Some(*one),
            _ => None,
        }
    }

    /// The variable `var` is a copy of, followed through single-definition
    /// copies (`var client = this;` gives `this`); `var` itself otherwise.
    pub fn copied_from(&self, body: &Body, var: VarId) -> VarId {
        self.copied_from_until(body, var, |_| false)
    }

    /// [`Definitions::copied_from`], stopping at the first variable `stop`
    /// accepts (a parameter, whose value on entry no statement assigns).
    pub fn copied_from_until(
        &self,
        body: &Body,
        var: VarId,
        stop: impl Fn(VarId) -> bool,
    ) -> VarId {
        let mut v = var;
        for _ in 0..16 {
            if stop(v) {
                break;
            }
            match self.single(v).map(|n| &body.node(n).stmt) {
                Some(Stmt::Copy {
                    src: Operand::Var(s),
                    ..
                }) => v = *s,
                _ => break,
            }
        }
        v
    }

    /// The statements that give `var` its values, through copies from other
    /// variables (`r = a; .. r = b;`): every defining statement that is not
    /// such a copy.
    pub fn origins(&self, body: &Body, var: VarId) -> Vec<NodeId> {
        let mut seen: Vec<VarId> = Vec::new();
        let mut work = vec![var];
        let mut out = Vec::new();
        while let Some(v) = work.pop() {
            if seen.contains(&v) {
                continue;
            }
            seen.push(v);
            for &n in self.all(v) {
                match &body.node(n).stmt {
                    Stmt::Copy {
                        src: Operand::Var(s),
                        ..
                    } => work.push(*s),
                    _ => out.push(n),
                }
            }
        }
        out
    }

    /// The parameter `var` is (through copies: `F = p ?? throw ..`, `cnn is
    /// DbConnection c`), when the body never assigns it: it holds exactly
    /// what the caller passed.
    pub fn unassigned_param(&self, body: &Body, var: VarId) -> Option<u32> {
        let v = self.copied_from(body, var);
        match body.var(v).kind {
            crate::ir::VarKind::Param(i) if self.all(v).is_empty() => Some(i),
            _ => None,
        }
    }
}

/// Whether a statement reads `var` (an `out` argument is only written).
pub fn reads_var(stmt: &Stmt, var: VarId) -> bool {
    let is = |o: &Operand| *o == Operand::Var(var);
    match stmt {
        Stmt::Copy { src, .. } => is(src),
        Stmt::Load { base, .. } => *base == Some(var),
        Stmt::Store { base, src, .. } => *base == Some(var) || is(src),
        Stmt::Call(call) => {
            call.receiver == Some(var)
                || call.callee == Callee::Delegate(var)
                || call
                    .args
                    .iter()
                    .any(|a| a.mode != ParamMode::Out && is(&a.value))
        }
        Stmt::Element { collection, .. } => *collection == var,
        Stmt::StoreElement { collection, src } => *collection == var || is(src),
        Stmt::Closure { captures, .. } => captures.contains(&var),
        Stmt::Return(value) => value.as_ref().is_some_and(is),
        Stmt::Yield(value) => is(value),
        Stmt::Throw(value) => *value == Some(var),
        Stmt::Escape(vars) => vars.contains(&var),
        Stmt::Nop | Stmt::Opaque { .. } | Stmt::ScopeEnd(_) => false,
    }
}
