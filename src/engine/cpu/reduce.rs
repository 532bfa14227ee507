//! Deletion of learned nogoods, so long runs keep memory bounded: nogoods of LBD <= 2 ("glue")
//! stay; of the others, the half with the highest LBD (or lowest activity) goes, except those
//! that are the reason of a current assignment, those whose LBD an analysis lowered since the
//! last deletion to `--update-lbd`'s N or below (spared once), and under `--deletion=tiered`
//! those that took part in a conflict since the last deletion (of LBD up to `TIER2_LBD`: the
//! last two), as CaDiCaL keeps its used clauses; of the rest, three quarters go.

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
        let mut cands: Vec<u32> = (self.db.learned.iter().copied().zip(spared))
            .filter(|&(c, spared)| !spared && self.db.lbd(c) > 2 && !locked(c))
            .map(|(c, _)| c)
            .collect();
        match self.deletion {
            Deletion::Lbd | Deletion::Tiered => cands.sort_by(|&x, &y| {
                self.db.lbd(y).cmp(&self.db.lbd(x)).then(self.db.activity(x).total_cmp(&self.db.activity(y)))
            }),
            _ => cands.sort_by(|&x, &y| self.db.activity(x).total_cmp(&self.db.activity(y))),
        }
        // Tiered: the used ones are not candidates, so more of the rest go (CaDiCaL's 75 %).
        let n = if tiered { cands.len() * 3 / 4 } else { cands.len() / 2 };
        for &c in &cands[..n] {
            self.db.delete(c);
        }
        self.stats.deleted += n as u64;
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
