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

Parallel runs vary from run to run (`-t 8` on one instance: up to tenfold), so one run of each
says little. `--repeat N` makes N rounds (every run once per round, round after round, so that
the machine's drift falls on every configuration alike); the CSV has each run with its round, and
the table gives per instance the rounds solved and the median time (an unsolved run counting
twice the limit, as PAR2 does), and per configuration each round's solved and PAR2. With rounds,
each configuration's paired ratio follows: the median over instances and rounds of its time over
the first configuration's in the same round, whatever the status. It measures two builds
(`yasmin@OLD ARGS`, `yasmin@NEW ARGS`) on runs that do the same work, one search to
`--solve-limit=N` conflicts, better than their times apart on a machine whose speed drifts (the
2-core VM: 10 % within minutes).
"""
import argparse
import csv
import json
import statistics
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
    # With --stats: the traffic between the search farms of several GPUs (and the CPU searches).
    stats = j.get("Stats") or {}
    mine = stats.get("Yasmin") or {}
    traffic = {k: mine[k] for k in ("Relayed", "RelayedBytes") if k in mine}
    # Parallel runs: the searches, and which answered (the farm's after the CPU searches).
    traffic.update({k: j[k] for k in ("Threads", "Winner") if k in j})
    # With --stats: the search's conflicts (clasp's Core.Conflicts).
    conflicts = (stats.get("Core") or {}).get("Conflicts", "")
    models = j["Models"].get("Number", "")
    return status, min(wall, j["Time"]["Total"] + 0.0), costs, traffic, conflicts, models


def solved(r):
    return r["status"] not in ("TIMEOUT", "ERROR")


def table(rows, configs, names, timeout, rounds):
    """The Markdown table: per instance and configuration the result and time (over several
    rounds: the rounds solved and the median PAR2 time), then per configuration the solved and
    PAR2 (of each round, and their mean)."""
    def par2(r):
        return r["time"] if solved(r) else 2 * timeout

    out = ["| instance | " + " | ".join(configs) + " |", "|---|" + "---|" * len(configs)]
    for n in names:
        cells = []
        for c in configs:
            runs = [r for r in rows if r["instance"] == n and r["config"] == c]
            if rounds == 1:
                r = runs[0]
                cells.append(f"{r['status']} {r['time']:.2f}" if solved(r) else r["status"])
            else:
                cells.append(f"{sum(map(solved, runs))}/{len(runs)} {statistics.median(map(par2, runs)):.2f}")
        out.append(f"| {n} | " + " | ".join(cells) + " |")
    per_round = {c: [[r for r in rows if r["config"] == c and r["round"] == k] for k in range(1, rounds + 1)]
                 for c in configs}
    counts = {c: [sum(map(solved, rs)) for rs in per_round[c]] for c in configs}
    times = {c: [sum(map(par2, rs)) / len(names) for rs in per_round[c]] for c in configs}
    if rounds == 1:
        out.append("| solved | " + " | ".join(str(counts[c][0]) for c in configs) + " |")
        out.append("| PAR2 (s) | " + " | ".join(f"{times[c][0]:.1f}" for c in configs) + " |")
    else:
        out.append("| solved, each round | " + " | ".join(", ".join(map(str, counts[c])) for c in configs) + " |")
        out.append("| PAR2 (s), each round (mean) | " + " | ".join(
            ", ".join(f"{t:.1f}" for t in times[c]) + f" ({statistics.mean(times[c]):.1f})" for c in configs) + " |")
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+")
    ap.add_argument("--yasmin", default="target/release/yasmin")
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--timeout", type=float, default=20)
    ap.add_argument("--config", action="append", required=True)
    ap.add_argument("--out", default="parallel_bench.csv")
    ap.add_argument("--jobs", type=int, default=1, help="runs at once (1: one at a time)")
    ap.add_argument("--repeat", type=int, default=1, help="rounds of every run (see above)")
    args = ap.parse_args()
    rows = []
    lock = threading.Lock()

    def one(f, cfg, rnd):
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
            rows.append({"instance": name, "config": cfg, "round": rnd, "status": status, "time": round(t, 3),
                         "costs": json.dumps(costs) if costs else "", "conflicts": conflicts, "models": models,
                         "relayed": traffic.get("Relayed", ""), "relayed_bytes": traffic.get("RelayedBytes", ""),
                         "threads": traffic.get("Threads", ""), "winner": traffic.get("Winner", "")})
            print(f"{name[:40]:40} {cfg:32} {status:8} {t:7.2f} {traffic or ''}", flush=True)
            # Written after every run: a run cut short keeps what it measured.
            with open(args.out, "w", newline="") as fh:
                w = csv.DictWriter(fh, fieldnames=list(rows[0].keys()))
                w.writeheader()
                w.writerows(rows)

    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        runs = [(f, cfg, rnd) for rnd in range(1, args.repeat + 1) for f in args.files for cfg in args.config]
        for fut in [pool.submit(one, *r) for r in runs]:
            fut.result()
    print()
    print(table(rows, args.config, list(dict.fromkeys(Path(f).stem for f in args.files)), args.timeout,
                args.repeat))
    if args.repeat > 1:
        time_of = {(r["instance"], r["config"], r["round"]): r["time"] for r in rows}
        for cfg in args.config:
            ratios = [t / time_of[(i, args.config[0], k)] for (i, c, k), t in time_of.items()
                      if c == cfg and time_of.get((i, args.config[0], k))]
            if ratios:
                print(f"paired ratio of '{cfg}' to the first: {statistics.median(ratios):.3f} ({len(ratios)} runs)")
    # Runs that ended (not stopped by the limit) count the same models, or the table is wrong.
    for n in dict.fromkeys(Path(f).stem for f in args.files):
        counts = {r["config"]: r["models"] for r in rows
                  if r["instance"] == n and r["status"] in ("SAT", "UNSAT") and "-n 0" in r["config"]}
        if len(set(counts.values())) > 1:
            print(f"MODEL COUNTS DIFFER on {n}: {counts}")


if __name__ == "__main__":
    main()
