//! Acyclicity constraints (`#edge`) propagated during the search, as clasp's acyclicity checker
//! does: an edge that becomes true is checked at the next unit fixpoint by a depth-first search
//! over the true edges from its head. Reaching its tail closes a cycle: the edge and the path are
//! a conflict. Otherwise a backward search from its tail finds the edges that would close one
//! (from a node the head reaches to a node that reaches the tail) and makes them false, clasp's
//! backward inference (`--acyc-prop=1`), with the two paths and the edge as the reason.
//!
//! The graph is static (every edge of the program); an edge *holds* while its literal is true, so
//! backtracking needs no undo beyond dropping the edges not yet checked.
//!
//! Invariant (at every fixpoint the engine reports): the edges that hold form no cycle, and no
//! edge left unassigned would close one with them.

use crate::engine::assignment::{Assignment, Reason};
use crate::nogoods::{Csr, Lit, Problem};

pub struct Acyclic {
    /// Per node: its outgoing edges (head, literal) and its incoming ones (tail, literal).
    out: Csr<(u32, Lit)>,
    inc: Csr<(u32, Lit)>,
    /// Per literal index: the edges (tail, head) that hold while it is true.
    by_lit: Csr<(u32, u32)>,
    /// Edges made true since the last fixpoint, not yet checked.
    todo: Vec<(u32, u32, Lit)>,
    /// Search marks: a node is visited by the current forward search when its tag equals the
    /// search's, and by the backward search when it equals the next.
    tags: Vec<u32>,
    tag: u32,
    /// The edge by which a search reached each node: the node it came from (towards the head
    /// forward, towards the tail backward) and its literal.
    parent: Vec<(u32, Lit)>,
    stack: Vec<u32>,
    /// Whether edges that would close a cycle are made false (`--acyc-prop=1`).
    infer: bool,
}

impl Acyclic {
    /// The propagator of the problem's edges, `None` where it has none; `backward`: with
    /// clasp's backward inference.
    pub fn new(p: &Problem, backward: bool) -> Option<Self> {
        if p.edges.is_empty() {
            return None;
        }
        let n = p.graph_nodes as usize;
        let nl = 2 * p.num_vars as usize;
        let out = Csr::from_pairs(n, p.edges.iter().map(|e| (e.tail as usize, (e.head, e.lit))));
        let inc = Csr::from_pairs(n, p.edges.iter().map(|e| (e.head as usize, (e.tail, e.lit))));
        let by_lit = Csr::from_pairs(nl, p.edges.iter().map(|e| (e.lit.index(), (e.tail, e.head))));
        Some(Acyclic {
            out,
            inc,
            by_lit,
            todo: Vec::new(),
            tags: vec![0; n],
            tag: 0,
            parent: vec![(0, Lit::TRUE); n],
            stack: Vec::new(),
            infer: backward,
        })
    }

    /// Whether `l` is the literal of some edge.
    pub fn has_edges(&self, l: Lit) -> bool {
        !self.by_lit.get(l.index()).is_empty()
    }

    /// `l` became true: its edges are checked at the next fixpoint.
    pub fn on_true(&mut self, l: Lit) {
        self.todo.extend(self.by_lit.get(l.index()).iter().map(|&(t, h)| (t, h, l)));
    }

    pub fn needs_check(&self) -> bool {
        !self.todo.is_empty()
    }

    /// Backtracking: the edges not yet checked may no longer hold; those that still do were
    /// checked at an earlier fixpoint.
    pub fn backtrack(&mut self) {
        self.todo.clear();
    }

    /// Checks the edges made true: `Err` with a violated nogood (a cycle of true edges), or the
    /// edges that would close one made false (appended to `assigned`; their reasons go to
    /// `reasons`, as loop reasons do, with the level they were made at).
    pub fn check(
        &mut self,
        a: &mut Assignment,
        reasons: &mut Vec<(u32, Vec<Lit>)>,
        assigned: &mut Vec<Lit>,
    ) -> Result<(), Vec<Lit>> {
        while let Some((tail, head, l)) = self.todo.pop() {
            debug_assert!(a.is_true(l), "an edge to check holds");
            if tail == head {
                self.todo.clear();
                return Err(vec![l]);
            }
            let fwd = self.next_tag();
            let Some(open) = self.forward(a, head, tail, fwd) else {
                let mut ng = vec![l];
                self.path(tail, head, &mut ng);
                // Edges of the cycle may share a condition.
                ng.sort_unstable();
                ng.dedup();
                self.todo.clear();
                return Err(ng);
            };
            if self.infer && open > 0 {
                self.backward(a, (tail, head, l), fwd, open, reasons, assigned);
            }
        }
        Ok(())
    }

    /// The forward search's tag; the backward search's is the next one.
    fn next_tag(&mut self) -> u32 {
        if self.tag >= u32::MAX - 3 {
            self.tags.fill(0);
            self.tag = 0;
        }
        self.tag += 2;
        self.tag - 1
    }

    /// Visits the nodes that `from` reaches by true edges, tagging them with `tag` and recording
    /// their parents: `None` if `to` is one of them, else the number of unassigned edges out of
    /// the nodes visited (only those can close a cycle through the edge being checked).
    fn forward(&mut self, a: &Assignment, from: u32, to: u32, tag: u32) -> Option<usize> {
        self.stack.clear();
        self.stack.push(from);
        self.tags[from as usize] = tag;
        let mut open = 0;
        while let Some(n) = self.stack.pop() {
            for &(m, l) in self.out.get(n as usize) {
                if !a.is_true(l) {
                    open += usize::from(!a.is_false(l));
                    continue;
                }
                if self.tags[m as usize] == tag {
                    continue;
                }
                self.tags[m as usize] = tag;
                self.parent[m as usize] = (n, l);
                if m == to {
                    return None;
                }
                self.stack.push(m);
            }
        }
        Some(open)
    }

    /// The literals of the path by which a search reached `n` from `root`.
    fn path(&self, mut n: u32, root: u32, out: &mut Vec<Lit>) {
        while n != root {
            let (from, l) = self.parent[n as usize];
            out.push(l);
            n = from;
        }
    }

    /// After the forward search from the head of `edge` (marks `fwd`), which found `open`
    /// unassigned edges out of the nodes it visited: visits the nodes that reach its tail by true
    /// edges, and makes false each unassigned edge into one of them from a node the head reaches.
    /// No node is visited by both searches: it would put the tail on a path from the head, which
    /// the forward search found not to exist. Each edge is met at most once (at the node it
    /// enters), so the search ends once it has met all `open` edges.
    fn backward(
        &mut self,
        a: &mut Assignment,
        edge: (u32, u32, Lit),
        fwd: u32,
        mut open: usize,
        reasons: &mut Vec<(u32, Vec<Lit>)>,
        assigned: &mut Vec<Lit>,
    ) {
        let (tail, head, l) = edge;
        let bwd = fwd + 1;
        self.stack.clear();
        self.stack.push(tail);
        self.tags[tail as usize] = bwd;
        while let Some(n) = self.stack.pop() {
            for i in 0..self.inc.get(n as usize).len() {
                let (m, el) = self.inc.get(n as usize)[i];
                if a.is_false(el) || self.tags[m as usize] == bwd {
                    continue;
                }
                if self.tags[m as usize] == fwd {
                    // head reaches m, and n reaches tail: el would close a cycle through edge.
                    debug_assert!(!a.is_true(el), "a true edge would have closed a cycle forward");
                    let mut why = vec![l];
                    self.path(m, head, &mut why);
                    self.path(n, tail, &mut why);
                    why.sort_unstable();
                    why.dedup();
                    reasons.push((a.decision_level(), why));
                    a.assign(!el, Reason::Loop(reasons.len() as u32 - 1));
                    assigned.push(!el);
                    open -= 1;
                    if open == 0 {
                        return;
                    }
                } else if a.is_true(el) {
                    self.tags[m as usize] = bwd;
                    self.parent[m as usize] = (n, el);
                    self.stack.push(m);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::read_program;
    use crate::nogoods::complete;
    use crate::stop::StopToken;

    /// `{a;b;c;d}. #edge (1,2) : a. #edge (2,3) : b. #edge (3,1) : c. #edge (3,1) : a, d.`
    const TRIANGLE: &str = "asp 1 0 0\n1 1 4 1 2 3 4 0 0\n8 1 2 1 1\n8 2 3 1 2\n8 3 1 1 3\n\
        8 3 1 2 1 4\n4 1 a 1 1\n4 1 b 1 2\n4 1 c 1 3\n4 1 d 1 4\n0\n";

    fn setup(text: &str, infer: bool) -> (Problem, Acyclic, Assignment) {
        let p = complete(&read_program(text.as_bytes()).unwrap(), &StopToken::never(), 0).unwrap();
        let g = Acyclic::new(&p, infer).expect("edges");
        let mut a = Assignment::new(p.num_vars);
        a.assign(Lit::TRUE, Reason::Unit);
        (p, g, a)
    }

    fn decide(g: &mut Acyclic, a: &mut Assignment, l: Lit) {
        a.new_level();
        a.assign(l, Reason::Decision);
        if g.has_edges(l) {
            g.on_true(l);
        }
    }

    #[test]
    fn edges_that_would_close_a_cycle_are_made_false_with_their_reasons() {
        let (p, mut g, mut a) = setup(TRIANGLE, true);
        assert_eq!((p.edges.len(), p.graph_nodes), (4, 3));
        let (mut reasons, mut assigned) = (Vec::new(), Vec::new());
        decide(&mut g, &mut a, Lit::pos(1));
        assert_eq!(g.check(&mut a, &mut reasons, &mut assigned), Ok(()));
        assert!(assigned.is_empty(), "a alone closes nothing: {assigned:?}");
        decide(&mut g, &mut a, Lit::pos(2));
        assert_eq!(g.check(&mut a, &mut reasons, &mut assigned), Ok(()));
        // c's edge 3 -> 1 closes 1 -> 2 -> 3; so would the edge of a, d, whose condition (a body
        // of its own) is made false.
        let ad = p.edges[3].lit;
        assert!(ad.var() > 4, "a conjunction has a variable of its own: {ad:?}");
        assert_eq!(assigned, vec![Lit::neg(3), !ad]);
        let var = |l: Lit| l.var();
        for (l, want) in [(Lit::neg(3), vec![1, 2]), (!ad, vec![1, 2])] {
            let Reason::Loop(id) = a.reason[l.var() as usize] else { panic!("{l:?} has a loop reason") };
            let mut why: Vec<u32> = reasons[id as usize].1.iter().map(|&x| var(x)).collect();
            why.sort_unstable();
            assert_eq!(why, want, "the reason of {l:?}");
        }
    }

    /// `{a;b;c;d;e}. #edge (2,3) : a. #edge (2,4) : b. #edge (3,4) : c. #edge (4,1) : d.
    /// #edge (1,2) : e.` With a and b true, e's edge 1 -> 2 leaves two edges open out of what 2
    /// reaches: 4 -> 1 closes a cycle, 3 -> 4 stays inside the reach and closes none.
    const FAN: &str = "asp 1 0 0\n1 1 5 1 2 3 4 5 0 0\n8 2 3 1 1\n8 2 4 1 2\n8 3 4 1 3\n8 4 1 1 4\n\
        8 1 2 1 5\n4 1 a 1 1\n4 1 b 1 2\n4 1 c 1 3\n4 1 d 1 4\n4 1 e 1 5\n0\n";

    #[test]
    fn only_the_edges_that_would_close_a_cycle_are_made_false() {
        let (_, mut g, mut a) = setup(FAN, true);
        let (mut reasons, mut assigned) = (Vec::new(), Vec::new());
        for v in [1, 2, 5] {
            decide(&mut g, &mut a, Lit::pos(v));
            assert_eq!(g.check(&mut a, &mut reasons, &mut assigned), Ok(()));
        }
        assert_eq!(assigned, vec![Lit::neg(4)], "4 -> 1 closes 1 -> 2 -> 4; 3 -> 4 closes nothing");
        assert!(a.is_unassigned(3), "c stays open");
    }

    #[test]
    fn a_cycle_of_true_edges_is_a_conflict() {
        let (_, mut g, mut a) = setup(TRIANGLE, false);
        let (mut reasons, mut assigned) = (Vec::new(), Vec::new());
        // Without backward inference, c stays open after a and b; then c closes the cycle.
        for v in [1, 2] {
            decide(&mut g, &mut a, Lit::pos(v));
            assert_eq!(g.check(&mut a, &mut reasons, &mut assigned), Ok(()));
        }
        assert!(assigned.is_empty(), "{assigned:?}");
        decide(&mut g, &mut a, Lit::pos(3));
        let mut ng = g.check(&mut a, &mut reasons, &mut assigned).expect_err("a cycle");
        ng.sort_unstable();
        assert_eq!(ng, vec![Lit::pos(1), Lit::pos(2), Lit::pos(3)]);
        // All three edges true before any check: the first checked closes the cycle.
        a.backtrack(0, |_, _| {});
        g.backtrack();
        for v in [1, 2, 3] {
            decide(&mut g, &mut a, Lit::pos(v));
        }
        let mut ng = g.check(&mut a, &mut reasons, &mut assigned).expect_err("a cycle");
        ng.sort_unstable();
        assert_eq!(ng, vec![Lit::pos(1), Lit::pos(2), Lit::pos(3)]);
        assert!(!g.needs_check(), "the pending edges are dropped with the conflict");
    }
}
