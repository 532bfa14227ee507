//! Stopping the search: the time limit and SIGINT, both seen as "interrupted" (clasp's exit bit 1).

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

extern "C" fn on_sigint(_: libc::c_int) {
    INTERRUPTED.store(true, Ordering::SeqCst);
}

/// Installs the SIGINT handler (the first Ctrl-C stops the search and prints what was found).
pub fn install_interrupt_handler() {
    // SAFETY: the handler only stores to an atomic, which is async-signal-safe.
    unsafe {
        libc::signal(libc::SIGINT, on_sigint as *const () as libc::sighandler_t);
    }
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

    pub fn reached(&self) -> bool {
        INTERRUPTED.load(Ordering::Relaxed) || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// Whether a SIGINT arrived.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::Relaxed)
}
