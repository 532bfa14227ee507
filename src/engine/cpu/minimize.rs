//! The cost bound of branch and bound: lexicographic levels, highest priority first.
//!
//! With a bound `B` set, a model must cost less than `B` (strict) or at most `B`. Sums of the true
//! literals per level are lower bounds of the final cost (weights are positive), so the first
//! level where the sum differs from the bound decides: a sum above the bound (with all higher
//! levels equal) is a conflict; at a level equal to the bound every further literal is forced
//! false and the next level is checked; at the first level below the bound, literals that would
//! overshoot it are forced false.
//!
//! The work follows the change, as clasp's minimize constraint: each level's literals are kept
//! heaviest first, with a front before which every literal is assigned, so a propagation visits
//! only the literals it forces and those assigned since; the true literals of each level are kept
//! in the order they were counted, so an explanation reads only the literals it names.

use crate::engine::assignment::{Assignment, Reason};
use crate::nogoods::{CostLevels, Csr, Lit};
use crate::stop::{Interrupted, StopToken};

pub struct CostProp {
    /// Per literal index: (level, position in that level's `order`) of each occurrence.
    occ: Csr<(u32, u32)>,
    /// Per level: its literals with their weights, heaviest first.
    order: Vec<Vec<(Lit, i64)>>,
    /// Per level: every literal of `order[lv][..front[lv]]` is assigned (a literal unassigned
    /// lowers the front to its position).
    front: Vec<usize>,
    /// Per level: the literals counted in `sum`, in the order they were counted (the trail's).
    counted: Vec<Vec<Lit>>,
    sum: Vec<i64>,
    bound: Option<Vec<i64>>,
    strict: bool,
    pub dirty: bool,
}

impl CostProp {
    /// The occurrence index of the cost literals, polling `stop`.
    pub fn new_until(costs: &CostLevels, num_vars: u32, stop: &StopToken) -> Result<Self, Interrupted> {
        let order: Vec<Vec<(Lit, i64)>> = (0..costs.len())
            .map(|lv| {
                let mut o: Vec<(Lit, i64)> =
                    costs.range(lv).map(|i| (costs.lits[i], costs.weights[i])).collect();
                o.sort_by_key(|&(_, w)| std::cmp::Reverse(w));
                o
            })
            .collect();
        let pairs = order.iter().enumerate().flat_map(|(lv, o)| {
            o.iter().enumerate().map(move |(k, &(l, _))| (l.index(), (lv as u32, k as u32)))
        });
        let occ = Csr::from_pairs_until(2 * num_vars as usize, pairs, stop)?;
        Ok(CostProp {
            occ,
            front: vec![0; order.len()],
            counted: vec![Vec::new(); order.len()],
            order,
            sum: vec![0; costs.len()],
            bound: None,
            strict: true,
            dirty: false,
        })
    }

    pub fn has_occurrences(&self, l: Lit) -> bool {
        !self.occ.get(l.index()).is_empty()
    }

    /// A true literal is propagated: it counts from now on.
    pub fn on_assign(&mut self, l: Lit) {
        for &(lv, k) in self.occ.get(l.index()) {
            self.sum[lv as usize] += self.order[lv as usize][k as usize].1;
            self.counted[lv as usize].push(l);
        }
        if self.bound.is_some() && !self.occ.get(l.index()).is_empty() {
            self.dirty = true;
        }
    }

    /// A literal becomes unassigned, in reverse trail order; `counted` if it was propagated.
    pub fn on_unassign(&mut self, l: Lit, counted: bool) {
        for &(lv, k) in self.occ.get(l.index()).iter().chain(self.occ.get((!l).index())) {
            let lv = lv as usize;
            self.front[lv] = self.front[lv].min(k as usize);
        }
        if counted {
            for &(lv, k) in self.occ.get(l.index()) {
                let lv = lv as usize;
                self.sum[lv] -= self.order[lv][k as usize].1;
                let last = self.counted[lv].pop();
                debug_assert_eq!(last, Some(l), "cost literals uncounted out of trail order");
            }
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
    pub fn propagate(&mut self, a: &mut Assignment, assigned: &mut Vec<Lit>) -> Result<(), usize> {
        self.dirty = false;
        let Some(bound) = &self.bound else {
            return Ok(());
        };
        debug_assert!(self.fronts_assigned(a), "a cost literal before its level's front is unassigned");
        let last = self.sum.len().saturating_sub(1);
        for (lv, (&s, &b)) in self.sum.iter().zip(bound).enumerate() {
            let equal_is_bad = self.strict && lv == last;
            if s > b || (s == b && equal_is_bad) {
                return Err(lv + 1);
            }
            // Literals whose weight would make this level too expensive, heaviest first.
            let limit = if s < b { if equal_is_bad { b - s - 1 } else { b - s } } else { 0 };
            let order = &self.order[lv];
            let front = &mut self.front[lv];
            while let Some(&(l, w)) = order.get(*front) {
                if a.value(l) == 0 {
                    if w <= limit {
                        break;
                    }
                    a.assign(!l, Reason::Cost);
                    assigned.push(!l);
                }
                *front += 1;
            }
            if s < b {
                break;
            }
        }
        Ok(())
    }

    fn fronts_assigned(&self, a: &Assignment) -> bool {
        self.order.iter().zip(&self.front).all(|(o, &f)| o[..f].iter().all(|&(l, _)| a.value(l) != 0))
    }

    /// The counted cost literals of the first `levels` levels assigned before `before` (or all).
    pub fn explain(&self, a: &Assignment, levels: usize, before: Option<u32>, out: &mut Vec<Lit>) {
        for counted in self.counted.iter().take(levels) {
            let earlier = |l: &&Lit| before.is_none_or(|b| a.trail_pos[l.var() as usize] < b);
            out.extend(counted.iter().take_while(earlier));
        }
    }

    /// How many levels the propagation of `p` depended on: up to the level `p` belongs to.
    pub fn levels_for(&self, p: Lit) -> usize {
        self.occ.get((!p).index()).iter().map(|&(lv, _)| lv as usize + 1).max().unwrap_or(self.sum.len())
    }
}

#[cfg(test)]
mod tests {
    use super::CostProp;
    use crate::engine::assignment::{Assignment, Reason};
    use crate::nogoods::{CostLevels, Lit};
    use crate::stop::StopToken;

    /// One level: variables 0..4 with weights 1, 5, 3, 5.
    fn one_level() -> (CostLevels, CostProp, Assignment) {
        let costs = CostLevels {
            priorities: vec![0],
            offset: vec![0],
            start: vec![0, 4],
            lits: (0..4).map(Lit::pos).collect(),
            weights: vec![1, 5, 3, 5],
        };
        let cp = CostProp::new_until(&costs, 4, &StopToken::never()).expect("not stopped");
        (costs, cp, Assignment::new(4))
    }

    fn make_true(cp: &mut CostProp, a: &mut Assignment, v: u32) {
        a.new_level();
        a.assign(Lit::pos(v), Reason::Decision);
        cp.on_assign(Lit::pos(v));
    }

    #[test]
    fn forces_only_what_would_overshoot_and_again_after_a_backtrack() {
        let (_, mut cp, mut a) = one_level();
        cp.set_bound(Some(vec![8]), true);
        make_true(&mut cp, &mut a, 2); // 3 of a bound below 8: weight 5 would reach 8
        let mut forced = Vec::new();
        cp.propagate(&mut a, &mut forced).expect("no conflict");
        assert_eq!(forced, vec![Lit::neg(1), Lit::neg(3)]);
        assert!(a.value(Lit::pos(0)) == 0, "weight 1 still fits");
        // Undo all (only the decision, first on the trail, was counted): the front goes back, and
        // the same literals are forced again.
        let mut k = a.trail.len();
        a.backtrack(0, |_, l| {
            k -= 1;
            cp.on_unassign(l, k == 0);
        });
        make_true(&mut cp, &mut a, 0);
        forced.clear();
        cp.propagate(&mut a, &mut forced).expect("no conflict");
        assert!(forced.is_empty(), "1 of 8: every weight fits");
        make_true(&mut cp, &mut a, 2);
        cp.propagate(&mut a, &mut forced).expect("no conflict");
        assert_eq!(forced, vec![Lit::neg(1), Lit::neg(3)]);
    }

    #[test]
    fn a_sum_at_the_strict_bound_is_a_conflict_explained_by_the_counted_literals() {
        let (_, mut cp, mut a) = one_level();
        cp.set_bound(Some(vec![6]), true);
        make_true(&mut cp, &mut a, 0);
        make_true(&mut cp, &mut a, 1);
        assert_eq!(cp.propagate(&mut a, &mut Vec::new()), Err(1));
        let mut why = Vec::new();
        cp.explain(&a, 1, None, &mut why);
        assert_eq!(why, vec![Lit::pos(0), Lit::pos(1)]);
        why.clear();
        cp.explain(&a, 1, Some(a.trail_pos[1]), &mut why);
        assert_eq!(why, vec![Lit::pos(0)], "only what was counted before");
        assert_eq!(cp.levels_for(Lit::neg(3)), 1);
    }
}
