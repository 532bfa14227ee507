//! The models of a parallel run's searches handed over to the driver (`handover.rs`): split
//! mode's parts, each model once, and an optimization's improvements in order, each search
//! bounding itself by the shared best cost.

use super::{Finish, Mode, Race, checks_aside, farm_member, gather, in_threads, start};
use crate::nogoods::Lit;
use crate::solve::core_guided::CoreGuided;
use crate::solve::driver::{
    Blocking, Checked, Driver, Ending, Event, Found, OwnedWants, Source, Tally, Task, Wants,
};
use crate::solve::exchange::SharedBound;
use crate::solve::handover::{self, Inbox, Item, Outbox};
use crate::solve::search::Next;
use crate::solve::verify::Kept;
use crate::solve::{Report, SolveError};
use crate::stop::{Stop, StopToken};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};

/// What the searches hand over: models, in the order they were found (or, optimizing, in the
/// order of their improvements), as a source; it has no more when every search has ended:
/// exhausted if the space was (one search exhausted it in compete mode, every part in split
/// mode). A projection that two parts found is handed over once.
struct Handed<'r> {
    inbox: Inbox,
    race: &'r Race,
    projections: Option<std::collections::HashSet<Vec<Lit>>>,
}

impl Source for Handed<'_> {
    fn next(&mut self, _: &Driver<'_>, _: &Wants<'_>) -> Result<Event, SolveError> {
        loop {
            return Ok(match self.inbox.recv() {
                Some(Item::Model(m)) => {
                    if let Some(seen) = self.projections.as_mut()
                        && !seen.insert(m.blocking.clone())
                    {
                        continue;
                    }
                    Event::Model(m)
                }
                Some(Item::Counted(k)) => Event::Counted(k),
                // Every search has ended (and dropped its outbox).
                None if self.race.exhausted() => Event::Exhausted,
                None => Event::Stopped(self.race.stop.reached().unwrap_or(Stop::Signal)),
            });
        }
    }

    /// The searches exclude the models they hand over themselves.
    fn add_nogood(&mut self, _: &[Lit]) -> Result<bool, SolveError> {
        Ok(true)
    }

    /// The searches bound themselves: each model they hand over has improved the shared bound.
    fn set_cost_bound(&mut self, _: Option<Vec<i64>>, _: bool) -> Result<(), SolveError> {
        Ok(())
    }

    fn finish(&mut self, _: &mut Tally) {
        // Past the model limit or a stop the searches are stopping; what they still send is not
        // reported.
        self.race.cancel();
    }
}

/// The searches of `d.opts.threads` hand `task` their models, each verified by its search: every model
/// (each search excludes what it hands over, in its part in split mode), or in an optimization
/// (a shared bound: `task` wants costs and no blocking) those better than every model before.
/// `bound` bounds every search from its start (optN's optimal models: the optimum, not strict).
/// In split mode the GPU search farm of each of `devices` takes parts beside the searches
/// (`farm_member.rs`, [`farm_member::devices`]): none twice; a farm that fails on the way is the run's
/// error.
pub(in crate::solve) fn parallel(
    d: &Driver<'_>,
    tally: &mut Tally,
    task: &mut dyn Task,
    report: &mut dyn Report,
    mode: Mode,
    bound: Option<Vec<i64>>,
    devices: &[u32],
) -> Result<Ending, SolveError> {
    let owned = OwnedWants::of(&task.wants());
    let wants = owned.view();
    let optimizing = matches!(wants.blocking, Blocking::Not);
    let shared = optimizing.then(|| Arc::new(SharedBound::default()));
    let n = d.opts.threads;
    let race = Race::racing(d, shared.clone(), mode, devices.len() as u32);
    let projections = matches!(wants.blocking, Blocking::Projection(_)).then(std::collections::HashSet::new);
    // Models that neither the task nor the report needs to see are only counted (`-q -n 0`).
    let count_only = task.takes_counts() && !report.wants_models();
    // An outbox for each search: the source has no more when the last search has ended and
    // dropped its own (`handover.rs`).
    let (outboxes, inbox) = handover::channel(n + devices.len() as u32);
    let outboxes: Mutex<Vec<Option<Outbox>>> = Mutex::new(outboxes.into_iter().map(Some).collect());
    let mut main_tally = Tally::new();
    let first = bound.as_deref();
    // In a race for an optimum, the first search may optimize by cores (`core_guided.rs`).
    let cores = optimizing && mode == Mode::Compete && first.is_none() && CoreGuided::wanted(d);
    let farm_searches = AtomicU32::new(0);
    let (mut results, ending) = in_threads(
        n + devices.len() as u32,
        |i| {
            let out = outboxes.lock().unwrap_or_else(|e| e.into_inner())[i as usize].take();
            let out = out.expect("one outbox per search");
            if let Some(&ordinal) = i.checked_sub(n).and_then(|k| devices.get(k as usize)) {
                return farm_member::farm_models(d, &race, ordinal, &wants, out, count_only, &farm_searches);
            }
            match (i, &race.bound) {
                (0, Some(shared)) if cores => core_models(d, &race, shared, &wants, out),
                _ => search_models(d, i, &race, &wants, first, out, count_only),
            }
        },
        || {
            let r = d.drive(&mut main_tally, &mut Handed { inbox, race: &race, projections }, task, report);
            race.cancel();
            r
        },
    );
    let farms = results.split_off(n as usize);
    let ending = ending?;
    tally.first_model = tally.first_model.or(main_tally.first_model);
    let farms = farms.into_iter().collect::<Result<Vec<_>, _>>()?;
    gather(results, &race, tally)?;
    // A farm that did not open took no part.
    let joined: Vec<Finish> = farms.into_iter().filter(|f| f.engine != "none").collect();
    if !joined.is_empty() {
        for f in joined {
            tally.stats += &f.stats;
            tally.searches.push(f.stats);
        }
        let won = tally.threads.and_then(|(_, w)| w);
        tally.threads = Some((n + farm_searches.load(Ordering::Relaxed), won));
    }
    Ok(ending)
}

/// A model of search `i`, checked here, in parallel with the other searches, before it is handed
/// over; or the stop that cut the check short.
fn verified(
    d: &Driver<'_>,
    mut f: Found,
    i: u32,
    kept: &mut Kept,
    stop: &StopToken,
) -> Result<Result<Found, Stop>, SolveError> {
    f.source = i as usize;
    if let Some(stop) = d.verify_in_search(&f.atoms, kept, stop)? {
        return Ok(Err(stop));
    }
    f.verified = true;
    Ok(Ok(f))
}

/// Offers a model's cost as the race's best: an improvement goes to the driver at once (the
/// others' bound follows the driver's). The bound its search takes from now on.
fn offer(d: &Driver<'_>, shared: &SharedBound, f: Found, out: &mut Outbox) -> Vec<i64> {
    let costs = f.costs.clone().expect("costs read");
    shared.offer(d.without_offset(&costs), || {
        out.send(f);
        out.flush();
    })
}

/// The first search of a race for an optimum, by cores: its models, each better than every one
/// before, handed over, until it proves the optimum or is stopped. It shares the best cost, not
/// its nogoods (they name its relaxation variables, which the others do not have).
fn core_models(
    d: &Driver<'_>,
    race: &Race,
    shared: &Arc<SharedBound>,
    wants: &Wants<'_>,
    mut out: Outbox,
) -> Result<Finish, SolveError> {
    let mut cg = CoreGuided::new(d, &race.stop)?;
    cg.share_bound(Arc::clone(shared));
    let mut kept = Kept::default();
    let next = loop {
        cg.take_shared_bound()?;
        match cg.next(d, wants)? {
            Event::Model(f) => {
                let f = match verified(d, f, 0, &mut kept, &race.stop)? {
                    Ok(f) => f,
                    Err(stop) => break Next::Interrupted(stop),
                };
                cg.set_cost_bound(Some(offer(d, shared, f, &mut out)), true)?;
            }
            Event::Exhausted => {
                race.win(0);
                break Next::Exhausted;
            }
            Event::Stopped(stop) => break Next::Interrupted(stop),
            Event::Counted(_) => {
                return Err(SolveError::Internal("counted models in an optimization".into()));
            }
        }
    };
    let (stats, engine) = cg.stats();
    Ok(Finish { next, stats, engine })
}

/// Search `i` of a parallel run: its models, handed over (see [`parallel`]), until its space (or
/// in split mode every part) is exhausted, or it is stopped.
fn search_models(
    d: &Driver<'_>,
    i: u32,
    race: &Race,
    wants: &Wants<'_>,
    bound: Option<&[i64]>,
    mut out: Outbox,
    count_only: bool,
) -> Result<Finish, SolveError> {
    let started = start(d, i, race);
    if !matches!(started, Ok(Some(_))) {
        // Never took a part: it leaves the others to it.
        if let Some(c) = &race.split {
            c.leave(Vec::new());
        }
    }
    let Some(mut s) = started? else { return Ok(Finish::stopped(race)) };
    if bound.is_some() {
        s.set_cost_bound(bound.map(<[i64]>::to_vec), false)?;
    }
    // A bound the others found while this engine was set up.
    s.take_shared_bound()?;
    // Split mode backtracks from its models where the engine can (the others record them).
    let backtrack = matches!(wants.blocking, Blocking::Backtrack(None)) && s.can_backtrack();
    if backtrack && count_only && race.split.is_some() && checks_aside::wanted(d.opts) {
        let next = checks_aside::count_models(d, &mut s, i, race, out)?;
        return Ok(Finish::of(&mut s, next));
    }
    let mut kept = Kept::default();
    // Where models are only counted, each is read into one buffer.
    let mut atoms = Vec::new();
    let wants = if backtrack { Wants { blocking: Blocking::Not, ..*wants } } else { *wants };
    let next = loop {
        match s.next_model()? {
            // (Backtracking excludes the optimizations, which share a bound.)
            Next::Model if backtrack && count_only => {
                match d.read_and_verify(&mut s, &mut atoms, &mut kept, &race.stop, false)? {
                    Checked::AnswerSet => out.count(),
                    Checked::Again => {}
                    Checked::Stopped(stop) => break Next::Interrupted(stop),
                }
            }
            Next::Model => {
                let Some(f) = s.read(|e| d.read(e, &wants))? else { continue };
                let f = match verified(d, f, i, &mut kept, &race.stop)? {
                    Ok(f) => f,
                    Err(stop) => break Next::Interrupted(stop),
                };
                match race.bound.as_deref() {
                    Some(shared) => s.set_cost_bound(Some(offer(d, shared, f, &mut out)), true)?,
                    None if backtrack => {
                        s.exclude_by_backtracking()?;
                        out.send(f);
                    }
                    None => {
                        let blocking = f.blocking.clone();
                        out.send(f);
                        if !s.block(&blocking)? {
                            race.win(i);
                            break Next::Exhausted;
                        }
                    }
                }
            }
            Next::Exhausted => {
                race.win(i);
                break Next::Exhausted;
            }
            stop @ Next::Interrupted(_) => break stop,
        }
    };
    Ok(Finish::of(&mut s, next))
}
