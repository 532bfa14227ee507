//! The decider's activities and their heap (VSIDS as MiniSat keeps it): a conflict's bumps, the
//! decay, and the binary heap of candidates ordered by the domain heuristic's rank, then by
//! activity, then by variable.

use super::{ABSENT, Decider};
use crate::engine::assignment::Assignment;
use crate::nogoods::Var;

impl Decider {
    pub fn bump(&mut self, v: Var, a: &Assignment) {
        if !self.dynamic {
            return;
        }
        if !self.followers.is_empty() {
            for k in 0..self.followers.get(v as usize).len() {
                let f = self.followers.get(v as usize)[k];
                self.bump_one(f, a);
            }
        }
        self.bump_one(v, a);
    }

    pub(super) fn bump_one(&mut self, v: Var, a: &Assignment) {
        let vi = v as usize;
        self.activity[vi] += self.inc * self.domain.as_ref().map_or(1.0, |d| d.factor_of(a, v));
        if self.activity[vi] > 1e100 {
            for x in self.activity.iter_mut() {
                *x *= 1e-100;
            }
            for e in self.heap.iter_mut() {
                e.0 = self.activity[e.1 as usize];
            }
            self.inc *= 1e-100;
        }
        if self.pos[vi] != ABSENT {
            let i = self.pos[vi] as usize;
            self.heap[i].0 = self.activity[vi];
            self.sift_up(i);
        }
    }

    /// Sets `v`'s activity to `x`, its place in the heap following (tests).
    #[cfg(test)]
    pub fn set_activity(&mut self, v: Var, x: f64) {
        self.activity[v as usize] = x;
        if let Some(&i) = self.pos.get(v as usize).filter(|&&i| i != ABSENT) {
            self.heap[i as usize].0 = x;
            self.sift_up(i as usize);
            self.sift_down(self.pos[v as usize] as usize);
        }
    }

    pub fn decay(&mut self) {
        if self.dynamic {
            self.inc *= self.decay;
        }
    }

    pub(super) fn pop(&mut self) -> Option<Var> {
        if self.heap.is_empty() {
            return None;
        }
        let top = self.heap[0].1;
        debug_assert_eq!(self.heap[0].0, self.activity[top as usize], "the heap's copy of {top}'s activity");
        self.pops += 1;
        let last = self.heap.pop().expect("non-empty");
        self.pos[top as usize] = ABSENT;
        if !self.heap.is_empty() {
            self.heap[0] = last;
            self.pos[last.1 as usize] = 0;
            self.sift_down(0);
        }
        Some(top)
    }

    /// Whether heap entry `a` (activity, variable) comes before `b`: by the domain's rank, then
    /// the activity, then the lower variable (a total order).
    #[inline]
    pub(super) fn better(&self, (x, a): (f64, Var), (y, b): (f64, Var)) -> bool {
        if !self.rank.is_empty() {
            let (ra, rb) = (self.rank[a as usize], self.rank[b as usize]);
            if ra != rb {
                return ra > rb;
            }
        }
        x > y || (x == y && a < b)
    }

    pub(super) fn sift_up(&mut self, mut i: usize) {
        let v = self.heap[i];
        while i > 0 {
            let parent = (i - 1) / 2;
            if !self.better(v, self.heap[parent]) {
                break;
            }
            self.heap[i] = self.heap[parent];
            self.pos[self.heap[i].1 as usize] = i as u32;
            i = parent;
        }
        self.heap[i] = v;
        self.pos[v.1 as usize] = i as u32;
    }

    pub(super) fn sift_down(&mut self, mut i: usize) {
        let v = self.heap[i];
        let n = self.heap.len();
        loop {
            let mut child = 2 * i + 1;
            if child >= n {
                break;
            }
            if child + 1 < n && self.better(self.heap[child + 1], self.heap[child]) {
                child += 1;
            }
            if !self.better(self.heap[child], v) {
                break;
            }
            self.heap[i] = self.heap[child];
            self.pos[self.heap[i].1 as usize] = i as u32;
            i = child;
        }
        self.heap[i] = v;
        self.pos[v.1 as usize] = i as u32;
    }
}
