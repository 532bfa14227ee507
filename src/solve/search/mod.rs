//! The search loop, written once over [`Engine`] (the paper's Algorithm 1): propagate; on a
//! conflict learn and backjump (or stop at level 0); otherwise decide an applicable rule, or
//! complete the assignment when none is left. Restarts, deletion of learned nogoods and the
//! stop token are polled here, the same for every engine. `cooperate.rs`: what a search of a
//! parallel run gives and takes; `fallback.rs`: the engine that takes over from a failed one.

pub mod assumptions;
mod cooperate;
mod fallback;

use super::SolveError;
use super::exchange::{Port, SharedBound};
use super::progress::Progress;
use super::restarts::RestartSchedule;
use super::split::Guide;
use crate::engine::{Completion, Engine, EngineError};
use crate::nogoods::Lit;
use crate::solve::config::{DEL_CFL, Restarts, SearchOptions};
use crate::stop::{Phase, Stop, StopToken};
use assumptions::{Assumptions, Path};
use std::sync::Arc;

/// What the search reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    /// A total assignment that passed every propagator and the minimality check (a candidate
    /// answer set, still to be verified).
    Model,
    /// No (more) answer sets.
    Exhausted,
    /// A limit, a signal or a race's winner stopped the search.
    Interrupted(Stop),
}

/// A check every total assignment must pass before it is a model (the minimality check of
/// programs with head cycles, `solve/minimality/`).
pub trait CandidateCheck {
    fn check(&mut self, atoms: &[bool], stop: &StopToken) -> Result<Candidate, SolveError>;
    /// Adds the check's own counts to the search's statistics.
    fn add_stats(&mut self, _st: &mut crate::engine::EngineStats) {}
}

/// The verdict of a [`CandidateCheck`].
#[derive(Debug)]
pub enum Candidate {
    /// It passes.
    Accepted,
    /// It does not: nogoods that exclude it.
    Rejected(Vec<Vec<Lit>>),
    /// The check was stopped before it could say.
    Interrupted(Stop),
}

/// Builds the engine that takes over when the search's engine fails.
pub type Fallback<'e> = Box<dyn FnMut() -> Result<Box<dyn Engine + 'e>, SolveError> + 'e>;

/// What the driver gave the engine, kept only where a fallback may have to be given it again.
enum Given {
    Nogood(Vec<Lit>),
    Bound(Option<Vec<i64>>, bool),
}

/// Propagation fixpoints between two takings-in of the others' nogoods and bound, between
/// restarts (clasp takes them in at its fixpoints every 64 choices).
pub const INTEGRATE_EVERY: u32 = 64;

pub struct Search<'e> {
    pub engine: Box<dyn Engine + 'e>,
    /// For programs with head cycles: the check every total assignment must pass.
    pub check: Option<Box<dyn CandidateCheck + 'e>>,
    restarts: RestartSchedule,
    conflicts: u64,
    /// Restarts made by the schedule (not those of a new part or new assumptions): with
    /// `conflicts`, what `--solve-limit` counts.
    restarts_made: u64,
    /// When learned nogoods are next deleted.
    reduce: RestartSchedule,
    /// The run's limits and signals, and in a race the flag set when another search answered.
    pub stop: StopToken,
    /// The best cost of a parallel optimization's searches, taken up at each restart (at level
    /// 0), and the version of it taken up last.
    pub shared_bound: Option<Arc<SharedBound>>,
    bound_seen: u64,
    /// Split mode: this search's part of the space (`solve/split.rs`); `None` in compete mode
    /// and for a single search.
    pub guide: Option<Guide>,
    /// Decided first, before any decision of the search's own (`assumptions.rs`; not in split
    /// mode, whose path is the guide's): a false one exhausts the search under them.
    assumptions: Assumptions,
    /// The assumption found false when the search last reported exhaustion under them (`None`:
    /// none was, and nothing is left at all).
    refuted: Option<Lit>,
    /// A parallel run's nogood exchange: what this search learned goes out after each conflict,
    /// what the others learned comes in at each restart and every [`INTEGRATE_EVERY`]
    /// propagation fixpoints between (clasp's `--integrate`).
    pub exchange: Option<Port>,
    /// Fixpoints since the others' nogoods and bound were last taken in.
    since_integrate: u32,
    outgoing: Vec<(Vec<Lit>, u32)>,
    fallback: Option<Fallback<'e>>,
    given: Vec<Given>,
    /// Backtracking enumeration: the engine backtracks after each model it reports (at the next
    /// call of [`Search::next_model`]) and on each conflict at its backtrack level.
    backtracking: bool,
    flip_due: bool,
    /// The run's progress (`-V2`): this search's conflicts and restarts go in at each restart.
    pub progress: Option<Arc<Progress>>,
    /// Its conflicts and restarts counted there so far.
    counted: (u64, u64),
}

impl<'e> Search<'e> {
    pub fn new(engine: Box<dyn Engine + 'e>, opts: &SearchOptions, stop: StopToken) -> Self {
        let mut restarts = opts.restarts;
        if matches!(restarts.sequence, Restarts::Dynamic(..)) && !engine.tells_lbd() {
            log::warn!(
                "the {} engine restarts by luby,100: dynamic restarts need the CPU engine",
                engine.name()
            );
            restarts = Restarts::Luby(100).into();
        }
        let mut del_cfl = opts.del_cfl.unwrap_or(DEL_CFL);
        if matches!(del_cfl.sequence, Restarts::Dynamic(..)) {
            // Deletion follows a number of conflicts; a dynamic schedule would delete at each.
            log::warn!("deletion follows the default schedule: a dynamic one has no conflict counts");
            del_cfl = DEL_CFL;
        }
        Search {
            engine,
            check: None,
            restarts: RestartSchedule::new(restarts),
            conflicts: 0,
            restarts_made: 0,
            reduce: RestartSchedule::new(del_cfl),
            stop,
            shared_bound: None,
            bound_seen: 0,
            guide: None,
            assumptions: Assumptions::default(),
            refuted: None,
            exchange: None,
            since_integrate: 0,
            outgoing: Vec::new(),
            fallback: None,
            given: Vec::new(),
            backtracking: false,
            flip_due: false,
            progress: None,
            counted: (0, 0),
        }
    }

    /// No model is left anywhere (a conflict at level 0): in split mode, for every search.
    fn exhausted(&self) -> Next {
        if let Some(g) = &self.guide {
            g.coordinator().finish();
        }
        Next::Exhausted
    }

    /// Split mode: the next part of the space, once this one is exhausted (or at the start).
    fn next_part(&mut self) -> Result<Option<Next>, Failure> {
        let g = self.guide.as_mut().expect("split mode");
        let part = match g.coordinator().next_part(&self.stop) {
            Err(stop) => return Ok(Some(Next::Interrupted(stop))),
            Ok(None) => return Ok(Some(Next::Exhausted)),
            Ok(Some(part)) => part,
        };
        let nogoods = g.take(part).to_vec();
        if self.backtracking {
            self.engine.set_part_root(None);
        }
        self.engine.restart()?;
        self.take_shared_bound()?;
        for ng in nogoods {
            if !self.add_nogood(&ng)? {
                return Ok(Some(self.exhausted()));
            }
        }
        Ok(None)
    }

    /// Searches under `lits` from now on (decided first, in order; the levels that decided the
    /// assumptions they begin with are kept, the others undone): the next
    /// [`Search::next_model`] reports a model where they all hold, or exhaustion if none is left
    /// there. What the search learns holds without them: it can be asked again under others.
    pub fn assume(&mut self, lits: Vec<Lit>) -> Result<(), SolveError> {
        debug_assert!(self.guide.is_none() && !self.backtracking, "assumptions are not a part's path");
        // The levels that decided assumptions the new ones begin with stay (a tester's
        // consecutive candidates differ in few atoms); the others are undone.
        let same = self.assumptions.lits.iter().zip(&lits).take_while(|(a, b)| a == b).count();
        let level = self.assumptions.at.keep(same, self.engine.decision_level());
        self.engine.keep_levels(level).map_err(|e| SolveError::Engine(e.0))?;
        self.assumptions.lits = lits;
        self.refuted = None;
        Ok(())
    }

    /// After [`Search::next_model`] reported exhaustion under assumptions: the assumptions that
    /// cannot all hold (an unsatisfiable core, [`Engine::core`]), or `None` if nothing is left
    /// whatever they are.
    pub fn core(&mut self) -> Result<Option<Vec<Lit>>, SolveError> {
        let Some(failed) = self.refuted else { return Ok(None) };
        self.engine.core(failed).map(Some).map_err(|e| SolveError::Engine(e.0))
    }

    /// Goes on over `p`, the search's problem extended ([`Engine::extend`]), from level 0; false
    /// if the stop token stopped it first.
    pub fn extend(&mut self, p: Arc<crate::nogoods::Problem>) -> Result<bool, SolveError> {
        debug_assert!(self.fallback.is_none() && self.guide.is_none() && !self.backtracking);
        self.assumptions.at = Default::default();
        self.engine.extend(p, &self.stop).map_err(|e| SolveError::Engine(e.0))
    }

    /// Whether the search can exclude its models by backtracking ([`Search::exclude_by_backtracking`]):
    /// a search of its own, or one that works on parts of the space (split mode); whose engine
    /// cannot fail over to another (which would not know what was enumerated).
    pub fn can_backtrack(&self) -> bool {
        (self.guide.is_some() || self.exchange.is_none())
            && self.fallback.is_none()
            && self.engine.can_backtrack()
    }

    /// Excludes the model just reached from the models to come by backtracking from it, when
    /// the search is next asked for one (clasp's `--enum-mode=bt`): no nogood per model. In split
    /// mode, within its part: the part's path is the engine's root.
    ///
    /// In split mode this notes where the model lies first (an engine that fails later gives back
    /// only what is left of its part; one that cannot fail need not): call it before the model
    /// is reported.
    pub fn exclude_by_backtracking(&mut self) -> Result<(), SolveError> {
        debug_assert!(self.can_backtrack());
        self.backtracking = true;
        self.flip_due = true;
        if let Some(g) = self.guide.as_mut() {
            self.engine.set_part_root(g.levels());
            if self.engine.may_fail() {
                g.note_model(&*self.engine).map_err(|e| SolveError::Engine(e.0))?;
            }
        }
        Ok(())
    }

    /// Projective enumeration by backtracking: the engine decides these atoms first.
    pub fn project_first(&mut self, atoms: &[u32]) {
        self.engine.project_first(atoms);
    }

    /// Flips the deepest decision that backtracking may flip; if none is left, the search's
    /// space (or its part: split mode) has been enumerated. A part whose first decision beyond
    /// the path is all that is left to flip gives away the other branch (`path + ¬d`), which a
    /// flip would put on the path.
    fn backtrack(&mut self) -> Result<Option<Next>, Failure> {
        if self.engine.backtrack()? {
            return Ok(None);
        }
        let top = self.engine.decision_level();
        let Some(g) = self.guide.as_mut().filter(|_| top > 0) else { return Ok(Some(self.exhausted())) };
        if g.levels().is_some_and(|k| top == k + 1) {
            let d = self.engine.decisions()?[top as usize - 1];
            g.give_branch(!d);
        }
        g.finish_part();
        self.next_part()
    }

    /// Adds a nogood that excludes a printed model (or its projection) and, in split mode,
    /// records it for the parts this search gives away; false if no model is left.
    pub fn block(&mut self, lits: &[Lit]) -> Result<bool, SolveError> {
        if let Some(g) = self.guide.as_mut() {
            g.record(lits);
        }
        let left = self.add_nogood(lits)?;
        if !left {
            self.exhausted();
        }
        Ok(left)
    }

    /// Runs until the next total assignment, exhaustion or a stop.
    pub fn next_model(&mut self) -> Result<Next, SolveError> {
        self.refuted = None;
        loop {
            match self.step() {
                Ok(Some(next)) => return Ok(next),
                Ok(None) => {}
                Err(Failure::Engine(e)) => {
                    if !self.fail_over(e)? {
                        return Ok(self.exhausted());
                    }
                }
                Err(Failure::Solve(e)) => return Err(e),
            }
        }
    }

    /// One turn of the loop: what the search reached, if anything.
    fn step(&mut self) -> Result<Option<Next>, Failure> {
        if let Some(stop) = self.stop.reached() {
            return Ok(Some(Next::Interrupted(stop)));
        }
        let limit = self.stop.solve_limit();
        if let Some(l) = limit
            && (self.conflicts >= l.conflicts || self.restarts_made >= l.restarts)
        {
            self.stop.stop(Stop::SolveLimit);
            return Ok(Some(Next::Interrupted(self.stop.reached().unwrap_or(Stop::SolveLimit))));
        }
        if std::mem::take(&mut self.flip_due)
            && let Some(next) = self.backtrack()?
        {
            return Ok(Some(next));
        }
        if self.guide.as_ref().is_some_and(|g| g.taken == 0) {
            return self.next_part();
        }
        // The engine may resolve conflicts inside propagate, up to the next restart or
        // deletion (exclusive: the conflict that makes one due comes back here).
        let left = limit.map_or(u64::MAX, |l| l.conflicts.saturating_sub(self.conflicts));
        let due = self.restarts.left().min(self.reduce.left()).min(left);
        self.engine.set_conflict_budget(due.saturating_sub(1));
        let ok = self.engine.propagate()?;
        let resolved = self.engine.take_resolved();
        if resolved > 0 {
            self.conflicts += resolved;
            self.restarts.skip(resolved);
            self.reduce.skip(resolved);
        }
        if !ok {
            if !self.engine.resolve_conflict()? {
                // Backtracking enumeration: nothing is left below the backtrack level; the
                // search goes on from the last decision not yet flipped, if any.
                if self.backtracking {
                    return self.backtrack();
                }
                return Ok(Some(self.exhausted()));
            }
            self.conflicts += 1;
            self.send()?;
            if self.restarts.conflict_lbd(self.engine.last_lbd()) {
                self.restarts_made += 1;
                self.engine.restart()?;
                self.count_progress();
                self.take_shared_bound()?;
                if !self.receive()? {
                    return Ok(Some(self.exhausted()));
                }
            }
            if self.reduce.conflict() {
                self.engine.reduce_learned();
            }
            return Ok(None);
        }
        if self.integrate_due() {
            let before = self.exchange.as_ref().map_or(0, |p| p.imported);
            self.take_shared_bound()?;
            if !self.receive()? {
                return Ok(Some(self.exhausted()));
            }
            if self.exchange.as_ref().is_some_and(|p| p.imported != before) {
                // What came in may assign or conflict: propagate before deciding.
                return Ok(None);
            }
        }
        if !self.assumptions.lits.is_empty() {
            match self.assumptions.establish(&mut *self.engine)? {
                Path::Decided => return Ok(None),
                Path::Refuted(l) => {
                    self.refuted = Some(l);
                    return Ok(Some(Next::Exhausted));
                }
                Path::Established => {}
            }
        }
        if let Some(g) = self.guide.as_mut() {
            match g.establish(&mut *self.engine)? {
                Path::Decided => return Ok(None),
                Path::Refuted(_) => return self.next_part(),
                Path::Established if g.coordinator().wanted() => {
                    g.split(&*self.engine)?;
                    if self.backtracking {
                        self.engine.set_part_root(g.levels());
                    }
                }
                Path::Established => {}
            }
        }
        if self.engine.decide()?.is_some() {
            return Ok(None);
        }
        if self.engine.complete()? != Completion::Total {
            return Ok(None);
        }
        let Some(check) = self.check.as_mut() else { return Ok(Some(Next::Model)) };
        let mut values = Vec::new();
        self.engine.atom_values(&mut values)?;
        let before = self.stop.enter(Phase::Minimality);
        let verdict = check.check(&values, &self.stop);
        self.stop.enter(before);
        match verdict? {
            Candidate::Accepted => Ok(Some(Next::Model)),
            // A check cut short proves nothing: the candidate is dropped, never reported.
            Candidate::Interrupted(stop) => Ok(Some(Next::Interrupted(stop))),
            Candidate::Rejected(nogoods) => {
                for ng in nogoods {
                    if !self.add_nogood(&ng)? {
                        return Ok(Some(self.exhausted()));
                    }
                }
                Ok(None)
            }
        }
    }
}

/// Why a step of the loop failed: its engine (which a fallback may replace), or the solve.
enum Failure {
    Engine(EngineError),
    Solve(SolveError),
}

impl From<EngineError> for Failure {
    fn from(e: EngineError) -> Self {
        Failure::Engine(e)
    }
}

impl From<SolveError> for Failure {
    fn from(e: SolveError) -> Self {
        Failure::Solve(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::cpu::CpuEngine;
    use crate::input::read_program;
    use crate::nogoods::complete;

    #[test]
    fn a_dynamic_deletion_schedule_falls_back_to_the_default() {
        let text = b"asp 1 0 0\n1 1 3 1 2 3 0 0\n0\n";
        let p = Arc::new(complete(&read_program(&text[..]).unwrap(), &StopToken::never(), 0).unwrap());
        let opts =
            SearchOptions { del_cfl: Some(Restarts::Dynamic(4, 0.8).into()), ..SearchOptions::default() };
        let s = Search::new(Box::new(CpuEngine::new(p, &opts)), &opts, StopToken::never());
        assert!(!s.reduce.is_dynamic(), "deletion never follows LBDs");
        assert_eq!(s.reduce.left(), RestartSchedule::new(DEL_CFL).left(), "the default's first deletion");
    }
}
