"""Steiner-tree instances for steiner.lp: a grid (`grid N T SEED`: N x N nodes) or a random
connected graph (`random N M T SEED`: N nodes, M edges), edge weights 1 to 9 (grid) or 1 to 20,
T terminals."""
import random
import sys


def grid(n, t, seed):
    random.seed(seed)
    node = lambda i, j: i * n + j + 1
    for i in range(n):
        for j in range(n):
            print(f"node({node(i, j)}).")
            if i + 1 < n:
                print(f"edge({node(i, j)},{node(i + 1, j)},{random.randint(1, 9)}).")
            if j + 1 < n:
                print(f"edge({node(i, j)},{node(i, j + 1)},{random.randint(1, 9)}).")
    for x in random.sample(range(1, n * n + 1), t):
        print(f"terminal({x}).")


def rand(n, m, t, seed):
    random.seed(seed)
    for i in range(1, n + 1):
        print(f"node({i}).")
    edges = {(random.randint(1, i - 1), i) for i in range(2, n + 1)}
    while len(edges) < m:
        a, b = random.sample(range(1, n + 1), 2)
        edges.add((min(a, b), max(a, b)))
    for a, b in sorted(edges):
        print(f"edge({a},{b},{random.randint(1, 20)}).")
    for x in random.sample(range(1, n + 1), t):
        print(f"terminal({x}).")


if __name__ == "__main__":
    kind, *a = sys.argv[1:]
    grid(*map(int, a)) if kind == "grid" else rand(*map(int, a))
