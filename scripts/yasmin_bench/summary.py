"""Summary and plots: tables and cactus plots of the CSVs that scripts/bench.py writes.

    .venv/bin/python scripts/summarize.py bench-out/results.csv [MORE.csv ...] [--out DIR]

Prints, and writes to DIR/summary.md (DIR: the first CSV's directory unless --out):
  - every disagreement between solvers, at the top (agreement is recomputed across all the rows
    given, so CSVs from separate runs can be combined), then every run that ended in ERROR
    or was LOST;
  - per solver configuration: instances solved (SAT / UNSAT / OPTIMUM), timeouts, memory-outs,
    errors (LOST runs among them), PAR2 (mean of the time of solved runs and 2 x timeout for the
    rest), and the median of time / baseline time over the instances both solved, one of them in at least --ratio-min
    seconds (baseline: clingo unless --baseline);
  - the same per family;
and draws DIR/cactus.png and DIR/cactus.svg: instances solved against time, one line per
solver configuration (needs matplotlib, installed by scripts/setup-bench-env.sh; without it the
plots are skipped with a warning). Exits 1 if there is any disagreement, ERROR or LOST run, else 0.
"""
import argparse
import csv
import json
import statistics
import sys
from pathlib import Path

from .results import FAILED, SOLVED, mark_agreement

MIN_TIME = 0.01  # seconds; shorter times count as this in ratios (and on the log-scale plot)


def load(paths):
    rows = []
    for p in paths:
        with open(p, newline="") as f:
            for r in csv.DictReader(f):
                r["_csv"] = str(p)
                rows.append(r)
    return rows


def fnum(x, default=None):
    try:
        return float(x)
    except (TypeError, ValueError):
        return default


def solved(r):
    return r["status"] in SOLVED


def par2(rows):
    if not rows:
        return None
    return sum(fnum(r["time"]) if solved(r) else 2 * fnum(r["timeout"], 0) for r in rows) / len(rows)


def median_ratio(rows, solver, baseline, ratio_min=0.0):
    """Median over instances solved by both, one of them in at least ratio_min seconds, of
    time(solver) / time(baseline), and the number of instances it was taken over."""
    by = {}
    for r in rows:
        if r["solver"] in (solver, baseline) and solved(r):
            by.setdefault(r["instance"], {})[r["solver"]] = max(MIN_TIME, fnum(r["time"]))
    ratios = [d[solver] / d[baseline] for d in by.values()
              if solver in d and baseline in d and max(d[solver], d[baseline]) >= ratio_min]
    return (statistics.median(ratios), len(ratios)) if ratios else (None, 0)


def fmt(x, digits=2):
    return "–" if x is None else f"{x:.{digits}f}"


def table(header, rows):
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" if i == 0 else "--:" for i in range(len(header))) + "|"]
    out += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return out


def recheck(rows):
    """Agreement recomputed over all rows per instance: list of (instance, row) that disagree."""
    by = {}
    for r in rows:
        if r["solver"] != "gringo":
            by.setdefault(r["instance"], []).append(r)
    bad = []
    for inst, rs in by.items():
        copies = [dict(r) for r in rs]
        mark_agreement(copies)
        for orig, c in zip(rs, copies):
            if c["agree"] == "NO" or orig.get("agree") == "NO":
                bad.append((inst, orig, c["disagrees_with"] or orig.get("disagrees_with", "")))
    return bad


def cactus(rows, solvers, out_dir, title):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("summarize: matplotlib not installed (bash scripts/setup-bench-env.sh): no cactus plot",
              file=sys.stderr)
        return []
    timeouts = [fnum(r["timeout"]) for r in rows if fnum(r["timeout"])]
    tmax = max(timeouts) if timeouts else None
    fig, ax = plt.subplots(figsize=(7, 4.5))
    styles = ["-", "--", "-.", ":"]
    for i, s in enumerate(solvers):
        times = sorted(max(MIN_TIME, fnum(r["time"])) for r in rows if r["solver"] == s and solved(r))
        n = sum(1 for r in rows if r["solver"] == s)
        xs, ys = [MIN_TIME], [0]
        for k, t in enumerate(times, 1):
            xs += [t, t]
            ys += [k - 1, k]
        if tmax:
            xs.append(tmax)
            ys.append(len(times))
        ax.plot(xs, ys, styles[i // 10 % len(styles)], label=f"{s} ({len(times)}/{n})", linewidth=1.6)
    ax.set_xscale("log")
    ax.set_xlabel("time limit per instance (s, wall clock)")
    ax.set_ylabel("instances solved")
    if tmax:
        ax.axvline(tmax, color="grey", linewidth=0.8, linestyle=":")
    ax.set_title(title)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(loc="upper left", fontsize=8)
    fig.tight_layout()
    written = []
    for ext in ("png", "svg"):
        p = out_dir / f"cactus.{ext}"
        fig.savefig(p, dpi=120)
        written.append(p)
    plt.close(fig)
    return written


def summarize(rows, baseline, meta, ratio_min=1.0):
    ground_fail = [r for r in rows if r["solver"] == "gringo"]
    rows = [r for r in rows if r["solver"] != "gringo"]
    solvers = []
    for r in rows:
        if r["solver"] not in solvers:
            solvers.append(r["solver"])
    if baseline not in solvers:
        baseline = solvers[0] if solvers else baseline
    order = list(solvers)
    solvers.sort(key=lambda s: (s != baseline, order.index(s)))
    families = sorted({r["family"] for r in rows})
    instances = sorted({r["instance"] for r in rows})
    md = []
    bad = recheck(rows)
    errors = [r for r in rows if r["status"] in FAILED]

    if bad:
        n_inst = len({b[0] for b in bad})
        md += [f"## !!! DISAGREEMENTS: {n_inst} instance(s), {len(bad)} run(s) !!!", ""]
        md += table(["instance", "solver", "status", "cost", "models", "disagrees with", "command"],
                    [[inst, r["solver"], r["status"], r.get("cost", ""), r.get("models", ""), why,
                      f"`{r.get('command', '')}`"] for inst, r, why in bad])
        md.append("")
    else:
        md += ["No disagreements between solvers.", ""]
    if errors:
        md += [f"## !!! ERRORS: {len(errors)} run(s) !!!", ""]
        md += table(["instance", "solver", "status", "exit", "note", "command"],
                    [[r["instance"], r["solver"], r["status"], r.get("exit_code", ""), r.get("note", ""),
                      f"`{r.get('command', '')}`"] for r in errors])
        md.append("")
    if ground_fail:
        md += [f"Grounding failed on {len(ground_fail)} instance(s) (not counted below): "
               + ", ".join(f"{r['instance']} ({r['status']})" for r in ground_fail), ""]

    if meta:
        v = meta.get("versions", {})
        md += [f"{len(instances)} instances, {len(families)} families; timeout {meta.get('timeout', '?'):g} s, "
               f"memory {meta.get('memory_mb', '?')} MiB, jobs {meta.get('jobs', '?')}; "
               f"{meta.get('cpu', '')} ({meta.get('cpus', '?')} CPUs); "
               + (f"{v.get('yasmin', '')}" + (f" at {meta['commit'][:12]}{' (modified)' if 'modified' in meta['commit'] else ''}"
                                           if meta.get("commit") else "") + "; ")
               + f"{v.get('clingo', '')}.", ""]
    else:
        md += [f"{len(instances)} instances, {len(families)} families.", ""]

    counts = {s: sum(1 for r in rows if r["solver"] == s) for s in solvers}
    if len(set(counts.values())) > 1:
        md += ["Note: the solvers did not all run on the same instances ("
               + ", ".join(f"{s}: {n}" for s, n in counts.items()) + "); compare PAR2 with care.", ""]

    header = ["solver", "solved", "SAT", "UNSAT", "OPT", "timeout", "memout", "error", "PAR2 (s)",
              f"median time / {baseline} (n)", "median peak MiB"]
    body = []
    for s in solvers:
        rs = [r for r in rows if r["solver"] == s]
        st = [r["status"] for r in rs]
        ratio, n = median_ratio(rows, s, baseline, ratio_min)
        mems = [fnum(r.get("peak_mem_mb")) for r in rs if fnum(r.get("peak_mem_mb")) is not None]
        body.append([s, f"{sum(1 for r in rs if solved(r))}/{len(rs)}", st.count("SAT"), st.count("UNSAT"),
                     st.count("OPTIMUM"), st.count("TIMEOUT"), st.count("MEMOUT"),
                     st.count("ERROR") + st.count("LOST"),
                     fmt(par2(rs)), "–" if s == baseline or ratio is None else f"{ratio:.2f} ({n})",
                     fmt(statistics.median(mems), 0) if mems else "–"])
    md += ["### Overall", ""] + table(header, body) + [""]

    header = ["family", "n"] + [f"{s} solved / PAR2" for s in solvers]
    header += [f"{s} / {baseline}" for s in solvers if s != baseline]
    body = []
    for fam in families:
        fr = [r for r in rows if r["family"] == fam]
        n = len({r["instance"] for r in fr})
        line = [fam, n]
        for s in solvers:
            rs = [r for r in fr if r["solver"] == s]
            line.append(f"{sum(1 for r in rs if solved(r))} / {fmt(par2(rs), 1)}" if rs else "–")
        for s in solvers:
            if s != baseline:
                ratio, k = median_ratio(fr, s, baseline, ratio_min)
                line.append("–" if ratio is None else f"{ratio:.2f} ({k})")
        body.append(line)
    md += ["### Per family", ""] + table(header, body) + [""]
    md += [f"PAR2: mean wall-clock seconds, unsolved runs counted as twice the timeout. Time ratios: median "
           f"of time / {baseline} time over the instances both solved where one of the two took at least "
           f"{ratio_min:g} s (below 1: faster than {baseline}; n: how many instances). Times are wall clock "
           "and include process start-up (clingo runs as `python -m clingo`, about 0.1 s)."]
    return md, solvers, bool(bad) or bool(errors)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("csv", nargs="+", type=Path, help="results.csv files from scripts/bench.py")
    ap.add_argument("--out", type=Path, help="where summary.md and the plots go (default: the first CSV's directory)")
    ap.add_argument("--baseline", default="clingo", help="solver the time ratios are taken against (default: clingo)")
    ap.add_argument("--ratio-min", type=float, default=1.0,
                    help="time ratios only over instances where one of the two solvers took at least this "
                         "many seconds, so that start-up times do not dominate (default: 1)")
    ap.add_argument("--title", help="title of the cactus plot")
    ap.add_argument("--no-plot", action="store_true", help="skip the cactus plot")
    a = ap.parse_args(argv)
    out = a.out or a.csv[0].resolve().parent
    out.mkdir(parents=True, exist_ok=True)
    rows = load(a.csv)
    meta = None
    meta_path = a.csv[0].resolve().parent / "meta.json"
    if len(a.csv) == 1 and meta_path.is_file():
        meta = json.loads(meta_path.read_text())
    if not rows:
        print("summarize: no rows", file=sys.stderr)
        return 1
    md, solvers, bad = summarize(rows, a.baseline, meta, a.ratio_min)
    text = "\n".join(md) + "\n"
    print(text)
    (out / "summary.md").write_text(text)
    written = [out / "summary.md"]
    if not a.no_plot and solvers:
        timeout = max((fnum(r["timeout"], 0) for r in rows), default=0)
        title = a.title or f"{len({r['instance'] for r in rows if r['solver'] != 'gringo'})} instances, " \
                           f"timeout {timeout:g} s"
        written += cactus([r for r in rows if r["solver"] != "gringo"], solvers, out, title)
    print("summarize: wrote " + ", ".join(str(p) for p in written), file=sys.stderr)
    return 1 if bad else 0
