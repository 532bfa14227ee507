#!/usr/bin/env python3
"""N-queens instance: the board size n as the fact n(N). Deterministic (--seed is accepted and
ignored, so that the runner's seeds= parameter can be used uniformly). Satisfiable for n >= 4."""
import sys
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ next to the instances
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import genlib  # noqa: E402


def facts(n):
    return [f"% n-queens, n={n}", f"n({n})."]


def main(argv=None):
    ap = genlib.parser(__doc__, "board size (n queens on n x n)", seed_help="ignored")
    a = ap.parse_args(argv)
    if a.n < 1:
        ap.error("--n must be at least 1")
    genlib.write(facts(a.n), a.output)


if __name__ == "__main__":
    main()
