"""Where a campaign's tasks run: in this process (--local), on a Dask LocalCluster sized to the
machine (the default), on an existing Dask scheduler (--scheduler), or on workers that
dask-jobqueue starts as Slurm or PBS jobs (--slurm, --pbs).

Sizing of the LocalCluster (unless --workers): one worker, running one task at a time, per
physical core this process may use (hyperthreads of one core share its execution units, so
runs on them would slow each other down), or, when a configuration runs on CUDA, one per
visible GPU; and never more than fit the machine's memory at --memory MiB a run.

A worker that dies mid-task (killed, out of memory, its job's walltime over) has the task run
again elsewhere once; if that worker dies too, the task fails with KilledWorker and the
campaign marks the run LOST. Each worker is given one task at a time, so a worker's death
touches no other run.
"""
import collections
import logging
import os
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

from . import REPO, SCRIPTS

ATTEMPTS = 2  # starts of a task whose workers die under it before it is LOST


def physical_cores():
    """Physical cores among the CPUs this process may run on (logical CPUs if unknown)."""
    cpus = sorted(os.sched_getaffinity(0))
    cores = set()
    for c in cpus:
        topo = Path(f"/sys/devices/system/cpu/cpu{c}/topology")
        try:
            cores.add(((topo / "physical_package_id").read_text().strip(), (topo / "core_id").read_text().strip()))
        except OSError:
            return len(cpus)
    return len(cores) or len(cpus)


def visible_gpus():
    """The GPUs runs may use, as CUDA_VISIBLE_DEVICES entries."""
    env = os.environ.get("CUDA_VISIBLE_DEVICES")
    if env is not None:
        return [g for g in env.split(",") if g.strip() and g.strip() != "-1"]
    if not shutil.which("nvidia-smi"):
        return []
    try:
        p = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return []
    return [str(i) for i, line in enumerate(l for l in p.stdout.splitlines() if l.startswith("GPU "))]


def total_memory_mb():
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    return int(line.split()[1]) // 1024
    except (OSError, ValueError):
        pass
    return 0


def local_size(solvers, memory_mb):
    """(workers, GPUs to hand out or None, why) for a LocalCluster on this machine."""
    gpus = None
    if any(s.rss_watch for s in solvers):
        gpus = visible_gpus()
        n, why = max(1, len(gpus)), f"{len(gpus)} GPU(s) for the CUDA configurations"
    else:
        n = physical_cores()
        why = f"{n} physical core(s)"
    mem = total_memory_mb()
    if memory_mb and mem and mem // memory_mb < n:
        n = max(1, mem // memory_mb)
        why += f", at most {n} run(s) of {memory_mb} MiB in {mem} MiB of memory"
    return n, gpus or None, why


class Executor:
    """Tasks wait in a queue here and are started at most as many at a time as there are
    worker threads, so that each worker runs one task and holds no others (a worker that dies
    takes only its own run with it, and the progress bar's running runs are exact)."""

    def __init__(self):
        self.queue = collections.deque()
        self.started = {}

    def submit(self, key, fn, *args, urgent=False):
        """Queues fn(*args) as task `key`; urgent tasks go before those queued already."""
        (self.queue.appendleft if urgent else self.queue.append)((key, fn, args))

    def running(self):
        """The keys of the tasks started and not ended (callable from another thread)."""
        for _ in range(3):
            try:
                return list(self.started)
            except RuntimeError:  # the dictionary changed meanwhile
                continue
        return []

    def close(self):
        pass


class InProcess(Executor):
    """--local: the tasks run in this process, one after another."""

    description = "in this process, one run at a time"
    workers = 1

    def results(self):
        """(key, result, exception, attempts) of each task as it ends, including the tasks
        queued meanwhile."""
        while self.queue:
            key, fn, args = self.queue.popleft()
            self.started[key] = True
            try:
                result, error = fn(*args), None
            except Exception as e:  # noqa: BLE001  (reported in the run's row)
                result, error = None, e
            del self.started[key]
            yield key, result, error, 1


class DaskExecutor(Executor):
    """The tasks as Dask futures on a client, each placed on a worker with a free thread (and
    only there). A task whose worker dies fails at once (the scheduler's allowed-failures is
    set to 0) and is queued again, first, for another worker; after ATTEMPTS starts it fails
    with KilledWorker."""

    def __init__(self, client, cluster=None, description="", workers=0):
        super().__init__()
        self.client, self.cluster, self.description = client, cluster, description
        self.workers = workers or len(client.nthreads())
        self.tries = collections.Counter()  # key -> times started
        self.where = {}                     # key -> the worker it was given to
        self.orphans = set()                # keys whose worker was gone at the last look
        client.run_on_scheduler(_set_allowed_failures, 0)

    def results(self):
        from distributed import wait
        from distributed.scheduler import KilledWorker
        while self.queue or self.started:
            self._place()
            if not self.started:  # no worker yet (jobs waiting in the batch queue)
                time.sleep(1)
                continue
            try:
                wait([f for f, _ in self.started.values()], timeout=5, return_when="FIRST_COMPLETED")
            except TimeoutError:
                continue
            for key, (f, task) in [(k, v) for k, v in self.started.items() if v[0].done()]:
                try:
                    result, error = f.result(), None
                except Exception as e:  # noqa: BLE001  (KilledWorker, or the task raised)
                    result, error = None, e
                del self.started[key]
                if isinstance(error, KilledWorker) and self.tries[key] < ATTEMPTS:
                    self.queue.appendleft(task)  # again, elsewhere
                    continue
                yield key, result, error, self.tries[key]

    def _place(self):
        """Starts queued tasks on the workers' free threads; requeues tasks given to a worker
        that went away before it took them (seen gone twice in a row, so that a task it was
        running has had time to fail with KilledWorker)."""
        workers = self.client.scheduler_info(n_workers=-1)["workers"]
        busy = collections.Counter(self.where[k] for k in self.started)
        for key in [k for k in self.started if self.where[k] not in workers]:
            if key in self.orphans and not self.started[key][0].done():
                f, task = self.started.pop(key)
                f.cancel()
                self.tries[key] -= 1
                self.queue.appendleft(task)
        self.orphans = {k for k in self.started if self.where[k] not in workers}
        for addr, w in workers.items():
            for _ in range(w.get("nthreads", 1) - busy[addr]):
                if not self.queue:
                    return
                task = self.queue.popleft()
                key, fn, args = task
                self.tries[key] += 1
                self.where[key] = addr
                f = self.client.submit(fn, *args, key=f"{key}@{self.tries[key]}", pure=False,
                                       workers=[addr], allow_other_workers=False)
                self.started[key] = (f, task)

    def close(self):
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()


def _set_allowed_failures(n, dask_scheduler=None):
    dask_scheduler.allowed_failures = n


def open_executor(args, solvers):
    """The executor the command line asks for (the caller closes it)."""
    if args.local:
        return InProcess()
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise SystemExit(f"bench.py: the runs go through Dask distributed, which this Python ({sys.executable}) "
                         "lacks: bash scripts/setup-test-env.sh (or pip install 'dask[distributed]'), or --local")
    if args.scheduler:
        client = Client(args.scheduler)
        client.upload_file(str(package_zip()))
        return DaskExecutor(client, None, f"on the Dask scheduler at {args.scheduler}")
    if args.slurm or args.pbs:
        submit = "sbatch" if args.slurm else "qsub"
        if not shutil.which(submit):
            raise SystemExit(f"bench.py: no {submit} on PATH: --{'slurm' if args.slurm else 'pbs'} submits the "
                             "workers' jobs from a node of the cluster (--dry-run prints the job script)")
        cluster = jobqueue_cluster(args, solvers)
        cluster.scale(jobs=args.workers or 4)
        return DaskExecutor(Client(cluster), cluster,
                            f"on {args.workers or 4} {'Slurm' if args.slurm else 'PBS'} job(s) of one worker",
                            args.workers or 4)
    n, gpus, why = local_size(solvers, args.memory)
    if args.workers:
        n, why = args.workers, "--workers"
    args.worker_gpus = gpus
    cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, memory_limit=0,
                           dashboard_address=None, silence_logs=logging.ERROR)
    return DaskExecutor(Client(cluster), cluster, f"on a Dask LocalCluster of {n} worker(s) ({why})", n)


def jobqueue_cluster(args, solvers):
    """A SLURMCluster or PBSCluster of one-worker, one-core jobs (nothing is submitted yet)."""
    try:
        from dask_jobqueue import PBSCluster, SLURMCluster
    except ImportError:
        raise SystemExit("bench.py: --slurm and --pbs need dask-jobqueue in this Python "
                         f"({sys.executable}): bash scripts/setup-bench-env.sh, or pip install dask-jobqueue")
    directives = list(args.job_directive)
    if args.slurm and any(s.rss_watch for s in solvers) and not any("gres" in d for d in directives):
        directives.append("--gres=gpu:1")
    cls = SLURMCluster if args.slurm else PBSCluster
    kwargs = dict(
        queue=args.partition, account=args.account, walltime=args.walltime,
        memory=args.job_memory or f"{(args.memory or 8192) + 2048}MiB", cores=1, processes=1,
        python=sys.executable, job_name="yasmin-bench", job_extra_directives=directives,
        job_script_prologue=[f"cd {REPO}", f"export PYTHONPATH={SCRIPTS}${{PYTHONPATH:+:$PYTHONPATH}}"],
        log_directory=str(args.out / "jobs"), scheduler_options={"dashboard_address": None})
    return cls(**kwargs)


def package_zip():
    """scripts/yasmin_bench as a zip, for workers of --scheduler that cannot import it."""
    path = Path(tempfile.mkdtemp(prefix="yasmin-bench-")) / "yasmin_bench.zip"
    with zipfile.ZipFile(path, "w") as z:
        for f in sorted((SCRIPTS / "yasmin_bench").glob("*.py")):
            z.write(f, f"yasmin_bench/{f.name}")
    return path
