//! Statements.

use rlc_core::ir::{Cond, Operand, Stmt as IrStmt, Succ};

use super::{Cleanup, CleanupFrame, Handler, LoopFrame, Lowerer};
use crate::hir::{
    CatchClause, ForeachTarget, GotoTarget, LocalDecl, Stmt, StmtId, SwitchLabel, SwitchSection,
    TextRange, UsingMode, UsingResource,
};

/// An open protected region ([`Lowerer::enter_protected`]).
struct Region {
    handler_depth: usize,
    cleanup_depth: usize,
    exc_entry: rlc_core::ir::NodeId,
}

impl Lowerer<'_> {
    pub(super) fn stmt(&mut self, id: StmtId) {
        let Some(stmt) = self.hir.stmts.get(id.index()) else {
            return;
        };
        let range = self.hir.stmt_range(id);
        match stmt {
            Stmt::Missing | Stmt::Empty => {}
            Stmt::Broken(named) if !named.is_empty() => {
                let vars = named.iter().map(|&b| self.binding_var(b)).collect();
                self.emit(IrStmt::Escape(vars), range);
            }
            Stmt::Broken(_) => {}
            Stmt::Block(items) => {
                self.push_scope();
                self.stmt_list(items, range);
                self.pop_scope(range);
            }
            Stmt::Expr(e) => {
                self.expr_discard(*e);
                self.end_temps(range);
            }
            Stmt::Local { decls, using, .. } => {
                // A `using` declaration alone (not in a list) still needs its disposal;
                // `stmt_list` handles the usual case.
                self.local_decls(decls, range);
                if *using != UsingMode::None {
                    let vars: Vec<_> = decls.iter().map(|d| self.declare(d.binding)).collect();
                    for v in vars.into_iter().rev() {
                        self.dispose(v, *using == UsingMode::AwaitUsing, range);
                    }
                }
            }
            Stmt::If { cond, then, else_ } => {
                let t = self.new_label(range);
                let f = self.new_label(range);
                let join = self.new_label(range);
                self.cond(*cond, t, f);
                self.cur = Some(t);
                self.end_temps(range);
                self.stmt(*then);
                self.jump_to(join);
                self.cur = Some(f);
                self.end_temps(range);
                if let Some(e) = else_ {
                    self.stmt(*e);
                }
                self.place(join);
            }
            Stmt::While { cond, body } => {
                let head = self.new_label(range);
                let t = self.new_label(range);
                let exit = self.new_label(range);
                self.place(head);
                self.cond(*cond, t, exit);
                self.cur = Some(t);
                self.end_temps(range);
                self.loop_body(*body, Some(head), exit, range);
                self.jump_to(head);
                self.cur = Some(exit);
                self.end_temps(range);
            }
            Stmt::Do { body, cond } => {
                let head = self.new_label(range);
                let cont = self.new_label(range);
                let exit = self.new_label(range);
                self.place(head);
                self.loop_body(*body, Some(cont), exit, range);
                self.place(cont);
                self.cond(*cond, head, exit);
                self.cur = Some(exit);
                self.end_temps(range);
            }
            Stmt::For {
                init,
                cond,
                update,
                body,
            } => {
                self.push_scope();
                for s in init.iter() {
                    self.stmt(*s);
                }
                let head = self.new_label(range);
                let t = self.new_label(range);
                let cont = self.new_label(range);
                let exit = self.new_label(range);
                self.place(head);
                match cond {
                    Some(c) => self.cond(*c, t, exit),
                    None => self.jump_to(t),
                }
                self.cur = Some(t);
                self.end_temps(range);
                self.loop_body(*body, Some(cont), exit, range);
                self.place(cont);
                for u in update.iter() {
                    self.expr_discard(*u);
                }
                self.end_temps(range);
                self.jump_to(head);
                self.cur = Some(exit);
                self.end_temps(range);
                self.pop_scope(range);
            }
            Stmt::Foreach {
                target,
                collection,
                body,
                ..
            } => {
                let coll = self.expr_value(*collection);
                let coll_var = self.operand_var(coll, *collection);
                let head = self.new_label(range);
                let t = self.new_label(range);
                let exit = self.new_label(range);
                self.place(head);
                // `MoveNext()` decides; the enumerator itself is disposed by the loop.
                self.branch(Cond::Opaque, t, exit);
                self.cur = Some(t);
                self.push_scope();
                match target {
                    ForeachTarget::Binding(b) => {
                        let v = self.declare(*b);
                        let r = self.hir.binding(*b).range;
                        self.emit(
                            IrStmt::Element {
                                dst: v,
                                collection: coll_var,
                            },
                            r,
                        );
                    }
                    ForeachTarget::Deconstruct(e) => {
                        let elem = self.temp(&crate::index::Ty::Unknown, range);
                        self.emit(
                            IrStmt::Element {
                                dst: elem,
                                collection: coll_var,
                            },
                            range,
                        );
                        self.deconstruct(*e, super::expr::Deconstructed::Members(elem));
                    }
                }
                self.loop_body(*body, Some(head), exit, range);
                self.pop_scope(range);
                self.jump_to(head);
                self.cur = Some(exit);
                self.end_temps(range);
            }
            Stmt::Using {
                resource,
                body,
                is_await,
            } => {
                self.push_scope();
                let vars = match resource {
                    UsingResource::Decls(decls) => {
                        self.local_decls(decls, range);
                        let vars: Vec<_> = decls.iter().map(|d| self.declare(d.binding)).collect();
                        self.guards.extend(vars.iter().map(|v| (*v, None)));
                        vars
                    }
                    UsingResource::Expr(e) => {
                        let op = self.expr_value(*e);
                        let v = self.operand_var(op, *e);
                        // The temporary lives as long as the using.
                        self.temps.retain(|t| *t != v);
                        if let Some(s) = self.scopes.last_mut() {
                            s.vars.push(v);
                        }
                        vec![v]
                    }
                };
                self.end_temps(range);
                self.protected(
                    vars.iter()
                        .rev()
                        .map(|v| Cleanup::Dispose {
                            var: *v,
                            is_await: *is_await,
                            span: range,
                        })
                        .collect(),
                    false,
                    |l| l.stmt(*body),
                );
                self.pop_scope(range);
            }
            Stmt::Lock { expr, body } => {
                self.expr_discard(*expr);
                self.end_temps(range);
                self.stmt(*body);
            }
            Stmt::Fixed { decls, body } => {
                self.push_scope();
                self.local_decls(decls, range);
                self.stmt(*body);
                self.pop_scope(range);
            }
            Stmt::Try {
                body,
                catches,
                finally,
            } => self.try_stmt(*body, catches, *finally, range),
            Stmt::Switch {
                scrutinee,
                sections,
            } => self.switch_stmt(*scrutinee, sections, range),
            Stmt::Break => {
                if let Some(l) = self.loops.last().copied() {
                    self.leave(l.cleanup_depth, l.scope_depth, range);
                    self.jump_to(l.break_to);
                }
            }
            Stmt::Continue => {
                if let Some(l) = self
                    .loops
                    .iter()
                    .rev()
                    .find(|l| l.continue_to.is_some())
                    .copied()
                {
                    self.leave(l.cleanup_depth, l.scope_depth, range);
                    if let Some(c) = l.continue_to {
                        self.jump_to(c);
                    }
                }
            }
            Stmt::Goto(target) => match target {
                GotoTarget::Label(name) => {
                    let label = self.label(name.clone(), range);
                    self.jump_to(label);
                }
                // `goto case`/`goto default` stay inside the switch: its sections are
                // all reachable from the dispatch already.
                GotoTarget::Case(e) => {
                    self.expr_discard(*e);
                    self.end_temps(range);
                    self.cur = None;
                }
                GotoTarget::Default => self.cur = None,
            },
            Stmt::Labeled { label, stmt } => {
                let l = self.label(label.clone(), range);
                self.place(l);
                self.stmt(*stmt);
            }
            Stmt::Return(e) => {
                let value = e.map(|e| self.expr_value(e));
                // The returned temporary escapes through the return, not at its end.
                if let Some(Operand::Var(v)) = &value {
                    self.temps.retain(|t| t != v);
                }
                self.end_temps(range);
                self.leave(0, self.scopes.len(), range);
                self.emit(IrStmt::Return(value), range);
                let exit = self.b.exit();
                self.jump_to(exit);
            }
            Stmt::Throw(e) => {
                let v = e.map(|e| {
                    let op = self.expr_value(e);
                    self.operand_var(op, e)
                });
                self.end_temps(range);
                let n = self.emit(IrStmt::Throw(v), range);
                let mut exc = self.exc_edge();
                exc.explicit = true;
                self.b.set_exc(n, Some(exc));
                self.cur = None;
            }
            Stmt::YieldReturn(e) => {
                let v = self.expr_value(*e);
                if let Operand::Var(v) = &v {
                    self.temps.retain(|t| t != v);
                }
                self.emit(IrStmt::Yield(v), range);
                self.end_temps(range);
            }
            Stmt::YieldBreak => {
                self.leave(0, self.scopes.len(), range);
                let exit = self.b.exit();
                self.jump_to(exit);
            }
            Stmt::LocalFunction(f) => {
                let f = f.clone();
                if let Some(b) = f.binding {
                    self.own.insert(b);
                }
                self.function(&f, rlc_core::ir::BodyKind::LocalFunction, None);
            }
        }
    }

    /// The statements of a block; a `using` declaration protects the rest of it.
    /// The regions nest once per declaration, so they are opened in a loop and
    /// closed in reverse, not by recursion.
    fn stmt_list(&mut self, items: &[StmtId], range: TextRange) {
        let mut regions = Vec::new();
        for s in items {
            if let Some(Stmt::Local {
                decls,
                using: mode @ (UsingMode::Using | UsingMode::AwaitUsing),
                ..
            }) = self.hir.stmts.get(s.index())
            {
                let srange = self.hir.stmt_range(*s);
                self.local_decls(decls, srange);
                let vars: Vec<_> = decls.iter().map(|d| self.declare(d.binding)).collect();
                self.guards.extend(vars.iter().map(|v| (*v, None)));
                self.end_temps(srange);
                let is_await = *mode == UsingMode::AwaitUsing;
                // Disposed where the enclosing block ends.
                let end = TextRange::new(range.end.saturating_sub(1), range.end);
                regions.push(
                    self.enter_protected(
                        vars.iter()
                            .rev()
                            .map(|v| Cleanup::Dispose {
                                var: *v,
                                is_await,
                                span: end,
                            })
                            .collect(),
                        false,
                    ),
                );
                continue;
            }
            self.stmt(*s);
        }
        for region in regions.into_iter().rev() {
            self.leave_protected(region);
        }
    }

    pub(super) fn local_decls(&mut self, decls: &[LocalDecl], range: TextRange) {
        for d in decls {
            let v = self.declare(d.binding);
            if let Some(init) = d.init {
                let value = self.expr_value(init);
                let r = self.hir.binding(d.binding).range.start;
                let at = TextRange::new(r, self.hir.expr_range(init).end);
                self.emit(IrStmt::Copy { dst: v, src: value }, at);
            }
        }
        self.end_temps(range);
    }

    /// A loop body: `break` goes to `exit`, `continue` to `cont`.
    fn loop_body(
        &mut self,
        body: StmtId,
        cont: Option<rlc_core::ir::NodeId>,
        exit: rlc_core::ir::NodeId,
        range: TextRange,
    ) {
        self.loops.push(LoopFrame {
            break_to: exit,
            continue_to: cont,
            cleanup_depth: self.cleanups.len(),
            scope_depth: self.scopes.len(),
        });
        self.push_scope();
        self.stmt(body);
        self.pop_scope(range);
        self.loops.pop();
    }

    /// Before jumping out: end the scopes above `scope_depth` and run the cleanups
    /// above `cleanup_depth`.
    fn leave(&mut self, cleanup_depth: usize, scope_depth: usize, range: TextRange) {
        if self.cur.is_none() {
            return;
        }
        self.run_cleanups(cleanup_depth);
        let vars = self.vars_above(scope_depth);
        if !vars.is_empty() && self.cur.is_some() {
            self.emit(IrStmt::ScopeEnd(vars), range);
        }
    }

    fn label(&mut self, name: crate::hir::Name, range: TextRange) -> rlc_core::ir::NodeId {
        if let Some(&l) = self.labels.get(&name) {
            return l;
        }
        let l = self.new_label(range);
        self.labels.insert(name, l);
        l
    }

    /// Lowers `body` as a protected region whose `cleanups` run on every way out:
    /// falling through, jumps and returns (through `leave`), and exceptions.
    pub(super) fn protected(
        &mut self,
        cleanups: Vec<Cleanup>,
        explicit: bool,
        body: impl FnOnce(&mut Self),
    ) {
        let region = self.enter_protected(cleanups, explicit);
        body(self);
        self.leave_protected(region);
    }

    /// Opens a protected region: what follows, up to [`Self::leave_protected`],
    /// runs `cleanups` on every way out.
    fn enter_protected(&mut self, cleanups: Vec<Cleanup>, explicit: bool) -> Region {
        let handler_depth = self.handlers.len();
        let cleanup_depth = self.cleanups.len();
        let exc_entry = self.new_label(TextRange::default());
        let explicit = explicit || self.handlers.last().is_some_and(|h| h.explicit);
        for c in &cleanups {
            self.cleanups.push(CleanupFrame {
                cleanup: c.clone(),
                handler_depth,
            });
        }
        self.handlers.push(Handler {
            target: exc_entry,
            explicit,
        });
        Region {
            handler_depth,
            cleanup_depth,
            exc_entry,
        }
    }

    fn leave_protected(&mut self, region: Region) {
        let Region {
            handler_depth,
            cleanup_depth,
            exc_entry,
        } = region;
        self.handlers.truncate(handler_depth);
        // Normal way out.
        for i in (cleanup_depth..self.cleanups.len()).rev() {
            self.run_cleanup(i);
        }
        let after = self.cur;
        // Exceptional way out: run the cleanups, then rethrow to the outer handler.
        self.cur = Some(exc_entry);
        for i in (cleanup_depth..self.cleanups.len()).rev() {
            self.run_cleanup(i);
        }
        self.cleanups.truncate(cleanup_depth);
        if self.cur.is_some() {
            let range = TextRange::default();
            let n = self.emit(IrStmt::Throw(None), range);
            let exc = self.exc_edge();
            self.b.set_exc(n, Some(exc));
        }
        self.cur = after;
    }

    fn try_stmt(
        &mut self,
        body: StmtId,
        catches: &[CatchClause],
        finally: Option<StmtId>,
        range: TextRange,
    ) {
        let catches = catches.to_vec();
        let Some(finally) = finally else {
            // Without a finally, an exception thrown in a catch leaves the statement:
            // the catches are not inside a region that expects it.
            self.try_catch(body, &catches, range);
            return;
        };
        self.protected(vec![Cleanup::Finally(finally)], true, |l| {
            if catches.is_empty() {
                l.stmt(body);
            } else {
                l.try_catch(body, &catches, range);
            }
        });
    }

    /// `try { body } catch ...`: a throwing statement of the body goes to a dispatch
    /// that may enter each catch or leave the statement.
    fn try_catch(&mut self, body: StmtId, catches: &[CatchClause], range: TextRange) {
        let after = self.new_label(range);
        let dispatch = self.new_label(range);
        self.handlers.push(Handler {
            target: dispatch,
            explicit: true,
        });
        self.stmt(body);
        self.handlers.pop();
        self.jump_to(after);
        // From the dispatch, each catch may take the exception, or none does.
        // A clause whose type catches everything sees every exception; when it
        // has a filter, the filter's `false` edge is where the exception leaves
        // (with what the filter tested known: `when (fs != null)`).
        let mut targets = Vec::new();
        let catch_all = catches.iter().any(|c| catches_everything(c.ty.as_ref()));
        let bodies: Vec<_> = catches
            .iter()
            .map(|c| {
                let entry = self.new_label(c.range);
                targets.push(entry);
                (entry, c.clone())
            })
            .collect();
        if !catch_all {
            let rethrow = self.new_label(range);
            targets.push(rethrow);
            self.cur = Some(rethrow);
            let n = self.emit(IrStmt::Throw(None), range);
            let exc = self.exc_edge();
            self.b.set_exc(n, Some(exc));
        }
        self.b.set_succ(dispatch, Succ::Multi(targets));
        for (entry, c) in bodies {
            self.cur = Some(entry);
            self.push_scope();
            if let Some(b) = c.binding {
                let v = self.declare(b);
                self.emit(
                    IrStmt::Opaque {
                        dst: v,
                        owning: false,
                    },
                    c.range,
                );
            }
            if let Some(f) = c.filter {
                let pass = self.new_label(c.range);
                let fail = self.new_label(c.range);
                self.cond(f, pass, fail);
                self.cur = Some(fail);
                self.end_temps(c.range);
                let n = self.emit(IrStmt::Throw(None), c.range);
                let exc = self.exc_edge();
                self.b.set_exc(n, Some(exc));
                self.cur = Some(pass);
                self.end_temps(c.range);
            }
            self.stmt(c.body);
            self.pop_scope(c.range);
            self.jump_to(after);
        }
        self.cur = Some(after);
    }

    fn switch_stmt(
        &mut self,
        scrutinee: crate::hir::ExprId,
        sections: &[SwitchSection],
        range: TextRange,
    ) {
        let value = self.expr_value(scrutinee);
        let v = self.operand_var(value, scrutinee);
        let exit = self.new_label(range);
        let entries: Vec<_> = sections.iter().map(|_| self.new_label(range)).collect();
        let mut default = None;
        // Sections are tested in order; a failing test falls to the next label.
        self.push_scope();
        for (i, s) in sections.iter().enumerate() {
            for label in s.labels.iter() {
                match label {
                    SwitchLabel::Default => default = Some(entries[i]),
                    SwitchLabel::Case { pat, guard } => {
                        let next = self.new_label(range);
                        let matched = self.new_label(range);
                        self.pattern(*pat, v, matched, next);
                        self.cur = Some(matched);
                        if let Some(g) = guard {
                            let pass = self.new_label(range);
                            self.cond(*g, pass, next);
                            self.cur = Some(pass);
                        }
                        self.jump_to(entries[i]);
                        self.cur = Some(next);
                    }
                }
            }
        }
        self.jump_to(default.unwrap_or(exit));
        self.loops.push(LoopFrame {
            break_to: exit,
            continue_to: None,
            cleanup_depth: self.cleanups.len(),
            scope_depth: self.scopes.len(),
        });
        for (i, s) in sections.iter().enumerate() {
            self.cur = Some(entries[i]);
            for st in s.body.iter() {
                self.stmt(*st);
            }
            self.jump_to(exit);
        }
        self.loops.pop();
        self.cur = Some(exit);
        self.end_temps(range);
        self.pop_scope(range);
    }
}

/// `catch`, `catch (Exception)` and `catch (System.Exception)` take every exception.
fn catches_everything(ty: Option<&crate::hir::TypeRef>) -> bool {
    match ty {
        None => true,
        Some(crate::hir::TypeRef::Path { segments, .. }) => {
            let names: Vec<&str> = segments.iter().map(|s| s.name.as_str()).collect();
            matches!(names.as_slice(), ["Exception"] | ["System", "Exception"])
        }
        Some(_) => false,
    }
}
