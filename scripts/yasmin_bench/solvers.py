"""Solver configurations (clingo[:CONFIG], yasmin[:BACKEND[:LEARNING]]) and their command lines."""
import math

from .instances import SpecError


class Solver:
    """One solver configuration; rss_watch marks the CUDA ones (they need a GPU, and RLIMIT_AS
    cannot limit them: CUDA reserves far more address space than it uses)."""

    def __init__(self, name, kind, options, rss_watch=False):
        self.name = name
        self.kind = kind          # "clingo" or "yasmin"
        self.options = options    # extra command-line options
        self.rss_watch = rss_watch  # enforce memory by RSS polling instead of RLIMIT_AS


def parse_solvers(text):
    """The solvers of a --solvers value (raises SpecError)."""
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


def solver_command(solver, args, ground):
    """The command line of one run of solver on the ground file (--time-limit: --timeout
    rounded up, at least 1)."""
    common = ["--outf=2", "-q", f"--time-limit={max(1, math.ceil(args.timeout))}"]
    if args.models is not None:  # else the solvers' default: one model, or the optimum
        common += ["-n", str(args.models)]
    if solver.kind == "clingo":
        cmd = args.clingo_cmd + ["--mode=clasp"] + common + solver.options + args.clingo_args
    else:
        cmd = [str(args.yasmin)] + common + solver.options + args.yasmin_args
    return cmd + [str(ground)]

