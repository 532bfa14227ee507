"""parallel_bench.py: its table over one round and over several, and a small run of two rounds."""
import csv
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

import helpers

import parallel_bench


def row(instance, config, rnd, status, time):
    return {"instance": instance, "config": config, "round": rnd, "status": status, "time": time}


class Table(unittest.TestCase):
    def test_one_round(self):
        rows = [row("a", "x", 1, "SAT", 1.5), row("a", "y", 1, "TIMEOUT", 10.0),
                row("b", "x", 1, "UNSAT", 2.5), row("b", "y", 1, "UNSAT", 0.5)]
        t = parallel_bench.table(rows, ["x", "y"], ["a", "b"], 10, 1).splitlines()
        self.assertEqual(t[2], "| a | SAT 1.50 | TIMEOUT |")
        self.assertEqual(t[-2], "| solved | 2 | 1 |")
        self.assertEqual(t[-1], "| PAR2 (s) | 2.0 | 10.2 |")

    def test_rounds(self):
        # x solves a in rounds 1 and 3 (2 s, 4 s) and times out in round 2 (counted as 20 s).
        rows = [row("a", "x", 1, "SAT", 2.0), row("a", "x", 2, "TIMEOUT", 10.0), row("a", "x", 3, "SAT", 4.0)]
        t = parallel_bench.table(rows, ["x"], ["a"], 10, 3).splitlines()
        self.assertEqual(t[2], "| a | 2/3 4.00 |")
        self.assertEqual(t[-2], "| solved, each round | 1, 0, 1 |")
        self.assertEqual(t[-1], "| PAR2 (s), each round (mean) | 2.0, 20.0, 4.0 (8.7) |")


class Run(unittest.TestCase):
    def test_two_rounds_of_each_run(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "par.csv"
            p = subprocess.run([sys.executable, str(helpers.SCRIPTS / "parallel_bench.py"), "--yasmin",
                                str(helpers.yasmin_bin()), "--timeout", "20", "--repeat", "2", "--out", str(out),
                                "--config", "yasmin", "--config", "yasmin -t 2",
                                str(helpers.REPO / "instances" / "colouring.aspif")],
                               capture_output=True, text=True, check=True)
            with open(out, newline="") as f:
                runs = sorted((r["config"], r["round"], r["status"]) for r in csv.DictReader(f))
            self.assertEqual(runs, [("yasmin", "1", "SAT"), ("yasmin", "2", "SAT"),
                                    ("yasmin -t 2", "1", "SAT"), ("yasmin -t 2", "2", "SAT")])
            self.assertIn("| colouring | 2/2 ", p.stdout)


if __name__ == "__main__":
    unittest.main()
