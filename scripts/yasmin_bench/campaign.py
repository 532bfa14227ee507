"""A campaign: every instance grounded (one task each), every solver run on it (one task each),
results streamed into OUT/results.csv as each instance's runs end, answers cross-checked."""
import datetime
import shlex
import uuid

from .grounding import ground_task
from .progress import Progress
from .results import (FAILED, LOST, SOLVED, done_runs, mark_agreement, read_existing, split_resumed,
                      write_csv)
from .running import solve_task
from .solvers import solver_command


def killed_worker(error):
    try:
        from distributed.scheduler import KilledWorker
    except ImportError:
        return False
    return isinstance(error, KilledWorker)


class Campaign:
    """The runs of instances x solvers that OUT/results.csv does not hold yet, on an executor
    (cluster.InProcess or cluster.DaskExecutor)."""

    def __init__(self, args, instances, solvers, executor, progress=True):
        self.args, self.instances, self.solvers, self.ex = args, instances, solvers, executor
        self.csv_path = args.out / "results.csv"
        self.rows = []
        if args.resume:
            self.rows, aside = split_resumed(read_existing(self.csv_path), args.commit)
            if aside:  # measured at another commit, or lost: kept, and run again
                old = read_existing(args.out / "superseded.csv")
                write_csv(args.out / "superseded.csv", old + aside)
        self.order = {inst.id: i for i, inst in enumerate(instances)}
        self.solver_order = [s.name for s in solvers]
        self.token = uuid.uuid4().hex[:8]
        self.tasks = {}     # key -> ("ground", index) or ("solve", index, solver)
        self.pending = {}   # index -> {"base": ..., "todo": [solvers], "rows": [...]}
        self.progress_on = progress

    def plan(self):
        """(index, instance, solvers still to run on it), in instance order."""
        runs, failed_ground = done_runs(self.rows)
        work = []
        for i, inst in enumerate(self.instances):
            if inst.id in failed_ground:
                continue
            todo = [s for s in self.solvers if (inst.id, s.name, self.args.commit) not in runs]
            if todo:
                k = i % len(todo)  # the order rotates from instance to instance (interleaving)
                work.append((i, inst, todo[k:] + todo[:k]))
        return work

    def run(self):
        work = self.plan()
        total = sum(len(w[2]) for w in work)
        solved0 = {s.name: sum(1 for r in self.rows if r["solver"] == s.name and r["status"] in SOLVED)
                   for s in self.solvers}
        self.bar = Progress(total, solved0, self.counts, enabled=self.progress_on)
        if len(work) < len(self.instances):
            self.bar.message(f"bench: resuming: {len(self.instances) - len(work)} instance(s) already done")
        write_csv(self.csv_path, self.rows)
        for i, inst, todo in work:
            self.pending[i] = {"inst": inst, "todo": todo, "rows": []}
            self.submit(("ground", i), ground_task, inst, self.args)
        try:
            for key, result, error, attempts in self.ex.results():
                task = self.tasks.pop(key)
                if task[0] == "ground":
                    self.grounded(task[1], result, error)
                else:
                    self.solved(task[1], task[2], result, error, attempts)
        finally:
            self.bar.close()
        return self.rows

    def counts(self):
        """(runs running, groundings running), for the progress display."""
        kinds = [self.tasks.get(k, ("?",))[0] for k in self.ex.running()]
        return kinds.count("solve"), kinds.count("ground")

    def submit(self, task, fn, *args, urgent=False):
        key = f"{task[0]}-{self.token}-{task[1]}" + (f"-{task[2].name}" if len(task) > 2 else "")
        self.tasks[key] = task
        self.ex.submit(key, fn, *args, urgent=urgent)

    def grounded(self, i, result, error):
        p, args = self.pending[i], self.args
        inst = p["inst"]
        if error is not None:
            status = LOST if killed_worker(error) else "GROUND_ERROR"
            result = {"file": "", "seconds": 0.0, "status": status, "bytes": "",
                      "note": f"grounding task failed: {type(error).__name__}: {error}"}
        p["base"] = {"instance": inst.id, "family": inst.family, "timeout": args.timeout,
                     "memory_mb": args.memory, "models_limit": "" if args.models is None else args.models,
                     "ground_seconds": result["seconds"], "commit": args.commit}
        if result["status"]:
            row = dict(p["base"], solver="gringo", status=result["status"], time="", note=result["note"],
                       agree="-", started=datetime.datetime.now().isoformat(timespec="seconds"))
            del self.pending[i]
            self.store([row])
            self.bar.ran(len(p["todo"]), text=f"{inst.id}: {result['status']} {result['note']}")
            return
        p["base"].update(ground_bytes=result["bytes"], ground_file=result["file"])
        for s in reversed(p["todo"]):  # the runs of grounded instances go first, in todo's order
            self.submit(("solve", i, s), solve_task, inst, s, result["file"], args, urgent=True)

    def solved(self, i, solver, row, error, attempts):
        p = self.pending[i]
        if error is not None:
            lost = killed_worker(error)
            row = {"solver": solver.name, "status": LOST if lost else "ERROR", "agree": "-",
                   "command": shlex.join(solver_command(solver, self.args, p["base"]["ground_file"])),
                   "note": f"its worker died under it in each of {attempts} attempts (KilledWorker; the "
                           f"last: {getattr(error, 'last_worker', '?')})" if lost
                   else f"the task failed: {type(error).__name__}: {error}"[:300]}
            self.bar.message(f"bench: {p['inst'].id} {solver.name}: {row['status']}: {row['note']}")
        row = dict(p["base"], attempts=attempts, **row)
        p["rows"].append(row)
        self.bar.ran(1, solver.name, row["status"] in SOLVED,
                     f"{p['inst'].id} {solver.name} {row['status']} {row.get('time', '')}s")
        if len(p["rows"]) == len(p["todo"]):
            del self.pending[i]
            self.finish(p["inst"], p["rows"])

    def finish(self, inst, new):
        """All runs on inst ended: agreement (with the rows resumed), logs, the CSV."""
        previous = [r for r in self.rows if r["instance"] == inst.id]
        mark_agreement(previous + new)
        new.sort(key=lambda r: self.solver_order.index(r["solver"]))
        logs = self.args.out / "logs"
        for row in new:
            out, err = row.pop("_out", None), row.pop("_err", None)
            keep = row["agree"] == "NO" or row["status"] in ("ERROR", "MEMOUT") or self.args.keep_logs
            if keep and out is not None:
                logs.mkdir(parents=True, exist_ok=True)
                stem = log_stem(inst.id, row["solver"])
                (logs / f"{stem}.out").write_text(out)
                (logs / f"{stem}.err").write_text(err)
        self.bar.flag(any(r["agree"] == "NO" for r in new), sum(1 for r in new if r["status"] in FAILED))
        self.store(new)
        bad = [r for r in new if r["agree"] == "NO"]
        if bad:
            self.bar.message(f"!!! DISAGREEMENT on {inst.id}: {bad[0]['solver']} {bad[0]['status']} vs "
                             f"{bad[0]['disagrees_with']} (logs in {logs})")

    def store(self, rows):
        """Adds rows and rewrites the CSV, in instance order (instances end out of order)."""
        self.rows.extend(rows)
        self.rows.sort(key=lambda r: self.order.get(r["instance"], -1))
        write_csv(self.csv_path, self.rows)


def log_stem(inst_id, solver_name):
    """The file name stem of a run's kept stdout/stderr in OUT/logs."""
    safe = "".join(c if c.isalnum() or c in "._-" else "_" for c in inst_id)
    return f"{safe}.{solver_name.replace(':', '_')}"
