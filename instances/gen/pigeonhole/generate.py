#!/usr/bin/env python3
"""Pigeon-hole instance: n+1 pigeons, n holes (always unsatisfiable; exponential for resolution,
so a few more holes make it much harder). Deterministic (--seed is accepted and ignored)."""
import argparse


def facts(n):
    return [f"% pigeon-hole, {n + 1} pigeons, {n} holes", f"pigeon(1..{n + 1}).", f"hole(1..{n})."]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--n", type=int, required=True, help="number of holes (pigeons: n+1)")
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
