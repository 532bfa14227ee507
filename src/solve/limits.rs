//! Stopping the search: the time limit and SIGINT/SIGTERM, both seen as "interrupted" (clasp's
//! exit bit 1); the output says which (`TIME LIMIT` or `INTERRUPTED`).

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

static SIGNALLED: AtomicBool = AtomicBool::new(false);

/// The first SIGINT or SIGTERM asks the search to stop; a second one ends the process at once,
/// as the signal's default action would: where the search cannot get to its check (a device that
/// does not return), Ctrl-C twice still works.
extern "C" fn on_signal(sig: libc::c_int) {
    if SIGNALLED.swap(true, Ordering::SeqCst) {
        // SAFETY: signal and raise are async-signal-safe.
        unsafe {
            libc::signal(sig, libc::SIG_DFL);
            libc::raise(sig);
        }
    }
}

/// Installs the SIGINT/SIGTERM handler (the search stops and prints what was found; a second
/// signal ends the process).
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
    /// Another search of a parallel run answered first (solve/portfolio.rs); the answer reported
    /// is the winner's, so this one is never printed.
    Cancelled,
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

#[cfg(test)]
mod tests {
    /// In a forked child: the first SIGTERM is taken (the flag set, the child goes on), the
    /// second ends it as SIGTERM's default action does.
    #[test]
    fn a_second_signal_ends_the_process() {
        // SAFETY: the child calls only async-signal-safe functions before _exit.
        let pid = unsafe { libc::fork() };
        assert!(pid >= 0, "fork failed");
        if pid == 0 {
            unsafe {
                super::install_interrupt_handler();
                libc::raise(libc::SIGTERM);
                if !super::SIGNALLED.load(std::sync::atomic::Ordering::SeqCst) {
                    libc::_exit(3);
                }
                libc::raise(libc::SIGTERM);
                libc::_exit(4);
            }
        }
        let mut status = 0;
        // SAFETY: waits for the child forked above.
        assert_eq!(unsafe { libc::waitpid(pid, &mut status, 0) }, pid);
        assert!(libc::WIFSIGNALED(status), "the child exited with {} instead", libc::WEXITSTATUS(status));
        assert_eq!(libc::WTERMSIG(status), libc::SIGTERM);
    }
}
