//! Core-guided optimization (clasp's `--opt-strategy=usc`, by OLL): one search is asked for a
//! model under the assumption that no cost literal of the level being optimized is true. Where
//! there is none, the assumptions it refuted form an unsatisfiable core: at least one of its
//! literals is true in every model, so the level's lower bound rises by the core's least weight,
//! which each of its literals pays; what they pay beyond one true literal is charged to new
//! variables, "at least k of them are true" (`nogoods/relaxation.rs`), assumed false in turn. A
//! model that meets every assumption costs the lower bound: it is optimal for the level, and the
//! next level is optimized below it.
//!
//! Each core's relaxation variables join the problem at once (an extension of the engine), or,
//! with `disjoint` or once an extension is slow (a big program), at the end of a round: within a round a core's literals are not assumed again,
//! and the round ends with a model (an upper bound, reported). With `stratify` only the heaviest
//! soft literals are assumed at first; a model that meets them lets the next lighter ones in. The
//! first model is looked for without assumptions, so that a run stopped early has one.
//!
//! Invariant (OLL's, per level): every model `I` of the program under the bound costs
//! `lower + Σ weight(s)·[s true in I]` over the soft literals, plus, for each sum, its weight for
//! each of its "at least k" literals not yet made soft that are true; those follow from the soft
//! one before them. A model where no soft literal is true therefore costs `lower`.

use super::SolveError;
use super::driver::{Driver, Event, Source, Tally, Wants};
use super::exchange::SharedBound;
use super::search::{Next, Search};
use crate::engine::EngineStats;
use crate::nogoods::{AtLeast, Lit, Problem};
use crate::solve::config::{Backend, OptStrategy};
use crate::stop::{Stop, StopToken};
use std::collections::HashMap;
use std::sync::Arc;

/// An extension of the engine (a rebuild: its time follows the program's size) that takes this
/// many seconds or more makes the cores be relaxed a round at a time, one extension a round.
const SLOW_EXTENSION: f64 = 0.05;

/// A literal that costs `weight` while true.
#[derive(Clone, Copy, Debug)]
struct Soft {
    lit: Lit,
    weight: i64,
    /// For a relaxation variable: its sum, and its `k` ("at least k of the sum's literals").
    sum: Option<(usize, i64)>,
    /// Found in a core this round: not assumed until the round ends.
    used: bool,
}

/// A core's literals, relaxed: each "at least k of them" for `k` from 2 costs `weight`.
struct Sum {
    lits: Vec<Lit>,
    weight: i64,
}

pub(super) struct CoreGuided<'s> {
    search: Option<Search<'s>>,
    /// The problem the search solves: the program's, with the relaxation variables so far.
    problem: Arc<Problem>,
    /// The level being optimized (0 is the highest priority); all levels done: finished.
    level: usize,
    /// Its lower bound (without the offset).
    lower: i64,
    softs: Vec<Soft>,
    sums: Vec<Sum>,
    /// Relaxation variables asked for and not yet added: the sum, its index and its `k`.
    pending: Vec<(AtLeast, usize, i64)>,
    finished: bool,
    /// The stop token stopped an extension of the engine: the problem has variables the engine
    /// has not, and the search cannot go on.
    stopped: bool,
    /// Cores are relaxed a round at a time ([`OptStrategy::Usc`], or once an extension is slow),
    /// else each as soon as found.
    disjoint: bool,
    /// Only soft literals at least this heavy are assumed (stratification: heavier first).
    threshold: i64,
    stratify: bool,
    /// The first model is looked for without assumptions (a model as branch and bound's first
    /// comes, for a run stopped before the optimum).
    first: bool,
    /// Cores found, over the whole run, and the seconds spent extending the engine.
    cores: u64,
    extending: f64,
}

impl<'s> CoreGuided<'s> {
    /// One search on the CPU engine (the one that extracts cores), polling `stop`; none if the
    /// stop token stopped its set-up.
    pub fn new(d: &Driver<'s>, stop: &StopToken) -> Result<Self, SolveError> {
        let search = d.search_on(Backend::Cpu, &d.opts.search, 0, stop)?;
        let mut cg = CoreGuided {
            search,
            problem: Arc::clone(&d.problem),
            level: 0,
            lower: 0,
            softs: Vec::new(),
            sums: Vec::new(),
            pending: Vec::new(),
            finished: false,
            stopped: false,
            disjoint: matches!(d.opts.opt_strategy, OptStrategy::Usc { disjoint: true, .. }),
            threshold: 1,
            stratify: matches!(
                d.opts.opt_strategy,
                OptStrategy::Usc { stratify: true, .. } | OptStrategy::Auto
            ),
            first: true,
            cores: 0,
            extending: 0.0,
        };
        cg.start_level(0);
        Ok(cg)
    }

    /// Whether the run optimizes by cores: asked to (or by default), with an engine that
    /// extracts them (the CPU engine: not with `--backend=cuda` or the GPU farm). In a parallel
    /// run, its first search (`portfolio/`); the others by branch and bound.
    pub fn wanted(d: &Driver<'_>) -> bool {
        let asked = matches!(d.opts.opt_strategy, OptStrategy::Usc { .. } | OptStrategy::Auto);
        asked && d.opts.backend != Backend::Cuda && d.opts.farm().is_none()
    }

    /// The search's statistics and engine.
    pub fn stats(&mut self) -> (EngineStats, &'static str) {
        self.search.as_mut().map_or((EngineStats::default(), "none"), |s| (s.stats(), s.engine.name()))
    }

    /// In a race for an optimum: takes the best cost the other searches found, if it changed.
    pub fn take_shared_bound(&mut self) -> Result<(), SolveError> {
        self.search.as_mut().map_or(Ok(()), |s| s.take_shared_bound())
    }

    /// In a race for an optimum: the searches' best cost, taken at restarts.
    pub fn share_bound(&mut self, shared: Arc<SharedBound>) {
        if let Some(s) = self.search.as_mut() {
            s.shared_bound = Some(shared);
        }
    }

    fn start_level(&mut self, level: usize) {
        self.level = level;
        self.lower = 0;
        self.softs.clear();
        let costs = &self.problem.costs;
        if level >= costs.len() {
            self.finished = true;
            return;
        }
        let r = costs.range(level);
        let mut by_lit: HashMap<Lit, usize> = HashMap::new();
        for (&lit, &weight) in costs.lits[r.clone()].iter().zip(&costs.weights[r]) {
            match by_lit.get(&lit) {
                Some(&i) => self.softs[i].weight += weight,
                None => {
                    by_lit.insert(lit, self.softs.len());
                    self.softs.push(Soft { lit, weight, sum: None, used: false });
                }
            }
        }
        let heaviest = self.softs.iter().map(|s| s.weight).max().unwrap_or(1);
        self.threshold = if self.stratify { heaviest } else { 1 };
    }

    /// The literals assumed: each soft literal of the stratum false, heaviest first.
    fn assumptions(&self) -> Vec<Lit> {
        if self.first {
            return Vec::new();
        }
        let mut order: Vec<&Soft> =
            self.softs.iter().filter(|s| s.weight >= self.threshold.max(1) && !s.used).collect();
        order.sort_by_key(|s| std::cmp::Reverse(s.weight));
        order.into_iter().map(|s| !s.lit).collect()
    }

    /// The stratum's threshold falls to the next lighter weight of a soft literal (every soft
    /// literal is assumed once it is the least).
    fn next_stratum(&mut self) {
        let below = self.softs.iter().map(|s| s.weight).filter(|&w| w > 0 && w < self.threshold).max();
        debug_assert!(below.is_some(), "a model above the lower bound under every assumption");
        self.threshold = below.unwrap_or(1);
    }

    /// Takes in a core (assumption literals): the lower bound rises by its least weight, which
    /// each of its soft literals pays; its sum is asked for, and a relaxation variable paid off
    /// gives way to the next of its sum.
    fn relax(&mut self, core: &[Lit]) -> Result<(), SolveError> {
        let index: HashMap<Lit, usize> = self
            .softs
            .iter()
            .enumerate()
            .filter(|(_, s)| s.weight > 0 && !s.used)
            .map(|(i, s)| (!s.lit, i))
            .collect();
        let mut members: Vec<usize> = core.iter().filter_map(|l| index.get(l).copied()).collect();
        members.sort_unstable();
        members.dedup();
        if members.len() != core.len() {
            return Err(SolveError::Internal(format!("a core with literals that are not assumed: {core:?}")));
        }
        let w = members.iter().map(|&i| self.softs[i].weight).min().expect("a core is not empty");
        self.cores += 1;
        self.lower += w;
        for &i in &members {
            let s = &mut self.softs[i];
            s.weight -= w;
            s.used = true;
            if let (0, Some((sum, k))) = (s.weight, s.sum)
                && k < self.sums[sum].lits.len() as i64
            {
                let lits = self.sums[sum].lits.clone();
                self.pending.push((AtLeast { lits, k: k + 1 }, sum, k + 1));
            }
        }
        if members.len() > 1 {
            let lits: Vec<Lit> = members.iter().map(|&i| self.softs[i].lit).collect();
            self.sums.push(Sum { lits: lits.clone(), weight: w });
            self.pending.push((AtLeast { lits, k: 2 }, self.sums.len() - 1, 2));
        }
        log::debug!("core of {} literals, weight {w}: level {} bound {}", core.len(), self.level, self.lower);
        Ok(())
    }

    /// Ends the round: the relaxation variables asked for join the problem, and every soft
    /// literal is assumed again. False if the stop token stopped the engine's extension.
    fn end_round(&mut self) -> Result<bool, SolveError> {
        for s in &mut self.softs {
            s.used = false;
        }
        if self.pending.is_empty() {
            return Ok(true);
        }
        let pending = std::mem::take(&mut self.pending);
        let sums: Vec<AtLeast> = pending.iter().map(|(a, _, _)| a.clone()).collect();
        let (p, vars) = self.problem.with_relaxations(&sums);
        self.problem = Arc::new(p);
        for ((_, sum, k), v) in pending.into_iter().zip(vars) {
            let weight = self.sums[sum].weight;
            self.softs.push(Soft { lit: Lit::pos(v), weight, sum: Some((sum, k)), used: false });
        }
        let search = self.search.as_mut().expect("a search");
        let t0 = std::time::Instant::now();
        let done = search.extend(Arc::clone(&self.problem))?;
        let took = t0.elapsed().as_secs_f64();
        self.extending += took;
        if took >= SLOW_EXTENSION && !self.disjoint {
            log::info!(
                "extending the engine took {took:.3}s: cores are relaxed a round at a time from now on"
            );
            self.disjoint = true;
        }
        Ok(done)
    }
}

impl Source for CoreGuided<'_> {
    fn next(&mut self, d: &Driver<'_>, wants: &Wants<'_>) -> Result<Event, SolveError> {
        loop {
            if self.stopped {
                return Ok(Event::Stopped(d.opts.stop.reached().unwrap_or(Stop::Signal)));
            }
            if self.finished {
                return Ok(Event::Exhausted);
            }
            let assumptions = self.assumptions();
            let Some(s) = self.search.as_mut() else {
                return Ok(Event::Stopped(d.opts.stop.reached().unwrap_or(Stop::Signal)));
            };
            s.assume(assumptions)?;
            match s.next_model()? {
                Next::Interrupted(stop) => return Ok(Event::Stopped(stop)),
                Next::Exhausted => match s.core()? {
                    // Nothing is left under the bound: the last model is optimal (or there is
                    // none).
                    None => {
                        self.finished = true;
                        return Ok(Event::Exhausted);
                    }
                    Some(core) => {
                        self.relax(&core)?;
                        if !self.disjoint && !self.end_round()? {
                            self.stopped = true;
                        }
                    }
                },
                Next::Model => {
                    let Some(found) = s.read(|e| d.read(e, wants))? else { continue };
                    let offset = self.problem.costs.offset[self.level];
                    let cost = found.costs.as_ref().expect("costs read")[self.level] - offset;
                    if cost < self.lower {
                        return Err(SolveError::Internal(format!(
                            "a model of cost {cost} below the lower bound {} of level {}",
                            self.lower, self.level
                        )));
                    }
                    if cost == self.lower {
                        self.pending.clear();
                        self.start_level(self.level + 1);
                    } else if std::mem::take(&mut self.first) {
                        // Cores next.
                    } else {
                        // A round without cores held every assumption of the stratum: the
                        // lighter literals come in.
                        // A stopped extension leaves the engine as it was: the model is still
                        // reported, and the next call reports the stop.
                        let cores = !self.pending.is_empty() || self.softs.iter().any(|s| s.used);
                        self.stopped = !self.end_round()?;
                        if !cores {
                            self.next_stratum();
                        }
                    }
                    return Ok(Event::Model(found));
                }
            }
        }
    }

    fn add_nogood(&mut self, lits: &[Lit]) -> Result<bool, SolveError> {
        self.search.as_mut().map_or(Ok(true), |s| s.add_nogood(lits))
    }

    fn set_cost_bound(&mut self, bound: Option<Vec<i64>>, strict: bool) -> Result<(), SolveError> {
        self.search.as_mut().map_or(Ok(()), |s| s.set_cost_bound(bound, strict))
    }

    fn finish(&mut self, tally: &mut Tally) {
        let (stats, engine) = self.stats();
        tally.stats += &stats;
        tally.engine = engine;
        log::info!(
            "{} cores ({:.3}s extending the engine); level {} bound {}",
            self.cores,
            self.extending,
            self.level,
            self.lower
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::cpu::CpuEngine;
    use crate::input::read_program;
    use crate::nogoods::complete;
    use crate::solve::config::SearchOptions;
    use crate::stop::StopToken;

    /// `{a; b; c}. :- not a, not b.` (atoms 1, 2, 3).
    fn problem() -> Problem {
        let text = b"asp 1 0 0\n1 1 3 1 2 3 0 0\n1 0 0 0 2 -1 -2\n0\n";
        complete(&read_program(text).unwrap(), &StopToken::never(), 0).unwrap()
    }

    fn search() -> Search<'static> {
        let opts = SearchOptions::default();
        Search::new(Box::new(CpuEngine::new(Arc::new(problem()), &opts)), &opts, StopToken::never())
    }

    #[test]
    fn a_core_names_the_assumptions_a_refutation_rests_on() {
        let mut s = search();
        let (a, b, c) = (Lit::pos(1), Lit::pos(2), Lit::pos(3));
        s.assume(vec![!a, !c, !b]).unwrap();
        assert_eq!(s.next_model().unwrap(), Next::Exhausted);
        let mut core = s.core().unwrap().expect("refuted under assumptions");
        core.sort();
        let mut want = vec![!a, !b];
        want.sort();
        assert_eq!(core, want, "not a and not b cannot hold together; not c is not needed");
        // Under assumptions that can hold there is a model, and no core.
        s.assume(vec![!a, !c]).unwrap();
        assert_eq!(s.next_model().unwrap(), Next::Model);
        s.assume(vec![a]).unwrap();
        assert_eq!(s.next_model().unwrap(), Next::Model);
    }

    #[test]
    fn an_extended_search_keeps_its_answers_and_takes_the_new_variables() {
        let mut s = search();
        let p = problem();
        // o <-> at least 2 of a, b, c; assumed with not a: then b and c.
        let (q, vars) =
            p.with_relaxations(&[AtLeast { lits: vec![Lit::pos(1), Lit::pos(2), Lit::pos(3)], k: 2 }]);
        assert!(s.extend(Arc::new(q)).unwrap());
        let o = Lit::pos(vars[0]);
        s.assume(vec![!Lit::pos(1), o]).unwrap();
        assert_eq!(s.next_model().unwrap(), Next::Model);
        assert_eq!(s.engine.lit_value(Lit::pos(3)).unwrap(), Some(true));
        s.assume(vec![!Lit::pos(1), !Lit::pos(3), o]).unwrap();
        assert_eq!(s.next_model().unwrap(), Next::Exhausted);
        let mut core = s.core().unwrap().expect("a core");
        core.sort();
        let mut want = vec![!Lit::pos(1), !Lit::pos(3), o];
        want.sort();
        assert_eq!(core, want);
    }
}
