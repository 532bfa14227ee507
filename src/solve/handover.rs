//! How the searches of a parallel run hand their models to the driver's thread: in batches, so
//! that a run finding a million models a second does not pay a wake-up of the driver for each.
//! Where the driver needs no model's atoms (`-q -n 0`), a batch carries only how many verified
//! models it stands for.
//!
//! A batch grows while models come quickly (within one tick of the coarse clock, [`Pace`]): it is
//! sent when it holds its limit, which doubles with each batch sent in a run of quick models, up
//! to [`MAX_BATCH`]. A model found after a pause is sent at once, with what waited before it, and
//! the limit starts again from one: interactive users and `| head` see models as they come. What
//! a batch still holds when its search ends is sent then (the outbox's drop), so a model that ends
//! a burst waits at most until its search finds another or ends. The channel is bounded: searches
//! that find models faster than the driver checks and reports them wait.

use super::driver::Found;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};

/// The most models a batch holds.
pub const MAX_BATCH: usize = 128;
/// Batches in flight between the searches and the driver (so at most `MAX_BATCH` times as many
/// models); also the most chunks in flight of one search's models (`pipeline.rs`).
pub const BATCHES_IN_FLIGHT: usize = 64;

/// When a batch of models is sent: its limit doubles with each batch sent while models come
/// within one tick of the coarse clock of each other, up to `max`, and is one again after a
/// pause. Invariant: `1 <= limit <= max`.
pub struct Pace {
    limit: usize,
    max: usize,
    /// When the last model came, in the coarse clock's milliseconds.
    last: u64,
}

impl Pace {
    pub fn new(max: usize) -> Pace {
        Pace { limit: 1, max: max.max(1), last: 0 }
    }

    /// A model came, and its batch now holds `len`: whether to send the batch.
    pub fn send_at(&mut self, len: usize) -> bool {
        let now = coarse_ms();
        let quick = now == self.last;
        self.last = now;
        if !quick {
            self.limit = 1;
        }
        let full = len >= self.limit;
        if full && quick {
            self.limit = (self.limit * 2).min(self.max);
        }
        full
    }
}

/// The coarse monotonic clock (Linux's `CLOCK_MONOTONIC_COARSE`), in milliseconds: it moves a
/// tick (1 to 4 ms) at a time and is read in a few nanoseconds; `Instant::now` at every model
/// made `{a(1..24)}` up to 1.8 times as slow in one search's pipeline (BENCHMARKS.md).
fn coarse_ms() -> u64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime writes the timespec it is given; on failure it stays zero.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC_COARSE, &mut ts) };
    ts.tv_sec as u64 * 1000 + ts.tv_nsec as u64 / 1_000_000
}

/// The channel: one outbox for each search (clones of one), and the driver's inbox.
pub fn channel(searches: u32) -> (Vec<Outbox>, Inbox) {
    let (tx, rx) = sync_channel(BATCHES_IN_FLIGHT);
    let outboxes = (0..searches).map(|_| Outbox::new(tx.clone())).collect();
    (outboxes, Inbox { rx, pending: Vec::new().into_iter(), counted: 0 })
}

/// Models handed over together: those the driver sees, and how many more it only counts.
#[derive(Default)]
struct Batch {
    models: Vec<Found>,
    counted: u64,
}

impl Batch {
    fn len(&self) -> u64 {
        self.models.len() as u64 + self.counted
    }
}

/// A search's side. Invariant: `batch.len()` is below the pace's limit between calls.
pub struct Outbox {
    tx: SyncSender<Batch>,
    batch: Batch,
    pace: Pace,
}

impl Outbox {
    fn new(tx: SyncSender<Batch>) -> Outbox {
        Outbox { tx, batch: Batch::default(), pace: Pace::new(MAX_BATCH) }
    }

    /// Hands over a model (perhaps later, with the next ones of its batch).
    pub fn send(&mut self, f: Found) {
        self.batch.models.push(f);
        self.added();
    }

    /// Hands over a verified model that the driver only counts.
    pub fn count(&mut self) {
        self.count_many(1);
    }

    /// Hands over `k` verified models that the driver only counts.
    pub fn count_many(&mut self, k: u64) {
        self.batch.counted += k;
        self.added();
    }

    fn added(&mut self) {
        if self.pace.send_at(self.batch.len() as usize) {
            self.flush();
        }
    }

    /// Sends what the batch holds. The driver's thread outlives every search; once it stops
    /// listening, what is sent is dropped.
    pub fn flush(&mut self) {
        if self.batch.len() > 0 {
            let _ = self.tx.send(std::mem::take(&mut self.batch));
        }
    }
}

impl Drop for Outbox {
    fn drop(&mut self) {
        self.flush();
    }
}

/// What the driver takes: a model, or a number of models only counted.
pub enum Item {
    Model(Found),
    Counted(u64),
}

/// The driver's side: models in the order their batches came, and in each batch in the order
/// they were found (the counted ones after them).
pub struct Inbox {
    rx: Receiver<Batch>,
    pending: std::vec::IntoIter<Found>,
    counted: u64,
}

impl Inbox {
    /// The next item; `None` once every outbox is gone and every batch taken.
    pub fn recv(&mut self) -> Option<Item> {
        loop {
            if let Some(f) = self.pending.next() {
                return Some(Item::Model(f));
            }
            if self.counted > 0 {
                return Some(Item::Counted(std::mem::take(&mut self.counted)));
            }
            let batch = self.rx.recv().ok()?;
            self.pending = batch.models.into_iter();
            self.counted = batch.counted;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(i: usize) -> Found {
        Found { source: i, ..Found::default() }
    }

    #[test]
    fn quick_models_go_in_growing_batches_and_nothing_is_lost() {
        let (mut out, mut inbox) = channel(2);
        let mut b = out.pop().unwrap();
        let mut a = out.pop().unwrap();
        for i in 0..1000 {
            a.send(found(i));
        }
        assert!(a.pace.limit > 1 && a.pace.limit <= MAX_BATCH, "quick models made the batches grow");
        b.send(found(5000));
        // Past the coarse clock's next tick (4 ms at most).
        std::thread::sleep(std::time::Duration::from_millis(12));
        b.send(found(5001));
        assert_eq!((b.pace.limit, b.batch.len()), (1, 0), "after a pause a model goes at once");
        for _ in 0..300 {
            b.count();
        }
        drop((a, b));
        let (mut got, mut counted) = (Vec::new(), 0);
        while let Some(item) = inbox.recv() {
            match item {
                Item::Model(f) => got.push(f.source),
                Item::Counted(k) => counted += k,
            }
        }
        assert_eq!(counted, 300, "every counted model, once");
        let mut sorted = got.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..1000).chain([5000, 5001]).collect::<Vec<_>>());
        let a_order: Vec<usize> = got.iter().copied().filter(|&s| s < 1000).collect();
        assert!(a_order.windows(2).all(|w| w[0] < w[1]), "one search's models in their order");
    }
}
