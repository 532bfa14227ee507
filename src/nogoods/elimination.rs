//! Variable elimination and subsumption on the completion's nogoods before the search (clasp's
//! `--sat-prepro`, after Eén and Biere's SatELite): nogoods that another's literals are part of
//! go (subsumption), a literal goes where another nogood resolves it away (self-subsumption), and
//! a variable goes with its nogoods where their resolvents on it are no more than they are
//! (bounded variable elimination); levels 2 and 3 also remove nogoods blocked on a variable.
//!
//! What else reads a variable keeps it ([`Problem::frozen`]): weight constraints, costs, edges,
//! the domain heuristic, equivalent literals, and the cyclic atoms with the bodies that support
//! them. The search's total assignment then satisfies the remaining nogoods, and
//! [`Eliminated::extend`] makes it satisfy the removed ones: in reverse order of removal, each
//! removed nogood whose literals are all true has its first literal's variable flipped (that of
//! the variable it was removed on), as MiniSat's extension of a model. A nogood removed on `x` is
//! violated only where every nogood with `!x` that resolves with it is satisfied by its other
//! literals, which the resolvents (kept, or removed later and so extended first) guarantee.
//!
//! Models are not preserved one for one (an eliminated choice atom takes one value), so the
//! driver applies it where one model is asked for and every search decides on variables
//! (`solve/driver.rs`): deciding on rules reads bodies and atoms that could be gone.

use super::{Lit, NO_SCC, Problem, Var};
use crate::stop::{Interrupted, StopToken};
use std::iter::repeat;
use std::time::{Duration, Instant};

/// What `--sat-prepro` does, within which limits (clasp's `<level>[,<limit>...]`).
///
/// Invariant: `level` is 1, 2 or 3.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SatPrepro {
    /// 1: variable elimination with subsumption; 2: also the nogoods blocked on each variable
    /// tried go (limited blocked-clause elimination); 3: first every blocked nogood goes.
    pub level: u8,
    /// Rounds of subsumption and elimination (0: until nothing changes).
    pub iterations: u32,
    /// A variable is not tried where both its literals are in this many nogoods or more (0: no
    /// limit).
    pub occurrences: u32,
    /// Seconds (0: no limit), looked at between steps.
    pub seconds: u32,
    /// Not run where this percent of the variables or more must be kept (0: no limit).
    pub frozen: u32,
    /// Not run on more than this many thousand nogoods (0: no limit).
    pub size: u32,
}

impl Default for SatPrepro {
    /// clasp's implicit value, `2`.
    fn default() -> Self {
        SatPrepro { level: 2, iterations: 0, occurrences: 0, seconds: 0, frozen: 0, size: 4000 }
    }
}

const KEYS: [&str; 5] = ["iter", "occ", "time", "frozen", "size"];

impl std::str::FromStr for SatPrepro {
    type Err = String;

    /// clasp's syntax: `<level {1..3}>[,<limit>...]`, each limit `[<key>=]<n>` with keys `iter`,
    /// `occ`, `time`, `frozen`, `size` (a limit without a key takes the place after the last).
    fn from_str(s: &str) -> Result<Self, String> {
        let mut parts = s.split(',');
        let level = parts.next().unwrap_or_default();
        let mut p = SatPrepro { level: level.parse().unwrap_or(0), ..SatPrepro::default() };
        if !(1..=3).contains(&p.level) {
            return Err(format!("'{level}': the level is 1, 2 or 3 (or no)"));
        }
        let mut next = 0;
        for part in parts {
            let (key, n) = match part.split_once(['=', ':']) {
                Some((k, n)) => match KEYS.iter().position(|&x| x == k) {
                    Some(i) => (i, n),
                    None => return Err(format!("'{k}': a limit is one of {}", KEYS.join(", "))),
                },
                None if next < KEYS.len() => (next, part),
                None => return Err(format!("'{part}': more limits than {}", KEYS.join(", "))),
            };
            let n: u32 = n.parse().map_err(|_| format!("'{part}': a limit is a number (0: none)"))?;
            *[&mut p.iterations, &mut p.occurrences, &mut p.seconds, &mut p.frozen, &mut p.size][key] = n;
            next = key + 1;
        }
        Ok(p)
    }
}

impl std::fmt::Display for SatPrepro {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.level)?;
        let limits = [self.iterations, self.occurrences, self.seconds, self.frozen, self.size];
        for (k, n) in KEYS.iter().zip(limits) {
            if n != 0 {
                write!(f, ",{k}={n}")?;
            }
        }
        Ok(())
    }
}

/// The nogoods the preprocessing removed, to extend a model of the rest: the `i`th is
/// `lits[start[i]..start[i + 1]]`, its first literal that of the variable it was removed on.
///
/// Invariant: `start` is empty or starts at 0 and never decreases; no nogood is empty.
#[derive(Clone, Debug, Default)]
pub struct Eliminated {
    lits: Vec<Lit>,
    start: Vec<u32>,
    /// Variables eliminated: in none of the remaining nogoods.
    pub vars: u32,
    /// Nogoods removed as blocked.
    pub blocked: u32,
}

impl Eliminated {
    pub fn is_empty(&self) -> bool {
        self.lits.is_empty()
    }

    fn push(&mut self, first: Lit, ng: &[Lit]) {
        if self.start.is_empty() {
            self.start.push(0);
        }
        self.lits.push(first);
        self.lits.extend(ng.iter().filter(|&&l| l != first));
        self.start.push(self.lits.len() as u32);
    }

    /// Makes `value` (per variable, whether it is true), which satisfies the remaining nogoods,
    /// satisfy the removed ones too.
    pub fn extend(&self, value: &mut [bool]) {
        let violated = |ng: &[Lit], value: &[bool]| ng.iter().all(|l| value[l.var() as usize] == l.is_pos());
        for w in self.start.windows(2).rev() {
            let ng = &self.lits[w[0] as usize..w[1] as usize];
            if violated(ng, value) {
                let v = ng[0].var() as usize;
                value[v] = !value[v];
            }
        }
        debug_assert!(
            self.start.windows(2).all(|w| !violated(&self.lits[w[0] as usize..w[1] as usize], value)),
            "a removed nogood violated after the extension"
        );
    }
}

impl Problem {
    /// The variables that elimination must keep: those that more than the nogoods read.
    pub fn frozen(&self) -> Vec<bool> {
        let mut keep = vec![false; self.num_vars as usize];
        let mut freeze = |l: Lit| keep[l.var() as usize] = true;
        freeze(Lit::TRUE);
        self.weights.lit.iter().chain(&self.weights.lits).for_each(|&l| freeze(l));
        self.costs.lits.iter().for_each(|&l| freeze(l));
        self.edges.iter().for_each(|e| freeze(e.lit));
        for h in &self.heuristics {
            freeze(Lit::pos(h.var));
            h.condition.iter().for_each(|&l| freeze(l));
        }
        for v in 0..self.num_vars {
            if let Some(r) = self.leader(v) {
                freeze(Lit::pos(v));
                freeze(r);
            }
            if self.scc[v as usize] == NO_SCC {
                continue;
            }
            freeze(Lit::pos(v));
            let (s, e) =
                (self.support_start[v as usize] as usize, self.support_start[v as usize + 1] as usize);
            for &b in &self.support[s..e] {
                freeze(self.bodies.lit[b as usize]);
                self.bodies.def(b as usize).0.iter().for_each(|&l| freeze(l));
            }
        }
        keep
    }

    /// Preprocesses the nogoods as `opts` says, keeping the [`frozen`](Self::frozen) variables:
    /// whether they changed (not where the limits say not to run).
    pub fn eliminate(&mut self, opts: &SatPrepro, stop: &StopToken) -> Result<bool, Interrupted> {
        let keep = self.frozen();
        let n = self.store.len();
        if opts.size != 0 && n > opts.size as usize * 1000 {
            return Ok(false);
        }
        if opts.frozen != 0 && keep.iter().filter(|&&k| k).count() * 100 >= opts.frozen as usize * keep.len()
        {
            return Ok(false);
        }
        let deadline = (opts.seconds != 0).then(|| Instant::now() + Duration::from_secs(opts.seconds.into()));
        let nogoods = (0..n).map(|i| self.store.nogood(i));
        let mut pre = Pre::new(nogoods, keep, &self.store.units, *opts, deadline, stop);
        pre.run()?;
        if !pre.changed {
            return Ok(false);
        }
        let (nogoods, units, out) = pre.finish(&self.store.units);
        log::info!(
            "sat-prepro: {} variables eliminated, {} nogoods blocked, {} nogoods left of {n}",
            out.vars,
            out.blocked,
            nogoods.len()
        );
        self.store = super::NogoodStore::build_until(nogoods, units, self.num_vars, stop)?;
        self.eliminated = out;
        Ok(true)
    }
}

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
struct Pre<'s> {
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
    keep: Vec<bool>,
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
    changed: bool,
    unsat: bool,
    opts: SatPrepro,
    deadline: Option<Instant>,
    stop: &'s StopToken,
}

impl<'s> Pre<'s> {
    /// The preprocessor for the nogoods `ngs` (each of two literals or more, no two of one
    /// variable), the variables `keep` says kept and those of `units` fixed.
    fn new<'n>(
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
            self.holding(l);
        }
    }

    /// The nogoods that hold `l` (its occurrence list cleaned).
    fn holding(&mut self, l: Lit) -> Vec<u32> {
        let mut list = std::mem::take(&mut self.occ[l.index()]);
        list.retain(|&id| self.holds(id, l));
        self.occ[l.index()] = list.clone();
        list
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

    fn run(&mut self) -> Result<(), Interrupted> {
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
    fn finish(self, units: &[Lit]) -> (Vec<Vec<Lit>>, Vec<Lit>, Eliminated) {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clasps_syntax_reads_back() {
        let p: SatPrepro = "2,iter=20,occ=25,time=120".parse().unwrap();
        assert_eq!((p.level, p.iterations, p.occurrences, p.seconds, p.size), (2, 20, 25, 120, 4000));
        assert_eq!(p.to_string().parse::<SatPrepro>(), Ok(p));
        let q: SatPrepro = "3,10,5".parse().unwrap();
        assert_eq!((q.level, q.iterations, q.occurrences), (3, 10, 5));
        assert_eq!("1,frozen=50,0".parse::<SatPrepro>().map(|p| (p.frozen, p.size)), Ok((50, 0)));
        assert!("4".parse::<SatPrepro>().unwrap_err().contains("1, 2 or 3"));
        assert!("2,depth=3".parse::<SatPrepro>().unwrap_err().contains("iter, occ"));
        assert!("2,x".parse::<SatPrepro>().unwrap_err().contains("a number"));
    }

    /// A random formula over variables 1..=n, nogoods of 2 to 4 literals, sorted, without two
    /// literals of one variable.
    fn formula(seed: u64, n: u32, m: usize) -> Vec<Vec<Lit>> {
        let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        let mut next = move |k: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % k
        };
        (0..m)
            .map(|_| {
                let len = 2 + next(3) as usize;
                let mut ng: Vec<Lit> = Vec::new();
                while ng.len() < len.min(n as usize) {
                    let v = 1 + next(u64::from(n)) as u32;
                    if ng.iter().all(|l| l.var() != v) {
                        ng.push(Lit::new(v, next(2) == 0));
                    }
                }
                ng.sort_unstable();
                ng
            })
            .collect()
    }

    fn satisfies(ngs: &[Vec<Lit>], units: &[Lit], value: &[bool]) -> bool {
        let t = |l: &Lit| value[l.var() as usize] == l.is_pos();
        ngs.iter().all(|ng| !ng.iter().all(t)) && !units.iter().any(t)
    }

    /// On random formulas, at each level: satisfiable exactly where the formula is, every model
    /// of what is left extends to one of the formula, the kept variables keep their values, and
    /// the eliminated are in no nogood left.
    #[test]
    fn every_model_of_what_is_left_extends_to_one_of_the_formula() {
        let n = 9u32;
        let (mut eliminated, mut blocked, mut shortened) = (0, 0, 0);
        for seed in 0..300u64 {
            let ngs = formula(seed, n, 6 + (seed % 25) as usize);
            let mut keep = vec![false; n as usize + 1];
            keep[0] = true;
            keep[1 + (seed % n as u64) as usize] = true;
            let level = 1 + (seed % 3) as u8;
            let opts = SatPrepro { level, ..SatPrepro::default() };
            let stop = StopToken::never();
            let mut pre = Pre::new(ngs.iter().map(Vec::as_slice), keep.clone(), &[], opts, None, &stop);
            pre.run().unwrap();
            shortened += usize::from(pre.changed);
            let gone: Vec<bool> = (0..=n).map(|v| pre.keep[v as usize] && !keep[v as usize]).collect();
            let (left, units, out) = pre.finish(&[]);
            (eliminated, blocked) = (eliminated + out.vars, blocked + out.blocked);
            assert!(
                left.iter()
                    .flatten()
                    .all(|l| !gone[l.var() as usize] || units.contains(l) || units.contains(&!*l))
            );
            let models = |f: &dyn Fn(&[bool]) -> bool| {
                (0..1u32 << n)
                    .map(|bits| (0..=n).map(|v| v == 0 || bits >> (v - 1) & 1 == 1).collect::<Vec<_>>())
                    .filter(|a| f(a))
                    .collect::<Vec<_>>()
            };
            let before = models(&|a| satisfies(&ngs, &[], a));
            let after = models(&|a| satisfies(&left, &units, a));
            assert_eq!(before.is_empty(), after.is_empty() || units.contains(&Lit::TRUE), "seed {seed}");
            for mut a in after {
                let kept: Vec<bool> = (0..=n as usize).filter(|&v| keep[v]).map(|v| a[v]).collect();
                out.extend(&mut a);
                assert!(satisfies(&ngs, &[], &a), "seed {seed}: {a:?} extended violates the formula");
                assert_eq!(kept, (0..=n as usize).filter(|&v| keep[v]).map(|v| a[v]).collect::<Vec<_>>());
            }
        }
        assert!(eliminated > 300 && blocked > 30 && shortened > 100, "{eliminated} {blocked} {shortened}");
    }
}
