//! One search as a source of models for the driver (`driver.rs`): it reads and verifies each
//! model in the search's own sequence, excludes it by backtracking where the engine can (telling
//! the user once where it records them instead), and where models are only counted (`-q -n 0`)
//! hands them over as counts in batches.

use super::SolveError;
use super::driver::{Blocking, Checked, Driver, Event, Source, Tally, Wants};
use super::search::{Next, Search};
use super::verify::Kept;
use crate::nogoods::Lit;
use crate::stop::Stop;

/// One search as a source of models; or, when its set-up was stopped, none.
pub(super) struct OneSearch<'s> {
    search: Option<Search<'s>>,
    /// Whether the user was told that the search records its models.
    told: bool,
    /// Whether the search decides the projected atoms first (projective backtracking).
    projecting: bool,
    /// What the checks of its models keep: they are verified here, in the search's sequence,
    /// without the lock of the driver's table of kept checks.
    kept: Kept,
    /// Whether models the search excludes by backtracking are handed over as counts only
    /// ([`OneSearch::counting`]); the buffer their atoms are read into; the batch's size limit,
    /// doubling while models come, and what ended the last batch, handed over next.
    count_only: bool,
    atoms: Vec<bool>,
    batch: u64,
    after_batch: Option<Event>,
}

/// The most models [`OneSearch`] counts before it hands them over.
const MAX_COUNTED: u64 = 4096;

impl<'s> OneSearch<'s> {
    pub fn new(d: &Driver<'s>) -> Result<Self, SolveError> {
        let search = d.search(&d.opts.search, 0, &d.opts.stop)?;
        Ok(OneSearch {
            search,
            told: false,
            projecting: false,
            kept: Kept::default(),
            count_only: false,
            atoms: Vec::new(),
            batch: 1,
            after_batch: None,
        })
    }

    /// Models the task only counts and the report does not show (`-q -n 0`): where the search
    /// excludes its models by backtracking, each is read into one buffer, verified, and counted,
    /// and the counts are handed over in batches (of one model first, then doubling).
    pub fn counting(mut self, yes: bool) -> Self {
        self.count_only = yes;
        self
    }

    /// The next batch of verified models, counted; the event that ended it waits for the next
    /// call. Each model is verified before the next is searched for.
    fn next_counted(&mut self, d: &Driver<'_>) -> Result<Event, SolveError> {
        let s = self.search.as_mut().expect("a search to count the models of");
        let mut k = 0;
        let end = loop {
            match s.next_model()? {
                Next::Model => {
                    match d.read_and_verify(s, &mut self.atoms, &mut self.kept, &d.opts.stop, true)? {
                        Checked::AnswerSet => {}
                        Checked::Again => continue,
                        Checked::Stopped(stop) => break Event::Stopped(stop),
                    }
                    k += 1;
                    if k == self.batch {
                        self.batch = (2 * self.batch).min(MAX_COUNTED);
                        return Ok(Event::Counted(k));
                    }
                }
                Next::Exhausted => break Event::Exhausted,
                Next::Interrupted(stop) => break Event::Stopped(stop),
            }
        };
        Ok(if k == 0 {
            end
        } else {
            self.after_batch = Some(end);
            Event::Counted(k)
        })
    }
}

impl Source for OneSearch<'_> {
    fn next(&mut self, d: &Driver<'_>, wants: &Wants<'_>) -> Result<Event, SolveError> {
        if let Some(end) = self.after_batch.take() {
            return Ok(end);
        }
        let Some(s) = self.search.as_mut() else {
            return Ok(Event::Stopped(d.opts.stop.reached().unwrap_or(Stop::Signal)));
        };
        let backtrack = matches!(wants.blocking, Blocking::Backtrack(_)) && s.can_backtrack();
        if let (true, Blocking::Backtrack(Some(atoms))) = (backtrack && !self.projecting, wants.blocking) {
            self.projecting = true;
            s.project_first(atoms);
        }
        if matches!(wants.blocking, Blocking::Backtrack(_)) && !backtrack && !self.told {
            self.told = true;
            d.warn_records(s.engine.name());
        }
        if backtrack && self.count_only {
            return self.next_counted(d);
        }
        let wants = if backtrack { Wants { blocking: Blocking::Not, ..*wants } } else { *wants };
        loop {
            return Ok(match s.next_model()? {
                Next::Model => match s.read(|e| d.read(e, &wants))? {
                    Some(mut found) => {
                        if backtrack {
                            s.exclude_by_backtracking()?;
                            found.excluded = true;
                        }
                        if let Some(stop) = d.verify(&found.atoms, &mut self.kept, &d.opts.stop)? {
                            return Ok(Event::Stopped(stop));
                        }
                        found.verified = true;
                        Event::Model(found)
                    }
                    // The engine failed and another took over: the model is searched again.
                    None => continue,
                },
                Next::Exhausted => Event::Exhausted,
                Next::Interrupted(stop) => Event::Stopped(stop),
            });
        }
    }

    fn add_nogood(&mut self, lits: &[Lit]) -> Result<bool, SolveError> {
        self.search.as_mut().map_or(Ok(true), |s| s.add_nogood(lits))
    }

    fn set_cost_bound(&mut self, bound: Option<Vec<i64>>, strict: bool) -> Result<(), SolveError> {
        self.search.as_mut().map_or(Ok(()), |s| s.set_cost_bound(bound, strict))
    }

    fn finish(&mut self, tally: &mut Tally) {
        if let Some(s) = self.search.as_mut() {
            tally.stats += &s.stats();
            tally.engine = s.engine.name();
        }
    }
}
