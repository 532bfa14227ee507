//! BerkMin's decisions (Goldberg and Novikov; clasp's `--heuristic=Berkmin,512`): the next
//! decision satisfies the newest learned nogood that is still open, so that the search stays on
//! the conflicts it has just learned from.
//!
//! A learned nogood is *open* while none of its literals is false (satisfied, in clause terms,
//! once one is). Among the newest [`WINDOW`] learned nogoods the newest open one gives the
//! decision: its unassigned variable of highest activity, with the value its occurrences in
//! learned nogoods favour (the value that falsifies more of them; a saved value first, as clasp
//! decides). Where none is open, the activity heap decides as usual.
//!
//! Invariant: every learned nogood at an index of `CpuEngine::db.learned` at or above `top` has a
//! false literal under the current assignment. A nogood with a false literal keeps it until a
//! backtrack, and a new learned nogood comes with a backjump, so `top` is reset on each of those
//! (and on deletion, which renumbers the list).

use super::CpuEngine;
use crate::nogoods::{Lit, Var};

/// How many of the newest learned nogoods are looked at (clasp's `Berkmin,512`).
const WINDOW: usize = crate::solve::config::BERKMIN_WINDOW as usize;

pub(super) struct Berkmin {
    /// Per variable: its occurrences in learned nogoods as `F v` less those as `T v` (clasp's
    /// `occ`, in clause terms its positive less its negative occurrences).
    occ: Vec<i32>,
    /// The learned list's index below which the open nogood is sought (see the invariant).
    top: usize,
}

impl Berkmin {
    pub(super) fn new(num_vars: usize) -> Self {
        Berkmin { occ: vec![0; num_vars], top: usize::MAX }
    }

    /// A nogood was learned (or taken from another search): its literals' occurrences count.
    pub(super) fn on_learned(&mut self, ng: &[Lit]) {
        for l in ng {
            if let Some(o) = self.occ.get_mut(l.var() as usize) {
                *o += if l.is_pos() { -1 } else { 1 };
            }
        }
        self.top = usize::MAX;
    }

    /// A backtrack or a deletion: nogoods above `top` may be open again, or renumbered.
    pub(super) fn reset(&mut self) {
        self.top = usize::MAX;
    }
}

impl CpuEngine {
    /// BerkMin's decision, where one of the newest learned nogoods is open.
    pub(super) fn berkmin_pick(&mut self) -> Option<Lit> {
        let berk = self.berk.as_mut().filter(|_| self.dec.on_variables())?;
        let learned = &self.db.learned;
        let mut top = berk.top.min(learned.len());
        let stop = top.saturating_sub(WINDOW);
        let mut best: Option<Var> = None;
        while top > stop {
            let lits = self.db.lits(learned[top - 1]);
            if !lits.iter().any(|&l| self.a.is_false(l)) {
                let act = &self.dec.activity;
                best = lits
                    .iter()
                    .map(|l| l.var())
                    .filter(|&v| self.a.is_unassigned(v) && self.dec.may_decide(v))
                    .max_by(|&x, &y| act[x as usize].total_cmp(&act[y as usize]).then(y.cmp(&x)));
                if best.is_some() {
                    break;
                }
            }
            top -= 1;
        }
        berk.top = top;
        best.map(|v| self.dec.decide_with_occurrences(v, berk.occ[v as usize]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Engine;
    use crate::engine::assignment::Reason;
    use crate::solve::config::{Decisions, Heuristic, SearchOptions};

    /// A learned nogood names the decision's variable; once it has a false literal, the older
    /// open one does.
    #[test]
    fn the_newest_open_learned_nogood_gives_the_decision() {
        // `{a; b; c; d}.`: atoms 1 to 4 are variables 1 to 4.
        let text = "asp 1 0 0\n1 1 4 1 2 3 4 0 0\n0\n";
        let opts =
            SearchOptions { heuristic: Heuristic::Berkmin, decisions: Decisions::Vars, ..Default::default() };
        let mut e = CpuEngine::for_aspif(text, 3, &opts);
        assert!(e.propagate().unwrap());
        let (a, b, c) = (1, 2, 3);
        // {T a, F b} learned first, {T b, T c} after: the newer is open, so `b` or `c` is decided.
        for ng in [vec![Lit::pos(a), Lit::neg(b)], vec![Lit::pos(b), Lit::pos(c)]] {
            e.store(&ng, true, 2);
        }
        let l = e.berkmin_pick().expect("an open nogood");
        assert!([b, c].contains(&l.var()), "{l:?} from the newest open nogood");
        // With `c` false the newer one is satisfied: the older one gives the decision.
        e.a.new_level();
        e.a.assign(Lit::neg(c), Reason::Decision);
        e.berk.as_mut().unwrap().reset();
        let l = e.berkmin_pick().expect("the older nogood is open");
        assert!([a, b].contains(&l.var()), "{l:?}");
        // `a` occurs only as `T a`: decided false, which satisfies the nogood.
        if l.var() == a {
            assert_eq!(l, Lit::neg(a));
        }
        // Both satisfied: none is open.
        e.a.new_level();
        e.a.assign(Lit::neg(a), Reason::Decision);
        e.berk.as_mut().unwrap().reset();
        assert_eq!(e.berkmin_pick(), None);
    }
}
