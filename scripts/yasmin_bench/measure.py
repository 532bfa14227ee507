"""One run of a command under a wall-clock and a memory limit, measured as competitions measure.

Two methods, recorded per run in the CSV column measured_by:
  runexec  BenchExec's RunExecutor (the framework of the software-verification competitions):
           the run gets a cgroup; the limits are enforced by it, wall time, CPU time and peak
           memory are the cgroup's. Used where benchexec is installed and cgroups work for it
           (probed once per process: a real `true` run under a memory limit).
  rusage   the fallback: the child in its own session with RLIMIT_AS as the memory limit (or its
           RSS polled, for CUDA, which reserves far more address space than it uses), killed at
           the wall-clock limit; CPU time from wait4's rusage, peak RSS from GNU time (else from
           rusage).
"""
import ctypes
import logging
import math
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import namedtuple
from pathlib import Path

Measured = namedtuple("Measured", "rc wall cpu peak_mb killed method")
"""rc: exit code or -signal; wall, cpu: seconds; peak_mb: MiB; killed: "timeout", "memory" or
None; method: "runexec" or "rusage"."""

METHODS = ("auto", "runexec", "rusage")
PR_SET_PDEATHSIG = 1
try:
    _LIBC = ctypes.CDLL(None, use_errno=True)  # loaded before any fork (dlopen is not fork-safe)
except OSError:
    _LIBC = None

_GNU_TIME = None
_RUNEXEC = {}  # the probe's answer in this process: {"ok": bool, "why": str}
_EXECUTORS = threading.local()  # BenchExec's RunExecutor of each thread


def gnu_time():
    """/usr/bin/time if it is GNU time (it measures the child's peak RSS without the runner's own
    RSS in it, which Linux carries through fork and exec into the child's high-water mark)."""
    global _GNU_TIME
    if _GNU_TIME is None:
        _GNU_TIME = ""
        path = shutil.which("time", path="/usr/bin:/bin:/usr/local/bin")
        if path:
            probe = Path(os.environ.get("TMPDIR", "/tmp")) / f"bench-time-probe.{os.getpid()}"
            try:
                rc = subprocess.run([path, "-f", "%M", "-o", str(probe), "true"],
                                    capture_output=True, timeout=10).returncode
                if rc == 0 and probe.read_text().strip().isdigit():
                    _GNU_TIME = path
            except (OSError, subprocess.SubprocessError):
                pass
            finally:
                probe.unlink(missing_ok=True)
    return _GNU_TIME


def tree_rss(pid):
    """Resident set size in bytes of pid and its descendants (0 if gone)."""
    total = 0
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024
                    break
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            for child in f.read().split():
                total += tree_rss(int(child))
    except (OSError, ValueError):
        pass
    return total



def runexec_status():
    """(usable, why) for BenchExec's runexec on this machine, probed once per process."""
    if not _RUNEXEC:
        _RUNEXEC.update(ok=False, why="")
        try:
            import benchexec  # noqa: F401
        except ImportError:
            _RUNEXEC["why"] = "benchexec is not installed (bash scripts/setup-bench-env.sh installs it)"
            return False, _RUNEXEC["why"]
        with tempfile.TemporaryDirectory(prefix="bench-runexec-probe") as tmp:
            cmd = [sys.executable, "-m", "benchexec.runexecutor", "--no-container", "--walltimelimit", "10",
                   "--memlimit", "64MB", "--output", str(Path(tmp) / "out"), "--", "true"]
            try:
                p = subprocess.run(cmd, capture_output=True, text=True, timeout=30, cwd=tmp)
                text = p.stdout + p.stderr
                if p.returncode == 0 and re.search(r"^memory=\d+B", p.stdout, re.M) \
                        and "returnvalue=0" in p.stdout:
                    _RUNEXEC.update(ok=True, why="cgroups usable by runexec")
                else:
                    lines = [l for l in text.splitlines() if "ERROR" in l or "WARNING" in l or "cgroup" in l]
                    _RUNEXEC["why"] = "runexec cannot use cgroups here: " + \
                        " ".join(" ".join(lines[:3] or text.splitlines()[-2:]).split())[:400]
            except (OSError, subprocess.TimeoutExpired) as e:
                _RUNEXEC["why"] = f"runexec probe failed: {e}"
    return _RUNEXEC["ok"], _RUNEXEC["why"]


def choose_method(wanted):
    """The method a run uses given --measure (auto, runexec, rusage); raises RuntimeError when
    runexec is demanded and cannot be used."""
    if wanted == "rusage":
        return "rusage"
    ok, why = runexec_status()
    if ok:
        return "runexec"
    if wanted == "runexec":
        raise RuntimeError(f"--measure runexec: {why}")
    return "rusage"


def run_measured(cmd, stdout_path, stderr_path, timeout, memory_mb, rss_watch=False, env=None,
                 method="rusage"):
    """Runs cmd with stdout and stderr into the given files, killed at `timeout` seconds of wall
    time or above memory_mb MiB (0: no limit); env: variables to set for it. Returns Measured."""
    if method == "runexec":
        return _run_runexec(cmd, stdout_path, stderr_path, timeout, memory_mb, env)
    return _run_rusage(cmd, stdout_path, stderr_path, timeout, memory_mb, rss_watch, env)


def _run_runexec(cmd, stdout_path, stderr_path, timeout, memory_mb, env):
    from benchexec.runexecutor import RunExecutor
    root = logging.getLogger()
    if not root.handlers:  # else benchexec's logging.warning() would install one (basicConfig)
        root.addHandler(logging.NullHandler())  # that prints every INFO line of Dask's loggers
    executor = getattr(_EXECUTORS, "runexec", None)
    if executor is None:  # one a thread: setting one up (cgroups checked) costs a fraction of a second
        executor = _EXECUTORS.runexec = RunExecutor(use_namespaces=False)
    r = executor.execute_run(
        list(cmd), str(stdout_path), error_filename=str(stderr_path), write_header=False,
        walltimelimit=max(1, math.ceil(timeout)), memlimit=memory_mb * 1024 * 1024 if memory_mb else None,
        environments={"newEnv": dict(env or {})})
    code = r.get("exitcode")
    rc = -code.signal if code is not None and code.signal else (code.value if code is not None else -1)
    reason = r.get("terminationreason")
    killed = {"walltime": "timeout", "cputime": "timeout", "cputime-soft": "timeout",
              "memory": "memory"}.get(reason)
    return Measured(rc, r.get("walltime", 0.0), r.get("cputime", 0.0), r.get("memory", 0) / 2 ** 20,
                    killed, "runexec")


def _run_rusage(cmd, stdout_path, stderr_path, timeout, memory_mb, rss_watch, env):
    limit = memory_mb * 1024 * 1024 if memory_mb else None

    def preexec():
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        if limit and not rss_watch:
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        if _LIBC is not None:  # killed with its parent (a Dask worker that dies mid-run)
            _LIBC.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)

    measure = gnu_time()
    rss_file = Path(str(stdout_path) + ".rss")
    if measure:
        cmd = [measure, "-f", "%M", "-o", str(rss_file)] + list(cmd)
    with open(stdout_path, "wb") as out, open(stderr_path, "wb") as err:
        t0 = time.monotonic()
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                                preexec_fn=preexec, start_new_session=True,
                                env=dict(os.environ, **env) if env else None)
    lock = threading.Lock()
    state = {"exited": False, "killed": None, "rss": 0}

    def kill(why):
        with lock:  # never signal after the child was reaped (its pid could be reused)
            if not state["exited"] and state["killed"] is None:
                state["killed"] = why
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass

    timer = threading.Timer(timeout, kill, args=("timeout",))
    timer.daemon = True
    timer.start()
    watcher = None
    if limit and rss_watch:
        def watch():
            while not state["exited"] and state["killed"] is None:
                rss = tree_rss(proc.pid)
                state["rss"] = max(state["rss"], rss)
                if rss > limit:
                    kill("memory")
                time.sleep(0.05)
        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
    # Wait without reaping, so that the pid stays ours until the timer cannot fire any more.
    while True:
        try:
            os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOWAIT)
            break
        except InterruptedError:
            continue
    wall = time.monotonic() - t0
    with lock:
        state["exited"] = True
    timer.cancel()
    _, status, ru = os.wait4(proc.pid, 0)
    rc = proc.returncode = os.waitstatus_to_exitcode(status)
    if watcher:
        watcher.join()
    peak_kb = max(ru.ru_maxrss, state["rss"] // 1024)
    if measure:
        lines = rss_file.read_text(errors="replace").splitlines() if rss_file.is_file() else []
        rss_file.unlink(missing_ok=True)
        if lines and lines[-1].strip().isdigit():
            peak_kb = int(lines[-1])
        m = re.search(r"Command terminated by signal (\d+)", "\n".join(lines))
        if m:
            rc = -int(m.group(1))
    return Measured(rc, wall, ru.ru_utime + ru.ru_stime, peak_kb / 1024.0, state["killed"], "rusage")


