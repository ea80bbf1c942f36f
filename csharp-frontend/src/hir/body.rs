//! Method bodies as compact, owned data: arenas of expressions, statements,
//! patterns and local bindings, built from the tree-sitter tree while the file
//! is parsed (the tree is dropped right after). Every node keeps its byte range.
//!
//! Local names are already bound here: an identifier that refers to a local,
//! parameter, pattern variable, `out var`, `foreach` or `catch` variable, lambda
//! parameter or local function is an [`Expr::Local`]; every other name stays an
//! [`Expr::Name`] for the resolver (fields, properties, types, methods).

use super::TextRange;
use super::item::{Attribute, Modifiers, Name, Predefined, TypeParam, TypeRef};

macro_rules! arena_id {
    ($(#[$m:meta])* $name:ident) => {
        $(#[$m])*
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub u32);
        impl $name {
            pub fn index(self) -> usize {
                self.0 as usize
            }
        }
    };
}

arena_id!(
    /// A body in its file's [`super::FileSyntax::bodies`].
    BodyId
);
arena_id!(ExprId);
arena_id!(StmtId);
arena_id!(PatId);
arena_id!(BindingId);

#[derive(Clone, Debug, PartialEq)]
pub enum Literal {
    Null,
    Bool(bool),
    Int(i64),
    /// Real and other numeric literals we do not evaluate.
    Real,
    Char,
    /// String literal; the content when it is plain (no escapes to undo) and short.
    Str(Option<Box<str>>),
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ArgModifier {
    None,
    Ref,
    Out,
    In,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Arg {
    /// `name: value`.
    pub name: Option<Name>,
    pub modifier: ArgModifier,
    pub value: ExprId,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Shl,
    Shr,
    UShr,
    BitAnd,
    BitOr,
    BitXor,
    And,
    Or,
    Eq,
    NotEq,
    Lt,
    Le,
    Gt,
    Ge,
    /// `??`.
    Coalesce,
}

impl BinaryOp {
    /// The comparison with its operands swapped (`1 < x` is `x > 1`).
    pub fn flipped(self) -> BinaryOp {
        match self {
            BinaryOp::Lt => BinaryOp::Gt,
            BinaryOp::Le => BinaryOp::Ge,
            BinaryOp::Gt => BinaryOp::Lt,
            BinaryOp::Ge => BinaryOp::Le,
            op => op,
        }
    }
    pub fn from_token(tok: &str) -> Option<BinaryOp> {
        Some(match tok {
            "+" => BinaryOp::Add,
            "-" => BinaryOp::Sub,
            "*" => BinaryOp::Mul,
            "/" => BinaryOp::Div,
            "%" => BinaryOp::Rem,
            "<<" => BinaryOp::Shl,
            ">>" => BinaryOp::Shr,
            ">>>" => BinaryOp::UShr,
            "&" => BinaryOp::BitAnd,
            "|" => BinaryOp::BitOr,
            "^" => BinaryOp::BitXor,
            "&&" => BinaryOp::And,
            "||" => BinaryOp::Or,
            "==" => BinaryOp::Eq,
            "!=" => BinaryOp::NotEq,
            "<" => BinaryOp::Lt,
            "<=" => BinaryOp::Le,
            ">" => BinaryOp::Gt,
            ">=" => BinaryOp::Ge,
            "??" => BinaryOp::Coalesce,
            _ => return None,
        })
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum AssignOp {
    /// `=`.
    Assign,
    /// `??=`.
    Coalesce,
    /// `+=`, `-=`, ... (the operator does not matter to obligations).
    Compound(BinaryOp),
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    Not,
    Neg,
    Plus,
    BitNot,
    PreInc,
    PreDec,
    PostInc,
    PostDec,
    /// `x!` (null-forgiving): the value itself.
    Forgive,
    /// `&x`.
    AddressOf,
    /// `*p`.
    Deref,
    /// `^i` (index from end).
    FromEnd,
}

/// One element of an object or collection initializer.
#[derive(Clone, Debug, PartialEq)]
pub enum InitElem {
    /// `Name = value` or `Name = { ... }`.
    Member {
        name: Name,
        range: TextRange,
        value: InitValue,
    },
    /// `[args] = value`.
    Indexer { args: Box<[Arg]>, value: InitValue },
    /// `value` or `{ a, b }` in a collection initializer: a call to `Add`.
    Add(Box<[ExprId]>),
}

#[derive(Clone, Debug, PartialEq)]
pub enum InitValue {
    Expr(ExprId),
    /// A nested initializer applied to the member's existing value.
    Nested(Box<[InitElem]>),
}

/// An element of a collection expression `[a, ..b]`.
#[derive(Clone, Debug, PartialEq)]
pub enum CollectionElem {
    Expr(ExprId),
    Spread(ExprId),
}

#[derive(Clone, Debug, PartialEq)]
pub struct SwitchArm {
    pub pat: PatId,
    pub guard: Option<ExprId>,
    pub value: ExprId,
}

#[derive(Clone, Debug, PartialEq)]
pub enum LambdaBody {
    Expr(ExprId),
    Block(StmtId),
}

/// A lambda, anonymous method or local function.
#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    /// Local functions have a name (bound to `binding` in the enclosing scope).
    pub name: Option<Name>,
    pub binding: Option<BindingId>,
    pub params: Box<[BindingId]>,
    /// The attributes of each parameter (`[Owning] Stream s`), as `params`.
    pub param_attrs: Box<[Vec<Attribute>]>,
    pub type_params: Vec<TypeParam>,
    pub ret: Option<TypeRef>,
    pub body: Option<LambdaBody>,
    pub modifiers: Modifiers,
    pub attrs: Vec<Attribute>,
    /// `[return: X]`.
    pub return_attrs: Vec<Attribute>,
    pub is_async: bool,
    pub range: TextRange,
}

/// One clause of a query expression, enough to type the range variables and
/// to visit every subexpression.
#[derive(Clone, Debug, PartialEq)]
pub enum QueryClause {
    /// `from x in source` / `join x in source on a equals b into g`.
    From {
        binding: BindingId,
        source: ExprId,
        /// `on a equals b`.
        keys: Box<[ExprId]>,
        into: Option<BindingId>,
    },
    /// `let x = value`.
    Let { binding: BindingId, value: ExprId },
    /// `where`, `orderby` keys: expressions of the range variables.
    Filter(Box<[ExprId]>),
    /// `select value` / `group value by key` (with `into` continuation binding).
    Select {
        value: ExprId,
        key: Option<ExprId>,
        into: Option<BindingId>,
    },
}

/// Explicit type arguments of a name (`M<int>`). Rare, so boxed once more to
/// keep [`Expr`] within 48 bytes.
pub type TypeArgs = Box<Box<[TypeRef]>>;

#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    /// Missing or unparseable (the body has `has_error` set).
    Missing,
    Literal(Literal),
    /// A local, parameter or local function.
    Local(BindingId),
    /// An unbound simple name with optional type arguments (`Foo`, `List<int>`).
    Name {
        name: Name,
        type_args: Option<TypeArgs>,
    },
    /// `alias::Name`.
    AliasQualified {
        alias: Name,
        name: Name,
    },
    This,
    Base,
    /// A keyword type used as a receiver (`int.Parse`, `string.Join`).
    PredefinedType(Predefined),
    /// `receiver.name<args>`, or `receiver?.name` when `conditional`.
    MemberAccess {
        receiver: ExprId,
        name: Name,
        type_args: Option<TypeArgs>,
        conditional: bool,
    },
    /// `receiver[args]`, `receiver?[args]`.
    ElementAccess {
        receiver: ExprId,
        args: Box<[Arg]>,
        conditional: bool,
    },
    Call {
        callee: ExprId,
        args: Box<[Arg]>,
    },
    /// `new T(args) { init }`; `ty` is `None` for target-typed `new(...)`.
    New {
        ty: Option<Box<TypeRef>>,
        args: Box<[Arg]>,
        init: Option<Box<[InitElem]>>,
    },
    /// `new T[n] { .. }`, `new[] { .. }`, `stackalloc T[n]`, and `{ .. }` in an
    /// array-typed declaration.
    NewArray {
        elem: Option<Box<TypeRef>>,
        sizes: Box<[ExprId]>,
        init: Option<Box<[ExprId]>>,
    },
    /// `new { A = 1, b }`.
    AnonymousObject(Box<[(Option<Name>, ExprId)]>),
    /// `[a, ..b]`.
    Collection(Box<[CollectionElem]>),
    Assign {
        op: AssignOp,
        lhs: ExprId,
        rhs: ExprId,
    },
    Binary {
        op: BinaryOp,
        lhs: ExprId,
        rhs: ExprId,
    },
    Unary {
        op: UnaryOp,
        operand: ExprId,
    },
    Conditional {
        cond: ExprId,
        then: ExprId,
        else_: ExprId,
    },
    Cast {
        ty: Box<TypeRef>,
        expr: ExprId,
    },
    As {
        expr: ExprId,
        ty: Box<TypeRef>,
    },
    /// `expr is pattern` (also `expr is Type`).
    Is {
        expr: ExprId,
        pat: PatId,
    },
    Switch {
        scrutinee: ExprId,
        arms: Box<[SwitchArm]>,
    },
    /// Lambda or anonymous method.
    Lambda(Box<Function>),
    Await(ExprId),
    /// `(a, b)`, also the left side of a deconstruction.
    Tuple(Box<[(Option<Name>, ExprId)]>),
    /// `out var x`, `var (a, b)` on the left of a deconstruction: the
    /// bindings it declares, with the declared type (`None` for `var`).
    Declaration {
        ty: Option<Box<TypeRef>>,
        bindings: Box<[Option<BindingId>]>,
    },
    /// `default(T)` or `default`.
    Default(Option<Box<TypeRef>>),
    TypeOf(Box<TypeRef>),
    SizeOf(Box<TypeRef>),
    /// `throw e` as an expression.
    Throw(ExprId),
    /// `checked(e)`, `unchecked(e)`, `(e)` kept for ranges only where useful.
    Checked(ExprId),
    /// `ref e`.
    Ref(ExprId),
    /// `a..b`.
    Range {
        lo: Option<ExprId>,
        hi: Option<ExprId>,
    },
    /// `e with { .. }`.
    With {
        expr: ExprId,
        init: Box<[InitElem]>,
    },
    Query(Box<[QueryClause]>),
    /// `$"..{e}.."`: the interpolated expressions.
    Interpolated(Box<[ExprId]>),
    /// Something else whose subexpressions are still evaluated (`__makeref`, ...).
    Other(Box<[ExprId]>),
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum UsingMode {
    None,
    Using,
    AwaitUsing,
}

#[derive(Clone, Debug, PartialEq)]
pub struct LocalDecl {
    pub binding: BindingId,
    pub init: Option<ExprId>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum UsingResource {
    Decls(Box<[LocalDecl]>),
    Expr(ExprId),
}

#[derive(Clone, Debug, PartialEq)]
pub struct CatchClause {
    pub ty: Option<TypeRef>,
    pub binding: Option<BindingId>,
    pub filter: Option<ExprId>,
    pub body: StmtId,
    pub range: TextRange,
}

#[derive(Clone, Debug, PartialEq)]
pub enum SwitchLabel {
    Case { pat: PatId, guard: Option<ExprId> },
    Default,
}

#[derive(Clone, Debug, PartialEq)]
pub struct SwitchSection {
    pub labels: Box<[SwitchLabel]>,
    pub body: Box<[StmtId]>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum GotoTarget {
    Label(Name),
    Case(ExprId),
    Default,
}

/// What a `foreach` assigns each element to.
#[derive(Clone, Debug, PartialEq)]
pub enum ForeachTarget {
    Binding(BindingId),
    /// `foreach (var (a, b) in ..)`: a [`Expr::Declaration`] or [`Expr::Tuple`].
    Deconstruct(ExprId),
}

#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    Missing,
    /// A statement with a syntax error (reported as RLC9001), cut on its own
    /// so that the rest of its body is still analysed: what it does is not
    /// known, so the locals and parameters it names escape there.
    Broken(Box<[BindingId]>),
    Empty,
    Block(Box<[StmtId]>),
    Expr(ExprId),
    /// `T a = .., b = ..;`, `using var x = ..;`, `await using var x = ..;`, `const`.
    Local {
        decls: Box<[LocalDecl]>,
        using: UsingMode,
        is_const: bool,
    },
    If {
        cond: ExprId,
        then: StmtId,
        else_: Option<StmtId>,
    },
    While {
        cond: ExprId,
        body: StmtId,
    },
    Do {
        body: StmtId,
        cond: ExprId,
    },
    For {
        init: Box<[StmtId]>,
        cond: Option<ExprId>,
        update: Box<[ExprId]>,
        body: StmtId,
    },
    Foreach {
        target: ForeachTarget,
        collection: ExprId,
        body: StmtId,
        is_await: bool,
    },
    /// `using (..) body` / `await using (..) body`.
    Using {
        resource: UsingResource,
        body: StmtId,
        is_await: bool,
    },
    Lock {
        expr: ExprId,
        body: StmtId,
    },
    /// `fixed (T* p = ..) body`.
    Fixed {
        decls: Box<[LocalDecl]>,
        body: StmtId,
    },
    Try {
        body: StmtId,
        catches: Box<[CatchClause]>,
        finally: Option<StmtId>,
    },
    Switch {
        scrutinee: ExprId,
        sections: Box<[SwitchSection]>,
    },
    Break,
    Continue,
    Goto(GotoTarget),
    Labeled {
        label: Name,
        stmt: StmtId,
    },
    Return(Option<ExprId>),
    Throw(Option<ExprId>),
    YieldReturn(ExprId),
    YieldBreak,
    LocalFunction(Box<Function>),
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum RelOp {
    Lt,
    Le,
    Gt,
    Ge,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Subpattern {
    /// `A.B: pat` (extended property pattern) or empty for positional.
    pub path: Box<[Name]>,
    pub pat: PatId,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Pat {
    Missing,
    /// `_`.
    Discard,
    /// `var x`, `var (a, b)`.
    Var(Box<[Option<BindingId>]>),
    /// `T x` (the binding is `None` for `T _`).
    Declaration {
        ty: Box<TypeRef>,
        binding: Option<BindingId>,
    },
    /// `T` alone.
    Type(Box<TypeRef>),
    /// `null`, `3`, `Color.Red`.
    Constant(ExprId),
    Relational {
        op: RelOp,
        value: ExprId,
    },
    Not(PatId),
    And(PatId, PatId),
    Or(PatId, PatId),
    /// `T (a, b) { P: p } x`.
    Recursive {
        ty: Option<Box<TypeRef>>,
        positional: Option<Box<[Subpattern]>>,
        properties: Option<Box<[Subpattern]>>,
        binding: Option<BindingId>,
    },
    /// `[a, .., b] x`.
    List {
        items: Box<[PatId]>,
        binding: Option<BindingId>,
    },
    /// `..` or `.. var rest` inside a list pattern.
    Slice(Option<PatId>),
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum BindingKind {
    /// A parameter of the body's method (index in its parameter list); for
    /// setters and `init`, the implicit `value` has the next index.
    Param(u32),
    Local,
    /// Declared by a pattern (`is T x`, `case T x`).
    Pattern,
    /// `out var x` / `out T x`.
    Out,
    Foreach,
    Catch,
    /// Parameter of a lambda or local function.
    FunctionParam,
    LocalFunction,
    /// `from x in ..`, `let x = ..`.
    Range,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Binding {
    pub name: Name,
    /// The declared type; `None` for `var` and for implicitly typed lambda parameters.
    pub ty: Option<TypeRef>,
    pub kind: BindingKind,
    /// `ref`/`out`/`params` for function parameters.
    pub modifier: super::item::ParamModifier,
    pub range: TextRange,
}

/// What a body evaluates.
#[derive(Clone, Debug, PartialEq)]
pub enum BodyRoot {
    Block(StmtId),
    /// `=> expr`, a field or property initializer, an enum value, a default.
    Expr(ExprId),
    /// Only a constructor initializer (`: base(..)`), or primary-constructor base arguments.
    None,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum CtorInitKind {
    Base,
    This,
}

#[derive(Clone, Debug, PartialEq)]
pub struct CtorInit {
    pub kind: CtorInitKind,
    pub args: Box<[Arg]>,
    pub range: TextRange,
}

/// Why a body is not analysed.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum SkipReason {
    SyntaxError,
    TooDeep,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Body {
    pub exprs: Vec<Expr>,
    pub expr_ranges: Vec<TextRange>,
    pub stmts: Vec<Stmt>,
    pub stmt_ranges: Vec<TextRange>,
    pub pats: Vec<Pat>,
    pub pat_ranges: Vec<TextRange>,
    pub bindings: Vec<Binding>,
    /// Bindings of the method's parameters, in order.
    pub params: Vec<BindingId>,
    pub root: Option<BodyRoot>,
    pub ctor_init: Option<CtorInit>,
    /// Contains an `async` lambda / is inside an `async` member: set by the builder
    /// from the member's modifiers.
    pub is_async: bool,
    /// Contains `yield` (an iterator).
    pub is_iterator: bool,
    /// Set when the body must not be analysed.
    pub skip: Option<SkipReason>,
    pub range: TextRange,
}

impl Body {
    pub fn expr(&self, id: ExprId) -> &Expr {
        &self.exprs[id.index()]
    }
    pub fn expr_range(&self, id: ExprId) -> TextRange {
        self.expr_ranges[id.index()]
    }
    pub fn stmt(&self, id: StmtId) -> &Stmt {
        &self.stmts[id.index()]
    }
    pub fn stmt_range(&self, id: StmtId) -> TextRange {
        self.stmt_ranges[id.index()]
    }
    pub fn pat(&self, id: PatId) -> &Pat {
        &self.pats[id.index()]
    }
    pub fn pat_range(&self, id: PatId) -> TextRange {
        self.pat_ranges[id.index()]
    }
    pub fn binding(&self, id: BindingId) -> &Binding {
        &self.bindings[id.index()]
    }
    /// The name C# 7.1 gives a tuple element or anonymous-object member
    /// written as `x` or `a.x`: `x`.
    pub fn projected_name(&self, x: ExprId) -> Option<&Name> {
        match self.exprs.get(x.index())? {
            Expr::Local(b) => Some(&self.binding(*b).name),
            Expr::Name { name, .. } | Expr::MemberAccess { name, .. } => Some(name),
            _ => None,
        }
    }
    pub fn alloc_expr(&mut self, e: Expr, range: TextRange) -> ExprId {
        self.exprs.push(e);
        self.expr_ranges.push(range);
        ExprId(self.exprs.len() as u32 - 1)
    }
    pub fn alloc_stmt(&mut self, s: Stmt, range: TextRange) -> StmtId {
        self.stmts.push(s);
        self.stmt_ranges.push(range);
        StmtId(self.stmts.len() as u32 - 1)
    }
    pub fn alloc_pat(&mut self, p: Pat, range: TextRange) -> PatId {
        self.pats.push(p);
        self.pat_ranges.push(range);
        PatId(self.pats.len() as u32 - 1)
    }
    pub fn alloc_binding(&mut self, b: Binding) -> BindingId {
        self.bindings.push(b);
        BindingId(self.bindings.len() as u32 - 1)
    }
}
