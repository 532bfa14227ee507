#!/usr/bin/env python3
"""Hamiltonian cycle instance: a random directed graph on nodes 1..n, each ordered pair (i, j),
i != j, an arc with probability p (or p = d/(n-1) for an average out-degree d, default 3).
With --plant 1 the arcs of a random Hamiltonian cycle are added, so the instance is satisfiable."""
import random
import sys
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ next to the instances
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import genlib  # noqa: E402


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
    ap = genlib.parser(__doc__, "number of nodes")
    genlib.add_probability(ap, "arc", 3.0)
    ap.add_argument("--plant", type=int, default=0, choices=[0, 1],
                    help="1: add a random Hamiltonian cycle (satisfiable); default 0")
    a = ap.parse_args(argv)
    if a.n < 2:
        ap.error("--n must be at least 2")
    genlib.write(facts(a.n, genlib.probability(ap, a, 3.0), a.plant, a.seed), a.output)


if __name__ == "__main__":
    main()
