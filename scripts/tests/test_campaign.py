"""A small campaign through a LocalCluster of two workers against the same in-process, and
resumption: a rerun with the same CSV repeats nothing, a partial CSV is completed."""
import csv
import tempfile
import unittest
from pathlib import Path

from helpers import SMALL, answers, argv

from yasmin_bench import cli


class Campaign(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="bench-test-")
        cls.dir = Path(cls.tmp.name)
        cls.cache = cls.dir / "cache"
        cls.rc_local = cli.main(argv(cls.dir / "local", cls.cache, SMALL, "--local"))
        cls.rc_dask = cli.main(argv(cls.dir / "dask", cls.cache, SMALL, "--workers", "2"))

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_dask_equals_local(self):
        local, dask = answers(self.dir / "local/results.csv"), answers(self.dir / "dask/results.csv")
        self.assertEqual(len(local), 2 * 7)  # 7 instances, 2 solvers
        self.assertEqual(self.rc_local, 0)
        self.assertEqual(self.rc_dask, 0)
        self.assertEqual(dask, local)
        self.assertTrue(all(r["agree"] == "yes" for r in local), local)
        self.assertEqual({r["status"] for r in local}, {"SAT", "UNSAT", "OPTIMUM"})

    def test_measured_columns(self):
        with open(self.dir / "dask/results.csv", newline="") as f:
            rows = list(csv.DictReader(f))
        for r in rows:
            self.assertIn(r["measured_by"], ("runexec", "rusage"))
            self.assertEqual(r["attempts"], "1")
            self.assertGreater(float(r["time"]), 0)
            self.assertGreaterEqual(float(r["cpu_time"]), 0)
            self.assertGreater(float(r["peak_mem_mb"]), 0)
            self.assertTrue(r["commit"])

    def test_resume_repeats_nothing(self):
        out = self.dir / "resume"
        out.mkdir()
        before = (self.dir / "dask/results.csv").read_bytes()
        (out / "results.csv").write_bytes(before)
        self.assertEqual(cli.main(argv(out, self.cache, SMALL, "--local", "--resume")), 0)
        self.assertEqual((out / "results.csv").read_bytes(), before)

    def test_resume_completes(self):
        out = self.dir / "partial"
        out.mkdir()
        lines = (self.dir / "local/results.csv").read_text().splitlines(keepends=True)
        dropped = [2, 5, 6]  # a yasmin run, and both runs of another instance
        (out / "results.csv").write_text("".join(l for i, l in enumerate(lines) if i not in dropped))
        self.assertEqual(cli.main(argv(out, self.cache, SMALL, "--workers", "2", "--resume")), 0)
        after = (out / "results.csv").read_text().splitlines(keepends=True)
        self.assertEqual(len(after), len(lines))
        for i, line in enumerate(lines):
            if i not in dropped:  # kept as it was, not run again
                self.assertEqual(after[i], line)
        self.assertEqual(answers(out / "results.csv"), answers(self.dir / "local/results.csv"))


if __name__ == "__main__":
    unittest.main()
