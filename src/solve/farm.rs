//! The GPU search farm as a source of models (issue #26, `--gpu-mode=farm`): many searches in one
//! persistent kernel (`engine/cuda/farm`), exchanging short learned nogoods on the device. The
//! first search to find a total assignment answers (it is verified by the driver, as every
//! model), and the first to derive a conflict at level 0 proves that there is none.
//!
//! The farm answers the question of one model (or none) of a tight program. Where it cannot
//! (more models, optimization, consequences, a non-tight program) the usual search runs and a
//! warning says why; where the GPU cannot be used, `--backend=auto` falls back to the usual
//! search too and any other backend is an error.

use super::SolveError;
use super::config::Backend;
use super::driver::{Driver, Event, Found, Source, Tally, Wants};
use crate::engine::EngineStats;
use crate::engine::cuda::farm::{Farm, FarmConfig, FarmState, tables};
use crate::nogoods::Lit;

/// Searches a multiprocessor runs when `--gpu-searches` gives no number.
pub const SEARCHES_PER_SM: u32 = 8;

/// The farm, once it has answered: the winning search.
pub(super) struct FarmSource {
    farm: Farm,
    answered: bool,
    winner: Option<u32>,
}

/// Why the farm, asked for, does not take this solve (`None`: it does, or it was not asked for;
/// [`FarmSource::new`] then says which). `one_model`: the task is one model (or none), without
/// costs.
pub(super) fn declined(d: &Driver<'_>, one_model: bool) -> Option<String> {
    d.opts.farm?;
    if !one_model {
        return Some("the farm answers one model (or none) without optimization".into());
    }
    if d.program.edges().next().is_some() {
        return Some("the farm does not check acyclicity (#edge)".into());
    }
    tables::unsupported(&d.problem).map(str::to_string)
}

impl FarmSource {
    /// Sets the farm up; `Ok(None)` when it cannot run where that is no error (the usual search
    /// then runs) or when the stop token came first (then `stopped` says so).
    pub fn new(d: &Driver<'_>) -> Result<Option<FarmSource>, SolveError> {
        let Some(want) = d.opts.farm else { return Ok(None) };
        let set_up = || -> Result<Option<Farm>, String> {
            let searches = if want == 0 { Farm::multiprocessors()? * SEARCHES_PER_SM } else { want };
            let c = FarmConfig::new(searches, d.opts.distribute.is_some(), d.opts.seed as u32);
            Farm::new_until(&d.problem, &c, &d.opts.stop)
        };
        match set_up() {
            Ok(Some(farm)) => {
                log::info!("search farm: {} searches on the GPU", farm.searches);
                Ok(Some(FarmSource { farm, answered: false, winner: None }))
            }
            Ok(None) => Ok(None),
            Err(e) if d.opts.backend == Backend::Auto => {
                log::warn!("--gpu-mode=farm: {e}; the usual search runs");
                Ok(None)
            }
            Err(e) => Err(SolveError::Engine(format!("the search farm: {e}"))),
        }
    }
}

impl Source for FarmSource {
    fn next(&mut self, d: &Driver<'_>, wants: &Wants<'_>) -> Result<Event, SolveError> {
        if self.answered || wants.costs || wants.fixed.is_some() {
            return Err(SolveError::Internal("the search farm answers one model, without costs".into()));
        }
        loop {
            if let Some(stop) = d.opts.stop.reached() {
                return Ok(Event::Stopped(stop));
            }
            match self.farm.run_slice().map_err(|e| SolveError::Engine(format!("the search farm: {e}")))? {
                FarmState::Running => continue,
                FarmState::Unsat => {
                    self.answered = true;
                    return Ok(Event::Exhausted);
                }
                FarmState::Failed => {
                    return Err(SolveError::Internal("every search of the farm failed".into()));
                }
                FarmState::Model(s) => {
                    self.answered = true;
                    self.winner = Some(s);
                    let vals = self
                        .farm
                        .values(s)
                        .map_err(|e| SolveError::Engine(format!("the search farm: {e}")))?;
                    let atoms = (0..=d.problem.num_atoms as usize).map(|a| a > 0 && vals[a] == 1).collect();
                    return Ok(Event::Model(Found {
                        atoms,
                        costs: None,
                        blocking: Vec::new(),
                        fixed: Vec::new(),
                        excluded: false,
                        source: 0,
                    }));
                }
            }
        }
    }

    fn add_nogood(&mut self, _: &[Lit]) -> Result<bool, SolveError> {
        Err(SolveError::Internal("the search farm takes no nogoods".into()))
    }

    fn set_cost_bound(&mut self, _: Option<Vec<i64>>, _: bool) -> Result<(), SolveError> {
        Err(SolveError::Internal("the search farm takes no cost bound".into()))
    }

    fn finish(&mut self, tally: &mut Tally) {
        match self.farm.stats() {
            Ok((stats, failed)) => {
                let mut sum = EngineStats::default();
                stats.iter().for_each(|s| sum += s);
                tally.stats += &sum;
                if failed > 0 {
                    log::warn!("search farm: {failed} searches failed");
                }
            }
            Err(e) => log::warn!("search farm: its statistics could not be read: {e}"),
        }
        tally.engine = "cuda-farm";
        tally.threads = Some((self.farm.searches, self.winner));
    }
}

/// Says once why the farm does not take a solve.
pub(super) fn warn_declined(why: &str) {
    static SAID: std::sync::Once = std::sync::Once::new();
    SAID.call_once(|| log::warn!("--gpu-mode=farm: {why}; the usual search runs"));
}
