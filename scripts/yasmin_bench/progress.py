"""The progress display: runs done, running and queued, solved so far per solver,
disagreements, errors and the time left; a tqdm bar on a terminal, else one line per event."""
import shutil
import sys
import threading
import time


def fmt_duration(s):
    s = int(s)
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"


class Progress:
    """Shows the campaign's state; counts() -> (runs running, groundings running) is polled
    every `every` seconds; runs neither done nor running are queued."""

    def __init__(self, total, solved, counts, enabled=True, every=1.0):
        self.total, self.solved, self.counts = total, dict(solved), counts
        self.done = self.disagreements = self.errors = 0
        self.running = self.grounding = 0
        self.t0 = time.monotonic()
        self.lock = threading.Lock()
        self.bar = None
        self.enabled = enabled
        if enabled and sys.stderr.isatty():
            try:
                from tqdm import tqdm
                self.bar = tqdm(total=total, unit="run", file=sys.stderr, dynamic_ncols=True,
                                smoothing=0.1, bar_format="{l_bar}{bar}| {n}/{total} runs [{elapsed}<{remaining}]{postfix}")
            except ImportError:
                pass
        self.stop = threading.Event()
        self.poller = threading.Thread(target=self._poll, args=(every,), daemon=True)
        self.poller.start()

    def _poll(self, every):
        while not self.stop.wait(every):
            running, grounding = self.counts()
            with self.lock:
                self.running, self.grounding = running, grounding
                if self.bar is not None:
                    self.bar.set_postfix_str(self.state(), refresh=True)

    def state(self):
        solved = " ".join(f"{k}={v}" for k, v in self.solved.items())
        running = min(self.running, self.total - self.done)  # polled: may lag behind a run's end
        grounding = f" (grounding {self.grounding})" if self.grounding else ""
        return (f"running {running}{grounding} queued {self.total - self.done - running} | solved {solved} | "
                f"disagreements {self.disagreements} errors {self.errors}")

    def ran(self, runs=1, solver=None, solved=False, text=""):
        """runs runs ended (solver's, solved or not); text says what happened."""
        with self.lock:
            self.done += runs
            if solved:
                self.solved[solver] = self.solved.get(solver, 0) + 1
            if self.bar is not None:
                self.bar.update(runs)
                self.bar.set_postfix_str(self.state(), refresh=True)
            elif self.enabled:
                el = time.monotonic() - self.t0
                eta = f" eta {fmt_duration(el / self.done * (self.total - self.done))}" if self.done else ""
                sys.stderr.write(f"[{self.done}/{self.total} {fmt_duration(el)}{eta}] {text} | {self.state()}\n")
                sys.stderr.flush()

    def flag(self, disagreement=False, errors=0):
        with self.lock:
            self.disagreements += bool(disagreement)
            self.errors += errors

    def message(self, text):
        """A line that stays (a disagreement, a lost run)."""
        with self.lock:
            if self.bar is not None:
                self.bar.write(text, file=sys.stderr)
            else:
                width = shutil.get_terminal_size((120, 20)).columns if sys.stderr.isatty() else 10 ** 6
                sys.stderr.write(text[:width] + "\n")
                sys.stderr.flush()

    def close(self):
        self.stop.set()
        self.poller.join()
        if self.bar is not None:
            self.bar.close()
