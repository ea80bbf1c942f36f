//! The core IR: one control-flow graph per method body, of three-address
//! statements in the paper's language (section 2.4): `x = new T(..)`,
//! `x = m(recv, args)`, `x = y`, `x = y.f`, `y.f = x`, `return x`, `throw`,
//! branches on `x == null` / `x != null`, with a temporary for every value
//! that may carry an obligation.
//!
//! The graph is statement-level (one node per statement), as Algorithm 1 maps
//! each statement to the facts reaching it. Every node that may throw has an
//! exceptional edge to the innermost handler (a `catch`, a `finally`, or the
//! exceptional exit); the checker decides which of those edges to believe
//! (the exception model).
//!
//! Conventions the checker relies on (the lowering follows them):
//! - `Throw` has no normal successor; its `exc` edge goes to the innermost
//!   handler (or `exc_exit`) and is always followed.
//! - `Return` flows to `exit`, through the `finally` blocks it leaves; a
//!   `finally` is lowered once per way in (normal, each jump, exceptional), as
//!   compilers do, so normal paths never look exceptional.
//! - The `exit` node's span is the closing brace of the body (where "the method
//!   ends here" is reported); `exc_exit` may share it.
//! - `using`/`await using` become try/finally with a `Dispose`/`DisposeAsync`
//!   call (`awaited`) on the resource, behind a null test where C# has one.
//! - `foreach (var x in c)` is a loop whose body starts with
//!   `Element { dst: x, collection: c }` (`c` the collection, not its enumerator).
//! - A lambda or local function is its own `Body` (`parent` set); variables it
//!   captures are `VarKind::Captured` vars with the enclosing variable's name,
//!   and the `Closure` statement of the enclosing body lists them.
//! - Every local gets a `ScopeEnd` where its scope closes on each path;
//!   temporaries may be left to the exit.
//! - `base.M()` is a call with `this` as receiver.

mod dump;

use serde::Serialize;

use crate::program::{Const, FieldId, MethodId, ParamMode, Program, TypeId, ValueTy};
use crate::span::Span;

pub use dump::BodyDump;

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct VarId(pub u32);

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct NodeId(pub u32);

/// A body in a [`Bodies`] arena.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct BodyId(pub u32);

impl BodyId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl std::fmt::Display for BodyId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl VarId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl NodeId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum VarKind {
    /// The formal parameter at this index.
    Param(u32),
    /// The receiver.
    This,
    /// A local the user declared.
    Local,
    /// A temporary the lowering introduced for a subexpression.
    Temp,
    /// A variable of an enclosing method captured by this lambda or local function.
    Captured,
}

#[derive(Clone, Debug, Serialize)]
pub struct Var {
    pub name: String,
    pub kind: VarKind,
    pub ty: ValueTy,
    /// Where it is declared (for temporaries: the expression it holds).
    pub span: Span,
}

/// A statement's operand.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Operand {
    Var(VarId),
    Const(Const),
    /// An argument left out; the parameter's default value is used.
    Default,
}

impl Operand {
    pub fn var(&self) -> Option<VarId> {
        match self {
            Operand::Var(v) => Some(*v),
            _ => None,
        }
    }
}

/// A field as the lowering could resolve it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum FieldRef {
    Known(FieldId),
    /// A field or property the front end could not resolve.
    Unknown(String),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Callee {
    Method(MethodId),
    /// A call the front end could not bind; the name is kept for messages.
    Unresolved(String),
    /// Invoking a delegate held in a variable.
    Delegate(VarId),
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub enum CallKind {
    Ordinary,
    /// `new T(..)`: the result is a fresh object.
    New,
    /// `: base(..)` in a constructor.
    BaseConstructor,
    /// `: this(..)` in a constructor.
    ThisConstructor,
    /// `publisher.E -= handler`: detaching a handler from an event (the
    /// receiver is the publisher, none for a static event), after which the
    /// publisher no longer keeps the handler's target alive.
    Unsubscribe,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Arg {
    /// The callee parameter this argument binds to (after named arguments and
    /// `params` are sorted out); `None` when the callee is unknown.
    pub param: Option<u32>,
    pub value: Operand,
    pub mode: ParamMode,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Call {
    pub dst: Option<VarId>,
    pub callee: Callee,
    pub kind: CallKind,
    pub receiver: Option<VarId>,
    pub args: Vec<Arg>,
    /// `await m(..)` folded into the call: `dst` is the awaited result.
    pub awaited: bool,
    /// The static type of the result (after `await`, if awaited).
    pub ty: ValueTy,
    /// Type whose constructor this is, for `new` (also when the constructor
    /// itself could not be resolved).
    pub new_type: Option<TypeId>,
}

impl Call {
    /// The argument bound to the callee's parameter `param`.
    pub fn arg(&self, param: u32) -> Option<&Arg> {
        self.args.iter().find(|a| a.param == Some(param))
    }
    /// The variable passed for the callee's parameter `param`.
    pub fn arg_var(&self, param: u32) -> Option<VarId> {
        self.arg(param).and_then(|a| a.value.var())
    }
    /// The collection a `[CollectionElement]` argument goes into: the
    /// receiver, or the collection a constructor makes (`new List<T>(items)`).
    pub fn element_receiver(&self) -> Option<VarId> {
        match self.kind {
            CallKind::New => self.dst,
            _ => self.receiver,
        }
    }
    /// The called method's simple name: the resolved method's, or the last
    /// segment of an unbound call's (still a call of that name on that
    /// receiver); `None` for a delegate.
    pub fn callee_name<'a>(&'a self, program: &'a Program) -> Option<&'a str> {
        match &self.callee {
            Callee::Method(m) => program.get_method(*m).map(|m| m.name.as_str()),
            Callee::Unresolved(n) => Some(n.rsplit('.').next().unwrap_or(n)),
            Callee::Delegate(_) => None,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Stmt {
    /// Entry, join points, and anything without an effect on obligations.
    Nop,
    /// `dst = src`.
    Copy { dst: VarId, src: Operand },
    /// `dst = <value from somewhere the lowering cannot see>`: for example the
    /// result of `await task` on a task variable. `owning` says whether the value
    /// comes with an obligation for this method.
    Opaque { dst: VarId, owning: bool },
    /// `dst = base.field` (`base` is `None` for a static field).
    Load {
        dst: VarId,
        base: Option<VarId>,
        field: FieldRef,
    },
    /// `base.field = src`.
    Store {
        base: Option<VarId>,
        field: FieldRef,
        src: Operand,
    },
    /// `dst = callee(receiver, args)`, including `new`.
    Call(Box<Call>),
    /// `dst = <one element of collection>` (a `foreach` variable, an indexer read).
    Element { dst: VarId, collection: VarId },
    /// `collection[..] = src` or another store into an array or collection the
    /// lowering recognised.
    StoreElement { collection: VarId, src: Operand },
    /// `dst = <lambda or local function `body`>` capturing `captures`.
    Closure {
        dst: Option<VarId>,
        body: BodyId,
        captures: Vec<VarId>,
    },
    /// `return value` (also assignment to the result of an expression-bodied member).
    Return(Option<Operand>),
    /// `yield return value`: the value goes to the consumer of the iterator.
    Yield(Operand),
    /// `throw value` (`None`: rethrow).
    Throw(Option<VarId>),
    /// The values escape somewhere the analyses cannot follow (an unsupported
    /// construct); obligations of these variables are given up without a report.
    Escape(Vec<VarId>),
    /// These variables go out of scope here: the place a leak is reported.
    ScopeEnd(Vec<VarId>),
}

/// What a branch tests.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Cond {
    /// `var == null`: the true edge knows `var` is null.
    IsNull(VarId),
    /// The variable itself (a `bool`): the true edge knows it is `true`.
    Bool(VarId),
    /// Anything else.
    Opaque,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Succ {
    /// The exits have no successor.
    None,
    Goto(NodeId),
    Branch {
        cond: Cond,
        if_true: NodeId,
        if_false: NodeId,
    },
    /// Several targets without a known condition (a `switch`).
    Multi(Vec<NodeId>),
}

impl Succ {
    /// Whether the branch tests `var`.
    pub fn tests(&self, var: VarId) -> bool {
        matches!(self, Succ::Branch { cond: Cond::IsNull(v) | Cond::Bool(v), .. } if *v == var)
    }

    pub fn targets(&self) -> impl Iterator<Item = NodeId> + '_ {
        let (a, b, rest): (Option<NodeId>, Option<NodeId>, &[NodeId]) = match self {
            Succ::None => (None, None, &[]),
            Succ::Goto(n) => (Some(*n), None, &[]),
            Succ::Branch {
                if_true, if_false, ..
            } => (Some(*if_true), Some(*if_false), &[]),
            Succ::Multi(v) => (None, None, v.as_slice()),
        };
        a.into_iter().chain(b).chain(rest.iter().copied())
    }
}

/// An edge taken when the statement throws.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ExcEdge {
    pub target: NodeId,
    /// Inside a `try` the user wrote with a `catch` or `finally`: the code shows it
    /// expects exceptions here (the Tracker paper's belief rule).
    pub explicit: bool,
}

#[derive(Clone, Debug, Serialize)]
pub struct Node {
    pub stmt: Stmt,
    pub span: Span,
    pub succ: Succ,
    pub exc: Option<ExcEdge>,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub enum BodyKind {
    Method,
    Constructor,
    /// Static constructor together with static field initializers.
    StaticConstructor,
    Accessor,
    /// A lambda or anonymous method nested in another body.
    Lambda,
    LocalFunction,
    /// Top-level statements of a program.
    TopLevel,
}

/// One method body as a CFG.
#[derive(Clone, Debug, Serialize)]
pub struct Body {
    /// The method this body implements (`None` for lambdas and top-level code).
    pub method: Option<MethodId>,
    /// For lambdas and local functions: the body (in the same [`Bodies`])
    /// that contains them.
    pub parent: Option<BodyId>,
    /// `Type.Method`, `Type..ctor`, `Type.Method.<lambda#1>`, for messages and dumps.
    pub name: String,
    /// The member as fingerprints name it: namespace, type, name and parameter
    /// types as written (`App.C.Run(int)`, `App.C..ctor(Stream)`), so that
    /// overloads differ; lambdas number within their enclosing body. Empty:
    /// `name` is used.
    pub key: String,
    pub kind: BodyKind,
    pub vars: Vec<Var>,
    pub nodes: Vec<Node>,
    pub entry: NodeId,
    /// Normal exit: reaching it means the method returned.
    pub exit: NodeId,
    /// Exceptional exit: reaching it means an exception left the method.
    pub exc_exit: NodeId,
    pub is_async: bool,
    pub is_iterator: bool,
    pub span: Span,
    /// Variables a `using` declares, with one of the calls that dispose them:
    /// never assigned after their declaration, and disposed by such a call on
    /// every way out of their scope (the lowering's promise). Lets the
    /// analysis settle an obligation only they hold without walking the
    /// rest of the scope.
    pub guarded: Vec<(VarId, NodeId)>,
    /// For lambdas, which have no method to say it: how each parameter is
    /// passed, as written (`(ref Stream a, out Stream b) => ..`). Empty for
    /// other bodies.
    pub param_modes: Vec<ParamMode>,
}

impl Body {
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id.index()]
    }
    pub fn var(&self, id: VarId) -> &Var {
        &self.vars[id.index()]
    }
    /// Normal and exceptional successors.
    pub fn successors(&self, id: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        let n = self.node(id);
        n.succ.targets().chain(n.exc.as_ref().map(|e| e.target))
    }
    /// What fingerprints call this body's member (see [`Body::key`]).
    pub fn fingerprint_key(&self) -> &str {
        if self.key.is_empty() {
            &self.name
        } else {
            &self.key
        }
    }
    pub fn param_var(&self, index: u32) -> Option<VarId> {
        self.vars
            .iter()
            .position(|v| v.kind == VarKind::Param(index))
            .map(|i| VarId(i as u32))
    }
    pub fn this_var(&self) -> Option<VarId> {
        self.vars
            .iter()
            .position(|v| v.kind == VarKind::This)
            .map(|i| VarId(i as u32))
    }

    /// Checks that every id in the body is in range (nodes, variables, and the
    /// methods, fields, types and bodies it names), so the analyses can index
    /// without failing. `bodies`: the number of bodies closures may refer to.
    pub fn validate(&self, program: &Program, bodies: usize) -> Result<(), String> {
        let nodes = self.nodes.len();
        let node_ok = |n: NodeId| n.index() < nodes;
        let var_ok = |v: VarId| v.index() < self.vars.len();
        let ty_ok = |t: &ValueTy| {
            [t.ty, t.element]
                .into_iter()
                .flatten()
                .all(|t| program.get_ty(t).is_some())
        };
        for (what, n) in [
            ("entry", self.entry),
            ("exit", self.exit),
            ("exc_exit", self.exc_exit),
        ] {
            if !node_ok(n) {
                return Err(format!("{what} n{} does not exist", n.0));
            }
        }
        if let Some(m) = self.method
            && program.get_method(m).is_none()
        {
            return Err(format!("unknown method #{}", m.0));
        }
        for (i, v) in self.vars.iter().enumerate() {
            if !ty_ok(&v.ty) {
                return Err(format!("v{i} has an unknown type"));
            }
        }
        for (i, node) in self.nodes.iter().enumerate() {
            let bad = |what: &str| Err(format!("n{i}: {what}"));
            if !node.succ.targets().all(node_ok)
                || node.exc.as_ref().is_some_and(|e| !node_ok(e.target))
            {
                return bad("edge to a node that does not exist");
            }
            if let Succ::Branch {
                cond: Cond::IsNull(v) | Cond::Bool(v),
                ..
            } = &node.succ
                && !var_ok(*v)
            {
                return bad("branch on an unknown variable");
            }
            let op_ok = |o: &Operand| o.var().is_none_or(var_ok);
            let field_ok = |f: &FieldRef| match f {
                FieldRef::Known(f) => program.get_field(*f).is_some(),
                FieldRef::Unknown(_) => true,
            };
            let ok = match &node.stmt {
                Stmt::Nop => true,
                Stmt::Copy { dst, src } => var_ok(*dst) && op_ok(src),
                Stmt::Opaque { dst, .. } => var_ok(*dst),
                Stmt::Load { dst, base, field } => {
                    var_ok(*dst) && base.is_none_or(var_ok) && field_ok(field)
                }
                Stmt::Store { base, field, src } => {
                    base.is_none_or(var_ok) && field_ok(field) && op_ok(src)
                }
                Stmt::Call(c) => {
                    c.dst.is_none_or(var_ok)
                        && c.receiver.is_none_or(var_ok)
                        && c.args.iter().all(|a| op_ok(&a.value))
                        && ty_ok(&c.ty)
                        && c.new_type.is_none_or(|t| program.get_ty(t).is_some())
                        && match &c.callee {
                            Callee::Method(m) => program.get_method(*m).is_some(),
                            Callee::Unresolved(_) => true,
                            Callee::Delegate(v) => var_ok(*v),
                        }
                }
                Stmt::Element { dst, collection } => var_ok(*dst) && var_ok(*collection),
                Stmt::StoreElement { collection, src } => var_ok(*collection) && op_ok(src),
                Stmt::Closure {
                    dst,
                    body,
                    captures,
                } => {
                    dst.is_none_or(var_ok)
                        && body.index() < bodies
                        && captures.iter().copied().all(var_ok)
                }
                Stmt::Return(v) => v.as_ref().is_none_or(op_ok),
                Stmt::Yield(v) => op_ok(v),
                Stmt::Throw(v) => v.is_none_or(var_ok),
                Stmt::Escape(vs) | Stmt::ScopeEnd(vs) => vs.iter().copied().all(var_ok),
            };
            if !ok {
                return bad("refers to an unknown variable, method, field, type or body");
            }
        }
        if !self.guarded.iter().all(|(v, n)| var_ok(*v) && node_ok(*n)) {
            return Err("a guarded variable or its disposal does not exist".into());
        }
        Ok(())
    }

    /// A readable listing of the body (see [`BodyDump`]); with the program, ids
    /// of types, methods and fields are shown by name.
    pub fn dump<'a>(&'a self, program: Option<&'a Program>) -> BodyDump<'a> {
        BodyDump {
            body: self,
            program,
        }
    }
}

impl std::fmt::Display for Body {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.dump(None).fmt(f)
    }
}

/// The bodies of a program, addressed by [`BodyId`]. Closures and nested
/// bodies refer to each other by id within one arena.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Bodies {
    bodies: Vec<Body>,
}

impl Bodies {
    pub fn new() -> Bodies {
        Bodies::default()
    }
    pub fn len(&self) -> usize {
        self.bodies.len()
    }
    pub fn is_empty(&self) -> bool {
        self.bodies.is_empty()
    }
    pub fn get(&self, id: BodyId) -> Option<&Body> {
        self.bodies.get(id.index())
    }
    pub fn get_mut(&mut self, id: BodyId) -> Option<&mut Body> {
        self.bodies.get_mut(id.index())
    }
    /// Makes room for `additional` more bodies.
    pub fn reserve(&mut self, additional: usize) {
        self.bodies.reserve_exact(additional);
    }
    /// The id the next pushed body gets.
    pub fn next_id(&self) -> BodyId {
        BodyId(self.bodies.len() as u32)
    }
    pub fn push(&mut self, body: Body) -> BodyId {
        let id = self.next_id();
        self.bodies.push(body);
        id
    }
    pub fn iter(&self) -> std::slice::Iter<'_, Body> {
        self.bodies.iter()
    }
    /// Every body with its id.
    pub fn enumerate(&self) -> impl Iterator<Item = (BodyId, &Body)> + '_ {
        self.bodies
            .iter()
            .enumerate()
            .map(|(i, b)| (BodyId(i as u32), b))
    }
    /// Every node of every body that calls a method of the program, with
    /// that method: for the passes that rewrite such calls.
    pub fn method_calls_mut(&mut self) -> impl Iterator<Item = (MethodId, &mut Node)> + '_ {
        self.bodies
            .iter_mut()
            .flat_map(|b| b.nodes.iter_mut())
            .filter_map(|node| match &node.stmt {
                Stmt::Call(call) => match call.callee {
                    Callee::Method(m) => Some((m, node)),
                    _ => None,
                },
                _ => None,
            })
    }
    /// Every id, in order.
    pub fn ids(&self) -> impl Iterator<Item = BodyId> + use<> {
        (0..self.bodies.len() as u32).map(BodyId)
    }
    /// Moves the bodies of another arena to the end of this one; the ids they
    /// use among themselves (`parent`, closures) are renumbered.
    pub fn append(&mut self, other: Bodies) {
        if self.bodies.is_empty() && self.bodies.capacity() <= other.bodies.capacity() {
            // Nothing to renumber, no room reserved here: no copy.
            self.bodies = other.bodies;
            return;
        }
        let offset = self.bodies.len() as u32;
        let shift = |id: BodyId| BodyId(id.0 + offset);
        for mut b in other.bodies {
            b.parent = b.parent.map(shift);
            for n in &mut b.nodes {
                if let Stmt::Closure { body, .. } = &mut n.stmt {
                    *body = shift(*body);
                }
            }
            self.bodies.push(b);
        }
    }
}

impl From<Vec<Body>> for Bodies {
    fn from(bodies: Vec<Body>) -> Bodies {
        Bodies { bodies }
    }
}

impl std::ops::Index<BodyId> for Bodies {
    type Output = Body;
    fn index(&self, id: BodyId) -> &Body {
        &self.bodies[id.index()]
    }
}

impl<'a> IntoIterator for &'a Bodies {
    type Item = &'a Body;
    type IntoIter = std::slice::Iter<'a, Body>;
    fn into_iter(self) -> Self::IntoIter {
        self.bodies.iter()
    }
}

/// Builds a `Body` node by node; used by the lowering and by tests.
#[derive(Debug)]
pub struct BodyBuilder {
    body: Body,
}

impl BodyBuilder {
    /// A body with an entry, a normal exit and an exceptional exit.
    pub fn new(name: impl Into<String>, kind: BodyKind, span: Span) -> BodyBuilder {
        let mk = |stmt| Node {
            stmt,
            span,
            succ: Succ::None,
            exc: None,
        };
        BodyBuilder {
            body: Body {
                method: None,
                parent: None,
                name: name.into(),
                key: String::new(),
                kind,
                vars: Vec::new(),
                nodes: vec![mk(Stmt::Nop), mk(Stmt::Nop), mk(Stmt::Nop)],
                entry: NodeId(0),
                exit: NodeId(1),
                exc_exit: NodeId(2),
                is_async: false,
                is_iterator: false,
                span,
                guarded: Vec::new(),
                param_modes: Vec::new(),
            },
        }
    }
    pub fn body_mut(&mut self) -> &mut Body {
        &mut self.body
    }
    pub fn body(&self) -> &Body {
        &self.body
    }
    pub fn entry(&self) -> NodeId {
        self.body.entry
    }
    pub fn exit(&self) -> NodeId {
        self.body.exit
    }
    pub fn exc_exit(&self) -> NodeId {
        self.body.exc_exit
    }
    pub fn var(
        &mut self,
        name: impl Into<String>,
        kind: VarKind,
        ty: ValueTy,
        span: Span,
    ) -> VarId {
        self.body.vars.push(Var {
            name: name.into(),
            kind,
            ty,
            span,
        });
        VarId(self.body.vars.len() as u32 - 1)
    }
    /// Adds a node with no successor yet.
    pub fn node(&mut self, stmt: Stmt, span: Span) -> NodeId {
        self.body.nodes.push(Node {
            stmt,
            span,
            succ: Succ::None,
            exc: None,
        });
        NodeId(self.body.nodes.len() as u32 - 1)
    }
    pub fn set_succ(&mut self, from: NodeId, succ: Succ) {
        self.body.nodes[from.index()].succ = succ;
    }
    pub fn goto(&mut self, from: NodeId, to: NodeId) {
        self.set_succ(from, Succ::Goto(to));
    }
    pub fn set_exc(&mut self, from: NodeId, exc: Option<ExcEdge>) {
        self.body.nodes[from.index()].exc = exc;
    }
    /// The body, its nodes and variables in allocations of their length:
    /// every body stays in memory until the run ends.
    pub fn finish(mut self) -> Body {
        fit(&mut self.body.nodes);
        fit(&mut self.body.vars);
        self.body
    }
}

/// Moves `v` into an allocation of exactly its length. `shrink_to_fit` may
/// keep the block: mimalloc, for one, does not move a block that would shrink
/// by less than half.
pub fn fit<T>(v: &mut Vec<T>) {
    if v.capacity() > v.len() {
        let mut exact = Vec::with_capacity(v.len());
        exact.append(v);
        *v = exact;
    }
}

/// The variables a statement assigns: its destination, and the variables a
/// call passes as `out`/`ref` arguments.
pub fn defined_vars(stmt: &Stmt) -> impl Iterator<Item = VarId> + '_ {
    let (single, call_outs): (Option<VarId>, &[Arg]) = match stmt {
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

#[cfg(test)]
mod tests;
