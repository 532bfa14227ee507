#!/usr/bin/env python3
"""Graph colouring instance: a random undirected graph G(n, p) on nodes 1..n (each pair an edge
with probability p, or with p = d/(n-1) for an average degree d) and k colours. For k = 3 the
hard region is around average degree 4.6 (the default)."""
import sys
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ next to the instances
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import genlib  # noqa: E402


def main(argv=None):
    genlib.graph_family(__doc__, "colouring", "number of colours (default 3)", 3, 4.6,
                        lambda n, k: [f"node(1..{n}).", f"colour(1..{k})."], argv)


if __name__ == "__main__":
    main()
