//! The CPU engine as the search loop sees it: the [`Engine`] trait over the engine's parts
//! (propagation, analysis, decisions, backtracking enumeration, deletion, extension).

use super::CpuEngine;
use crate::engine::assignment::Reason;
use crate::engine::{Completion, Engine, EngineResult, EngineStats};
use crate::nogoods::{Lit, Problem};
use crate::solve::config::Learning;
use crate::stop::{Interrupted, StopToken};
use std::sync::Arc;

impl Engine for CpuEngine {
    fn name(&self) -> &'static str {
        "cpu"
    }

    fn propagate(&mut self) -> EngineResult<bool> {
        if !self.conflict.is_empty() {
            return Ok(false);
        }
        Ok(self.propagate_all() && self.look_ahead())
    }

    fn decision_level(&self) -> u32 {
        self.a.decision_level()
    }

    fn resolve_conflict(&mut self) -> EngineResult<bool> {
        // The conflict may be empty: the cost bound violated by the fixed cost alone (no true
        // cost literal, as after the optimum's strict bound). Its level is 0: no answer set.
        self.stats.conflicts += 1;
        self.last_lbd = None;
        if self.unsat {
            return Ok(false);
        }
        if self.floor > 0 {
            let lv = self.conflict.iter().map(|l| self.a.level[l.var() as usize]).max().unwrap_or(0);
            if lv <= self.floor {
                // Nothing below the conflict's level is left: backtrack from there.
                self.conflict.clear();
                self.undo_to(lv);
                self.floor = lv;
                self.unsat = lv == 0;
                return Ok(false);
            }
        }
        let ok = match self.learning {
            Learning::Res => self.learn_resolution(),
            Learning::Fwd => self.learn_forward(),
        };
        self.conflict.clear();
        if !ok {
            self.unsat = true;
        }
        Ok(ok)
    }

    fn decide(&mut self) -> EngineResult<Option<Lit>> {
        while let Some(&v) = self.project_order.get(self.project_next) {
            if self.a.is_unassigned(v) {
                self.decide_lit(Lit::neg(v));
                return Ok(Some(Lit::neg(v)));
            }
            self.project_next += 1;
        }
        let random = self.dec.random_pick(&self.p, &self.a);
        let picked = random.or_else(|| self.look_pick()).or_else(|| self.berkmin_pick());
        let Some(l) = picked.or_else(|| self.dec.pick(&self.p, &self.a)) else { return Ok(None) };
        self.decide_lit(l);
        Ok(Some(l))
    }

    fn may_fail(&self) -> bool {
        false
    }

    fn complete(&mut self) -> EngineResult<Completion> {
        Ok(self.complete_assignment())
    }

    fn assume(&mut self, l: Lit) -> EngineResult<()> {
        debug_assert!(self.a.is_unassigned(l.var()), "an assumption already assigned");
        self.decide_lit(l);
        Ok(())
    }

    fn atom_values(&self, out: &mut Vec<bool>) -> EngineResult<()> {
        if self.p.eliminated.is_empty() {
            self.a.true_vars(self.p.num_atoms as usize + 1, out);
        } else {
            // The nogoods `--sat-prepro` removed decide the values of the variables they name.
            self.a.true_vars(self.p.num_vars as usize, out);
            self.p.eliminated.extend(out);
            out.truncate(self.p.num_atoms as usize + 1);
        }
        Ok(())
    }

    fn lit_value(&self, l: Lit) -> EngineResult<Option<bool>> {
        Ok(self.value(l))
    }

    fn fixed_value(&self, l: Lit) -> EngineResult<Option<bool>> {
        Ok(self.value(l).filter(|_| self.a.level[l.var() as usize] == 0))
    }

    fn decisions(&self) -> EngineResult<Vec<Lit>> {
        Ok((1..=self.a.decision_level()).map(|lv| self.a.decision(lv)).collect())
    }

    fn add_nogood(&mut self, lits: &[Lit]) -> EngineResult<bool> {
        Ok(self.add_external_nogood(lits, None))
    }

    fn take_exports(&mut self, out: &mut Vec<(Vec<Lit>, u32)>) {
        self.export_loops();
        out.append(&mut self.exports);
    }

    fn import(&mut self, lits: &[Lit], lbd: u32) -> EngineResult<bool> {
        Ok(self.add_external_nogood(lits, Some(lbd)))
    }

    fn tells_lbd(&self) -> bool {
        true
    }

    fn last_lbd(&self) -> Option<u32> {
        self.last_lbd
    }

    fn set_cost_bound(&mut self, bound: Option<Vec<i64>>, strict: bool) -> EngineResult<()> {
        self.cost.set_bound(bound, strict);
        Ok(())
    }

    fn restart(&mut self) -> EngineResult<()> {
        self.stats.restarts += 1;
        self.backjump(0);
        self.dec.reset_parking();
        self.alternate();
        Ok(())
    }

    fn keep_levels(&mut self, level: u32) -> EngineResult<()> {
        if level == 0 {
            return self.restart();
        }
        self.backjump(level);
        Ok(())
    }

    /// Backtracking needs 1-UIP learning: forward learning's nogoods name the decisions of the
    /// levels a conflict depends on, not the flipped literals among them.
    fn can_backtrack(&self) -> bool {
        self.learning == Learning::Res
    }

    fn backtrack(&mut self) -> EngineResult<bool> {
        // Flipped at level 0, a decision would be left out of what is learned: only a search of
        // its own, which shares nothing, may do that.
        debug_assert!(self.can_backtrack() && self.conflict.is_empty());
        debug_assert!(self.share.is_none() || self.part_root.is_some());
        let mut top = self.a.decision_level();
        let lowest = self.part_root.map_or(1, |k| k + 2);
        // Projective: the deepest decision on a projected variable (those come first).
        while !self.projected.is_empty()
            && top >= lowest
            && !self.projected[self.a.decision(top).var() as usize]
        {
            top -= 1;
        }
        if self.unsat || top < lowest {
            self.unsat |= self.part_root.is_none();
            return Ok(false);
        }
        let d = self.a.decision(top);
        self.floor = top - 1;
        self.undo_to(self.floor);
        self.a.assign(!d, Reason::Decision);
        Ok(true)
    }

    fn flipped_at(&self, level: u32) -> EngineResult<Vec<Lit>> {
        if level == 0 || level > self.a.decision_level() {
            return Ok(Vec::new());
        }
        let from = self.a.level_start[level as usize - 1] as usize + 1;
        let to = self.a.level_start.get(level as usize).map_or(self.a.trail.len(), |&t| t as usize);
        let flipped = |l: &&Lit| matches!(self.a.reason[l.var() as usize], Reason::Decision);
        Ok(self.a.trail[from..to].iter().filter(flipped).copied().collect())
    }

    fn project_first(&mut self, vars: &[u32]) {
        self.projected = vec![false; self.a.num_vars()];
        self.project_order.clear();
        for &v in vars {
            if (v as usize) < self.projected.len() && !self.projected[v as usize] {
                self.projected[v as usize] = true;
                self.project_order.push(v);
            }
        }
        self.project_next = 0;
    }

    fn set_part_root(&mut self, root: Option<u32>) {
        self.part_root = root;
        self.floor = root.map_or(0, |k| self.floor.max(k));
    }

    fn core(&mut self, failed: Lit) -> EngineResult<Vec<Lit>> {
        Ok(self.core_of(failed))
    }

    fn extend(&mut self, p: Arc<Problem>, stop: &StopToken) -> EngineResult<bool> {
        match self.extended(p, stop) {
            Ok(e) => {
                *self = e;
                Ok(true)
            }
            Err(Interrupted(_)) => Ok(false),
        }
    }

    fn reduce_learned(&mut self) {
        self.reduce();
    }

    fn learned_count(&self) -> usize {
        self.db.learned_count()
    }

    fn stats(&mut self) -> EngineStats {
        let mut s = self.stats.clone();
        s.unfounded_sets = self.ufs.found;
        s
    }
}
