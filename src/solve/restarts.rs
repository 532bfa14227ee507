//! Schedules of conflict counts: how many conflicts the search goes between two restarts (clasp's
//! `--restarts`) or two deletions of learned nogoods (`--del-cfl`): the Luby sequence times a
//! unit, a geometric or an arithmetic series, a fixed interval, or none, each with clasp's
//! repeat limit.

use crate::solve::config::{Restarts, Schedule};

/// When the next event (restart or deletion) is due: after `limit` conflicts, the `index`-th
/// element of the sequence (from 1). Invariant: `index <= len` where `len` is not 0.
pub struct RestartSchedule {
    policy: Restarts,
    index: u32,
    /// Elements before the sequence starts over (0: never).
    len: u32,
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
    pub fn new(schedule: Schedule) -> Self {
        let policy = schedule.sequence;
        // As clasp: a Luby sequence repeats whole periods, at least two elements.
        let len = match (policy, schedule.repeat) {
            (_, 0) => 0,
            (Restarts::Luby(_), r) => ((r.next_power_of_two() - 1) * 2).max(2),
            (_, r) => r,
        };
        let mut s = RestartSchedule { policy, index: 0, len, limit: u64::MAX, since: 0 };
        s.advance();
        s
    }

    fn advance(&mut self) {
        self.index += 1;
        if self.len != 0 && self.index > self.len {
            let luby = matches!(self.policy, Restarts::Luby(_));
            self.len = (self.len + 1) << u32::from(luby);
            self.index = 1;
        }
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
        let mut r = RestartSchedule::new(Restarts::Geometric(2, 2.0).into());
        let fired: Vec<bool> = (0..6).map(|_| r.conflict()).collect();
        // Limits 2, 4, 8, ...: restarts after conflicts 2 and 6.
        assert_eq!(fired, vec![false, true, false, false, false, true]);
    }

    /// The limits a schedule gives, one per event.
    fn limits(s: &str, n: usize) -> Vec<u64> {
        let mut r = RestartSchedule::new(s.parse().unwrap());
        (0..n)
            .map(|_| {
                let l = r.left();
                for _ in 0..l {
                    r.conflict();
                }
                l
            })
            .collect()
    }

    #[test]
    fn repeat_limits_start_the_sequence_over_one_longer() {
        // clasp's tweety deletion: 2000 + 100 i for i < 3, then i < 4, ...
        assert_eq!(limits("+,2000,100,3", 8), vec![2000, 2100, 2200, 2000, 2100, 2200, 2300, 2000]);
        assert_eq!(limits("x,10,2,2", 6), vec![10, 20, 10, 20, 40, 10]);
        // Luby with limit 3: whole periods, 2 of length 3 (6 elements), then 14.
        assert_eq!(limits("L,1,3", 8), vec![1, 1, 2, 1, 1, 2, 1, 1]);
        assert_eq!(limits("L,1,3", 20)[6..20], [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4]);
        assert_eq!(limits("+,5,1", 4), vec![5, 6, 7, 8]);
        assert_eq!(crate::solve::config::DEL_CFL.to_string(), "+,2000,300");
        assert_eq!("L,60,8".parse::<Schedule>().unwrap().to_string(), "L,60,8");
        assert!("L,60,x".parse::<Schedule>().is_err() && "+,0,1,2".parse::<Schedule>().is_err());
    }
}
