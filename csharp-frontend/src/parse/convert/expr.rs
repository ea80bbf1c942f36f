//! Expressions and patterns of a body.
//!
//! Member-access chains are collected link by link (so that long chains do not
//! recurse) and rebuilt bottom-up. tree-sitter-c-sharp gives `?.` a precedence
//! below the binary and unary operators, so `x ?? a?.B`, `!a?.B` and
//! `await a?.M()` come out as `(x ?? a)?.B`, `(!a)?.B`, `(await a)?.M()`; the
//! chain is moved back onto the operator's last operand.

use tree_sitter::Node;

use super::body::BodyBuilder;
use super::decl::{MAX_KEPT_STRING, parse_int};
use super::kinds::{F, K};
use super::syn::Syn;
use crate::hir::{
    Arg, ArgModifier, AssignOp, BinaryOp, BindingId, BindingKind, CollectionElem, Expr, ExprId,
    InitElem, InitValue, Literal, Name, Pat, PatId, QueryClause, RelOp, Subpattern, SwitchArm,
    TextRange, TypeRef, UnaryOp,
};

/// One link of a member-access chain, outermost first.
enum Link<'t> {
    Member {
        name: Node<'t>,
        conditional: bool,
        arrow: bool,
        end: usize,
    },
    Element {
        args: Node<'t>,
        conditional: bool,
        end: usize,
    },
    Call {
        args: Node<'t>,
        end: usize,
    },
    Forgive {
        end: usize,
    },
}

impl Link<'_> {
    fn end(&self) -> usize {
        match self {
            Link::Member { end, .. }
            | Link::Element { end, .. }
            | Link::Call { end, .. }
            | Link::Forgive { end } => *end,
        }
    }
    fn is_conditional(&self) -> bool {
        matches!(
            self,
            Link::Member {
                conditional: true,
                ..
            } | Link::Element {
                conditional: true,
                ..
            }
        )
    }
    fn set_conditional(&mut self) {
        if let Link::Member { conditional, .. } | Link::Element { conditional, .. } = self {
            *conditional = true;
        }
    }
}

/// The precedence of `is` and `as` (that of the relational operators).
const RELATIONAL: u8 = 10;

fn precedence(op: BinaryOp) -> u8 {
    match op {
        BinaryOp::Mul | BinaryOp::Div | BinaryOp::Rem => 13,
        BinaryOp::Add | BinaryOp::Sub => 12,
        BinaryOp::Shl | BinaryOp::Shr | BinaryOp::UShr => 11,
        BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge => RELATIONAL,
        BinaryOp::Eq | BinaryOp::NotEq => 9,
        BinaryOp::BitAnd => 8,
        BinaryOp::BitXor => 7,
        BinaryOp::BitOr => 6,
        BinaryOp::And => 5,
        BinaryOp::Or => 4,
        BinaryOp::Coalesce => 3,
    }
}

fn is_chain<'t>(syn: &Syn<'_, 't>, n: Node<'t>) -> bool {
    match syn.kind(n) {
        K::MemberAccessExpression
        | K::InvocationExpression
        | K::ElementAccessExpression
        | K::ConditionalAccessExpression => true,
        // `?` where a repaired `a?.B = v` reads `a!.B = v`.
        K::PostfixUnaryExpression => matches!(postfix_op(syn, n), "!" | "?"),
        _ => false,
    }
}

fn postfix_op<'a, 't>(syn: &Syn<'a, 't>, n: Node<'t>) -> &'a str {
    syn.last_child(n).map_or("", |op| syn.text(op))
}

impl<'t> BodyBuilder<'_, 't> {
    pub(super) fn expr(&mut self, n: Node<'t>) -> ExprId {
        let range = Syn::range(n);
        if !self.enter(n) {
            return self.body.alloc_expr(Expr::Missing, range);
        }
        let id = self.expr_kind(n);
        self.leave();
        id
    }

    fn alloc(&mut self, e: Expr, n: Node<'t>) -> ExprId {
        self.body.alloc_expr(e, Syn::range(n))
    }

    fn missing(&mut self, n: Node<'t>) -> ExprId {
        self.alloc(Expr::Missing, n)
    }

    fn child_expr(&mut self, n: Node<'t>) -> ExprId {
        match self.syn.first_named(n) {
            Some(c) => self.expr(c),
            None => self.missing(n),
        }
    }

    fn field_expr(&mut self, n: Node<'t>, f: F) -> ExprId {
        match self.syn.field(n, f) {
            Some(c) => self.expr(c),
            None => self.missing(n),
        }
    }

    fn boxed_type(&self, n: Node<'t>, f: F) -> Box<TypeRef> {
        Box::new(
            self.syn
                .field(n, f)
                .map_or(TypeRef::Error, |t| self.syn.type_ref(t)),
        )
    }

    /// Dispatches on the kind; every arm is a call, so that this recursive
    /// frame stays small (unoptimised builds give each arm's temporaries a slot).
    fn expr_kind(&mut self, n: Node<'t>) -> ExprId {
        if self.syn.kind(n) == K::ElementAccessExpression
            && self.syn.byte_at(n.start_byte()) == b'*'
        {
            return self.repaired_deref(n);
        }
        if is_chain(self.syn, n) {
            return self.chain(n);
        }
        let e = match self.syn.kind(n) {
            K::ParenthesizedExpression => {
                // Explicit parentheses: not an operand to re-associate.
                let id = self.child_expr(n);
                self.rotated.retain(|r| *r != id);
                return id;
            }
            K::Identifier => self.ident(n),
            K::GenericName => self.generic_name(n),
            K::QualifiedName => self.qualified_name_expr(n),
            K::InterpolatedStringExpression => self.interpolated(n),
            K::AssignmentExpression => self.assignment_expr(n),
            K::BinaryExpression => return self.binary_expr(n),
            K::PrefixUnaryExpression => self.prefix_unary_expr(n),
            K::PostfixUnaryExpression => self.postfix_unary_expr(n),
            K::ConditionalExpression => self.conditional_expr(n),
            K::CastExpression => self.cast_expr(n),
            K::AsExpression => return self.as_expr(n),
            K::IsExpression => return self.is_expr(n),
            K::IsPatternExpression => return self.is_pattern_expr(n),
            K::SwitchExpression => self.switch_expr(n),
            K::LambdaExpression | K::AnonymousMethodExpression => self.lambda_expr(n),
            K::AwaitExpression | K::CheckedExpression | K::ThrowExpression | K::RefExpression => {
                self.keyword_expr(n)
            }
            K::ObjectCreationExpression => self.object_creation_expr(n),
            K::ImplicitObjectCreationExpression => self.implicit_object_creation_expr(n),
            K::ArrayCreationExpression | K::StackallocExpression => self.array_creation(n),
            K::ImplicitArrayCreationExpression
            | K::ImplicitStackallocExpression
            | K::InitializerExpression => self.implicit_array_creation_expr(n),
            K::AnonymousObjectCreationExpression => self.anonymous_object(n),
            K::CollectionExpression => self.collection_expr(n),
            K::TupleExpression => self.tuple_expr(n),
            K::DeclarationExpression => self.declaration_expr(n),
            K::RangeExpression => self.range_expr(n),
            K::WithExpression => self.with_expr(n),
            K::QueryExpression => self.query(n),
            K::MakerefExpression | K::ReftypeExpression | K::RefvalueExpression => {
                self.makeref_expr(n)
            }
            _ => self.leaf_expr(n),
        };
        self.alloc(e, n)
    }

    /// Names, literals and type-only expressions.
    fn leaf_expr(&mut self, n: Node<'t>) -> Expr {
        let syn = self.syn;
        match syn.kind(n) {
            K::AliasQualifiedName => Expr::AliasQualified {
                alias: syn
                    .field(n, F::Alias)
                    .map_or_else(Name::default, |a| syn.name(a)),
                name: self.simple_name(syn.field(n, F::Name)).0,
            },
            K::PredefinedType => match crate::hir::Predefined::from_keyword(syn.text(n)) {
                Some(p) => Expr::PredefinedType(p),
                None => Expr::Missing,
            },
            K::This => Expr::This,
            K::Base => Expr::Base,
            K::NullLiteral => Expr::Literal(Literal::Null),
            K::BooleanLiteral => Expr::Literal(Literal::Bool(syn.text(n) == "true")),
            K::IntegerLiteral => {
                Expr::Literal(parse_int(syn.text(n)).map_or(Literal::Real, Literal::Int))
            }
            K::RealLiteral => Expr::Literal(Literal::Real),
            K::CharacterLiteral => Expr::Literal(Literal::Char),
            K::StringLiteral | K::VerbatimStringLiteral | K::RawStringLiteral => {
                Expr::Literal(Literal::Str(self.plain_string(n)))
            }
            K::DefaultExpression => {
                Expr::Default(syn.field(n, F::Type).map(|t| Box::new(syn.type_ref(t))))
            }
            K::TypeofExpression => Expr::TypeOf(self.boxed_type(n, F::Type)),
            K::SizeofExpression => Expr::SizeOf(self.boxed_type(n, F::Type)),
            _ => Expr::Missing,
        }
    }

    fn cast_expr(&mut self, n: Node<'t>) -> Expr {
        Expr::Cast {
            ty: self.boxed_type(n, F::Type),
            expr: self.field_expr(n, F::Value),
        }
    }

    fn as_expr(&mut self, n: Node<'t>) -> ExprId {
        let expr = self.field_expr(n, F::Left);
        let ty = self.boxed_type(n, F::Right);
        self.operator(n, expr, RELATIONAL, move |expr| Expr::As { expr, ty })
    }

    fn lambda_expr(&mut self, n: Node<'t>) -> Expr {
        Expr::Lambda(Box::new(self.function(n, None, None)))
    }

    /// `await e`, `checked(e)`, `throw e`, `ref e`.
    fn keyword_expr(&mut self, n: Node<'t>) -> Expr {
        let e = self.child_expr(n);
        match self.syn.kind(n) {
            K::AwaitExpression => {
                self.awaits |= self.in_function_body();
                Expr::Await(e)
            }
            K::CheckedExpression => Expr::Checked(e),
            K::ThrowExpression => Expr::Throw(e),
            _ => Expr::Ref(e),
        }
    }

    fn qualified_name_expr(&mut self, n: Node<'t>) -> Expr {
        let syn = self.syn;
        let receiver = self.field_expr(n, F::Qualifier);
        let (name, type_args) = self.simple_name(syn.field(n, F::Name));
        Expr::MemberAccess {
            receiver,
            name,
            type_args,
            conditional: false,
        }
    }

    fn assignment_expr(&mut self, n: Node<'t>) -> Expr {
        let syn = self.syn;
        let op = syn.field(n, F::Operator).map_or("=", |o| syn.text(o));
        let op = assign_op(op);
        let lhs = self.field_expr(n, F::Left);
        let rhs = self.field_expr(n, F::Right);
        Expr::Assign { op, lhs, rhs }
    }

    fn binary_expr(&mut self, n: Node<'t>) -> ExprId {
        if self.is_string_concat(n) {
            return self.alloc(Expr::Literal(Literal::Str(None)), n);
        }
        let syn = self.syn;
        let lhs = self.field_expr(n, F::Left);
        let rhs = self.field_expr(n, F::Right);
        match syn
            .field(n, F::Operator)
            .and_then(|o| BinaryOp::from_token(syn.text(o)))
        {
            Some(op) => self.operator(n, lhs, precedence(op), move |lhs| Expr::Binary {
                op,
                lhs,
                rhs,
            }),
            None => self.alloc(Expr::Other(Box::new([lhs, rhs])), n),
        }
    }

    /// Builds the operator node `n` over its left operand `lhs`. When `lhs`
    /// was rebuilt from a misnested `?.` (`(y && a)?.B == c` read as `y && a?.B`,
    /// then `== c`), the operator goes down its right spine to the operand it
    /// binds tighter than: `y && (a?.B == c)`.
    fn operator(
        &mut self,
        n: Node<'t>,
        lhs: ExprId,
        prec: u8,
        build: impl FnOnce(ExprId) -> Expr,
    ) -> ExprId {
        let mut path = Vec::new();
        let mut cur = lhs;
        while self.rotated.contains(&cur)
            && let Some(Expr::Binary { op, rhs, .. }) = self.body.exprs.get(cur.index())
            && precedence(*op) < prec
        {
            path.push(cur);
            cur = *rhs;
        }
        let Some(&last) = path.last() else {
            return self.alloc(build(lhs), n);
        };
        let end = n.end_byte() as u32;
        let start = self.body.expr_range(cur).start;
        let inner = self.body.alloc_expr(build(cur), TextRange::new(start, end));
        self.rotated.push(inner);
        if let Some(Expr::Binary { rhs, .. }) = self.body.exprs.get_mut(last.index()) {
            *rhs = inner;
        }
        for id in path {
            if let Some(r) = self.body.expr_ranges.get_mut(id.index()) {
                r.end = end;
            }
        }
        lhs
    }

    fn prefix_unary_expr(&mut self, n: Node<'t>) -> Expr {
        let syn = self.syn;
        let op = match Some(syn.first_token(n)) {
            Some("++") => UnaryOp::PreInc,
            Some("--") => UnaryOp::PreDec,
            Some("+") => UnaryOp::Plus,
            Some("-") => UnaryOp::Neg,
            Some("!") => UnaryOp::Not,
            Some("~") => UnaryOp::BitNot,
            Some("&") => UnaryOp::AddressOf,
            Some("^") => UnaryOp::FromEnd,
            _ => UnaryOp::Deref,
        };
        if op == UnaryOp::Deref
            && let Some(assign) = self.deref_cast_assignment(n)
        {
            return assign;
        }
        Expr::Unary {
            op,
            operand: self.child_expr(n),
        }
    }

    /// `*(T*)p = v`: the grammar nests the assignment under the cast
    /// (`*(T*)(p = v)`), a shape only a dereference makes valid C#.
    /// Re-associated here as `(*(T*)p) = v`.
    fn deref_cast_assignment(&mut self, n: Node<'t>) -> Option<Expr> {
        let syn = self.syn;
        let cast = syn
            .first_named(n)
            .filter(|c| syn.kind(*c) == K::CastExpression)?;
        let assign = syn
            .field(cast, F::Value)
            .filter(|a| syn.kind(*a) == K::AssignmentExpression)?;
        let left = syn.field(assign, F::Left)?;
        let op = syn.field(assign, F::Operator).map_or("=", |o| syn.text(o));
        let op = assign_op(op);
        // A repaired `*(T*)(p + 1) = v` reads `*(T*)[p + 1] = v`: the
        // original has parentheses around the one argument.
        let target = match syn.first_named(left) {
            Some(arg)
                if syn.kind(left) == K::ElementBindingExpression
                    && syn.byte_at(left.start_byte()) == b'(' =>
            {
                self.child_expr(arg)
            }
            _ => self.expr(left),
        };
        let end = left.end_byte() as u32;
        let cast_id = self.body.alloc_expr(
            Expr::Cast {
                ty: self.boxed_type(cast, F::Type),
                expr: target,
            },
            TextRange::new(cast.start_byte() as u32, end),
        );
        let lhs = self.body.alloc_expr(
            Expr::Unary {
                op: UnaryOp::Deref,
                operand: cast_id,
            },
            TextRange::new(n.start_byte() as u32, end),
        );
        let rhs = self.field_expr(assign, F::Right);
        Some(Expr::Assign { op, lhs, rhs })
    }

    /// A repaired `*(p + 1) = v` reads `_[p + 1] = v`: the dereference of
    /// the one argument.
    fn repaired_deref(&mut self, n: Node<'t>) -> ExprId {
        let syn = self.syn;
        let operand = match syn
            .field(n, F::Subscript)
            .and_then(|args| syn.first_named(args))
        {
            Some(arg) => self.child_expr(arg),
            None => self.missing(n),
        };
        self.alloc(
            Expr::Unary {
                op: UnaryOp::Deref,
                operand,
            },
            n,
        )
    }

    fn postfix_unary_expr(&mut self, n: Node<'t>) -> Expr {
        let syn = self.syn;
        let op = if postfix_op(syn, n) == "--" {
            UnaryOp::PostDec
        } else {
            UnaryOp::PostInc
        };
        Expr::Unary {
            op,
            operand: self.child_expr(n),
        }
    }

    fn conditional_expr(&mut self, n: Node<'t>) -> Expr {
        let cond = self.field_expr(n, F::Condition);
        let then = self.field_expr(n, F::Consequence);
        let else_ = self.field_expr(n, F::Alternative);
        Expr::Conditional { cond, then, else_ }
    }

    fn is_expr(&mut self, n: Node<'t>) -> ExprId {
        let syn = self.syn;
        let expr = self.field_expr(n, F::Left);
        let ty = self.boxed_type(n, F::Right);
        let range = syn.field(n, F::Right).map_or(Syn::range(n), Syn::range);
        let pat = self.body.alloc_pat(Pat::Type(ty), range);
        self.operator(n, expr, RELATIONAL, move |expr| Expr::Is { expr, pat })
    }

    fn is_pattern_expr(&mut self, n: Node<'t>) -> ExprId {
        let syn = self.syn;
        let expr = self.field_expr(n, F::Expression);
        if let Some(fixed) = self.constant_pattern_spilled(n, expr) {
            return fixed;
        }
        let pat = self.opt_pat(syn.field(n, F::Pattern), n);
        self.operator(n, expr, RELATIONAL, move |expr| Expr::Is { expr, pat })
    }

    /// tree-sitter-c-sharp reads `x is not null || y` as `x is not (null ||
    /// y)`: a constant pattern (negated or not) over a binary expression whose
    /// operator binds looser than `is`. The constant is the leftmost operand;
    /// the test of `expr` against it takes its place in that expression:
    /// `(x is not null) || y`.
    fn constant_pattern_spilled(&mut self, n: Node<'t>, expr: ExprId) -> Option<ExprId> {
        let syn = self.syn;
        let pat = syn.field(n, F::Pattern)?;
        let (negated, constant) = match syn.kind(pat) {
            K::NegatedPattern => (true, syn.first_named(pat)?),
            _ => (false, pat),
        };
        if syn.kind(constant) != K::ConstantPattern {
            return None;
        }
        let looser = |b: Node<'t>| {
            syn.kind(b) == K::BinaryExpression
                && syn
                    .field(b, F::Operator)
                    .and_then(|o| BinaryOp::from_token(syn.text(o)))
                    .is_some_and(|op| precedence(op) < RELATIONAL)
        };
        let mut spine = vec![syn.first_named(constant).filter(|b| looser(*b))?];
        let mut leaf = syn.field(*spine.last()?, F::Left)?;
        while looser(leaf) && spine.len() < 64 {
            spine.push(leaf);
            leaf = syn.field(leaf, F::Left)?;
        }
        let value = self.expr(leaf);
        let mut test = self.body.alloc_pat(Pat::Constant(value), Syn::range(leaf));
        if negated {
            let range = TextRange::new(pat.start_byte() as u32, leaf.end_byte() as u32);
            test = self.body.alloc_pat(Pat::Not(test), range);
        }
        let start = n.start_byte() as u32;
        let mut acc = self.body.alloc_expr(
            Expr::Is { expr, pat: test },
            TextRange::new(start, leaf.end_byte() as u32),
        );
        for b in spine.into_iter().rev() {
            let op = syn
                .field(b, F::Operator)
                .and_then(|o| BinaryOp::from_token(syn.text(o)))?;
            let rhs = self.field_expr(b, F::Right);
            let range = TextRange::new(start, b.end_byte() as u32);
            acc = self
                .body
                .alloc_expr(Expr::Binary { op, lhs: acc, rhs }, range);
        }
        Some(acc)
    }

    fn object_creation_expr(&mut self, n: Node<'t>) -> Expr {
        let syn = self.syn;
        let ty = Some(self.boxed_type(n, F::Type));
        let args = syn
            .field(n, F::Arguments)
            .map_or_else(|| Box::new([]) as Box<[Arg]>, |a| self.args(a));
        let init = syn.field(n, F::Initializer).map(|i| self.initializer(i));
        Expr::New { ty, args, init }
    }

    fn implicit_object_creation_expr(&mut self, n: Node<'t>) -> Expr {
        let syn = self.syn;
        let args = syn
            .child_of(n, K::ArgumentList)
            .map_or_else(|| Box::new([]) as Box<[Arg]>, |a| self.args(a));
        let init = syn
            .child_of(n, K::InitializerExpression)
            .map(|i| self.initializer(i));
        Expr::New {
            ty: None,
            args,
            init,
        }
    }

    fn implicit_array_creation_expr(&mut self, n: Node<'t>) -> Expr {
        let syn = self.syn;
        let init = match syn.kind(n) {
            K::InitializerExpression => Some(n),
            _ => syn.child_of(n, K::InitializerExpression),
        };
        Expr::NewArray {
            elem: None,
            sizes: Box::new([]),
            init: init.map(|i| self.exprs(i)),
        }
    }

    fn collection_expr(&mut self, n: Node<'t>) -> Expr {
        let syn = self.syn;
        let mut elems = Vec::new();
        for el in syn.named(n) {
            let inner = syn.first_named(el).unwrap_or(el);
            match syn.kind(inner) {
                K::SpreadElement => elems.push(CollectionElem::Spread(self.child_expr(inner))),
                K::ExpressionElement => elems.push(CollectionElem::Expr(self.child_expr(inner))),
                _ => elems.push(CollectionElem::Expr(self.expr(inner))),
            }
        }
        Expr::Collection(elems.into_boxed_slice())
    }

    fn tuple_expr(&mut self, n: Node<'t>) -> Expr {
        let args = self.args(n);
        Expr::Tuple(
            args.into_vec()
                .into_iter()
                .map(|a| (a.name, a.value))
                .collect(),
        )
    }

    fn declaration_expr(&mut self, n: Node<'t>) -> Expr {
        let syn = self.syn;
        let ty = self.declared_type(syn.field(n, F::Type));
        let binding = syn
            .field(n, F::Name)
            .filter(|id| syn.text(*id) != "_")
            .map(|id| {
                let kind = self.decl_kind;
                self.bind(id, ty.clone(), kind)
            });
        Expr::Declaration {
            ty: ty.map(Box::new),
            bindings: Box::new([binding]),
        }
    }

    fn range_expr(&mut self, n: Node<'t>) -> Expr {
        let syn = self.syn;
        let dots = syn
            .children(n)
            .into_iter()
            .find(|c| !c.is_named() && syn.text(*c) == "..")
            .map_or(n.start_byte(), |d| d.start_byte());
        let mut lo = None;
        let mut hi = None;
        for c in syn.named(n) {
            let e = self.expr(c);
            if c.start_byte() < dots {
                lo = Some(e)
            } else {
                hi = Some(e)
            }
        }
        Expr::Range { lo, hi }
    }

    fn with_expr(&mut self, n: Node<'t>) -> Expr {
        let syn = self.syn;
        let mut expr = None;
        let mut init = Vec::new();
        for c in syn.named(n) {
            if syn.kind(c) == K::WithInitializer {
                let parts = syn.named(c);
                let name = parts.first().map_or_else(Name::default, |id| syn.name(*id));
                let range = parts.first().map_or(Syn::range(c), |id| Syn::range(*id));
                let value = match parts.get(1) {
                    Some(v) => self.init_value(*v),
                    None => InitValue::Expr(self.missing(c)),
                };
                init.push(InitElem::Member { name, range, value });
            } else if expr.is_none() {
                expr = Some(self.expr(c));
            }
        }
        let expr = expr.unwrap_or_else(|| self.missing(n));
        Expr::With {
            expr,
            init: init.into_boxed_slice(),
        }
    }

    fn makeref_expr(&mut self, n: Node<'t>) -> Expr {
        let syn = self.syn;
        let parts: Vec<ExprId> = syn
            .named(n)
            .into_iter()
            .filter(|c| syn.field(n, F::Type) != Some(*c))
            .map(|c| self.expr(c))
            .collect();
        Expr::Other(parts.into_boxed_slice())
    }

    /// `"a" + "b" + ...` of literals only: one constant. Generated tables
    /// concatenate thousands of literals, which would otherwise nest too deeply.
    fn is_string_concat(&self, n: Node<'t>) -> bool {
        let syn = self.syn;
        let is_str = |e: Node<'t>| {
            matches!(
                syn.kind(e),
                K::StringLiteral | K::VerbatimStringLiteral | K::RawStringLiteral
            )
        };
        let mut cur = n;
        let mut terms = 0;
        loop {
            if syn
                .field(cur, F::Operator)
                .is_none_or(|o| syn.text(o) != "+")
                || !syn.field(cur, F::Right).is_some_and(is_str)
            {
                return false;
            }
            terms += 1;
            match syn.field(cur, F::Left) {
                Some(l) if syn.kind(l) == K::BinaryExpression => cur = l,
                Some(l) => return is_str(l) && terms > 1,
                None => return false,
            }
        }
    }

    fn ident(&mut self, n: Node<'t>) -> Expr {
        let name = self.syn.name(n);
        match self.lookup(&name) {
            Some(b) => Expr::Local(b),
            None => Expr::Name {
                name,
                type_args: None,
            },
        }
    }

    fn generic_name(&mut self, n: Node<'t>) -> Expr {
        let (name, type_args) = self.simple_name(Some(n));
        Expr::Name { name, type_args }
    }

    /// An identifier or generic name: the name and its type arguments.
    fn simple_name(&self, n: Option<Node<'t>>) -> (Name, Option<crate::hir::TypeArgs>) {
        let syn = self.syn;
        match n {
            Some(n) if syn.kind(n) == K::GenericName => {
                let named = syn.named(n);
                let name = named.first().map_or_else(Name::default, |id| syn.name(*id));
                let args = named
                    .iter()
                    .find(|c| syn.kind(**c) == K::TypeArgumentList)
                    .map(|l| Box::new(syn.type_args(*l).into_boxed_slice()));
                (name, args)
            }
            Some(n) => (syn.name(n), None),
            None => (Name::default(), None),
        }
    }

    /// The content of a short string literal without escapes.
    fn plain_string(&self, n: Node<'t>) -> Option<Box<str>> {
        let syn = self.syn;
        let text = syn.text(n);
        if text.len() > MAX_KEPT_STRING + 8 {
            return None;
        }
        let plain = match syn.kind(n) {
            K::StringLiteral => !text.contains('\\'),
            K::VerbatimStringLiteral => {
                !text[2.min(text.len())..text.len().saturating_sub(1)].contains("\"\"")
            }
            _ => !text.contains('\n'),
        };
        if !plain {
            return None;
        }
        syn.string_value(n)
            .filter(|s| s.len() <= MAX_KEPT_STRING)
            .map(String::into_boxed_str)
    }

    fn interpolated(&mut self, n: Node<'t>) -> Expr {
        let mut holes = Vec::new();
        for part in self.syn.named(n) {
            if self.syn.kind(part) != K::Interpolation {
                continue;
            }
            for c in self.syn.named(part) {
                match self.syn.kind(c) {
                    K::InterpolationAlignmentClause => holes.push(self.child_expr(c)),
                    K::InterpolationFormatClause | K::InterpolationBrace => {}
                    _ => holes.push(self.expr(c)),
                }
            }
        }
        Expr::Interpolated(holes.into_boxed_slice())
    }

    // ---- member-access chains ----

    fn chain(&mut self, n: Node<'t>) -> ExprId {
        let syn = self.syn;
        let mut links: Vec<Link<'t>> = Vec::new();
        let mut cur = n;
        loop {
            let end = cur.end_byte();
            let next = match syn.kind(cur) {
                K::MemberAccessExpression => {
                    let Some(name) = syn.field(cur, F::Name) else {
                        break;
                    };
                    let between = syn
                        .field(cur, F::Expression)
                        .map_or(name.start_byte(), |e| e.end_byte());
                    let arrow = syn
                        .src
                        .get(between..name.start_byte())
                        .is_some_and(|t| t.contains("->"));
                    links.push(Link::Member {
                        name,
                        conditional: false,
                        arrow,
                        end,
                    });
                    syn.field(cur, F::Expression)
                }
                K::InvocationExpression => {
                    let Some(args) = syn.field(cur, F::Arguments) else {
                        break;
                    };
                    links.push(Link::Call { args, end });
                    syn.field(cur, F::Function)
                }
                K::ElementAccessExpression => {
                    let Some(args) = syn.field(cur, F::Subscript) else {
                        break;
                    };
                    // A repaired `M(x) = v` reads `M[x] = v`: the original has `(`.
                    if syn.byte_at(args.start_byte()) == b'(' {
                        links.push(Link::Call { args, end });
                    } else {
                        links.push(Link::Element {
                            args,
                            conditional: false,
                            end,
                        });
                    }
                    syn.field(cur, F::Expression)
                }
                K::ConditionalAccessExpression => {
                    let binding = syn.named(cur).into_iter().rfind(|c| {
                        matches!(
                            syn.kind(*c),
                            K::MemberBindingExpression | K::ElementBindingExpression
                        )
                    });
                    match binding {
                        Some(b) if syn.kind(b) == K::MemberBindingExpression => {
                            match syn.field(b, F::Name) {
                                Some(name) => links.push(Link::Member {
                                    name,
                                    conditional: true,
                                    arrow: false,
                                    end,
                                }),
                                None => break,
                            }
                        }
                        Some(b) => links.push(Link::Element {
                            args: b,
                            conditional: true,
                            end,
                        }),
                        None => break,
                    }
                    syn.field(cur, F::Condition)
                }
                K::PostfixUnaryExpression if matches!(postfix_op(syn, cur), "!" | "?") => {
                    let op_start = syn.last_child(cur).map_or(0, |o| o.start_byte());
                    // A repaired `a?.B = v` reads `a!.B = v`: the original has `?`.
                    if syn.byte_at(op_start) == b'?' && !links.is_empty() {
                        if let Some(l) = links.last_mut() {
                            l.set_conditional();
                        }
                    } else {
                        links.push(Link::Forgive { end });
                    }
                    syn.first_named(cur)
                }
                _ => break,
            };
            match next {
                Some(next) => cur = next,
                None => return self.missing(n),
            }
            if links.len() as u32 >= self.remaining_depth() {
                self.mark_too_deep(n);
                return self.missing(n);
            }
        }
        self.apply_links(cur, &links)
    }

    /// Builds `base` followed by `links` (outermost first).
    fn apply_links(&mut self, base: Node<'t>, links: &[Link<'t>]) -> ExprId {
        let syn = self.syn;
        let end = links.first().map_or(base.end_byte(), Link::end);
        let range = TextRange::new(base.start_byte() as u32, end as u32);
        let misnested = links.last().is_some_and(Link::is_conditional)
            && matches!(
                syn.kind(base),
                K::BinaryExpression
                    | K::PrefixUnaryExpression
                    | K::CastExpression
                    | K::AwaitExpression
            );
        if misnested {
            if !self.enter(base) {
                return self.body.alloc_expr(Expr::Missing, range);
            }
            let e = match syn.kind(base) {
                K::BinaryExpression => {
                    let lhs = self.field_expr(base, F::Left);
                    let rhs = match syn.field(base, F::Right) {
                        Some(r) => self.apply_links(r, links),
                        None => self.missing(base),
                    };
                    match syn
                        .field(base, F::Operator)
                        .and_then(|o| BinaryOp::from_token(syn.text(o)))
                    {
                        Some(op) => Expr::Binary { op, lhs, rhs },
                        None => Expr::Other(Box::new([lhs, rhs])),
                    }
                }
                K::CastExpression => {
                    let ty = self.boxed_type(base, F::Type);
                    let expr = match syn.field(base, F::Value) {
                        Some(v) => self.apply_links(v, links),
                        None => self.missing(base),
                    };
                    Expr::Cast { ty, expr }
                }
                kind => {
                    let operand = match syn.first_named(base) {
                        Some(o) => self.apply_links(o, links),
                        None => self.missing(base),
                    };
                    if kind == K::AwaitExpression {
                        Expr::Await(operand)
                    } else {
                        let op = match Some(syn.first_token(base)) {
                            Some("!") => UnaryOp::Not,
                            Some("-") => UnaryOp::Neg,
                            Some("+") => UnaryOp::Plus,
                            Some("~") => UnaryOp::BitNot,
                            Some("++") => UnaryOp::PreInc,
                            Some("--") => UnaryOp::PreDec,
                            Some("&") => UnaryOp::AddressOf,
                            Some("^") => UnaryOp::FromEnd,
                            _ => UnaryOp::Deref,
                        };
                        Expr::Unary { op, operand }
                    }
                }
            };
            self.leave();
            let id = self.body.alloc_expr(e, range);
            self.rotated.push(id);
            return id;
        }
        // `o is var (a, b)` and `o is T(x, y)` come out as `(o is T)(x, y)`.
        if let [Link::Call { args, .. }] = links
            && let Some((value, ty)) = self.misparsed_is(base)
        {
            let expr = self.expr(value);
            let pat_range = TextRange::new(ty.start_byte() as u32, range.end);
            let pat = if syn.kind(ty) == K::ImplicitType {
                let mut bindings = Vec::new();
                self.var_args(*args, &mut bindings, 0);
                Pat::Var(bindings.into_boxed_slice())
            } else {
                Pat::Recursive {
                    ty: Some(Box::new(syn.type_ref(ty))),
                    positional: Some(self.arg_subpatterns(*args)),
                    properties: None,
                    binding: None,
                }
            };
            let pat = self.body.alloc_pat(pat, pat_range);
            return self.body.alloc_expr(Expr::Is { expr, pat }, range);
        }
        let mut e = self.expr(base);
        let start = base.start_byte() as u32;
        for link in links.iter().rev() {
            let range = TextRange::new(start, link.end() as u32);
            let expr = match link {
                Link::Member {
                    name,
                    conditional,
                    arrow,
                    ..
                } => {
                    let receiver = if *arrow {
                        let r = self.body.expr_range(e);
                        self.body.alloc_expr(
                            Expr::Unary {
                                op: UnaryOp::Deref,
                                operand: e,
                            },
                            r,
                        )
                    } else {
                        e
                    };
                    let (name, type_args) = self.simple_name(Some(*name));
                    Expr::MemberAccess {
                        receiver,
                        name,
                        type_args,
                        conditional: *conditional,
                    }
                }
                Link::Element {
                    args, conditional, ..
                } => Expr::ElementAccess {
                    receiver: e,
                    args: self.args(*args),
                    conditional: *conditional,
                },
                Link::Call { args, .. } => Expr::Call {
                    callee: e,
                    args: self.args(*args),
                },
                Link::Forgive { .. } => Expr::Unary {
                    op: UnaryOp::Forgive,
                    operand: e,
                },
            };
            e = self.body.alloc_expr(expr, range);
        }
        e
    }

    /// `o is T` whose `T` is really the head of a positional pattern `T(..)`:
    /// the tested value and the type node.
    fn misparsed_is(&self, n: Node<'t>) -> Option<(Node<'t>, Node<'t>)> {
        let syn = self.syn;
        match syn.kind(n) {
            K::IsExpression => Some((syn.field(n, F::Left)?, syn.field(n, F::Right)?)),
            K::IsPatternExpression => {
                let pat = syn.field(n, F::Pattern)?;
                let ty = match syn.kind(pat) {
                    K::TypePattern => syn.field(pat, F::Type)?,
                    K::ConstantPattern => syn.first_named(pat)?,
                    _ => return None,
                };
                matches!(
                    syn.kind(ty),
                    K::Identifier
                        | K::QualifiedName
                        | K::GenericName
                        | K::AliasQualifiedName
                        | K::PredefinedType
                )
                .then_some((syn.field(n, F::Expression)?, ty))
            }
            _ => None,
        }
    }

    /// The designations of a misparsed `var (a, (b, _))`, given as arguments.
    fn var_args(&mut self, list: Node<'t>, out: &mut Vec<Option<BindingId>>, depth: u32) {
        let syn = self.syn;
        for a in syn.named(list) {
            let Some(v) = syn.first_named(a) else {
                continue;
            };
            match syn.kind(v) {
                K::Identifier if syn.text(v) == "_" => out.push(None),
                K::Identifier => out.push(Some(self.bind(v, None, BindingKind::Pattern))),
                K::TupleExpression if depth < 64 => self.var_args(v, out, depth + 1),
                _ => out.push(None),
            }
        }
    }

    /// The arguments among the children of `n` (argument lists, element
    /// bindings, tuples).
    pub(super) fn args(&mut self, n: Node<'t>) -> Box<[Arg]> {
        let syn = self.syn;
        let mut out = Vec::new();
        for a in syn.named(n) {
            // A repaired `M() = v` reads `M[_]= v`: the argument is the `)`.
            if syn.kind(a) != K::Argument || syn.byte_at(a.start_byte()) == b')' {
                continue;
            }
            // One pass: `name:`, `ref`/`out`/`in`, then the value.
            let name_field = syn.field_id(F::Name);
            let mut name_node = None;
            let mut modifier = ArgModifier::None;
            let mut value = None;
            for (f, c) in syn.children_fields(a) {
                if f == name_field && f != 0 {
                    name_node = Some(c);
                } else if syn.is_node(c) {
                    value = Some(c);
                } else {
                    modifier = match syn.text(c) {
                        "ref" => ArgModifier::Ref,
                        "out" => ArgModifier::Out,
                        "in" => ArgModifier::In,
                        _ => modifier,
                    };
                }
            }
            let saved = self.decl_kind;
            if modifier == ArgModifier::Out {
                self.decl_kind = BindingKind::Out;
            }
            let value = match value {
                Some(v) => self.expr(v),
                None => self.missing(a),
            };
            self.decl_kind = saved;
            out.push(Arg {
                name: name_node.map(|id| syn.name(id)),
                modifier,
                value,
            });
        }
        out.into_boxed_slice()
    }

    /// The expressions inside `{ a, b }`.
    fn exprs(&mut self, n: Node<'t>) -> Box<[ExprId]> {
        self.syn
            .named(n)
            .into_iter()
            .map(|e| self.expr(e))
            .collect()
    }

    fn array_creation(&mut self, n: Node<'t>) -> Expr {
        let syn = self.syn;
        let ty = syn.field(n, F::Type);
        let elem = ty
            .and_then(|t| syn.field(t, F::Type))
            .map(|t| Box::new(syn.type_ref(t)));
        let mut sizes = Vec::new();
        // Sizes may sit in any rank of a jagged type (`new int[3][]`).
        let mut t = ty;
        let mut ranks = Vec::new();
        while let Some(at) = t.filter(|t| syn.kind(*t) == K::ArrayType) {
            ranks.extend(syn.field(at, F::Rank));
            t = syn.field(at, F::Type);
        }
        for rank in ranks.into_iter().rev() {
            for size in syn.named(rank) {
                sizes.push(self.expr(size));
            }
        }
        let init = syn
            .child_of(n, K::InitializerExpression)
            .map(|i| self.exprs(i));
        Expr::NewArray {
            elem,
            sizes: sizes.into_boxed_slice(),
            init,
        }
    }

    fn anonymous_object(&mut self, n: Node<'t>) -> Expr {
        let syn = self.syn;
        let children = syn.children(n);
        let mut members = Vec::new();
        let mut i = 0;
        while i < children.len() {
            let c = children[i];
            let named_eq = syn.kind(c) == K::Identifier
                && children
                    .get(i + 1)
                    .is_some_and(|eq| !eq.is_named() && syn.text(*eq) == "=");
            if named_eq {
                let value = match children.get(i + 2) {
                    Some(v) => self.expr(*v),
                    None => self.missing(c),
                };
                members.push((Some(syn.name(c)), value));
                i += 3;
            } else {
                if syn.is_node(c) {
                    members.push((None, self.expr(c)));
                }
                i += 1;
            }
        }
        Expr::AnonymousObject(members.into_boxed_slice())
    }

    /// An object or collection initializer.
    fn initializer(&mut self, n: Node<'t>) -> Box<[InitElem]> {
        let syn = self.syn;
        if !self.enter(n) {
            return Box::new([]);
        }
        let mut out = Vec::new();
        for e in syn.named(n) {
            match syn.kind(e) {
                K::AssignmentExpression => {
                    let left = syn.field(e, F::Left);
                    let value = match syn.field(e, F::Right) {
                        Some(r) => self.init_value(r),
                        None => InitValue::Expr(self.missing(e)),
                    };
                    match left.map(|l| (syn.kind(l), l)) {
                        Some((K::Identifier, l)) => out.push(InitElem::Member {
                            name: syn.name(l),
                            range: Syn::range(l),
                            value,
                        }),
                        Some((K::ElementBindingExpression, l)) => out.push(InitElem::Indexer {
                            args: self.args(l),
                            value,
                        }),
                        _ => {
                            let lhs = match left {
                                Some(l) => self.expr(l),
                                None => self.missing(e),
                            };
                            let rhs = match value {
                                InitValue::Expr(r) => r,
                                InitValue::Nested(_) => self.missing(e),
                            };
                            let assign = self.alloc(
                                Expr::Assign {
                                    op: AssignOp::Assign,
                                    lhs,
                                    rhs,
                                },
                                e,
                            );
                            out.push(InitElem::Add(Box::new([assign])));
                        }
                    }
                }
                K::InitializerExpression => out.push(InitElem::Add(self.exprs(e))),
                _ => out.push(InitElem::Add(Box::new([self.expr(e)]))),
            }
        }
        self.leave();
        out.into_boxed_slice()
    }

    fn init_value(&mut self, n: Node<'t>) -> InitValue {
        if self.syn.kind(n) == K::InitializerExpression {
            InitValue::Nested(self.initializer(n))
        } else {
            InitValue::Expr(self.expr(n))
        }
    }

    fn switch_expr(&mut self, n: Node<'t>) -> Expr {
        let syn = self.syn;
        let mut scrutinee = None;
        let mut arms = Vec::new();
        for c in syn.named(n) {
            if syn.kind(c) != K::SwitchExpressionArm {
                if scrutinee.is_none() {
                    scrutinee = Some(self.expr(c));
                }
                continue;
            }
            self.push_scope();
            let parts = syn.named(c);
            let pat = self.opt_pat(parts.first().copied(), c);
            let guard = parts
                .iter()
                .find(|p| syn.kind(**p) == K::WhenClause)
                .map(|w| self.child_expr(*w));
            let value = match parts
                .last()
                .filter(|v| parts.len() > 1 && syn.kind(**v) != K::WhenClause)
            {
                Some(v) => self.expr(*v),
                None => self.missing(c),
            };
            self.pop_scope();
            arms.push(SwitchArm { pat, guard, value });
        }
        let scrutinee = scrutinee.unwrap_or_else(|| self.missing(n));
        Expr::Switch {
            scrutinee,
            arms: arms.into_boxed_slice(),
        }
    }

    fn query(&mut self, n: Node<'t>) -> Expr {
        let syn = self.syn;
        let mut clauses = Vec::new();
        self.push_scope();
        for c in syn.named(n) {
            let kind = syn.kind(c);
            let parts: Vec<Node<'t>> = syn
                .named(c)
                .into_iter()
                .filter(|p| syn.field(c, F::Type) != Some(*p))
                .collect();
            let ty = self.declared_type(syn.field(c, F::Type));
            match kind {
                K::FromClause => {
                    let source = match parts.last().filter(|p| Some(**p) != syn.field(c, F::Name)) {
                        Some(s) => self.expr(*s),
                        None => self.missing(c),
                    };
                    let binding = self.range_var(syn.field(c, F::Name), ty, c);
                    clauses.push(QueryClause::From {
                        binding,
                        source,
                        keys: Box::new([]),
                        into: None,
                    });
                }
                K::JoinClause => {
                    let exprs: Vec<Node<'t>> = parts
                        .iter()
                        .skip(1)
                        .filter(|p| syn.kind(**p) != K::JoinIntoClause)
                        .copied()
                        .collect();
                    let source = match exprs.first() {
                        Some(s) => self.expr(*s),
                        None => self.missing(c),
                    };
                    let binding = self.range_var(parts.first().copied(), ty, c);
                    let keys: Vec<ExprId> = exprs.iter().skip(1).map(|k| self.expr(*k)).collect();
                    let into = parts
                        .iter()
                        .find(|p| syn.kind(**p) == K::JoinIntoClause)
                        .map(|i| self.range_var(syn.first_named(*i), None, *i));
                    clauses.push(QueryClause::From {
                        binding,
                        source,
                        keys: keys.into_boxed_slice(),
                        into,
                    });
                }
                K::LetClause => {
                    let value = match parts.get(1) {
                        Some(v) => self.expr(*v),
                        None => self.missing(c),
                    };
                    let binding = self.range_var(parts.first().copied(), None, c);
                    clauses.push(QueryClause::Let { binding, value });
                }
                K::WhereClause | K::OrderByClause => {
                    let keys: Vec<ExprId> = parts.iter().map(|k| self.expr(*k)).collect();
                    clauses.push(QueryClause::Filter(keys.into_boxed_slice()));
                }
                K::SelectClause | K::GroupClause => {
                    let value = match parts.first() {
                        Some(v) => self.expr(*v),
                        None => self.missing(c),
                    };
                    let key = parts.get(1).map(|k| self.expr(*k));
                    clauses.push(QueryClause::Select {
                        value,
                        key,
                        into: None,
                    });
                }
                // `into x`: a continuation; the earlier range variables end here.
                K::Identifier => {
                    self.pop_scope();
                    self.push_scope();
                    let binding = self.bind(c, None, BindingKind::Range);
                    if let Some(QueryClause::Select { into, .. }) = clauses.last_mut() {
                        *into = Some(binding);
                    }
                }
                _ => {}
            }
        }
        self.pop_scope();
        Expr::Query(clauses.into_boxed_slice())
    }

    fn range_var(
        &mut self,
        name: Option<Node<'t>>,
        ty: Option<TypeRef>,
        parent: Node<'t>,
    ) -> BindingId {
        match name {
            Some(name) => self.bind(name, ty, BindingKind::Range),
            None => self.bind_named(
                Name::default(),
                Syn::range(parent),
                ty,
                BindingKind::Range,
                crate::hir::ParamModifier::None,
            ),
        }
    }

    /// `var (a, (b, _))` / `(a, b)` designations as a declaration expression.
    pub(super) fn designation_expr(
        &mut self,
        n: Node<'t>,
        ty: Option<TypeRef>,
        kind: BindingKind,
    ) -> ExprId {
        let syn = self.syn;
        let parts: Vec<Node<'t>> = syn.named(n);
        let flat = parts
            .iter()
            .all(|p| matches!(syn.kind(*p), K::Identifier | K::Discard));
        if flat || !self.enter(n) {
            let bindings: Box<[Option<BindingId>]> = parts
                .iter()
                .map(|p| (syn.kind(*p) == K::Identifier).then(|| self.bind(*p, ty.clone(), kind)))
                .collect();
            return self.alloc(
                Expr::Declaration {
                    ty: ty.map(Box::new),
                    bindings,
                },
                n,
            );
        }
        let mut elems = Vec::new();
        for p in parts {
            let e = match syn.kind(p) {
                K::TuplePattern | K::ParenthesizedVariableDesignation => {
                    self.designation_expr(p, ty.clone(), kind)
                }
                _ => {
                    let binding =
                        (syn.kind(p) == K::Identifier).then(|| self.bind(p, ty.clone(), kind));
                    self.alloc(
                        Expr::Declaration {
                            ty: ty.clone().map(Box::new),
                            bindings: Box::new([binding]),
                        },
                        p,
                    )
                }
            };
            elems.push((None, e));
        }
        self.leave();
        self.alloc(Expr::Tuple(elems.into_boxed_slice()), n)
    }

    // ---- patterns ----

    fn opt_pat(&mut self, n: Option<Node<'t>>, parent: Node<'t>) -> PatId {
        match n {
            Some(n) => self.pat(n),
            None => self.body.alloc_pat(Pat::Missing, Syn::range(parent)),
        }
    }

    pub(super) fn pat(&mut self, n: Node<'t>) -> PatId {
        let range = Syn::range(n);
        if !self.enter(n) {
            return self.body.alloc_pat(Pat::Missing, range);
        }
        let p = self.pat_kind(n);
        self.leave();
        match p {
            Ok(p) => self.body.alloc_pat(p, range),
            Err(id) => id,
        }
    }

    fn parenthesized_pat(&mut self, n: Node<'t>) -> Result<Pat, PatId> {
        if self.syn.byte_at(n.start_byte()) == b'[' {
            // A repaired `[p] when ..` reads `(p) when ..`.
            let items = self.syn.first_named(n).map(|p| self.pat(p)).into_iter();
            return Ok(Pat::List {
                items: items.collect(),
                binding: None,
            });
        }
        Err(match self.syn.first_named(n) {
            Some(p) => self.pat(p),
            None => self.body.alloc_pat(Pat::Missing, Syn::range(n)),
        })
    }

    fn declaration_pat(&mut self, n: Node<'t>) -> Pat {
        let syn = self.syn;
        let ty = self.boxed_type(n, F::Type);
        let binding = syn
            .field(n, F::Name)
            .map(|id| self.bind(id, Some((*ty).clone()), BindingKind::Pattern));
        Pat::Declaration { ty, binding }
    }

    fn var_pat(&mut self, n: Node<'t>) -> Pat {
        let mut bindings = Vec::new();
        self.designations(n, &mut bindings, 0);
        Pat::Var(bindings.into_boxed_slice())
    }

    /// `not`/`and`/`or` patterns. The grammar gives `not` the lowest precedence
    /// (`not A and B` comes out as `not (A and B)`, `A and not B or C` as
    /// `A and not (B or C)`), where C# binds `not` tightest, then `and`, then
    /// `or`: the operands and operators are taken in source order and
    /// regrouped. Iterative, so that long chains cannot exhaust the stack.
    fn logical_pat(&mut self, n: Node<'t>) -> PatId {
        enum Item<'t> {
            Operand(Option<Node<'t>>, TextRange),
            Not(u32),
            And,
            Or,
        }
        enum Work<'t> {
            Visit(Option<Node<'t>>, TextRange),
            Emit(Item<'t>),
        }
        let syn = self.syn;
        let mut items = Vec::new();
        let mut work = vec![Work::Visit(Some(n), Syn::range(n))];
        while let Some(w) = work.pop() {
            let (node, range) = match w {
                Work::Emit(item) => {
                    items.push(item);
                    continue;
                }
                Work::Visit(node, range) => (node, range),
            };
            let Some(x) = node else {
                items.push(Item::Operand(None, range));
                continue;
            };
            match syn.kind(x) {
                K::NegatedPattern => {
                    items.push(Item::Not(x.start_byte() as u32));
                    work.push(Work::Visit(syn.first_named(x), Syn::range(x)));
                }
                kind @ (K::AndPattern | K::OrPattern) => {
                    let op = if kind == K::AndPattern {
                        Item::And
                    } else {
                        Item::Or
                    };
                    work.push(Work::Visit(syn.field(x, F::Right), Syn::range(x)));
                    work.push(Work::Emit(op));
                    work.push(Work::Visit(syn.field(x, F::Left), Syn::range(x)));
                }
                _ => items.push(Item::Operand(Some(x), Syn::range(x))),
            }
        }
        // The regrouped tree is at most as deep as there are items.
        if items.len() as u32 >= self.remaining_depth() {
            self.mark_too_deep(n);
            return self.body.alloc_pat(Pat::Missing, Syn::range(n));
        }
        let mut pos = 0;
        let mut or_terms: Option<PatId> = None;
        loop {
            let mut and_terms: Option<PatId> = None;
            loop {
                // `not`* then an operand.
                let mut nots = Vec::new();
                while let Some(Item::Not(start)) = items.get(pos) {
                    nots.push(*start);
                    pos += 1;
                }
                let mut p = match items.get(pos) {
                    Some(Item::Operand(Some(x), _)) => self.pat(*x),
                    Some(Item::Operand(None, range)) => self.body.alloc_pat(Pat::Missing, *range),
                    _ => self.body.alloc_pat(Pat::Missing, Syn::range(n)),
                };
                pos += 1;
                for start in nots.into_iter().rev() {
                    let end = self.body.pat_range(p).end;
                    p = self.body.alloc_pat(Pat::Not(p), TextRange::new(start, end));
                }
                and_terms = Some(match and_terms {
                    Some(l) => self.join_pats(l, p, Pat::And),
                    None => p,
                });
                if !matches!(items.get(pos), Some(Item::And)) {
                    break;
                }
                pos += 1;
            }
            let term =
                and_terms.unwrap_or_else(|| self.body.alloc_pat(Pat::Missing, Syn::range(n)));
            or_terms = Some(match or_terms {
                Some(l) => self.join_pats(l, term, Pat::Or),
                None => term,
            });
            if !matches!(items.get(pos), Some(Item::Or)) {
                break;
            }
            pos += 1;
        }
        or_terms.unwrap_or_else(|| self.body.alloc_pat(Pat::Missing, Syn::range(n)))
    }

    fn join_pats(&mut self, l: PatId, r: PatId, make: fn(PatId, PatId) -> Pat) -> PatId {
        let range = TextRange::new(self.body.pat_range(l).start, self.body.pat_range(r).end);
        self.body.alloc_pat(make(l, r), range)
    }

    fn relational_pat(&mut self, n: Node<'t>) -> Pat {
        let syn = self.syn;
        let op = match Some(syn.first_token(n)) {
            Some("<") => RelOp::Lt,
            Some("<=") => RelOp::Le,
            Some(">") => RelOp::Gt,
            _ => RelOp::Ge,
        };
        Pat::Relational {
            op,
            value: self.child_expr(n),
        }
    }

    /// A pattern, or the id of an inner one it stands for (parentheses).
    fn pat_kind(&mut self, n: Node<'t>) -> Result<Pat, PatId> {
        let syn = self.syn;
        let first = || syn.first_named(n);
        Ok(match syn.kind(n) {
            // `Point(X: 1, Y: _)` comes out as a call in a constant pattern; a
            // call is never a constant, so it is a positional pattern.
            K::ConstantPattern => match first() {
                Some(c) if syn.kind(c) == K::InvocationExpression => self.call_pattern(c),
                Some(c) if syn.kind(c) == K::TupleExpression => {
                    let positional = self.arg_subpatterns(c);
                    self.positional_pat(c, positional, None)
                }
                Some(c) => Pat::Constant(self.expr(c)),
                None => Pat::Missing,
            },
            K::ParenthesizedPattern => return self.parenthesized_pat(n),
            // A repaired leading `[..` reads `[_ `: the original has `.`.
            K::Discard if syn.byte_at(n.start_byte()) == b'.' => Pat::Slice(None),
            K::Discard => Pat::Discard,
            K::DeclarationPattern
                if syn
                    .field(n, F::Type)
                    .is_some_and(|t| syn.kind(t) == K::ImplicitType) =>
            {
                let mut bindings = Vec::new();
                self.designations(n, &mut bindings, 0);
                Pat::Var(bindings.into_boxed_slice())
            }
            K::DeclarationPattern => self.declaration_pat(n),
            K::VarPattern => self.var_pat(n),
            K::NegatedPattern | K::AndPattern | K::OrPattern => return Err(self.logical_pat(n)),
            K::RelationalPattern => self.relational_pat(n),
            K::TypePattern => Pat::Type(self.boxed_type(n, F::Type)),
            K::RecursivePattern => self.recursive_pattern(n),
            K::ListPattern => self.list_pattern(n),
            K::Error => Pat::Missing,
            K::TupleExpression => {
                let positional = self.arg_subpatterns(n);
                self.positional_pat(n, positional, None)
            }
            // Case labels (`case X:`) and constant subpatterns come as expressions.
            _ => Pat::Constant(self.expr(n)),
        })
    }

    /// `T(a, b: p)` read as a call: a positional pattern.
    fn call_pattern(&mut self, call: Node<'t>) -> Pat {
        let syn = self.syn;
        let function = syn.field(call, F::Function);
        // `case nameof(X):` is the one call that is a constant: a string.
        if function.is_some_and(|f| syn.text(f) == "nameof") {
            return Pat::Constant(self.alloc(Expr::Literal(Literal::Str(None)), call));
        }
        let ty = function.map(|f| Box::new(syn.type_ref(f)));
        let positional = match syn.field(call, F::Arguments) {
            Some(args) => self.arg_subpatterns(args),
            None => Box::new([]),
        };
        Pat::Recursive {
            ty,
            positional: Some(positional),
            properties: None,
            binding: None,
        }
    }

    /// Arguments (of a call or tuple read where a pattern belongs) as subpatterns.
    fn arg_subpatterns(&mut self, list: Node<'t>) -> Box<[Subpattern]> {
        let syn = self.syn;
        let mut subs = Vec::new();
        for a in syn.named(list) {
            // A repaired `M() = v` reads `M[_]= v`: the argument is the `)`.
            if syn.kind(a) != K::Argument || syn.byte_at(a.start_byte()) == b')' {
                continue;
            }
            let name = syn.field(a, F::Name);
            let path: Box<[Name]> = name.map(|n| syn.name(n)).into_iter().collect();
            let value = syn.named(a).into_iter().rfind(|c| Some(*c) != name);
            let pat = match value {
                Some(v) => self.arg_pattern(v),
                None => self.body.alloc_pat(Pat::Missing, Syn::range(a)),
            };
            subs.push(Subpattern { path, pat });
        }
        subs.into_boxed_slice()
    }

    /// An argument of a pattern read as a call, as a pattern.
    fn arg_pattern(&mut self, v: Node<'t>) -> PatId {
        let syn = self.syn;
        let range = Syn::range(v);
        if !self.enter(v) {
            return self.body.alloc_pat(Pat::Missing, range);
        }
        let p = match syn.kind(v) {
            K::Identifier if syn.text(v) == "_" => Pat::Discard,
            // A bare slice of a repaired list pattern reads `_ `.
            K::Identifier if syn.byte_at(v.start_byte()) == b'.' => Pat::Slice(None),
            K::DeclarationExpression => {
                let ty = self.declared_type(syn.field(v, F::Type));
                let binding = syn
                    .field(v, F::Name)
                    .filter(|id| syn.text(*id) != "_")
                    .map(|id| self.bind(id, ty.clone(), BindingKind::Pattern));
                match ty {
                    Some(ty) => Pat::Declaration {
                        ty: Box::new(ty),
                        binding,
                    },
                    None => Pat::Var(Box::new([binding])),
                }
            }
            K::InvocationExpression => self.call_pattern(v),
            K::TupleExpression => Pat::Recursive {
                ty: None,
                positional: Some(self.arg_subpatterns(v)),
                properties: None,
                binding: None,
            },
            _ => Pat::Constant(self.expr(v)),
        };
        self.leave();
        self.body.alloc_pat(p, range)
    }

    /// The variables of a designation (`x`, `_`, `(a, (b, _))`), flattened.
    fn designations(&mut self, n: Node<'t>, out: &mut Vec<Option<BindingId>>, depth: u32) {
        let syn = self.syn;
        if let Some(name) = syn.field(n, F::Name)
            && syn.kind(n) != K::ParenthesizedVariableDesignation
        {
            out.push(Some(self.bind(name, None, BindingKind::Pattern)));
            return;
        }
        for c in syn.named(n) {
            match syn.kind(c) {
                K::Identifier => out.push(Some(self.bind(c, None, BindingKind::Pattern))),
                K::Discard => out.push(None),
                K::ParenthesizedVariableDesignation if depth < 64 => {
                    self.designations(c, out, depth + 1)
                }
                _ => {}
            }
        }
    }

    fn recursive_pattern(&mut self, n: Node<'t>) -> Pat {
        let syn = self.syn;
        let ty = syn.field(n, F::Type).map(|t| Box::new(syn.type_ref(t)));
        let mut positional = None;
        let mut properties = None;
        let mut binding = None;
        for c in syn.named(n) {
            match syn.kind(c) {
                K::PositionalPatternClause => positional = Some(self.subpatterns(c)),
                K::PropertyPatternClause => properties = Some(self.subpatterns(c)),
                K::Identifier if syn.field(n, F::Name) == Some(c) => {
                    binding = Some(self.bind(c, ty.as_deref().cloned(), BindingKind::Pattern));
                }
                K::ParenthesizedVariableDesignation | K::Discard | K::Identifier => {}
                _ if syn.field(n, F::Type) == Some(c) => {}
                // `(p) x`: one positional subpattern with a designation.
                _ => {
                    let pat = self.pat(c);
                    positional = Some(Box::new([Subpattern {
                        path: Box::new([]),
                        pat,
                    }]) as Box<[Subpattern]>);
                }
            }
        }
        match (ty, positional, properties) {
            (None, Some(positional), None) => self.positional_pat(n, positional, binding),
            (ty, positional, properties) => Pat::Recursive {
                ty,
                positional,
                properties,
                binding,
            },
        }
    }

    /// `(a, b) x`, or the list pattern `[a, b] when ..` that a repair made it
    /// (the original text has the bracket).
    fn positional_pat(
        &self,
        n: Node<'t>,
        positional: Box<[Subpattern]>,
        binding: Option<BindingId>,
    ) -> Pat {
        if self.syn.byte_at(n.start_byte()) == b'[' {
            return Pat::List {
                items: positional.iter().map(|s| s.pat).collect(),
                binding,
            };
        }
        Pat::Recursive {
            ty: None,
            positional: Some(positional),
            properties: None,
            binding,
        }
    }

    fn subpatterns(&mut self, clause: Node<'t>) -> Box<[Subpattern]> {
        let syn = self.syn;
        let mut out = Vec::new();
        for sp in syn.named(clause) {
            if syn.kind(sp) != K::Subpattern {
                continue;
            }
            let children = syn.children(sp);
            let colon = children
                .iter()
                .position(|c| !c.is_named() && syn.text(*c) == ":");
            let path = match colon
                .and_then(|i| i.checked_sub(1))
                .and_then(|i| children.get(i))
            {
                Some(p) => self.pattern_path(*p),
                None => Box::new([]) as Box<[Name]>,
            };
            let pat = children.iter().rev().find(|c| syn.is_node(**c)).copied();
            let pat = match (pat, colon) {
                (Some(p), Some(i))
                    if children.iter().position(|c| *c == p).is_some_and(|j| j > i) =>
                {
                    self.pat(p)
                }
                (Some(p), None) => self.pat(p),
                _ => self.body.alloc_pat(Pat::Missing, Syn::range(sp)),
            };
            out.push(Subpattern { path, pat });
        }
        out.into_boxed_slice()
    }

    /// `A.B.C` before the `:` of an extended property pattern.
    fn pattern_path(&self, n: Node<'t>) -> Box<[Name]> {
        let syn = self.syn;
        let mut names = Vec::new();
        let mut cur = n;
        for _ in 0..64 {
            match syn.kind(cur) {
                K::MemberAccessExpression => {
                    names.push(self.simple_name(syn.field(cur, F::Name)).0);
                    match syn.field(cur, F::Expression) {
                        Some(e) => cur = e,
                        None => break,
                    }
                }
                K::ConstantPattern => match syn.first_named(cur) {
                    Some(e) => cur = e,
                    None => break,
                },
                _ => {
                    names.push(self.simple_name(Some(cur)).0);
                    break;
                }
            }
        }
        names.reverse();
        names.into_boxed_slice()
    }

    fn list_pattern(&mut self, n: Node<'t>) -> Pat {
        let syn = self.syn;
        let mut items = Vec::new();
        let mut binding = None;
        let mut prev_end = n.start_byte();
        let mut in_brackets = false;
        for c in syn.children(n) {
            if !syn.is_node(c) {
                match syn.text(c) {
                    "[" => in_brackets = true,
                    "]" => in_brackets = false,
                    ".." => items.push(self.body.alloc_pat(Pat::Slice(None), Syn::range(c))),
                    _ => {}
                }
                prev_end = c.end_byte();
                continue;
            }
            if !in_brackets {
                if syn.field(n, F::Name) == Some(c) {
                    binding = Some(self.bind(c, None, BindingKind::Pattern));
                }
                continue;
            }
            let p = self.pat(c);
            // A repaired `.. var rest` reads `   var rest`: the original has `..`.
            let gap = syn.src.get(prev_end..c.start_byte()).unwrap_or("");
            let p = if gap.trim() == ".." {
                let range = TextRange::new(
                    prev_end as u32 + (gap.len() - gap.trim_start().len()) as u32,
                    c.end_byte() as u32,
                );
                self.body.alloc_pat(Pat::Slice(Some(p)), range)
            } else {
                p
            };
            items.push(p);
            prev_end = c.end_byte();
        }
        Pat::List {
            items: items.into_boxed_slice(),
            binding,
        }
    }
}

/// The operator of an assignment from its token (`=`, `??=`, `+=`, ...).
fn assign_op(op: &str) -> AssignOp {
    match op {
        "=" => AssignOp::Assign,
        "??=" => AssignOp::Coalesce,
        _ => AssignOp::Compound(
            BinaryOp::from_token(op.strip_suffix('=').unwrap_or(op)).unwrap_or(BinaryOp::Add),
        ),
    }
}
