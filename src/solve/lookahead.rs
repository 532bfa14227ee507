//! Cubes balanced by lookahead (cube-and-conquer's): the parts the search farm's searches take
//! when they enumerate, where every part must be searched and the largest decides the time.

use super::config::SearchOptions;
use super::cubes::{Cubes, split_vars};
use crate::engine::Engine;
use crate::engine::cpu::CpuEngine;
use crate::nogoods::{Lit, Problem};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::Arc;

impl Cubes {
    /// `target` cubes of the part `outer` of `p`'s space (fewer where propagation leaves
    /// no more to split), balanced by lookahead as cube-and-conquer's: the cube with the most
    /// variables left open after propagating its literals is split next, on the one of its four
    /// most frequent open variables whose sign propagates most on either side; a cube that
    /// propagation refutes is dropped (it has no model). The cubes are disjoint and together hold
    /// every model of the part; each has the length of the longest (its last literal repeated),
    /// `outer`'s literals not among them.
    pub fn balanced(p: &Arc<Problem>, target: usize, outer: &[Lit]) -> Vec<Vec<Lit>> {
        const CANDIDATES: usize = 4;
        let mut e = CpuEngine::new(p.clone(), &SearchOptions::default());
        let order = split_vars(p, p.num_vars as usize, &[]);
        let open_vars = |e: &CpuEngine| p.num_vars as usize - e.assigned();
        // Set once a conflict is at level 0: nothing holds a model, and the engine is done.
        let unsat = std::cell::Cell::new(false);
        let learn = |e: &mut CpuEngine| {
            // Learned (a consequence of the program), so that the engine goes on.
            if !e.resolve_conflict().unwrap_or(false) {
                unsat.set(true);
            }
        };
        // Propagates `outer` and `cube` from level 0: false where propagation refutes them.
        let open = |e: &mut CpuEngine, cube: &[Lit]| -> bool {
            if unsat.get() {
                return false;
            }
            let _ = e.restart();
            // Level 0 first: nothing propagated there may be undone.
            if !e.propagate().unwrap_or(false) {
                learn(e);
                return false;
            }
            for &l in outer.iter().chain(cube) {
                match e.lit_value(l).ok().flatten() {
                    Some(true) => continue,
                    Some(false) => return false,
                    None => {
                        let _ = e.assume(l);
                    }
                }
                if !e.propagate().unwrap_or(false) {
                    learn(e);
                    return false;
                }
            }
            true
        };
        // At a cube's fixpoint: the variables open under `l` too (`None`: refuted; the engine
        // is then elsewhere), the engine back at the cube's level.
        let look = |e: &mut CpuEngine, l: Lit| -> Option<usize> {
            // What was learned since the candidates were chosen may have decided `l`.
            match e.lit_value(l).ok().flatten() {
                Some(true) => return Some(open_vars(e)),
                Some(false) => return None,
                None => {}
            }
            let level = e.decision_level();
            let _ = e.assume(l);
            if !e.propagate().unwrap_or(false) {
                learn(e);
                return None;
            }
            let free = open_vars(e);
            e.backjump_to(level);
            Some(free)
        };
        let mut leaves = Vec::new();
        let mut heap = BinaryHeap::new();
        if open(&mut e, &[]) {
            heap.push((open_vars(&e), Reverse(0usize), Vec::new()));
        }
        let mut made = 0;
        while let Some((_, _, cube)) = heap.pop() {
            if unsat.get() {
                break;
            }
            if e.learned_count() > 1000 {
                let _ = e.restart();
                e.reduce_learned();
            }
            if heap.len() + leaves.len() + 1 >= target {
                leaves.push(cube);
                continue;
            }
            if !open(&mut e, &cube) {
                // Refuted by what was learned since it was made: it has no model.
                continue;
            }
            let free = open_vars(&e);
            let candidates: Vec<u32> = order
                .iter()
                .copied()
                .filter(|&v| e.lit_value(Lit::pos(v)).ok().flatten().is_none())
                .take(CANDIDATES)
                .collect();
            // The best split: most propagated on its weaker side (a refuted side counts all).
            let mut best: Option<(usize, u32, [Option<usize>; 2])> = None;
            for v in candidates {
                let mut sides = [None; 2];
                for (k, sign) in [true, false].into_iter().enumerate() {
                    sides[k] = look(&mut e, Lit::new(v, sign));
                    if sides[k].is_none() && !open(&mut e, &cube) {
                        break;
                    }
                }
                let score = sides.iter().map(|s| free.saturating_sub(s.unwrap_or(0))).min().unwrap_or(0);
                if best.is_none_or(|(b, _, _)| score > b) {
                    best = Some((score, v, sides));
                }
            }
            let Some((_, v, sides)) = best else {
                leaves.push(cube);
                continue;
            };
            for (k, sign) in [true, false].into_iter().enumerate() {
                if let Some(open_after) = sides[k] {
                    let mut child = cube.clone();
                    child.push(Lit::new(v, sign));
                    made += 1;
                    heap.push((open_after, Reverse(made), child));
                }
            }
        }
        let len = leaves.iter().map(Vec::len).max().unwrap_or(0);
        for c in &mut leaves {
            if let Some(&last) = c.last() {
                c.resize(len, last);
            }
        }
        if leaves.is_empty() || unsat.get() {
            // Propagation refutes the whole part: one cube, which the farm refutes too.
            leaves = vec![Vec::new()];
        }
        leaves
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The balanced cubes of every program of the corpus are disjoint (each two have a variable
    /// of opposite signs) and of one length; the farm's emulation (`engine/cuda/farm/emu.rs`)
    /// checks that their models are all the program's.
    #[test]
    fn balanced_cubes_are_disjoint() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance");
        let mut split = 0;
        for family in ["tight", "aggregates", "nontight"] {
            for f in std::fs::read_dir(root.join(family)).expect("the corpus").flatten() {
                let path = f.path();
                if path.extension().is_none_or(|e| e != "smodels") {
                    continue;
                }
                let program = crate::input::read_program(&std::fs::read(&path).unwrap()).unwrap();
                let stop = crate::stop::StopToken::never();
                let Ok(p) = crate::nogoods::complete(&program, &stop, 3) else { continue };
                let cubes = Cubes::balanced(&Arc::new(p), 12, &[]);
                split += usize::from(cubes.len() > 1);
                for (i, a) in cubes.iter().enumerate() {
                    assert_eq!(a.len(), cubes[0].len(), "{}", path.display());
                    for b in &cubes[i + 1..] {
                        assert!(
                            a.iter().any(|l| b.contains(&!*l)),
                            "{}: {a:?} and {b:?} meet",
                            path.display()
                        );
                    }
                }
            }
        }
        assert!(split > 50, "{split} programs split");
    }
}
