//! Decisions and completion for the CUDA engine: the decision propagate_fix_k ranked at its
//! fixpoint (applied with force_decision_k, no read-back) or, after host-driven rounds, by
//! decide_k; the whole-database check before a total assignment is accepted; and the completion's
//! fallbacks when no rule is applicable (the host's unfounded-set check from scratch, then an
//! unassigned atom decided false).

use super::args::{ApplyDecisionArgs, CheckNogoodsArgs, CheckWeightsArgs, DecideArgs, ForceDecisionArgs};
use super::device::DResult;
use super::launch::cfg;
use super::layout::{LEARNED_GROUPS, NO_CONFLICT, R_LEARNED, Tables, VAR_ENTRY};
use super::{CudaEngine, nogoods};
use crate::engine::Completion;
use crate::nogoods::Lit;

/// The host's side of the ranked decisions: the key of the decision propagate_fix_k ranked at the
/// fixpoint it reached (0: no candidate), and host copies of the decision entries (body, choice
/// head, or variable) and body literals, to turn a key into its literal.
/// Invariant: `ranked` is set only while nothing has changed since that fixpoint (every change
/// clears it), so [`CudaEngine::try_decide`] may apply it without a ranking launch; `e_body` and
/// `e_head` have `entries` entries, as the device's tables.
pub struct DecisionTables {
    pub ranked: Option<u64>,
    pub entries: u32,
    pub e_body: Vec<u32>,
    pub e_head: Vec<u32>,
    pub b_lit: Vec<u32>,
}

impl DecisionTables {
    pub fn new(t: &Tables) -> DecisionTables {
        DecisionTables {
            ranked: None,
            entries: t.e_body.len() as u32,
            e_body: t.e_body.clone(),
            e_head: t.e_head.clone(),
            b_lit: t.b_lit.clone(),
        }
    }

    /// The literal a ranked key (not 0) decides: its entry's body literal, its choice head, or
    /// (deciding on variables) its literal.
    fn lit_of(&self, key: u64) -> Lit {
        let e = (u32::MAX - key as u32) as usize;
        match (self.e_body[e], self.e_head[e]) {
            (VAR_ENTRY, l) => Lit(l),
            (b, NO_CONFLICT) => Lit(self.b_lit[b as usize]),
            (_, h) => Lit::pos(h),
        }
    }
}

impl CudaEngine {
    /// Runs the whole-database check (the safety net before accepting a total assignment).
    fn check_total(&mut self) -> DResult<bool> {
        let d = &mut self.dev;
        let n_input = self.p.store.len() as u32;
        if n_input > 0 {
            let args = CheckNogoodsArgs {
                val: &d.assignment.val,
                ctl: &mut d.assignment.ctl,
                start: &d.input.ng_start,
                lits: &d.input.ng_lits,
                count: n_input,
                kind: 2,
                group: 0,
            };
            d.gpu.launch(d.gpu.per_item(n_input as usize), args)?;
        }
        for g in 0..LEARNED_GROUPS {
            let count = d.groups[g].count;
            if count > 0 {
                let grp = &d.groups[g];
                let args = CheckNogoodsArgs {
                    val: &d.assignment.val,
                    ctl: &mut d.assignment.ctl,
                    start: &grp.start,
                    lits: &grp.lits,
                    count,
                    kind: R_LEARNED,
                    group: g as u32,
                };
                d.gpu.launch(d.gpu.per_item(count as usize), args)?;
            }
        }
        if d.weights.count > 0 {
            let db = d.db();
            let count = d.weights.count as u32;
            let args = CheckWeightsArgs { val: &d.assignment.val, ctl: &mut d.assignment.ctl, count, db };
            d.gpu.launch(d.gpu.per_item(d.weights.count), args)?;
        }
        self.mirror.ctl = d.read_ctl()?;
        Ok(self.mirror.ctl.conflict == NO_CONFLICT)
    }

    pub(super) fn try_decide(&mut self) -> DResult<Option<Lit>> {
        if let Some(key) = self.decisions.ranked.take() {
            if key == 0 {
                return Ok(None);
            }
            let lit = self.decisions.lit_of(key);
            self.force_decision(lit)?;
            log::trace!("decision {lit:?} at level {} (ranked at the fixpoint)", self.mirror.ctl.level);
            return Ok(Some(lit));
        }
        let lv = self.mirror.ctl.level + 1;
        self.dev.deps.ensure_level(&self.dev.gpu, lv, self.p.num_vars)?;
        let d = &mut self.dev;
        let entries = self.decisions.entries;
        let (a, t) = (&mut d.assignment, &d.decide);
        let args = DecideArgs {
            val: &a.val,
            ctl: &mut a.ctl,
            e_body: &t.e_body,
            e_head: &t.e_head,
            entries,
            b_lit: &t.b_lit,
            def_start: &t.def_start,
            def_lits: &t.def_lits,
            def_weights: &t.def_weights,
            bound: &t.bound,
            score: &t.score,
        };
        d.gpu.launch(d.gpu.per_item(entries as usize), args)?;
        let deps = d.deps.ptr(&d.gpu);
        let words = d.deps.words;
        let (a, t) = (&mut d.assignment, &d.decide);
        let args = ApplyDecisionArgs {
            ctl: &mut a.ctl,
            val: &mut a.val,
            trail: &mut a.trail,
            trail_pos: &mut a.trail_pos,
            reason: &mut a.reason,
            level_start: &mut a.level_start,
            e_body: &t.e_body,
            e_head: &t.e_head,
            b_lit: &t.b_lit,
            deps,
            words,
        };
        d.gpu.launch(cfg(1, 1), args)?;
        let c = d.read_ctl()?;
        if c.decided == NO_CONFLICT {
            return Ok(None);
        }
        self.mirror.level_start.push(self.mirror.ctl.trail_len);
        self.mirror.ctl = c;
        self.stats.decisions += 1;
        log::trace!("decision {:?} at level {} (trail {})", Lit(c.decided), c.level, c.trail_len);
        self.changed();
        Ok(Some(Lit(c.decided)))
    }

    pub(super) fn force_decision(&mut self, l: Lit) -> DResult<()> {
        let lv = self.mirror.ctl.level + 1;
        self.dev.deps.ensure_level(&self.dev.gpu, lv, self.p.num_vars)?;
        let d = &mut self.dev;
        let deps = d.deps.ptr(&d.gpu);
        let words = d.deps.words;
        let a = &mut d.assignment;
        let args = ForceDecisionArgs {
            ctl: &mut a.ctl,
            val: &mut a.val,
            trail: &mut a.trail,
            trail_pos: &mut a.trail_pos,
            reason: &mut a.reason,
            level_start: &mut a.level_start,
            lit: l.0,
            deps,
            words,
        };
        d.gpu.launch(cfg(1, 1), args)?;
        // The host mirror follows force_decision_k: no read-back.
        let m = &mut self.mirror;
        let pos = m.ctl.trail_len;
        m.level_start.push(pos);
        m.ctl.level += 1;
        m.ctl.trail_len = pos + 1;
        m.ctl.qhead = pos;
        m.ctl.qend = pos + 1;
        m.ctl.decided = l.0;
        self.stats.decisions += 1;
        self.changed();
        Ok(())
    }

    /// The host's unfounded-set check of the current assignment, from scratch (the safety net
    /// behind the eager check): loop nogoods for what it finds are added (true), or nothing is
    /// unfounded (false).
    fn add_unfounded_loops(&mut self) -> DResult<bool> {
        let val = &self.snapshot()?.0;
        let found = self.unfounded.loops.unfounded_nogoods(&self.p, |l| Self::value_in(val, l));
        if found.is_empty() {
            return Ok(false);
        }
        // Level 0: a literal false there satisfies the nogood for good; a true one is left out.
        let fixed = |l: Lit| Self::value_in(val, l).filter(|_| Self::level_in(val, l) == 0);
        let nogoods: Vec<Vec<Lit>> = found
            .into_iter()
            .filter(|ng| !ng.iter().any(|&l| fixed(l) == Some(false)))
            .map(|ng| ng.into_iter().filter(|&l| fixed(l).is_none()).collect())
            .collect();
        let violated = nogoods.iter().position(|ng| ng.iter().all(|&l| Self::value_in(val, l) == Some(true)));
        let level = |l: Lit| Self::value_in(val, l).map(|_| Self::level_in(val, l));
        let lbd: Vec<u32> = nogoods.iter().map(|ng| nogoods::lbd_of(ng, level)).collect();
        self.stats.unfounded_sets += 1;
        self.add_loop_nogoods(&nogoods, &lbd, violated, true)?;
        Ok(true)
    }

    pub(super) fn try_complete(&mut self) -> DResult<Completion> {
        let nv = self.p.num_vars;
        if self.mirror.ctl.trail_len == nv {
            if !self.check_total()? {
                log::debug!("the whole-database check found a missed conflict");
                self.mirror.conflict = true;
                return Ok(Completion::Falsified);
            }
            if !self.p.is_tight() && self.add_unfounded_loops()? {
                return Ok(Completion::Falsified);
            }
            return Ok(Completion::Total);
        }
        self.stats.completions += 1;
        if self.add_unfounded_loops()? {
            return Ok(Completion::Falsified);
        }
        let val = &self.snapshot()?.0;
        let v = (1..nv).find(|&v| val[v as usize] == 0).expect("not total");
        log::warn!("no applicable rule and no unfounded set; deciding F{v}");
        self.force_decision(Lit::neg(v))?;
        Ok(Completion::Decided)
    }
}
