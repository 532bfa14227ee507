#!/usr/bin/env python3
"""Stable marriage instance: n men and n women, each with a complete, strict preference list over
the other side drawn uniformly at random. Rank 1 is the most preferred. Always satisfiable (the
Gale-Shapley algorithm finds a stable matching); the number of stable matchings varies."""
import argparse
import random


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
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--n", type=int, required=True, help="number of men (and of women)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-o", "--output", help="write here instead of stdout")
    a = ap.parse_args(argv)
    if a.n < 1:
        ap.error("--n must be at least 1")
    text = "\n".join(facts(a.n, a.seed)) + "\n"
    if a.output:
        with open(a.output, "w") as f:
            f.write(text)
    else:
        print(text, end="")


if __name__ == "__main__":
    main()
