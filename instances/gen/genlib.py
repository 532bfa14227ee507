"""The command line every instance generator shares: --n, --seed and -o, the edge probability
from --p or an average degree --d, and writing the facts. Imported by instances/gen/*/generate.py
(each puts this folder on sys.path first)."""
import argparse


def parser(doc, n_help, seed_help=None):
    """An argument parser with --n (required), --seed (default 1) and -o/--output."""
    ap = argparse.ArgumentParser(description=doc)
    ap.add_argument("--n", type=int, required=True, help=n_help)
    ap.add_argument("--seed", type=int, default=1, help=seed_help)
    ap.add_argument("-o", "--output", help="write here instead of stdout")
    return ap


def add_probability(ap, what, default_degree):
    """--p (the probability of each `what`) or --d (an average degree, p = d/(n-1))."""
    ap.add_argument("--p", type=float, help=f"{what} probability")
    ap.add_argument("--d", type=float,
                    help=f"average degree (p = d/(n-1)); default {default_degree:g} if no --p")


def probability(ap, a, default_degree):
    """The probability that --p or --d asks for (a parse error when both are given)."""
    if a.p is not None and a.d is not None:
        ap.error("give --p or --d, not both")
    if a.p is not None:
        return a.p
    return min(1.0, (default_degree if a.d is None else a.d) / max(1, a.n - 1))


def write(lines, output):
    """The facts, one a line, to `output` (a path) or to stdout."""
    text = "\n".join(lines) + "\n"
    if output:
        with open(output, "w") as f:
            f.write(text)
    else:
        print(text, end="")


def graph_family(doc, family, k_help, k_default, default_degree, first_facts, argv=None):
    """The main of a family over a random undirected graph G(n, p) on nodes 1..n: --n, --k, --p or
    --d, --seed, -o. `first_facts(n, k)` gives the facts before the edges; the edges come from a
    generator seeded by the family's name, n, p and the seed (so instances stay the same)."""
    import random

    ap = parser(doc, "number of nodes")
    ap.add_argument("--k", type=int, default=k_default, help=k_help)
    add_probability(ap, "edge", default_degree)
    a = ap.parse_args(argv)
    if a.n < 1 or a.k < 0:
        ap.error("--n must be at least 1 and --k at least 0")
    p = probability(ap, a, default_degree)
    rng = random.Random(f"{family}/{a.n}/{p}/{a.seed}")
    out = [f"% {family}, n={a.n} k={a.k} p={p:.6g} seed={a.seed}"] + first_facts(a.n, a.k)
    for i in range(1, a.n + 1):
        for j in range(i + 1, a.n + 1):
            if rng.random() < p:
                out.append(f"edge({i},{j}).")
    write(out, a.output)
