#!/usr/bin/env python3
"""Pigeon-hole instance: n+1 pigeons, n holes (always unsatisfiable; exponential for resolution,
so a few more holes make it much harder). Deterministic (--seed is accepted and ignored)."""
import sys
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ next to the instances
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import genlib  # noqa: E402


def facts(n):
    return [f"% pigeon-hole, {n + 1} pigeons, {n} holes", f"pigeon(1..{n + 1}).", f"hole(1..{n})."]


def main(argv=None):
    ap = genlib.parser(__doc__, "number of holes (pigeons: n+1)", seed_help="ignored")
    a = ap.parse_args(argv)
    if a.n < 1:
        ap.error("--n must be at least 1")
    genlib.write(facts(a.n), a.output)


if __name__ == "__main__":
    main()
