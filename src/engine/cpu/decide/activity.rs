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
            self.inc *= 1e-100;
        }
        if self.pos[vi] != ABSENT {
            self.sift_up(self.pos[vi] as usize);
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
        let top = self.heap[0];
        self.pops += 1;
        let last = self.heap.pop().expect("non-empty");
        self.pos[top as usize] = ABSENT;
        if !self.heap.is_empty() {
            self.heap[0] = last;
            self.pos[last as usize] = 0;
            self.sift_down(0);
        }
        Some(top)
    }

    pub(super) fn better(&self, a: Var, b: Var) -> bool {
        if !self.rank.is_empty() {
            let (ra, rb) = (self.rank[a as usize], self.rank[b as usize]);
            if ra != rb {
                return ra > rb;
            }
        }
        let (x, y) = (self.activity[a as usize], self.activity[b as usize]);
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
            self.pos[self.heap[i] as usize] = i as u32;
            i = parent;
        }
        self.heap[i] = v;
        self.pos[v as usize] = i as u32;
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
            self.pos[self.heap[i] as usize] = i as u32;
            i = child;
        }
        self.heap[i] = v;
        self.pos[v as usize] = i as u32;
    }
}
