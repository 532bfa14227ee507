//! A run's progress, for the progress line (`-V2`): the searches add their conflicts and
//! restarts at each restart, the driver the models it reports and their cost; whoever prints
//! the line reads it at any time.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

#[derive(Debug)]
pub struct Progress {
    start: Instant,
    conflicts: AtomicU64,
    restarts: AtomicU64,
    models: AtomicU64,
    /// The last reported model's costs (an optimization's best so far).
    cost: Mutex<Option<Vec<i64>>>,
    done: AtomicBool,
}

impl Progress {
    pub fn new(start: Instant) -> Self {
        Progress {
            start,
            conflicts: AtomicU64::new(0),
            restarts: AtomicU64::new(0),
            models: AtomicU64::new(0),
            cost: Mutex::new(None),
            done: AtomicBool::new(false),
        }
    }

    /// A search's conflicts and restarts since it last added them.
    pub fn add_search(&self, conflicts: u64, restarts: u64) {
        self.conflicts.fetch_add(conflicts, Ordering::Relaxed);
        self.restarts.fetch_add(restarts, Ordering::Relaxed);
    }

    /// A model reported, with its costs if there are any.
    /// `k` more models, without costs.
    pub fn models(&self, k: u64) {
        self.models.fetch_add(k, Ordering::Relaxed);
    }

    pub fn model(&self, costs: Option<&[i64]>) {
        self.models.fetch_add(1, Ordering::Relaxed);
        if let Some(c) = costs {
            *self.cost.lock().unwrap_or_else(|e| e.into_inner()) = Some(c.to_vec());
        }
    }

    /// The run is over: whoever prints the line stops.
    pub fn finish(&self) {
        self.done.store(true, Ordering::Release);
    }

    pub fn is_done(&self) -> bool {
        self.done.load(Ordering::Acquire)
    }

    /// `[  12.0 s] models 4  cost 17 2  conflicts 120345  restarts 211` (conflicts and restarts
    /// as of the searches' last restarts).
    pub fn line(&self) -> String {
        let cost = match &*self.cost.lock().unwrap_or_else(|e| e.into_inner()) {
            Some(c) => format!("  cost {}", c.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(" ")),
            None => String::new(),
        };
        format!(
            "[{:8.1} s] models {}{cost}  conflicts {}  restarts {}",
            self.start.elapsed().as_secs_f64(),
            self.models.load(Ordering::Relaxed),
            self.conflicts.load(Ordering::Relaxed),
            self.restarts.load(Ordering::Relaxed)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_sums_the_searches_and_keeps_the_last_cost() {
        let p = Progress::new(Instant::now());
        p.add_search(100, 2);
        p.add_search(50, 1);
        p.model(Some(&[7, 3]));
        p.model(Some(&[5, 3]));
        let line = p.line();
        assert!(line.ends_with("models 2  cost 5 3  conflicts 150  restarts 3"), "{line}");
        assert!(!p.is_done());
        p.finish();
        assert!(p.is_done());
    }
}
