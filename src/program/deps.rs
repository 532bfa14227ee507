//! The positive dependency graph: strongly connected components, tightness, head-cycle freedom.
//!
//! Atom `h` depends on `p` when `p` occurs positively in the body (normal or weight) of a rule
//! with `h` in its head. An atom is *cyclic* when it lies in a non-trivial component (two or more
//! atoms, or a self-loop); a program without cyclic atoms is tight, and the completion alone
//! characterises its answer sets. A disjunctive rule with two head atoms in one component is a
//! head cycle; programs without one can be shifted to normal programs.

use super::{Atom, Program, atom_of};
use crate::stop::{Interrupted, StopToken};

pub const NO_SCC: u32 = u32::MAX;

pub struct Dependencies {
    /// For atom `a` (index `a`, index 0 unused): its component id, or [`NO_SCC`] if not cyclic.
    pub scc: Vec<u32>,
    pub components: u32,
    /// Components that contain two head atoms of one disjunctive rule.
    pub head_cycles: Vec<u32>,
}

impl Dependencies {
    pub fn new(program: &Program) -> Dependencies {
        Self::new_until(program, &StopToken::never()).expect("never stopped")
    }

    /// [`new`](Self::new), polling `stop`.
    pub fn new_until(program: &Program, stop: &StopToken) -> Result<Dependencies, Interrupted> {
        let n = program.atom_count() as usize;
        // CSR adjacency: h -> p.
        let mut deg = vec![0u32; n + 2];
        let each_edge = |f: &mut dyn FnMut(Atom, Atom)| {
            for r in program.rules() {
                for &h in r.head {
                    for &l in r.body.lits() {
                        if l > 0 {
                            f(h, atom_of(l));
                        }
                    }
                }
            }
        };
        each_edge(&mut |h, _| deg[h as usize + 1] += 1);
        for i in 1..deg.len() {
            deg[i] += deg[i - 1];
        }
        let start = deg.clone();
        let mut fill = deg;
        let mut adj = vec![0u32; start[n + 1] as usize];
        each_edge(&mut |h, p| {
            adj[fill[h as usize] as usize] = p;
            fill[h as usize] += 1;
        });
        let succ = |a: usize| &adj[start[a] as usize..start[a + 1] as usize];

        stop.check()?;
        let (scc, components) = cyclic_components(n + 1, |a| succ(a), stop)?;
        let mut head_cycles = Vec::new();
        for r in program.rules() {
            if r.kind == super::HeadKind::Disjunction && r.head.len() > 1 {
                for (i, &a) in r.head.iter().enumerate() {
                    let c = scc[a as usize];
                    if c != NO_SCC && r.head[i + 1..].iter().any(|&b| scc[b as usize] == c) {
                        head_cycles.push(c);
                    }
                }
            }
        }
        head_cycles.sort_unstable();
        head_cycles.dedup();
        Ok(Dependencies { scc, components, head_cycles })
    }

    pub fn is_tight(&self) -> bool {
        self.components == 0
    }

    pub fn is_head_cycle_free(&self) -> bool {
        self.head_cycles.is_empty()
    }

    pub fn is_cyclic(&self, a: Atom) -> bool {
        self.scc[a as usize] != NO_SCC
    }
}

/// The non-trivial strongly connected components of a graph on `0..n` (iterative Tarjan):
/// returns each node's component id ([`NO_SCC`] for nodes on no cycle) and the component count.
/// Polls `stop` as it goes (a big program's graph has millions of nodes).
pub fn cyclic_components<'a>(
    n: usize,
    succ: impl Fn(usize) -> &'a [u32],
    stop: &StopToken,
) -> Result<(Vec<u32>, u32), Interrupted> {
    let mut steps = 0usize;
    let mut index = vec![u32::MAX; n];
    let mut low = vec![0u32; n];
    let mut on_stack = vec![false; n];
    let mut stack: Vec<u32> = Vec::new();
    let mut scc = vec![NO_SCC; n];
    let mut next_index = 0u32;
    let mut components = 0u32;
    let mut call: Vec<(u32, usize)> = Vec::new();
    for root in 0..n {
        if index[root] != u32::MAX {
            continue;
        }
        call.push((root as u32, 0));
        while let Some(&mut (v, ref mut i)) = call.last_mut() {
            steps += 1;
            stop.check_every(steps)?;
            let v = v as usize;
            if *i == 0 && index[v] == u32::MAX {
                index[v] = next_index;
                low[v] = next_index;
                next_index += 1;
                stack.push(v as u32);
                on_stack[v] = true;
            }
            if let Some(&w) = succ(v).get(*i) {
                *i += 1;
                let w = w as usize;
                if index[w] == u32::MAX {
                    call.push((w as u32, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            call.pop();
            if let Some(&(parent, _)) = call.last() {
                let p = parent as usize;
                low[p] = low[p].min(low[v]);
            }
            if low[v] == index[v] {
                let mut members = Vec::new();
                loop {
                    let w = stack.pop().expect("tarjan stack") as usize;
                    on_stack[w] = false;
                    members.push(w);
                    if w == v {
                        break;
                    }
                }
                if members.len() > 1 || succ(v).contains(&(v as u32)) {
                    for &w in &members {
                        scc[w] = components;
                    }
                    components += 1;
                }
            }
        }
    }
    Ok((scc, components))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::read_program;

    #[test]
    fn loops_and_head_cycles() {
        // a :- b. b :- a. c :- not a. a | d :- e. e.
        let p = read_program(
            b"asp 1 0 0\n1 0 1 1 0 1 2\n1 0 1 2 0 1 1\n1 0 1 3 0 1 -1\n1 0 2 1 4 0 1 5\n1 0 1 5 0 0\n0\n",
        )
        .unwrap();
        let d = Dependencies::new(&p);
        assert!(!d.is_tight());
        assert!(d.is_cyclic(1) && d.is_cyclic(2) && !d.is_cyclic(3));
        assert!(d.is_head_cycle_free());
        // a | b. a :- b. b :- a.
        let p = read_program(b"asp 1 0 0\n1 0 2 1 2 0 0\n1 0 1 1 0 1 2\n1 0 1 2 0 1 1\n0\n").unwrap();
        assert!(!Dependencies::new(&p).is_head_cycle_free());
    }
}
