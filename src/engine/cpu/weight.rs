//! Native propagation of weight constraints `W <-> sum(w_i * [l_i]) >= bound`.
//!
//! Each constraint keeps the summed weight of its true and of its false literals, updated when a
//! literal is assigned and reverted when it is unassigned. With `max = total - false_sum`:
//! `true_sum >= bound` forces `W`, `max < bound` forces `not W`; under `W` every unassigned literal
//! heavier than `max - bound` is forced true, under `not W` every one heavier than
//! `bound - 1 - true_sum` is forced false. Literals are sorted heaviest first, so each scan stops
//! at the first literal that fits. Reasons are computed lazily from trail positions: the earliest
//! literals that justify the implication.

use crate::engine::assignment::{Assignment, Reason};
use crate::nogoods::{Csr, Lit, WeightConstraints};
use crate::stop::{Interrupted, StopToken};

#[derive(Clone, Copy, Default)]
struct Occ {
    c: u32,
    /// Member position * 2 + 1 if the member became false, or `HEAD_TRUE`/`HEAD_FALSE`.
    tag: u32,
}

const HEAD_TRUE: u32 = u32::MAX;
const HEAD_FALSE: u32 = u32::MAX - 1;

/// A violated constraint: which way it failed.
#[derive(Clone, Copy, Debug)]
pub enum WeightConflict {
    /// `W` is false but the true literals reach the bound.
    TooMany(u32),
    /// `W` is true but the bound can no longer be reached.
    TooFew(u32),
}

pub struct WeightProp {
    occ: Csr<Occ>,
    true_sum: Vec<i64>,
    false_sum: Vec<i64>,
    total: Vec<i64>,
    /// Scratch of `pick` (explanations come during conflict analysis, many a conflict): the
    /// candidate members, kept so that an explanation allocates nothing.
    cands: std::cell::RefCell<Vec<(u32, Lit, i64)>>,
}

impl WeightProp {
    /// The occurrence index and sums of `w`, polling `stop` (millions of members take a while).
    pub fn new_until(w: &WeightConstraints, num_vars: u32, stop: &StopToken) -> Result<Self, Interrupted> {
        let pairs = (0..w.len()).flat_map(move |c| {
            let members = w.range(c).enumerate().flat_map(move |(i, j)| {
                let (l, i) = (w.lits[j], i as u32);
                [
                    (l.index(), Occ { c: c as u32, tag: i << 1 }),
                    ((!l).index(), Occ { c: c as u32, tag: (i << 1) | 1 }),
                ]
            });
            let head = w.lit[c];
            members.chain([
                (head.index(), Occ { c: c as u32, tag: HEAD_TRUE }),
                ((!head).index(), Occ { c: c as u32, tag: HEAD_FALSE }),
            ])
        });
        let occ = Csr::from_pairs_until(2 * num_vars as usize, pairs, stop)?;
        let total = (0..w.len()).map(|c| w.total(c)).collect();
        Ok(WeightProp {
            occ,
            true_sum: vec![0; w.len()],
            false_sum: vec![0; w.len()],
            total,
            cands: Default::default(),
        })
    }

    /// Counts `l` (just assigned true) in the sums.
    #[inline]
    pub fn on_assign(&mut self, w: &WeightConstraints, l: Lit) {
        for o in self.occ.get(l.index()) {
            if o.tag < HEAD_FALSE {
                let c = o.c as usize;
                let wt = w.weights[w.start[c] as usize + (o.tag >> 1) as usize];
                if o.tag & 1 == 0 { self.true_sum[c] += wt } else { self.false_sum[c] += wt }
            }
        }
    }

    #[inline]
    pub fn on_unassign(&mut self, w: &WeightConstraints, l: Lit) {
        for o in self.occ.get(l.index()) {
            if o.tag < HEAD_FALSE {
                let c = o.c as usize;
                let wt = w.weights[w.start[c] as usize + (o.tag >> 1) as usize];
                if o.tag & 1 == 0 { self.true_sum[c] -= wt } else { self.false_sum[c] -= wt }
            }
        }
    }

    pub fn has_occurrences(&self, l: Lit) -> bool {
        !self.occ.get(l.index()).is_empty()
    }

    /// Propagates the constraints `l` (true, already counted) occurs in.
    pub fn propagate(
        &self,
        w: &WeightConstraints,
        a: &mut Assignment,
        l: Lit,
        assigned: &mut Vec<Lit>,
    ) -> Result<(), WeightConflict> {
        for o in self.occ.get(l.index()) {
            let c = o.c as usize;
            let head = w.lit[c];
            let bound = w.bound[c];
            let ts = self.true_sum[c];
            let max = self.total[c] - self.false_sum[c];
            if ts >= bound {
                if a.is_false(head) {
                    return Err(WeightConflict::TooMany(o.c));
                }
                if !a.is_true(head) {
                    a.assign(head, Reason::Weight(o.c));
                    assigned.push(head);
                }
            }
            if max < bound {
                if a.is_true(head) {
                    return Err(WeightConflict::TooFew(o.c));
                }
                if !a.is_false(head) {
                    a.assign(!head, Reason::Weight(o.c));
                    assigned.push(!head);
                }
            }
            let r = w.range(c);
            // A member becoming true cannot force members under W; a member becoming false
            // cannot force members under not W.
            let scan_true = a.is_true(head) && (o.tag & 1 == 1 || o.tag == HEAD_TRUE);
            let scan_false = a.is_false(head) && (o.tag & 1 == 0 || o.tag == HEAD_FALSE);
            if scan_true {
                let slack = max - bound;
                if w.weights[r.start] > slack {
                    for i in r.clone() {
                        if w.weights[i] <= slack {
                            break;
                        }
                        let m = w.lits[i];
                        if a.value(m) == 0 {
                            a.assign(m, Reason::Weight(o.c));
                            assigned.push(m);
                        }
                    }
                }
            } else if scan_false {
                let room = bound - 1 - ts;
                if w.weights[r.start] > room {
                    for i in r.clone() {
                        if w.weights[i] <= room {
                            break;
                        }
                        let m = w.lits[i];
                        if a.value(m) == 0 {
                            a.assign(!m, Reason::Weight(o.c));
                            assigned.push(!m);
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// The true literals that made `p` (assigned by constraint `c`) true.
    pub fn explain(&self, w: &WeightConstraints, a: &Assignment, c: u32, p: Lit, out: &mut Vec<Lit>) {
        let c = c as usize;
        let head = w.lit[c];
        let before = a.trail_pos[p.var() as usize];
        let r = w.range(c);
        let (bound, total) = (w.bound[c], self.total[c]);
        // Which members count, and how much weight they must add up to.
        let (want_true, need, extra) = if p == head {
            (true, bound, None)
        } else if p == !head {
            (false, total - bound + 1, None)
        } else {
            // Under W a member was forced true; under not W one was forced false (a variable can
            // be a member with both signs, so the head tells which member it was).
            let forced_true = a.is_true(head);
            let member = if forced_true { p } else { !p };
            let i = r.clone().find(|&i| w.lits[i] == member).expect("member of its constraint");
            let wi = w.weights[i];
            if forced_true {
                (false, total - bound - wi + 1, Some(head))
            } else {
                (true, bound - wi, Some(!head))
            }
        };
        out.extend(extra);
        self.pick(w, a, r, want_true, need, Some(before), out);
    }

    /// The true literals of a violated constraint.
    pub fn explain_conflict(
        &self,
        w: &WeightConstraints,
        a: &Assignment,
        k: WeightConflict,
        out: &mut Vec<Lit>,
    ) {
        match k {
            WeightConflict::TooMany(c) => {
                let c = c as usize;
                out.push(!w.lit[c]);
                self.pick(w, a, w.range(c), true, w.bound[c], None, out);
            }
            WeightConflict::TooFew(c) => {
                let c = c as usize;
                out.push(w.lit[c]);
                self.pick(w, a, w.range(c), false, self.total[c] - w.bound[c] + 1, None, out);
            }
        }
    }

    /// Adds the earliest members that are true (`want_true`) or false, as true literals, until
    /// their weight reaches `need`.
    #[allow(clippy::too_many_arguments)]
    fn pick(
        &self,
        w: &WeightConstraints,
        a: &Assignment,
        r: std::ops::Range<usize>,
        want_true: bool,
        need: i64,
        before: Option<u32>,
        out: &mut Vec<Lit>,
    ) {
        if need <= 0 {
            return;
        }
        let mut cands = self.cands.borrow_mut();
        cands.clear();
        let before = before.unwrap_or(u32::MAX);
        for (&l, &wt) in w.lits[r.clone()].iter().zip(&w.weights[r]) {
            let m = if want_true { l } else { !l };
            if a.is_true(m) && a.trail_pos[m.var() as usize] < before {
                cands.push((a.trail_pos[m.var() as usize], m, wt));
            }
        }
        cands.sort_unstable_by_key(|c| c.0);
        let mut sum = 0;
        for &(_, m, wt) in cands.iter() {
            out.push(m);
            sum += wt;
            if sum >= need {
                return;
            }
        }
        debug_assert!(sum >= need, "weight reason does not justify the implication");
    }
}
