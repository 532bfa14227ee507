"""The solving task: one run of one solver configuration on one ground program, measured where
it executes (a Dask worker, or this process for --local), returned as a CSV row."""
import datetime
import platform
import shlex
import tempfile
from pathlib import Path

from .measure import choose_method, run_measured
from .results import classify
from .solvers import solver_command

LOG_CAP = 1 << 20  # bytes of a run's stdout/stderr sent back for the logs (head and tail kept)


def solve_task(inst, solver, ground_file, args):
    """Runs solver on ground_file under args' limits. Returns the run's row: the solver's and the
    measurement's columns (the campaign adds the instance's), with the run's stdout and stderr
    under "_out" and "_err" for the logs."""
    cmd = solver_command(solver, args, ground_file)
    method = choose_method(args.measure)
    started = datetime.datetime.now().isoformat(timespec="seconds")
    with tempfile.TemporaryDirectory(prefix="yasmin-bench-") as tmp:
        out_p, err_p = Path(tmp) / "stdout", Path(tmp) / "stderr"
        m = run_measured(cmd, out_p, err_p, args.timeout + args.grace, args.memory,
                         rss_watch=solver.rss_watch, env=gpu_env(solver, args), method=method)
        out_text = out_p.read_text(errors="replace") if out_p.is_file() else ""
        err_text = err_p.read_text(errors="replace") if err_p.is_file() else ""
    row = {"solver": solver.name, "time": round(m.wall, 3), "peak_mem_mb": round(m.peak_mb, 1),
           "cpu_time": round(m.cpu, 3), "measured_by": m.method, "command": shlex.join(cmd),
           "started": started, "host": platform.node()}
    row.update(classify(solver, m.rc, m.wall, m.killed, out_text, err_text, args.timeout, args.models))
    row["_out"], row["_err"] = cap(out_text), cap(err_text)
    return row


def gpu_env(solver, args):
    """For a CUDA configuration on a LocalCluster sized one worker per GPU: the worker's GPU
    (CUDA_VISIBLE_DEVICES from the worker's number), so that runs do not share a GPU."""
    gpus = getattr(args, "worker_gpus", None)
    if not solver.rss_watch or not gpus:
        return None
    try:
        from distributed import get_worker
        index = int(get_worker().name)
    except (ImportError, ValueError, TypeError):
        return None  # not on a worker of ours (in-process, or a cluster that assigns GPUs itself)
    return {"CUDA_VISIBLE_DEVICES": gpus[index % len(gpus)]}


def cap(text):
    """text, or its head and tail when it is longer than LOG_CAP."""
    if len(text) <= LOG_CAP:
        return text
    half = LOG_CAP // 2
    return text[:half] + f"\n[... {len(text) - LOG_CAP} characters left out ...]\n" + text[-half:]

