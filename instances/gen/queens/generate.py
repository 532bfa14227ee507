#!/usr/bin/env python3
"""N-queens instance: the board size n as the fact n(N). Deterministic (--seed is accepted and
ignored, so that the runner's seeds= parameter can be used uniformly). Satisfiable for n >= 4."""
import argparse


def facts(n):
    return [f"% n-queens, n={n}", f"n({n})."]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--n", type=int, required=True, help="board size (n queens on n x n)")
    ap.add_argument("--seed", type=int, default=1, help="ignored")
    ap.add_argument("-o", "--output", help="write here instead of stdout")
    a = ap.parse_args(argv)
    if a.n < 1:
        ap.error("--n must be at least 1")
    text = "\n".join(facts(a.n)) + "\n"
    if a.output:
        with open(a.output, "w") as f:
            f.write(text)
    else:
        print(text, end="")


if __name__ == "__main__":
    main()
