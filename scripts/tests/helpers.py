"""Shared by the runner's tests: the paths, the yasmin binary, a small campaign's command line."""
import csv
import os
import sys
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parent.parent
REPO = SCRIPTS.parent
sys.path.insert(0, str(SCRIPTS))
sys.dont_write_bytecode = True

from yasmin_bench.results import MEASURED_FIELDS  # noqa: E402

SMALL = ["instances/queens.lp", "instances/tiling.lp", "instances/colouring.lp", "instances/disjunction.lp",
         "instances/hamiltonian.aspif", "gen:pigeonhole:7-8"]
SOLVERS = "clingo,yasmin:cpu:res"


def yasmin_bin():
    """$YASMIN_BIN, else target/release/yasmin (scripts/test.sh builds it first)."""
    path = Path(os.environ.get("YASMIN_BIN") or REPO / "target" / "release" / "yasmin").absolute()
    if not path.is_file():
        raise AssertionError(f"no yasmin binary at {path}: cargo build --release, or set YASMIN_BIN")
    return path


def argv(out, cache, sets=SMALL, *more):
    """bench.py's command line for a campaign of clingo and yasmin on sets."""
    return ["--yasmin", str(yasmin_bin()), "--solvers", SOLVERS, "--timeout", "30", "--memory", "2048",
            "--out", str(out), "--cache", str(cache), "--no-summary", "--no-progress", *more,
            *[s if s.startswith("gen:") else str(REPO / s) for s in sets]]


def answers(path):
    """The rows of a results.csv without the columns that measure (time, memory, host...)."""
    with open(path, newline="") as f:
        return [{k: v for k, v in r.items() if k not in MEASURED_FIELDS} for r in csv.DictReader(f)]
