"""The --slurm and --pbs dry runs: the job script dask-jobqueue would submit, with the
partition, walltime and memory asked for; and the message when dask-jobqueue is missing."""
import subprocess
import sys
import tempfile
import unittest
from unittest import mock

from helpers import REPO, SCRIPTS

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


class JobScripts(unittest.TestCase):
    def test_slurm(self):
        out = dry_run("--slurm", "--partition", "testpart", "--account", "proj9")
        self.assertIn("instances/queens", out)
        self.assertIn("of the 7 worker(s)", out)
        for line in ("#SBATCH -p testpart", "#SBATCH -A proj9", "#SBATCH -t 01:23:45", "#SBATCH --mem=3G",
                     "#SBATCH --cpus-per-task=1", f"export PYTHONPATH={SCRIPTS}"):
            self.assertIn(line, out)
        self.assertRegex(out, r"-m distributed.cli.dask_worker tcp://\S+ .*--nthreads 1")

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
