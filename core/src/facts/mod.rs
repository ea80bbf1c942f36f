//! Facts about the program that every analysis reads, computed once and shared:
//! the checker (Algorithm 1 and the rules), the summaries and inference.
//!
//! - [`ProgramFacts`]: the spec table, the bodies, the must-call type of every
//!   type, and the body of each method;
//! - [`BodyFacts`]: one body's def-use table ([`Definitions`]), reachability,
//!   known `bool` values, the called-methods facts of its calls, and the spec
//!   queries about it;
//! - [`AliasClasses`]: flow-insensitive resource-alias classes (inference);
//! - [`Summaries`] and [`BodySummaries`]: facts about collections and closures
//!   that the checker needs while checking a body, computed before it
//!   (see `crate::summarize`).

mod alias_classes;
mod definitions;
mod summaries;

use rustc_hash::FxHashMap;

use crate::called_methods::{CalledMethod, called_methods};
use crate::cfg;
use crate::first_call;
use crate::ir::{Bodies, Body, BodyId, NodeId, Stmt, VarId, VarKind};
use crate::must_call::{MustCallType, MustCallTypes};
use crate::ownership;
use crate::program::{FirstCall, MethodDef, MethodId, Program};
use crate::resource_alias::{Alias, BoolValues, FieldKey, FieldKeys};
use crate::span::Span;

pub use crate::ir::defined_vars;
pub use alias_classes::{AliasClasses, ValueSource};
pub use definitions::{Definitions, reads_var};
pub use summaries::{BodySummaries, Registrations, StoredAs, Summaries, Twins};

/// The program as every analysis sees it.
pub struct ProgramFacts<'p> {
    pub program: &'p Program,
    pub bodies: &'p Bodies,
    pub types: MustCallTypes,
    /// The body implementing each method.
    body_of: FxHashMap<MethodId, BodyId>,
    /// Methods that test and set an idempotence flag
    /// ([`ownership::flag_test`]), found on first use: inference builds
    /// these facts several times a round and seldom asks.
    flag_tests: std::sync::OnceLock<FxHashMap<MethodId, ownership::FlagTest>>,
}

impl<'p> ProgramFacts<'p> {
    pub fn new(program: &'p Program, bodies: &'p Bodies) -> ProgramFacts<'p> {
        let body_of = bodies
            .enumerate()
            .filter_map(|(id, b)| Some((b.method?, id)))
            .filter(|(m, _)| program.get_method(*m).is_some())
            .collect();
        ProgramFacts {
            program,
            bodies,
            types: MustCallTypes::compute(program),
            body_of,
            flag_tests: std::sync::OnceLock::new(),
        }
    }

    fn flag_tests(&self) -> &FxHashMap<MethodId, ownership::FlagTest> {
        self.flag_tests.get_or_init(|| {
            self.bodies
                .iter()
                .filter_map(|b| {
                    let m = b.method?;
                    let d = self.program.get_method(m)?;
                    Some((m, ownership::flag_test(self.program, d, b)?))
                })
                .collect()
        })
    }

    /// The body implementing `method`, if the program has it.
    pub fn body_of(&self, method: MethodId) -> Option<BodyId> {
        self.body_of.get(&method).copied()
    }

    /// What fingerprints call `method`: its body's key (namespace, type, name
    /// and parameter types as written), or, without a body, the type's full
    /// name, the method's name and its parameters' types as modelled.
    pub fn method_key(&self, method: MethodId) -> String {
        if let Some(body) = self.body_of(method).and_then(|b| self.bodies.get(b)) {
            return body.fingerprint_key().to_string();
        }
        let Some(m) = self.program.get_method(method) else {
            return String::new();
        };
        let owner = self
            .program
            .get_ty(m.owner)
            .map_or("?", |t| t.name.as_str());
        let params: Vec<&str> = m
            .params
            .iter()
            .map(|p| self.program.type_name(p.ty.ty))
            .collect();
        format!("{owner}.{}({})", m.name, params.join(", "))
    }

    /// The facts of one body; `seeds` are `bool` parameters whose value is
    /// assumed at entry.
    pub fn body_facts(&self, id: BodyId, seeds: &[(VarId, bool)]) -> Option<BodyFacts<'_>> {
        BodyFacts::new(self, id, seeds)
    }

    /// `disposing == true` for a `Dispose(bool disposing)` body: the other
    /// value is the finalizer's, whose path must leave managed resources to
    /// their own finalizers.
    pub fn disposing_seed(&self, body: &Body) -> Option<(VarId, bool)> {
        let def = self.program.get_method(body.method?)?;
        let must_call = self
            .types
            .of_type(def.owner)
            .map(|o| o.must_call.methods.as_slice())
            .unwrap_or(&[]);
        ownership::is_dispose_pattern(self.program, def, must_call)
            .then(|| Some((body.param_var(0)?, true)))
            .flatten()
    }

    /// The facts of a method's body; a `Dispose(bool disposing)` body is read
    /// with `disposing == true`, the call `Dispose()` makes.
    pub fn method_facts(&self, method: MethodId) -> Option<BodyFacts<'_>> {
        let id = self.body_of(method)?;
        let body = self.bodies.get(id)?;
        let mut seeds: Vec<(VarId, bool)> = self.disposing_seed(body).into_iter().collect();
        // The object's guarantees are about what it owns: read its ownership
        // flags (`leaveOpen`) as saying it owns.
        seeds.extend(ownership::flag_loads(self.program, body));
        seeds.extend(ownership::idempotence_flag_loads(body));
        seeds.extend(ownership::flag_test_results(body, self.flag_tests()));
        // Its guarantees are about its first call: the fields only it writes
        // hold what construction left there (`Interlocked.Increment(ref
        // _disposed)` reads `0`, `Interlocked.Exchange(ref _pool, null)` the pool).
        let first = first_call::first_call_loads(self.program, body);
        seeds.extend(
            first
                .iter()
                .filter(|(_, v)| *v == FirstCall::Default)
                .map(|(dst, _)| (*dst, false)),
        );
        let mut facts = self.body_facts(id, &seeds)?;
        facts.not_null = first_call::not_null_vars(body, &first);
        Some(facts)
    }
}

/// What the analyses of one body share; built per body and dropped after it,
/// so bodies can be checked in parallel.
pub struct BodyFacts<'a> {
    pf: &'a ProgramFacts<'a>,
    pub program: &'a Program,
    pub types: &'a MustCallTypes,
    pub id: BodyId,
    pub body: &'a Body,
    pub method: Option<&'a MethodDef>,
    pub this: Option<VarId>,
    pub fields: FieldKeys,
    pub bools: BoolValues,
    pub reachable: Vec<bool>,
    /// Whether `return x` hands `x`'s obligation to the caller.
    pub returns_owning: bool,
    pub defs: Definitions,
    /// Variables whose `null` test cannot succeed, sorted: in a method's
    /// facts, the values of fields it alone writes that construction filled
    /// ([`first_call::not_null_vars`]).
    pub not_null: Vec<VarId>,
    called: Vec<Vec<CalledMethod<'a>>>,
}

impl<'a> BodyFacts<'a> {
    fn new(pf: &'a ProgramFacts<'a>, id: BodyId, seeds: &[(VarId, bool)]) -> Option<BodyFacts<'a>> {
        let program = pf.program;
        let body = pf.bodies.get(id)?;
        let bools = BoolValues::compute(program, body, seeds);
        let types = &pf.types;
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
        Some(BodyFacts {
            pf,
            program,
            types,
            id,
            body,
            method: body.method.and_then(|m| program.get_method(m)),
            this: body.this_var(),
            fields: FieldKeys::of_body(body),
            bools,
            reachable: cfg::reachable(body),
            returns_owning: ownership::body_returns_owning(program, body),
            defs: Definitions::of(body),
            not_null: Vec::new(),
            called,
        })
    }

    /// The program this body belongs to.
    pub fn program_facts(&self) -> &'a ProgramFacts<'a> {
        self.pf
    }

    /// The value of the `bool` variable `var` right before `node`, if known: a
    /// tracked flag's, or, in a constructor that owns only under a condition on
    /// one of its parameters (`Holder(s, owns) : this(s, owns, null)`), the
    /// value under which it owns, the case its specs speak of.
    pub fn bool_before(&self, node: NodeId, var: VarId) -> Option<bool> {
        self.bools
            .before(node, var)
            .or_else(|| crate::resource_alias::own_condition_value(self.program, self.body, var))
    }

    /// The called-methods facts of the call at `node` (empty for other statements).
    pub fn called(&self, node: NodeId) -> &[CalledMethod<'a>] {
        self.called.get(node.index()).map_or(&[], Vec::as_slice)
    }

    /// The must-call type of a variable's static type.
    pub fn var_obligation(&self, var: VarId) -> Option<&'a MustCallType> {
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
        let body: &'a Body = self.body;
        self.defs.single(var).map(|n| &body.node(n).stmt)
    }

    /// The span to point at for a node; the exit points at the closing brace.
    pub fn node_span(&self, n: NodeId) -> Span {
        let span = self
            .body
            .nodes
            .get(n.index())
            .map_or(self.body.span, |node| node.span);
        if (n == self.body.exit || n == self.body.exc_exit)
            && span == self.body.span
            && span.end > span.start
        {
            return Span::new(span.file, span.end - 1, span.end);
        }
        span
    }

    /// How an alias reads in a message: `reader`, `this._stream`.
    /// How the source writes an alias (`s`, `this._s`); `None` for a
    /// temporary, which has no name to show.
    pub fn alias_text(&self, a: Alias) -> Option<String> {
        match a {
            Alias::Var(v) => self.var_name(v).map(str::to_string),
            Alias::Path(b, f) => {
                let field = self.field_key_name(f);
                Some(match self.var_name(b) {
                    Some(base) => format!("{base}.{field}"),
                    None => field,
                })
            }
        }
    }

    pub fn field_key_name(&self, f: FieldKey) -> String {
        match f {
            FieldKey::Known(f) => self
                .program
                .get_field(f)
                .map_or_else(|| "?".into(), |d| d.name.clone()),
            FieldKey::Unknown(k) => self.fields.unknown_name(k).unwrap_or("?").to_string(),
        }
    }

    /// The member the body implements, as users name it (a property for an accessor).
    pub fn member_name(&self) -> String {
        match self.method {
            Some(m) => m.property.clone().unwrap_or_else(|| m.name.clone()),
            None => self.body.name.clone(),
        }
    }
}
