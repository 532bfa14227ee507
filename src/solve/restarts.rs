//! Schedules of conflict counts: how many conflicts the search goes between two restarts (clasp's
//! `--restarts`) or two deletions of learned nogoods (`--del-cfl`): the Luby sequence times a
//! unit, a geometric or an arithmetic series, a fixed interval, or none, each with clasp's
//! repeat limit; or, for restarts, Glucose's dynamic ones, which follow the LBDs learned.

use crate::solve::config::{Restarts, Schedule};
use std::collections::VecDeque;

/// When the next event (restart or deletion) is due: after `limit` conflicts, the `index`-th
/// element of the sequence (from 1). Invariant: `index <= len` where `len` is not 0.
pub struct RestartSchedule {
    policy: Restarts,
    index: u32,
    /// Elements before the sequence starts over (0: never).
    len: u32,
    limit: u64,
    since: u64,
    /// `Restarts::Dynamic`'s averages.
    lbds: Lbds,
}

/// The LBDs of the nogoods learned: of the last `window` since the last restart, and of all.
/// Invariant: `recent_sum` is the sum of `recent`, which holds at most `window` entries.
#[derive(Default)]
struct Lbds {
    window: usize,
    recent: VecDeque<u32>,
    recent_sum: u64,
    all_sum: u64,
    all: u64,
}

impl Lbds {
    fn push(&mut self, lbd: u32) {
        self.all_sum += lbd as u64;
        self.all += 1;
        self.recent.push_back(lbd);
        self.recent_sum += lbd as u64;
        if self.recent.len() > self.window {
            self.recent_sum -= self.recent.pop_front().map_or(0, u64::from);
        }
    }

    /// Whether the last `window` LBDs, on average, times `k` exceed the average of all.
    fn worse(&self, k: f64) -> bool {
        self.window > 0
            && self.recent.len() == self.window
            && self.recent_sum as f64 / self.window as f64 * k > self.all_sum as f64 / self.all as f64
    }
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
        let window = if let Restarts::Dynamic(n, _) = policy { n as usize } else { 0 };
        let lbds = Lbds { window, ..Lbds::default() };
        let mut s = RestartSchedule { policy, index: 0, len, limit: u64::MAX, since: 0, lbds };
        s.advance();
        s
    }

    /// Whether restarts follow the LBDs learned ([`RestartSchedule::conflict_lbd`]).
    pub fn is_dynamic(&self) -> bool {
        matches!(self.policy, Restarts::Dynamic(..))
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
            // Decided conflict by conflict: each comes back to the search loop.
            Restarts::Dynamic(..) => 1,
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

    /// Counts a conflict whose learned nogood has LBD `lbd` (where the engine says): true when a
    /// restart is due. Only dynamic restarts read it.
    pub fn conflict_lbd(&mut self, lbd: Option<u32>) -> bool {
        let Restarts::Dynamic(_, k) = self.policy else { return self.conflict() };
        if let Some(lbd) = lbd {
            self.lbds.push(lbd);
        }
        if !self.lbds.worse(k) {
            return false;
        }
        self.lbds.recent.clear();
        self.lbds.recent_sum = 0;
        true
    }

    /// Counts a conflict; true when a restart is due.
    pub fn conflict(&mut self) -> bool {
        debug_assert!(!self.is_dynamic(), "dynamic restarts need the LBDs: conflict_lbd");
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

    #[test]
    fn dynamic_restarts_follow_the_lbds() {
        let mut r = RestartSchedule::new("D,3,0.8".parse::<Schedule>().unwrap());
        assert_eq!(r.left(), 1, "every conflict is decided on its own");
        // Steady LBDs: the recent average times 0.8 never exceeds the global one.
        assert!((0..10).all(|_| !r.conflict_lbd(Some(5))));
        // Worse ones: the last three [5, 5, 10] average 6.7, times 0.8 less than 60 / 11; then
        // [5, 10, 10] average 8.3, times 0.8 more than 70 / 12.
        assert!(!r.conflict_lbd(Some(10)));
        assert!(r.conflict_lbd(Some(10)));
        // After a restart, a whole window again before the next.
        assert!(!r.conflict_lbd(Some(40)) && !r.conflict_lbd(Some(40)));
        assert!(r.conflict_lbd(Some(40)));
        // Without an LBD nothing is observed.
        assert!((0..5).all(|_| !r.conflict_lbd(None)));
        assert_eq!("dynamic".parse::<Restarts>().unwrap(), Restarts::Dynamic(100, 0.7));
        assert_eq!("D,50,0.8".parse::<Restarts>().unwrap().to_string(), "D,50,0.8");
        assert!("D".parse::<Restarts>().is_err() && "D,50,0".parse::<Restarts>().is_err());
        assert!("D,0,0.7".parse::<Restarts>().is_err() && "D,50,0.7,9".parse::<Restarts>().is_err());
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
