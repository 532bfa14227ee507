#!/usr/bin/env python3
"""Enumeration speed against clingo's: models a second on programs with many answer sets.

Grounds each program once (python -m clingo --mode=gringo, cached under --work), then runs every
configuration on it, one run at a time, in two ways: `-q -n 0` (counting) and `-n 0` with the
models written to /dev/null. Prints a markdown table: the model count (every configuration must
agree: a disagreement is an error), each configuration's time and models a second, and each
yasmin configuration's time over the first clingo configuration's. Results go to --out (CSV).

    python3 scripts/enum_bench.py --yasmin target/release/yasmin --timeout 120 \\
        --config 'clingo' --config 'yasmin' --config 'yasmin --enum-mode=record' \\
        --program 'sub:16' --program 'sub:18' --program 'queens:12' \\
        --program 'colouring:30:2.5' --program 'hamiltonian:14:6'

Programs: `sub:N` is `{a(1..N)}.` (2^N answer sets); `queens:N`, `dag:N[:D]` (acyclic orientations, #edge; seed 1), `colouring:N:D` (seed 1, k = 3,
average degree D) and `hamiltonian:N:D` (seed 1, planted cycle, out-degree D) come from
instances/gen's encodings and generators; anything else is a ground file. A configuration is
`clingo ARGS` (python -m clingo, --mode=clasp), `yasmin ARGS`, or `yasmin@PATH ARGS` (the binary at
PATH: two builds in one run); run where the cores are when a
configuration has `-t N`.
"""
import argparse
import csv
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GEN = ROOT / "instances" / "gen"


def ground(spec, work, python):
    """The ground file of a program spec, made once."""
    if Path(spec).is_file():
        return Path(spec)
    out = work / (spec.replace(":", "_") + ".aspif")
    if out.exists():
        return out
    kind, *arg = spec.split(":")
    if kind == "sub":
        text, files = f"{{a(1..{arg[0]})}}.\n", []
    else:
        gen = [sys.executable, str(GEN / kind / "generate.py"), "--n", arg[0]]
        if kind == "colouring":
            gen += ["--seed", "1", "--d", arg[1]]
        elif kind == "dag":
            gen += ["--seed", "1"] + (["--d", arg[1]] if len(arg) > 1 else [])
        elif kind == "hamiltonian":
            gen += ["--seed", "1", "--d", arg[1], "--plant", "1"]
        text = subprocess.run(gen, check=True, capture_output=True, text=True).stdout
        files = [str(GEN / kind / "encoding.lp")]
    r = subprocess.run([python, "-m", "clingo", "--mode=gringo", *files, "-"], input=text,
                       capture_output=True, text=True, check=True)
    out.write_text(r.stdout)
    return out


def run(cmd, file, quiet, timeout):
    """(models or None, seconds, exhausted) of one run. The output is read in large chunks and
    dropped (as /dev/null would), but for its tail, which holds the summary."""
    cmd = cmd + (["-q"] if quiet else []) + ["-n", "0", str(file)]
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    timer = threading.Timer(timeout, p.kill)
    timer.start()
    tail = b""
    while chunk := p.stdout.read(1 << 20):
        tail = (tail + chunk)[-65536:]
    p.wait()
    timer.cancel()
    wall = time.monotonic() - t0
    m = re.search(rb"^Models\s*:\s*(\d+)(\+?)", tail, re.M)
    if not m or wall >= timeout:
        return None, wall, False
    return int(m.group(1)), wall, m.group(2) == b""


def command(config, yasmin, python):
    kind, *args = config.split()
    if kind == "clingo":
        return [python, "-m", "clingo", "--mode=clasp", *args]
    if kind == "yasmin":
        return [yasmin, *args]
    if kind.startswith("yasmin@"):
        return [kind.split("@", 1)[1], *args]
    sys.exit(f"a configuration starts with clingo or yasmin: {config!r}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--program", action="append", required=True)
    ap.add_argument("--config", action="append", required=True)
    ap.add_argument("--yasmin", default=str(ROOT / "target" / "release" / "yasmin"))
    ap.add_argument("--python", default=str(ROOT / ".venv" / "bin" / "python"))
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--work", default="/tmp/yasmin-enum-bench")
    ap.add_argument("--out", default="enum_bench.csv")
    ap.add_argument("--outputs", default="q,null", help="q (-q), null (/dev/null), or both: q,null")
    args = ap.parse_args()
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    rows = []
    print("| program | models | output | " + " | ".join(args.config) + " |")
    print("|---|--:|---|" + "--:|" * len(args.config))
    for spec in args.program:
        file = ground(spec, work, args.python)
        for quiet in [o == "q" for o in args.outputs.split(",")]:
            cells, count, base = [], None, None
            for config in args.config:
                n, t, done = run(command(config, args.yasmin, args.python), file, quiet, args.timeout)
                rows.append({"program": spec, "output": "-q" if quiet else "/dev/null", "config": config,
                             "models": n if n is not None else "", "seconds": f"{t:.3f}",
                             "exhausted": done})
                if n is None or not done:
                    cells.append(f"> {args.timeout:.0f} s")
                    continue
                if count is not None and n != count:
                    sys.exit(f"{spec}: {config} counts {n} models, an earlier configuration {count}")
                count = n
                cell = f"{t:.2f} s, {n / t / 1e3:.0f} k/s"
                if config.startswith("clingo") and base is None:
                    base = t
                elif config.startswith("yasmin") and base:
                    cell += f" ({t / base:.2f}x)"
                cells.append(cell)
            print(f"| {spec} | {count if count is not None else '?'} | {'-q' if quiet else '/dev/null'} | "
                  + " | ".join(cells) + " |", flush=True)
    with open(args.out, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)


if __name__ == "__main__":
    main()
