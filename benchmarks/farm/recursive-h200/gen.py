#!/usr/bin/env python3
"""Bootstrap percolation as an ASP program with a recursive aggregate (#26: the farm on
aggregates that support atoms on positive cycles): choose K seeds of a random graph of N nodes so
that every node becomes active, a node being active when it is a seed or when at least T of its
neighbours are. `active` depends on itself through a #count: its weight bodies support atoms on
positive cycles.

    python3 gen.py N DEGREE K T SEED > prog.lp
"""
import random
import sys

n, degree, k, t, seed = int(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
rng = random.Random(seed)
edges = set()
while len(edges) < int(n * degree / 2):
    a, b = rng.sample(range(1, n + 1), 2)
    edges.add((min(a, b), max(a, b)))
print(f"node(1..{n}).")
print(" ".join(f"edge({a},{b})." for a, b in sorted(edges)))
print("edge(Y,X) :- edge(X,Y).")
print(f"{{ seed(X) : node(X) }} {k}.")
print("active(X) :- seed(X).")
print(f"active(X) :- node(X), #count {{ Y : edge(Y,X), active(Y) }} >= {t}.")
print(":- node(X), not active(X).")
print("#show seed/1.")
