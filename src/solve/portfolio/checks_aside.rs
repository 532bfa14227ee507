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
//! their way are dropped with it. The chunks and their bounds are the pipeline's
//! ([`chunk_channel`]): a search that runs ahead waits.

use super::Race;
use crate::solve::driver::Driver;
use crate::solve::handover::Outbox;
use crate::solve::pipeline::{Chunk, Chunks, chunk_channel};
use crate::solve::search::{Next, Search};
use crate::solve::verify::Kept;
use crate::solve::{SolveError, SolveOptions};
use crate::stop::Stop;
use std::sync::mpsc::{Receiver, Sender};

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
    let (chunks, full, empty) = chunk_channel(width);
    std::thread::scope(|scope| {
        let checker = scope.spawn(move || check(d, width, full, empty, out));
        let searched = search(s, i, race, chunks);
        let checked = checker.join().unwrap_or_else(|p| std::panic::resume_unwind(p))?;
        match (searched?, checked) {
            (_, Some(stop)) => Ok(Next::Interrupted(stop)),
            (Some(next), None) => Ok(next),
            (None, None) => Err(SolveError::Internal("a checker ended before its search".into())),
        }
    })
}

/// The search's side: each model's atoms handed over (the chunks sent as they fill, the last
/// when `out` is dropped). `None` where the checker stopped taking them (it says why).
fn search(s: &mut Search<'_>, i: u32, race: &Race, mut out: Chunks) -> Result<Option<Next>, SolveError> {
    let mut atoms = Vec::new();
    loop {
        match s.next_model()? {
            Next::Model => {
                // Where a read finds nothing, the engine failed and another took over: the model
                // is searched again.
                if s.read(|e| e.atom_values(&mut atoms))?.is_none() {
                    continue;
                }
                s.exclude_by_backtracking()?;
                if !out.add(&atoms) {
                    return Ok(None);
                }
            }
            Next::Exhausted => {
                race.win(i);
                return Ok(Some(Next::Exhausted));
            }
            stop @ Next::Interrupted(_) => return Ok(Some(stop)),
        }
    }
}

/// The checker's side: every model of every chunk verified and counted, until the search stops
/// sending; the run's stop that cut a check short, if one did.
fn check(
    d: &Driver<'_>,
    width: usize,
    full: Receiver<Chunk>,
    empty: Sender<Chunk>,
    mut out: Outbox,
) -> Result<Option<Stop>, SolveError> {
    let mut kept = Kept::default();
    for mut chunk in full {
        for m in chunk.atoms.chunks_exact(width) {
            if let Some(stop) = d.verify_in_search(m, &mut kept, &d.opts.stop)? {
                return Ok(Some(stop));
            }
            out.count();
        }
        chunk.clear();
        let _ = empty.send(chunk);
    }
    Ok(None)
}
