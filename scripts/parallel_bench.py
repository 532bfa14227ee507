#!/usr/bin/env python3
"""Parallel search against clingo's: solved and time per configuration, in one run.

Runs every ground program under every configuration, one run at a time (a parallel run takes the
machine's cores; --jobs N runs N at once, for configurations of one search each), with a
wall-clock limit, and prints a table: the result (SAT, UNSAT, OPT,
TIMEOUT) and the time, and per configuration the number solved and PAR2. Run it where there are
cores (the GPU machine has 16): `-t 8` on 2 cores measures nothing.

    python3 scripts/parallel_bench.py --yasmin target/release/yasmin --timeout 20 --out par.csv \\
        --config 'clingo -t 8' --config 'yasmin -t 8 --distribute=no' --config 'yasmin -t 8' \\
        --config 'yasmin -t 8,split' FILE.aspif ...

A configuration is `clingo ARGS` (python -m clingo, --mode=clasp), `yasmin ARGS`, or
`yasmin@PATH ARGS` (the yasmin binary at PATH: two builds in one run). A run stopped by the time
limit is a TIMEOUT, also where it had found models (an enumeration, `-n 0`, left incomplete);
the CSV gives each run's model count.
"""
import argparse
import csv
import json
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path


def run(cmd, timeout):
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                           timeout=timeout + 10)
        out = p.stdout
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
    wall = time.monotonic() - t0
    try:
        j = json.loads(out)
    except json.JSONDecodeError:
        return "ERROR", wall, None, {}, "", ""
    result = j.get("Result", "")
    stopped = "TIME LIMIT" in j or "INTERRUPTED" in j
    if result == "OPTIMUM FOUND" and not stopped:
        status = "OPT"
    elif result == "UNSATISFIABLE":
        status = "UNSAT"
    elif result == "SATISFIABLE" and not stopped:
        status = "SAT"
    else:
        status = "TIMEOUT"
    costs = j["Models"].get("Costs")
    # With --stats: the traffic between the search farms of several GPUs.
    stats = j.get("Stats") or {}
    mine = stats.get("Yasmin") or {}
    traffic = {k: mine[k] for k in ("Relayed", "RelayedBytes") if k in mine}
    # With --stats: the search's conflicts (clasp's Core.Conflicts).
    conflicts = (stats.get("Core") or {}).get("Conflicts", "")
    models = j["Models"].get("Number", "")
    return status, min(wall, j["Time"]["Total"] + 0.0), costs, traffic, conflicts, models


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+")
    ap.add_argument("--yasmin", default="target/release/yasmin")
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--timeout", type=float, default=20)
    ap.add_argument("--config", action="append", required=True)
    ap.add_argument("--out", default="parallel_bench.csv")
    ap.add_argument("--jobs", type=int, default=1, help="runs at once (1: one at a time)")
    args = ap.parse_args()
    rows = []
    lock = threading.Lock()

    def one(f, cfg):
        name = Path(f).stem
        solver, *extra = cfg.split()
        if solver == "clingo":
            cmd = [args.python, "-m", "clingo", "--mode=clasp", "--outf=2", "-q",
                   f"--time-limit={int(args.timeout)}", *extra, f]
        else:
            binary = solver.split("@", 1)[1] if solver.startswith("yasmin@") else args.yasmin
            cmd = [binary, "--outf=2", "-q", f"--time-limit={args.timeout}", *extra, f]
        status, t, costs, traffic, conflicts, models = run(cmd, args.timeout)
        with lock:
            rows.append({"instance": name, "config": cfg, "status": status, "time": round(t, 3),
                         "costs": json.dumps(costs) if costs else "", "conflicts": conflicts, "models": models,
                         "relayed": traffic.get("Relayed", ""), "relayed_bytes": traffic.get("RelayedBytes", "")})
            print(f"{name[:40]:40} {cfg:32} {status:8} {t:7.2f} {traffic or ''}", flush=True)
            # Written after every run: a run cut short keeps what it measured.
            with open(args.out, "w", newline="") as fh:
                w = csv.DictWriter(fh, fieldnames=list(rows[0].keys()))
                w.writeheader()
                w.writerows(rows)

    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for fut in [pool.submit(one, f, cfg) for f in args.files for cfg in args.config]:
            fut.result()
    names = list(dict.fromkeys(Path(f).stem for f in args.files))
    print()
    print("| instance | " + " | ".join(args.config) + " |")
    print("|---|" + "---|" * len(args.config))
    for n in names:
        cells = []
        for c in args.config:
            r = next(r for r in rows if r["instance"] == n and r["config"] == c)
            cells.append(r["status"] if r["status"] == "TIMEOUT" else f"{r['status']} {r['time']:.2f}")
        print(f"| {n} | " + " | ".join(cells) + " |")
    solved = [sum(1 for r in rows if r["config"] == c and r["status"] != "TIMEOUT" and r["status"] != "ERROR")
              for c in args.config]
    par2 = [sum(r["time"] if r["status"] not in ("TIMEOUT", "ERROR") else 2 * args.timeout
                for r in rows if r["config"] == c) / len(names) for c in args.config]
    print("| solved | " + " | ".join(str(s) for s in solved) + " |")
    print("| PAR2 (s) | " + " | ".join(f"{p:.1f}" for p in par2) + " |")
    # Runs that ended (not stopped by the limit) count the same models, or the table is wrong.
    for n in names:
        counts = {r["config"]: r["models"] for r in rows
                  if r["instance"] == n and r["status"] in ("SAT", "UNSAT") and "-n 0" in r["config"]}
        if len(set(counts.values())) > 1:
            print(f"MODEL COUNTS DIFFER on {n}: {counts}")


if __name__ == "__main__":
    main()
