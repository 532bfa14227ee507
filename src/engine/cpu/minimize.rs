//! The cost bound of branch and bound: lexicographic levels, highest priority first.
//!
//! With a bound `B` set, a model must cost less than `B` (strict) or at most `B`. Sums of the true
//! literals per level are lower bounds of the final cost (weights are positive), so the first
//! level where the sum differs from the bound decides: a sum above the bound (with all higher
//! levels equal) is a conflict; at a level equal to the bound every further literal is forced
//! false and the next level is checked; at the first level below the bound, literals that would
//! overshoot it are forced false.

use crate::engine::assignment::{Assignment, Reason};
use crate::nogoods::{CostLevels, Csr, Lit};
use crate::stop::{Interrupted, StopToken};

pub struct CostProp {
    /// Per literal index: (level, weight) pairs of cost literals.
    occ: Csr<(u32, i64)>,
    sum: Vec<i64>,
    bound: Option<Vec<i64>>,
    strict: bool,
    pub dirty: bool,
}

impl CostProp {
    /// The occurrence index of the cost literals, polling `stop`.
    pub fn new_until(costs: &CostLevels, num_vars: u32, stop: &StopToken) -> Result<Self, Interrupted> {
        let pairs = (0..costs.len()).flat_map(|lv| {
            costs.range(lv).map(move |i| (costs.lits[i].index(), (lv as u32, costs.weights[i])))
        });
        let occ = Csr::from_pairs_until(2 * num_vars as usize, pairs, stop)?;
        Ok(CostProp { occ, sum: vec![0; costs.len()], bound: None, strict: true, dirty: false })
    }

    pub fn has_occurrences(&self, l: Lit) -> bool {
        !self.occ.get(l.index()).is_empty()
    }

    pub fn on_assign(&mut self, l: Lit) {
        for &(lv, w) in self.occ.get(l.index()) {
            self.sum[lv as usize] += w;
        }
        if self.bound.is_some() && !self.occ.get(l.index()).is_empty() {
            self.dirty = true;
        }
    }

    pub fn on_unassign(&mut self, l: Lit) {
        for &(lv, w) in self.occ.get(l.index()) {
            self.sum[lv as usize] -= w;
        }
    }

    /// The bound set last, and whether it is strict.
    pub fn bound(&self) -> (Option<Vec<i64>>, bool) {
        (self.bound.clone(), self.strict)
    }

    /// Sets the bound (costs without offsets); `strict` asks for strictly better models.
    pub fn set_bound(&mut self, bound: Option<Vec<i64>>, strict: bool) {
        self.bound = bound;
        self.strict = strict;
        self.dirty = true;
    }

    /// Checks the bound; on a conflict returns the number of levels involved.
    pub fn propagate(
        &mut self,
        costs: &CostLevels,
        a: &mut Assignment,
        assigned: &mut Vec<Lit>,
    ) -> Result<(), usize> {
        self.dirty = false;
        let Some(bound) = &self.bound else {
            return Ok(());
        };
        let last = costs.len().saturating_sub(1);
        for (lv, (&s, &b)) in self.sum.iter().zip(bound).enumerate() {
            let equal_is_bad = self.strict && lv == last;
            if s > b || (s == b && equal_is_bad) {
                return Err(lv + 1);
            }
            // Literals whose weight would make this level too expensive.
            let limit = if s < b { if equal_is_bad { b - s - 1 } else { b - s } } else { 0 };
            for i in costs.range(lv) {
                let l = costs.lits[i];
                if costs.weights[i] > limit && a.value(l) == 0 {
                    a.assign(!l, Reason::Cost);
                    assigned.push(!l);
                }
            }
            if s < b {
                break;
            }
        }
        Ok(())
    }

    /// The true cost literals of the first `levels` levels assigned before `before` (or all).
    pub fn explain(
        &self,
        costs: &CostLevels,
        a: &Assignment,
        levels: usize,
        before: Option<u32>,
        out: &mut Vec<Lit>,
    ) {
        for lv in 0..levels.min(costs.len()) {
            for i in costs.range(lv) {
                let l = costs.lits[i];
                if a.is_true(l) && before.is_none_or(|b| a.trail_pos[l.var() as usize] < b) {
                    out.push(l);
                }
            }
        }
    }

    /// How many levels the propagation of `p` depended on: up to the level `p` belongs to.
    pub fn levels_for(&self, costs: &CostLevels, p: Lit) -> usize {
        self.occ.get((!p).index()).iter().map(|&(lv, _)| lv as usize + 1).max().unwrap_or(costs.len())
    }
}
