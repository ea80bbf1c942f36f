//! Graph helpers over a body's CFG: reachability, dominance of the exit, and
//! natural loops.

use crate::ir::{Body, NodeId};

/// Nodes reachable from the entry over normal and exceptional edges.
pub fn reachable(body: &Body) -> Vec<bool> {
    reachable_cut(body, |_, _| false)
}

/// Nodes reachable from the entry when the edges `cut(from, to)` are removed.
pub fn reachable_cut(body: &Body, cut: impl Fn(NodeId, NodeId) -> bool) -> Vec<bool> {
    let mut seen = vec![false; body.nodes.len()];
    let mut stack = vec![body.entry];
    while let Some(n) = stack.pop() {
        if std::mem::replace(&mut seen[n.index()], true) {
            continue;
        }
        stack.extend(
            body.successors(n)
                .filter(|s| !seen[s.index()] && !cut(n, *s)),
        );
    }
    seen
}

/// Whether a path of one edge or more leads from `from` to `to` (normal and
/// exceptional edges) without passing through a node `avoid` accepts.
pub fn reaches(body: &Body, from: NodeId, to: NodeId, avoid: impl Fn(NodeId) -> bool) -> bool {
    let mut seen = vec![false; body.nodes.len()];
    let mut stack: Vec<NodeId> = body.successors(from).collect();
    while let Some(n) = stack.pop() {
        if n == to {
            return true;
        }
        if avoid(n) || std::mem::replace(&mut seen[n.index()], true) {
            continue;
        }
        stack.extend(body.successors(n).filter(|s| !seen[s.index()]));
    }
    false
}

/// Whether `node` is reachable from the entry when the edges `cut(from, to)`
/// are removed (normal and exceptional edges otherwise).
pub fn reachable_without(body: &Body, node: NodeId, cut: impl Fn(NodeId, NodeId) -> bool) -> bool {
    reachable_cut(body, cut)[node.index()]
}

/// Whether every normal path from the entry to the normal exit passes `node`
/// (it dominates the exit over normal edges).
pub fn on_every_path(body: &Body, node: NodeId) -> bool {
    let mut seen = vec![false; body.nodes.len()];
    let mut stack = vec![body.entry];
    while let Some(n) = stack.pop() {
        if n == node || std::mem::replace(&mut seen[n.index()], true) {
            continue;
        }
        if n == body.exit {
            return false;
        }
        stack.extend(body.node(n).succ.targets().filter(|s| !seen[s.index()]));
    }
    true
}

/// A natural loop: its header and every node of its body (header included).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loop {
    pub header: NodeId,
    pub nodes: Vec<NodeId>,
}

/// The natural loops of the normal-edge CFG, one per back edge found by a
/// depth-first search from the entry (loops sharing a header are kept apart).
pub fn natural_loops(body: &Body) -> Vec<Loop> {
    let n = body.nodes.len();
    let mut preds: Vec<Vec<NodeId>> = vec![Vec::new(); n];
    for (i, node) in body.nodes.iter().enumerate() {
        for t in node.succ.targets() {
            preds[t.index()].push(NodeId(i as u32));
        }
    }
    // Iterative DFS; an edge to a node still on the stack is a back edge.
    #[derive(Copy, Clone, PartialEq)]
    enum Mark {
        New,
        OnStack,
        Done,
    }
    let mut mark = vec![Mark::New; n];
    let mut back_edges: Vec<(NodeId, NodeId)> = Vec::new();
    let succs = |id: NodeId| -> Vec<NodeId> { body.node(id).succ.targets().collect() };
    let mut stack: Vec<(NodeId, Vec<NodeId>, usize)> = vec![(body.entry, succs(body.entry), 0)];
    mark[body.entry.index()] = Mark::OnStack;
    while let Some((node, targets, next)) = stack.last_mut() {
        if let Some(&t) = targets.get(*next) {
            *next += 1;
            match mark[t.index()] {
                Mark::New => {
                    mark[t.index()] = Mark::OnStack;
                    let ts = succs(t);
                    stack.push((t, ts, 0));
                }
                Mark::OnStack => back_edges.push((*node, t)),
                Mark::Done => {}
            }
        } else {
            mark[node.index()] = Mark::Done;
            stack.pop();
        }
    }
    back_edges
        .into_iter()
        .map(|(latch, header)| {
            let mut inside = vec![false; n];
            inside[header.index()] = true;
            let mut work = vec![latch];
            while let Some(x) = work.pop() {
                if std::mem::replace(&mut inside[x.index()], true) {
                    continue;
                }
                work.extend(
                    preds[x.index()]
                        .iter()
                        .copied()
                        .filter(|p| !inside[p.index()]),
                );
            }
            let nodes = (0..n)
                .filter(|&i| inside[i])
                .map(|i| NodeId(i as u32))
                .collect();
            Loop { header, nodes }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{BodyKind, Cond};
    use crate::testing::{Asm, Lib};

    #[test]
    fn nested_loops_are_found_with_their_bodies() {
        let lib = Lib::new();
        let mut a = Asm::new(&lib, "C.M", BodyKind::Method);
        let mut inner_head = None;
        let outer = a.loop_(Cond::Opaque, |a| {
            inner_head = Some(a.loop_(Cond::Opaque, |a| {
                a.nop();
            }));
        });
        let after = a.nop();
        let body = a.finish();
        let loops = natural_loops(&body);
        assert_eq!(loops.len(), 2);
        let inner = loops
            .iter()
            .find(|l| Some(l.header) == inner_head)
            .expect("inner loop");
        let outer_loop = loops
            .iter()
            .find(|l| l.header == outer)
            .expect("outer loop");
        assert!(inner.nodes.len() < outer_loop.nodes.len());
        assert!(inner.nodes.iter().all(|n| outer_loop.nodes.contains(n)));
        assert!(!outer_loop.nodes.contains(&after));
        assert!(reachable(&body)[after.index()]);
    }
}
