"""Faults: workers killed mid-run. A run whose worker dies is run again on another worker and
counts two attempts; a run whose second worker dies too is marked LOST, and --resume runs it."""
import csv
import logging
import os
import signal
import tempfile
import threading
import time
import unittest
from pathlib import Path

from helpers import argv

from yasmin_bench import cli
from yasmin_bench.campaign import Campaign
from yasmin_bench.cluster import DaskExecutor

SETS = ["instances/queens.lp", "gen:pigeonhole:9"]  # pigeonhole 9: runs of a second or more
TARGET = "gen/pigeonhole/n9-seed1"


class Killer(threading.Thread):
    """Kills the worker process running each target run, as many times as asked, as soon as the
    scheduler has given the run to a worker (never the same worker twice for one run)."""

    def __init__(self, client, kills):
        super().__init__(daemon=True)
        self.client, self.kills = client, dict(kills)  # key suffix -> kills left
        self.killed = {k: [] for k in kills}           # key suffix -> worker addresses killed
        self.stop = threading.Event()

    def run(self):
        while not self.stop.is_set() and any(self.kills.values()):
            for addr, keys in self.client.processing().items():
                for suffix, left in self.kills.items():
                    if left and addr not in self.killed[suffix] and any(suffix + "@" in k for k in keys):
                        try:
                            pid = self.client.run(os.getpid, workers=[addr])[addr]
                        except Exception:  # noqa: BLE001  (the worker went away meanwhile)
                            continue
                        os.kill(pid, signal.SIGKILL)
                        self.killed[suffix].append(addr)
                        self.kills[suffix] -= 1
            time.sleep(0.02)


class Faults(unittest.TestCase):
    def test_killed_workers(self):
        from distributed import Client, LocalCluster
        with tempfile.TemporaryDirectory(prefix="bench-test-") as tmp:
            out, cache = Path(tmp) / "out", Path(tmp) / "cache"
            args, instances, solvers = cli.parse(argv(out, cache, SETS))
            cli.prepare(args, solvers)
            index = [i.id for i in instances].index(TARGET)
            cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, memory_limit=0,
                                   dashboard_address=None, silence_logs=logging.CRITICAL)
            executor = DaskExecutor(Client(cluster), cluster, "test")
            killer = Killer(executor.client, {f"-{index}-clingo": 1, f"-{index}-yasmin:cpu:res": 2})
            killer.start()
            try:
                rows = Campaign(args, instances, solvers, executor, progress=False).run()
            finally:
                killer.stop.set()
                killer.join()
                executor.close()
            self.assertEqual(killer.kills, {f"-{index}-clingo": 0, f"-{index}-yasmin:cpu:res": 0})
            by = {(r["instance"], r["solver"]): r for r in rows}
            self.assertEqual(len(rows), 4)
            retried = by[TARGET, "clingo"]
            self.assertEqual((retried["status"], str(retried["attempts"])), ("UNSAT", "2"))
            lost = by[TARGET, "yasmin:cpu:res"]
            self.assertEqual((lost["status"], str(lost["attempts"])), ("LOST", "2"))
            self.assertIn("died", lost["note"])
            for solver in ("clingo", "yasmin:cpu:res"):
                self.assertEqual(by["instances/queens", solver]["status"], "SAT")
                self.assertEqual(str(by["instances/queens", solver]["attempts"]), "1")

            # --resume: the lost run, and only it, runs again; its row goes to superseded.csv.
            with open(out / "results.csv", newline="") as f:
                before = {(r["instance"], r["solver"]): r for r in csv.DictReader(f)}
            self.assertEqual(cli.main(argv(out, cache, SETS, "--local", "--resume")), 0)
            with open(out / "results.csv", newline="") as f:
                after = {(r["instance"], r["solver"]): r for r in csv.DictReader(f)}
            self.assertEqual(after[TARGET, "yasmin:cpu:res"]["status"], "UNSAT")
            for key in before:
                if key != (TARGET, "yasmin:cpu:res"):
                    self.assertEqual(after[key], before[key])
            with open(out / "superseded.csv", newline="") as f:
                self.assertEqual([r["status"] for r in csv.DictReader(f)], ["LOST"])


if __name__ == "__main__":
    unittest.main()
