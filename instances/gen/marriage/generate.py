#!/usr/bin/env python3
"""Stable marriage instance: n men and n women, each with a complete, strict preference list over
the other side drawn uniformly at random. Rank 1 is the most preferred. Always satisfiable (the
Gale-Shapley algorithm finds a stable matching); the number of stable matchings varies."""
import random
import sys
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ next to the instances
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import genlib  # noqa: E402


def facts(n, seed):
    rng = random.Random(f"marriage/{n}/{seed}")
    out = [f"% stable marriage, n={n} seed={seed}", f"man(1..{n}).", f"woman(1..{n})."]
    for m in range(1, n + 1):
        order = list(range(1, n + 1))
        rng.shuffle(order)
        out += [f"mpref({m},{w},{r})." for r, w in enumerate(order, 1)]
    for w in range(1, n + 1):
        order = list(range(1, n + 1))
        rng.shuffle(order)
        out += [f"wpref({w},{m},{r})." for r, m in enumerate(order, 1)]
    return out


def main(argv=None):
    ap = genlib.parser(__doc__, "number of men (and of women)")
    a = ap.parse_args(argv)
    if a.n < 1:
        ap.error("--n must be at least 1")
    genlib.write(facts(a.n, a.seed), a.output)


if __name__ == "__main__":
    main()
