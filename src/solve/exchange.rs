//! What the searches of a parallel run share: the best cost of an optimization (a search that
//! finds a better model offers it, and the others take it up at their restarts), and learned
//! nogoods (clasp's `--distribute` and `--integrate`).
//!
//! Nogoods go through [`Exchange`]: each search appends what it exports to an outbox of its own
//! (a bounded log; the oldest entries fall out when it is full) and reads the others' through a
//! [`Port`] that remembers how far it has read each. Readers take a read lock on one outbox at a
//! time, so they never block one another, and a writer blocks only the readers of its own outbox,
//! briefly. Every nogood exported is a consequence of the program (learned by conflict analysis,
//! or a loop nogood), or of the program and a cost bound no looser than the shared best cost,
//! which every search takes up: whichever search imports it, no model it still looks for is lost.

use crate::nogoods::Lit;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};

/// The best cost (without offsets, as engines take bounds) of a parallel optimization's models,
/// and its version, which grows with every improvement. Invariant: `version` changes only under
/// the lock, together with `best`.
pub struct SharedBound {
    best: Mutex<Option<Vec<i64>>>,
    version: AtomicU64,
}

impl Default for SharedBound {
    fn default() -> Self {
        SharedBound { best: Mutex::new(None), version: AtomicU64::new(0) }
    }
}

impl SharedBound {
    /// The bound, if it changed since version `seen` (which is then brought up to date).
    pub fn newer(&self, seen: &mut u64) -> Option<Vec<i64>> {
        if self.version.load(Ordering::Acquire) == *seen {
            return None;
        }
        let best = self.best.lock().unwrap_or_else(|e| e.into_inner());
        *seen = self.version.load(Ordering::Relaxed);
        best.clone()
    }

    /// Offers a model of cost `costs`: if it is better than the best so far it becomes the best,
    /// and `publish` runs under the lock (so that models are reported in the order of their
    /// improvements). Returns the best after the offer.
    pub fn offer(&self, costs: Vec<i64>, publish: impl FnOnce()) -> Vec<i64> {
        let mut best = self.best.lock().unwrap_or_else(|e| e.into_inner());
        if best.as_ref().is_none_or(|b| costs < *b) {
            publish();
            *best = Some(costs);
            self.version.fetch_add(1, Ordering::Release);
        }
        best.clone().expect("a best after an offer")
    }
}

/// How many nogoods an outbox keeps: a reader that falls further behind misses the oldest.
const OUTBOX: usize = 1 << 14;

/// A shared nogood: its literals and LBD.
type Shared = (Arc<[Lit]>, u32);

/// One search's exports. Invariant: `entries[i]` has the sequence number `start + i`.
#[derive(Default)]
struct Outbox {
    start: u64,
    entries: VecDeque<Shared>,
}

/// The outboxes of a parallel run's searches. Invariant: `published[i]` is outbox `i`'s end
/// (`start + entries.len()`) as of its last export, stored after the entries, so that a reader
/// that sees nothing new there takes no lock.
pub struct Exchange {
    outboxes: Vec<RwLock<Outbox>>,
    published: Vec<AtomicU64>,
}

impl Exchange {
    pub fn new(searches: u32) -> Arc<Exchange> {
        Arc::new(Exchange {
            outboxes: (0..searches).map(|_| RwLock::new(Outbox::default())).collect(),
            published: (0..searches).map(|_| AtomicU64::new(0)).collect(),
        })
    }

    /// Search `me`'s end of the exchange.
    pub fn port(self: &Arc<Self>, me: u32) -> Port {
        Port {
            exchange: Arc::clone(self),
            me: me as usize,
            read: vec![0; self.outboxes.len()],
            exported: 0,
            imported: 0,
            turn: 0,
        }
    }
}

/// One search's end of the [`Exchange`]: what it has read of each outbox, and its counts.
pub struct Port {
    exchange: Arc<Exchange>,
    me: usize,
    /// Per outbox: the sequence number of the next entry to read.
    read: Vec<u64>,
    pub exported: u64,
    pub imported: u64,
    /// Debug builds: a counter that makes imports skip outboxes now and then, so that the
    /// searches see each other's nogoods in varying orders and delays (races show in tests).
    turn: u64,
}

impl Port {
    /// Appends `nogoods` to this search's outbox (and empties the list).
    pub fn export(&mut self, nogoods: &mut Vec<(Vec<Lit>, u32)>) {
        if nogoods.is_empty() {
            return;
        }
        self.exported += nogoods.len() as u64;
        let mut ob = self.exchange.outboxes[self.me].write().unwrap_or_else(|e| e.into_inner());
        for (ng, lbd) in nogoods.drain(..) {
            ob.entries.push_back((ng.into(), lbd));
        }
        while ob.entries.len() > OUTBOX {
            ob.entries.pop_front();
            ob.start += 1;
        }
        self.exchange.published[self.me].store(ob.start + ob.entries.len() as u64, Ordering::Release);
    }

    /// Calls `take` with every nogood the other searches exported since the last import.
    pub fn import(&mut self, mut take: impl FnMut(&[Lit], u32) -> bool) -> bool {
        self.turn = self.turn.wrapping_add(1);
        for i in 0..self.exchange.outboxes.len() {
            if i == self.me
                || (cfg!(debug_assertions) && (self.turn + i as u64).is_multiple_of(3))
                || self.exchange.published[i].load(Ordering::Acquire) <= self.read[i]
            {
                continue;
            }
            let batch: Vec<Shared> = {
                let ob = self.exchange.outboxes[i].read().unwrap_or_else(|e| e.into_inner());
                let from = self.read[i].max(ob.start);
                let end = ob.start + ob.entries.len() as u64;
                self.read[i] = end;
                ob.entries.range((from - ob.start) as usize..).cloned().collect()
            };
            for (ng, lbd) in batch {
                self.imported += 1;
                if !take(&ng, lbd) {
                    return false;
                }
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shared_bound_only_improves_and_says_when() {
        let b = SharedBound::default();
        let mut seen = 0;
        assert_eq!(b.newer(&mut seen), None);
        let mut published = Vec::new();
        assert_eq!(b.offer(vec![5, 2], || published.push(1)), vec![5, 2]);
        assert_eq!(b.offer(vec![5, 3], || published.push(2)), vec![5, 2], "worse: not taken");
        assert_eq!(b.offer(vec![4, 9], || published.push(3)), vec![4, 9], "better at the first level");
        assert_eq!(published, vec![1, 3]);
        assert_eq!(b.newer(&mut seen), Some(vec![4, 9]));
        assert_eq!(b.newer(&mut seen), None, "nothing new since");
    }

    #[test]
    fn each_search_reads_the_others_nogoods_once() {
        let ex = Exchange::new(3);
        let (mut a, mut b, mut c) = (ex.port(0), ex.port(1), ex.port(2));
        a.export(&mut vec![(vec![Lit(2), Lit(5)], 2)]);
        b.export(&mut vec![(vec![Lit(7)], 1), (vec![Lit(3), Lit(4)], 2)]);
        let mut got = Vec::new();
        // Debug builds skip an outbox now and then: import until nothing new comes.
        for _ in 0..6 {
            c.import(|ng, _| {
                got.push(ng.to_vec());
                true
            });
        }
        got.sort();
        assert_eq!(got, vec![vec![Lit(2), Lit(5)], vec![Lit(3), Lit(4)], vec![Lit(7)]]);
        let mut own = 0;
        for _ in 0..6 {
            a.import(|ng, _| {
                assert_ne!(ng, [Lit(2), Lit(5)], "its own nogood");
                own += 1;
                true
            });
        }
        assert_eq!((own, a.exported, c.imported), (2, 1, 3));
    }

    #[test]
    fn a_full_outbox_drops_its_oldest() {
        let ex = Exchange::new(2);
        let (mut a, mut b) = (ex.port(0), ex.port(1));
        let mut many: Vec<(Vec<Lit>, u32)> =
            (0..OUTBOX as u32 + 10).map(|i| (vec![Lit(2 * i + 2)], 1)).collect();
        a.export(&mut many);
        let mut n = 0;
        for _ in 0..6 {
            b.import(|_, _| {
                n += 1;
                true
            });
        }
        assert_eq!(n, OUTBOX);
    }
}
