#!/usr/bin/env python3
"""Sums Nsight Compute's warp-state samples by CUDA source line from
`ncu -i REP --page source --csv --print-source cuda,sass` (standard input) and prints the lines
with the most samples, each with its largest stall reasons."""
import csv, sys, collections

top = int(sys.argv[1]) if len(sys.argv) > 1 else 60
path = None
header = None
tot = collections.Counter()
stalls = collections.defaultdict(collections.Counter)
src = {}
for row in csv.reader(sys.stdin):
    if not row:
        continue
    if row[0] == "File Path":
        path = row[1].split("/kernels/")[-1]
        header = None
        continue
    if row[0] == "Line No":
        header = row
        idx = {name: i for i, name in enumerate(row) if i >= 4}
        samp = row.index("Warp Stall Sampling (All Samples)")
        reasons = [(i, n) for i, n in enumerate(row) if n.startswith("stall_") and "Not Issued" not in n]
        continue
    if header is None:
        continue
    shown = globals().setdefault("shown", 0)
    if shown < 12:
        print("row:", ",".join(row[:8])[:200], file=sys.stderr)
        globals()["shown"] = shown + 1
    if row[0].isdigit():
        line = int(row[0])
        src[(path, line)] = row[1].strip()[:90]
    elif row[0] == "" and "line" in globals():
        pass
    else:
        continue
    try:
        s = float(row[samp] or 0)
    except (ValueError, IndexError):
        continue
    tot[(path, line)] += s
    for i, n in reasons:
        try:
            v = float(row[i] or 0)
        except (ValueError, IndexError):
            v = 0
        if v:
            stalls[(path, line)][n[6:]] += v
all_s = sum(tot.values()) or 1
print(f"total samples {all_s:.0f}")
byfile = collections.Counter()
for (f, l), s in tot.items():
    byfile[f] += s
print("by file:", ", ".join(f"{f} {100*s/all_s:.1f}%" for f, s in byfile.most_common()))
for (f, l), s in tot.most_common(top):
    rs = ", ".join(f"{n} {100*v/s:.0f}%" for n, v in stalls[(f, l)].most_common(3))
    print(f"{100*s/all_s:5.2f}% {f}:{l} [{rs}] {src.get((f, l), '')}")
