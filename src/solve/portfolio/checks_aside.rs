//! A split search's models checked in a thread beside it, where they are only counted (`-t N -q
//! -n 0`) and the machine has a core for each search and each checker: the search reads each
//! model's atoms, backtracks from it at once and hands the atoms over in chunks; the checker
//! verifies them in the order found and counts the answer sets into the search's outbox. As
//! `pipeline.rs` does for one search: the checks no longer add to the search's time.
//!
//! Nothing is counted that the checker has not verified. The checker stops only for the run's
//! own stop (a signal, a time limit), not for the race's end: the last search to find its space
//! exhausted ends the race while the others' checkers may still hold models, and every model
//! found must be counted. A check that a stop cuts short counts nothing, and the chunks still on
//! their way are dropped with it. Chunks are pooled (a buffer freed by another thread than the
//! one that made it is slow to free) and bounded in number and size: a search that runs ahead
//! waits.

use super::Race;
use crate::solve::driver::Driver;
use crate::solve::handover::{BATCHES_IN_FLIGHT, Outbox, Pace};
use crate::solve::search::{Next, Search};
use crate::solve::verify::Kept;
use crate::solve::{SolveError, SolveOptions};
use crate::stop::Stop;
use std::sync::mpsc::{Receiver, Sender, SyncSender, channel, sync_channel};

/// The most models a chunk holds, the most bytes (of atoms) one holds, and the most bytes the
/// chunks on their way to one checker hold together.
const CHUNK_MODELS: usize = 1024;
const CHUNK_BYTES: usize = 4 << 20;
const IN_FLIGHT_BYTES: usize = 16 << 20;

/// Whether the searches of a split run check their counted models aside (`--verify-thread`: by
/// default where the machine has a core for each search and each checker).
pub(super) fn wanted(opts: &SolveOptions) -> bool {
    opts.verify_thread.aside(2 * opts.threads as usize)
}

/// Search `i`'s models, counted into `out` once checked aside, until its space (every part) is
/// exhausted or it is stopped; what it ends with.
pub(super) fn count_models(
    d: &Driver<'_>,
    s: &mut Search<'_>,
    i: u32,
    race: &Race,
    out: Outbox,
) -> Result<Next, SolveError> {
    let width = d.program.atom_count() as usize + 1;
    let per_chunk = (CHUNK_BYTES / width).clamp(1, CHUNK_MODELS);
    let in_flight = (IN_FLIGHT_BYTES / (width * per_chunk)).clamp(1, BATCHES_IN_FLIGHT);
    let (full_tx, full_rx) = sync_channel::<Vec<bool>>(in_flight);
    let (empty_tx, empty_rx) = channel::<Vec<bool>>();
    std::thread::scope(|scope| {
        let checker = scope.spawn(move || check(d, width, full_rx, empty_tx, out));
        let searched = search(s, i, race, width, per_chunk, &full_tx, &empty_rx);
        drop(full_tx);
        let checked = checker.join().unwrap_or_else(|p| std::panic::resume_unwind(p))?;
        match (searched?, checked) {
            (_, Some(stop)) => Ok(Next::Interrupted(stop)),
            (Some(next), None) => Ok(next),
            (None, None) => Err(SolveError::Internal("a checker ended before its search".into())),
        }
    })
}

/// The search's side: each model's atoms added to a chunk, the chunk sent when its pace says so.
/// `None` where the checker stopped taking chunks (it says why).
fn search(
    s: &mut Search<'_>,
    i: u32,
    race: &Race,
    width: usize,
    per_chunk: usize,
    full: &SyncSender<Vec<bool>>,
    empty: &Receiver<Vec<bool>>,
) -> Result<Option<Next>, SolveError> {
    let mut atoms = Vec::with_capacity(width);
    let mut chunk = Vec::with_capacity(width * per_chunk);
    let mut pace = Pace::new(per_chunk);
    let send = |chunk: &mut Vec<bool>| {
        let mut next = empty.try_recv().unwrap_or_default();
        next.clear();
        full.send(std::mem::replace(chunk, next)).is_ok()
    };
    let next = loop {
        match s.next_model()? {
            Next::Model => {
                // Where a read finds nothing, the engine failed and another took over: the model
                // is searched again.
                if s.read(|e| e.atom_values(&mut atoms))?.is_none() {
                    continue;
                }
                s.exclude_by_backtracking()?;
                chunk.extend_from_slice(&atoms);
                if pace.send_at(chunk.len() / width) && !send(&mut chunk) {
                    return Ok(None);
                }
            }
            Next::Exhausted => {
                race.win(i);
                break Next::Exhausted;
            }
            stop @ Next::Interrupted(_) => break stop,
        }
    };
    if !chunk.is_empty() && !send(&mut chunk) {
        return Ok(None);
    }
    Ok(Some(next))
}

/// The checker's side: every model of every chunk verified and counted, until the search stops
/// sending; the run's stop that cut a check short, if one did.
fn check(
    d: &Driver<'_>,
    width: usize,
    full: Receiver<Vec<bool>>,
    empty: Sender<Vec<bool>>,
    mut out: Outbox,
) -> Result<Option<Stop>, SolveError> {
    let mut kept = Kept::default();
    for chunk in full {
        for m in chunk.chunks_exact(width) {
            if let Some(stop) = d.verify_in_search(m, &mut kept, &d.opts.stop)? {
                return Ok(Some(stop));
            }
            out.count();
        }
        let _ = empty.send(chunk);
    }
    Ok(None)
}
