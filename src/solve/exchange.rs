//! What the searches of a parallel run share: today the best cost of an optimization (a search
//! that finds a better model offers it, and the others take it up at their restarts).

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

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

#[cfg(test)]
mod tests {
    use super::SharedBound;

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
}
