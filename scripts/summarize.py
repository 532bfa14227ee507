#!/usr/bin/env python3
"""Summarizes the CSV written by scripts/bench.py (the entry point of yasmin_bench/summary.py).

    .venv/bin/python scripts/summarize.py bench-out/results.csv [MORE.csv ...] [--out DIR]

Prints, and writes to DIR/summary.md (DIR: the first CSV's directory unless --out):
  - every disagreement between solvers, at the top (agreement is recomputed across all the rows
    given, so CSVs from separate runs can be combined), then every run that ended in ERROR;
  - per solver configuration: instances solved (SAT / UNSAT / OPTIMUM), timeouts, memory-outs,
    errors, PAR2 (mean of the time of solved runs and 2 x timeout for the rest), and the median
    of time / baseline time over the instances both solved, one of them in at least --ratio-min
    seconds (baseline: clingo unless --baseline);
  - the same per family;
and draws DIR/cactus.png and DIR/cactus.svg: instances solved against time, one line per
solver configuration (needs matplotlib, installed by scripts/setup-bench-env.sh; without it the
plots are skipped with a warning). Exits 1 if there is any disagreement or ERROR, else 0.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.dont_write_bytecode = True  # no __pycache__ in scripts/
from yasmin_bench.summary import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
