//! Facts about collections and closures that the consistency analysis of a
//! body consults, computed before it runs (by `crate::summarize`), so that
//! Algorithm 1 reads them as data.

use rustc_hash::{FxHashMap, FxHashSet};

use crate::ir::{Arg, BodyId, Call, Callee, NodeId, VarId};
use crate::program::{FieldId, MethodId, ParamMode};

/// Program-wide summaries.
#[derive(Clone, Debug, Default)]
pub struct Summaries {
    /// Fields whose elements their class disposes: collections that a
    /// must-call method of the class disposes element-wise.
    pub owning_collections: FxHashSet<FieldId>,
    /// Containers: the result of a call of the method keeps the argument of
    /// the parameter as its member, without owning it (`new Pair<T>(a, b)`,
    /// `Tuple.Create(a, b)`). The argument stays the caller's, reachable
    /// through the member.
    pub stored_args: FxHashMap<(MethodId, u32), StoredAs>,
    /// `ref` parameters that their method assigns on every normal path before
    /// it reads them: the callee never sees what the caller passed, so the
    /// argument is written as if it were `out`.
    pub overwritten_refs: FxHashSet<(MethodId, u32)>,
    /// Registration methods: each keeps the argument of this parameter in
    /// its receiver and returns a handle that undoes that
    /// ([`crate::registrations`]).
    pub registrations: Registrations,
}

impl Summaries {
    /// Whether the call only writes `arg` (an `out` argument, or a `ref`
    /// argument its callee overwrites unread).
    pub fn only_written(&self, call: &Call, arg: &Arg) -> bool {
        match (arg.mode, &call.callee, arg.param) {
            (ParamMode::Out, ..) => true,
            (ParamMode::Ref, Callee::Method(m), Some(p)) => {
                self.overwritten_refs.contains(&(*m, p))
            }
            _ => false,
        }
    }
}

/// Each registration method with the parameter it registers.
pub type Registrations = FxHashMap<MethodId, u32>;

/// Declarations without a body that stand for declarations analysed
/// elsewhere (the same code compiled for another target framework, kept as
/// declarations only): each gets the program-wide summaries of the one it
/// stands for, as it gets its inferred specifications.
#[derive(Clone, Debug, Default)]
pub struct Twins {
    /// (analysed method, its twin, the twin's group).
    pub methods: Vec<(MethodId, MethodId, u32)>,
    /// (analysed field, its twin, the twin's group): the field a summary of
    /// a twin method names is the twin of that field in the method's group.
    pub fields: Vec<(FieldId, FieldId, u32)>,
}

/// The member of a container that keeps an argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoredAs {
    Field(FieldId),
    /// A member the program has no field for (a library property, a tuple
    /// element), by name.
    Member(String),
}

/// Summaries of one body.
#[derive(Clone, Debug, Default)]
pub struct BodySummaries {
    /// Loop headers of element-wise disposal loops, with the collections each
    /// loop disposes.
    pub element_loops: FxHashMap<NodeId, Vec<VarId>>,
    /// `c.ForEach(x => x.Dispose())` calls: the collection each disposes.
    pub foreach_disposals: FxHashMap<NodeId, VarId>,
    /// The captured variables each lambda or local function disposes on
    /// every normal path of its body.
    pub closure_disposals: FxHashSet<(BodyId, VarId)>,
}

impl BodySummaries {
    /// Collections that the element-wise disposal loop headed at `node` disposes.
    pub fn element_loop_collections(&self, node: NodeId) -> &[VarId] {
        self.element_loops.get(&node).map_or(&[], Vec::as_slice)
    }
    /// Whether closure `body` disposes the enclosing body's `var`.
    pub fn closure_disposes(&self, body: BodyId, var: VarId) -> bool {
        self.closure_disposals.contains(&(body, var))
    }
}
