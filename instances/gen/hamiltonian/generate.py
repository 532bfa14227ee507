#!/usr/bin/env python3
"""Hamiltonian cycle instance: a random directed graph on nodes 1..n, each ordered pair (i, j),
i != j, an arc with probability p (or p = d/(n-1) for an average out-degree d, default 3).
With --plant 1 the arcs of a random Hamiltonian cycle are added, so the instance is satisfiable."""
import argparse
import random


def facts(n, p, plant, seed):
    rng = random.Random(f"hamiltonian/{n}/{p}/{plant}/{seed}")
    arcs = set()
    for i in range(1, n + 1):
        for j in range(1, n + 1):
            if i != j and rng.random() < p:
                arcs.add((i, j))
    if plant and n >= 2:
        order = list(range(1, n + 1))
        rng.shuffle(order)
        for a, b in zip(order, order[1:] + order[:1]):
            arcs.add((a, b))
    out = [f"% hamiltonian cycle, n={n} p={p:.6g} plant={plant} seed={seed}", f"node(1..{n})."]
    out += [f"edge({i},{j})." for i, j in sorted(arcs)]
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--n", type=int, required=True, help="number of nodes")
    ap.add_argument("--p", type=float, help="arc probability")
    ap.add_argument("--d", type=float, help="average out-degree (p = d/(n-1)); default 3 if no --p")
    ap.add_argument("--plant", type=int, default=0, choices=[0, 1],
                    help="1: add a random Hamiltonian cycle (satisfiable); default 0")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-o", "--output", help="write here instead of stdout")
    a = ap.parse_args(argv)
    if a.n < 2:
        ap.error("--n must be at least 2")
    if a.p is not None and a.d is not None:
        ap.error("give --p or --d, not both")
    p = a.p if a.p is not None else min(1.0, (3.0 if a.d is None else a.d) / (a.n - 1))
    text = "\n".join(facts(a.n, p, a.plant, a.seed)) + "\n"
    if a.output:
        with open(a.output, "w") as f:
            f.write(text)
    else:
        print(text, end="")


if __name__ == "__main__":
    main()
