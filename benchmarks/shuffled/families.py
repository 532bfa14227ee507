#!/usr/bin/env python3
"""Per configuration and per family, from a CSV of scripts/parallel_bench.py over shuffled copies
(benchmarks/shuffled/run.sh): runs solved (per copy: gringo's order, `~s1`, `~s2`), PAR2, and
the median ratio of time to clingo's over the runs both solve where one took at least 1 s.

    python3 benchmarks/shuffled/families.py DIR/shuffled.csv [TIMEOUT, default 30]
"""
import collections
import csv
import statistics
import sys


def main():
    rows = list(csv.DictReader(open(sys.argv[1])))
    limit = float(sys.argv[2]) if len(sys.argv) > 2 else 30.0
    solved = lambda r: r["status"] in ("SAT", "UNSAT", "OPT")
    par2 = lambda rs: sum(float(r["time"]) if solved(r) else 2 * limit for r in rs) / max(1, len(rs))
    configs = list(dict.fromkeys(r["config"] for r in rows))
    per = collections.defaultdict(dict)
    for r in rows:
        per[r["instance"]][r["config"]] = r
    print("| configuration | solved (copies) | PAR2 (s) | median ratio to clingo (runs) |")
    print("|---|--:|--:|--:|")
    for c in configs:
        rs = [r for r in rows if r["config"] == c]
        copies = collections.Counter(r["instance"].partition("~")[2] or "s0" for r in rs if solved(r))
        ratio = ""
        if c != "clingo" and "clingo" in configs:
            both = [d for d in per.values() if c in d and "clingo" in d and solved(d[c]) and solved(d["clingo"])]
            ts = [(float(d[c]["time"]), float(d["clingo"]["time"])) for d in both]
            ratios = [y / k for y, k in ts if max(y, k) >= 1]
            ratio = f"{statistics.median(ratios):.2f} ({len(ratios)})" if ratios else ""
        n = sum(map(solved, rs))
        print(f"| {c} | {n} ({copies['s0']} / {copies['s1']} / {copies['s2']}) | {par2(rs):.1f} | {ratio} |")
    family = collections.defaultdict(lambda: collections.defaultdict(list))
    for r in rows:
        family[r["instance"].split("~")[0].split("__")[0]][r["config"]].append(r)
    print("\n| family (runs) | " + " | ".join(configs) + " |")
    print("|---|" + "--:|" * len(configs))
    for f in sorted(family):
        cells = [f"{sum(map(solved, family[f][c]))} ({par2(family[f][c]):.1f})" for c in configs]
        print(f"| {f} ({len(family[f][configs[0]])}) | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
