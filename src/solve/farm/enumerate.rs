//! Enumeration by the farm (`-n 0`, `-n K`): its searches take cubes of the space, each
//! backtracking from its models, which come through a ring on the device; the host checks and
//! prints the models of one time slice while the next runs, the checks on several threads (one
//! thread checking every model was what bounded the farm's models a second).

use super::{Blocking, Driver, Event, FarmSource, FarmState, Found, SolveError, Wants, farm_err};
use crate::engine::cuda::farm::decode_model;
use crate::solve::verify::Kept;
use crate::stop::{Phase, Stop};
use std::time::Instant;

/// The models a thread that checks a slice's models takes at least (the threads are at most the
/// cores: the host's one thread waits for them while the device runs the next slice).
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
    /// on a thread a core at most ([`check_entries`]), in the run's verification phase.
    fn check(&mut self, d: &Driver<'_>, entries: &[u32], shape: (usize, u32)) -> Result<Checked, SolveError> {
        let stop = &d.opts.stop;
        let before = stop.enter(Phase::Verification);
        let checked =
            check_entries(entries, shape, self.checkers, &mut self.kept, !self.counting, |m, kept| {
                d.verify_in_search(m, kept, stop)
            });
        stop.enter(before);
        checked
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

/// What a check of a slice's models gives: the stop where a check was cut short (then none of
/// them is reported), else the models decoded (none where the driver only counts them).
type Checked = (Option<Stop>, Vec<Vec<bool>>);

/// Decodes the models of `entries` (ring entries of `shape` = (words, atoms)) and checks each by
/// `verify`, on up to `threads` threads of at least [`PER_CHECKER`] models each (every thread
/// with what it kept in `kept` from its last check); keeps the models, in order, if `keep`. An
/// error where one is not an answer set.
fn check_entries<V>(
    entries: &[u32],
    (words, atoms): (usize, u32),
    threads: usize,
    kept: &mut Vec<Kept>,
    keep: bool,
    verify: V,
) -> Result<Checked, SolveError>
where
    V: Fn(&[bool], &mut Kept) -> Result<Option<Stop>, SolveError> + Sync,
{
    let count = entries.len() / words;
    if count == 0 {
        return Ok((None, Vec::new()));
    }
    let threads = (count / PER_CHECKER).clamp(1, threads.max(1));
    if kept.len() < threads {
        kept.resize_with(threads, Default::default);
    }
    let per = count.div_ceil(threads) * words;
    let verify = &verify;
    let verdicts: Vec<Result<Checked, SolveError>> = std::thread::scope(|scope| {
        let checks: Vec<_> = entries
            .chunks(per)
            .zip(kept.iter_mut())
            .map(|(chunk, kept)| {
                scope.spawn(move || {
                    let (mut models, mut m) = (Vec::new(), Vec::new());
                    for e in chunk.chunks(words) {
                        decode_model(e, atoms, &mut m);
                        if let Some(stop) = verify(&m, kept)? {
                            return Ok((Some(stop), Vec::new()));
                        }
                        if keep {
                            models.push(m.clone());
                        }
                    }
                    Ok((None, models))
                })
            })
            .collect();
        checks.into_iter().map(|c| c.join().expect("a model check panicked")).collect()
    });
    let (mut cut, mut models) = (None, Vec::with_capacity(if keep { count } else { 0 }));
    for v in verdicts {
        let (c, m) = v?;
        cut = cut.or(c);
        models.extend(m);
    }
    Ok((cut, if cut.is_some() { Vec::new() } else { models }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stop::Stop;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// 3,000 entries of 3 words (atoms 1..=70): each model comes back decoded, in order, once
    /// checked; counted only, none is kept; a stop reports none; an error is the error.
    #[test]
    fn a_slices_models_are_decoded_checked_and_kept_in_order() {
        let (words, atoms, n) = (3usize, 70u32, 3000u32);
        let entries: Vec<u32> = (0..n).flat_map(|i| [i.wrapping_mul(0x9e37_79b9), i, i % 64]).collect();
        let mut want = Vec::new();
        for e in entries.chunks(words) {
            let mut m = Vec::new();
            decode_model(e, atoms, &mut m);
            want.push(m);
        }
        let seen = AtomicUsize::new(0);
        let mut kept = Vec::new();
        let count = |_: &[bool], _: &mut Kept| {
            seen.fetch_add(1, Ordering::Relaxed);
            Ok(None)
        };
        let (cut, models) = check_entries(&entries, (words, atoms), 8, &mut kept, true, count).unwrap();
        assert!(cut.is_none() && models == want && seen.load(Ordering::Relaxed) == n as usize);
        assert_eq!(kept.len(), 8);
        let (cut, models) = check_entries(&entries, (words, atoms), 3, &mut kept, false, count).unwrap();
        assert!(cut.is_none() && models.is_empty() && seen.load(Ordering::Relaxed) == 2 * n as usize);
        let stopped = |m: &[bool], _: &mut Kept| Ok((m == want[2500].as_slice()).then_some(Stop::Signal));
        let (cut, models) = check_entries(&entries, (words, atoms), 4, &mut kept, true, stopped).unwrap();
        assert!(cut == Some(Stop::Signal) && models.is_empty());
        let wrong = |m: &[bool], _: &mut Kept| {
            if m == want[7].as_slice() {
                Err(SolveError::Internal("not an answer set".into()))
            } else {
                Ok(None)
            }
        };
        assert!(check_entries(&entries, (words, atoms), 2, &mut kept, true, wrong).is_err());
        assert_eq!(
            check_entries(&[], (words, atoms), 2, &mut kept, true, count).unwrap(),
            (None, Vec::new())
        );
    }
}
