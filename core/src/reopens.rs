//! Parameters a method opens again: it calls a `[Reopens]` method on one
//! (`if (wasClosed) cnn.Open();`), or passes it to a method that does
//! (Dapper's `cnn.TryOpenAsync(..)`). Closing such a parameter afterwards
//! returns it to the state the method found it in; inference does not take
//! that close for ownership. A fact the code states, derived once from the
//! bodies.

use crate::facts::Definitions;
use crate::ir::{Bodies, Callee, Stmt};
use crate::program::{MethodId, Program};

/// Marks [`crate::program::ParamDef::reopened`] until nothing changes (a few
/// rounds reach helpers of helpers).
pub fn derive(program: &mut Program, bodies: &Bodies) {
    for _ in 0..4 {
        let mut found: Vec<(MethodId, u32)> = Vec::new();
        for body in bodies.iter() {
            let Some(m) = body.method else { continue };
            let mut defs: Option<Definitions> = None;
            for node in &body.nodes {
                let Stmt::Call(call) = &node.stmt else {
                    continue;
                };
                let Callee::Method(c) = call.callee else {
                    continue;
                };
                let Some(callee) = program.get_method(c) else {
                    continue;
                };
                let receiver = call.receiver.filter(|_| callee.reopens);
                let args = call.args.iter().filter_map(|a| {
                    let p = callee.params.get(a.param? as usize)?;
                    if p.reopened { a.value.var() } else { None }
                });
                for v in receiver.into_iter().chain(args) {
                    let defs = defs.get_or_insert_with(|| Definitions::of(body));
                    if let Some(i) = defs.unassigned_param(body, v)
                        && !program
                            .method(m)
                            .params
                            .get(i as usize)
                            .is_none_or(|p| p.reopened)
                        && !found.contains(&(m, i))
                    {
                        found.push((m, i));
                    }
                }
            }
        }
        if found.is_empty() {
            return;
        }
        for (m, i) in found {
            program.methods[m.index()].params[i as usize].reopened = true;
        }
    }
}
