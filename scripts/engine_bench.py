#!/usr/bin/env python3
"""Engine benchmark: the paper's measures (propagations/s, decisions/s, learned nogoods/s, their
average length, time to solve) for yasmin's engines and learning schemes, beside clingo, on the
same ground files in the same run. Prints a markdown table (last) and writes a CSV.

    scripts/engine_bench.py --timeout 20 --configs cuda:res,cuda:fwd,cpu:res,cpu:fwd FILE.aspif...

A configuration is BACKEND:LEARNING[:ROUNDS][:tN], ROUNDS being yasmin's --gpu-rounds (device, the
default, or host) for the CUDA engine (the grid-wide engine, `--gpu-mode=grid`), and tN a parallel
run of N searches (`-t N`, whose rates are summed over the searches, as clasp's statistics are).

`--repeat N` runs every yasmin configuration N times on each file (the CUDA engine's search is
not deterministic, and heavy-tailed instances make one run a lottery): the CSV has a row per run,
the table one per configuration with how many runs solved the instance, the median time and the
median rates. Run i (from 1) gets `--seed=i`, which changes the searches of a parallel run (the
perturbations of all but the first) and nothing else.

clingo is run as `python3 -m clingo --mode=clasp` when it can be imported (on the GPU machine,
carry its wheels; see ../shared/docs/gpu.md); otherwise its column says n/a.
"""
import argparse, csv, json, os, statistics, subprocess, sys, time

SOLVED = ("SATISFIABLE", "UNSATISFIABLE", "OPTIMUM FOUND")


def run(cmd, timeout):
    t = time.monotonic()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout + 10)
        out = p.stdout
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
    return out, time.monotonic() - t


def parse_config(cfg):
    """BACKEND:LEARNING[:ROUNDS][:tN] -> (backend, learning, rounds, threads)."""
    backend, learning, *rest = cfg.split(":")
    rounds, threads = "device", 1
    for part in rest:
        if part.startswith("t") and part[1:].isdigit():
            threads = int(part[1:])
        else:
            rounds = part
    return backend, learning, rounds, threads


def yasmin(binary, f, backend, learning, rounds, threads, seed, timeout, extra):
    out, wall = run([binary, "--outf=2", "--stats", "-q", f"--backend={backend}", f"--learning={learning}",
                     f"--gpu-rounds={rounds}", "--gpu-mode=grid", f"--parallel-mode={threads}", f"--seed={seed}",
                     f"--time-limit={timeout}", *extra, f], timeout)
    try:
        j = json.loads(out)
    except json.JSONDecodeError:
        return {"status": "ERROR", "time": wall}
    st, t = j.get("Stats", {}), j["Time"]["Solve"]

    def get(path, default=0):
        """A figure of the Stats tree (src/stats.rs), by its path."""
        node = st
        for key in path.split("."):
            node = node.get(key, {}) if isinstance(node, dict) else {}
        return default if node == {} else node

    # Rates over a solve shorter than 10 ms say nothing; leave them out.
    rate = (lambda k: get(k) / t) if t >= 0.01 else (lambda k: None)
    status = j["Result"] if "TIME LIMIT" not in j else "TIMEOUT"
    return {
        "status": status, "time": j["Time"]["Total"], "engine": get("Yasmin.Engine", None),
        "props_s": rate("Yasmin.Propagations"), "dec_s": rate("Core.Choices"),
        "learned_s": rate("More.Lemma.Sum"), "avg_len": get("Yasmin.LemmaAvgLen", 0.0),
        "rounds_s": rate("Yasmin.Rounds") if get("Yasmin.Rounds") else None,
        "cost": j["Models"].get("Costs"),
    }


def clingo(f, timeout):
    try:
        import clingo  # noqa: F401
    except ImportError:
        return {"status": "n/a", "time": float("nan")}
    out, wall = run([sys.executable, "-m", "clingo", "--mode=clasp", "--outf=2", "-q", f"--time-limit={max(1, int(timeout))}", f],
                    timeout)
    try:
        j = json.loads(out)
    except json.JSONDecodeError:
        return {"status": "ERROR", "time": wall}
    status = j["Result"] if "TIME LIMIT" not in j else "TIMEOUT"
    return {"status": status, "time": j["Time"]["Total"], "cost": j["Models"].get("Costs")}


def summary(runs):
    """One table row for several runs of a configuration: solved k/n, medians of time and rates."""
    def med(k):
        xs = [r[k] for r in runs if r.get(k) is not None]
        return statistics.median(xs) if xs else None
    solved = sum(r["status"] in SOLVED for r in runs)
    return {"instance": runs[0]["instance"], "config": runs[0]["config"], "status": f"solved {solved}/{len(runs)}",
            **{k: med(k) for k in ["time", "props_s", "dec_s", "learned_s", "avg_len", "rounds_s"]}}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+")
    ap.add_argument("--yasmin", default="target/release/yasmin")
    ap.add_argument("--timeout", type=float, default=20)
    ap.add_argument("--configs", default="cuda:res,cuda:fwd,cpu:res,cpu:fwd")
    ap.add_argument("--no-clingo", action="store_true", help="leave clingo out")
    ap.add_argument("--yasmin-args", default="", help="extra options for every yasmin run (one string)")
    ap.add_argument("--csv", default=os.environ.get("OUT", ".") + "/engine_bench.csv")
    ap.add_argument("--repeat", type=int, default=1, help="runs of every yasmin configuration per file")
    a = ap.parse_args()
    if a.repeat < 1:
        ap.error("--repeat must be at least 1")
    rows, table = [], []
    for f in a.files:
        name = os.path.basename(f)
        if not a.no_clingo:
            c = clingo(f, a.timeout)
            rows.append({"instance": name, "config": "clingo", "run": 1, **c})
            table.append(rows[-1])
            print(f"{name} clingo {c['status']} {c['time']:.2f}s", file=sys.stderr, flush=True)
        for cfg in a.configs.split(","):
            backend, learning, rounds, threads = parse_config(cfg)
            runs = []
            for i in range(a.repeat):
                r = yasmin(a.yasmin, f, backend, learning, rounds, threads, i + 1, a.timeout, a.yasmin_args.split())
                runs.append({"instance": name, "config": cfg, "run": i + 1, **r})
                print(f"{name} {cfg} {r['status']} {r['time']:.2f}s", file=sys.stderr, flush=True)
            rows += runs
            table.append(runs[0] if a.repeat == 1 else summary(runs))
    keys = ["instance", "config", "run", "status", "time", "props_s", "dec_s", "learned_s", "avg_len", "rounds_s",
            "cost", "engine"]
    try:
        with open(a.csv, "w", newline="") as fh:
            w = csv.DictWriter(fh, fieldnames=keys, extrasaction="ignore")
            w.writeheader()
            w.writerows(rows)
    except OSError:
        pass
    fmt = lambda v: "" if v is None else (f"{v:,.0f}" if isinstance(v, float) and v >= 100 else
                                          (f"{v:.2f}" if isinstance(v, float) else str(v)))
    print("| instance | config | status | time (s) | props/s | decisions/s | learned/s | avg learned len | rounds/s |")
    print("|---|---|---|--:|--:|--:|--:|--:|--:|")
    for r in table:
        print("| " + " | ".join(fmt(r.get(k)) for k in
              ["instance", "config", "status", "time", "props_s", "dec_s", "learned_s", "avg_len", "rounds_s"]) + " |")


if __name__ == "__main__":
    main()
