//! Conflict analysis: 1-UIP resolution (Algorithm 3) and forward learning (Algorithm 4), and the
//! addition of learned and external nogoods.
//!
//! Post-condition of both schemes: the learned nogood's literal at position 0 is the one
//! asserted (its complement is assigned) at the backjump level, and position 1 holds a literal of
//! that level, so the nogood is correctly watched.

use super::CpuEngine;

/// Marks of variables during analysis: in the nogood (or proven redundant), or known not to be.
const SEEN: u8 = 1;
const POISON: u8 = 2;
use crate::engine::assignment::Reason;
use crate::nogoods::Lit;
use crate::solve::config::{Deletion, LbdUpdate, Strengthen, StrengthenAntes, TIER2_LBD};

/// Counts distinct decision levels (a nogood's LBD) without allocating: per level, the stamp of
/// the last count that saw it; the levels of one count carry that count's stamp, which no
/// earlier count used.
#[derive(Default)]
pub(super) struct Levels {
    stamps: Vec<u32>,
    stamp: u32,
}

impl Levels {
    /// Whether the last count saw level `lv` (a count stopped at its cap saw only some).
    pub(super) fn has(&self, lv: u32) -> bool {
        self.stamps.get(lv as usize) == Some(&self.stamp)
    }

    /// The number of distinct `levels`, or `cap` as soon as it reaches `cap`.
    pub(super) fn count(&mut self, levels: impl Iterator<Item = u32>, cap: u32) -> u32 {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.stamps.fill(0);
            self.stamp = 1;
        }
        let mut n = 0;
        for lv in levels {
            let lv = lv as usize;
            if lv >= self.stamps.len() {
                self.stamps.resize(lv + 1, 0);
            }
            if self.stamps[lv] != self.stamp {
                self.stamps[lv] = self.stamp;
                n += 1;
                if n >= cap {
                    break;
                }
            }
        }
        n
    }
}

impl CpuEngine {
    /// Conflicts from added nogoods or the cost bound may lie below the current level: backjump
    /// to the conflict's own level first. Returns that level (0: unsatisfiable).
    fn conflict_level(&mut self) -> u32 {
        let lv = self.conflict.iter().map(|l| self.a.level[l.var() as usize]).max().unwrap_or(0);
        if lv < self.a.decision_level() {
            let conflict = std::mem::take(&mut self.conflict);
            self.backjump(lv);
            self.conflict = conflict;
        }
        lv
    }

    /// 1-UIP: resolve backwards along the trail until one literal of the conflict level is left.
    pub(super) fn learn_resolution(&mut self) -> bool {
        let lv = self.conflict_level();
        if lv == 0 {
            return false;
        }
        let mut marks = std::mem::take(&mut self.marks);
        marks.resize(self.p.num_vars as usize, 0);
        let mut touched = std::mem::take(&mut self.touched);
        let mut ante = std::mem::take(&mut self.ante);
        let mut learned = std::mem::take(&mut self.learnt);
        learned.clear();
        learned.push(Lit::FALSE);
        let mut path = 0usize;
        let mut idx = self.a.trail.len();
        let mut reason_lits = std::mem::take(&mut self.conflict);
        debug_assert!(
            reason_lits.iter().all(|&l| self.a.is_true(l)),
            "conflict with literals that are not true: {:?}",
            reason_lits.iter().map(|&l| (l, self.a.value(l))).collect::<Vec<_>>()
        );
        let uip = loop {
            self.analysed += reason_lits.len() as u64;
            for &q in &reason_lits {
                let v = q.var() as usize;
                if marks[v] == 0 && self.a.level[v] > 0 {
                    marks[v] = SEEN;
                    touched.push(v as u32);
                    self.dec.bump(q.var(), &self.a);
                    if self.a.level[v] == lv {
                        path += 1;
                    } else {
                        learned.push(q);
                    }
                }
            }
            loop {
                idx -= 1;
                let v = self.a.trail[idx].var() as usize;
                if marks[v] == SEEN && self.a.level[v] == lv {
                    break;
                }
            }
            let pl = self.a.trail[idx];
            marks[pl.var() as usize] = 0;
            path -= 1;
            if path == 0 {
                break pl;
            }
            ante.clear();
            self.antecedents(pl, &mut ante);
            if let Reason::Nogood(c) = self.a.reason[pl.var() as usize] {
                self.bump_nogood(c);
                self.update_lbd(c);
            }
            std::mem::swap(&mut reason_lits, &mut ante);
        };
        learned[0] = uip;
        // Recursive minimisation: drop literals implied by the others.
        self.levels.count(learned[1..].iter().map(|l| self.a.level[l.var() as usize]), u32::MAX);
        let mut keep = std::mem::take(&mut self.minimised);
        keep.clear();
        keep.push(uip);
        let mut stack = std::mem::take(&mut self.stack);
        let (mode, antes) = self.opts.strengthen;
        for &q in &learned[1..] {
            let removable = match mode {
                Strengthen::No => false,
                Strengthen::Local => self.followed(q, antes) && self.implied_by_nogood(q, &marks, &mut ante),
                Strengthen::Recursive => {
                    self.followed(q, antes)
                        && self.redundant(q, &mut marks, &mut touched, &mut stack, &mut ante)
                }
            };
            if !removable {
                keep.push(q);
            }
        }
        for &v in &touched {
            marks[v as usize] = 0;
        }
        touched.clear();
        reason_lits.clear();
        (self.marks, self.touched, self.ante, self.stack, self.conflict) =
            (marks, touched, ante, stack, reason_lits);
        self.dec.decay();
        self.nogood_inc *= 1.0 / 0.999;
        if self.opts.shrinks() {
            self.shrink(&mut keep);
        }
        self.learn(&mut keep);
        (self.learnt, self.minimised) = (learned, keep);
        true
    }

    /// Forward learning: the nogood of the decisions the conflict depends on.
    pub(super) fn learn_forward(&mut self) -> bool {
        let lv = self.conflict_level();
        if lv == 0 {
            return false;
        }
        // Literals assigned but not yet propagated have no rows yet.
        for i in self.qhead..self.a.trail.len() {
            let l = self.a.trail[i];
            self.record_deps(l);
        }
        let fwd = self.fwd.as_ref().expect("forward learning");
        let levels = fwd.levels_of(self.conflict.iter().map(|l| l.var()));
        for l in std::mem::take(&mut self.conflict) {
            self.dec.bump(l.var(), &self.a);
        }
        if levels.is_empty() {
            return false;
        }
        let mut learned: Vec<Lit> = levels.iter().map(|&l| self.a.decision(l)).collect();
        self.dec.decay();
        self.learn(&mut learned);
        true
    }

    /// Adds a learned nogood whose position 0 is to be asserted, backjumping to the highest level
    /// among the others.
    fn learn(&mut self, ng: &mut Vec<Lit>) {
        self.stats.learned += 1;
        self.stats.learned_literals += ng.len() as u64;
        if ng.len() == 1 && self.floor > 0 {
            // Asserted at the backtrack level, not at level 0: stored as {l, T0} so that it
            // still holds once that level is undone.
            ng.push(Lit::TRUE);
        }
        let level_of = |l: &Lit| self.a.level[l.var() as usize];
        if ng.len() > 1 {
            let best = (1..ng.len()).max_by_key(|&i| level_of(&ng[i])).expect("len > 1");
            ng.swap(1, best);
        }
        let bj = ng.get(1).map_or(0, |l| self.a.level[l.var() as usize]);
        let lbd = self.levels.count(ng.iter().map(|l| self.a.level[l.var() as usize]), u32::MAX);
        self.last_lbd = Some(lbd);
        self.export(ng, lbd);
        self.backjump(bj);
        let uip = ng[0];
        match ng.len() {
            1 => self.a.assign(!uip, Reason::Unit),
            _ => {
                let c = self.store(ng, true, lbd);
                self.a.assign(!uip, Reason::Nogood(c));
            }
        }
    }

    /// Stores a nogood of two literals or more; a learned one (deletable) also counts in BerkMin's
    /// occurrences.
    pub(super) fn store(&mut self, ng: &[Lit], learned: bool, lbd: u32) -> super::db::CRef {
        if let Some(b) = self.berk.as_mut().filter(|_| learned) {
            b.on_learned(ng);
        }
        self.db.add(ng, learned, lbd)
    }

    /// The decisions that the complement of `failed` (true) follows from, with `failed` first:
    /// clasp's final conflict analysis over the implication graph.
    pub(super) fn core_of(&mut self, failed: Lit) -> Vec<Lit> {
        let t = !failed;
        debug_assert!(self.a.is_true(t), "a failed assumption that is not false");
        let mut core = vec![failed];
        if self.a.level[t.var() as usize] == 0 {
            return core;
        }
        let mut marks = std::mem::take(&mut self.marks);
        marks.resize(self.p.num_vars as usize, 0);
        let mut ante = std::mem::take(&mut self.ante);
        marks[t.var() as usize] = SEEN;
        let mut pending = 1usize;
        let mut idx = self.a.trail_pos[t.var() as usize] as usize + 1;
        while pending > 0 {
            idx -= 1;
            let q = self.a.trail[idx];
            if marks[q.var() as usize] != SEEN {
                continue;
            }
            marks[q.var() as usize] = 0;
            pending -= 1;
            if matches!(self.a.reason[q.var() as usize], Reason::Decision) {
                core.push(q);
                continue;
            }
            ante.clear();
            self.antecedents(q, &mut ante);
            for &x in &ante {
                let v = x.var() as usize;
                if marks[v] == 0 && self.a.level[v] > 0 {
                    marks[v] = SEEN;
                    pending += 1;
                }
            }
        }
        ante.clear();
        (self.marks, self.ante) = (marks, ante);
        core
    }

    /// Whether `--strengthen`'s TYPE follows `q`'s reason: not a decision, and of a length it
    /// takes (weight constraints, loops and the cost bound count as long). With `all` (the
    /// default) only the reason's kind is read: a nogood's length is another memory access per
    /// literal the strengthening visits.
    #[inline]
    fn followed(&self, q: Lit, antes: StrengthenAntes) -> bool {
        let len = match self.a.reason[q.var() as usize] {
            Reason::Decision | Reason::Unit => return false,
            _ if antes == StrengthenAntes::All => return true,
            Reason::Binary(_) => 2,
            Reason::Nogood(c) => self.db.lits(c).len(),
            Reason::Weight(_) | Reason::Loop(_) | Reason::Cost => usize::MAX,
        };
        antes.follows(len)
    }

    /// `--strengthen=local`: whether every other literal of `p`'s reason is in the learned
    /// nogood (marked `SEEN`) or of level 0.
    fn implied_by_nogood(&self, p: Lit, marks: &[u8], ante: &mut Vec<Lit>) -> bool {
        ante.clear();
        self.antecedents(p, ante);
        ante.iter().all(|x| marks[x.var() as usize] == SEEN || self.a.level[x.var() as usize] == 0)
    }

    /// Whether `p` (in the learned nogood) follows from the nogood's other literals: every path
    /// back through reasons ends in a literal of the nogood or of level 0, as clasp's recursive
    /// minimization decides it. A depth-first search: an entry `(q, true)` on the stack is a
    /// literal whose reason is being explored, `(q, false)` one still to look at. A literal
    /// whose reason is explored to the end is removable and marked `SEEN`, so that no later
    /// search explores it again; when a path ends elsewhere (a decision, a reason `--strengthen`
    /// does not follow, a level with no literal in the nogood, a literal known not removable),
    /// that literal and every literal being explored above it (`p` aside, which is in the
    /// nogood) are marked `POISON`. So each literal is explored at most once per conflict. Every
    /// mark is listed in `touched`; the nogood's levels are those `levels` counted last.
    fn redundant(
        &self,
        p: Lit,
        marks: &mut [u8],
        touched: &mut Vec<u32>,
        stack: &mut Vec<(Lit, bool)>,
        ante: &mut Vec<Lit>,
    ) -> bool {
        let antes = self.opts.strengthen.1;
        stack.clear();
        stack.push((p, false));
        while let Some((q, explored)) = stack.pop() {
            let v = q.var() as usize;
            if explored {
                if q == p {
                    return true;
                }
                marks[v] = SEEN;
                touched.push(v as u32);
                continue;
            }
            if q != p {
                if marks[v] == SEEN || self.a.level[v] == 0 {
                    continue;
                }
                if marks[v] == POISON || !self.followed(q, antes) || !self.levels.has(self.a.level[v]) {
                    for (w, on_path) in std::iter::once((q, true)).chain(stack.drain(..)) {
                        let w = w.var() as usize;
                        if on_path && marks[w] == 0 {
                            marks[w] = POISON;
                            touched.push(w as u32);
                        }
                    }
                    return false;
                }
            }
            stack.push((q, true));
            ante.clear();
            self.antecedents(q, ante);
            for &x in ante.iter() {
                let w = x.var() as usize;
                if marks[w] != SEEN && self.a.level[w] != 0 {
                    stack.push((x, false));
                }
            }
        }
        unreachable!("the search ends at `p`")
    }

    /// `--update-lbd`: a learned nogood that is a reason in this analysis counts its distinct
    /// levels again, and takes the lower LBD the mode allows.
    fn update_lbd(&mut self, c: u32) {
        let (mode, protect) = self.opts.lbd_update();
        if mode == LbdUpdate::No {
            return;
        }
        let old = self.db.lbd(c);
        if old <= 2 || !self.db.is_learned(c) {
            return;
        }
        let n = self.levels.count(self.db.lits(c).iter().map(|l| self.a.level[l.var() as usize]), old);
        if let Some(lbd) = mode.updated(old, n) {
            self.db.set_lbd(c, lbd, lbd <= protect);
        }
    }

    fn bump_nogood(&mut self, c: u32) {
        if self.deletion == Deletion::Tiered && self.db.is_learned(c) {
            self.db.mark_used(c, if self.db.lbd(c) <= TIER2_LBD { 2 } else { 1 });
        }
        if self.db.bump(c, self.nogood_inc) {
            self.db.rescale_activities();
            self.nogood_inc *= 1e-20;
        }
    }

    /// Adds a nogood from outside the search (enumeration, the minimality check). It may be
    /// violated (reported as the next conflict) or unit (asserted at its level).
    /// Adds a nogood from outside the search (a blocking or loop nogood: permanent; or one
    /// another search learned, with its LBD: deletable); false if no model is left.
    pub(super) fn add_external_nogood(&mut self, lits: &[Lit], learned: Option<u32>) -> bool {
        let (is_learned, lbd) = (learned.is_some(), learned.unwrap_or(0));
        if self.unsat {
            return false;
        }
        let mut ng = Vec::with_capacity(lits.len());
        for &l in lits {
            let fixed = self.a.value(l) != 0 && self.a.level[l.var() as usize] == 0;
            match (fixed, self.a.value(l)) {
                (true, 1) => {}
                (true, _) => return true,
                _ => ng.push(l),
            }
        }
        ng.sort_unstable();
        ng.dedup();
        if ng.windows(2).any(|w| w[0] == !w[1]) {
            return true;
        }
        let key = |l: &Lit| {
            if self.a.is_true(*l) { (1u8, u32::MAX - self.a.level[l.var() as usize]) } else { (0, 0) }
        };
        ng.sort_by_key(key);
        let non_true = ng.iter().filter(|l| !self.a.is_true(**l)).count();
        if !self.conflict.is_empty() && !ng.is_empty() {
            // A conflict is pending (an earlier nogood of the same batch): no backjump now, only
            // store the nogood; its watches sit on its non-true literals, so a violation is still
            // seen. A unit nogood {l} is stored as {l, T0} (T0 is always true).
            if ng.len() == 1 {
                ng.push(Lit::TRUE);
            }
            self.store(&ng, is_learned, lbd);
            return true;
        }
        if ng.is_empty() {
            self.unsat = true;
            self.conflict = vec![Lit::TRUE];
            return false;
        }
        if ng.len() == 1 && self.floor > 0 {
            // Asserted above level 0 (at the backtrack level), a unit nogood is stored as
            // {l, T0}, so that it still holds once that level is undone.
            ng.push(Lit::TRUE);
        }
        if ng.len() == 1 {
            self.backjump(0);
            match self.a.value(ng[0]) {
                1 => {
                    self.unsat = true;
                    self.conflict = ng;
                    return false;
                }
                0 => self.a.assign(!ng[0], Reason::Unit),
                _ => {}
            }
            return true;
        }
        let unit = non_true == 1 && self.a.value(ng[0]) == 0;
        if unit {
            let lv = self.a.level[ng[1].var() as usize];
            self.backjump(lv);
        }
        let reason = Reason::Nogood(self.store(&ng, is_learned, lbd));
        if non_true == 0 {
            self.conflict = ng;
        } else if unit {
            self.a.assign(!ng[0], reason);
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::Levels;
    use crate::engine::Engine;
    use crate::engine::cpu::CpuEngine;
    use crate::nogoods::Lit;
    use crate::solve::config::{Decisions, SearchOptions};

    /// Decisions d1, d2, d3 at levels 1 to 3 over `{1..12}.`, with implications (as nogoods
    /// `{x, -y}`) d1 -> p1 -> p2; d2 -> q; q, p2 -> r; r -> s; q -> t; d3 -> z; and the nogood
    /// `{z, y, s, r, t, p2, d1}`, which makes y false once z is true, against d3 -> y. The 1-UIP
    /// nogood is `{d3, s, r, t, p2, d1}`. Recursive minimization drops s (its reason r is in the
    /// nogood) and p2 (p1, then d1), but neither r nor t: both go back through q to d2, a
    /// decision not in the nogood. A check that took q for removable after the other one's
    /// failure would drop the second of them.
    #[test]
    fn minimization_drops_exactly_the_literals_the_others_imply() {
        let opts = SearchOptions { decisions: Decisions::Vars, ..Default::default() };
        let atoms: Vec<String> = (1..=12).map(|i| i.to_string()).collect();
        let text = format!("asp 1 0 0\n1 1 12 {} 0 0\n0\n", atoms.join(" "));
        let mut e = CpuEngine::for_aspif(&text, 0, &opts);
        assert!(e.propagate().unwrap());
        let [d1, d2, d3, p1, p2, q, r, s, t, z, y] = std::array::from_fn(|i| Lit::pos(i as u32 + 1));
        let implications = [(vec![d1], p1), (vec![p1], p2), (vec![d2], q), (vec![q, p2], r)];
        let more = [(vec![r], s), (vec![q], t), (vec![d3], z), (vec![d3], y)];
        for (from, to) in implications.into_iter().chain(more) {
            let ng: Vec<Lit> = from.into_iter().chain([!to]).collect();
            assert!(e.add_external_nogood(&ng, None));
        }
        assert!(e.add_external_nogood(&[z, y, s, r, t, p2, d1], None));
        for d in [d1, d2] {
            e.assume(d).unwrap();
            assert!(e.propagate().unwrap());
        }
        e.assume(d3).unwrap();
        assert!(!e.propagate().unwrap(), "a conflict at level 3");
        assert!(e.resolve_conflict().unwrap());
        let mut learned = e.db.learned_nogoods().last().expect("a learned nogood").0.to_vec();
        learned.sort_unstable();
        let mut expected = vec![d3, r, t, d1];
        expected.sort_unstable();
        assert_eq!(learned, expected);
    }

    #[test]
    fn levels_are_counted_once_each_up_to_the_cap() {
        let mut l = Levels::default();
        assert_eq!(l.count([3, 1, 3, 0, 1].into_iter(), u32::MAX), 3);
        assert_eq!(l.count([3, 1, 3, 0, 1].into_iter(), 2), 2);
        assert_eq!(l.count([7].into_iter(), u32::MAX), 1, "the stamps of earlier counts do not count");
        assert_eq!(l.count(std::iter::empty(), u32::MAX), 0);
        for (a, b) in [(vec![5u32, 5, 9, 2], 3), (vec![0, 0], 1)] {
            assert_eq!(l.count(a.iter().copied(), u32::MAX), crate::engine::lbd(a.iter().copied()));
            assert_eq!(b, crate::engine::lbd(a));
        }
    }
}
