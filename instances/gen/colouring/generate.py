#!/usr/bin/env python3
"""Graph colouring instance: a random undirected graph G(n, p) on nodes 1..n (each pair an edge
with probability p, or with p = d/(n-1) for an average degree d) and k colours. For k = 3 the
hard region is around average degree 4.6 (the default)."""
import argparse
import random


def facts(n, k, p, seed):
    rng = random.Random(f"colouring/{n}/{p}/{seed}")
    out = [f"% graph colouring, n={n} k={k} p={p:.6g} seed={seed}", f"node(1..{n}).", f"colour(1..{k})."]
    for i in range(1, n + 1):
        for j in range(i + 1, n + 1):
            if rng.random() < p:
                out.append(f"edge({i},{j}).")
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--n", type=int, required=True, help="number of nodes")
    ap.add_argument("--k", type=int, default=3, help="number of colours (default 3)")
    ap.add_argument("--p", type=float, help="edge probability")
    ap.add_argument("--d", type=float, help="average degree (p = d/(n-1)); default 4.6 if no --p")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-o", "--output", help="write here instead of stdout")
    a = ap.parse_args(argv)
    if a.n < 1 or a.k < 1:
        ap.error("--n and --k must be at least 1")
    if a.p is not None and a.d is not None:
        ap.error("give --p or --d, not both")
    p = a.p if a.p is not None else min(1.0, (4.6 if a.d is None else a.d) / max(1, a.n - 1))
    text = "\n".join(facts(a.n, a.k, p, a.seed)) + "\n"
    if a.output:
        with open(a.output, "w") as f:
            f.write(text)
    else:
        print(text, end="")


if __name__ == "__main__":
    main()
