//! Acyclicity constraints (aspif `#edge` statements, clasp's acyclicity checker): the edges
//! whose conditions hold in an answer set form no cycle. A check on each total assignment: a
//! cycle among the edges that hold is excluded by a nogood of their conditions, and the search
//! goes on; every model printed is checked again by the verifier (`verify/`), through the same
//! [`cycle`].

use super::SolveError;
use super::search::{Candidate, CandidateCheck};
use crate::nogoods::Lit;
use crate::program::{Edge, Program, atom_of};
use crate::stop::StopToken;
use std::borrow::Borrow;
use std::collections::HashMap;

/// The edges of `edges` that hold in `atoms` (per atom, index 0 unused) and close a cycle, if
/// some do: their indices, in the cycle's order.
pub fn cycle<E: Borrow<Edge>>(edges: &[E], atoms: &[bool]) -> Option<Vec<usize>> {
    let holds = |e: &Edge| e.condition.iter().all(|&l| atoms.get(atom_of(l) as usize) == Some(&(l > 0)));
    let mut node: HashMap<i32, usize> = HashMap::new();
    let mut out: Vec<Vec<(usize, usize)>> = Vec::new();
    let mut id = |n: i32, out: &mut Vec<Vec<(usize, usize)>>| {
        let next = node.len();
        *node.entry(n).or_insert_with(|| {
            out.push(Vec::new());
            next
        })
    };
    for (i, e) in edges.iter().map(Borrow::borrow).enumerate().filter(|(_, e)| holds(e)) {
        let (u, v) = (id(e.u, &mut out), id(e.v, &mut out));
        out[u].push((v, i));
    }
    // Depth-first, iteratively: 0 unvisited, 1 on the path, 2 done.
    let mut state = vec![0u8; out.len()];
    for root in 0..out.len() {
        if state[root] != 0 {
            continue;
        }
        // (node, next outgoing edge to try, the edge that led here)
        let mut stack: Vec<(usize, usize, usize)> = vec![(root, 0, usize::MAX)];
        state[root] = 1;
        while let Some(&mut (n, ref mut k, _)) = stack.last_mut() {
            if let Some(&(m, e)) = out[n].get(*k) {
                *k += 1;
                match state[m] {
                    0 => {
                        state[m] = 1;
                        stack.push((m, 0, e));
                    }
                    1 => {
                        // The cycle: the path's edges from m on, then e.
                        let from = stack.iter().position(|s| s.0 == m).expect("m is on the path");
                        let mut c: Vec<usize> = stack[from + 1..].iter().map(|s| s.2).collect();
                        c.push(e);
                        return Some(c);
                    }
                    _ => {}
                }
            } else {
                state[n] = 2;
                stack.pop();
            }
        }
    }
    None
}

/// The acyclicity check of a program's search.
pub struct Acyclicity<'p> {
    edges: Vec<&'p Edge>,
}

impl<'p> Acyclicity<'p> {
    /// The program's check, `None` where it has no `#edge` statements.
    pub fn new(program: &'p Program) -> Option<Self> {
        let edges: Vec<&Edge> = program.edges().collect();
        (!edges.is_empty()).then_some(Acyclicity { edges })
    }
}

impl CandidateCheck for Acyclicity<'_> {
    fn check(&mut self, atoms: &[bool], _: &StopToken) -> Result<Candidate, SolveError> {
        Ok(match cycle(&self.edges, atoms) {
            None => Candidate::Accepted,
            Some(c) => {
                // Their conditions together may not hold; a cycle of unconditional edges leaves
                // no answer set (the nogood of the constant true).
                let mut ng: Vec<Lit> = c
                    .iter()
                    .flat_map(|&i| self.edges[i].condition.iter().map(|&l| Lit::from_program(l)))
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

    fn edge(u: i32, v: i32, condition: &[i32]) -> Edge {
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
        let mut check = Acyclicity { edges };
        match check.check(&[false, true, true, false], &StopToken::never()).unwrap() {
            Candidate::Rejected(ng) => assert_eq!(ng, vec![vec![Lit::pos(1), Lit::pos(2), Lit::neg(3)]]),
            other => panic!("{other:?}"),
        }
        let self_loop = [edge(5, 5, &[])];
        let mut check = Acyclicity { edges: self_loop.iter().collect() };
        assert!(
            matches!(check.check(&[false], &StopToken::never()).unwrap(), Candidate::Rejected(ng) if ng == vec![vec![Lit::TRUE]])
        );
    }
}
