//! The race for one model (`-t N`, compete): the first search to find a model or to exhaust the
//! space answers, and the others stop; with `--gpu-mode=farm` the GPU search farm races the CPU
//! searches from this thread, sharing nogoods with them through the exchange.

use super::{Finish, Mode, Race, gather, in_threads, start};
use crate::nogoods::Lit;
use crate::solve::SolveError;
use crate::solve::driver::{Driver, Event, Found, Source, Tally, Wants};
use crate::solve::farm::{FarmSource, Job};
use crate::solve::search::Next;
use crate::stop::Stop;
use std::sync::Mutex;

/// The race for one model, as a source: the winner's model, or its proof that there is none.
pub(in crate::solve) struct RaceForOne {
    /// Once run: the searches' statistics, engine and winner, for `finish`.
    done: Option<Tally>,
    /// The GPU search farm's task where it races the (CPU) searches, from this thread, through
    /// their exchange; the farm once set up (as the searches start).
    farm_job: Option<Job>,
    farm: Option<FarmSource>,
}

impl RaceForOne {
    pub fn new() -> Self {
        RaceForOne { done: None, farm_job: None, farm: None }
    }

    /// The race of `-t N` CPU searches and the GPU search farm (`--gpu-mode=farm`, set up for
    /// `job` while they search), sharing nogoods where `--distribute` says so: the farm is the
    /// search after the N.
    pub fn beside_farm(job: Job) -> Self {
        RaceForOne { done: None, farm_job: Some(job), farm: None }
    }
}

impl Source for RaceForOne {
    fn next(&mut self, d: &Driver<'_>, wants: &Wants<'_>) -> Result<Event, SolveError> {
        if self.done.is_some() {
            return Ok(Event::Exhausted);
        }
        let race = Race::racing(d, None, Mode::Compete, u32::from(self.farm_job.is_some()));
        let model: Mutex<Option<Found>> = Mutex::new(None);
        let n = d.opts.threads;
        let (results, farm_next) = in_threads(
            d.opts.threads,
            |i| {
                let Some(mut s) = start(d, i, &race)? else { return Ok(Finish::stopped(&race)) };
                let next = loop {
                    match s.next_model()? {
                        Next::Model => {
                            // Read before winning: a model the engine fails to give is searched again.
                            let Some(f) = s.read(|e| d.read(e, wants))? else { continue };
                            if race.win(i) {
                                *model.lock().unwrap_or_else(|e| e.into_inner()) = Some(f);
                            }
                            break Next::Model;
                        }
                        Next::Exhausted => {
                            race.win(i);
                            break Next::Exhausted;
                        }
                        stop @ Next::Interrupted(_) => break stop,
                    }
                };
                Ok(Finish::of(&mut s, next))
            },
            || self.farm_job.map_or(Ok(None), |job| race_farm(d, wants, job, &mut self.farm, &race, &model)),
        );
        let farm_next = farm_next?;
        let mut tally = Tally::new();
        let finishes = match gather(results, &race, &mut tally) {
            // Every CPU search failed: the farm's answer, if it has one, stands.
            Err(_) if farm_next.is_some_and(|f| f != Next::Interrupted(Stop::Cancelled)) => {
                (0..n).map(|_| None).collect()
            }
            r => r?,
        };
        if let Some(farm) = self.farm.as_mut() {
            farm_tally(farm, n, race.winner(), &mut tally);
        }
        let next_of = |w: u32| if w == n { farm_next } else { finishes[w as usize].as_ref().map(|f| f.next) };
        let event = match race.winner() {
            Some(w) => match next_of(w) {
                Some(Next::Model) => Event::Model(
                    model.into_inner().unwrap_or_else(|e| e.into_inner()).expect("the winner's model"),
                ),
                _ => Event::Exhausted,
            },
            // Nobody answered: every search stopped at the time limit or a signal.
            None => Event::Stopped(
                first_stop(&finishes).or(farm_next.and_then(stopped_by)).unwrap_or(Stop::Signal),
            ),
        };
        self.done = Some(tally);
        Ok(event)
    }

    fn add_nogood(&mut self, _: &[Lit]) -> Result<bool, SolveError> {
        Ok(true)
    }

    fn set_cost_bound(&mut self, _: Option<Vec<i64>>, _: bool) -> Result<(), SolveError> {
        Ok(())
    }

    fn finish(&mut self, tally: &mut Tally) {
        if let Some(t) = self.done.take() {
            tally.stats += &t.stats;
            tally.engine = t.engine;
            tally.threads = t.threads;
            tally.searches = t.searches;
        }
    }
}

/// The farm's run in a race (search `n`, after the N CPU searches), set up into `slot`: its model
/// or proof, which wins if it comes first; `None` where the farm did not run or failed on the way
/// (the CPU searches race on). A farm that cannot be set up stops the race with the error (with
/// `--backend=auto` it has declined already, with a warning).
fn race_farm(
    d: &Driver<'_>,
    wants: &Wants<'_>,
    job: Job,
    slot: &mut Option<FarmSource>,
    race: &Race,
    model: &Mutex<Option<Found>>,
) -> Result<Option<Next>, SolveError> {
    let n = d.opts.threads;
    let t0 = std::time::Instant::now();
    let farm = match FarmSource::new_until(d, job, &race.stop) {
        Ok(Some(farm)) => {
            log::info!("search farm: joined the race after {:.3}s", t0.elapsed().as_secs_f64());
            slot.insert(farm)
        }
        Ok(None) => return Ok(None),
        Err(e) => {
            race.cancel();
            return Err(e);
        }
    };
    farm.port = race.exchange.as_ref().map(|x| x.port(n));
    Ok(match farm.one(d, wants) {
        Ok(Event::Model(f)) => {
            if race.win(n) {
                *model.lock().unwrap_or_else(|e| e.into_inner()) = Some(f);
            }
            Some(Next::Model)
        }
        Ok(Event::Exhausted) => {
            race.win(n);
            Some(Next::Exhausted)
        }
        Ok(Event::Stopped(stop)) => Some(Next::Interrupted(stop)),
        Ok(Event::Counted(_)) => None,
        Err(e) => {
            log::warn!("--parallel-mode: the search farm dropped out: {e}");
            None
        }
    })
}

/// The farm's statistics in a race's tally: its searches counted after the N CPU searches (the
/// winner too), its engine where it won.
fn farm_tally(farm: &mut FarmSource, n: u32, winner: Option<u32>, tally: &mut Tally) {
    let mut t = Tally::new();
    farm.finish(&mut t);
    tally.stats += &t.stats;
    let searches = t.threads.map_or(0, |(k, _)| k);
    let winner = winner.map(|w| if w == n { n + farm.winner().unwrap_or(0) } else { w });
    if winner.is_some_and(|w| w >= n) {
        tally.engine = t.engine;
    }
    tally.threads = Some((n + searches, winner));
}

/// Why the searches stopped, where none answered: the first stop that is not the race's own.
fn first_stop(finishes: &[Option<Finish>]) -> Option<Stop> {
    finishes.iter().flatten().find_map(|f| stopped_by(f.next))
}

/// The stop a search ended on, unless it is the race's own (another search answered).
fn stopped_by(next: Next) -> Option<Stop> {
    match next {
        Next::Interrupted(stop) if stop != Stop::Cancelled => Some(stop),
        _ => None,
    }
}
