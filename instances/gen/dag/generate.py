#!/usr/bin/env python3
"""Acyclic orientations: a random undirected graph G(n, p) on nodes 1..n (each pair an edge with
probability p, or with p = d/(n-1) for an average degree d), whose edges the encoding directs
without a cycle (#edge) and with at most k arcs out of any node. n = 16, d = 4, k = 3, seed 1 has
1,064,595 answer sets, n = 18 1,855,069."""
import random
import sys
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ next to the instances
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import genlib  # noqa: E402


def facts(n, k, p, seed):
    rng = random.Random(f"dag/{n}/{p}/{seed}")
    out = [f"% acyclic orientations, n={n} k={k} p={p:.6g} seed={seed}", f"node(1..{n}).", f"out({k})."]
    for i in range(1, n + 1):
        for j in range(i + 1, n + 1):
            if rng.random() < p:
                out.append(f"edge({i},{j}).")
    return out


def main(argv=None):
    ap = genlib.parser(__doc__, "number of nodes")
    ap.add_argument("--k", type=int, default=3, help="most arcs out of a node (default 3)")
    genlib.add_probability(ap, "edge", 4.0)
    a = ap.parse_args(argv)
    if a.n < 1 or a.k < 0:
        ap.error("--n must be at least 1 and --k at least 0")
    genlib.write(facts(a.n, a.k, genlib.probability(ap, a, 4.0), a.seed), a.output)


if __name__ == "__main__":
    main()
