//! A readable listing of a body: the variable table, then one line per node in
//! the paper's three-address syntax with its successors and exception edge.
//! It is what someone chasing a false alarm reads, and what IR tests assert on.
//!
//! ```text
//! body C.M (method)
//!   var this: C [this]
//!   var s: FileStream [local]
//!   n0: nop -> n3
//!   n3: s = new FileStream() -> n4 !exc n2
//!   n4: s.Dispose() -> n5
//!   n5: scope end s -> n1
//!   n1: exit
//!   n2: exceptional exit
//! ```

use std::fmt::{self, Display, Formatter, Write};

use super::{
    Body, BodyKind, CallKind, Callee, Cond, FieldRef, NodeId, Operand, Stmt, Succ, VarId, VarKind,
};
use crate::program::{Const, FieldId, MethodId, ParamMode, Program, TypeId, ValueTy};

/// See [`Body::dump`].
pub struct BodyDump<'a> {
    pub(super) body: &'a Body,
    pub(super) program: Option<&'a Program>,
}

impl BodyDump<'_> {
    fn var(&self, v: VarId) -> String {
        let Some(var) = self.body.vars.get(v.index()) else {
            return format!("v{}?", v.0);
        };
        let unique = self.body.vars.iter().filter(|o| o.name == var.name).count() == 1;
        if unique && !var.name.is_empty() {
            var.name.clone()
        } else {
            format!("{}#{}", var.name, v.0)
        }
    }

    fn ty(&self, t: TypeId) -> String {
        match self.program.and_then(|p| p.get_ty(t)) {
            Some(d) => d.short_name().to_string(),
            None => format!("t#{}", t.0),
        }
    }

    fn value_ty(&self, t: &ValueTy) -> String {
        match (t.ty, t.element) {
            (Some(t), Some(e)) => format!("{} of {}", self.ty(t), self.ty(e)),
            (Some(t), None) => self.ty(t),
            (None, Some(e)) => format!("? of {}", self.ty(e)),
            (None, None) => "?".to_string(),
        }
    }

    fn method(&self, m: MethodId) -> String {
        match self.program.and_then(|p| p.get_method(m)) {
            Some(d) => d.name.clone(),
            None => format!("m#{}", m.0),
        }
    }

    fn field(&self, f: &FieldRef) -> String {
        match f {
            FieldRef::Known(FieldId(i)) => {
                match self.program.and_then(|p| p.get_field(FieldId(*i))) {
                    Some(d) => d.name.clone(),
                    None => format!("f#{i}"),
                }
            }
            FieldRef::Unknown(name) => format!("?{name}"),
        }
    }

    fn operand(&self, o: &Operand) -> String {
        match o {
            Operand::Var(v) => self.var(*v),
            Operand::Const(c) => match c {
                Const::Null => "null".into(),
                Const::Bool(b) => b.to_string(),
                Const::Int(i) => i.to_string(),
                Const::Str(s) => format!("{s:?}"),
                Const::Other => "<const>".into(),
            },
            Operand::Default => "_".into(),
        }
    }

    fn vars(&self, vs: &[VarId]) -> String {
        vs.iter()
            .map(|v| self.var(*v))
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn stmt(&self, stmt: &Stmt) -> String {
        match stmt {
            Stmt::Nop => "nop".into(),
            Stmt::Copy { dst, src } => format!("{} = {}", self.var(*dst), self.operand(src)),
            Stmt::Opaque { dst, owning } => {
                format!(
                    "{} = opaque{}",
                    self.var(*dst),
                    if *owning { " owning" } else { "" }
                )
            }
            Stmt::Load { dst, base, field } => {
                let base = base.map_or_else(|| "static".to_string(), |b| self.var(b));
                format!("{} = {base}.{}", self.var(*dst), self.field(field))
            }
            Stmt::Store { base, field, src } => {
                let base = base.map_or_else(|| "static".to_string(), |b| self.var(b));
                format!("{base}.{} = {}", self.field(field), self.operand(src))
            }
            Stmt::Call(c) => {
                let mut s = String::new();
                if let Some(d) = c.dst {
                    let _ = write!(s, "{} = ", self.var(d));
                }
                if c.awaited {
                    s.push_str("await ");
                }
                let args = c
                    .args
                    .iter()
                    .map(|a| {
                        let mode = match a.mode {
                            ParamMode::Out => "out ",
                            ParamMode::Ref => "ref ",
                            ParamMode::In => "in ",
                            ParamMode::Value | ParamMode::Params => "",
                        };
                        format!("{mode}{}", self.operand(&a.value))
                    })
                    .collect::<Vec<_>>()
                    .join(", ");
                let callee = match &c.callee {
                    Callee::Method(m) => self.method(*m),
                    Callee::Unresolved(n) => format!("?{n}"),
                    Callee::Delegate(v) => self.var(*v),
                };
                match c.kind {
                    CallKind::New => {
                        let ty = c
                            .new_type
                            .map_or_else(|| self.value_ty(&c.ty), |t| self.ty(t));
                        let _ = write!(s, "new {ty}({args})");
                    }
                    CallKind::BaseConstructor => {
                        let _ = write!(s, "base({args})");
                    }
                    CallKind::ThisConstructor => {
                        let _ = write!(s, "this({args})");
                    }
                    CallKind::Ordinary => {
                        if let Some(r) = c.receiver {
                            let _ = write!(s, "{}.", self.var(r));
                        }
                        let _ = write!(s, "{callee}({args})");
                    }
                    CallKind::Unsubscribe => {
                        let publisher = c.receiver.map_or("static".into(), |r| self.var(r));
                        let _ = write!(s, "unsubscribe {publisher}.{callee}");
                    }
                }
                s
            }
            Stmt::Element { dst, collection } => {
                format!("{} = element of {}", self.var(*dst), self.var(*collection))
            }
            Stmt::StoreElement { collection, src } => {
                format!("{}[..] = {}", self.var(*collection), self.operand(src))
            }
            Stmt::Closure {
                dst,
                body,
                captures,
            } => {
                let dst = dst
                    .map(|d| format!("{} = ", self.var(d)))
                    .unwrap_or_default();
                format!(
                    "{dst}closure body#{body} capturing [{}]",
                    self.vars(captures)
                )
            }
            Stmt::Return(v) => match v {
                Some(v) => format!("return {}", self.operand(v)),
                None => "return".into(),
            },
            Stmt::Yield(v) => format!("yield return {}", self.operand(v)),
            Stmt::Throw(v) => match v {
                Some(v) => format!("throw {}", self.var(*v)),
                None => "rethrow".into(),
            },
            Stmt::Escape(vs) => format!("escape {}", self.vars(vs)),
            Stmt::ScopeEnd(vs) => format!("scope end {}", self.vars(vs)),
        }
    }

    fn succ(&self, succ: &Succ) -> String {
        let n = |id: &NodeId| format!("n{}", id.0);
        match succ {
            Succ::None => String::new(),
            Succ::Goto(t) => format!(" -> {}", n(t)),
            Succ::Branch {
                cond,
                if_true,
                if_false,
            } => {
                let c = match cond {
                    Cond::IsNull(v) => format!("{} == null", self.var(*v)),
                    Cond::Bool(v) => self.var(*v),
                    Cond::Opaque => "?".into(),
                };
                format!(" -> if {c} then {} else {}", n(if_true), n(if_false))
            }
            Succ::Multi(ts) => format!(" -> {}", ts.iter().map(n).collect::<Vec<_>>().join(" | ")),
        }
    }
}

impl Display for BodyDump<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let b = self.body;
        let kind = match b.kind {
            BodyKind::Method => "method",
            BodyKind::Constructor => "constructor",
            BodyKind::StaticConstructor => "static constructor",
            BodyKind::Accessor => "accessor",
            BodyKind::Lambda => "lambda",
            BodyKind::LocalFunction => "local function",
            BodyKind::TopLevel => "top-level statements",
        };
        let mut flags = vec![kind.to_string()];
        if b.is_async {
            flags.push("async".into());
        }
        if b.is_iterator {
            flags.push("iterator".into());
        }
        if let Some(p) = b.parent {
            flags.push(format!("in body#{p}"));
        }
        writeln!(f, "body {} ({})", b.name, flags.join(", "))?;
        for (i, v) in b.vars.iter().enumerate() {
            let kind = match &v.kind {
                VarKind::Param(i) => format!("param {i}"),
                VarKind::This => "this".into(),
                VarKind::Local => "local".into(),
                VarKind::Temp => "temp".into(),
                VarKind::Captured => "captured".into(),
            };
            writeln!(
                f,
                "  var {}: {} [{kind}]",
                self.var(VarId(i as u32)),
                self.value_ty(&v.ty)
            )?;
        }
        // Entry first, exits last, the rest in id order.
        let order = std::iter::once(b.entry)
            .chain(
                (0..b.nodes.len() as u32)
                    .map(NodeId)
                    .filter(|n| ![b.entry, b.exit, b.exc_exit].contains(n)),
            )
            .chain([b.exit, b.exc_exit]);
        for id in order {
            let Some(node) = b.nodes.get(id.index()) else {
                continue;
            };
            let text = if id == b.exit {
                "exit".to_string()
            } else if id == b.exc_exit {
                "exceptional exit".to_string()
            } else {
                self.stmt(&node.stmt)
            };
            write!(f, "  n{}: {text}{}", id.0, self.succ(&node.succ))?;
            if let Some(e) = &node.exc {
                write!(
                    f,
                    " !exc n{}{}",
                    e.target.0,
                    if e.explicit { " (explicit)" } else { "" }
                )?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}
