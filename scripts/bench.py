#!/usr/bin/env python3
"""Batch benchmark runner: yasmin (one or more configurations) against clingo.

Each instance is grounded once with gringo (cached by content hash), then every solver runs on
the same ground file under a wall-clock and a memory limit, solvers interleaved instance by
instance so that machine noise hits all of them alike. Answers are cross-checked and one CSV row
is written per run; a summary (scripts/summarize.py) is printed and written at the end.

INSTANCE SETS (positional, any number, mixed):
  DIR                  a family: DIR/encoding.asp (or encoding.lp) and DIR/instances/*
                       (e.g. ../shared/bench/aspcomp2015/Labyrinth); a directory holding
                       families (e.g. ../shared/bench/planning) means all of them. A path that
                       does not exist is also looked up under --bench-root, so
                       "aspcomp2015/Labyrinth" works.
  DIR/instances/X.asp  one instance of a family (grounded with the family's encoding)
  FILE.aspif|.smodels  a ground program, run as it is (family: its directory's name)
  FILE.lp              a self-contained program, grounded alone
  list:FILE            the sets named in FILE, one a line (# comments; a relative path is
                       looked up in FILE's directory, the current directory, then
                       --bench-root)
  anchor[:SECONDS]     the instances of --bench-root/anchor.csv (clingo reference times),
                       only those clingo solved within SECONDS if given
  gen:FAMILY[:PARAM]...  generated instances, from instances/gen/FAMILY/generate.py with
                       instances/gen/FAMILY/encoding.lp. Each PARAM is KEY=VALUES or bare
                       VALUES (meaning n=VALUES); VALUES is a comma-separated list whose
                       items may be integer ranges A-B; every combination is generated.
                       "seeds" is an alias of "seed" (default seed 1). Examples:
                         gen:queens:8,10,12
                         gen:colouring:n=50,100:k=3:p=0.1:seeds=1-3
                         gen:hamiltonian:n=30:d=3:plant=1:seeds=1-5
                         gen:pigeonhole:8-10   gen:marriage:n=20,40   gen:ppm:n=100:k=8
                       Families: %(families)s.
                       Parameters: see instances/gen/FAMILY/generate.py --help.

SOLVERS (--solvers, comma-separated; default clingo,yasmin:cpu:res):
  clingo               clingo's clasp on the ground file (default configuration)
  clingo:CONFIG        with --configuration=CONFIG (e.g. clingo:trendy)
  yasmin[:BACKEND[:LEARNING]]  yasmin with --backend=BACKEND (cpu|cuda|auto, default cpu)
                       and --learning=LEARNING (res|fwd, default res)

OUTPUT (--out DIR, default bench-out/):
  results.csv          one row per run: instance, family, solver, status (SAT, UNSAT, OPTIMUM,
                       TIMEOUT, MEMOUT, ERROR), time (wall seconds), peak_mem_mb (the child's
                       max RSS), models, cost, agree (yes / NO / - when it gave no answer),
                       and more (see the header); grounding failures get a row with solver
                       "gringo"
  meta.json            the command line, limits, versions, host and commit
  logs/                stdout/stderr of runs that erred, ran out of memory or disagreed
  summary.md, cactus.png, cactus.svg   from scripts/summarize.py (unless --no-summary)

A run counts as solved when it answered (SAT/UNSAT; OPTIMUM for optimization problems; with
--models 0 the enumeration must be complete) within --timeout. Both solvers get
--time-limit=TIMEOUT and are killed at TIMEOUT + --grace. Answers disagree when one says UNSAT
and another found a model, when proven optima differ, when a model is better than another's
proven optimum, or (with --models 0) when complete model counts differ; a run that timed out
without an answer agrees with anything. The exit status is 1 if any answers disagree or any
run ended in ERROR, else 0.

Memory: the limit is set with RLIMIT_AS in the child. CUDA reserves far more address space
than it uses, so for yasmin with --backend=cuda or auto the limit is enforced instead by
polling the child's RSS (killed as MEMOUT when it exceeds the limit).

Example (from a fresh clone: bash scripts/setup-bench-env.sh first):
  .venv/bin/python scripts/bench.py --timeout 60 --solvers clingo,yasmin:cpu:res,yasmin:cpu:fwd \\
      aspcomp2015/Labyrinth gen:queens:8,10,12 gen:pigeonhole:7-9
"""
import argparse
import csv
import datetime
import hashlib
import itertools
import json
import math
import os
import platform
import random
import re
import resource
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parent
REPO = SCRIPTS.parent
GEN_DIR = REPO / "instances" / "gen"
DEFAULT_BENCH_ROOT = REPO.parent / "shared" / "bench"
DEFAULT_CACHE = REPO / "bench-cache"
DEFAULT_OUT = REPO / "bench-out"
VENV_PYTHON = REPO / ".venv" / "bin" / "python"

CSV_FIELDS = [
    "instance", "family", "solver", "status", "time", "timeout", "peak_mem_mb", "memory_mb",
    "models", "cost", "agree", "disagrees_with", "result", "more", "optimum", "models_limit",
    "exit_code", "solver_time", "ground_seconds", "ground_bytes", "ground_file", "command",
    "started", "note",
]
SOLVED = ("SAT", "UNSAT", "OPTIMUM")
ENCODING_NAMES = ("encoding.asp", "encoding.lp")
GROUND_SUFFIXES = (".aspif", ".smodels", ".ground")
MEMORY_PATTERNS = re.compile(
    r"memory allocation of \d+ bytes failed|bad_alloc|MemoryError|out of memory|"
    r"Cannot allocate memory|capacity overflow", re.I)


class SpecError(Exception):
    pass


# --------------------------------------------------------------------------------------------
# Instances


class Instance:
    """One benchmark instance: a ground file, or files to ground together."""

    def __init__(self, ident, family, sources=None, ground=None, generate=None):
        self.id = ident            # e.g. aspcomp2015/Labyrinth/0010-labyrinth-13-0
        self.family = family       # e.g. aspcomp2015/Labyrinth
        self.sources = sources or []  # files to ground (encoding first)
        self.ground = ground       # a ground file given directly
        self.generate = generate   # (script, args, output path) for generated instances

    def __repr__(self):
        return f"Instance({self.id!r})"


def family_name(d):
    d = Path(d).resolve()
    return f"{d.parent.name}/{d.name}" if d.parent.name else d.name


def find_encoding(d):
    for name in ENCODING_NAMES:
        if (d / name).is_file():
            return d / name
    return None


def family_instances(d):
    enc = find_encoding(d)
    fam = family_name(d)
    files = sorted(p for p in (d / "instances").iterdir() if p.is_file() and not p.name.startswith("."))
    return [Instance(f"{fam}/{p.stem}", fam, sources=[enc, p]) for p in files]


def is_family(d):
    return d.is_dir() and find_encoding(d) is not None and (d / "instances").is_dir()


def parse_values(text):
    """'1-3,5,0.1' -> ['1', '2', '3', '5', '0.1']"""
    out = []
    for item in text.split(","):
        item = item.strip()
        m = re.fullmatch(r"(\d+)-(\d+)", item)
        if m:
            a, b = int(m.group(1)), int(m.group(2))
            if b < a:
                raise SpecError(f"empty range {item!r}")
            out.extend(str(i) for i in range(a, b + 1))
        elif item:
            out.append(item)
    if not out:
        raise SpecError(f"no values in {text!r}")
    return out


def gen_families():
    if not GEN_DIR.is_dir():
        return []
    return sorted(p.name for p in GEN_DIR.iterdir() if (p / "generate.py").is_file() and (p / "encoding.lp").is_file())


def gen_instances(spec, cache):
    parts = spec.split(":")
    if len(parts) < 2 or not parts[1]:
        raise SpecError(f"{spec!r}: expected gen:FAMILY[:PARAM]...")
    fam = parts[1]
    if fam not in gen_families():
        raise SpecError(f"{spec!r}: no generated family {fam!r} (have: {', '.join(gen_families())})")
    params = {}
    for p in parts[2:]:
        if not p:
            continue
        key, _, vals = p.rpartition("=")
        key = key or "n"
        key = {"seeds": "seed"}.get(key, key)
        if not re.fullmatch(r"[a-z][a-z0-9_]*", key):
            raise SpecError(f"{spec!r}: bad parameter name {key!r}")
        if key in params:
            raise SpecError(f"{spec!r}: parameter {key!r} given twice")
        params[key] = parse_values(vals)
    if "n" not in params:
        raise SpecError(f"{spec!r}: no size given (n=...)")
    params.setdefault("seed", ["1"])
    keys = list(params)
    script = GEN_DIR / fam / "generate.py"
    enc = GEN_DIR / fam / "encoding.lp"
    out = []
    for combo in itertools.product(*(params[k] for k in keys)):
        args = []
        for k, v in zip(keys, combo):
            args += [f"--{k}", v]
        name = "-".join(f"{k}{v}" for k, v in zip(keys, combo))
        path = cache / "gen" / fam / f"{name}.lp"
        out.append(Instance(f"gen/{fam}/{name}", f"gen/{fam}", sources=[enc, path],
                            generate=(script, args, path)))
    return out


def anchor_instances(spec, bench_root):
    _, _, limit = spec.partition(":")
    limit = float(limit) if limit else None
    path = bench_root / "anchor.csv"
    if not path.is_file():
        raise SpecError(f"{spec!r}: no {path}")
    out = []
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if limit is not None:
                if row["clingo_status"] == "TIMEOUT" or float(row["clingo_seconds"]) > limit:
                    continue
            out += resolve_path(bench_root / row["instance"], spec)
    return out


def resolve_path(p, spec):
    p = Path(p)
    if p.is_dir():
        if is_family(p):
            return family_instances(p)
        subs = sorted(d for d in p.iterdir() if is_family(d))
        if subs:
            return [i for d in subs for i in family_instances(d)]
        grounds = sorted(f for f in p.iterdir() if f.suffix in GROUND_SUFFIXES)
        if grounds:
            return [ground_instance(f) for f in grounds]
        raise SpecError(f"{spec!r}: {p} is neither a family (encoding + instances/), a directory of "
                        "families, nor a directory of ground files")
    if p.is_file():
        if p.suffix in GROUND_SUFFIXES:
            return [ground_instance(p)]
        if p.parent.name == "instances" and is_family(p.parent.parent):
            fam_dir = p.parent.parent
            fam = family_name(fam_dir)
            return [Instance(f"{fam}/{p.stem}", fam, sources=[find_encoding(fam_dir), p])]
        return [Instance(f"{p.parent.name}/{p.stem}", p.parent.name or "programs", sources=[p])]
    raise SpecError(f"{spec!r}: {p} does not exist")


def ground_instance(p):
    p = Path(p)
    return Instance(f"{p.parent.resolve().name}/{p.name}", p.parent.resolve().name or "ground", ground=p)


def expand_spec(spec, args, base=None):
    if spec.startswith("gen:"):
        return gen_instances(spec, args.cache)
    if spec == "anchor" or spec.startswith("anchor:"):
        return anchor_instances(spec, args.bench_root)
    if spec.startswith("list:"):
        lf = Path(spec[5:])
        if not lf.is_file():
            raise SpecError(f"{spec!r}: no such file")
        out = []
        for line in lf.read_text().splitlines():
            line = line.split("#", 1)[0].strip()
            if line:
                out += expand_spec(line, args, base=lf.resolve().parent)
        return out
    p = Path(spec)
    candidates = [p] if p.is_absolute() else ([base / p] if base else []) + [p, args.bench_root / p]
    for c in candidates:
        if c.exists():
            return resolve_path(c, spec)
    raise SpecError(f"{spec!r}: not found (looked in {', '.join(str(c) for c in candidates)})")


def select(instances, args):
    seen, out = set(), []
    for inst in instances:
        if inst.id not in seen:
            seen.add(inst.id)
            out.append(inst)
    if args.filter:
        rx = re.compile(args.filter)
        out = [i for i in out if rx.search(i.id)]
    if args.limit:
        by_fam = {}
        for i in out:
            by_fam.setdefault(i.family, []).append(i)
        keep = set()
        for lst in by_fam.values():
            if len(lst) <= args.limit:
                keep.update(i.id for i in lst)
            elif args.limit == 1:
                keep.add(lst[len(lst) // 2].id)
            else:  # evenly spread over the (sorted) family, first and last included
                keep.update(lst[round(k * (len(lst) - 1) / (args.limit - 1))].id for k in range(args.limit))
        out = [i for i in out if i.id in keep]
    return out


# --------------------------------------------------------------------------------------------
# Solvers


class Solver:
    def __init__(self, name, kind, options, rss_watch=False):
        self.name = name
        self.kind = kind          # "clingo" or "yasmin"
        self.options = options    # extra command-line options
        self.rss_watch = rss_watch  # enforce memory by RSS polling instead of RLIMIT_AS


def parse_solvers(text):
    out = []
    for spec in [s.strip() for s in text.split(",") if s.strip()]:
        parts = spec.split(":")
        if parts[0] == "clingo":
            if len(parts) > 2:
                raise SpecError(f"solver {spec!r}: expected clingo or clingo:CONFIG")
            opts = [f"--configuration={parts[1]}"] if len(parts) == 2 else []
            out.append(Solver(spec, "clingo", opts))
        elif parts[0] == "yasmin":
            if len(parts) > 3:
                raise SpecError(f"solver {spec!r}: expected yasmin[:BACKEND[:LEARNING]]")
            backend = parts[1] if len(parts) > 1 and parts[1] else "cpu"
            learning = parts[2] if len(parts) > 2 and parts[2] else "res"
            if backend not in ("cpu", "cuda", "auto"):
                raise SpecError(f"solver {spec!r}: backend must be cpu, cuda or auto")
            if learning not in ("res", "fwd"):
                raise SpecError(f"solver {spec!r}: learning must be res or fwd")
            out.append(Solver(f"yasmin:{backend}:{learning}", "yasmin",
                              [f"--backend={backend}", f"--learning={learning}"],
                              rss_watch=backend in ("cuda", "auto")))
        else:
            raise SpecError(f"unknown solver {spec!r} (clingo[:CONFIG] or yasmin[:BACKEND[:LEARNING]])")
    names = [s.name for s in out]
    if len(set(names)) != len(names):
        raise SpecError("a solver is given twice")
    if not out:
        raise SpecError("no solvers")
    return out


def solver_command(solver, args, ground, solver_limit):
    common = ["--outf=2", "-q", f"--time-limit={solver_limit}"]
    if args.models is not None:  # else the solvers' default: one model, or the optimum
        common += ["-n", str(args.models)]
    if solver.kind == "clingo":
        cmd = args.clingo_cmd + ["--mode=clasp"] + common + solver.options + args.clingo_args
    else:
        cmd = [str(args.yasmin)] + common + solver.options + args.yasmin_args
    return cmd + [str(ground)]


# --------------------------------------------------------------------------------------------
# Running a child under limits


_GNU_TIME = None


def gnu_time():
    """/usr/bin/time if it is GNU time (it measures the child's peak RSS without the runner's own
    RSS in it, which Linux carries through fork and exec into the child's high-water mark)."""
    global _GNU_TIME
    if _GNU_TIME is None:
        _GNU_TIME = ""
        path = shutil.which("time", path="/usr/bin:/bin:/usr/local/bin")
        if path:
            probe = Path(os.environ.get("TMPDIR", "/tmp")) / f"bench-time-probe.{os.getpid()}"
            try:
                rc = subprocess.run([path, "-f", "%M", "-o", str(probe), "true"],
                                    capture_output=True, timeout=10).returncode
                if rc == 0 and probe.read_text().strip().isdigit():
                    _GNU_TIME = path
            except (OSError, subprocess.SubprocessError):
                pass
            finally:
                probe.unlink(missing_ok=True)
    return _GNU_TIME


def tree_rss(pid):
    """Resident set size in bytes of pid and its descendants (0 if gone)."""
    total = 0
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024
                    break
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            for child in f.read().split():
                total += tree_rss(int(child))
    except (OSError, ValueError):
        pass
    return total


def run_limited(cmd, stdout_path, stderr_path, timeout, memory_mb, rss_watch=False):
    """Runs cmd in its own session with RLIMIT_AS = memory_mb (unless rss_watch, then the RSS
    is polled instead), killing its process group at `timeout` seconds of wall-clock time.
    Returns (exit code or -signal, wall seconds, peak RSS in MiB, why killed or None)."""
    limit = memory_mb * 1024 * 1024 if memory_mb else None

    def preexec():
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        if limit and not rss_watch:
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    measure = gnu_time()
    rss_file = Path(str(stdout_path) + ".rss")
    if measure:
        cmd = [measure, "-f", "%M", "-o", str(rss_file)] + list(cmd)
    with open(stdout_path, "wb") as out, open(stderr_path, "wb") as err:
        t0 = time.monotonic()
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                                preexec_fn=preexec, start_new_session=True)
    lock = threading.Lock()
    state = {"exited": False, "killed": None, "rss": 0}

    def kill(why):
        with lock:  # never signal after the child was reaped (its pid could be reused)
            if not state["exited"] and state["killed"] is None:
                state["killed"] = why
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass

    timer = threading.Timer(timeout, kill, args=("timeout",))
    timer.daemon = True
    timer.start()
    watcher = None
    if limit and rss_watch:
        def watch():
            while not state["exited"] and state["killed"] is None:
                rss = tree_rss(proc.pid)
                state["rss"] = max(state["rss"], rss)
                if rss > limit:
                    kill("memory")
                time.sleep(0.05)
        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
    # Wait without reaping, so that the pid stays ours until the timer cannot fire any more.
    while True:
        try:
            os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOWAIT)
            break
        except InterruptedError:
            continue
    wall = time.monotonic() - t0
    with lock:
        state["exited"] = True
    timer.cancel()
    _, status, ru = os.wait4(proc.pid, 0)
    rc = proc.returncode = os.waitstatus_to_exitcode(status)
    if watcher:
        watcher.join()
    peak_kb = max(ru.ru_maxrss, state["rss"] // 1024)
    if measure:
        lines = rss_file.read_text(errors="replace").splitlines() if rss_file.is_file() else []
        rss_file.unlink(missing_ok=True)
        if lines and lines[-1].strip().isdigit():
            peak_kb = int(lines[-1])
        m = re.search(r"Command terminated by signal (\d+)", "\n".join(lines))
        if m:
            rc = -int(m.group(1))
    return rc, wall, peak_kb / 1024.0, state["killed"]


# --------------------------------------------------------------------------------------------
# Grounding (cached)


class Grounder:
    def __init__(self, args):
        self.args = args
        self.cache = args.cache / "ground"
        self.cache.mkdir(parents=True, exist_ok=True)
        self.locks = {}
        self.locks_lock = threading.Lock()
        self.version = args.clingo_version

    def key(self, sources):
        h = hashlib.sha256()
        h.update(b"yasmin-bench ground v1\0")
        h.update(self.version.encode() + b"\0")
        h.update(" ".join(self.args.gringo_args).encode() + b"\0")
        for src in sources:
            data = Path(src).read_bytes()
            h.update(str(len(data)).encode() + b"\0")
            h.update(data)
        return h.hexdigest()

    def ground(self, inst):
        """Returns (ground file, ground seconds, failure status or None, note)."""
        if inst.ground is not None:
            return Path(inst.ground), 0.0, None, ""
        if inst.generate is not None:
            script, gargs, path = inst.generate
            if not path.is_file():
                path.parent.mkdir(parents=True, exist_ok=True)
                tmp = path.with_name(path.name + f".tmp{os.getpid()}.{threading.get_ident()}")
                subprocess.run([sys.executable, str(script), *gargs, "-o", str(tmp)], check=True)
                os.replace(tmp, path)
        key = self.key(inst.sources)
        with self.locks_lock:
            lock = self.locks.setdefault(key, threading.Lock())
        with lock:
            target = self.cache / f"{key}.aspif"
            meta_path = self.cache / f"{key}.json"
            meta = json.loads(meta_path.read_text()) if meta_path.is_file() else None
            if meta and meta.get("status") == "ok" and target.is_file() and target.stat().st_size > 0:
                return target, meta["seconds"], None, ""
            if meta and meta.get("status") != "ok" and meta.get("timeout", 0) >= self.args.ground_timeout \
                    and meta.get("memory_mb", 0) >= (self.args.memory or 0) and not self.args.retry_ground:
                return None, meta["seconds"], meta["status"], meta.get("note", "") + " (cached)"
            tmp = self.cache / f"{key}.tmp{os.getpid()}"
            err = self.cache / f"{key}.err{os.getpid()}"
            cmd = self.args.clingo_cmd + ["--mode=gringo"] + self.args.gringo_args + [str(s) for s in inst.sources]
            rc, wall, _, killed = run_limited(cmd, tmp, err, self.args.ground_timeout, self.args.memory)
            errtext = err.read_text(errors="replace") if err.is_file() else ""
            status, note = "ok", ""
            if killed == "timeout":
                status, note = "GROUND_TIMEOUT", f"gringo ran past {self.args.ground_timeout}s"
            elif rc != 0 or "*** ERROR" in errtext or not tmp.is_file() or tmp.stat().st_size == 0:
                # (python -m clingo exits 0 even when grounding failed)
                status = "GROUND_MEMOUT" if MEMORY_PATTERNS.search(errtext) else "GROUND_ERROR"
                lines = [l for l in errtext.splitlines() if re.search(r"error|memory", l, re.I)] or [errtext]
                note = f"gringo exit {rc}: " + " ".join(" ".join(lines[:3]).split())[:300]
            meta = {"status": status, "seconds": round(wall, 3), "note": note,
                    "sources": [str(s) for s in inst.sources], "grounder": self.version,
                    "timeout": self.args.ground_timeout, "memory_mb": self.args.memory or 0,
                    "date": datetime.datetime.now().isoformat(timespec="seconds")}
            if status == "ok":
                os.replace(tmp, target)
                meta["bytes"] = target.stat().st_size
            else:
                tmp.unlink(missing_ok=True)
            err.unlink(missing_ok=True)
            meta_tmp = meta_path.with_name(meta_path.name + f".tmp{os.getpid()}")
            meta_tmp.write_text(json.dumps(meta, indent=1) + "\n")
            os.replace(meta_tmp, meta_path)
            return (target if status == "ok" else None), wall, (None if status == "ok" else status), note


# --------------------------------------------------------------------------------------------
# Results and agreement


def parse_output(text):
    """The JSON object a solver printed with --outf=2 (None if there is none)."""
    try:
        return json.loads(text)
    except ValueError:
        start, end = text.find("{"), text.rfind("}")
        if start >= 0 and end > start:
            try:
                return json.loads(text[start:end + 1])
            except ValueError:
                return None
    return None


def classify(solver, rc, wall, killed, out_text, err_text, timeout, models_limit):
    """Builds the result fields of a CSV row from what the run left."""
    row = {"exit_code": rc, "result": "", "models": "", "more": "", "optimum": "", "cost": "",
           "solver_time": "", "note": ""}
    j = parse_output(out_text)
    if j is not None:
        models = j.get("Models", {})
        row["result"] = j.get("Result", "")
        row["models"] = models.get("Number", "")
        row["more"] = models.get("More", "")
        row["optimum"] = models.get("Optimum", "")
        if models.get("Costs") is not None:
            row["cost"] = " ".join(str(c) for c in models["Costs"])
        row["solver_time"] = j.get("Time", {}).get("Total", "")
    interrupted = j is not None and bool(j.get("TIME LIMIT") or j.get("Interrupted") or j.get("INTERRUPTED"))
    result = row["result"]
    if killed == "memory" or (j is None or result in ("", "UNKNOWN")) and MEMORY_PATTERNS.search(err_text):
        status = "MEMOUT"
    elif killed == "timeout":
        status = "TIMEOUT"
    elif j is None or result not in ("SATISFIABLE", "UNSATISFIABLE", "OPTIMUM FOUND", "UNKNOWN"):
        status = "ERROR"
        row["note"] = f"exit {rc}, no result: " + " ".join(err_text.split())[-300:]
    elif result == "UNKNOWN":
        if interrupted or wall >= timeout:
            status = "TIMEOUT"
        else:
            status = "ERROR"
            row["note"] = f"exit {rc}, UNKNOWN without interruption: " + " ".join(err_text.split())[-300:]
    elif result == "UNSATISFIABLE":
        status = "UNSAT"
    elif result == "OPTIMUM FOUND" or row["optimum"] == "yes":
        status = "OPTIMUM"
    elif row["cost"] != "":
        status = "TIMEOUT"  # an optimization problem whose optimum was not proven
    elif models_limit == 0 and row["more"] != "no":
        status = "TIMEOUT"  # enumeration of all models not completed
    else:
        status = "SAT"
    if status in SOLVED and wall > timeout:
        row["note"] = f"answered {result} after the time limit"
        status = "TIMEOUT"
    if solver.kind == "yasmin" and status in SOLVED + ("TIMEOUT",) and killed is None:
        expected = {"SATISFIABLE": {10, 11, 30, 31}, "UNSATISFIABLE": {20, 21},
                    "OPTIMUM FOUND": {30, 31}, "UNKNOWN": {0, 1}}.get(result)
        if expected and rc not in expected:
            row["note"] = (row["note"] + "; " if row["note"] else "") + f"exit code {rc} does not match {result}"
    row["status"] = status
    return row


def claim(row):
    """What a row asserts about the instance, for agreement checking."""
    result = row.get("result", "")
    try:
        models = int(row.get("models") or 0)
    except ValueError:
        models = 0
    cost = tuple(int(c) for c in str(row.get("cost", "")).split()) if row.get("cost") not in ("", None) else None
    try:
        limit = int(row.get("models_limit"))
    except (TypeError, ValueError):
        limit = None  # the solvers' default
    return {
        "unsat": result == "UNSATISFIABLE",
        "model": models > 0 or result in ("SATISFIABLE", "OPTIMUM FOUND"),
        "cost": cost,
        "optimum": cost if (result == "OPTIMUM FOUND" or row.get("optimum") == "yes") and cost is not None else None,
        "count": models if limit == 0 and cost is None and row.get("more") == "no" and result != "UNKNOWN" else None,
        "partial_count": models if limit == 0 and cost is None else None,
    }


def conflict(a, b):
    """Why two claims contradict each other, or None."""
    for x, y in ((a, b), (b, a)):
        if x["unsat"] and y["model"]:
            return "UNSAT vs a model"
        if x["optimum"] is not None and y["cost"] is not None and len(y["cost"]) == len(x["optimum"]):
            if y["optimum"] is not None and y["optimum"] != x["optimum"]:
                return f"optimum {fmt_cost(x['optimum'])} vs {fmt_cost(y['optimum'])}"
            if y["cost"] < x["optimum"]:
                return f"optimum {fmt_cost(x['optimum'])} vs a model of cost {fmt_cost(y['cost'])}"
        if x["count"] is not None and y["partial_count"] is not None and y["partial_count"] > x["count"]:
            return f"{x['count']} models in all vs {y['partial_count']} found"
        if x["count"] is not None and y["count"] is not None and x["count"] != y["count"]:
            return f"{x['count']} vs {y['count']} models"
    return None


def fmt_cost(c):
    return "[" + " ".join(str(x) for x in c) + "]"


def mark_agreement(rows):
    """Sets agree / disagrees_with on the rows of one instance (all solvers)."""
    claims = [claim(r) for r in rows]
    for i, r in enumerate(rows):
        c = claims[i]
        informative = c["unsat"] or c["model"] or c["count"] is not None
        bad = []
        for k, other in enumerate(rows):
            if k != i:
                why = conflict(c, claims[k])
                if why:
                    bad.append(f"{other['solver']} ({why})")
        r["agree"] = "NO" if bad else ("yes" if informative else "-")
        r["disagrees_with"] = "; ".join(bad)


# --------------------------------------------------------------------------------------------
# The batch


def read_existing(path):
    if not path.is_file():
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def write_csv(path, rows):
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=CSV_FIELDS, extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)
    os.replace(tmp, path)


def fmt_duration(s):
    s = int(s)
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"


class Batch:
    def __init__(self, args, instances, solvers):
        self.args = args
        self.instances = instances
        self.solvers = solvers
        self.grounder = Grounder(args)
        self.csv_path = args.out / "results.csv"
        self.rows = read_existing(self.csv_path) if args.resume else []
        self.lock = threading.Lock()
        self.t0 = time.monotonic()
        self.done_runs = 0
        self.total_runs = 0
        self.disagreements = 0
        self.errors = 0
        self.solved = {s.name: sum(1 for r in self.rows if r["solver"] == s.name and r["status"] in SOLVED)
                       for s in solvers}
        self.tty = sys.stderr.isatty()
        self.logs = args.out / "logs"
        self.tmp = args.out / "tmp"
        self.tmp.mkdir(parents=True, exist_ok=True)
        self.order = {inst.id: i for i, inst in enumerate(instances)}

    def todo(self, inst):
        have = {r["solver"] for r in self.rows if r["instance"] == inst.id}
        if "gringo" in have:
            return []
        return [s for s in self.solvers if s.name not in have]

    def progress(self, text):
        with self.lock:
            el = time.monotonic() - self.t0
            eta = ""
            if self.done_runs:
                eta = f" eta {fmt_duration(el / self.done_runs * (self.total_runs - self.done_runs))}"
            solved = " ".join(f"{k}={v}" for k, v in self.solved.items())
            line = (f"[{self.done_runs}/{self.total_runs} {fmt_duration(el)}{eta}] {text} | solved {solved}"
                    f" | disagreements {self.disagreements} errors {self.errors}")
            if self.tty:
                width = shutil.get_terminal_size((120, 20)).columns
                sys.stderr.write("\r\033[K" + line[:width - 1])
            else:
                sys.stderr.write(line + "\n")
            sys.stderr.flush()

    def run_instance(self, index, inst, solvers):
        args = self.args
        started = datetime.datetime.now().isoformat(timespec="seconds")
        self.progress(f"grounding {inst.id}")
        try:
            ground, gsec, gfail, gnote = self.grounder.ground(inst)
        except subprocess.CalledProcessError as e:
            ground, gsec, gfail, gnote = None, 0.0, "GROUND_ERROR", f"generator failed: {e}"
        base = {"instance": inst.id, "family": inst.family, "timeout": args.timeout,
                "memory_mb": args.memory,
                "models_limit": "" if args.models is None else args.models, "ground_seconds": round(gsec, 3)}
        if gfail:
            row = dict(base, solver="gringo", status=gfail, time="", note=gnote, started=started, agree="-")
            with self.lock:
                self.rows.append(row)
                self.done_runs += len(solvers)
                write_csv(self.csv_path, self.rows)
            self.progress(f"{inst.id}: {gfail} {gnote}")
            return
        base["ground_bytes"] = ground.stat().st_size
        base["ground_file"] = str(ground)
        # Rotate the order of the solvers from instance to instance (interleaving).
        k = index % len(solvers)
        order = solvers[k:] + solvers[:k]
        new = []
        solver_limit = max(1, math.ceil(args.timeout))
        safe = re.sub(r"[^A-Za-z0-9._-]+", "_", inst.id)
        for s in order:
            cmd = solver_command(s, args, ground, solver_limit)
            tag = f"{safe}.{s.name.replace(':', '_')}.{threading.get_ident()}"
            out_p, err_p = self.tmp / f"{tag}.out", self.tmp / f"{tag}.err"
            started = datetime.datetime.now().isoformat(timespec="seconds")
            rc, wall, rss, killed = run_limited(cmd, out_p, err_p, args.timeout + args.grace,
                                                args.memory, rss_watch=s.rss_watch)
            out_text = out_p.read_text(errors="replace")
            err_text = err_p.read_text(errors="replace")
            row = dict(base, solver=s.name, time=round(wall, 3), peak_mem_mb=round(rss, 1),
                       command=shlex.join(cmd), started=started)
            row.update(classify(s, rc, wall, killed, out_text, err_text, args.timeout, args.models))
            row["_out"], row["_err"] = out_p, err_p
            new.append(row)
            with self.lock:
                self.done_runs += 1
                if row["status"] in SOLVED:
                    self.solved[s.name] += 1
            self.progress(f"{inst.id} {s.name} {row['status']} {wall:.2f}s")
        previous = [r for r in self.rows if r["instance"] == inst.id]
        mark_agreement(previous + new)
        new.sort(key=lambda r: [x.name for x in self.solvers].index(r["solver"]))
        for row in new:
            keep = row["agree"] == "NO" or row["status"] in ("ERROR", "MEMOUT") or args.keep_logs
            out_p, err_p = row.pop("_out"), row.pop("_err")
            if keep:
                self.logs.mkdir(parents=True, exist_ok=True)
                os.replace(out_p, self.logs / out_p.name)
                os.replace(err_p, self.logs / err_p.name)
            else:
                out_p.unlink(missing_ok=True)
                err_p.unlink(missing_ok=True)
        with self.lock:
            self.rows.extend(new)
            self.disagreements += any(r["agree"] == "NO" for r in new)
            self.errors += sum(1 for r in new if r["status"] == "ERROR")
            # Keep the CSV in instance order (with --jobs > 1 instances finish out of order).
            self.rows.sort(key=lambda r: self.order.get(r["instance"], -1))
            write_csv(self.csv_path, self.rows)
        bad = [r for r in new if r["agree"] == "NO"]
        if bad:
            self.progress(f"!!! DISAGREEMENT on {inst.id}: {bad[0]['solver']} {bad[0]['status']} vs "
                          f"{bad[0]['disagrees_with']} (logs in {self.logs})")
            if self.tty:
                sys.stderr.write("\n")

    def run(self):
        work = [(i, inst, self.todo(inst)) for i, inst in enumerate(self.instances)]
        work = [w for w in work if w[2]]
        self.total_runs = sum(len(w[2]) for w in work)
        skipped = len(self.instances) - len(work)
        if skipped:
            self.progress(f"resuming: {skipped} instances already done")
        write_csv(self.csv_path, self.rows)
        if self.args.jobs <= 1:
            for w in work:
                self.run_instance(*w)
        else:
            with ThreadPoolExecutor(max_workers=self.args.jobs) as pool:
                for f in [pool.submit(self.run_instance, *w) for w in work]:
                    f.result()
        if self.tty:
            sys.stderr.write("\n")
        try:
            self.tmp.rmdir()
        except OSError:
            pass
        return self.rows


def tool_version(cmd):
    try:
        p = subprocess.run(cmd + ["--version"], capture_output=True, text=True, timeout=60)
        return (p.stdout.strip().splitlines() or ["?"])[0]
    except (OSError, subprocess.TimeoutExpired) as e:
        raise SystemExit(f"bench.py: cannot run {shlex.join(cmd)}: {e}")


def git_commit():
    try:
        p = subprocess.run(["git", "-C", str(REPO), "rev-parse", "HEAD"], capture_output=True, text=True)
        dirty = subprocess.run(["git", "-C", str(REPO), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True).stdout.strip()
        return p.stdout.strip() + (" (modified)" if dirty else "")
    except OSError:
        return ""


def cpu_model():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()


def default_yasmin():
    target = os.environ.get("CARGO_TARGET_DIR")
    return (Path(target) if target else REPO / "target") / "release" / "yasmin"


def default_clingo():
    py = VENV_PYTHON if VENV_PYTHON.exists() else Path(sys.executable)
    return f"{shlex.quote(str(py))} -m clingo"


def build_parser():
    ap = argparse.ArgumentParser(
        prog="bench.py", formatter_class=argparse.RawDescriptionHelpFormatter,
        description=__doc__ % {"families": ", ".join(gen_families()) or "(none found)"})
    ap.add_argument("sets", nargs="+", metavar="SET", help="instance sets (see above)")
    ap.add_argument("--solvers", default="clingo,yasmin:cpu:res",
                    help="solver configurations, comma-separated (default: %(default)s)")
    ap.add_argument("--timeout", type=float, default=60, help="wall-clock limit per run in seconds (default: 60)")
    ap.add_argument("--memory", type=int, default=8192, help="memory limit per run in MiB, 0 for none (default: 8192)")
    ap.add_argument("--jobs", type=int, default=1,
                    help="instances run in parallel (default 1: timings are only honest with one at a time)")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output directory (default: bench-out/ in the repo)")
    ap.add_argument("--models", type=int, default=None,
                    help="-n passed to the solvers; by default none is passed, so they decide (one model) "
                         "or optimize (prove the optimum); 0 enumerates all models (then complete model "
                         "counts are compared too). Note that clingo's -n 1 stops optimization at the "
                         "first model")
    ap.add_argument("--grace", type=float, default=None,
                    help="seconds past --timeout before a run is killed (default: max(5, timeout/10))")
    ap.add_argument("--ground-timeout", type=float, default=600, help="wall-clock limit for gringo (default: 600)")
    ap.add_argument("--retry-ground", action="store_true", help="retry groundings that failed before (cached failures)")
    ap.add_argument("--cache", type=Path, default=DEFAULT_CACHE,
                    help="ground program cache (default: bench-cache/ in the repo)")
    ap.add_argument("--bench-root", type=Path, default=DEFAULT_BENCH_ROOT,
                    help="where relative sets and anchor.csv are looked up (default: ../shared/bench "
                         "next to the repo)")
    ap.add_argument("--limit", type=int, default=0,
                    help="at most this many instances per family, spread evenly over the sorted list")
    ap.add_argument("--filter", help="only instances whose id matches this regular expression")
    ap.add_argument("--shuffle", type=int, metavar="SEED", help="run the instances in a random order")
    ap.add_argument("--yasmin", type=Path, default=default_yasmin(),
                    help="yasmin binary (default: target/release/yasmin, or $CARGO_TARGET_DIR/release/yasmin)")
    ap.add_argument("--clingo", default=default_clingo(), help="clingo command (default: %(default)s)")
    ap.add_argument("--yasmin-args", default="", help="extra options for every yasmin run (one string)")
    ap.add_argument("--clingo-args", default="", help="extra options for every clingo run (one string)")
    ap.add_argument("--gringo-args", default="", help="extra options for gringo (part of the cache key)")
    ap.add_argument("--resume", action="store_true",
                    help="keep the rows already in OUT/results.csv and run only what is missing")
    ap.add_argument("--keep-logs", action="store_true", help="keep every run's stdout/stderr in OUT/logs")
    ap.add_argument("--dry-run", action="store_true", help="list the instances and commands, run nothing")
    ap.add_argument("--no-summary", action="store_true", help="do not run scripts/summarize.py at the end")
    return ap


def main(argv=None):
    ap = build_parser()
    args = ap.parse_intermixed_args(argv)
    if args.grace is None:
        args.grace = max(5.0, args.timeout / 10)
    if args.timeout <= 0 or args.jobs < 1 or args.memory < 0:
        ap.error("--timeout must be positive, --jobs at least 1, --memory not negative")
    args.clingo_cmd = shlex.split(args.clingo)
    args.yasmin_args = shlex.split(args.yasmin_args)
    args.clingo_args = shlex.split(args.clingo_args)
    args.gringo_args = shlex.split(args.gringo_args)
    args.cache = args.cache.resolve()
    args.out = args.out.resolve()
    try:
        solvers = parse_solvers(args.solvers)
        instances = []
        for spec in args.sets:
            instances += expand_spec(spec, args)
    except SpecError as e:
        ap.error(str(e))
    instances = select(instances, args)
    if args.shuffle is not None:
        random.Random(args.shuffle).shuffle(instances)
    if not instances:
        ap.error("no instances selected")
    if any(s.kind == "yasmin" for s in solvers) and not args.yasmin.is_file():
        ap.error(f"no yasmin binary at {args.yasmin}: run `cargo build --release` "
                 "(or bash scripts/setup-bench-env.sh), or pass --yasmin")
    if args.dry_run:
        for inst in instances:
            src = inst.ground or " + ".join(str(s) for s in inst.sources)
            print(f"{inst.id}\t{inst.family}\t{src}")
        print(f"{len(instances)} instances x {len(solvers)} solvers: "
              + ", ".join(s.name for s in solvers), file=sys.stderr)
        print("e.g. " + shlex.join(solver_command(solvers[-1], args, "GROUND.aspif", math.ceil(args.timeout))),
              file=sys.stderr)
        return 0
    args.clingo_version = tool_version(args.clingo_cmd)
    args.out.mkdir(parents=True, exist_ok=True)
    versions = {"clingo": args.clingo_version}
    if any(s.kind == "yasmin" for s in solvers):
        versions["yasmin"] = tool_version([str(args.yasmin)])
    meta = {
        "command": shlex.join([sys.executable] + sys.argv) if argv is None else shlex.join(argv),
        "started": datetime.datetime.now().isoformat(timespec="seconds"),
        "solvers": [s.name for s in solvers], "timeout": args.timeout, "grace": args.grace,
        "memory_mb": args.memory, "jobs": args.jobs, "models": args.models,
        "instances": len(instances), "versions": versions, "commit": git_commit(),
        "host": platform.node(), "cpu": cpu_model(), "cpus": os.cpu_count(),
        "yasmin": str(args.yasmin), "clingo": args.clingo,
    }
    (args.out / "meta.json").write_text(json.dumps(meta, indent=1) + "\n")
    print(f"bench: {len(instances)} instances x {len(solvers)} solvers "
          f"({', '.join(s.name for s in solvers)}), timeout {args.timeout:g}s, memory {args.memory} MiB, "
          f"jobs {args.jobs} -> {args.out / 'results.csv'}", file=sys.stderr)
    if args.jobs > 1:
        print(f"bench: warning: --jobs {args.jobs} on {os.cpu_count()} CPUs; timings are less honest",
              file=sys.stderr)
    batch = Batch(args, instances, solvers)
    rows = batch.run()
    meta["finished"] = datetime.datetime.now().isoformat(timespec="seconds")
    (args.out / "meta.json").write_text(json.dumps(meta, indent=1) + "\n")
    print(f"bench: wrote {args.out / 'results.csv'} ({len(rows)} rows)", file=sys.stderr)
    if not args.no_summary:
        sys.path.insert(0, str(SCRIPTS))
        sys.dont_write_bytecode = True  # no __pycache__ in scripts/
        import summarize
        summarize.main([str(args.out / "results.csv"), "--out", str(args.out)])
    bad = sum(1 for r in rows if r.get("agree") == "NO" or r.get("status") == "ERROR")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
