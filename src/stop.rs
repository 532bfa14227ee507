//! Stopping a run: the time limit, SIGINT/SIGTERM and a race's cancellation, seen through one
//! [`StopToken`] that every long loop polls: reading, completion, the search and its minimality
//! checks, verification.
//!
//! Polling is two relaxed atomic loads and, under a time limit, a read of the monotonic clock
//! (a vDSO call of some 20 ns): cheap enough for every iteration of the search loop, so a limit is
//! noticed within one step of whatever is running, not after a count of steps. A timer thread
//! also stops the token at the deadline, so that a stop records the phase the run was in when the
//! limit passed, even where that phase polls rarely. The signal handler sets a process-wide flag
//! that every token reads. Once a token has stopped it stays stopped, with the first reason.

use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::thread::Thread;
use std::time::{Duration, Instant};

/// Why a run (or one search of a race) stopped early.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    TimeLimit,
    Signal,
    /// Another search of a parallel run answered first (solve/portfolio/); the answer reported
    /// is the winner's, so this one is never printed.
    Cancelled,
    /// A search made as many conflicts or restarts as `--solve-limit` allows (clasp's
    /// `SolveLimits`): the run ends as after a time limit, but the result is not flagged as
    /// interrupted (clasp prints no such line and exits with the result's code).
    SolveLimit,
}

/// clasp's `--solve-limit=N[,M]`: a search stops the run once it has made `conflicts` conflicts
/// or `restarts` restarts (each search counts its own; 0 stops before the search begins).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolveLimit {
    pub conflicts: u64,
    pub restarts: u64,
}

/// What a run is doing, recorded so that a stop can say where it was noticed (`-V`, and
/// `scripts/limit_bench.py`, which measures how long after the limit each phase ends).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Phase {
    Reading = 0,
    Completion,
    Setup,
    Search,
    Minimality,
    Verification,
    Output,
}

impl Phase {
    const ALL: [Phase; 7] = [
        Phase::Reading,
        Phase::Completion,
        Phase::Setup,
        Phase::Search,
        Phase::Minimality,
        Phase::Verification,
        Phase::Output,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Phase::Reading => "reading",
            Phase::Completion => "completion",
            Phase::Setup => "setup",
            Phase::Search => "search",
            Phase::Minimality => "minimality",
            Phase::Verification => "verification",
            Phase::Output => "output",
        }
    }
}

/// When the handler took the first SIGINT or SIGTERM (CLOCK_MONOTONIC, nanoseconds, at least 1;
/// 0: none yet), which asks every token to stop. Set by compare-and-swap (async-signal-safe), so
/// that of two handlers running at once on two threads exactly one is the first.
static FIRST_SIGNAL_NS: AtomicU64 = AtomicU64::new(0);

/// Whether the handler has taken a signal.
fn signalled() -> bool {
    FIRST_SIGNAL_NS.load(Ordering::Relaxed) != 0
}

/// A signal this soon after the first is the same request delivered twice: `timeout(1)` sends
/// its signal to the process and then to the process group, which holds the process too.
const REPEAT_NS: u64 = 500_000_000;

/// The first SIGINT or SIGTERM asks the run to stop; a later one (half a second or more after it)
/// ends the process at once, as the signal's default action would: where the run cannot get to a
/// poll (a device that does not return), Ctrl-C twice still works. One sooner than that is
/// ignored, so that `timeout` gets the summary, as clasp gives it.
extern "C" fn on_signal(sig: libc::c_int) {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime is async-signal-safe and writes only `ts`.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) };
    let now = (ts.tv_sec as u64).saturating_mul(1_000_000_000).saturating_add(ts.tv_nsec as u64).max(1);
    // The first signal's stamp stays; a later one compares itself with it.
    if let Err(first) = FIRST_SIGNAL_NS.compare_exchange(0, now, Ordering::SeqCst, Ordering::SeqCst)
        && now.saturating_sub(first) >= REPEAT_NS
    {
        // SAFETY: signal and raise are async-signal-safe.
        unsafe {
            libc::signal(sig, libc::SIG_DFL);
            libc::raise(sig);
        }
    }
}

/// Tests only: `YASMIN_SIGNAL_IN_PHASE=PHASE[,N[,TERM]]` makes the process send itself SIGINT (or
/// SIGTERM) the N-th time (1 by default) a run enters PHASE ([`Phase::name`]), so that tests can
/// signal every phase of a run, however short. Read by [`install_interrupt_handler`].
static SIGNAL_HOOK: OnceLock<Option<(Phase, u64, libc::c_int)>> = OnceLock::new();
static HOOK_COUNT: AtomicU64 = AtomicU64::new(0);

fn parse_hook(v: &str) -> Option<(Phase, u64, libc::c_int)> {
    let mut parts = v.split(',');
    let phase = parts.next().and_then(|p| Phase::ALL.into_iter().find(|x| x.name() == p))?;
    let n = parts.next().map_or(Some(1), |n| n.parse().ok())?;
    let sig = match parts.next() {
        None | Some("INT") => libc::SIGINT,
        Some("TERM") => libc::SIGTERM,
        Some(_) => return None,
    };
    Some((phase, n, sig))
}

/// Installs the SIGINT/SIGTERM handler: every token then reports [`Stop::Signal`] after the first
/// signal. Without SA_RESTART, so that a read blocked on standard input returns to be polled.
pub fn install_interrupt_handler() {
    SIGNAL_HOOK.get_or_init(|| {
        let v = std::env::var("YASMIN_SIGNAL_IN_PHASE").ok()?;
        let hook = parse_hook(&v);
        if hook.is_none() {
            log::warn!("YASMIN_SIGNAL_IN_PHASE={v}: expected PHASE[,N[,INT|TERM]]; ignored");
        }
        hook
    });
    // SAFETY: the handler only touches an atomic and async-signal-safe calls; sigaction gets a
    // zeroed, then filled, struct.
    unsafe {
        let mut sa: libc::sigaction = std::mem::zeroed();
        sa.sa_sigaction = on_signal as *const () as libc::sighandler_t;
        libc::sigemptyset(&mut sa.sa_mask);
        sa.sa_flags = 0;
        libc::sigaction(libc::SIGINT, &sa, std::ptr::null_mut());
        libc::sigaction(libc::SIGTERM, &sa, std::ptr::null_mut());
    }
}

const GO: u8 = 0;

fn code(s: Stop) -> u8 {
    match s {
        Stop::TimeLimit => 1,
        Stop::Signal => 2,
        Stop::Cancelled => 3,
        Stop::SolveLimit => 4,
    }
}

fn decode(c: u8) -> Option<Stop> {
    match c {
        1 => Some(Stop::TimeLimit),
        2 => Some(Stop::Signal),
        3 => Some(Stop::Cancelled),
        4 => Some(Stop::SolveLimit),
        _ => None,
    }
}

/// What the tokens of one run share. Invariant: `stop` goes from GO to a reason once, and
/// `fired` is set by the one that made it so.
struct Run {
    stop: AtomicU8,
    /// On a cache line of its own: the thread that verifies a pipelined search's models writes it
    /// twice a model (`solve/pipeline.rs`), while the search reads `stop` at every step.
    phase: Aligned<AtomicU8>,
    deadline: Option<Instant>,
    solve_limit: Option<SolveLimit>,
    /// When the stop was set, and the phase the run was in then.
    fired: Mutex<Option<(Instant, Phase)>>,
    /// When a poll first saw it (a stop set by the timer thread may be seen later).
    seen: OnceLock<Instant>,
    /// The timer thread, woken when the run is dropped so that it ends early.
    timer: OnceLock<Thread>,
}

/// A value on cache lines of its own (two: adjacent lines are fetched in pairs).
#[repr(align(128))]
struct Aligned<T>(T);

impl<T> std::ops::Deref for Aligned<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl Run {
    fn fire(&self, why: Stop) {
        if self.stop.compare_exchange(GO, code(why), Ordering::AcqRel, Ordering::Relaxed).is_ok() {
            let phase = Phase::ALL[self.phase.load(Ordering::Relaxed) as usize];
            *self.fired.lock().unwrap_or_else(|e| e.into_inner()) = Some((Instant::now(), phase));
        }
    }
}

impl Drop for Run {
    fn drop(&mut self) {
        if let Some(t) = self.timer.get() {
            t.unpark();
        }
    }
}

/// A run's stop flag, shared by its clones; a race's searches add a flag of their own
/// ([`StopToken::with_cancel`]).
#[derive(Clone)]
pub struct StopToken {
    run: Arc<Run>,
    cancel: Option<Arc<AtomicBool>>,
    /// Whether the signal handler's flag stops this token ([`StopToken::never`]'s does not).
    signals: bool,
}

impl Default for StopToken {
    /// A token without a time limit (signals still stop it, once the handler is installed).
    fn default() -> Self {
        StopToken::new(None)
    }
}

impl std::fmt::Debug for StopToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StopToken")
            .field("deadline", &self.run.deadline)
            .field("stop", &self.reached())
            .finish()
    }
}

impl StopToken {
    /// A token that stops at `deadline`, if any (a timer thread sets it then).
    pub fn new(deadline: Option<Instant>) -> Self {
        StopToken::with_limits(deadline, None)
    }

    /// A token that stops at `deadline`, if any, or when a search reaches `solve_limit`.
    fn with_limits(deadline: Option<Instant>, solve_limit: Option<SolveLimit>) -> Self {
        let run = Arc::new(Run {
            stop: AtomicU8::new(GO),
            phase: Aligned(AtomicU8::new(Phase::Reading as u8)),
            deadline,
            solve_limit,
            fired: Mutex::new(None),
            seen: OnceLock::new(),
            timer: OnceLock::new(),
        });
        if let Some(deadline) = deadline {
            let weak = Arc::downgrade(&run);
            let spawned = std::thread::Builder::new().name("yasmin-timer".into()).spawn(move || {
                loop {
                    let Some(run) = weak.upgrade() else { return };
                    let now = Instant::now();
                    if now >= deadline {
                        run.fire(Stop::TimeLimit);
                        return;
                    }
                    drop(run);
                    std::thread::park_timeout(deadline - now);
                }
            });
            match spawned {
                Ok(h) => {
                    let _ = run.timer.set(h.thread().clone());
                }
                // No thread: the polls still read the clock.
                Err(e) => log::debug!("no timer thread ({e})"),
            }
        }
        StopToken { run, cancel: None, signals: true }
    }

    /// A token that nothing stops: for work that must finish once begun.
    pub fn never() -> Self {
        StopToken { signals: false, ..StopToken::new(None) }
    }

    /// The run's token: it stops `time_limit` seconds after `start` (none for `None` or 0, as
    /// clasp), or when a search reaches `solve_limit`.
    pub fn for_run(time_limit: Option<f64>, solve_limit: Option<SolveLimit>, start: Instant) -> Self {
        let deadline = time_limit.filter(|&s| s > 0.0).map(|s| start + Duration::from_secs_f64(s.min(1e9)));
        StopToken::with_limits(deadline, solve_limit)
    }

    /// The conflicts and restarts each search may make (`--solve-limit`), if limited.
    #[inline]
    pub fn solve_limit(&self) -> Option<SolveLimit> {
        self.run.solve_limit
    }

    /// This token, also stopped by `cancel` (as [`Stop::Cancelled`]): the searches of a race.
    pub fn with_cancel(&self, cancel: Arc<AtomicBool>) -> Self {
        StopToken { run: Arc::clone(&self.run), cancel: Some(cancel), signals: self.signals }
    }

    /// Whether to stop now, and why.
    #[inline]
    pub fn reached(&self) -> Option<Stop> {
        if let Some(s) = decode(self.run.stop.load(Ordering::Relaxed)) {
            self.run.seen.get_or_init(Instant::now);
            return Some(s);
        }
        if self.signals && signalled() {
            self.run.fire(Stop::Signal);
            return decode(self.run.stop.load(Ordering::Relaxed));
        }
        if self.run.deadline.is_some_and(|d| Instant::now() >= d) {
            self.run.fire(Stop::TimeLimit);
            return decode(self.run.stop.load(Ordering::Relaxed));
        }
        if self.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed)) {
            return Some(Stop::Cancelled);
        }
        None
    }

    /// `Err(why)` once stopped: for `?` in loops that poll.
    #[inline]
    pub fn check(&self) -> Result<(), Interrupted> {
        match self.reached() {
            Some(s) => Err(Interrupted(s)),
            None => Ok(()),
        }
    }

    /// Like [`check`](Self::check), every 4096th `i` only: for tight loops over large inputs,
    /// where even an atomic load per item shows.
    #[inline]
    pub fn check_every(&self, i: usize) -> Result<(), Interrupted> {
        if i & 4095 == 0 { self.check() } else { Ok(()) }
    }

    /// Stops the run (every token of it) for `why`.
    pub fn stop(&self, why: Stop) {
        self.run.fire(why);
    }

    /// Records that the run entered `phase`; returns the phase it was in.
    pub fn enter(&self, phase: Phase) -> Phase {
        if let Some(Some((p, n, sig))) = SIGNAL_HOOK.get()
            && *p == phase
            && HOOK_COUNT.fetch_add(1, Ordering::Relaxed) + 1 == *n
        {
            // SAFETY: raise only delivers the signal to this thread, whose handler sets a flag.
            unsafe { libc::raise(*sig) };
        }
        // A load and a store, not a swap (a locked exchange twice a model shows in enumeration):
        // the phase only informs the report of a stop, and where threads enter phases at once,
        // either is as true.
        let before = self.run.phase.load(Ordering::Relaxed);
        self.run.phase.store(phase as u8, Ordering::Relaxed);
        Phase::ALL[before as usize]
    }

    /// The deadline, if the run has a time limit.
    pub fn deadline(&self) -> Option<Instant> {
        self.run.deadline
    }

    /// When the run was stopped (by its limit or a signal), and the phase it was in then.
    pub fn fired(&self) -> Option<(Instant, Phase)> {
        *self.run.fired.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// When a poll first saw the stop.
    pub fn seen(&self) -> Option<Instant> {
        self.run.seen.get().copied()
    }
}

/// Drops `x` on a thread of its own. The tables of a big program (millions of small vectors)
/// take a second or more to free; a stopped run, and one that has answered, need not wait for it.
/// Where no thread can be started, `x` is dropped here.
pub fn drop_aside<T: Send + 'static>(x: T) {
    let _ = std::thread::Builder::new().name("yasmin-free".into()).spawn(move || drop(x));
}

/// Tables of at least this many entries are freed by [`drop_aside`].
pub const DROP_ASIDE_FROM: usize = 1 << 18;

/// A value freed by [`drop_aside`] when dropped, if it was made large (`len` entries or more).
pub struct Aside<T: Send + 'static> {
    value: Option<T>,
    large: bool,
}

impl<T: Send + 'static> Aside<T> {
    pub fn new(value: T, len: usize) -> Self {
        Aside { value: Some(value), large: len >= DROP_ASIDE_FROM }
    }

    pub fn into_inner(mut self) -> T {
        self.value.take().expect("a value until dropped")
    }
}

impl<T: Send + 'static> std::ops::Deref for Aside<T> {
    type Target = T;
    fn deref(&self) -> &T {
        self.value.as_ref().expect("a value until dropped")
    }
}

impl<T: Send + 'static> std::ops::DerefMut for Aside<T> {
    fn deref_mut(&mut self) -> &mut T {
        self.value.as_mut().expect("a value until dropped")
    }
}

impl<T: Send + 'static> Drop for Aside<T> {
    fn drop(&mut self) {
        if let Some(v) = self.value.take()
            && self.large
        {
            drop_aside(v);
        }
    }
}

/// A computation stopped by its [`StopToken`] before it finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Interrupted(pub Stop);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_timer_stops_the_token_at_its_deadline() {
        let t = StopToken::new(Some(Instant::now() + Duration::from_millis(30)));
        assert_eq!(t.reached(), None);
        let t0 = Instant::now();
        while t.reached().is_none() {
            assert!(t0.elapsed() < Duration::from_secs(20), "the timer never fired");
            std::thread::sleep(Duration::from_millis(1));
        }
        assert_eq!(t.reached(), Some(Stop::TimeLimit));
        assert!(t.fired().is_some());
    }

    #[test]
    fn a_cancelled_race_stops_its_searches_but_not_the_run() {
        let run = StopToken::default();
        let flag = Arc::new(AtomicBool::new(false));
        let search = run.with_cancel(Arc::clone(&flag));
        flag.store(true, Ordering::Relaxed);
        assert_eq!(search.reached(), Some(Stop::Cancelled));
        assert_eq!(run.reached(), None);
        run.stop(Stop::TimeLimit);
        assert_eq!(search.reached(), Some(Stop::TimeLimit), "the run's reason comes first");
        run.stop(Stop::Signal);
        assert_eq!(run.reached(), Some(Stop::TimeLimit), "the first reason stays");
    }

    #[test]
    fn the_signal_hook_names_a_phase_and_a_count() {
        assert_eq!(parse_hook("minimality"), Some((Phase::Minimality, 1, libc::SIGINT)));
        assert_eq!(parse_hook("output,3,TERM"), Some((Phase::Output, 3, libc::SIGTERM)));
        assert_eq!(parse_hook("lunch"), None);
        assert_eq!(parse_hook("search,x"), None);
    }

    #[test]
    fn phases_are_recorded() {
        let t = StopToken::default();
        assert_eq!(t.enter(Phase::Search), Phase::Reading);
        assert_eq!(t.enter(Phase::Minimality), Phase::Search);
        t.stop(Stop::TimeLimit);
        assert_eq!(t.fired().map(|f| f.1), Some(Phase::Minimality));
    }

    /// In a forked child: the first SIGTERM is taken (the flag set, the child goes on), and so is
    /// one right after it (`timeout` signals twice); one half a second later ends it as
    /// SIGTERM's default action does.
    #[test]
    fn a_later_signal_ends_the_process() {
        let start = std::time::Instant::now();
        // SAFETY: the child calls only async-signal-safe functions before _exit.
        let pid = unsafe { libc::fork() };
        assert!(pid >= 0, "fork failed");
        if pid == 0 {
            unsafe {
                super::install_interrupt_handler();
                libc::raise(libc::SIGTERM);
                if !super::signalled() {
                    libc::_exit(3);
                }
                libc::raise(libc::SIGTERM);
                let pause = libc::timespec { tv_sec: 0, tv_nsec: 600_000_000 };
                libc::nanosleep(&pause, std::ptr::null_mut());
                libc::raise(libc::SIGTERM);
                libc::_exit(4);
            }
        }
        let mut status = 0;
        // SAFETY: waits for the child forked above.
        assert_eq!(unsafe { libc::waitpid(pid, &mut status, 0) }, pid);
        assert!(libc::WIFSIGNALED(status), "the child exited with {} instead", libc::WEXITSTATUS(status));
        assert_eq!(libc::WTERMSIG(status), libc::SIGTERM);
        assert!(start.elapsed() >= std::time::Duration::from_millis(550), "the second signal ended it");
    }
}
