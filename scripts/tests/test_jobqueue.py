"""The --slurm and --pbs dry runs: the job script dask-jobqueue would submit, with the
partition, walltime and memory asked for; a campaign through --slurm with a stand-in sbatch;
the message when dask-jobqueue is missing."""
import csv
import os
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from helpers import REPO, SCRIPTS, argv

from yasmin_bench import cli, cluster


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
            with open(tmp / "out/results.csv", newline="") as f:
                rows = list(csv.DictReader(f))
            self.assertEqual([(r["solver"], r["status"]) for r in rows], [("clingo", "SAT"), ("yasmin:cpu:res", "SAT")])

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
