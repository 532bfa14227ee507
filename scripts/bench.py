#!/usr/bin/env python3
"""Batch benchmark runner: yasmin (one or more configurations) against clingo, its runs through
Dask (a LocalCluster here, an existing scheduler, or Slurm/PBS jobs). The entry point; the code
is the package yasmin_bench/ next to this file, and `bench.py --help` says how to use it."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.dont_write_bytecode = True  # no __pycache__ in scripts/
from yasmin_bench.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
