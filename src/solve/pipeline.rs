//! One search's enumeration as a pipeline of two threads: the search, in a thread of its own,
//! backtracks from each model (projective enumeration too) and hands its atoms over unverified,
//! in chunks; the driver's thread verifies and reports them while the search looks for the next
//! ones. On programs with many small models the check of each model costs a third of the
//! search's time or more (BENCHMARKS.md, "Enumeration"); here it no longer adds to it.
//!
//! Nothing is reported that the driver's thread has not verified, in the order the search found
//! it; a check that a stop cuts short reports nothing, and the models still on their way are
//! dropped with it. Past the model limit the driver cancels the search, and what it still sends
//! is dropped.
//!
//! A chunk is a buffer of whole models, `width` atoms each, that goes back to the search once
//! read, so that no model costs an allocation (a buffer freed by another thread than the one that
//! made it is slow to free). As with `handover.rs`, a chunk is sent when it holds its limit, which
//! doubles while models come within one tick of the coarse clock, and a model found after a pause
//! is sent at once; a model that ends a burst waits until the search finds another or ends. The
//! chunks in flight are bounded, by their size too: a search that runs ahead waits.

use super::config::Backend;
use super::driver::{Blocking, Driver, Ending, Event, Found, Source, Tally, Task, Wants};
use super::handover::{BATCHES_IN_FLIGHT, Pace};
use super::search::Next;
use super::verify::Kept;
use super::{Report, SolveError};
use crate::engine::EngineStats;
use crate::nogoods::Lit;
use crate::stop::{Stop, StopToken};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, SyncSender, channel, sync_channel};

/// The most models a chunk holds, the most bytes (of atoms) one holds, and the most bytes all
/// chunks on their way together hold.
const CHUNK_MODELS: usize = 1024;
const CHUNK_BYTES: usize = 4 << 20;
const IN_FLIGHT_BYTES: usize = 32 << 20;

/// Whether `task`'s models (more than one: `limit`) of one search go through the pipeline: it
/// wants them without costs, excluded by backtracking (projected or not), the search is the CPU
/// engine's, and the checks go aside (`--verify-thread`: by default where the machine has a second
/// core for them).
pub(super) fn wanted(d: &Driver<'_>, task: &dyn Task, limit: Option<u64>) -> bool {
    let w = task.wants();
    !w.costs
        && matches!(w.blocking, Blocking::Backtrack(_))
        && limit != Some(1)
        && d.opts.threads == 1
        && d.opts.search_backend() == Backend::Cpu
        && d.opts.verify_thread.aside(2)
}

/// Drives `task` with the models of one search in its own thread, verified and reported in this
/// one; the search's statistics go into `tally`.
pub(super) fn drive(
    d: &Driver<'_>,
    tally: &mut Tally,
    task: &mut dyn Task,
    report: &mut dyn Report,
) -> Result<Ending, SolveError> {
    let cancel = Arc::new(AtomicBool::new(false));
    let stop = d.opts.stop.with_cancel(Arc::clone(&cancel));
    let width = d.program.atom_count() as usize + 1;
    let (out, full_rx, empty_tx) = chunk_channel(width);
    let exhausted = AtomicBool::new(false);
    let count_only = task.takes_counts() && !report.wants_models();
    let projection = match task.wants().blocking {
        Blocking::Backtrack(Some(atoms)) => Some(atoms.to_vec()),
        _ => None,
    };
    std::thread::scope(|scope| {
        let searching = scope.spawn(|| search(d, &stop, out, projection.as_deref(), &exhausted));
        let mut behind = Behind {
            full: Some(full_rx),
            empty: empty_tx,
            chunk: Chunk::default(),
            at: 0,
            width,
            kept: Kept::default(),
            count_only,
            after: None,
            exhausted: &exhausted,
            stop: &stop,
            cancel: &cancel,
        };
        let ending = d.drive(tally, &mut behind, task, report);
        // Also where the drive failed (its output, say): a search waiting to send goes on, and
        // stops.
        behind.finish(&mut Tally::new());
        let (stats, engine) = searching.join().unwrap_or_else(|p| std::panic::resume_unwind(p))?;
        tally.stats += &stats;
        tally.engine = engine;
        ending
    })
}

/// A channel of chunks of models of `width` atoms (also split mode's checks aside,
/// `portfolio/checks_aside.rs`): the search's side; the reader's, the chunks sent; and where the
/// reader sends them back once emptied ([`Chunk::clear`]). Bounded as the module's comment says.
pub(super) fn chunk_channel(width: usize) -> (Chunks, Receiver<Chunk>, Sender<Chunk>) {
    let per_chunk = (CHUNK_BYTES / width).clamp(1, CHUNK_MODELS);
    let in_flight = (IN_FLIGHT_BYTES / (width * per_chunk)).clamp(1, BATCHES_IN_FLIGHT);
    let (full_tx, full_rx) = sync_channel(in_flight);
    let (empty_tx, empty_rx) = channel();
    let chunks =
        Chunks { full: full_tx, empty: empty_rx, chunk: Chunk::default(), pace: Pace::new(per_chunk) };
    (chunks, full_rx, empty_tx)
}

/// Models' atoms, one after another.
#[derive(Default)]
pub(super) struct Chunk {
    pub(super) atoms: Vec<bool>,
    models: usize,
}

impl Chunk {
    /// Empties the chunk, keeping its memory, to go back to the search.
    pub(super) fn clear(&mut self) {
        self.atoms.clear();
        self.models = 0;
    }
}

/// The search's side of the channel.
pub(super) struct Chunks {
    full: SyncSender<Chunk>,
    empty: Receiver<Chunk>,
    chunk: Chunk,
    pace: Pace,
}

impl Chunks {
    /// Adds a model's atoms; sends the chunk when it holds its limit. False once the reader has
    /// stopped listening (what is sent is then dropped).
    pub(super) fn add(&mut self, atoms: &[bool]) -> bool {
        self.chunk.atoms.extend_from_slice(atoms);
        self.chunk.models += 1;
        !self.pace.send_at(self.chunk.models) || self.flush()
    }

    /// Sends what the chunk holds, taking an emptied one back if there is one; false once the
    /// reader has stopped listening.
    fn flush(&mut self) -> bool {
        if self.chunk.models == 0 {
            return true;
        }
        let next = self.empty.try_recv().unwrap_or_default();
        self.full.send(std::mem::replace(&mut self.chunk, next)).is_ok()
    }
}

impl Drop for Chunks {
    fn drop(&mut self) {
        self.flush();
    }
}

/// The search's side: each model read, excluded (by backtracking where the engine can, deciding
/// the `projection`'s atoms first, as projective enumeration does; else by a nogood: its
/// projection, or its decisions) and handed over, until the space is exhausted or the search is
/// stopped.
fn search(
    d: &Driver<'_>,
    stop: &StopToken,
    mut out: Chunks,
    projection: Option<&[u32]>,
    exhausted: &AtomicBool,
) -> Result<(EngineStats, &'static str), SolveError> {
    let Some(mut s) = d.search(&d.opts.search, 0, stop)? else {
        return Ok((EngineStats::default(), "none"));
    };
    let backtrack = s.can_backtrack();
    match projection {
        Some(atoms) if backtrack => s.project_first(atoms),
        _ if !backtrack => d.warn_records(s.engine.name()),
        _ => {}
    }
    let blocking = match projection {
        Some(atoms) => Blocking::Projection(atoms),
        None => Blocking::Decisions,
    };
    let wants = Wants { costs: false, blocking, fixed: None };
    let mut atoms = Vec::new();
    loop {
        // Where a read finds nothing, the engine failed and another took over: the model is
        // searched again.
        match s.next_model()? {
            Next::Model if backtrack => {
                if s.read(|e| e.atom_values(&mut atoms))?.is_some() {
                    s.exclude_by_backtracking()?;
                    out.add(&atoms);
                }
            }
            Next::Model => {
                let Some(f) = s.read(|e| d.read(e, &wants))? else { continue };
                out.add(&f.atoms);
                if !s.block(&f.blocking)? {
                    exhausted.store(true, Ordering::Release);
                    break;
                }
            }
            Next::Exhausted => {
                exhausted.store(true, Ordering::Release);
                break;
            }
            Next::Interrupted(_) => break,
        }
    }
    Ok((s.stats(), s.engine.name()))
}

/// The driver's side: the models handed over, verified here, then whether the search exhausted
/// its space or was stopped.
struct Behind<'r> {
    /// Dropped when the drive ends, so that a search waiting to send goes on (and stops).
    full: Option<Receiver<Chunk>>,
    empty: Sender<Chunk>,
    /// The chunk being read, and its next model.
    chunk: Chunk,
    at: usize,
    width: usize,
    kept: Kept,
    /// Whether the models are only counted (`-q -n 0`), a chunk's at a time.
    count_only: bool,
    /// What ended a chunk counted in part, given next.
    after: Option<Event>,
    exhausted: &'r AtomicBool,
    stop: &'r StopToken,
    cancel: &'r AtomicBool,
}

impl Behind<'_> {
    /// The next model's atoms, taking the next chunk when this one is read; `None` when the
    /// search has ended and every model it sent is taken.
    fn next_atoms(&mut self) -> Option<std::ops::Range<usize>> {
        while self.at == self.chunk.models {
            let full = self.full.as_ref()?.recv().ok()?;
            let mut read = std::mem::replace(&mut self.chunk, full);
            read.clear();
            // The search may have ended: its emptied chunk is then dropped.
            let _ = self.empty.send(read);
            self.at = 0;
        }
        self.at += 1;
        Some((self.at - 1) * self.width..self.at * self.width)
    }

    /// Why no model is left: the search exhausted its space, or it was stopped.
    fn ended(&self) -> Event {
        if self.exhausted.load(Ordering::Acquire) {
            Event::Exhausted
        } else {
            Event::Stopped(self.stop.reached().unwrap_or(Stop::Signal))
        }
    }
}

impl Source for Behind<'_> {
    fn next(&mut self, d: &Driver<'_>, _: &Wants<'_>) -> Result<Event, SolveError> {
        if let Some(e) = self.after.take() {
            return Ok(e);
        }
        let mut counted = 0;
        while let Some(range) = self.next_atoms() {
            let m = &self.chunk.atoms[range];
            if let Some(stop) = d.verify(m, &mut self.kept, &d.opts.stop)? {
                let stopped = Event::Stopped(stop);
                if counted == 0 {
                    return Ok(stopped);
                }
                self.after = Some(stopped);
                return Ok(Event::Counted(counted));
            }
            if !self.count_only {
                let atoms = m.to_vec();
                return Ok(Event::Model(Found { atoms, excluded: true, verified: true, ..Found::default() }));
            }
            counted += 1;
            // A counted batch ends with its chunk, so that counts keep up with the models.
            if self.at == self.chunk.models {
                return Ok(Event::Counted(counted));
            }
        }
        Ok(if counted > 0 {
            self.after = Some(self.ended());
            Event::Counted(counted)
        } else {
            self.ended()
        })
    }

    /// The search excludes its models itself.
    fn add_nogood(&mut self, _: &[Lit]) -> Result<bool, SolveError> {
        Ok(true)
    }

    fn set_cost_bound(&mut self, _: Option<Vec<i64>>, _: bool) -> Result<(), SolveError> {
        Err(SolveError::Internal("a cost bound for a pipelined enumeration".into()))
    }

    /// Past the model limit or a stop: the search stops, and what it still sends is dropped.
    fn finish(&mut self, _: &mut Tally) {
        self.cancel.store(true, Ordering::Relaxed);
        self.full = None;
    }
}
