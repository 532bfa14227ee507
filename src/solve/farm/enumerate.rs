//! Enumeration by the farm (`-n 0`, `-n K`): its searches take cubes of the space, each
//! backtracking from its models, which come through a ring on the device; the host checks and
//! prints the models of one time slice while the next runs.

use super::{Blocking, Driver, Event, FarmSource, FarmState, Found, SolveError, Wants, farm_err};

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
                return Ok(Event::Model(Found { atoms, excluded: true, ..Found::default() }));
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
            for (k, f) in self.farms.iter_mut().enumerate() {
                if let Some(f) = f {
                    let cube = self.cubes.cube(k).unwrap_or_default().to_vec();
                    let state = f.finish_slice().map_err(farm_err)?;
                    self.pending.extend(f.take_models().map_err(farm_err)?);
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
        }
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
