"""One run under limits, by both methods: exit code, CPU time, the memory limit and the
wall-clock limit (runexec only where it can use cgroups here)."""
import sys
import tempfile
import unittest
from pathlib import Path

import helpers  # noqa: F401  (the path to yasmin_bench)

from yasmin_bench.measure import gnu_time, run_measured, runexec_status

BUSY = [sys.executable, "-c", "import sys\nx = 0\nfor i in range(3_000_000): x += i\nprint(x); sys.exit(3)"]
HOG = [sys.executable, "-c", "import time\nx = bytearray(400 << 20)\nfor i in range(0, len(x), 4096): x[i] = 1\n"
       "time.sleep(5)"]
SLEEP = ["sleep", "30"]


class Measure(unittest.TestCase):
    def run_cmd(self, method, cmd, timeout=20, memory_mb=0):
        with tempfile.TemporaryDirectory() as tmp:
            m = run_measured(cmd, Path(tmp) / "out", Path(tmp) / "err", timeout, memory_mb, method=method)
            return m, (Path(tmp) / "out").read_text()

    def check(self, method):
        m, out = self.run_cmd(method, BUSY)
        self.assertEqual((m.rc, m.killed, m.method, out.strip()), (3, None, method, str(sum(range(3_000_000)))))
        self.assertGreater(m.cpu, 0.05)
        self.assertGreaterEqual(m.wall, m.cpu * 0.5)
        self.assertGreater(m.peak_mb, 1)
        m, _ = self.run_cmd(method, SLEEP, timeout=1)
        self.assertEqual(m.killed, "timeout")
        self.assertLess(m.wall, 10)
        m, _ = self.run_cmd(method, HOG, memory_mb=200)
        self.assertTrue(m.killed == "memory" or m.rc != 0, m)  # RLIMIT_AS: MemoryError, exit 1
        if method == "runexec" or gnu_time():  # (else the peak includes this process's RSS at fork)
            self.assertLess(m.peak_mb, 260)

    def test_rusage(self):
        self.check("rusage")

    @unittest.skipUnless(runexec_status()[0], "runexec cannot be used here: " + runexec_status()[1])
    def test_runexec(self):
        self.check("runexec")


if __name__ == "__main__":
    unittest.main()
