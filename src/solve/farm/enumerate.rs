//! Enumeration by the farm (`-n 0`, `-n K`): its searches take cubes of the space, each
//! backtracking from its models, which come through a ring on the device; the host checks and
//! prints the models of one time slice while the next runs, the checks on several threads (one
//! thread checking every model was what bounded the farm's models a second).

use super::{Blocking, Driver, Event, FarmSource, FarmState, Found, SolveError, Wants, farm_err};
use crate::engine::cuda::farm::decode_model;
use crate::stop::{Phase, Stop};
use std::time::Instant;

/// Threads that check a slice's models, at most, and the models each takes at least.
const CHECKERS: usize = 8;
const PER_CHECKER: usize = 256;

impl FarmSource {
    /// Enumeration: the next model from the rings (or, where the driver only counts them, how
    /// many were checked); the next slice runs while the host checks and prints the models of
    /// the last.
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
            if self.counted > 0 {
                return Ok(Event::Counted(std::mem::take(&mut self.counted)));
            }
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
            let mut entries = Vec::new();
            let mut shape = (1, 0);
            for (k, f) in self.farms.iter_mut().enumerate() {
                if let Some(f) = f {
                    let cube = self.cubes.cube(k).unwrap_or_default().to_vec();
                    let t0 = Instant::now();
                    let state = f.finish_slice().map_err(farm_err)?;
                    let t1 = Instant::now();
                    entries.extend(f.take_models().map_err(farm_err)?);
                    shape = (f.model_words(), f.atoms());
                    self.waited += t1 - t0;
                    self.read += t1.elapsed();
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
            let t0 = Instant::now();
            let (cut, models) = self.check(d, &entries, shape)?;
            self.checked += t0.elapsed();
            if let Some(stop) = cut {
                return Ok(Event::Stopped(stop));
            }
            if self.counting {
                self.counted += (entries.len() / shape.0) as u64;
            }
            self.pending.extend(models);
        }
    }

    /// Decodes and verifies the models of `entries` (ring entries of `shape` = (words, atoms))
    /// on up to [`CHECKERS`] threads, each with what it kept from its last check: the stop where
    /// a check was cut short (then none of them is reported), else the models decoded (none
    /// where the driver only counts them); an error where one is not an answer set.
    fn check(
        &mut self,
        d: &Driver<'_>,
        entries: &[u32],
        (words, atoms): (usize, u32),
    ) -> Result<(Option<Stop>, Vec<Vec<bool>>), SolveError> {
        let count = entries.len() / words;
        if count == 0 {
            return Ok((None, Vec::new()));
        }
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let threads = (count / PER_CHECKER).clamp(1, CHECKERS.min(cores));
        if self.kept.len() < threads {
            self.kept.resize_with(threads, Default::default);
        }
        let (stop, keep) = (&d.opts.stop, !self.counting);
        let before = stop.enter(Phase::Verification);
        let per = count.div_ceil(threads) * words;
        type Checked = Result<(Option<Stop>, Vec<Vec<bool>>), SolveError>;
        let verdicts: Vec<Checked> = std::thread::scope(|scope| {
            let checks: Vec<_> = entries
                .chunks(per)
                .zip(self.kept.iter_mut())
                .map(|(chunk, kept)| {
                    scope.spawn(move || {
                        let mut models = Vec::new();
                        let mut atoms_of = Vec::new();
                        for e in chunk.chunks(words) {
                            decode_model(e, atoms, &mut atoms_of);
                            if let Some(stop) = d.verify_in_search(&atoms_of, kept, stop)? {
                                return Ok((Some(stop), Vec::new()));
                            }
                            if keep {
                                models.push(atoms_of.clone());
                            }
                        }
                        Ok((None, models))
                    })
                })
                .collect();
            checks.into_iter().map(|c| c.join().expect("a model check panicked")).collect()
        });
        stop.enter(before);
        let (mut cut, mut models) = (None, Vec::with_capacity(if keep { count } else { 0 }));
        for v in verdicts {
            let (c, m) = v?;
            cut = cut.or(c);
            models.extend(m);
        }
        Ok((cut, if cut.is_some() { Vec::new() } else { models }))
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
