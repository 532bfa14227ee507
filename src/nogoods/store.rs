//! The nogood store: compressed sparse rows sorted by length, and the literal occurrence index.
//!
//! Layout (what the CUDA engine copies to the device unchanged):
//! - `lits`: all literals of all nogoods, one flat `u32` array;
//! - `offsets`: nogood `i` is `lits[offsets[i]..offsets[i+1]]`;
//! - nogoods are sorted by length, so each length class is one contiguous range: `class(2)`,
//!   `class(3)` and `long()` (length >= 4). Unit nogoods are kept apart in `units` (the literals
//!   that must be false), as the paper's initial propagation handles them.
//! - `occ_offsets`/`occ`: for each literal `l` (by `l.index()`), the nogoods containing `l`.
//!
//! Invariants (checked by `check_invariants`): offsets increase, lengths are non-decreasing and at
//! least 2, no nogood repeats a variable, and the occurrence index lists each (literal, nogood)
//! pair exactly once.

use super::lit::Lit;
use crate::stop::{Aside, Interrupted, StopToken};

#[derive(Clone, Debug, Default)]
pub struct NogoodStore {
    pub units: Vec<Lit>,
    pub lits: Vec<u32>,
    pub offsets: Vec<u32>,
    pub occ_offsets: Vec<u32>,
    pub occ: Vec<u32>,
    /// `class_start[k]` is the first nogood of length >= k, for k in 0..=4 (`class_start[4]` starts
    /// the long class).
    class_start: [u32; 5],
}

impl NogoodStore {
    /// Freezes a list of nogoods (each at least two literals) into the sorted CSR layout.
    pub fn build(nogoods: Vec<Vec<Lit>>, units: Vec<Lit>, num_vars: u32) -> NogoodStore {
        Self::build_until(nogoods, units, num_vars, &StopToken::never()).expect("never stopped")
    }

    /// [`build`](Self::build), polling `stop` (millions of nogoods take a while).
    pub fn build_until(
        nogoods: Vec<Vec<Lit>>,
        units: Vec<Lit>,
        num_vars: u32,
        stop: &StopToken,
    ) -> Result<NogoodStore, Interrupted> {
        let n = nogoods.len();
        let nogoods = Aside::new(nogoods, n);
        // A stable counting sort by length: `start[k]` is where the nogoods of length k begin.
        let max_len = nogoods.iter().map(|n| n.len()).max().unwrap_or(0);
        let mut start = vec![0usize; max_len + 2];
        for ng in nogoods.iter() {
            start[ng.len() + 1] += 1;
        }
        for k in 1..start.len() {
            start[k] += start[k - 1];
        }
        let mut class_start = [0u32; 5];
        for (k, slot) in class_start.iter_mut().enumerate() {
            *slot = start[k.min(max_len + 1)] as u32;
        }
        let mut order = vec![0u32; n];
        let mut next = start;
        for (i, ng) in nogoods.iter().enumerate() {
            order[next[ng.len()]] = i as u32;
            next[ng.len()] += 1;
        }
        let total: usize = nogoods.iter().map(|n| n.len()).sum();
        let mut lits = Vec::with_capacity(total);
        let mut offsets = Vec::with_capacity(n + 1);
        offsets.push(0);
        for (k, &i) in order.iter().enumerate() {
            stop.check_every(k)?;
            lits.extend(nogoods[i as usize].iter().map(|l| l.0));
            offsets.push(lits.len() as u32);
        }
        drop(nogoods);
        let nlits = 2 * num_vars as usize;
        let mut counts = vec![0u32; nlits + 1];
        for &l in &lits {
            counts[l as usize + 1] += 1;
        }
        for i in 1..counts.len() {
            counts[i] += counts[i - 1];
        }
        stop.check()?;
        let occ_offsets = counts.clone();
        let mut fill = counts;
        let mut occ = vec![0u32; lits.len()];
        for (i, w) in offsets.windows(2).enumerate() {
            stop.check_every(i)?;
            for &l in &lits[w[0] as usize..w[1] as usize] {
                occ[fill[l as usize] as usize] = i as u32;
                fill[l as usize] += 1;
            }
        }
        let store = NogoodStore { units, lits, offsets, occ_offsets, occ, class_start };
        debug_assert_eq!(store.check_invariants(), Ok(()));
        Ok(store)
    }

    pub fn len(&self) -> usize {
        self.offsets.len() - 1
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    #[inline]
    pub fn nogood(&self, i: usize) -> &[Lit] {
        let s = &self.lits[self.offsets[i] as usize..self.offsets[i + 1] as usize];
        // SAFETY: `Lit` is `repr(transparent)` over `u32`.
        unsafe { std::slice::from_raw_parts(s.as_ptr() as *const Lit, s.len()) }
    }

    /// The nogoods of exactly length `k` (2 or 3).
    pub fn class(&self, k: usize) -> std::ops::Range<usize> {
        assert!(k == 2 || k == 3);
        self.class_start[k] as usize..self.class_start[k + 1] as usize
    }

    /// The nogoods of length 4 and more.
    pub fn long(&self) -> std::ops::Range<usize> {
        self.class_start[4] as usize..self.len()
    }

    /// The nogoods that contain `l`.
    pub fn occurrences(&self, l: Lit) -> &[u32] {
        let i = l.index();
        &self.occ[self.occ_offsets[i] as usize..self.occ_offsets[i + 1] as usize]
    }

    pub fn check_invariants(&self) -> Result<(), String> {
        if self.offsets.windows(2).any(|w| w[1] < w[0] + 2) {
            return Err("nogood shorter than 2".into());
        }
        let lens: Vec<usize> = (0..self.len()).map(|i| self.nogood(i).len()).collect();
        if lens.windows(2).any(|w| w[1] < w[0]) {
            return Err("nogoods not sorted by length".into());
        }
        for i in 0..self.len() {
            let mut vars: Vec<u32> = self.nogood(i).iter().map(|l| l.var()).collect();
            vars.sort_unstable();
            if vars.windows(2).any(|w| w[0] == w[1]) {
                return Err(format!("nogood {i} repeats a variable"));
            }
        }
        if self.occ.len() != self.lits.len() {
            return Err("occurrence index size".into());
        }
        for l in 0..self.occ_offsets.len() - 1 {
            let lit = Lit(l as u32);
            if !self.occurrences(lit).iter().all(|&n| self.nogood(n as usize).contains(&lit)) {
                return Err(format!("occurrence index wrong for {lit:?}"));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorted_classes_and_occurrences() {
        let l = |v, s| Lit::new(v, s);
        let ngs = vec![
            vec![l(1, true), l(2, false), l(3, true), l(4, true)],
            vec![l(1, true), l(2, true)],
            vec![l(2, false), l(3, false), l(4, true)],
            vec![l(3, true), l(4, false)],
        ];
        let s = NogoodStore::build(ngs, vec![l(5, true)], 6);
        assert_eq!(s.class(2), 0..2);
        assert_eq!(s.class(3), 2..3);
        assert_eq!(s.long(), 3..4);
        assert_eq!(s.occurrences(l(2, false)).len(), 2);
        assert_eq!(s.occurrences(l(5, true)).len(), 0);
        s.check_invariants().unwrap();
    }
}
