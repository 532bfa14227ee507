//! Cubes balanced by lookahead (cube-and-conquer's): the parts the search farm's searches take
//! when they enumerate, where every part must be searched and the largest decides the time.
//! Several threads split cubes at once, each with an engine of its own.

use super::config::SearchOptions;
use super::cubes::{Cubes, split_vars};
use crate::engine::Engine;
use crate::engine::cpu::CpuEngine;
use crate::nogoods::{Lit, Problem};
use crate::stop::StopToken;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};

/// Variables tried as the split of a cube: its four most frequent open ones.
const CANDIDATES: usize = 4;

/// Threads that split cubes, at most (fewer where the machine has fewer cores).
const THREADS: usize = 8;

/// A cube waiting to be split: the variables it leaves open (the most are split first), the
/// order it was made in (the earliest first among equals), its literals.
type Open = (usize, Reverse<usize>, Vec<Lit>);

/// What the threads share. Invariant: every cube of the part is a model-free one dropped, a leaf,
/// waiting in `heap`, or being split by one of `busy` threads; `made` numbers the cubes made.
struct Pool {
    heap: BinaryHeap<Open>,
    leaves: Vec<Vec<Lit>>,
    busy: usize,
    made: usize,
}

/// What lookahead makes of a cube.
enum Split {
    /// Propagation refutes it: it has no model.
    Refuted,
    /// Nothing left to split it on.
    Leaf,
    /// Its two halves (one, where the other is refuted): the split literal and the variables
    /// that stay open under it.
    Halves(Vec<(usize, Lit)>),
}

/// One thread's lookahead: an engine over the program, which learns what it meets on the way
/// (consequences of the program, so that it goes on), within the part `outer`.
struct Looker<'a> {
    e: CpuEngine,
    num_vars: usize,
    outer: &'a [Lit],
    /// Set once a conflict is at level 0: nothing holds a model.
    unsat: &'a AtomicBool,
}

/// The threads that split `target` cubes: one for a few (they are not worth the threads'
/// engines), else a core each up to [`THREADS`].
fn threads_for(target: usize) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    if target < 64 { 1 } else { cores.min(THREADS) }
}

impl Cubes {
    /// `target` cubes of the part `outer` of `p`'s space (fewer where propagation leaves
    /// no more to split), balanced by lookahead as cube-and-conquer's: the cube with the most
    /// variables left open after propagating its literals is split next, on the one of its four
    /// most frequent open variables whose sign propagates most on either side; a cube that
    /// propagation refutes is dropped (it has no model). The cubes are disjoint and together hold
    /// every model of the part; each has the length of the longest (its last literal repeated),
    /// `outer`'s literals not among them. `None` when `stop` came first.
    pub fn balanced(
        p: &Arc<Problem>,
        target: usize,
        outer: &[Lit],
        stop: &StopToken,
    ) -> Option<Vec<Vec<Lit>>> {
        Self::balanced_on(p, target, outer, stop, threads_for(target))
    }

    /// About `target` cubes of the parts `paths` of `p`'s space (disjoint, as split mode's guiding
    /// paths are), balanced by lookahead across them as [`Cubes::balanced`] balances one part:
    /// each a path with literals added, all of one length. They are disjoint and together hold
    /// every model of the parts; none where propagation refutes every part. `None` when `stop`
    /// came first.
    pub fn within(
        p: &Arc<Problem>,
        paths: &[Vec<Lit>],
        target: usize,
        stop: &StopToken,
    ) -> Option<Vec<Vec<Lit>>> {
        Self::balanced_from(p, target, &[], paths, stop, threads_for(target))
    }

    /// [`Cubes::balanced`] on `threads` threads (which split cubes at once, so that which cubes
    /// come out depends on their timing).
    pub(crate) fn balanced_on(
        p: &Arc<Problem>,
        target: usize,
        outer: &[Lit],
        stop: &StopToken,
        threads: usize,
    ) -> Option<Vec<Vec<Lit>>> {
        let mut cubes = Self::balanced_from(p, target, outer, &[Vec::new()], stop, threads)?;
        if cubes.is_empty() {
            // Propagation refutes the whole part: one cube, which the farm refutes too.
            cubes.push(Vec::new());
        }
        Some(cubes)
    }

    /// The cubes of the part `outer` split from the cubes `starts` (disjoint) on, as
    /// [`Cubes::balanced_on`] splits the part whole; none where propagation refutes them all.
    fn balanced_from(
        p: &Arc<Problem>,
        target: usize,
        outer: &[Lit],
        starts: &[Vec<Lit>],
        stop: &StopToken,
        threads: usize,
    ) -> Option<Vec<Vec<Lit>>> {
        let order = split_vars(p, p.num_vars as usize, &[]);
        let unsat = AtomicBool::new(false);
        let pool = Mutex::new(Pool { heap: BinaryHeap::new(), leaves: Vec::new(), busy: 0, made: 0 });
        let idle = Condvar::new();
        let mut first = Looker::new(p, outer, &unsat);
        for (i, start) in starts.iter().enumerate() {
            if first.open(start) {
                let free = first.open_vars();
                pool.lock().ok()?.heap.push((free, Reverse(i), start.clone()));
            }
        }
        pool.lock().ok()?.made = starts.len();
        let work = |mut looker: Looker<'_>| looker.work(&pool, &idle, target, &order, stop);
        if threads <= 1 {
            work(first);
        } else {
            std::thread::scope(|s| {
                for _ in 1..threads {
                    s.spawn(|| work(Looker::new(p, outer, &unsat)));
                }
                work(first);
            });
        }
        if stop.reached().is_some() {
            return None;
        }
        let mut leaves = pool.into_inner().ok()?.leaves;
        let len = leaves.iter().map(Vec::len).max().unwrap_or(0);
        for c in &mut leaves {
            if let Some(&last) = c.last() {
                c.resize(len, last);
            }
        }
        if unsat.load(Ordering::Acquire) {
            leaves.clear();
        }
        Some(leaves)
    }
}

impl<'a> Looker<'a> {
    fn new(p: &Arc<Problem>, outer: &'a [Lit], unsat: &'a AtomicBool) -> Self {
        let e = CpuEngine::new(p.clone(), &SearchOptions::default());
        Looker { e, num_vars: p.num_vars as usize, outer, unsat }
    }

    fn open_vars(&self) -> usize {
        self.num_vars - self.e.assigned()
    }

    /// Takes the cube with the most open variables and splits it, until every cube is a leaf
    /// (there are `target`), the part is refuted, or `stop` says so.
    fn work(&mut self, pool: &Mutex<Pool>, idle: &Condvar, target: usize, order: &[u32], stop: &StopToken) {
        let Ok(mut guard) = pool.lock() else { return };
        loop {
            if self.unsat.load(Ordering::Acquire) || stop.reached().is_some() {
                break;
            }
            let Some((_, _, cube)) = guard.heap.pop() else {
                if guard.busy == 0 {
                    break;
                }
                let Ok(g) = idle.wait(guard) else { return };
                guard = g;
                continue;
            };
            // Each cube being split may yet become two.
            if guard.heap.len() + guard.leaves.len() + 2 * guard.busy + 1 >= target {
                guard.leaves.push(cube);
                continue;
            }
            guard.busy += 1;
            drop(guard);
            if self.e.learned_count() > 1000 {
                let _ = self.e.restart();
                self.e.reduce_learned();
            }
            let split = self.split(&cube, order);
            let Ok(g) = pool.lock() else { return };
            guard = g;
            guard.busy -= 1;
            match split {
                Split::Refuted => {}
                Split::Leaf => guard.leaves.push(cube),
                Split::Halves(halves) => {
                    for (open_after, l) in halves {
                        let mut child = cube.clone();
                        child.push(l);
                        guard.made += 1;
                        let made = guard.made;
                        guard.heap.push((open_after, Reverse(made), child));
                    }
                }
            }
            idle.notify_all();
        }
        drop(guard);
        idle.notify_all();
    }

    /// Learns from the conflict at hand (a consequence of the program).
    fn learn(&mut self) {
        if !self.e.resolve_conflict().unwrap_or(false) {
            self.unsat.store(true, Ordering::Release);
        }
    }

    /// Propagates `outer` and `cube` from level 0: false where propagation refutes them.
    fn open(&mut self, cube: &[Lit]) -> bool {
        if self.unsat.load(Ordering::Acquire) {
            return false;
        }
        let _ = self.e.restart();
        // Level 0 first: nothing propagated there may be undone.
        if !self.e.propagate().unwrap_or(false) {
            self.learn();
            return false;
        }
        for &l in self.outer.iter().chain(cube) {
            match self.e.lit_value(l).ok().flatten() {
                Some(true) => continue,
                Some(false) => return false,
                None => {
                    let _ = self.e.assume(l);
                }
            }
            if !self.e.propagate().unwrap_or(false) {
                self.learn();
                return false;
            }
        }
        true
    }

    /// At a cube's fixpoint: the variables open under `l` too (`None`: refuted; the engine is
    /// then elsewhere), the engine back at the cube's level.
    fn look(&mut self, l: Lit) -> Option<usize> {
        // What was learned since the candidates were chosen may have decided `l`.
        match self.e.lit_value(l).ok().flatten() {
            Some(true) => return Some(self.open_vars()),
            Some(false) => return None,
            None => {}
        }
        let level = self.e.decision_level();
        let _ = self.e.assume(l);
        if !self.e.propagate().unwrap_or(false) {
            self.learn();
            return None;
        }
        let free = self.open_vars();
        self.e.backjump_to(level);
        Some(free)
    }

    /// Splits `cube` on the candidate that propagates most on its weaker side (a refuted side
    /// counts all).
    fn split(&mut self, cube: &[Lit], order: &[u32]) -> Split {
        if !self.open(cube) {
            // Refuted by what was learned since it was made: it has no model.
            return Split::Refuted;
        }
        let free = self.open_vars();
        let candidates: Vec<u32> = order
            .iter()
            .copied()
            .filter(|&v| self.e.lit_value(Lit::pos(v)).ok().flatten().is_none())
            .take(CANDIDATES)
            .collect();
        let mut best: Option<(usize, u32, [Option<usize>; 2])> = None;
        for v in candidates {
            let mut sides = [None; 2];
            for (k, sign) in [true, false].into_iter().enumerate() {
                sides[k] = self.look(Lit::new(v, sign));
                if sides[k].is_none() && !self.open(cube) {
                    break;
                }
            }
            let score = sides.iter().map(|s| free.saturating_sub(s.unwrap_or(0))).min().unwrap_or(0);
            if best.is_none_or(|(b, _, _)| score > b) {
                best = Some((score, v, sides));
            }
        }
        let Some((_, v, sides)) = best else { return Split::Leaf };
        let halves =
            [true, false].into_iter().zip(sides).filter_map(|(sign, s)| Some((s?, Lit::new(v, sign))));
        Split::Halves(halves.collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The balanced cubes of every program of the corpus, split by one thread or by three, are
    /// disjoint (each two have a variable of opposite signs), of one length and at most as many as
    /// asked; the farm's emulation (`engine/cuda/farm/emu.rs`)
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
                let p = Arc::new(p);
                for threads in [1, 3] {
                    let cubes = Cubes::balanced_on(&p, 12, &[], &stop, threads).expect("no stop");
                    split += usize::from(cubes.len() > 1);
                    assert!(cubes.len() <= 12, "{}: {} cubes", path.display(), cubes.len());
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
        }
        assert!(split > 100, "{split} splits of programs");
    }

    /// The cubes of three disjoint parts of the programs of the corpus: of one length, each
    /// beginning with its part's path, and disjoint.
    #[test]
    fn cubes_within_parts_keep_to_them() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance");
        let stop = crate::stop::StopToken::never();
        let mut within = 0;
        for f in std::fs::read_dir(root.join("tight")).expect("the corpus").flatten() {
            let path = f.path();
            if path.extension().is_none_or(|e| e != "smodels") {
                continue;
            }
            let program = crate::input::read_program(&std::fs::read(&path).unwrap()).unwrap();
            let Ok(p) = crate::nogoods::complete(&program, &stop, 3) else { continue };
            let p = Arc::new(p);
            let [a, b] = split_vars(&p, 2, &[])[..] else { continue };
            let (t, f) = (Lit::pos, Lit::neg);
            let paths = [vec![t(a)], vec![f(a), t(b)], vec![f(a), f(b)]];
            let cubes = Cubes::within(&p, &paths, 24, &stop).expect("no stop");
            within += usize::from(cubes.len() > 3);
            for (i, c) in cubes.iter().enumerate() {
                assert_eq!(c.len(), cubes[0].len(), "{}", path.display());
                assert!(paths.iter().any(|q| c.starts_with(q)), "{}: {c:?} in no part", path.display());
                for d in &cubes[i + 1..] {
                    assert!(c.iter().any(|l| d.contains(&!*l)), "{}: {c:?} and {d:?} meet", path.display());
                }
            }
        }
        assert!(within > 10, "{within} programs split within their parts");
    }
}
