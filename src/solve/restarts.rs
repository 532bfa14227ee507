//! Restart schedules: how many conflicts the search goes between two restarts (clasp's
//! `--restarts`): the Luby sequence times a unit, a geometric or an arithmetic series, a fixed
//! interval, or none.

use crate::solve::config::Restarts;

/// When to restart: after `limit` conflicts, following the Luby sequence or a geometric series.
pub struct RestartSchedule {
    policy: Restarts,
    index: u32,
    limit: u64,
    since: u64,
}

/// The i-th element (1-based) of the Luby sequence 1 1 2 1 1 2 4 ...
pub fn luby(mut i: u64) -> u64 {
    loop {
        let k = 64 - i.leading_zeros() as u64;
        if i == (1 << k) - 1 {
            return 1 << (k - 1);
        }
        i -= (1 << (k - 1)) - 1;
    }
}

impl RestartSchedule {
    pub fn new(policy: Restarts) -> Self {
        let mut s = RestartSchedule { policy, index: 0, limit: u64::MAX, since: 0 };
        s.advance();
        s
    }

    fn advance(&mut self) {
        self.index += 1;
        self.since = 0;
        self.limit = match self.policy {
            Restarts::Luby(unit) => unit.saturating_mul(luby(self.index as u64)),
            Restarts::Geometric(n, f) => (n as f64 * f.powi(self.index as i32 - 1)).min(1e18) as u64,
            Restarts::Arithmetic(n, m) => n.saturating_add(m.saturating_mul(self.index as u64 - 1)),
            Restarts::Fixed(n) => n,
            Restarts::No => u64::MAX,
        };
    }

    /// Conflicts until the restart: the `left()`-th call of `conflict` returns true.
    pub fn left(&self) -> u64 {
        self.limit - self.since
    }

    /// Counts `n` conflicts resolved without the loop, fewer than `left()`.
    pub fn skip(&mut self, n: u64) {
        debug_assert!(n < self.left(), "a restart skipped");
        self.since += n;
    }

    /// Counts a conflict; true when a restart is due.
    pub fn conflict(&mut self) -> bool {
        self.since += 1;
        if self.since >= self.limit {
            self.advance();
            return true;
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn luby_sequence() {
        let s: Vec<u64> = (1..=15).map(luby).collect();
        assert_eq!(s, vec![1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    }

    #[test]
    fn geometric_schedule() {
        let mut r = RestartSchedule::new(Restarts::Geometric(2, 2.0));
        let fired: Vec<bool> = (0..6).map(|_| r.conflict()).collect();
        // Limits 2, 4, 8, ...: restarts after conflicts 2 and 6.
        assert_eq!(fired, vec![false, true, false, false, false, true]);
    }
}
