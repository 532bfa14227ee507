"""A persistent clingo oracle for the differential test: grounds .lp text with gringo and solves
aspif with clasp, answering JSON-line requests on stdin with JSON lines on stdout.

One process serves a whole test run (starting Python per program is too slow). Requests:

  {"op": "version"}
      -> {"ok": true, "clingo": "5.8.3"}
  {"op": "ground", "program": "<.lp text>"}
      -> {"ok": true, "aspif": "<gringo's aspif output>"}  (clingo_main --mode=gringo, in process)
      or {"ok": false, "error": "<messages>"}
  {"op": "solve", "aspif": "<aspif text>", "jobs": [[arg, ...], ...]}
      -> {"ok": true, "results": [{"models": [{"shown": [...], "cost": [...], "proven": bool,
                                                "type": "StableModel"}],
                                    "satisfiable": bool, "exhausted": bool, "interrupted": bool}]}
      Each job solves the aspif once with `clingo.Control(args + [TRANS_EXT])`, which reads aspif
      through clasp's own reader (Control.load on an aspif file, checked to reproduce
      `python -m clingo --mode=clasp` on the example in ../shared/docs/oracles.md).

Why `--trans-ext=weight` and not `--trans-ext=all`: clasp's default handling of choice rules
whose weight bodies mention their own heads misses answer sets (../shared/docs/oracles.md), and
translating weight rules fixes that; but clingo 5.8.3 with `--trans-ext=all` (or `choice`) never
finishes, its memory growing without bound, on a choice rule whose body negates its only head,
e.g. `{h} :- not h.` (aspif `1 1 1 1 0 1 -1`). `weight` translates weight and cardinality rules
and leaves choice rules alone. A request may override it with "trans_ext" ("" for clasp's
defaults).

Debugging: with CLINGO_ORACLE_LOG=<file> every request (and its time and memory) is appended to
<file>. Memory is capped at 4 GiB, so a runaway call kills this process (the test restarts it).

gringo writes its output to the C-level stdout, so fd 1 is redirected to a temporary file for
the whole life of the process and the protocol goes through a duplicate of the original fd 1.
"""

import ctypes
import json
import os
import resource
import sys
import tempfile
import time
import traceback

try:
    import clingo
except Exception as e:  # the Rust side turns this into a test failure
    sys.stderr.write("clingo_oracle.py: cannot import clingo: %s\n" % e)
    sys.exit(3)

# The programs are tiny: a runaway ground or solve call must fail, not eat the machine's memory.
resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))

LIBC = ctypes.CDLL(None)
PROTO = os.fdopen(os.dup(1), "w")
CAPTURE = tempfile.TemporaryFile()
os.dup2(CAPTURE.fileno(), 1)
# The test gives a folder that it removes when it kills this process; run by hand, a fresh one.
WORKDIR = os.environ.get("CLINGO_ORACLE_DIR") or tempfile.mkdtemp(prefix="clingo-oracle-")


class GringoApp:
    """A clingo application in gringo mode: loads the files given, writes aspif to stdout."""

    program_name = "gringo"
    version = clingo.__version__

    def __init__(self):
        self.messages = []

    def logger(self, code, message):
        self.messages.append(message)


def ground(program):
    path = os.path.join(WORKDIR, "program.lp")
    with open(path, "w") as f:
        f.write(program)
    CAPTURE.seek(0)
    CAPTURE.truncate()
    app = GringoApp()
    rc = clingo.clingo_main(app, ["--mode=gringo", "--warn=none", path])
    LIBC.fflush(None)
    sys.stdout.flush()
    CAPTURE.seek(0)
    out = CAPTURE.read().decode()
    if rc != 0 or not out.startswith("asp "):
        return {"ok": False, "error": "gringo exit %d: %s" % (rc, "\n".join(app.messages) or out)}
    return {"ok": True, "aspif": out}


TRANS_EXT = "--trans-ext=weight"


def solve(aspif, jobs, trans_ext=TRANS_EXT):
    path = os.path.join(WORKDIR, "program.aspif")
    with open(path, "w") as f:
        f.write(aspif)
    results = []
    for args in jobs:
        messages = []
        ctl = clingo.Control(
            list(args) + ([trans_ext] if trans_ext else []), logger=lambda code, msg: messages.append(msg), message_limit=100
        )
        ctl.load(path)
        ctl.ground([("base", [])])
        models = []

        def on_model(m):
            models.append(
                {
                    "shown": sorted(str(s) for s in m.symbols(shown=True)),
                    "cost": list(m.cost),
                    "proven": m.optimality_proven,
                    "type": str(m.type).split(".")[-1],
                }
            )

        r = ctl.solve(on_model=on_model)
        results.append(
            {
                "models": models,
                "satisfiable": bool(r.satisfiable),
                "exhausted": bool(r.exhausted),
                "interrupted": bool(r.interrupted),
            }
        )
    return {"ok": True, "results": results}


def main():
    log = os.environ.get("CLINGO_ORACLE_LOG")  # debugging: append every request to this file
    for line in sys.stdin:
        if not line.strip():
            continue
        t0 = time.time()
        if log:
            with open(log, "a") as f:
                f.write(line)
        try:
            req = json.loads(line)
            op = req.get("op")
            if op == "version":
                resp = {"ok": True, "clingo": clingo.__version__}
            elif op == "ground":
                resp = ground(req["program"])
            elif op == "solve":
                resp = solve(req["aspif"], req["jobs"], req.get("trans_ext", TRANS_EXT))
            else:
                resp = {"ok": False, "error": "unknown op %r" % op}
        except Exception:
            resp = {"ok": False, "error": traceback.format_exc()}
        PROTO.write(json.dumps(resp) + "\n")
        PROTO.flush()
        if log:
            rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
            with open(log, "a") as f:
                f.write("# done in %.3fs, max rss %d KiB\n" % (time.time() - t0, rss))


if __name__ == "__main__":
    main()
