"""The command line of scripts/bench.py: options, meta.json, the campaign, the summary."""
import argparse
import datetime
import json
import os
import platform
import random
import shlex
import subprocess
import sys
from pathlib import Path

from . import REPO, VENV_PYTHON
from .campaign import Campaign
from .cluster import jobqueue_cluster, open_executor
from .instances import SpecError, expand_spec, gen_families, select
from .measure import METHODS, choose_method, runexec_status
from .results import FAILED
from .solvers import parse_solvers, solver_command

DEFAULT_BENCH_ROOT = REPO.parent / "shared" / "bench"
DEFAULT_CACHE = REPO / "bench-cache"
DEFAULT_OUT = REPO / "bench-out"

HELP = """Batch benchmark runner: yasmin (one or more configurations) against clingo.

Each instance is grounded once with gringo (cached by content hash; a task), then every solver
runs on the same ground file (a task per run) under a wall-clock and a memory limit. The tasks
run through Dask: by default on a LocalCluster on this machine, one run per physical core (one
per GPU with CUDA configurations); --scheduler, --slurm or --pbs run them elsewhere, --local in
this process one after another. Answers are cross-checked and one CSV row is written per run as
each instance's runs end; a summary (scripts/summarize.py) is printed and written at the end.

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
                       TIMEOUT, MEMOUT, ERROR, LOST), time (wall seconds), peak_mem_mb (the
                       run's peak memory), cpu_time, measured_by, attempts, commit, host, models, cost, agree (yes / NO / - when it gave no answer),
                       and more (see the header); grounding failures get a row with solver
                       "gringo"
  meta.json            the command line, limits, versions, host and commit
  logs/                stdout/stderr of runs that erred, ran out of memory or disagreed
  summary.md, cactus.png, cactus.svg   from scripts/summarize.py (unless --no-summary)
  superseded.csv       rows a --resume set aside (another commit, or lost runs)
  jobs/                the Slurm/PBS workers' logs

WHERE THE RUNS RUN:
  (default)            a Dask LocalCluster: one worker running one task at a time per physical
                       core this process may use, or per visible GPU when a configuration runs
                       on CUDA (each worker gets its own GPU), never more than MemTotal/--memory;
                       --workers N overrides
  --local              in this process, one run after another, without Dask
  --scheduler ADDRESS  an existing Dask cluster (its workers must see the repository, the
                       binaries and --cache at the same paths; the yasmin_bench package is
                       uploaded to them)
  --slurm, --pbs       --workers N (default 4) jobs of one worker and one core each through
                       dask-jobqueue, with --partition, --walltime, --job-memory, --account,
                       --job-directive; --dry-run prints the job script and submits nothing.
                       The cluster's nodes must share the file system holding the repository.
  A worker that dies mid-run has its run started again on another worker, once; a run whose
  second worker dies too gets status LOST (its row says so; --resume runs it again).

MEASUREMENT (--measure auto|runexec|rusage, column measured_by):
  runexec              BenchExec's RunExecutor (as in the verification competitions): the run in
                       a cgroup that enforces the memory limit and measures wall time, CPU time
                       and peak memory; used by auto where benchexec is installed and can use
                       cgroups on the machine where the run executes
  rusage               otherwise: memory limited by RLIMIT_AS (CUDA reserves far more address
                       space than it uses, so for yasmin with --backend=cuda or auto the RSS is
                       polled instead, killed as MEMOUT above the limit), CPU time by wait4,
                       peak RSS by GNU time

A run counts as solved when it answered (SAT/UNSAT; OPTIMUM for optimization problems; with
--models 0 the enumeration must be complete) within --timeout. Both solvers get
--time-limit=TIMEOUT and are killed at TIMEOUT + --grace. Answers disagree when one says UNSAT
and another found a model, when proven optima differ, when a model is better than another's
proven optimum, or (with --models 0) when complete model counts differ; a run that timed out
without an answer agrees with anything. The exit status is 1 if any answers disagree or any
run ended in ERROR or was LOST, else 0.

RESUMING (--resume): the runs OUT/results.csv holds for the same instance, solver
configuration and commit (the repository's HEAD, the column commit; " (modified)" is added for
uncommitted changes, which it cannot tell apart) are not run again, so an interrupted campaign
goes on where it stopped. Rows of another commit (or of a CSV from before the column) and LOST
runs move to OUT/superseded.csv, and those runs are made again.

Example (from a fresh clone: bash scripts/setup-bench-env.sh first):
  .venv/bin/python scripts/bench.py --timeout 60 --solvers clingo,yasmin:cpu:res,yasmin:cpu:fwd \\
      aspcomp2015/Labyrinth gen:queens:8,10,12 gen:pigeonhole:7-9
  .venv/bin/python scripts/bench.py --slurm --partition short --walltime 04:00:00 \\
      --job-memory 10GiB --workers 32 --timeout 600 --resume anchor
"""


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
        with open("/proc/cpuinfo") as f:
            for line in f:
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
        description=HELP % {"families": ", ".join(gen_families()) or "(none found)"})
    ap.add_argument("sets", nargs="+", metavar="SET", help="instance sets (see above)")
    ap.add_argument("--solvers", default="clingo,yasmin:cpu:res",
                    help="solver configurations, comma-separated (default: %(default)s)")
    ap.add_argument("--timeout", type=float, default=60, help="wall-clock limit per run in seconds (default: 60)")
    ap.add_argument("--memory", type=int, default=8192, help="memory limit per run in MiB, 0 for none (default: 8192)")
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
                    help="keep the rows already in OUT/results.csv (of this commit) and run only what is missing")
    ap.add_argument("--keep-logs", action="store_true", help="keep every run's stdout/stderr in OUT/logs")
    ap.add_argument("--dry-run", action="store_true",
                    help="list the instances and commands (and with --slurm/--pbs the job script), run nothing")
    ap.add_argument("--no-summary", action="store_true", help="do not run scripts/summarize.py at the end")
    ap.add_argument("--no-progress", action="store_true", help="no progress bar or progress lines")
    ap.add_argument("--measure", choices=METHODS, default="auto",
                    help="how runs are limited and measured (default auto: runexec where it works, else rusage)")
    where = ap.add_argument_group("where the runs run (default: a Dask LocalCluster on this machine)")
    how = where.add_mutually_exclusive_group()
    how.add_argument("--local", action="store_true", help="in this process, one run after another, without Dask")
    how.add_argument("--scheduler", metavar="ADDRESS", help="an existing Dask cluster (e.g. tcp://host:8786)")
    how.add_argument("--slurm", action="store_true", help="Slurm jobs started through dask-jobqueue")
    how.add_argument("--pbs", action="store_true", help="PBS jobs started through dask-jobqueue")
    where.add_argument("--workers", "--jobs", type=int, default=0, metavar="N",
                       help="Dask workers, one run at a time each (LocalCluster default: sized to the machine; "
                            "--slurm/--pbs default: 4 jobs)")
    where.add_argument("--partition", help="Slurm partition or PBS queue")
    where.add_argument("--walltime", default="04:00:00", help="job walltime, HH:MM:SS (default: %(default)s)")
    where.add_argument("--job-memory", help="memory a job asks for, e.g. 10GiB (default: --memory + 2 GiB)")
    where.add_argument("--account", help="account (project) the jobs are charged to")
    where.add_argument("--job-directive", action="append", default=[], metavar="TEXT",
                       help="an extra #SBATCH/#PBS directive, e.g. --job-directive=--exclusive (repeatable)")
    return ap


def dry_run(args, instances, solvers):
    for inst in instances:
        src = inst.ground or " + ".join(str(s) for s in inst.sources)
        print(f"{inst.id}\t{inst.family}\t{src}")
    print(f"{len(instances)} instances x {len(solvers)} solvers: "
          + ", ".join(s.name for s in solvers), file=sys.stderr)
    print("e.g. " + shlex.join(solver_command(solvers[-1], args, "GROUND.aspif")),
          file=sys.stderr)
    if args.slurm or args.pbs:
        cluster = jobqueue_cluster(args, solvers)
        try:
            print(f"# the job script of each of the {args.workers or 4} worker(s):")
            print(cluster.job_script())
        finally:
            cluster.close()
    return 0


def parse(argv):
    """The parsed and checked command line, the instances and the solvers."""
    ap = build_parser()
    args = ap.parse_intermixed_args(argv)
    if args.grace is None:
        args.grace = max(5.0, args.timeout / 10)
    if args.timeout <= 0 or args.workers < 0 or args.memory < 0:
        ap.error("--timeout must be positive, --workers not negative, --memory not negative")
    if args.local and args.workers > 1:
        ap.error("--local runs one run at a time; without --local the runs spread over --workers")
    if (args.partition or args.account or args.job_memory or args.job_directive) and not (args.slurm or args.pbs):
        ap.error("--partition, --account, --job-memory and --job-directive are for --slurm or --pbs")
    args.clingo_cmd = shlex.split(args.clingo)
    args.yasmin_args = shlex.split(args.yasmin_args)
    args.clingo_args = shlex.split(args.clingo_args)
    args.gringo_args = shlex.split(args.gringo_args)
    args.cache = args.cache.resolve()
    args.yasmin = args.yasmin.absolute()
    args.out = args.out.resolve()
    args.worker_gpus = None
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
    if any(s.kind == "yasmin" for s in solvers) and not args.yasmin.is_file() and not args.dry_run:
        ap.error(f"no yasmin binary at {args.yasmin}: run `cargo build --release` "
                 "(or bash scripts/setup-bench-env.sh), or pass --yasmin")
    return args, instances, solvers


def prepare(args, solvers):
    """What a campaign needs beyond the command line: the tools' versions, the commit, the
    output directory; returns the versions and the measurement method here."""
    args.clingo_version = tool_version(args.clingo_cmd)
    args.commit = git_commit()
    try:
        method = choose_method(args.measure)
    except RuntimeError as e:
        raise SystemExit(f"bench.py: {e}")
    args.out.mkdir(parents=True, exist_ok=True)
    versions = {"clingo": args.clingo_version}
    if any(s.kind == "yasmin" for s in solvers):
        versions["yasmin"] = tool_version([str(args.yasmin)])
    return versions, method


def main(argv=None):
    args, instances, solvers = parse(argv)
    if args.dry_run:
        return dry_run(args, instances, solvers)
    versions, method = prepare(args, solvers)
    wanted = args.measure
    if not (args.scheduler or args.slurm or args.pbs):
        args.measure = method  # the workers run here: no probe of their own
    executor = open_executor(args, solvers)
    meta = {
        "command": shlex.join([sys.executable] + sys.argv) if argv is None else shlex.join(argv),
        "started": datetime.datetime.now().isoformat(timespec="seconds"),
        "solvers": [s.name for s in solvers], "timeout": args.timeout, "grace": args.grace,
        "memory_mb": args.memory, "jobs": executor.workers, "runs_on": executor.description,
        "measure": {"wanted": wanted, "here": method, "runexec": runexec_status()[1]},
        "models": args.models, "instances": len(instances), "versions": versions, "commit": args.commit,
        "host": platform.node(), "cpu": cpu_model(), "cpus": os.cpu_count(),
        "yasmin": str(args.yasmin), "clingo": args.clingo,
    }
    (args.out / "meta.json").write_text(json.dumps(meta, indent=1) + "\n")
    print(f"bench: {len(instances)} instances x {len(solvers)} solvers "
          f"({', '.join(s.name for s in solvers)}), timeout {args.timeout:g}s, memory {args.memory} MiB, "
          f"runs {executor.description}, measured by {method} here -> {args.out / 'results.csv'}",
          file=sys.stderr)
    try:
        rows = Campaign(args, instances, solvers, executor, progress=not args.no_progress).run()
    finally:
        executor.close()
    meta["finished"] = datetime.datetime.now().isoformat(timespec="seconds")
    (args.out / "meta.json").write_text(json.dumps(meta, indent=1) + "\n")
    print(f"bench: wrote {args.out / 'results.csv'} ({len(rows)} rows)", file=sys.stderr)
    if not args.no_summary:
        from . import summary
        summary.main([str(args.out / "results.csv"), "--out", str(args.out)])
    bad = sum(1 for r in rows if r.get("agree") == "NO" or r.get("status") in FAILED)
    return 1 if bad else 0
