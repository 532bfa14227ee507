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
//! (`solve/sat_prepro.rs`): deciding on rules reads bodies and atoms that could be gone. This file
//! has the options, the stack of removed nogoods and what is frozen; `pre.rs` the passes.

mod pre;

use super::{Lit, NO_SCC, Problem};
use crate::stop::{Interrupted, StopToken};
use pre::Pre;
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
