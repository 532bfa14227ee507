//! The assignment: a value per literal, a decision level, reason and trail position per variable,
//! and the trail with its level boundaries.
//!
//! Invariants: `value(l) == -value(!l)`; a variable is assigned iff it is on the trail, at
//! `trail_pos`; levels along the trail never decrease; `level_start[i]` is the trail length when
//! level `i + 1` began, and that trail entry is the level's decision literal.

use crate::nogoods::{Lit, Var};

/// Why a variable has its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// Decided (at the start of its level; or, flipped by backtracking enumeration, the
    /// complement of the next level's decision, at the end of one), or fixed at level 0 by a
    /// unit nogood.
    Decision,
    Unit,
    /// A binary nogood `{other, !lit}`: `other` became true.
    Binary(Lit),
    /// A nogood in the database (its first literal is the complement of the implied one).
    Nogood(u32),
    /// A weight constraint.
    Weight(u32),
    /// An unfounded set: the antecedents are stored in the loop-reason stack.
    Loop(u32),
    /// The cost bound of an optimization.
    Cost,
}

pub struct Assignment {
    value: Vec<i8>,
    pub level: Vec<u32>,
    pub reason: Vec<Reason>,
    pub trail_pos: Vec<u32>,
    pub trail: Vec<Lit>,
    pub level_start: Vec<u32>,
}

impl Assignment {
    pub fn new(num_vars: u32) -> Self {
        let n = num_vars as usize;
        Assignment {
            value: vec![0; 2 * n],
            level: vec![0; n],
            reason: vec![Reason::Unit; n],
            trail_pos: vec![0; n],
            trail: Vec::with_capacity(n),
            level_start: Vec::new(),
        }
    }

    #[inline]
    pub fn value(&self, l: Lit) -> i8 {
        // SAFETY-free fast path: literal indices are < 2 * num_vars by construction.
        self.value[l.index()]
    }

    /// Whether each of the variables `0..n` is true, read in one pass over the values into `out`
    /// (cleared first).
    pub fn true_vars(&self, n: usize, out: &mut Vec<bool>) {
        out.clear();
        out.extend(self.value[..2 * n].chunks_exact(2).map(|c| c[0] > 0));
    }

    #[inline]
    pub fn is_true(&self, l: Lit) -> bool {
        self.value[l.index()] > 0
    }

    #[inline]
    pub fn is_false(&self, l: Lit) -> bool {
        self.value[l.index()] < 0
    }

    #[inline]
    pub fn is_unassigned(&self, v: Var) -> bool {
        self.value[Lit::pos(v).index()] == 0
    }

    pub fn decision_level(&self) -> u32 {
        self.level_start.len() as u32
    }

    pub fn num_vars(&self) -> usize {
        self.level.len()
    }

    /// Makes `l` true at the current level.
    #[inline]
    pub fn assign(&mut self, l: Lit, reason: Reason) {
        debug_assert!(self.value(l) == 0, "assigning {l:?} twice");
        self.value[l.index()] = 1;
        self.value[(!l).index()] = -1;
        let v = l.var() as usize;
        self.level[v] = self.decision_level();
        self.reason[v] = reason;
        self.trail_pos[v] = self.trail.len() as u32;
        self.trail.push(l);
    }

    pub fn new_level(&mut self) {
        self.level_start.push(self.trail.len() as u32);
    }

    /// How many literals are assigned at level 0 (fixed for the rest of the search).
    pub fn fixed(&self) -> usize {
        self.level_start.first().map_or(self.trail.len(), |&s| s as usize)
    }

    /// The decision literal of level `lv` (>= 1).
    pub fn decision(&self, lv: u32) -> Lit {
        self.trail[self.level_start[lv as usize - 1] as usize]
    }

    /// Removes every assignment above `lv`, then calls `undo` on each removed literal (latest
    /// first) with the assignment as it is after the backtrack.
    pub fn backtrack(&mut self, lv: u32, mut undo: impl FnMut(&Self, Lit)) {
        if lv >= self.decision_level() {
            return;
        }
        let keep = self.level_start[lv as usize] as usize;
        for i in keep..self.trail.len() {
            let l = self.trail[i];
            self.value[l.index()] = 0;
            self.value[(!l).index()] = 0;
        }
        for i in (keep..self.trail.len()).rev() {
            undo(self, self.trail[i]);
        }
        self.trail.truncate(keep);
        self.level_start.truncate(lv as usize);
    }

    pub fn check_invariants(&self) -> Result<(), String> {
        for (i, &l) in self.trail.iter().enumerate() {
            if self.value(l) != 1 || self.value(!l) != -1 || self.trail_pos[l.var() as usize] as usize != i {
                return Err(format!("trail entry {i} ({l:?}) inconsistent"));
            }
        }
        let assigned = self.value.iter().filter(|&&v| v == 1).count();
        if assigned != self.trail.len() {
            return Err("assigned literals not all on the trail".into());
        }
        let lv: Vec<u32> = self.trail.iter().map(|l| self.level[l.var() as usize]).collect();
        if lv.windows(2).any(|w| w[0] > w[1]) {
            return Err("levels decrease along the trail".into());
        }
        Ok(())
    }
}
