//! Enumeration by the farm (`-n 0`, `-n K`): its searches take cubes of the space, each
//! backtracking from its models, which come through a ring on the device; the host checks and
//! prints the models of one time slice while the next runs, the checks on several threads (one
//! thread checking every model was what bounded the farm's models a second).

use super::{Blocking, Driver, Event, FarmSource, FarmState, Found, SolveError, Wants, farm_err};
use crate::stop::{Phase, Stop};

/// Threads that check a slice's models, at most, and the models each takes at least.
const CHECKERS: usize = 8;
const PER_CHECKER: usize = 256;

impl FarmSource {
    /// Enumeration: the next model from the rings; the next slice runs while the host checks
    /// and prints the models of the last.
    pub(super) fn next_of_all(&mut self, d: &Driver<'_>, wants: &Wants<'_>) -> Result<Event, SolveError> {
        if wants.costs
            || wants.fixed.is_some()
            || matches!(wants.blocking, Blocking::Projection(_) | Blocking::Backtrack(Some(_)))
        {
            return Err(SolveError::Internal(
                "the search farm enumerates without costs or projection".into(),
            ));
        }
        loop {
            if let Some(atoms) = self.pending.pop_front() {
                return Ok(Event::Model(Found { atoms, excluded: true, verified: true, ..Found::default() }));
            }
            if self.enumerated {
                return Ok(Event::Exhausted);
            }
            if let Some(stop) = self.stop.reached() {
                return Ok(Event::Stopped(stop));
            }
            if !self.in_flight {
                self.launch()?;
            }
            self.in_flight = false;
            let mut states = Vec::new();
            let mut models = Vec::new();
            for (k, f) in self.farms.iter_mut().enumerate() {
                if let Some(f) = f {
                    let cube = self.cubes.cube(k).unwrap_or_default().to_vec();
                    let state = f.finish_slice().map_err(farm_err)?;
                    models.extend(f.take_models().map_err(farm_err)?);
                    states.push((k, state, cube));
                }
            }
            for (k, state, cube) in states {
                match state {
                    FarmState::Running => {}
                    FarmState::Unsat => {
                        self.close(d, k, &cube).map_err(farm_err)?;
                    }
                    FarmState::Model(_) | FarmState::Failed => {
                        // Its cube's models not yet found cannot be found again without repeating
                        // those that were.
                        return Err(farm_err(format!(
                            "a search on device {} failed while enumerating",
                            self.devices[k]
                        )));
                    }
                }
            }
            if self.cubes.all_closed() {
                self.enumerated = true;
            } else {
                self.launch()?;
            }
            // While the next slice runs.
            if let Some(stop) = self.check(d, &models)? {
                return Ok(Event::Stopped(stop));
            }
            self.pending.extend(models);
        }
    }

    /// Verifies `models` on up to [`CHECKERS`] threads, each with what it kept from its last
    /// check: the stop where a check was cut short (then none of them is reported); an error where
    /// one is not an answer set.
    fn check(&mut self, d: &Driver<'_>, models: &[Vec<bool>]) -> Result<Option<Stop>, SolveError> {
        if models.is_empty() {
            return Ok(None);
        }
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let threads = (models.len() / PER_CHECKER).clamp(1, CHECKERS.min(cores));
        if self.kept.len() < threads {
            self.kept.resize_with(threads, Default::default);
        }
        let stop = &d.opts.stop;
        let before = stop.enter(Phase::Verification);
        let per = models.len().div_ceil(threads);
        let verdicts: Vec<Result<Option<Stop>, SolveError>> = std::thread::scope(|scope| {
            let checks: Vec<_> = models
                .chunks(per)
                .zip(self.kept.iter_mut())
                .map(|(chunk, kept)| {
                    scope.spawn(move || {
                        for m in chunk {
                            if let Some(stop) = d.verify_in_search(m, kept, stop)? {
                                return Ok(Some(stop));
                            }
                        }
                        Ok(None)
                    })
                })
                .collect();
            checks.into_iter().map(|c| c.join().expect("a model check panicked")).collect()
        });
        stop.enter(before);
        let mut cut = None;
        for v in verdicts {
            cut = cut.or(v?);
        }
        Ok(cut)
    }

    /// Starts a slice on every farm.
    pub(super) fn launch(&mut self) -> Result<(), SolveError> {
        for f in self.farms.iter_mut().flatten() {
            f.launch_slice().map_err(farm_err)?;
        }
        self.in_flight = true;
        Ok(())
    }
}
