//! Stopping the search: the time limit and SIGINT/SIGTERM, both seen as "interrupted" (clasp's
//! exit bit 1); the output says which (`TIME LIMIT` or `INTERRUPTED`).

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

static SIGNALLED: AtomicBool = AtomicBool::new(false);

extern "C" fn on_signal(_: libc::c_int) {
    SIGNALLED.store(true, Ordering::SeqCst);
}

/// Installs the SIGINT/SIGTERM handler (the search stops and prints what was found).
pub fn install_interrupt_handler() {
    // SAFETY: the handler only stores to an atomic, which is async-signal-safe.
    unsafe {
        libc::signal(libc::SIGINT, on_signal as *const () as libc::sighandler_t);
        libc::signal(libc::SIGTERM, on_signal as *const () as libc::sighandler_t);
    }
}

/// Why a search stopped early.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    TimeLimit,
    Signal,
}

#[derive(Clone, Copy, Debug, Default)]
pub struct Limits {
    pub deadline: Option<Instant>,
}

impl Limits {
    pub fn new(time_limit: Option<f64>, start: Instant) -> Self {
        let deadline = time_limit.filter(|&s| s > 0.0).map(|s| start + std::time::Duration::from_secs_f64(s));
        Limits { deadline }
    }

    /// Whether to stop now, and why.
    pub fn reached(&self) -> Option<Stop> {
        if SIGNALLED.load(Ordering::Relaxed) {
            Some(Stop::Signal)
        } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
            Some(Stop::TimeLimit)
        } else {
            None
        }
    }
}
