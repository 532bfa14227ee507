#!/usr/bin/env python3
"""#26's target from the CSVs of run.sh (scripts/parallel_bench.py's): per configuration and
round, solved and PAR2; per family, solved; and the instances that one configuration solves and
another does not (in every round against in none).

    python3 benchmarks/farm/whole-h200/summary.py CPU.csv GPU.csv [TIMEOUT, default 20]
"""
import collections
import csv
import sys


def main():
    files = [a for a in sys.argv[1:] if a.endswith(".csv")]
    limit = next((float(a) for a in sys.argv[1:] if not a.endswith(".csv")), 20.0)
    rows = [r for f in files for r in csv.DictReader(open(f))]
    solved = lambda r: r["status"] in ("SAT", "UNSAT", "OPT")
    par2 = lambda rs: sum(float(r["time"]) if solved(r) else 2 * limit for r in rs) / max(1, len(rs))
    configs = sorted(dict.fromkeys(r["config"] for r in rows), key=lambda c: not c.startswith("clingo"))
    rounds = sorted({r["round"] for r in rows})
    print(f"| {limit:g} s, runs of {len({r['instance'] for r in rows})} instances | " + " | ".join(configs) + " |")
    print("|---|" + "--:|" * len(configs))
    for rnd in rounds:
        cells = []
        for c in configs:
            rs = [r for r in rows if r["config"] == c and r["round"] == rnd]
            cells.append(f"{sum(map(solved, rs))} ({par2(rs):.1f})")
        print(f"| round {rnd}: solved (PAR2 s) | " + " | ".join(cells) + " |")
    family = collections.defaultdict(lambda: collections.defaultdict(list))
    for r in rows:
        family[r["instance"].split("__")[0]][r["config"]].append(r)
    print("\n| family (runs) | " + " | ".join(configs) + " |")
    print("|---|" + "--:|" * len(configs))
    for f in sorted(family):
        cells = [str(sum(map(solved, family[f][c]))) for c in configs]
        print(f"| {f} ({len(family[f][configs[0]])}) | " + " | ".join(cells) + " |")
    by = collections.defaultdict(lambda: collections.defaultdict(list))
    for r in rows:
        by[r["instance"]][r["config"]].append(solved(r))
    print()
    for a in configs:
        for b in configs:
            only = sorted(i for i, d in by.items() if all(d[a]) and d[a] and not any(d[b]))
            if a != b and only:
                print(f"{a} solves, {b} does not: {', '.join(only)}")


if __name__ == "__main__":
    main()
