//! The GPU search farm as a member of split mode's enumeration (`-t N -n 0` where the farm
//! enumerates): the N CPU searches start at once, and enumerate alone while the device opens
//! (0.3 s on an H200, more than a short run's whole time). Then the farm takes parts of the space
//! from the coordinator as a search does, but many at a time: every busy search gives away all
//! but 1/16 of what is left of its part ([`SPLITS`]). It divides them into cubes for its
//! thousands of searches ([`Cubes::within`]), enumerates them all, and hands their models over,
//! each verified; then it takes parts again, until none is left.
//!
//! Every part the farm takes is one the CPU searches have not touched (a split gives away an
//! unexplored branch), so no model is found twice. A farm that fails within a round has printed
//! some of its parts' models and not others, which nothing can tell apart: the run ends with the
//! error. A farm that cannot open leaves the parts to the CPU searches, and the searches that
//! finish before it opens end the run without it (it joins the coordinator once open).

use super::{Finish, Race};
use crate::solve::cubes::Cubes;
use crate::solve::driver::{Driver, Event, Source, Tally, Wants};
use crate::solve::farm::FarmSource;
use crate::solve::handover::Outbox;
use crate::solve::search::Next;
use crate::solve::{SolveError, SolveOptions};
use crate::stop::Stop;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

/// How long the farm waits for the busy searches to give away their parts, once one is there.
const LINGER: Duration = Duration::from_millis(5);

/// The parts the farm asks of each busy search, each half of what is left of the search's: it
/// keeps 1/16. (One farm on an H200 enumerates queens 14 about ten times as fast as 8 CPU
/// searches, so the searches keep about what they enumerate in the time the farm does the rest.)
const SPLITS: u32 = 4;

/// The cubes a round gives each of the farm's searches (as the farm alone divides the space).
const CUBES_PER_SEARCH: usize = 4;

/// The devices whose farms take part: those `--gpu-devices` names, or device 0.
pub(in crate::solve) fn devices(opts: &SolveOptions) -> Vec<u32> {
    if opts.gpu_devices.is_empty() { vec![0] } else { opts.gpu_devices.clone() }
}

/// The farm of device `ordinal` as a member of `race`'s split mode: its models handed over to
/// `out` (only counted where `count_only`), its searches added to `searches` once it runs.
pub(super) fn farm_models(
    d: &Driver<'_>,
    race: &Race,
    ordinal: u32,
    wants: &Wants<'_>,
    mut out: Outbox,
    count_only: bool,
    searches: &AtomicU32,
) -> Result<Finish, SolveError> {
    let coordinator = race.split.as_ref().expect("split mode");
    let t0 = Instant::now();
    // The searches enumerate meanwhile; those that finish do not wait for the farm.
    let opened = FarmSource::for_parts_until(d, ordinal, &race.stop);
    let mut farm = match opened {
        Ok(Some(farm)) if coordinator.join() => farm.counting(count_only),
        Ok(_) => return Ok(Finish::stopped(race)),
        Err(e) => {
            race.cancel();
            return Err(e);
        }
    };
    searches.fetch_add(farm.searches(), Ordering::Relaxed);
    log::info!("search farm: takes parts of the space after {:.3}s", t0.elapsed().as_secs_f64());
    let ran = rounds(d, race, &mut farm, wants, &mut out);
    if ran.is_err() {
        // What it had not finished is lost: the run ends with the error.
        race.cancel();
    }
    coordinator.leave(Vec::new());
    let mut tally = Tally::new();
    farm.finish(&mut tally);
    Ok(Finish { next: ran?, stats: tally.stats, engine: tally.engine })
}

/// The farm's rounds: parts taken, divided into cubes and enumerated, until none is left or the
/// race stops.
fn rounds(
    d: &Driver<'_>,
    race: &Race,
    farm: &mut FarmSource,
    wants: &Wants<'_>,
    out: &mut Outbox,
) -> Result<Next, SolveError> {
    let coordinator = race.split.as_ref().expect("split mode");
    let stopped = || Next::Interrupted(race.stop.reached().unwrap_or(Stop::Cancelled));
    loop {
        let parts = match coordinator.next_parts(&race.stop, SPLITS, LINGER) {
            Ok(Some(parts)) => parts,
            Ok(None) => return Ok(Next::Exhausted),
            Err(stop) => return Ok(Next::Interrupted(stop)),
        };
        // Backtracking records no nogood with a part (`--enum-mode=record` runs the farm alone).
        if parts.iter().any(|p| !p.nogoods.is_empty()) {
            return Err(SolveError::Internal("the search farm was given a part with nogoods".into()));
        }
        let t = Instant::now();
        let paths: Vec<_> = parts.into_iter().map(|p| p.path).collect();
        let target = CUBES_PER_SEARCH * farm.searches() as usize;
        let Some(cubes) = Cubes::within(&d.problem, &paths, target, &race.stop) else {
            return Ok(stopped());
        };
        log::debug!(
            "search farm: {} parts, {} cubes of {} literals in {:.3}s",
            paths.len(),
            cubes.len(),
            cubes.first().map_or(0, Vec::len),
            t.elapsed().as_secs_f64()
        );
        if cubes.is_empty() {
            // Propagation refutes every part.
            continue;
        }
        if !farm.start_round(d, cubes)? {
            return Ok(stopped());
        }
        loop {
            match farm.next(d, wants)? {
                Event::Model(f) => out.send(f),
                Event::Counted(k) => out.count_many(k),
                Event::Exhausted => break,
                Event::Stopped(stop) => return Ok(Next::Interrupted(stop)),
            }
        }
    }
}
