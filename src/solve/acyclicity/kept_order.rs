//! A topological order of the edges that hold, kept from one model of a search to the next
//! (Pearce and Kelly's dynamic topological sort), so that the verifier's acyclicity check costs
//! what changed between the models, not the whole graph.

use super::{EdgeGraph, Scratch};
use crate::solve::changes::differences;

/// A topological order of the edges that held at the last check (Pearce and Kelly's dynamic
/// topological sort). Invariant: every edge `e` with `held[e]` goes from a node to one of higher
/// `pos`, and `pos` is a permutation of the nodes' positions; `held[e]` is whether `e` holds in
/// `atoms`, the assignment last checked.
pub(super) struct Order {
    pos: Vec<u32>,
    held: Vec<bool>,
    atoms: Vec<bool>,
    /// The atoms that changed since the last check.
    changed: Vec<usize>,
    /// Search marks (a node is marked when its entry equals `epoch`), the two searches' nodes,
    /// their stack, the edges that started to hold, and the positions being dealt out again.
    mark: Vec<u32>,
    epoch: u32,
    fwd: Vec<u32>,
    bwd: Vec<u32>,
    stack: Vec<u32>,
    added: Vec<u32>,
    slots: Vec<u32>,
}

impl EdgeGraph {
    /// [`cycle`](Self::cycle) for one of a sequence of assignments (a search's models), keeping
    /// a topological order of the edges that hold from one to the next: only the edges whose
    /// conditions name an atom that changed are looked at again; an edge that stops
    /// holding costs nothing, one that starts to hold costs nothing where it goes forward in the
    /// order, and otherwise two searches over the stretch of the order between its ends, which
    /// find the cycle it closes or reorder that stretch. A cycle is then reported by
    /// [`cycle`](Self::cycle), and the next check starts afresh.
    pub fn cycle_kept(&self, atoms: &[bool], s: &mut Scratch) -> Option<Vec<usize>> {
        let (nodes, edges) = (self.nodes, self.ends.len());
        let fresh = s.order.as_ref().is_none_or(|o| o.atoms.len() != atoms.len());
        if fresh {
            s.order = None;
        }
        let o = s.order.get_or_insert_with(|| Order {
            pos: (0..nodes as u32).collect(),
            held: vec![false; edges],
            atoms: atoms.to_vec(),
            changed: Vec::new(),
            mark: vec![0; nodes],
            epoch: 0,
            fwd: Vec::new(),
            bwd: Vec::new(),
            stack: Vec::new(),
            added: Vec::new(),
            slots: Vec::new(),
        });
        // The edges that stopped holding go first, so that no search follows them.
        o.added.clear();
        let look = |o: &mut Order, e: u32| match (self.holds(e, atoms), o.held[e as usize]) {
            (false, _) => o.held[e as usize] = false,
            (true, false) => o.added.push(e),
            (true, true) => {}
        };
        if fresh {
            for e in 0..edges as u32 {
                look(o, e);
            }
        } else {
            o.changed.clear();
            differences(atoms, &o.atoms, &mut o.changed);
            for k in 0..o.changed.len() {
                let a = o.changed[k];
                o.atoms[a] = atoms[a];
                // Atoms after the last one a condition names are in none.
                let named = if a < self.by_atom.len() { self.by_atom.get(a) } else { &[] };
                for &e in named {
                    look(o, e);
                }
            }
            // An edge whose condition names two atoms that changed was looked at twice.
            o.added.sort_unstable();
            o.added.dedup();
        }
        let mut cyclic = false;
        for k in 0..o.added.len() {
            let e = o.added[k];
            let (u, v) = self.ends[e as usize];
            if o.pos[u as usize] > o.pos[v as usize] || u == v {
                cyclic = !self.insert(o, u, v);
                if cyclic {
                    break;
                }
            }
            o.held[e as usize] = true;
        }
        if cyclic {
            s.order = None;
            let c = self.cycle(atoms, s);
            debug_assert!(c.is_some(), "the kept order found a cycle the search does not");
            return c;
        }
        debug_assert!(
            self.ends.iter().zip(&o.held).all(|(&(u, v), &h)| !h || o.pos[u as usize] < o.pos[v as usize]),
            "every edge that holds goes forward in the kept order"
        );
        debug_assert!(
            (0..edges as u32).all(|e| o.held[e as usize] == self.holds(e, atoms)),
            "held as they hold"
        );
        debug_assert!(self.cycle(atoms, &mut Scratch::default()).is_none(), "a cycle the kept order missed");
        None
    }

    /// Makes room in `o` for edge `x -> y`, which goes backward (`y` before `x`): false if `y`
    /// reaches `x` (the edge closes a cycle). Otherwise the nodes `y` reaches before `x`'s
    /// position and those that reach `x` after `y`'s are dealt the positions they held, the
    /// latter first, each group in its order.
    fn insert(&self, o: &mut Order, x: u32, y: u32) -> bool {
        if x == y {
            return false;
        }
        if o.epoch == u32::MAX {
            o.mark.fill(0);
            o.epoch = 0;
        }
        o.epoch += 1;
        let (lo, hi) = (o.pos[y as usize], o.pos[x as usize]);
        let search = |o: &mut Order, from: u32, forward: bool| -> bool {
            let found = if forward { &mut o.fwd } else { &mut o.bwd };
            found.clear();
            o.stack.clear();
            o.stack.push(from);
            o.mark[from as usize] = o.epoch;
            while let Some(n) = o.stack.pop() {
                found.push(n);
                let next = if forward { self.out.get(n as usize) } else { self.inc.get(n as usize) };
                for &(m, e) in next {
                    if !o.held[e as usize] || o.mark[m as usize] == o.epoch {
                        continue;
                    }
                    if forward && m == x {
                        return false;
                    }
                    let p = o.pos[m as usize];
                    if (forward && p < hi) || (!forward && p > lo) {
                        o.mark[m as usize] = o.epoch;
                        o.stack.push(m);
                    }
                }
            }
            true
        };
        if !search(o, y, true) {
            return false;
        }
        search(o, x, false);
        let Order { pos, fwd, bwd, slots, .. } = o;
        fwd.sort_unstable_by_key(|&n| pos[n as usize]);
        bwd.sort_unstable_by_key(|&n| pos[n as usize]);
        slots.clear();
        slots.extend(bwd.iter().chain(fwd.iter()).map(|&n| pos[n as usize]));
        slots.sort_unstable();
        for (&n, &p) in bwd.iter().chain(fwd.iter()).zip(slots.iter()) {
            pos[n as usize] = p;
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::edge;
    use super::super::{EdgeGraph, Scratch};
    use crate::program::Edge;

    /// The kept order agrees with the search from scratch along sequences of assignments that
    /// change one atom, a few, or all at a time, on random graphs with parallel edges and loops
    /// (and, in debug builds, keeps each edge's state as it holds).
    #[test]
    fn the_kept_order_finds_the_cycles_the_search_finds() {
        let mut seed = 7u64;
        let mut next = |n: u64| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        let (mut cyclic, mut checks) = (0, 0);
        for _ in 0..40 {
            let nodes = 2 + next(7) as i32;
            let count = 1 + next(16) as usize;
            // Most conditions are their own atom; one in three also needs another atom false.
            let e: Vec<Edge> = (0..count)
                .map(|i| {
                    let (u, v) = (next(nodes as u64) as i32, next(nodes as u64) as i32);
                    match next(3) {
                        0 => edge(u, v, &[i as i32 + 1, -(1 + next(count as u64) as i32)]),
                        _ => edge(u, v, &[i as i32 + 1]),
                    }
                })
                .collect();
            let g = EdgeGraph::new(&e);
            let mut kept = Scratch::default();
            let mut atoms = vec![false; count + 1];
            for step in 0..300 {
                let flips = if step % 10 == 0 { count } else { 1 + next(2) as usize };
                for _ in 0..flips {
                    let a = 1 + next(count as u64) as usize;
                    atoms[a] = !atoms[a];
                }
                let fresh = g.cycle(&atoms, &mut Scratch::default());
                assert_eq!(g.cycle_kept(&atoms, &mut kept).is_some(), fresh.is_some(), "{e:?} {atoms:?}");
                cyclic += usize::from(fresh.is_some());
                checks += 1;
            }
        }
        assert!(cyclic > checks / 10 && cyclic < checks * 9 / 10, "{cyclic} cyclic of {checks}");
    }
}
