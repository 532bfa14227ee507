#!/usr/bin/env python3
"""Hard disjunctive programs with head cycles: random 2QBF instances Phi = EX X AY Y psi, psi a DNF
of 3-literal terms, by the saturation encoding of Eiter & Gottlob, printed as ground aspif (no
grounder needed):

    x_i | nx_i.   y_j | ny_j.   y_j :- w.   ny_j :- w.   w :- l1, l2, l3.   :- not w.

The program has an answer set iff Phi is true; its answer sets are {x_i or nx_i for each i} U
{all y_j, ny_j} U {w} for each assignment of X under which psi holds for every assignment of Y.
Atoms print as x(1), nx(1), y(1), ny(1), w.

Each term has --x-lits literals over X (default 1) and the rest over Y, three distinct variables
with random signs; `mix` picks 1 or 2 X literals per term, `01` 0 or 1. One X literal gives the
hardest instances (the others let the search choose X so that a unit term y and a unit term -y
both survive); the truth threshold is near terms = 1.8 * ys, for any xs. With the default, the
output is the same program, byte for byte, as `Qbf::random(seed, xs, ys, terms).to_aspif()` in
tests/gen/qbf.rs (the same splitmix64 generator), so the tests' calibrated instances can be
written out here, and larger ones made for benchmarks.

Sizes (yasmin 8c0a020 on a 2-core machine; tests/gen/qbf.rs has the table): 16 x 20 takes at
most 0.1 s; 28 x 28 with 50 terms and 30 x 30 with 50 to 52 terms take 1 to 5 s on most seeds
for one model or the proof of none (a few far less, a few 9 to 15 s); 50 x 40 with 70 to 90
terms often more than 20 s.
clingo answers all of these in under 0.1 s. Near the threshold a true instance has millions of
answer sets (X variables in no term are free); 18 x 22 with 44 terms has some 16,000 to 40,000.

usage: generate.py --xs 26 --ys 26 --terms 46 --seed 3 [--x-lits 1|2|mix|01] [-o out.aspif]
"""
import argparse
import sys

MASK = (1 << 64) - 1


class Rng:
    """splitmix64, as tests/gen/mod.rs's Rng."""

    def __init__(self, seed):
        self.s = (seed ^ 0x5DEECE66D1CEF00D) & MASK
        self.next()

    def next(self):
        self.s = (self.s + 0x9E3779B97F4A7C15) & MASK
        z = self.s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def below(self, n):
        return self.next() % n


def terms(seed, xs, ys, m, x_lits="1"):
    """m terms, each three signed variables: 1..xs are X, xs+1..xs+ys are Y."""
    rng = Rng(seed)
    out = []
    for _ in range(m):
        a = 1 + rng.below(2) if x_lits == "mix" else (rng.below(2) if x_lits == "01" else int(x_lits))
        vs = []
        while len(vs) < 3:
            v = 1 + rng.below(xs) if len(vs) < a else xs + 1 + rng.below(ys)
            if v not in vs:
                vs.append(v)
        out.append([v if rng.below(2) == 0 else -v for v in vs])
    return out


def aspif(xs, ys, ts):
    """The saturation program as aspif text."""
    def atom(lit):  # x(i) = 2i-1, nx(i) = 2i; y(j) after the xs; w last
        return 2 * abs(lit) - 1 if lit > 0 else 2 * abs(lit)

    n = xs + ys
    w = 2 * n + 1
    lines = ["asp 1 0 0"]
    for v in range(1, n + 1):
        lines.append(f"1 0 2 {2 * v - 1} {2 * v} 0 0")
    for v in range(xs + 1, n + 1):
        lines.append(f"1 0 1 {2 * v - 1} 0 1 {w}")
        lines.append(f"1 0 1 {2 * v} 0 1 {w}")
    for t in ts:
        lines.append(f"1 0 1 {w} 0 3 " + " ".join(str(atom(lit)) for lit in t))
    lines.append(f"1 0 0 0 1 -{w}")
    for v in range(1, n + 1):
        p, i = ("x", v) if v <= xs else ("y", v - xs)
        for name, a in ((f"{p}({i})", 2 * v - 1), (f"n{p}({i})", 2 * v)):
            lines.append(f"4 {len(name)} {name} 1 {a}")
    lines.append(f"4 1 w 1 {w}")
    lines.append("0")
    return "\n".join(lines) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--xs", type=int, required=True, help="existential variables")
    ap.add_argument("--ys", type=int, required=True, help="universal variables")
    ap.add_argument("--terms", type=int, required=True, help="DNF terms")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--x-lits", choices=["1", "2", "mix", "01"], default="1",
                    help="X literals per term (mix: 1 or 2 at random, 01: 0 or 1; default 1)")
    ap.add_argument("-o", "--output", help="write here instead of stdout")
    a = ap.parse_args(argv)
    max_x = {"1": 1, "2": 2, "mix": 2, "01": 1}[a.x_lits]
    min_x = {"1": 1, "2": 2, "mix": 1, "01": 0}[a.x_lits]
    if a.xs < max_x or a.ys < 3 - min_x or a.terms < 0:
        ap.error(f"--x-lits {a.x_lits} needs --xs >= {max_x} and --ys >= {3 - min_x} "
                 "(three distinct variables a term), and --terms >= 0")
    text = aspif(a.xs, a.ys, terms(a.seed, a.xs, a.ys, a.terms, a.x_lits))
    if a.output:
        with open(a.output, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
