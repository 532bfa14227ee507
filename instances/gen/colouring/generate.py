#!/usr/bin/env python3
"""Graph colouring instance: a random undirected graph G(n, p) on nodes 1..n (each pair an edge
with probability p, or with p = d/(n-1) for an average degree d) and k colours. For k = 3 the
hard region is around average degree 4.6 (the default)."""
import random
import sys
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ next to the instances
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import genlib  # noqa: E402


def facts(n, k, p, seed):
    rng = random.Random(f"colouring/{n}/{p}/{seed}")
    out = [f"% graph colouring, n={n} k={k} p={p:.6g} seed={seed}", f"node(1..{n}).", f"colour(1..{k})."]
    for i in range(1, n + 1):
        for j in range(i + 1, n + 1):
            if rng.random() < p:
                out.append(f"edge({i},{j}).")
    return out


def main(argv=None):
    ap = genlib.parser(__doc__, "number of nodes")
    ap.add_argument("--k", type=int, default=3, help="number of colours (default 3)")
    genlib.add_probability(ap, "edge", 4.6)
    a = ap.parse_args(argv)
    if a.n < 1 or a.k < 1:
        ap.error("--n and --k must be at least 1")
    genlib.write(facts(a.n, a.k, genlib.probability(ap, a, 4.6), a.seed), a.output)


if __name__ == "__main__":
    main()
