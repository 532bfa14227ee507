"""Results: the CSV's rows, what a run's output says (classification), agreement between the
solvers on an instance, and which runs a resumed campaign still has to do."""
import csv
import json
import os
import re

CSV_FIELDS = [
    "instance", "family", "solver", "status", "time", "timeout", "peak_mem_mb", "memory_mb",
    "models", "cost", "agree", "disagrees_with", "result", "more", "optimum", "models_limit",
    "exit_code", "solver_time", "ground_seconds", "ground_bytes", "ground_file", "command",
    "started", "note", "cpu_time", "measured_by", "attempts", "commit", "host",
]
# Columns that depend on the machine and the moment, not on the answers (left out when two
# campaigns' CSVs are compared).
MEASURED_FIELDS = ("time", "peak_mem_mb", "solver_time", "ground_seconds", "started", "cpu_time",
                   "measured_by", "attempts", "host")
SOLVED = ("SAT", "UNSAT", "OPTIMUM")
LOST = "LOST"  # the run's worker died twice (a retry included): no answer, run again by --resume
FAILED = ("ERROR", LOST)
MEMORY_PATTERNS = re.compile(
    r"memory allocation of \d+ bytes failed|bad_alloc|MemoryError|out of memory|"
    r"Cannot allocate memory|capacity overflow", re.I)


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



def read_existing(path):
    """The rows of a CSV written before (none if there is no file)."""
    if not path.is_file():
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def write_csv(path, rows):
    """Writes the rows (atomically: a reader never sees half a file)."""
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=CSV_FIELDS, extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)
    os.replace(tmp, path)


def run_key(row):
    """What identifies a run for resumption: instance, solver configuration and commit."""
    return row["instance"], row["solver"], row.get("commit") or ""


def split_resumed(rows, commit):
    """(rows kept, rows set aside) of a CSV a campaign at `commit` resumes: rows measured at
    another commit are set aside (their runs are repeated), and so are lost runs."""
    keep, aside = [], []
    for r in rows:
        same = (r.get("commit") or "") == commit
        (keep if same and r["status"] != LOST else aside).append(r)
    return keep, aside


def done_runs(rows):
    """Keys of the runs the rows already hold; a grounding failure counts for every solver."""
    runs, failed_ground = set(), set()
    for r in rows:
        if r["solver"] == "gringo":
            failed_ground.add(r["instance"])
        else:
            runs.add(run_key(r))
    return runs, failed_ground
