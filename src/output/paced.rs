//! Output that keeps up with enumeration: what is written collects in a buffer that goes out
//! when it is full, when it is flushed (the printer flushes a model that comes after a pause, and
//! at the end), and at the latest [`LATENCY`] after it was written, by a thread of its own; so a
//! burst of models costs a write per [`CAPACITY`] bytes, and a model followed by a long search
//! is still seen at once. A failed write (a closed pipe) is kept, returned by every later call,
//! and told to the owner at once (`on_error`), who can stop the run.

use std::io::{self, Write};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long written output may wait in the buffer.
pub const LATENCY: Duration = Duration::from_millis(50);
/// The buffer's size: it is written out once it holds this much.
pub const CAPACITY: usize = 64 * 1024;

type OnError = Box<dyn Fn(&io::Error) + Send>;

struct State<W> {
    out: W,
    buf: Vec<u8>,
    /// When the oldest byte of `buf` was written (None: `buf` is empty).
    since: Option<Instant>,
    /// The first failed write's kind and message; every later call fails the same way.
    failed: Option<(io::ErrorKind, String)>,
    on_error: OnError,
    closing: bool,
}

impl<W: Write> State<W> {
    /// Writes the buffer out and flushes `out`.
    fn drain(&mut self) -> io::Result<()> {
        if let Some((kind, msg)) = &self.failed {
            return Err(io::Error::new(*kind, msg.clone()));
        }
        let r = self.out.write_all(&self.buf).and_then(|()| self.out.flush());
        self.buf.clear();
        self.since = None;
        if let Err(e) = &r {
            self.failed = Some((e.kind(), e.to_string()));
            (self.on_error)(e);
        }
        r
    }
}

struct Shared<W> {
    state: Mutex<State<W>>,
    wake: Condvar,
}

impl<W> Shared<W> {
    fn lock(&self) -> MutexGuard<'_, State<W>> {
        // A panic while the lock was held leaves a buffer that is still whole.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// A buffered writer whose buffer never waits long (see the module's doc).
pub struct Paced<W: Write + Send + 'static> {
    shared: Arc<Shared<W>>,
    ticker: Option<JoinHandle<()>>,
}

impl<W: Write + Send + 'static> Paced<W> {
    pub fn new(out: W, on_error: impl Fn(&io::Error) + Send + 'static) -> Self {
        let state = State {
            out,
            buf: Vec::with_capacity(CAPACITY),
            since: None,
            failed: None,
            on_error: Box::new(on_error),
            closing: false,
        };
        let shared = Arc::new(Shared { state: Mutex::new(state), wake: Condvar::new() });
        let s = Arc::clone(&shared);
        let ticker = std::thread::Builder::new().name("output".into()).spawn(move || tick(&s)).ok();
        Paced { shared, ticker }
    }
}

/// The ticker: writes out whatever has waited [`LATENCY`]; sleeps while the buffer is empty.
fn tick<W: Write>(s: &Shared<W>) {
    let mut st = s.lock();
    loop {
        if st.closing {
            return;
        }
        st = match st.since {
            None => s.wake.wait(st).unwrap_or_else(|p| p.into_inner()),
            Some(t) => {
                let due = t + LATENCY;
                let now = Instant::now();
                if now >= due {
                    // An error is kept in the state, and told through `on_error`.
                    let _ = st.drain();
                    st
                } else {
                    s.wake.wait_timeout(st, due - now).unwrap_or_else(|p| p.into_inner()).0
                }
            }
        };
    }
}

impl<W: Write + Send + 'static> Write for Paced<W> {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        let mut st = self.shared.lock();
        if let Some((kind, msg)) = &st.failed {
            return Err(io::Error::new(*kind, msg.clone()));
        }
        st.buf.extend_from_slice(data);
        if st.buf.len() >= CAPACITY {
            st.drain()?;
        } else if st.since.is_none() {
            st.since = Some(Instant::now());
            self.shared.wake.notify_one();
        }
        Ok(data.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.shared.lock().drain()
    }
}

impl<W: Write + Send + 'static> Drop for Paced<W> {
    fn drop(&mut self) {
        let mut st = self.shared.lock();
        st.closing = true;
        if !st.buf.is_empty() {
            let _ = st.drain();
        }
        drop(st);
        self.shared.wake.notify_one();
        if let Some(t) = self.ticker.take() {
            let _ = t.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// A writer that records each write it gets, or fails every one.
    #[derive(Clone, Default)]
    struct Probe {
        writes: Arc<Mutex<Vec<Vec<u8>>>>,
        fail: bool,
    }

    impl Write for Probe {
        fn write(&mut self, b: &[u8]) -> io::Result<usize> {
            if self.fail {
                return Err(io::Error::new(io::ErrorKind::BrokenPipe, "closed"));
            }
            self.writes.lock().unwrap().push(b.to_vec());
            Ok(b.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    /// Waits (up to 10 s) until `done` holds.
    fn eventually(done: impl Fn() -> bool) -> bool {
        let end = Instant::now() + Duration::from_secs(10);
        while !done() && Instant::now() < end {
            std::thread::sleep(Duration::from_millis(5));
        }
        done()
    }

    #[test]
    fn small_writes_go_out_together_without_a_flush() {
        let p = Probe::default();
        let mut w = Paced::new(p.clone(), |_| {});
        for i in 0..100 {
            writeln!(w, "model {i}").unwrap();
        }
        let lines = || p.writes.lock().unwrap().concat().iter().filter(|&&b| b == b'\n').count();
        assert!(eventually(|| lines() == 100), "the ticker writes the burst out");
        assert!(p.writes.lock().unwrap().len() < 100, "fewer writes than models");
    }

    #[test]
    fn a_full_buffer_and_a_flush_go_out_at_once() {
        let p = Probe::default();
        let mut w = Paced::new(p.clone(), |_| {});
        w.write_all(&vec![b'x'; CAPACITY]).unwrap();
        assert_eq!(p.writes.lock().unwrap().len(), 1);
        w.write_all(b"tail\n").unwrap();
        w.flush().unwrap();
        assert_eq!(p.writes.lock().unwrap().last().unwrap(), b"tail\n");
    }

    #[test]
    fn dropping_writes_out_the_rest() {
        let p = Probe::default();
        let mut w = Paced::new(p.clone(), |_| {});
        w.write_all(b"last\n").unwrap();
        drop(w);
        assert_eq!(p.writes.lock().unwrap().concat(), b"last\n");
    }

    #[test]
    fn a_failed_write_is_told_once_and_returned_by_every_later_call() {
        let told = Arc::new(AtomicUsize::new(0));
        let t = Arc::clone(&told);
        let p = Probe { fail: true, ..Probe::default() };
        let mut w = Paced::new(p, move |e| {
            assert_eq!(e.kind(), io::ErrorKind::BrokenPipe);
            t.fetch_add(1, Ordering::SeqCst);
        });
        w.write_all(b"model\n").unwrap();
        assert!(eventually(|| told.load(Ordering::SeqCst) == 1), "the ticker's write failed and said so");
        assert_eq!(w.write(b"more").unwrap_err().kind(), io::ErrorKind::BrokenPipe);
        assert_eq!(w.flush().unwrap_err().kind(), io::ErrorKind::BrokenPipe);
        assert_eq!(told.load(Ordering::SeqCst), 1);
    }
}
