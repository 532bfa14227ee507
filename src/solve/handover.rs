//! How the searches of a parallel run hand their models to the driver's thread: in batches, so
//! that a run finding a million models a second does not pay a wake-up of the driver for each.
//! Where the driver needs no model's atoms (`-q -n 0`), a batch carries only how many verified
//! models it stands for.
//!
//! A batch grows while models come quickly (less than [`QUICK`] apart): it is sent when it holds
//! its limit, which doubles with each batch sent in a run of quick models, up to [`MAX_BATCH`].
//! A model found after a pause is sent at once, with what waited before it, and the limit starts
//! again from one: interactive users and `| head` see models as they come. What a batch still
//! holds when its search ends is sent then (the outbox's drop), so a model that ends a burst
//! waits at most until its search finds another or ends. The channel is bounded: searches that
//! find models faster than the driver checks and reports them wait.

use super::driver::Found;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::time::{Duration, Instant};

/// Models closer together than this make a batch grow.
pub const QUICK: Duration = Duration::from_millis(1);
/// The most models a batch holds.
pub const MAX_BATCH: usize = 128;
/// Batches in flight between the searches and the driver (so at most `MAX_BATCH` times as many
/// models).
const BATCHES_IN_FLIGHT: usize = 64;

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

/// A search's side. Invariant: `batch.len() < limit <= MAX_BATCH` between calls.
pub struct Outbox {
    tx: SyncSender<Batch>,
    batch: Batch,
    limit: usize,
    last: Option<Instant>,
}

impl Outbox {
    fn new(tx: SyncSender<Batch>) -> Outbox {
        Outbox { tx, batch: Batch::default(), limit: 1, last: None }
    }

    /// Hands over a model (perhaps later, with the next ones of its batch).
    pub fn send(&mut self, f: Found) {
        self.batch.models.push(f);
        self.added();
    }

    /// Hands over a verified model that the driver only counts.
    pub fn count(&mut self) {
        self.batch.counted += 1;
        self.added();
    }

    fn added(&mut self) {
        let now = Instant::now();
        let quick = self.last.is_some_and(|t| now.duration_since(t) < QUICK);
        self.last = Some(now);
        if !quick {
            self.limit = 1;
        }
        if self.batch.len() >= self.limit as u64 {
            self.flush();
            if quick {
                self.limit = (self.limit * 2).min(MAX_BATCH);
            }
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
        assert!(a.limit > 1 && a.limit <= MAX_BATCH, "quick models made the batches grow");
        b.send(found(5000));
        std::thread::sleep(QUICK * 3);
        b.send(found(5001));
        assert_eq!((b.limit, b.batch.len()), (1, 0), "after a pause a model goes at once");
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
