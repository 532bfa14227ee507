//! Acyclicity constraints (aspif `#edge` statements, clasp's acyclicity checker): the edges
//! whose conditions hold in an answer set form no cycle. A check on each total assignment, for
//! the engines that do not propagate them (the CUDA engine; the CPU engine's `acyclic.rs` does): a
//! cycle among the edges that hold is excluded by a nogood of their conditions, and the search
//! goes on; every model printed is checked again by the verifier (`verify/`). Both check through
//! [`EdgeGraph::cycle_kept`], which keeps a topological order from one assignment to the next.

use super::SolveError;
use super::search::{Candidate, CandidateCheck};
use crate::nogoods::{Csr, Lit};
use crate::program::{Edge, Program, atom_of};
use crate::stop::StopToken;
use std::borrow::Borrow;
use std::collections::HashMap;

mod kept_order;
use kept_order::Order;

/// The edges of `edges` that hold in `atoms` (per atom, index 0 unused) and close a cycle, if
/// some do: their indices, in the cycle's order.
pub fn cycle<E: Borrow<Edge>>(edges: &[E], atoms: &[bool]) -> Option<Vec<usize>> {
    EdgeGraph::new(edges).cycle(atoms, &mut Scratch::default())
}

/// The graph of a program's `#edge` statements, its nodes numbered densely once and its edges
/// kept by their start node with their conditions in one array, so that a check of an assignment
/// is one depth-first search that tests each condition as it meets the edge, without hashing or
/// building anything.
pub struct EdgeGraph {
    /// Per node: its outgoing edges, as (end node, edge index), and its incoming ones, as
    /// (start node, edge index); per edge, its (start, end).
    out: Csr<(u32, u32)>,
    inc: Csr<(u32, u32)>,
    ends: Vec<(u32, u32)>,
    /// Per edge (CSR): its condition (program literals).
    cond_start: Vec<u32>,
    cond: Vec<i32>,
    /// Per edge: the atom its condition is, where that is one positive literal (most are:
    /// `#edge (X,Y) : arc(X,Y)`), so that a check reads one value; `u32::MAX` otherwise.
    single: Vec<u32>,
    /// Per atom: the edges whose conditions name it (what the kept order looks at again when the
    /// atom changes).
    by_atom: Csr<u32>,
    nodes: usize,
}

/// A check's working memory, kept from one check to the next where the checker can.
#[derive(Default)]
pub struct Scratch {
    /// Depth-first search: 0 unvisited, 1 on the path, 2 done; the path (node, the position of
    /// its next out-edge in its list, the edge that led there).
    state: Vec<u8>,
    stack: Vec<(u32, u32, u32)>,
    /// [`EdgeGraph::cycle_kept`]'s order; `None` before the first check and after a cycle.
    order: Option<Order>,
}

impl EdgeGraph {
    pub fn new<E: Borrow<Edge>>(edges: &[E]) -> EdgeGraph {
        let mut node: HashMap<i32, u32> = HashMap::new();
        let mut id = |n: i32| {
            let next = node.len() as u32;
            *node.entry(n).or_insert(next)
        };
        let ends: Vec<(u32, u32)> = edges.iter().map(|e| (id(e.borrow().u), id(e.borrow().v))).collect();
        let nodes = node.len();
        let by_node = |pick: fn((u32, u32)) -> (u32, u32)| {
            let pairs =
                ends.iter().enumerate().map(move |(i, &e)| (pick(e).0 as usize, (pick(e).1, i as u32)));
            Csr::from_pairs(nodes, pairs)
        };
        let out = by_node(|(u, v)| (u, v));
        let inc = by_node(|(u, v)| (v, u));
        let mut cond_start = vec![0u32];
        let mut cond = Vec::new();
        for e in edges {
            cond.extend_from_slice(&e.borrow().condition);
            cond_start.push(cond.len() as u32);
        }
        let single = (0..edges.len())
            .map(|i| match &cond[cond_start[i] as usize..cond_start[i + 1] as usize] {
                &[l] if l > 0 => l as u32,
                _ => u32::MAX,
            })
            .collect();
        let atoms = cond.iter().map(|&l| atom_of(l) as usize + 1).max().unwrap_or(0);
        let by_atom = Csr::from_pairs(
            atoms,
            (0..edges.len()).flat_map(|i| {
                cond[cond_start[i] as usize..cond_start[i + 1] as usize]
                    .iter()
                    .map(move |&l| (atom_of(l) as usize, i as u32))
            }),
        );
        EdgeGraph { out, inc, ends, cond_start, cond, single, by_atom, nodes }
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Edge `i`'s condition (program literals).
    fn condition(&self, i: usize) -> &[i32] {
        &self.cond[self.cond_start[i] as usize..self.cond_start[i + 1] as usize]
    }

    /// Whether edge `i` holds in `atoms`.
    #[inline]
    fn holds(&self, i: u32, atoms: &[bool]) -> bool {
        match self.single[i as usize] {
            u32::MAX => {
                self.condition(i as usize).iter().all(|&l| atoms.get(atom_of(l) as usize) == Some(&(l > 0)))
            }
            a => atoms.get(a as usize) == Some(&true),
        }
    }

    /// The edges that hold in `atoms` and close a cycle, if some do: their indices, in the
    /// cycle's order.
    pub fn cycle(&self, atoms: &[bool], s: &mut Scratch) -> Option<Vec<usize>> {
        let holds = |i: u32| self.holds(i, atoms);
        s.state.clear();
        s.state.resize(self.nodes, 0);
        for root in 0..self.nodes as u32 {
            if s.state[root as usize] != 0 {
                continue;
            }
            s.stack.clear();
            s.stack.push((root, 0, u32::MAX));
            s.state[root as usize] = 1;
            while let Some(&mut (n, ref mut k, _)) = s.stack.last_mut() {
                if let Some(&(m, e)) = self.out.get(n as usize).get(*k as usize) {
                    *k += 1;
                    if s.state[m as usize] == 2 || !holds(e) {
                        continue;
                    }
                    if s.state[m as usize] == 1 {
                        // The cycle: the path's edges from m on, then e.
                        let from = s.stack.iter().position(|x| x.0 == m).expect("m is on the path");
                        let mut c: Vec<usize> = s.stack[from + 1..].iter().map(|x| x.2 as usize).collect();
                        c.push(e as usize);
                        return Some(c);
                    }
                    s.state[m as usize] = 1;
                    s.stack.push((m, 0, e));
                } else {
                    s.state[n as usize] = 2;
                    s.stack.pop();
                }
            }
        }
        None
    }
}

/// The acyclicity check of a program's search.
pub struct Acyclicity {
    graph: EdgeGraph,
    scratch: Scratch,
}

impl Acyclicity {
    /// The program's check, `None` where it has no `#edge` statements.
    pub fn new(program: &Program) -> Option<Self> {
        let edges: Vec<&Edge> = program.edges().collect();
        let graph = EdgeGraph::new(&edges);
        (!graph.is_empty()).then_some(Acyclicity { graph, scratch: Scratch::default() })
    }
}

impl CandidateCheck for Acyclicity {
    fn check(&mut self, atoms: &[bool], _: &StopToken) -> Result<Candidate, SolveError> {
        Ok(match self.graph.cycle_kept(atoms, &mut self.scratch) {
            None => Candidate::Accepted,
            Some(c) => {
                // Their conditions together may not hold; a cycle of unconditional edges leaves
                // no answer set (the nogood of the constant true).
                let mut ng: Vec<Lit> = c
                    .iter()
                    .flat_map(|&i| self.graph.condition(i).iter().map(|&l| Lit::from_program(l)))
                    .collect();
                ng.sort_unstable();
                ng.dedup();
                if ng.is_empty() {
                    ng.push(Lit::TRUE);
                }
                Candidate::Rejected(vec![ng])
            }
        })
    }
}

/// Several checks, each in turn: the first that rejects (or is stopped) decides.
pub struct AllOf<'e>(pub Vec<Box<dyn CandidateCheck + 'e>>);

impl CandidateCheck for AllOf<'_> {
    fn check(&mut self, atoms: &[bool], stop: &StopToken) -> Result<Candidate, SolveError> {
        for c in &mut self.0 {
            match c.check(atoms, stop)? {
                Candidate::Accepted => {}
                other => return Ok(other),
            }
        }
        Ok(Candidate::Accepted)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(super) fn edge(u: i32, v: i32, condition: &[i32]) -> Edge {
        Edge { u, v, condition: condition.to_vec() }
    }

    #[test]
    fn cycles_among_the_edges_that_hold() {
        let e = [edge(1, 2, &[1]), edge(2, 3, &[2]), edge(3, 1, &[-3]), edge(3, 4, &[])];
        let edges: Vec<&Edge> = e.iter().collect();
        // atoms 1, 2 true, 3 false: 1 -> 2 -> 3 -> 1.
        let c = cycle(&edges, &[false, true, true, false]).expect("a cycle");
        let mut sorted = c.clone();
        sorted.sort();
        assert_eq!(sorted, vec![0, 1, 2]);
        assert_eq!(cycle(&edges, &[false, true, true, true]), None, "3 -> 1 does not hold");
        assert_eq!(cycle(&edges, &[false, false, true, false]), None);
        let mut check = Acyclicity { graph: EdgeGraph::new(&edges), scratch: Scratch::default() };
        match check.check(&[false, true, true, false], &StopToken::never()).unwrap() {
            Candidate::Rejected(ng) => assert_eq!(ng, vec![vec![Lit::pos(1), Lit::pos(2), Lit::neg(3)]]),
            other => panic!("{other:?}"),
        }
        let self_loop = [edge(5, 5, &[])];
        let edges: Vec<&Edge> = self_loop.iter().collect();
        let mut check = Acyclicity { graph: EdgeGraph::new(&edges), scratch: Scratch::default() };
        assert!(
            matches!(check.check(&[false], &StopToken::never()).unwrap(), Candidate::Rejected(ng) if ng == vec![vec![Lit::TRUE]])
        );
    }
}
