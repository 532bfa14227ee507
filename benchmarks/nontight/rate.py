"""Search speed on large programs: runs each configuration on each file for T seconds with
--stats and reports choices and conflicts a second (clasp's text statistics, which yasmin prints
too). Usage: rate.py --timeout T --jobs J --yasmin PATH --python PY --config CFG ... FILE ..."""
import argparse
import re
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path


def stat(text, key):
    m = re.search(rf"^{key}\s*:\s*([0-9.]+)", text, re.M)
    return float(m.group(1)) if m else float("nan")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="+")
    ap.add_argument("--config", action="append", required=True)
    ap.add_argument("--timeout", type=int, default=20)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--yasmin", default="target/release/yasmin")
    ap.add_argument("--python", default="python3")
    args = ap.parse_args()

    def one(f, cfg):
        solver, *extra = cfg.split()
        if solver == "clingo":
            cmd = [args.python, "-m", "clingo"]
        else:
            cmd = [solver.split("@", 1)[1] if "@" in solver else args.yasmin]
        cmd += ["--stats", "-q", f"--time-limit={args.timeout}", *extra, f]
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout + 120).stdout
        t = stat(out, "Time")
        res = next((r for r in ("OPTIMUM FOUND", "UNSATISFIABLE", "SATISFIABLE", "UNKNOWN") if r in out), "?")
        return Path(f).stem, cfg, res, t, stat(out, "Choices") / t, stat(out, "Conflicts") / t

    with ThreadPoolExecutor(args.jobs) as pool:
        rows = list(pool.map(lambda fc: one(*fc), [(f, c) for f in args.files for c in args.config]))
    print("| instance | configuration | result | time (s) | choices/s | conflicts/s |")
    print("|---|---|---|--:|--:|--:|")
    for name, cfg, res, t, ch, co in rows:
        print(f"| {name} | {cfg} | {res} | {t:.1f} | {ch:,.0f} | {co:,.0f} |")


if __name__ == "__main__":
    main()
