//! Deletion of learned nogoods, so long runs keep memory bounded: nogoods of LBD <= 2 ("glue")
//! stay; of the others, the half with the highest LBD (or lowest activity) goes, except those
//! that are the reason of a current assignment, those whose LBD an analysis lowered since the
//! last deletion to `--update-lbd`'s N or below (spared once), and under `--deletion=tiered`
//! those that took part in a conflict since the last deletion (of LBD up to `TIER2_LBD`: the
//! last two), as CaDiCaL keeps its used clauses; of the rest, three quarters go. A nogood that a
//! literal fixed at level 0 satisfies goes in any case (unless it is a reason).

use super::CpuEngine;
use crate::engine::assignment::Reason;
use crate::solve::config::Deletion;

impl CpuEngine {
    pub(super) fn reduce(&mut self) {
        if self.deletion == Deletion::No {
            return;
        }
        // Every protection ends with this deletion, whether or not it spares its nogood.
        let tiered = self.deletion == Deletion::Tiered;
        let spared: Vec<bool> = (0..self.db.learned.len())
            .map(|i| {
                let c = self.db.learned[i];
                // Both counts go down, whichever spares it.
                let protected = self.db.take_protection(c);
                let used = tiered && self.db.take_use(c);
                protected || used
            })
            .collect();
        let locked = |c: u32| {
            let l0 = self.db.lits(c)[0];
            self.a.is_false(l0) && self.a.reason[l0.var() as usize] == Reason::Nogood(c)
        };
        // A nogood with a literal false at level 0 never propagates again: it goes whatever its
        // LBD, as clasp's simplification drops it (a reason stays). Looked for only when level 0
        // has grown since the last deletion: those before had their look then.
        let a = &self.a;
        let grown = a.fixed() > self.fixed_at_reduce;
        let satisfied = |c: u32| {
            grown && self.db.lits(c).iter().any(|&l| a.is_false(l) && a.level[l.var() as usize] == 0)
        };
        let mut gone = Vec::new();
        let mut cands: Vec<u32> = Vec::new();
        for (c, spared) in self.db.learned.iter().copied().zip(spared) {
            if locked(c) {
                continue;
            }
            if satisfied(c) {
                gone.push(c);
            } else if !spared && self.db.lbd(c) > 2 {
                cands.push(c);
            }
        }
        match self.deletion {
            Deletion::Lbd | Deletion::Tiered => cands.sort_by(|&x, &y| {
                self.db.lbd(y).cmp(&self.db.lbd(x)).then(self.db.activity(x).total_cmp(&self.db.activity(y)))
            }),
            _ => cands.sort_by(|&x, &y| self.db.activity(x).total_cmp(&self.db.activity(y))),
        }
        // Tiered: the used ones are not candidates, so more of the rest go (CaDiCaL's 75 %).
        let n = if tiered { cands.len() * 3 / 4 } else { cands.len() / 2 };
        for &c in cands[..n].iter().chain(&gone) {
            self.db.delete(c);
        }
        self.stats.deleted += (n + gone.len()) as u64;
        self.fixed_at_reduce = self.a.fixed();
        if let Some(b) = &mut self.berk {
            b.reset();
        }
        let (trail, reason) = (&self.a.trail, &mut self.a.reason);
        self.db.collect(|map| {
            for l in trail.iter() {
                if let Reason::Nogood(c) = reason[l.var() as usize] {
                    reason[l.var() as usize] = Reason::Nogood(map(c).expect("reasons are never deleted"));
                }
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Engine;
    use crate::nogoods::Lit;
    use crate::solve::config::{Decisions, SearchOptions};

    /// `{a; b; c; d}.` with two learned nogoods: once `a` is false at level 0, `{a, b, c}` goes
    /// at the next deletion though its LBD is 2; `{b, c, d}`, the only candidate, is the half
    /// that stays.
    #[test]
    fn a_nogood_satisfied_at_level_0_goes_whatever_its_lbd() {
        let opts = SearchOptions { decisions: Decisions::Vars, ..Default::default() };
        let mut e = CpuEngine::for_aspif("asp 1 0 0\n1 1 4 1 2 3 4 0 0\n0\n", 0, &opts);
        assert!(e.propagate().unwrap());
        let (a, b, c, d) = (Lit::pos(1), Lit::pos(2), Lit::pos(3), Lit::pos(4));
        assert!(e.add_external_nogood(&[a, b, c], Some(2)));
        assert!(e.add_external_nogood(&[b, c, d], Some(5)));
        assert!(e.add_external_nogood(&[a], None));
        assert!(e.propagate().unwrap());
        assert!(e.a.is_false(a) && e.a.level[1] == 0);
        e.reduce();
        let left: Vec<Vec<Lit>> = e.db.learned_nogoods().map(|(l, _)| l.to_vec()).collect();
        assert_eq!(left, vec![vec![b, c, d]]);
        assert_eq!(e.stats.deleted, 1);
    }
}
