//! The propagation loop: nogoods (binary lists and watched long nogoods), weight constraints,
//! then at the unit fixpoint acyclicity, the cost bound and the unfounded-set check, until nothing
//! changes.

use super::db::{HEADER, POS, Watch};
use super::{CpuEngine, HOOK_CHOICE, HOOK_COST, HOOK_EDGE, HOOK_UNFOUNDED, HOOK_WEIGHT};
use crate::engine::assignment::Reason;
use crate::nogoods::Lit;

/// How far along the trail, past the next literal to propagate, [`CpuEngine::prefetch_ahead`]
/// asks for the watch list headers, and for the lists: one literal's propagation is too short
/// for a load from memory, and 4 and 2 took Nomistery 0033 to 0.92 to 0.95 of the time of 1 and
/// 0 (Sokoban 0162 the same; the VM, paired runs).
const HEADERS_AHEAD: usize = 4;
const LISTS_AHEAD: usize = 2;

/// The number of variables from which propagation prefetches the next literals' watch and
/// implication lists: below it they stay in the cache, and the prefetches only cost (queens 12 and
/// Hamiltonian 14, 144 and 156 variables, 2 to 4 % slower with them; planning Sokoban 0162 and
/// Nomistery 0033, 12,006 and 73,239, 0.86 and 0.93 of the time; the VM, paired runs).
const PREFETCH_FROM: usize = 2048;

impl CpuEngine {
    pub(super) fn propagate_all(&mut self) -> bool {
        loop {
            if !self.propagate_queue() {
                return false;
            }
            let mut assigned = std::mem::take(&mut self.scratch);
            assigned.clear();
            if let Some(g) = self.acyc.as_mut().filter(|g| g.needs_check())
                && let Err(c) = g.check(&mut self.a, &mut self.ufs.reasons, &mut assigned)
            {
                self.conflict = c;
                self.scratch = assigned;
                return false;
            }
            if !assigned.is_empty() {
                self.scratch = assigned;
                continue;
            }
            if self.cost.dirty
                && let Err(levels) = self.cost.propagate(&mut self.a, &mut assigned)
            {
                let mut c = Vec::new();
                self.cost.explain(&self.a, levels, None, &mut c);
                self.conflict = c;
                self.scratch = assigned;
                return false;
            }
            if assigned.is_empty()
                && self.ufs.needs_check()
                && let Err(c) = self.ufs.check(&self.p, &mut self.a, &mut assigned)
            {
                self.conflict = c.0;
                self.scratch = assigned;
                return false;
            }
            let progress = !assigned.is_empty();
            self.scratch = assigned;
            if !progress {
                return true;
            }
        }
    }

    /// Propagates every assigned literal not yet propagated; false on a conflict.
    fn propagate_queue(&mut self) -> bool {
        while self.qhead < self.a.trail.len() {
            let l = self.a.trail[self.qhead];
            self.qhead += 1;
            if self.db.watches.len() >= 2 * PREFETCH_FROM {
                self.prefetch_ahead();
            }
            self.stats.propagations += 1;
            if self.fwd.is_some() {
                self.record_deps(l);
            }
            let h = self.hooks[l.index()];
            if h & HOOK_WEIGHT != 0 {
                self.wp.on_assign(&self.p.weights, l);
            }
            if h & HOOK_COST != 0 {
                self.cost.on_assign(l);
            }
            if h & HOOK_UNFOUNDED != 0 {
                self.ufs.on_true(l);
            }
            if h & HOOK_EDGE != 0
                && let Some(g) = &mut self.acyc
            {
                g.on_true(l);
            }
            if h & HOOK_CHOICE != 0 || self.dec.has_parked(l) {
                self.dec.on_true(&self.p, &self.a, l);
            }
            let a = &mut self.a;
            for &q in self.db.bins.get(l.index()) {
                match a.value(q) {
                    1 => {
                        self.conflict.clear();
                        self.conflict.extend([l, q]);
                        return false;
                    }
                    0 => a.assign(!q, Reason::Binary(l)),
                    _ => {}
                }
            }
            if !self.propagate_watches(l) {
                return false;
            }
            if h & HOOK_WEIGHT != 0 {
                let mut assigned = std::mem::take(&mut self.scratch);
                assigned.clear();
                let res = self.wp.propagate(&self.p.weights, &mut self.a, l, &mut assigned);
                self.scratch = assigned;
                if let Err(k) = res {
                    let mut c = Vec::new();
                    self.wp.explain_conflict(&self.p.weights, &self.a, k, &mut c);
                    self.conflict = c;
                    return false;
                }
            }
        }
        true
    }

    /// Asks for what the next literals' propagation reads first, in two steps: the watch list
    /// header and implication-list index of the literal [`HEADERS_AHEAD`] places on along the
    /// trail, and the lists themselves of the one [`LISTS_AHEAD`] on (whose headers were asked
    /// for two literals before).
    #[inline]
    fn prefetch_ahead(&self) {
        let trail = &self.a.trail;
        if let Some(n) = trail.get(self.qhead + HEADERS_AHEAD) {
            prefetch(&self.db.watches[n.index()]);
            if let Some(s) = self.db.bins.index_entry(n.index()) {
                prefetch(s);
            }
        }
        if let Some(n) = trail.get(self.qhead + LISTS_AHEAD) {
            if let Some(w) = self.db.watches[n.index()].first() {
                prefetch(w);
            }
            if let Some(b) = self.db.bins.first(n.index()) {
                prefetch(b);
            }
        }
    }

    /// Visits the long nogoods watching `l`, which just became true.
    fn propagate_watches(&mut self, l: Lit) -> bool {
        let mut ws = std::mem::take(&mut self.db.watches[l.index()]);
        let (mut i, mut j) = (0, 0);
        let mut ok = true;
        while i < ws.len() {
            let w = ws[i];
            i += 1;
            if let Some(x) = ws.get(i + 1).and_then(|next| self.db.arena.get(next.cref as usize)) {
                prefetch(x);
            }
            if self.a.is_false(w.blocker) {
                ws[j] = w;
                j += 1;
                continue;
            }
            let c = w.cref as usize;
            let arena = &mut self.db.arena;
            let len = arena[c] as usize;
            let start = arena[c + POS] as usize;
            debug_assert!((2..=len.max(2)).contains(&start), "saved position {start} of {len}");
            let [w0, w1, rest @ ..] = &mut arena[c + HEADER..c + HEADER + len] else {
                unreachable!("a watched nogood of {len} literals")
            };
            if *w0 == l.0 {
                std::mem::swap(w0, w1);
            }
            let first = Lit(*w0);
            if first != w.blocker && self.a.is_false(first) {
                ws[j] = Watch { cref: w.cref, blocker: first };
                j += 1;
                continue;
            }
            // A new watch: the first literal that is not true, from the saved position on.
            let a = &self.a;
            let free = |x: &u32| !a.is_true(Lit(*x));
            let from = (start - 2).min(rest.len());
            let found = rest[from..].iter().position(free).map(|k| k + from);
            if let Some(k) = found.or_else(|| rest[..from].iter().position(free)) {
                let cand = Lit(rest[k]);
                std::mem::swap(w1, &mut rest[k]);
                arena[c + POS] = (k + 2) as u32;
                self.db.watches[cand.index()].push(Watch { cref: w.cref, blocker: first });
                continue;
            }
            ws[j] = w;
            j += 1;
            match self.a.value(first) {
                1 => {
                    // Into the last conflict's buffer (the analysis hands it back).
                    self.conflict.clear();
                    self.conflict.extend_from_slice(self.db.lits(w.cref));
                    ok = false;
                    while i < ws.len() {
                        ws[j] = ws[i];
                        i += 1;
                        j += 1;
                    }
                }
                0 => self.a.assign(!first, Reason::Nogood(w.cref)),
                _ => {}
            }
        }
        ws.truncate(j);
        self.db.watches[l.index()] = ws;
        ok
    }

    /// Under forward learning (only: its callers check), gives `l` (being propagated) its
    /// dependency row.
    pub(super) fn record_deps(&mut self, l: Lit) {
        debug_assert!(self.fwd.is_some(), "dependency rows without forward learning");
        let v = l.var();
        let lv = self.a.level[v as usize];
        let mut ante = std::mem::take(&mut self.scratch);
        ante.clear();
        let reason = self.a.reason[v as usize];
        if reason != Reason::Decision && lv > 0 {
            self.antecedents(l, &mut ante);
        }
        let a = &self.a;
        let fwd = self.fwd.as_mut().expect("checked");
        match reason {
            _ if lv == 0 => fwd.clear(v),
            Reason::Decision => fwd.set_decision(v, lv),
            _ => fwd.set_union(v, ante.iter().map(|x| x.var()).filter(|&x| a.level[x as usize] > 0)),
        }
        self.scratch = ante;
    }
}

/// Asks the CPU to bring `x` into the cache: a nogood's header two watches ahead of its visit (a
/// visit past the blocker waits on that load, and the watch lists of learned nogoods point all
/// over the arena: GraphColouring 0043 and planning Sokoban 0162 take 0.88 to 0.94 of the time,
/// the VM, paired runs; queens, Hamiltonian cycles, Nomistery the same), and the lists of the
/// next literals to propagate ([`CpuEngine::prefetch_ahead`], BENCHMARKS.md "Prefetching").
#[inline(always)]
fn prefetch<T>(x: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        // SAFETY: a prefetch is a hint that reads nothing the program observes; the address is
        // that of a value the caller holds a reference to.
        unsafe { _mm_prefetch::<_MM_HINT_T0>((x as *const T).cast()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}
