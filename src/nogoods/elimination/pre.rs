//! SatELite's passes over the completion's nogoods (`--sat-prepro`, `elimination/mod.rs` says
//! what they keep): subsumption and self-subsumption from a queue, bounded variable elimination,
//! blocked nogoods, and the units they find, in one arena of nogoods with occurrence lists.

use super::{Eliminated, SatPrepro};
use crate::nogoods::{Lit, Var};
use crate::stop::{Interrupted, StopToken};
use std::iter::repeat;
use std::time::Instant;

/// A nogood each of whose variables is in more nogoods than this subsumes none (CaDiCaL's
/// `subsumeocclim` is 100): on PermutationPatternMatching's 3.4 million binary nogoods over 8,000
/// variables the comparisons would take a minute.
const SUBSUME_OCC: u32 = 1000;

/// The bits of a nogood's variables modulo 64.
fn signature(ng: &[Lit]) -> u64 {
    ng.iter().fold(0, |s, l| s | 1 << (l.var() % 64))
}

/// The preprocessor's state: the nogoods (sorted; empty where removed) with occurrence lists,
/// which may hold nogoods that lost the literal since (skipped where read).
///
/// Invariant: nogood `i` is `lits[at[i]..at[i] + len[i]]`, sorted, without two literals of one
/// variable; a removed one has length 0.
pub(super) struct Pre<'s> {
    lits: Vec<Lit>,
    at: Vec<u32>,
    len: Vec<u32>,
    /// Per nogood: its variables' bits modulo 64 (a nogood whose bits are not all among
    /// another's is not part of it).
    sig: Vec<u64>,
    occ: Vec<Vec<u32>>,
    /// Per literal: the nogoods that hold it.
    count: Vec<u32>,
    /// Per variable: kept (frozen or fixed) or eliminated, so not to be tried.
    pub(super) keep: Vec<bool>,
    /// Per variable: occurrences changed since it was last tried.
    touched: Vec<bool>,
    /// Per literal: 1 true, -1 false (fixed here), 0 open.
    value: Vec<i8>,
    /// Literals fixed false here (unit nogoods).
    units: Vec<Lit>,
    queue: Vec<u32>,
    queued: Vec<bool>,
    mark: Vec<u32>,
    stamp: u32,
    out: Eliminated,
    /// Whether a nogood lost a literal or went (so also where a unit or a removal was found).
    pub(super) changed: bool,
    unsat: bool,
    opts: SatPrepro,
    deadline: Option<Instant>,
    stop: &'s StopToken,
}

impl<'s> Pre<'s> {
    /// The preprocessor for the nogoods `ngs` (each of two literals or more, no two of one
    /// variable), the variables `keep` says kept and those of `units` fixed.
    pub(super) fn new<'n>(
        ngs: impl ExactSizeIterator<Item = &'n [Lit]>,
        keep: Vec<bool>,
        units: &[Lit],
        opts: SatPrepro,
        deadline: Option<Instant>,
        stop: &'s StopToken,
    ) -> Self {
        let nl = 2 * keep.len();
        let mut pre = Pre {
            occ: vec![Vec::new(); nl],
            count: vec![0; nl],
            touched: vec![true; keep.len()],
            keep,
            value: vec![0; nl],
            units: Vec::new(),
            queue: Vec::new(),
            queued: Vec::with_capacity(ngs.len()),
            mark: vec![0; nl],
            stamp: 0,
            out: Eliminated::default(),
            changed: false,
            unsat: units.contains(&Lit::TRUE),
            opts,
            deadline,
            stop,
            lits: Vec::new(),
            at: Vec::with_capacity(ngs.len()),
            len: Vec::with_capacity(ngs.len()),
            sig: Vec::with_capacity(ngs.len()),
        };
        for &u in units {
            pre.keep[u.var() as usize] = true;
        }
        for ng in ngs {
            pre.attach(ng);
        }
        pre
    }

    fn timed_out(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    fn ng(&self, id: u32) -> &[Lit] {
        let at = self.at[id as usize] as usize;
        &self.lits[at..at + self.len[id as usize] as usize]
    }

    /// Adds nogood `ng` (two literals or more, no two of one variable), sorted here.
    fn attach(&mut self, ng: &[Lit]) {
        let (id, at) = (self.at.len() as u32, self.lits.len());
        self.lits.extend_from_slice(ng);
        self.lits[at..].sort_unstable();
        self.at.push(at as u32);
        self.len.push(ng.len() as u32);
        let ng = &self.lits[at..];
        debug_assert!(ng.len() >= 2 && ng.windows(2).all(|w| w[0].var() < w[1].var()), "{ng:?}");
        for &l in ng {
            self.occ[l.index()].push(id);
            self.count[l.index()] += 1;
            self.touched[l.var() as usize] = true;
        }
        self.sig.push(signature(ng));
        self.queued.push(true);
        self.queue.push(id);
    }

    /// Adds a nogood (sorted by variable, no two literals of one variable) over open or fixed
    /// literals: a false one satisfies it, true ones go.
    fn add(&mut self, mut ng: Vec<Lit>) {
        if ng.iter().any(|l| self.value[l.index()] < 0) {
            return;
        }
        ng.retain(|l| self.value[l.index()] == 0);
        match ng.len() {
            0 => self.unsat = true,
            1 => self.fix(ng[0]),
            _ => self.attach(&ng),
        }
    }

    fn detach(&mut self, id: u32) {
        self.changed = true;
        let at = self.at[id as usize] as usize;
        for k in at..at + std::mem::take(&mut self.len[id as usize]) as usize {
            let l = self.lits[k];
            self.count[l.index()] -= 1;
            self.touched[l.var() as usize] = true;
        }
    }

    fn holds(&self, id: u32, l: Lit) -> bool {
        self.ng(id).binary_search(&l).is_ok()
    }

    /// Drops the nogoods that no longer hold `l` from its occurrence list, where they are many.
    fn compact(&mut self, l: Lit) {
        if self.occ[l.index()].len() > 2 * self.count[l.index()] as usize + 8 {
            self.clean(l);
        }
    }

    /// Drops the nogoods that no longer hold `l` from its occurrence list.
    fn clean(&mut self, l: Lit) {
        let mut list = std::mem::take(&mut self.occ[l.index()]);
        list.retain(|&id| self.holds(id, l));
        self.occ[l.index()] = list;
    }

    /// The nogoods that hold `l` (its occurrence list cleaned), a copy to change them by.
    fn holding(&mut self, l: Lit) -> Vec<u32> {
        self.clean(l);
        self.occ[l.index()].clone()
    }

    /// The unit nogood `{u}`: `u` is false, the nogoods with it satisfied, `!u` out of the rest.
    fn fix(&mut self, u: Lit) {
        let mut pending = vec![u];
        while let Some(u) = pending.pop() {
            match self.value[u.index()] {
                -1 => continue,
                1 => {
                    self.unsat = true;
                    return;
                }
                _ => {}
            }
            self.value[u.index()] = -1;
            self.value[(!u).index()] = 1;
            self.keep[u.var() as usize] = true;
            self.units.push(u);
            for id in self.holding(u) {
                self.detach(id);
            }
            for id in self.holding(!u) {
                self.shorten(id, !u);
                if let &[x] = self.ng(id) {
                    self.detach(id);
                    pending.push(x);
                }
            }
        }
    }

    /// Takes `l` out of nogood `id` (two literals or more are left, or one, for the caller).
    fn shorten(&mut self, id: u32, l: Lit) {
        let Ok(i) = self.ng(id).binary_search(&l) else { return };
        let (at, n) = (self.at[id as usize] as usize, self.len[id as usize] as usize);
        self.lits.copy_within(at + i + 1..at + n, at + i);
        self.len[id as usize] -= 1;
        self.sig[id as usize] = signature(self.ng(id));
        self.count[l.index()] -= 1;
        self.touched[l.var() as usize] = true;
        self.changed = true;
        if !self.queued[id as usize] {
            self.queued[id as usize] = true;
            self.queue.push(id);
        }
    }

    pub(super) fn run(&mut self) -> Result<(), Interrupted> {
        let mut round = 0;
        while !self.unsat {
            self.subsume()?;
            if self.unsat || self.timed_out() || (self.opts.iterations != 0 && round == self.opts.iterations)
            {
                break;
            }
            round += 1;
            if !self.eliminate()? && self.queue.is_empty() {
                break;
            }
        }
        Ok(())
    }

    /// Backward subsumption and self-subsumption from every queued nogood.
    fn subsume(&mut self) -> Result<(), Interrupted> {
        let mut steps = 0;
        while let Some(c) = self.queue.pop() {
            self.queued[c as usize] = false;
            steps += 1;
            self.stop.check_every(steps)?;
            if steps % 4096 == 0 && self.timed_out() {
                self.queue.clear();
                self.queued.fill(false);
                break;
            }
            let lits = self.ng(c).to_vec();
            let occurrences = |l: &Lit| self.count[l.index()] + self.count[(!*l).index()];
            let Some(&best) = lits.iter().min_by_key(|l| occurrences(l)) else { continue };
            if occurrences(&best) > SUBSUME_OCC {
                continue;
            }
            self.stamp += 1;
            for l in &lits {
                self.mark[l.index()] = self.stamp;
            }
            let sig = self.sig[c as usize];
            'lists: for l in [best, !best] {
                // Nogoods join no list here: the list is read in place, its stale entries
                // skipped by length and signature or found wanting by the comparison.
                let mut k = 0;
                while let Some(&d) = self.occ[l.index()].get(k) {
                    k += 1;
                    if d == c
                        || (self.len[d as usize] as usize) < lits.len()
                        || sig & !self.sig[d as usize] != 0
                    {
                        continue;
                    }
                    self.compare_and_apply(lits.len(), d);
                    if self.unsat || self.len[c as usize] as usize != lits.len() {
                        break 'lists;
                    }
                }
                self.compact(l);
            }
        }
        Ok(())
    }

    /// Removes nogood `d` where the marked one (of `n` literals) subsumes it, or its literal that
    /// the marked one resolves away.
    fn compare_and_apply(&mut self, n: usize, d: u32) {
        match self.compare(n, d) {
            Some(None) => self.detach(d),
            Some(Some(x)) => {
                self.shorten(d, x);
                if let &[u] = self.ng(d) {
                    self.detach(d);
                    self.fix(u);
                }
            }
            None => {}
        }
    }

    /// Whether the marked nogood (of `n` literals) subsumes nogood `d` (`Some(None)`), or, one of
    /// its literals turned over, lets `d` lose that literal (`Some(Some(x))`: `x` goes).
    fn compare(&self, n: usize, d: u32) -> Option<Option<Lit>> {
        let (mut found, mut flipped) = (0, None);
        for &x in self.ng(d) {
            if self.mark[x.index()] == self.stamp {
                found += 1;
            } else if self.mark[(!x).index()] == self.stamp {
                if flipped.is_some() {
                    return None;
                }
                flipped = Some(x);
            }
        }
        match flipped {
            None if found == n => Some(None),
            Some(x) if found + 1 == n => Some(Some(x)),
            _ => None,
        }
    }

    /// One round over the variables whose occurrences changed, cheapest first: true where a
    /// nogood went.
    fn eliminate(&mut self) -> Result<bool, Interrupted> {
        let mut order: Vec<(u64, Var)> = (1..self.keep.len() as Var)
            .filter(|&v| !self.keep[v as usize] && std::mem::take(&mut self.touched[v as usize]))
            .map(|v| {
                let (p, n) = (self.count[Lit::pos(v).index()], self.count[Lit::neg(v).index()]);
                (u64::from(p) * u64::from(n), v)
            })
            .collect();
        order.sort_unstable();
        let mut changed = false;
        for (i, &(_, v)) in order.iter().enumerate() {
            self.stop.check_every(i)?;
            if i % 1024 == 0 && self.timed_out() {
                break;
            }
            if self.opts.level == 3 && !self.keep[v as usize] {
                changed |= self.try_var(v, Some(0));
            }
            if !self.keep[v as usize] {
                changed |= self.try_var(v, None);
            }
            if self.unsat {
                break;
            }
        }
        Ok(changed)
    }

    /// Eliminates `v` where its resolvents are at most `max` (`None`: as many as its nogoods),
    /// else, from level 2 on, removes the nogoods blocked on it: true where a nogood went.
    fn try_var(&mut self, v: Var, max: Option<usize>) -> bool {
        let (pos, neg) = (self.holding(Lit::pos(v)), self.holding(Lit::neg(v)));
        if pos.is_empty() && neg.is_empty() {
            return false;
        }
        let lim = self.opts.occurrences as usize;
        if lim != 0 && pos.len() >= lim && neg.len() >= lim {
            return false;
        }
        let max = max.unwrap_or(pos.len() + neg.len());
        // Nogoods blocked on `v`: level 2 those with `v` (clasp's limited elimination), level 3
        // those with `!v` too.
        let level = self.opts.level;
        let (mut count, mut pairs) = (0, Vec::new());
        let (mut pos_blocked, mut neg_blocked) = (vec![false; pos.len()], vec![level == 3; neg.len()]);
        let mut open = if level == 3 { neg.len() } else { 0 };
        'outer: for (i, &a) in pos.iter().enumerate() {
            self.stamp += 1;
            let at = self.at[a as usize] as usize;
            for k in at..at + self.len[a as usize] as usize {
                self.mark[self.lits[k].index()] = self.stamp;
            }
            pos_blocked[i] = level >= 2;
            for (j, &b) in neg.iter().enumerate() {
                let tautology =
                    self.ng(b).iter().any(|x| x.var() != v && self.mark[(!*x).index()] == self.stamp);
                if tautology {
                    continue;
                }
                count += 1;
                pos_blocked[i] = false;
                if std::mem::take(&mut neg_blocked[j]) {
                    open -= 1;
                }
                if count <= max {
                    pairs.push((a, b));
                } else if open == 0 && level == 1 {
                    break 'outer;
                } else if open == 0 {
                    // No elimination, and no nogood of `neg` blocked: `a` is not either.
                    break;
                }
            }
        }
        if count <= max {
            let resolvents: Vec<Vec<Lit>> = pairs.iter().map(|&(a, b)| self.resolvent(a, b, v)).collect();
            for (&id, first) in pos.iter().zip(repeat(Lit::pos(v))).chain(neg.iter().zip(repeat(Lit::neg(v))))
            {
                self.remove_on(id, first);
            }
            self.keep[v as usize] = true;
            self.out.vars += 1;
            for r in resolvents {
                self.add(r);
                if self.unsat {
                    break;
                }
            }
            return true;
        }
        let sides = pos.iter().zip(pos_blocked).map(|(&id, b)| (id, b, Lit::pos(v)));
        let blocked: Vec<(u32, Lit)> = sides
            .chain(neg.iter().zip(neg_blocked).map(|(&id, b)| (id, b, Lit::neg(v))))
            .filter_map(|(id, b, first)| b.then_some((id, first)))
            .collect();
        for &(id, first) in &blocked {
            self.remove_on(id, first);
        }
        self.out.blocked += blocked.len() as u32;
        !blocked.is_empty()
    }

    /// Moves nogood `id` to the removed ones, its literal `first` (of the variable it is removed
    /// on) first.
    fn remove_on(&mut self, id: u32, first: Lit) {
        let at = self.at[id as usize] as usize;
        self.out.push(first, &self.lits[at..at + self.len[id as usize] as usize]);
        self.detach(id);
    }

    /// The resolvent of nogoods `a` (with `v`) and `b` (with `!v`) on `v`, not a tautology.
    fn resolvent(&self, a: u32, b: u32, v: Var) -> Vec<Lit> {
        let mut r: Vec<Lit> = self.ng(a).iter().chain(self.ng(b)).copied().filter(|l| l.var() != v).collect();
        r.sort_unstable();
        r.dedup();
        debug_assert!(r.windows(2).all(|w| w[0].var() != w[1].var()), "a tautology");
        r
    }

    /// The remaining nogoods and every unit (`units` and those found here), and the removed.
    pub(super) fn finish(self, units: &[Lit]) -> (Vec<Vec<Lit>>, Vec<Lit>, Eliminated) {
        let mut all = units.to_vec();
        all.extend(&self.units);
        if self.unsat {
            all.push(Lit::TRUE);
        }
        all.sort_unstable();
        all.dedup();
        let ngs = (0..self.at.len() as u32)
            .map(|id| self.ng(id))
            .filter(|ng| !ng.is_empty())
            .map(<[Lit]>::to_vec)
            .collect();
        (ngs, all, self.out)
    }
}
