//! Conditions and patterns as branches. Null tests become `Cond::IsNull` so
//! the checker can drop obligations on the null edge (`if (x != null) x.Dispose()`,
//! `x is not null`, `x is { } y`); boolean variables, and integer flags compared
//! with a constant (`== 0`, `is 1`), become `Cond::Bool` so it can follow known
//! `leaveOpen` values and dispose-once flags.

use rlc_core::ir::{Cond, FieldRef, NodeId, Operand, Stmt as IrStmt, VarId};
use rlc_core::program::Const;

use super::Lowerer;
use crate::hir::{BinaryOp, Expr, ExprId, Literal, Pat, PatId, RelOp, TextRange, UnaryOp};
use crate::index::Ty;
use crate::resolve::ExprTarget;

/// A constant a value is compared with (`x == k`, `x is k`).
#[derive(Clone, Copy)]
enum Compared {
    Null,
    Int(i64),
}

impl Lowerer<'_> {
    /// Lowers a boolean expression so that control goes to `t` or `f`.
    pub(super) fn cond(&mut self, e: ExprId, t: NodeId, f: NodeId) {
        let range = self.hir.expr_range(e);
        if let Some(Expr::Binary {
            op:
                op @ (BinaryOp::Eq
                | BinaryOp::NotEq
                | BinaryOp::Lt
                | BinaryOp::Le
                | BinaryOp::Gt
                | BinaryOp::Ge),
            lhs,
            rhs,
        }) = self.hir.exprs.get(e.index()).cloned()
            && let Some((x, k, flipped)) = self.constant_compared(lhs, rhs)
            && (matches!(op, BinaryOp::Eq | BinaryOp::NotEq) || self.is_increment(x))
        {
            let op = if flipped { op.flipped() } else { op };
            let v = self.value_var(x);
            self.constant_test(v, op, k, t, f, range);
            return;
        }
        match self.hir.exprs.get(e.index()).cloned() {
            Some(Expr::Unary {
                op: UnaryOp::Not,
                operand,
            }) => self.cond(operand, f, t),
            Some(Expr::Checked(inner))
            | Some(Expr::Unary {
                op: UnaryOp::Forgive,
                operand: inner,
            }) => self.cond(inner, t, f),
            Some(Expr::Binary {
                op: BinaryOp::And,
                lhs,
                rhs,
            }) => {
                let mid = self.new_label(range);
                self.cond(lhs, mid, f);
                self.cur = Some(mid);
                self.cond(rhs, t, f);
            }
            Some(Expr::Binary {
                op: BinaryOp::Or,
                lhs,
                rhs,
            }) => {
                let mid = self.new_label(range);
                self.cond(lhs, t, mid);
                self.cur = Some(mid);
                self.cond(rhs, t, f);
            }
            Some(Expr::Binary {
                op: BinaryOp::Eq | BinaryOp::NotEq,
                lhs,
                rhs,
            }) => {
                self.value_of(lhs);
                self.value_of(rhs);
                self.branch(Cond::Opaque, t, f);
            }
            Some(Expr::Is { expr, pat }) => {
                let v = self.value_var(expr);
                self.pattern(pat, v, t, f);
            }
            Some(Expr::Literal(Literal::Bool(b))) => self.jump_to(if b { t } else { f }),
            _ => {
                let op = self.value_of(e);
                match op {
                    Operand::Var(v) => self.branch(Cond::Bool(v), t, f),
                    Operand::Const(Const::Bool(b)) => self.jump_to(if b { t } else { f }),
                    _ => self.branch(Cond::Opaque, t, f),
                }
            }
        }
    }

    /// The constant `e` is, as far as a comparison with it tells branches
    /// apart: `null` (or `default`, which a reference compares as), or an
    /// integer.
    fn comparable_constant(&self, e: ExprId) -> Option<Compared> {
        match self.hir.exprs.get(e.index())? {
            Expr::Literal(Literal::Null) | Expr::Default(_) => Some(Compared::Null),
            _ => self.int_constant(e).map(Compared::Int),
        }
    }

    /// The operand of a comparison with a constant, the constant, and
    /// whether the constant comes first (`1 < x`).
    fn constant_compared(&self, lhs: ExprId, rhs: ExprId) -> Option<(ExprId, Compared, bool)> {
        match (self.comparable_constant(lhs), self.comparable_constant(rhs)) {
            (_, Some(k)) => Some((lhs, k, false)),
            (Some(k), None) => Some((rhs, k, true)),
            (None, None) => None,
        }
    }

    /// Branches on `v op k`. Both `x == k` and the pattern `x is k` (`is not
    /// k`, `is > k`, a `case k:`) come here, so that a guard means the same
    /// whichever way it is spelled.
    fn constant_test(
        &mut self,
        v: VarId,
        op: BinaryOp,
        k: Compared,
        t: NodeId,
        f: NodeId,
        range: TextRange,
    ) {
        let (when_equal, when_unequal) = if op == BinaryOp::Eq { (t, f) } else { (f, t) };
        match k {
            Compared::Int(k) if let Some(&old) = self.increments.get(&v) => {
                self.increment_compared(old, op, k, t, f, range);
            }
            _ if !matches!(op, BinaryOp::Eq | BinaryOp::NotEq) => {
                self.branch(Cond::Opaque, t, f);
            }
            Compared::Null => self.branch(Cond::IsNull(v), when_equal, when_unequal),
            // `flag != 0` tests an integer flag as `flag` tests a `bool`
            // (`if (Interlocked.Exchange(ref _disposed, 1) != 0) return;`).
            Compared::Int(0) => self.branch(Cond::Bool(v), when_unequal, when_equal),
            // `flag == 1` is false while the flag is zero, whatever else it
            // may be (`if (Interlocked.Exchange(ref _disposed, 1) == 1)
            // return;`): the zero test first, then an opaque one.
            Compared::Int(_) => {
                let unknown = self.new_label(range);
                self.branch(Cond::Bool(v), unknown, when_unequal);
                self.cur = Some(unknown);
                self.branch(Cond::Opaque, t, f);
            }
        }
    }

    /// The value of an integer literal, or of a `const` of the program
    /// written as one (`const long Active = 0;`).
    pub(super) fn int_constant(&self, e: ExprId) -> Option<i64> {
        match self.hir.exprs.get(e.index())? {
            Expr::Literal(Literal::Int(k)) => Some(*k),
            Expr::Literal(_) => None,
            _ => match self.types.target(e)? {
                ExprTarget::Member(m) => match self.index.constant_value(*m)? {
                    Const::Int(k) => Some(k),
                    _ => None,
                },
                _ => None,
            },
        }
    }

    /// Whether `e` is a call of `Interlocked.Increment(ref location)`
    /// ([`rlc_core::program::ParamDef::incremented`]).
    fn is_increment(&self, e: ExprId) -> bool {
        let Some(ExprTarget::Member(m)) = self.types.target(e) else {
            return false;
        };
        matches!(self.hir.exprs.get(e.index()), Some(Expr::Call { .. }))
            && self
                .index
                .member(*m)
                .method
                .and_then(|d| self.index.program.get_method(d))
                .is_some_and(|d| d.params.iter().any(|p| p.incremented))
    }

    /// `Interlocked.Increment(ref location) op k`: where `location` held 0
    /// (its copy `old` tests false) the result is 1 and the comparison is
    /// decided; otherwise it is unknown (`if (Interlocked.Increment(ref
    /// _disposed) > 1) return;` passes on the first call).
    fn increment_compared(
        &mut self,
        old: VarId,
        op: BinaryOp,
        k: i64,
        t: NodeId,
        f: NodeId,
        range: TextRange,
    ) {
        let holds = match op {
            BinaryOp::Eq => 1 == k,
            BinaryOp::NotEq => 1 != k,
            BinaryOp::Lt => 1 < k,
            BinaryOp::Le => 1 <= k,
            BinaryOp::Gt => 1 > k,
            _ => 1 >= k,
        };
        let unknown = self.new_label(range);
        self.branch(Cond::Bool(old), unknown, if holds { t } else { f });
        self.cur = Some(unknown);
        self.branch(Cond::Opaque, t, f);
    }

    fn value_of(&mut self, e: ExprId) -> Operand {
        let saved = self.chain.take();
        let op = self.expr_value(e);
        self.chain = saved;
        op
    }

    fn value_var(&mut self, e: ExprId) -> VarId {
        let op = self.value_of(e);
        self.operand_var(op, e)
    }

    /// Matches `v` against a pattern: control goes to `matched` (with the pattern's
    /// variables assigned) or `failed`.
    pub(super) fn pattern(&mut self, p: PatId, v: VarId, matched: NodeId, failed: NodeId) {
        let range = self.hir.pat_range(p);
        let Some(pat) = self.hir.pats.get(p.index()).cloned() else {
            self.branch(Cond::Opaque, matched, failed);
            return;
        };
        match pat {
            Pat::Discard | Pat::Slice(None) => self.jump_to(matched),
            Pat::Var(bindings) => {
                if let [Some(b)] = bindings.as_ref() {
                    let x = self.declare(*b);
                    self.emit(
                        IrStmt::Copy {
                            dst: x,
                            src: Operand::Var(v),
                        },
                        range,
                    );
                } else {
                    for b in bindings.iter().flatten() {
                        let x = self.declare(*b);
                        self.emit(
                            IrStmt::Opaque {
                                dst: x,
                                owning: false,
                            },
                            range,
                        );
                    }
                }
                self.jump_to(matched);
            }
            Pat::Declaration { ty: _, binding } => {
                self.not_null_then(v, failed, range, |l| {
                    let bind = l.new_label(range);
                    l.type_test(p, v, bind, failed);
                    l.cur = Some(bind);
                    if let Some(b) = binding {
                        let x = l.declare(b);
                        l.emit(
                            IrStmt::Copy {
                                dst: x,
                                src: Operand::Var(v),
                            },
                            range,
                        );
                    }
                    l.jump_to(matched);
                });
            }
            Pat::Type(_) => {
                self.not_null_then(v, failed, range, |l| l.type_test(p, v, matched, failed));
            }
            // `v is k` is `v == k`, `v is < k` is `v < k`.
            Pat::Constant(e) => match self.comparable_constant(e) {
                Some(k) => self.constant_test(v, BinaryOp::Eq, k, matched, failed, range),
                None => {
                    self.value_of(e);
                    self.branch(Cond::Opaque, matched, failed);
                }
            },
            Pat::Relational { op, value } => match self.comparable_constant(value) {
                Some(k @ Compared::Int(_)) => {
                    let op = match op {
                        RelOp::Lt => BinaryOp::Lt,
                        RelOp::Le => BinaryOp::Le,
                        RelOp::Gt => BinaryOp::Gt,
                        RelOp::Ge => BinaryOp::Ge,
                    };
                    self.constant_test(v, op, k, matched, failed, range);
                }
                _ => {
                    self.value_of(value);
                    self.branch(Cond::Opaque, matched, failed);
                }
            },
            Pat::Not(inner) => self.pattern(inner, v, failed, matched),
            Pat::And(a, b) => {
                let mid = self.new_label(range);
                self.pattern(a, v, mid, failed);
                self.cur = Some(mid);
                self.pattern(b, v, matched, failed);
            }
            Pat::Or(a, b) => {
                let mid = self.new_label(range);
                self.pattern(a, v, matched, mid);
                self.cur = Some(mid);
                self.pattern(b, v, matched, failed);
            }
            Pat::Recursive {
                ty,
                positional,
                properties,
                binding,
            } => {
                // `{ }`, `T { .. }`, `(a, b)`: all fail on null.
                self.not_null_then(v, failed, range, |l| {
                    let checked = l.new_label(range);
                    if ty.is_some() {
                        l.type_test(p, v, checked, failed);
                    } else {
                        l.jump_to(checked);
                    }
                    l.cur = Some(checked);
                    for sp in properties.iter().flat_map(|s| s.iter()) {
                        let value = l.read_path(v, &sp.path, range);
                        let next = l.new_label(range);
                        l.pattern(sp.pat, value, next, failed);
                        l.cur = Some(next);
                    }
                    for sp in positional.iter().flat_map(|s| s.iter()) {
                        let t = l.temp(&Ty::Unknown, range);
                        l.emit(
                            IrStmt::Opaque {
                                dst: t,
                                owning: false,
                            },
                            range,
                        );
                        let next = l.new_label(range);
                        l.pattern(sp.pat, t, next, failed);
                        l.cur = Some(next);
                    }
                    if let Some(b) = binding {
                        let x = l.declare(b);
                        l.emit(
                            IrStmt::Copy {
                                dst: x,
                                src: Operand::Var(v),
                            },
                            range,
                        );
                    }
                    l.jump_to(matched);
                });
            }
            Pat::List { items, binding } => {
                self.not_null_then(v, failed, range, |l| {
                    let shape = l.new_label(range);
                    l.branch(Cond::Opaque, shape, failed);
                    l.cur = Some(shape);
                    for it in items.iter() {
                        let t = l.temp(&Ty::Unknown, range);
                        l.emit(
                            IrStmt::Element {
                                dst: t,
                                collection: v,
                            },
                            range,
                        );
                        let next = l.new_label(range);
                        l.pattern(*it, t, next, failed);
                        l.cur = Some(next);
                    }
                    if let Some(b) = binding {
                        let x = l.declare(b);
                        l.emit(
                            IrStmt::Copy {
                                dst: x,
                                src: Operand::Var(v),
                            },
                            range,
                        );
                    }
                    l.jump_to(matched);
                });
            }
            Pat::Slice(Some(inner)) => self.pattern(inner, v, matched, failed),
            Pat::Missing => self.branch(Cond::Opaque, matched, failed),
        }
    }

    /// Branches to `failed` when `v` is null, else continues with `then`.
    fn not_null_then(
        &mut self,
        v: VarId,
        failed: NodeId,
        range: crate::hir::TextRange,
        then: impl FnOnce(&mut Self),
    ) {
        let go = self.new_label(range);
        self.branch(Cond::IsNull(v), failed, go);
        self.cur = Some(go);
        then(self);
    }

    /// A runtime type test; skipped when the static type already implies it.
    fn type_test(&mut self, p: PatId, v: VarId, ok: NodeId, fail: NodeId) {
        let static_ty = self.b.body().var(v).ty.ty;
        let implied = match (self.types.pat_types.get(&p).and_then(Ty::def), static_ty) {
            (Some(pattern), Some(st)) => self.index.is_subtype_def(st, pattern),
            _ => false,
        };
        if implied {
            self.jump_to(ok);
        } else {
            self.branch(Cond::Opaque, ok, fail);
        }
    }

    /// Reads `v.A.B` for an extended property pattern.
    fn read_path(
        &mut self,
        v: VarId,
        path: &[crate::hir::Name],
        range: crate::hir::TextRange,
    ) -> VarId {
        let mut cur = v;
        for name in path {
            let t = self.temp(&Ty::Unknown, range);
            self.emit(
                IrStmt::Load {
                    dst: t,
                    base: Some(cur),
                    field: FieldRef::Unknown(name.to_string()),
                },
                range,
            );
            cur = t;
        }
        cur
    }
}
