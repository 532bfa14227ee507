"""Clusters beyond this process: a campaign on an existing Dask scheduler (--scheduler) whose
worker runs elsewhere; the --slurm and --pbs dry runs (the job script dask-jobqueue would
submit, with the partition, walltime and memory asked for); a campaign through --slurm with a
stand-in sbatch; the messages when dask-jobqueue or sbatch is missing."""
import csv
import json
import os
import subprocess
import sys
import tempfile
import time
import unittest
from pathlib import Path
from unittest import mock

from helpers import REPO, SCRIPTS, argv, yasmin_bin

from yasmin_bench import cli, cluster, running, solvers


def dry_run(*options):
    with tempfile.TemporaryDirectory(prefix="bench-test-") as tmp:
        p = subprocess.run([sys.executable, str(SCRIPTS / "bench.py"), *options, "--solvers", "clingo",
                            "--walltime", "01:23:45", "--job-memory", "3GiB", "--workers", "7",
                            "--out", tmp, "--dry-run", str(REPO / "instances/queens.lp")],
                           capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        raise AssertionError(p.stderr)
    return p.stdout


SBATCH = """
# A stand-in for sbatch: runs (a copy of, as sbatch does) the job script, its last argument,
# here, in a session of its own; its id is the session's.
import os, shutil, subprocess, sys
job = os.path.join(os.path.dirname(os.path.abspath(sys.argv[0])), f"job.{os.getpid()}")
shutil.copy(sys.argv[-1], job + ".sh")
with open(job + ".log", "w") as log:
    p = subprocess.Popen(["bash", job + ".sh"], stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                         start_new_session=True)
print(f"Submitted batch job {p.pid}")
"""
SCANCEL = """
import os, signal, sys
for job in sys.argv[1:]:
    try:
        os.killpg(int(job), signal.SIGTERM)
    except (ProcessLookupError, ValueError):
        pass
"""


def rows_of(path):
    with open(path, newline="") as f:
        return [(r["instance"], r["solver"], r["status"]) for r in csv.DictReader(f)]


class LocalSizing(unittest.TestCase):
    """The default LocalCluster: a worker per physical core, per GPU for CUDA, within memory."""

    def test_cores_and_memory(self):
        cpu = solvers.parse_solvers("clingo,yasmin:cpu:res")
        self.assertEqual(cluster.local_size(cpu, 0)[:2], (cluster.physical_cores(), None))
        self.assertEqual(cluster.local_size(cpu, cluster.total_memory_mb())[0], 1)

    def test_a_worker_per_gpu(self):
        cuda = solvers.parse_solvers("clingo,yasmin:cuda:res")
        with mock.patch.dict(os.environ, {"CUDA_VISIBLE_DEVICES": "3,5"}):
            self.assertEqual(cluster.local_size(cuda, 1)[:2], (2, ["3", "5"]))
            args, _, cuda = cli.parse(["--solvers", "clingo,yasmin:cuda:res", "--memory", "0",
                                       "--yasmin", str(yasmin_bin()), str(REPO / "instances/queens.lp")])
            executor = cluster.open_executor(args, cuda)
        try:
            client = executor.client
            gpus = {w["name"]: client.submit(running.gpu_env, cuda[1], args, workers=[addr], pure=False).result()
                    for addr, w in client.scheduler_info(n_workers=-1)["workers"].items()}
            on_cpu = client.submit(running.gpu_env, cuda[0], args, pure=False).result()
        finally:
            executor.close()
        self.assertEqual(gpus, {0: {"CUDA_VISIBLE_DEVICES": "3"}, 1: {"CUDA_VISIBLE_DEVICES": "5"}})
        self.assertIsNone(on_cpu)


class Scheduler(unittest.TestCase):
    def test_existing_scheduler(self):
        """A scheduler and a worker started apart, in another directory and without the package
        on their path: bench.py --scheduler uploads it, and the runs come back."""
        with tempfile.TemporaryDirectory(prefix="bench-test-") as tmp:
            tmp = Path(tmp)
            env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
            daemons = [subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host",
                                         "127.0.0.1", "--port", "0", "--no-dashboard", "--scheduler-file",
                                         "s.json"], cwd=tmp, env=env, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL)]
            try:
                deadline = time.monotonic() + 60
                while not (tmp / "s.json").is_file() and time.monotonic() < deadline:
                    time.sleep(0.1)
                time.sleep(0.2)
                address = json.loads((tmp / "s.json").read_text())["address"]
                daemons.append(subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", address,
                                                 "--nthreads", "1", "--no-dashboard"], cwd=tmp, env=env,
                                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
                p = subprocess.run([sys.executable, str(SCRIPTS / "bench.py"), "--scheduler", address,
                                    *argv(tmp / "out", tmp / "cache", ["instances/queens.lp", "gen:pigeonhole:6"])],
                                   capture_output=True, text=True, timeout=300)
            finally:
                for d in reversed(daemons):
                    d.terminate()
                    d.wait(timeout=60)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertIn(f"runs on the Dask scheduler at {address}", p.stderr)
            self.assertEqual(rows_of(tmp / "out/results.csv"), [
                ("instances/queens", "clingo", "SAT"), ("instances/queens", "yasmin:cpu:res", "SAT"),
                ("gen/pigeonhole/n6-seed1", "clingo", "UNSAT"), ("gen/pigeonhole/n6-seed1", "yasmin:cpu:res", "UNSAT")])


class JobScripts(unittest.TestCase):
    def test_slurm(self):
        out = dry_run("--slurm", "--partition", "testpart", "--account", "proj9")
        self.assertIn("instances/queens", out)
        self.assertIn("of the 7 worker(s)", out)
        for line in ("#SBATCH -p testpart", "#SBATCH -A proj9", "#SBATCH -t 01:23:45", "#SBATCH --mem=3G",
                     "#SBATCH --cpus-per-task=1", f"export PYTHONPATH={SCRIPTS}"):
            self.assertIn(line, out)
        self.assertRegex(out, r"-m distributed.cli.dask_worker tcp://\S+ .*--nthreads 1")

    def test_slurm_with_a_stand_in_sbatch(self):
        """The whole --slurm path (job script, workers that connect back, runs, scancel at the
        end) with sbatch and scancel that run the jobs on this machine."""
        with tempfile.TemporaryDirectory(prefix="bench-test-") as tmp:
            tmp = Path(tmp)
            for name, text in (("sbatch", SBATCH), ("scancel", SCANCEL)):
                (tmp / name).write_text(f"#!{sys.executable}" + text)
                (tmp / name).chmod(0o755)
            env = dict(os.environ, PATH=f"{tmp}{os.pathsep}{os.environ['PATH']}")
            p = subprocess.run([sys.executable, str(SCRIPTS / "bench.py"), "--slurm", "--partition", "any",
                                "--workers", "1", *argv(tmp / "out", tmp / "cache", ["instances/queens.lp"])[:-1],
                                str(REPO / "instances/queens.lp")], capture_output=True, text=True, timeout=300,
                               env=env, cwd=tmp)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertIn("runs on 1 Slurm job(s)", p.stderr)
            self.assertEqual(rows_of(tmp / "out/results.csv"), [("instances/queens", "clingo", "SAT"),
                                                                ("instances/queens", "yasmin:cpu:res", "SAT")])

    def test_slurm_without_sbatch(self):
        with tempfile.TemporaryDirectory(prefix="bench-test-") as tmp:
            env = dict(os.environ, PATH=os.pathsep.join(d for d in os.environ["PATH"].split(os.pathsep)
                                                        if not (Path(d) / "sbatch").exists()))
            p = subprocess.run([sys.executable, str(SCRIPTS / "bench.py"), "--slurm", "--solvers", "clingo",
                                "--out", tmp, str(REPO / "instances/queens.lp")],
                               capture_output=True, text=True, timeout=120, env=env)
        self.assertEqual(p.returncode, 1)
        self.assertIn("no sbatch on PATH", p.stderr)

    def test_pbs(self):
        out = dry_run("--pbs", "--partition", "testq")
        for line in ("#PBS -q testq", "#PBS -l walltime=01:23:45", "mem=3"):
            self.assertIn(line, out)

    def test_without_dask_jobqueue(self):
        args, _, solvers = cli.parse(["--slurm", "--solvers", "clingo", str(REPO / "instances/queens.lp")])
        with mock.patch.dict(sys.modules, {"dask_jobqueue": None}):
            with self.assertRaises(SystemExit) as e:
                cluster.jobqueue_cluster(args, solvers)
        self.assertIn("need dask-jobqueue", str(e.exception))

    def test_options_need_a_batch_system(self):
        with self.assertRaises(SystemExit), mock.patch("sys.stderr"):
            cli.parse(["--partition", "x", "--solvers", "clingo", str(REPO / "instances/queens.lp")])


if __name__ == "__main__":
    unittest.main()
