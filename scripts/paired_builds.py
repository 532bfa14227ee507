#!/usr/bin/env python3
"""Two or more builds of yasmin on one run each, alternated, for a change whose effect is smaller
than a noisy machine's drift (the 2-core VM's runs of one build vary by 10 % within minutes).
Each round runs every build once, in turn (reversed every other round), and the paired ratio
of a build is the median over rounds of its time over the first build's in the same round.
The arguments after the builds are yasmin's; give a deterministic run (one search,
`--solve-limit=N` or an enumeration), so that the builds do the same work.

    python3 scripts/paired_builds.py --rounds 6 BASE,NEW -- -q --decisions=vars \\
        --solve-limit=100000 GraphColouring_0043.aspif
"""
import argparse
import statistics
import subprocess
import sys
import time


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("builds", help="comma-separated paths of yasmin binaries, the base first")
    ap.add_argument("args", nargs=argparse.REMAINDER, help="yasmin's arguments (after --)")
    a = ap.parse_args()
    builds = a.builds.split(",")
    args = [x for x in a.args if x != "--"] if a.args[:1] == ["--"] else a.args
    if len(builds) < 2 or not args:
        ap.error("give two builds or more and yasmin's arguments")
    times = {b: [] for b in builds}
    for r in range(a.rounds):
        for b in builds if r % 2 == 0 else builds[::-1]:
            t = time.perf_counter()
            p = subprocess.run([b, *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            times[b].append(time.perf_counter() - t)
            if p.returncode not in (0, 10, 20, 30):
                sys.exit(f"{b}: exit {p.returncode}: {p.stderr.strip()[-300:]}")
    base = times[builds[0]]
    for b in builds:
        ratio = statistics.median(x / y for x, y in zip(times[b], base))
        print(f"{b}: median {statistics.median(times[b]):.3f} s, min {min(times[b]):.3f} s, "
              f"paired ratio {ratio:.3f}")


if __name__ == "__main__":
    main()
