#!/usr/bin/env python3
"""Acyclic orientations: a random undirected graph G(n, p) on nodes 1..n (each pair an edge with
probability p, or with p = d/(n-1) for an average degree d), whose edges the encoding directs
without a cycle (#edge) and with at most k arcs out of any node. n = 16, d = 4, k = 3, seed 1 has
1,064,595 answer sets, n = 18 1,855,069."""
import sys
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ next to the instances
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import genlib  # noqa: E402


def main(argv=None):
    genlib.graph_family(__doc__, "dag", "most arcs out of a node (default 3)", 3, 4.0,
                        lambda n, k: [f"node(1..{n}).", f"out({k})."], argv)


if __name__ == "__main__":
    main()
