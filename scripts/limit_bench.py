#!/usr/bin/env python3
"""How soon after its --time-limit yasmin ends, per phase of the run (issue 23: every limit held
within 0.5 s, in every phase).

For each program and each limit, runs `yasmin --time-limit=L -V ARGS PROGRAM > /dev/null`,
measures the wall time of the whole process, and reads from yasmin's log (the line "time limit
during PHASE: ...") which phase the run was in when the limit passed. The overshoot is the wall
time minus the limit: everything from the deadline to the process's end (noticing the limit,
cleaning up, printing the summary, exiting). Runs that end before their limit are counted apart.

PROGRAMS (positional; default: big:40 big:120 qbf enum:22 bench):
  big:MB       a generated non-tight program of about MB megabytes of aspif (reading, completion,
               engine set-up and a search that is slow per step: 5 % of its rules form loops)
  qbf          hard disjunctive programs with head cycles (instances/gen/qbf/generate.py): the
               search spends its time in minimality checks
  enum:N       {a(1..N)} with -n 0: verification and output of many models (printed to /dev/null)
  bench        the largest ground instances of each family under --bench-root (ground with
               clingo from .venv, cached in --cache)
  FILE         a ground program as it is

    .venv/bin/python scripts/limit_bench.py --limits 1,2,5 --out benchmarks/limits/vm
    .venv/bin/python scripts/limit_bench.py --backend cuda --out benchmarks/limits/h100  # device

Writes OUT/results.csv (one row per run) and OUT/summary.md (the table per phase), and prints
the table. Exit status 1 if any run overshot its limit by more than --max-overshoot seconds.
"""
import argparse
import csv
import os
import random
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PHASES = ["reading", "completion", "setup", "search", "minimality", "verification", "output"]


def big_program(mb, path, seed=1):
    """About `mb` MB of aspif: choices over half the atoms, normal rules with negation, loops
    through pairs of rules (about 5 % of the rules), and integrity constraints."""
    rng = random.Random(seed)
    rules_per_mb = 80000
    n = max(1000, int(mb * rules_per_mb / 2))
    with open(path, "w") as f:
        f.write("asp 1 0 0\n")
        half = n // 2
        for a in range(1, half + 1, 8):
            group = list(range(a, min(a + 8, half + 1)))
            f.write(f"1 1 {len(group)} {' '.join(map(str, group))} 0 0\n")
        for h in range(half + 1, n + 1):
            x, y, z = rng.randrange(1, half + 1), rng.randrange(1, half + 1), rng.randrange(1, n + 1)
            f.write(f"1 0 1 {h} 0 2 {x} -{y}\n")
            if rng.random() < 0.05 and z > half and z != h:
                f.write(f"1 0 1 {h} 0 2 {z} {x}\n")  # h and z may support each other
            if rng.random() < 0.3:
                f.write(f"1 0 0 0 3 {h} -{z} {rng.randrange(1, half + 1)}\n")
        f.write("0\n")


def qbf_program(path, xs, ys, terms, seed):
    gen = REPO / "instances/gen/qbf/generate.py"
    with open(path, "w") as f:
        subprocess.run([sys.executable, str(gen), "--xs", str(xs), "--ys", str(ys), "--terms",
                        str(terms), "--seed", str(seed)], stdout=f, check=True)


def enum_program(path, n):
    with open(path, "w") as f:
        f.write("asp 1 0 0\n")
        f.write(f"1 1 {n} {' '.join(str(i) for i in range(1, n + 1))} 0 0\n")
        for i in range(1, n + 1):
            name = f"a({i})"
            f.write(f"4 {len(name)} {name} 1 {i}\n")
        f.write("0\n")


def ground_bench(root, cache, per_family=1):
    """The largest instance of each family, ground with clingo (cached by name)."""
    py = REPO / ".venv/bin/python"
    out = []
    for enc in sorted(Path(root).glob("*/*/encoding.asp")):
        fam = enc.parent
        insts = sorted((fam / "instances").glob("*.asp"), key=lambda p: -p.stat().st_size)
        for inst in insts[:per_family]:
            target = Path(cache) / f"{fam.parent.name}_{fam.name}_{inst.stem}.aspif"
            if not target.exists() or target.stat().st_size == 0:
                with open(target, "w") as f:
                    r = subprocess.run([str(py), "-m", "clingo", "--mode=gringo", str(enc), str(inst)],
                                       stdout=f, stderr=subprocess.DEVNULL, timeout=600)
                if r.returncode != 0:
                    target.unlink()
                    continue
            out.append(target)
    # The biggest ground programs first; reading and completion take longest there.
    return sorted(out, key=lambda p: -p.stat().st_size)


def programs(args):
    work = Path(args.cache)
    work.mkdir(parents=True, exist_ok=True)
    progs = []  # (name, path, extra args)
    for spec in args.programs:
        if spec.startswith("big:"):
            mb = float(spec[4:])
            p = work / f"big-{mb:g}mb.aspif"
            if not p.exists():
                big_program(mb, p)
            progs.append((f"big {p.stat().st_size / 1e6:.0f} MB", p, []))
        elif spec == "qbf":
            for xs, ys, terms, seed in [(24, 24, 44, 1), (26, 26, 46, 3)]:
                p = work / f"qbf-{xs}-{ys}-{terms}-{seed}.aspif"
                if not p.exists():
                    qbf_program(p, xs, ys, terms, seed)
                progs.append((f"qbf {xs}x{ys} t{terms} s{seed}", p, ["-n", "0"]))
        elif spec.startswith("enum:"):
            n = int(spec[5:])
            p = work / f"enum-{n}.aspif"
            if not p.exists():
                enum_program(p, n)
            progs.append((f"enum {n}", p, ["-n", "0"]))
        elif spec == "bench":
            for p in ground_bench(args.bench_root, work)[: args.bench_count]:
                progs.append((p.stem, p, []))
        else:
            progs.append((Path(spec).name, Path(spec), []))
    return progs


LINE = re.compile(r"time limit during (\w+): noticed ([0-9.]+) s after it; the summary printed ([0-9.]+) s")


def run(binary, backend, prog, extra, limit):
    cmd = [binary, f"--time-limit={limit}", "-V", f"--backend={backend}", *extra, str(prog)]
    t0 = time.monotonic()
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                       timeout=limit + 120)
    wall = time.monotonic() - t0
    m = LINE.search(p.stderr)
    return {
        "wall": wall,
        "code": p.returncode,
        "phase": m.group(1) if m else "",
        "noticed": float(m.group(2)) if m else None,
        "summary": float(m.group(3)) if m else None,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("programs", nargs="*", default=["big:40", "big:120", "qbf", "enum:22", "bench"])
    ap.add_argument("--bin", default=str(REPO / "target/release/yasmin"))
    ap.add_argument("--backend", default="cpu")
    ap.add_argument("--limits", default="1,2,5")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--bench-root", default=str(REPO.parent / "shared/bench"))
    ap.add_argument("--bench-count", type=int, default=6, help="largest ground instances to run")
    ap.add_argument("--cache", default=str(REPO / "bench-out/limits-programs"))
    ap.add_argument("--out", default=str(REPO / "bench-out/limits"))
    ap.add_argument("--max-overshoot", type=float, default=0.5)
    args = ap.parse_args()
    limits = [float(x) for x in args.limits.split(",")]
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    for name, path, extra in programs(args):
        for limit in limits:
            for _ in range(args.repeat):
                r = run(args.bin, args.backend, path, extra, limit)
                over = r["wall"] - limit
                row = {"program": name, "limit": limit, "wall": round(r["wall"], 3),
                       "overshoot": round(over, 3), "phase": r["phase"] or "(ended first)",
                       "noticed": r["noticed"], "summary": r["summary"], "code": r["code"]}
                rows.append(row)
                print(f"{name:40} limit {limit:4g}  wall {r['wall']:7.3f}  over {over:+.3f}  "
                      f"{row['phase']}", flush=True)
    with open(out / "results.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)
    table = ["| phase at the limit | runs | worst overshoot (s) | median (s) | worst program |",
             "|---|--:|--:|--:|---|"]
    bad = False
    for ph in PHASES + ["(ended first)"]:
        rs = [r for r in rows if r["phase"] == ph]
        if not rs:
            continue
        worst = max(rs, key=lambda r: r["overshoot"])
        if ph != "(ended first)":
            bad |= worst["overshoot"] > args.max_overshoot
        table.append(f"| {ph} | {len(rs)} | {worst['overshoot']:.3f} | "
                     f"{statistics.median(r['overshoot'] for r in rs):.3f} | "
                     f"{worst['program']} ({worst['limit']:g} s) |")
    host = os.uname().nodename
    text = "\n".join(table)
    (out / "summary.md").write_text(f"Backend {args.backend}, limits {args.limits} s, host {host}, "
                                    f"{len(rows)} runs.\n\n{text}\n")
    print()
    print(text)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
