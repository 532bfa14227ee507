//! How the searches of a parallel run hand their models to the driver's thread: in batches, so
//! that a run finding a million models a second does not pay a wake-up of the driver for each.
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
    (outboxes, Inbox { rx, pending: Vec::new().into_iter() })
}

/// A search's side. Invariant: `batch.len() < limit <= MAX_BATCH` between calls.
pub struct Outbox {
    tx: SyncSender<Vec<Found>>,
    batch: Vec<Found>,
    limit: usize,
    last: Option<Instant>,
}

impl Outbox {
    fn new(tx: SyncSender<Vec<Found>>) -> Outbox {
        Outbox { tx, batch: Vec::new(), limit: 1, last: None }
    }

    /// Hands over a model (perhaps later, with the next ones of its batch).
    pub fn send(&mut self, f: Found) {
        let now = Instant::now();
        let quick = self.last.is_some_and(|t| now.duration_since(t) < QUICK);
        self.last = Some(now);
        self.batch.push(f);
        if !quick {
            self.limit = 1;
        }
        if self.batch.len() >= self.limit {
            self.flush();
            if quick {
                self.limit = (self.limit * 2).min(MAX_BATCH);
            }
        }
    }

    /// Sends what the batch holds. The driver's thread outlives every search; once it stops
    /// listening, what is sent is dropped.
    pub fn flush(&mut self) {
        if !self.batch.is_empty() {
            let _ = self.tx.send(std::mem::take(&mut self.batch));
        }
    }
}

impl Drop for Outbox {
    fn drop(&mut self) {
        self.flush();
    }
}

/// The driver's side: models in the order their batches came, and in each batch in the order
/// they were found.
pub struct Inbox {
    rx: Receiver<Vec<Found>>,
    pending: std::vec::IntoIter<Found>,
}

impl Inbox {
    /// The next model; `None` once every outbox is gone and every batch taken.
    pub fn recv(&mut self) -> Option<Found> {
        loop {
            if let Some(f) = self.pending.next() {
                return Some(f);
            }
            self.pending = self.rx.recv().ok()?.into_iter();
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
        drop((a, b));
        let got: Vec<usize> = std::iter::from_fn(|| inbox.recv()).map(|f| f.source).collect();
        let mut sorted = got.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..1000).chain([5000, 5001]).collect::<Vec<_>>());
        let a_order: Vec<usize> = got.iter().copied().filter(|&s| s < 1000).collect();
        assert!(a_order.windows(2).all(|w| w[0] < w[1]), "one search's models in their order");
    }
}
