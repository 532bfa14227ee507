//! The GPU search farm as a source of models (issue #26, `--gpu-mode=farm`): many searches in one
//! persistent kernel (`engine/cuda/farm`), exchanging short learned nogoods on the device. The
//! first search to find a total assignment answers (it is verified by the driver, as every
//! model), and the first to derive a conflict at level 0 proves that there is none.
//!
//! With several devices (`--gpu-devices`) a farm runs on each: they compete on the whole space,
//! or with split mode each takes cubes of it (`cubes.rs`), and the host relays the nogoods they
//! exchange. In split mode a farm's searches divide its part too, a cube a search at a time
//! (`FarmConfig::parts`).
//!
//! The farm answers the question of one model (or none) of a program without head cycles (a
//! non-tight one by its searches' unfounded-set checks), and enumerates its models (`-n 0` or `-n K`): then its searches take cubes of the space, across devices too,
//! never one cube two searches, and each backtracks from its models; their models come through a
//! ring on the device, read between time slices while the next slice runs (beside `-t N` CPU
//! searches a farm takes parts of their space a round at a time instead:
//! `portfolio/farm_member.rs`). Where it cannot
//! (optimization, projection, consequences, head cycles) the usual search runs and a
//! warning says why; where the GPU cannot be used, `--backend=auto` falls back to the usual
//! search too and any other backend is an error.

use super::config::{Backend, EnumMode};
use super::cubes::Cubes;
use super::driver::{Blocking, Driver, Event, Found, Source, Tally, Wants};
use super::exchange::Port;
use super::verify::Kept;
use super::{SolveError, SolveOptions};
use crate::engine::EngineStats;
use crate::engine::cuda::device::Device;
use crate::engine::cuda::farm::{Farm, FarmConfig, FarmState, tables};
use crate::nogoods::Lit;
use crate::program::Program;
use crate::stop::StopToken;
use std::collections::VecDeque;
use std::time::{Duration, Instant};

mod enumerate;
mod relay;

/// Searches a multiprocessor runs when `--gpu-searches` gives no number. A search is a warp
/// that waits on memory most of the time, so more of them hide each other's waits: on an H200,
/// six tight instances, 8 s, all searches together made 1.5 to 1.8 times the conflicts with 16
/// a multiprocessor as with 8, and 1.0 to 1.5 times more again with 32 (BENCHMARKS.md, "The
/// search farm"; `benchmarks/farm/searches-h200/`), at 0.1 s more start-up than with 8.
pub const SEARCHES_PER_SM: u32 = 16;

/// The farms, a device each, and what they have come to.
pub(super) struct FarmSource {
    /// Each device's farm (`None`: idle, its cube closed, or failed).
    farms: Vec<Option<Farm>>,
    devices: Vec<u32>,
    cubes: Cubes,
    config: FarmConfig,
    /// Whether the farms exchange learned nogoods through the host.
    share: bool,
    answered: bool,
    /// The winning search, numbered over every device's searches.
    winner: Option<u32>,
    /// The counters of farms that have ended (a cube closed), and the searches that failed.
    ended: EngineStats,
    failed: u32,
    /// Racing CPU searches (`-t N`, [`super::portfolio::RaceForOne`]): the farms' end of their
    /// exchange, which the host relays through between time slices.
    pub port: Option<Port>,
    /// When to stop: the run's token, or a race's.
    stop: StopToken,
    /// Nogoods the host relayed between the farms (and the CPU searches), and their bytes; farms
    /// started.
    relayed: u64,
    relayed_bytes: u64,
    started: u32,
    since: Instant,
    /// Enumeration: models read from the rings, verified, and not yet given out; what each
    /// verifying thread keeps from one check to the next, and how many such threads there may be
    /// (a core each); whether a slice runs meanwhile; whether every cube is done.
    pending: VecDeque<Vec<bool>>,
    kept: Vec<Kept>,
    checkers: usize,
    in_flight: bool,
    enumerated: bool,
    /// Enumeration: the host's time waiting for slices to end, reading the models from the
    /// rings and checking them (`-V`: which of the device and the host bounds the models a
    /// second).
    waited: Duration,
    read: Duration,
    checked: Duration,
    /// Enumeration where the driver needs no model's atoms (`-q -n 0`): models are checked and
    /// counted, not kept; those not yet handed over.
    counting: bool,
    counted: u64,
}

/// What a solve asks of the farm.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Job {
    /// One model, or none.
    One,
    /// Every model (or the first K), without costs or projection.
    All,
    /// Anything else (costs, projection): the farm declines.
    Other,
}

impl Job {
    /// What a solve asks of the farm: `costs`, whether its models come with their costs; `one`,
    /// whether one model is asked for; `projects`, whether the models are projected.
    pub(super) fn of(costs: bool, one: bool, projects: bool) -> Job {
        match () {
            _ if costs => Job::Other,
            _ if one => Job::One,
            _ if projects => Job::Other,
            _ => Job::All,
        }
    }
}

/// Why the farm takes no task of `program`, if it does not, as the program reads (the completion
/// may decline more: [`declined`]).
fn program_declined(program: &Program) -> Option<&'static str> {
    program.edges().next().is_some().then_some("the farm does not check acyclicity (#edge)")
}

/// Whether `--gpu-mode=auto` gives the task to the search farm, before the program is compiled:
/// one model or an enumeration ([`Job::of`], `optimizing`: with costs) without consequences,
/// `--enum-mode=domRec` or `--solve-limit` (which the farm's searches do not count), of a program
/// without #edge or (`head_cycle_free`, asked last) head cycles. What the farm declines of the
/// completion ([`declined`]: weights past 2^32 on a positive cycle, 2^29 variables) it declines
/// there, with a warning.
pub(super) fn auto_takes(
    program: &Program,
    opts: &SolveOptions,
    optimizing: bool,
    head_cycle_free: impl FnOnce() -> bool,
) -> bool {
    let job = Job::of(optimizing, !opts.several_models(), opts.project.is_some());
    job != Job::Other
        && !matches!(opts.enum_mode, EnumMode::Brave | EnumMode::Cautious | EnumMode::DomRec)
        && opts.stop.solve_limit().is_none()
        && program_declined(program).is_none()
        && head_cycle_free()
}

/// Why the farm, asked for, does not take this solve (`None`: it does, or it was not asked for;
/// [`FarmSource::new`] then says which).
pub(super) fn declined(d: &Driver<'_>, job: Job) -> Option<String> {
    d.opts.farm()?;
    if job == Job::Other {
        return Some("the farm enumerates models without optimization or projection".into());
    }
    program_declined(d.program).or_else(|| tables::unsupported(&d.problem)).map(str::to_string)
}

/// The message of a device error of the farm.
fn farm_err(e: String) -> SolveError {
    SolveError::Engine(format!("the search farm: {e}"))
}

impl FarmSource {
    /// Enumeration: models that neither the task nor the report needs to see (`-q -n 0`) are
    /// checked and counted, not kept.
    pub fn counting(mut self, yes: bool) -> Self {
        self.counting = yes;
        self
    }

    /// Sets a farm up on each device (`--gpu-devices`; with split mode each on a cube of its
    /// own); `Ok(None)` when it cannot run where that is no error (the usual search then runs)
    /// or when the stop token came first (then `stopped` says so).
    pub fn new(d: &Driver<'_>, job: Job) -> Result<Option<FarmSource>, SolveError> {
        Self::new_until(d, job, &d.opts.stop)
    }

    /// [`FarmSource::new`], the farm stopping when `stop` says (a race's token: CPU searches may
    /// answer first).
    pub fn new_until(d: &Driver<'_>, job: Job, stop: &StopToken) -> Result<Option<FarmSource>, SolveError> {
        Self::open(d, job, stop, None)
    }

    /// The farm of device `ordinal` alone, set up to enumerate parts of the space that it is
    /// given a round at a time ([`FarmSource::start_round`]): split mode beside CPU searches
    /// (`portfolio/farm_member.rs`). `Ok(None)` as [`FarmSource::new`].
    pub fn for_parts_until(
        d: &Driver<'_>,
        ordinal: u32,
        stop: &StopToken,
    ) -> Result<Option<FarmSource>, SolveError> {
        Self::open(d, Job::All, stop, Some(ordinal))
    }

    /// [`FarmSource::new_until`], or with `only` [`FarmSource::for_parts_until`].
    fn open(
        d: &Driver<'_>,
        job: Job,
        stop: &StopToken,
        only: Option<u32>,
    ) -> Result<Option<FarmSource>, SolveError> {
        let Some(want) = d.opts.farm() else { return Ok(None) };
        // Counting the devices waits for the driver's initialization, which a race's CPU searches
        // that answer first must not (a small program's run took 0.21 s against 0.01); the
        // kernels then load while the searches' parts are made (`Farm::load_while`).
        if !Device::count_until(stop) {
            return Ok(None);
        }
        let enumerate = job == Job::All;
        let devices = only.map_or_else(|| d.gpu_devices().to_vec(), |k| vec![k]);
        let set_up = || -> Result<Option<FarmSource>, String> {
            let searches =
                if want == 0 { Farm::multiprocessors(devices[0])? * SEARCHES_PER_SM } else { want };
            // Enumeration divides the space and shares nothing: its searches restart at their
            // backtrack level, never at level 0, where imported nogoods are added.
            let share = d.opts.distribute.is_some() && !enumerate;
            let cubes = if enumerate && devices.len() > 1 {
                Cubes::split_joining(&d.problem, devices.len(), false)
            } else if d.opts.split && devices.len() > 1 {
                Cubes::split(&d.problem, devices.len())
            } else {
                Cubes::whole(devices.len())
            };
            let config = FarmConfig { enumerate, ..FarmConfig::new(searches, share, d.opts.seed as u32) };
            // Each device's searches' parts, made on the CPU while the devices open.
            let first_parts = || -> Option<Vec<Vec<Vec<Lit>>>> {
                let t = Instant::now();
                let ready = (0..devices.len())
                    .map(|k| match cubes.cube(k) {
                        Some(c) if only.is_none() => parts(d, &config, c, stop),
                        _ => Some(Vec::new()),
                    })
                    .collect::<Option<Vec<_>>>()?;
                if only.is_none() {
                    log::debug!(
                        "search farm: {} cubes in {:.3}s",
                        ready.iter().map(Vec::len).sum::<usize>(),
                        t.elapsed().as_secs_f64()
                    );
                }
                Some(ready)
            };
            let Some(Some(ready)) = Farm::load_while(&devices, stop, first_parts)? else {
                return Ok(None);
            };
            let mut src = FarmSource {
                farms: (0..devices.len()).map(|_| None).collect(),
                devices,
                cubes,
                config,
                share,
                port: None,
                stop: stop.clone(),
                answered: false,
                winner: None,
                ended: EngineStats::default(),
                failed: 0,
                relayed: 0,
                relayed_bytes: 0,
                started: 0,
                since: Instant::now(),
                pending: VecDeque::new(),
                kept: Vec::new(),
                checkers: std::thread::available_parallelism().map_or(1, |n| n.get()),
                in_flight: false,
                waited: Duration::ZERO,
                read: Duration::ZERO,
                checked: Duration::ZERO,
                counting: false,
                counted: 0,
                enumerated: false,
            };
            for (k, parts) in ready.into_iter().enumerate().filter(|_| only.is_none()) {
                if !src.start(d, k, Some(parts))? {
                    return Ok(None);
                }
            }
            Ok(Some(src))
        };
        match set_up() {
            Ok(Some(src)) => {
                let running = src.farms.iter().flatten().map(|f| f.searches).sum();
                let searches = if only.is_some() { src.config.searches } else { running };
                log::info!("search farm: {searches} searches on {} GPU(s)", src.devices.len());
                Ok(Some(src))
            }
            Ok(None) => Ok(None),
            // Chosen by `--gpu-mode=auto`, the farm gives way to the usual search.
            Err(e) if !d.opts.farm_asked() => {
                log::info!("the search farm cannot run ({e}); the usual search runs");
                Ok(None)
            }
            Err(e) if d.opts.backend == Backend::Auto => {
                log::warn!("--gpu-mode=farm: {e}; the usual search runs");
                Ok(None)
            }
            Err(e) => Err(farm_err(e)),
        }
    }

    /// (Re)starts device `k`'s farm on its cube (none: it idles), its searches on `parts` of it
    /// (made here where `None`); false if the stop came first.
    fn start(&mut self, d: &Driver<'_>, k: usize, parts: Option<Vec<Vec<Lit>>>) -> Result<bool, String> {
        if let Some(old) = self.farms[k].take() {
            self.take_stats(&old);
        }
        let Some(cube) = self.cubes.cube(k) else { return Ok(true) };
        let seed = self.config.seed.wrapping_add(self.started.wrapping_mul(0x9e37_79b9));
        let Some(parts) = parts.or_else(|| self::parts(d, &self.config, cube, &self.stop)) else {
            return Ok(false);
        };
        let c = FarmConfig { cube: cube.to_vec(), seed, parts, ..self.config.clone() };
        self.started += 1;
        let t = Instant::now();
        let Some(farm) = Farm::new_until(&d.problem, &c, self.devices[k], &self.stop)? else {
            return Ok(false);
        };
        log::debug!("search farm: set up in {:.3}s", t.elapsed().as_secs_f64());
        if !cube.is_empty() {
            log::info!("search farm: device {} searches the cube {:?}", self.devices[k], cube);
        }
        self.farms[k] = Some(farm);
        Ok(true)
    }

    /// The farm of [`FarmSource::for_parts_until`] on a round of `parts` (cubes of one length,
    /// disjoint: [`Cubes::within`]), whose models [`Source::next`] then gives, until it says the
    /// round is exhausted; false if the stop came first.
    pub fn start_round(&mut self, d: &Driver<'_>, parts: Vec<Vec<Lit>>) -> Result<bool, SolveError> {
        debug_assert!(self.devices.len() == 1 && self.config.enumerate && self.pending.is_empty());
        self.cubes = Cubes::whole(1);
        self.enumerated = false;
        self.in_flight = false;
        self.start(d, 0, Some(parts)).map_err(farm_err)
    }

    /// The searches a farm runs (each device's; as asked, or as many as a device takes).
    pub fn searches(&self) -> u32 {
        self.config.searches
    }

    fn take_stats(&mut self, farm: &Farm) {
        match farm.stats() {
            Ok((stats, failed)) => {
                stats.iter().for_each(|s| self.ended += s);
                self.failed += failed;
            }
            Err(e) => log::warn!("search farm: its statistics could not be read: {e}"),
        }
    }

    /// Device `k`'s farm proved that `cube` (its cube when it reported) has no model: the cube
    /// is closed (a nogood for the others), and the devices it freed start on their next cube.
    /// Returns those devices (none for a cube closed already: a stale report).
    fn close(&mut self, d: &Driver<'_>, k: usize, cube: &[Lit]) -> Result<Vec<usize>, String> {
        let Some(moved) = self.cubes.close(cube) else { return Ok(Vec::new()) };
        if self.cubes.cube(k).is_none()
            && let Some(old) = self.farms[k].take()
        {
            self.take_stats(&old);
        }
        if self.share && !cube.is_empty() && cube.len() <= tables::XLEN {
            let g: Vec<u32> = cube.iter().map(|l| l.0).collect();
            for to in 0..self.farms.len() {
                let Some(g) = self.cubes.fit(to, g.clone()) else { continue };
                self.count(std::slice::from_ref(&g));
                if let Some(f) = self.farms[to].as_mut() {
                    f.import(std::slice::from_ref(&g))?;
                }
            }
        }
        for &j in &moved {
            if !self.start(d, j, None)? {
                break;
            }
        }
        Ok(moved)
    }
}

impl Source for FarmSource {
    fn next(&mut self, d: &Driver<'_>, wants: &Wants<'_>) -> Result<Event, SolveError> {
        if self.config.enumerate {
            return self.next_of_all(d, wants);
        }
        self.one(d, wants)
    }

    fn add_nogood(&mut self, _: &[Lit]) -> Result<bool, SolveError> {
        Err(SolveError::Internal("the search farm takes no nogoods".into()))
    }

    fn set_cost_bound(&mut self, _: Option<Vec<i64>>, _: bool) -> Result<(), SolveError> {
        Err(SolveError::Internal("the search farm takes no cost bound".into()))
    }

    fn finish(&mut self, tally: &mut Tally) {
        let mut sum = std::mem::take(&mut self.ended);
        let mut searches = 0;
        for f in self.farms.iter().flatten() {
            searches += f.searches;
            match f.stats() {
                Ok((stats, failed)) => {
                    stats.iter().for_each(|s| sum += s);
                    self.failed += failed;
                }
                Err(e) => log::warn!("search farm: its statistics could not be read: {e}"),
            }
        }
        if self.failed > 0 {
            log::warn!("search farm: {} searches failed", self.failed);
        }
        if !self.waited.is_zero() {
            log::info!(
                "search farm: of {:.2}s the host waited {:.2}s for slices, read models {:.2}s, checked them {:.2}s",
                self.since.elapsed().as_secs_f64(),
                self.waited.as_secs_f64(),
                self.read.as_secs_f64(),
                self.checked.as_secs_f64()
            );
        }
        if self.devices.len() > 1 {
            let secs = self.since.elapsed().as_secs_f64().max(1e-9);
            log::info!(
                "search farms: {} nogoods ({} bytes) relayed between {} devices, {:.0} a second ({:.0} bytes)",
                self.relayed,
                self.relayed_bytes,
                self.devices.len(),
                self.relayed as f64 / secs,
                self.relayed_bytes as f64 / secs
            );
        }
        sum.relayed = self.relayed;
        sum.relayed_bytes = self.relayed_bytes;
        tally.stats += &sum;
        tally.engine = "cuda-farm";
        tally.threads = Some((searches.max(self.config.searches), self.winner));
    }
}

impl FarmSource {
    /// One model, or none: slices until a farm answers, the space is exhausted, or the stop token
    /// (the run's, or that of a race that CPU searches may win) says to stop.
    pub(super) fn one(&mut self, d: &Driver<'_>, wants: &Wants<'_>) -> Result<Event, SolveError> {
        if self.answered || wants.costs || wants.fixed.is_some() {
            return Err(SolveError::Internal("the search farm answers one model, without costs".into()));
        }
        loop {
            if let Some(stop) = self.stop.reached() {
                return Ok(Event::Stopped(stop));
            }
            // Every farm's slice runs at once; then each is waited for.
            for f in self.farms.iter_mut().flatten() {
                f.launch_slice().map_err(farm_err)?;
            }
            // Each farm's state, with the cube it worked on.
            let mut states = Vec::new();
            for (k, f) in self.farms.iter_mut().enumerate() {
                if let Some(f) = f {
                    let cube = self.cubes.cube(k).unwrap_or_default().to_vec();
                    states.push((k, f.finish_slice().map_err(farm_err)?, cube));
                }
            }
            for (k, state, _) in &states {
                if let FarmState::Model(s) = *state {
                    return self.model(d, *k, s);
                }
            }
            self.relay().map_err(farm_err)?;
            // A farm started again in this round (its cube closed by another's proof) reported
            // on its old cube: that report is stale.
            let mut fresh = vec![false; self.farms.len()];
            for (k, state, cube) in states {
                if fresh[k] {
                    continue;
                }
                let moved = match state {
                    FarmState::Running | FarmState::Model(_) => Vec::new(),
                    FarmState::Unsat => self.close(d, k, &cube).map_err(farm_err)?,
                    FarmState::Failed => {
                        log::warn!("search farm: every search on device {} failed", self.devices[k]);
                        if let Some(old) = self.farms[k].take() {
                            self.take_stats(&old);
                        }
                        let moved = self.cubes.failed(k);
                        for &j in &moved {
                            self.start(d, j, None).map_err(farm_err)?;
                        }
                        moved
                    }
                };
                moved.into_iter().for_each(|j| fresh[j] = true);
            }
            if self.cubes.all_closed() {
                self.answered = true;
                return Ok(Event::Exhausted);
            }
            if !self.cubes.any_live() {
                return Err(SolveError::Internal("every search of the farm failed".into()));
            }
        }
    }

    /// The winning search, numbered over every device's searches, if a farm answered.
    pub(super) fn winner(&self) -> Option<u32> {
        self.winner
    }

    /// Search `s` of device `k`'s farm found a total assignment: the model.
    fn model(&mut self, d: &Driver<'_>, k: usize, s: u32) -> Result<Event, SolveError> {
        self.answered = true;
        let before: u32 = self.farms[..k].iter().flatten().map(|f| f.searches).sum();
        self.winner = Some(before + s);
        let farm = self.farms[k].as_ref().ok_or_else(|| SolveError::Internal("no farm answered".into()))?;
        let vals = farm.values(s).map_err(farm_err)?;
        let atoms = (0..=d.problem.num_atoms as usize).map(|a| a > 0 && vals[a] == 1).collect();
        Ok(Event::Model(Found {
            atoms,
            costs: None,
            blocking: Vec::new(),
            fixed: Vec::new(),
            excluded: false,
            source: 0,
            verified: false,
        }))
    }
}

/// The parts of `cube` that a farm's searches take, a part a search at a time (`None`: the stop
/// came first): in enumeration, cubes balanced by lookahead, for want of another way to divide
/// the space (its searches would find one another's models), all of which must be searched; in
/// split mode, cubes of the most frequent variables; otherwise none.
fn parts(d: &Driver<'_>, config: &FarmConfig, cube: &[Lit], stop: &StopToken) -> Option<Vec<Vec<Lit>>> {
    if config.enumerate {
        Cubes::balanced(&d.problem, 4 * config.searches as usize, cube, stop)
    } else if d.opts.split {
        Some(Cubes::for_searches(&d.problem, config.searches, cube))
    } else {
        Some(Vec::new())
    }
}

/// Says once why the farm, chosen by `opts.gpu_mode`, does not take a solve.
pub(super) fn warn_declined(why: &str, opts: &SolveOptions) {
    static SAID: std::sync::Once = std::sync::Once::new();
    let mode = opts.gpu_mode;
    SAID.call_once(|| match opts.threads {
        1 => log::warn!("--gpu-mode={mode}: {why}; the usual search runs"),
        n => log::warn!("--gpu-mode={mode}: {why}; the searches of -t {n} run without it, on the CPU engine"),
    });
}
