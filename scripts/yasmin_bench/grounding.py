"""Grounding with gringo (python -m clingo --mode=gringo), cached by the content hash of the
encoding and instance files; the grounding task of a campaign. The cache lives in --cache,
which every worker must see (a shared file system on a cluster)."""
import datetime
import hashlib
import json
import os
import re
import subprocess
import sys
import threading
from pathlib import Path

from .measure import run_measured
from .results import MEMORY_PATTERNS

_LOCKS = {}  # cache key -> lock, for threads of one process grounding the same program
_LOCKS_LOCK = threading.Lock()


def ground_task(inst, args):
    """The grounding task: {"file": the ground file ("" if none), "bytes", "seconds", "status":
    None or the failure (GROUND_TIMEOUT, GROUND_MEMOUT, GROUND_ERROR), "note"}."""
    try:
        path, seconds, status, note = Grounder(args).ground(inst)
    except subprocess.CalledProcessError as e:
        path, seconds, status, note = None, 0.0, "GROUND_ERROR", f"generator failed: {e}"
    return {"file": str(path) if path else "", "bytes": path.stat().st_size if path else "",
            "seconds": round(seconds, 3), "status": status, "note": note}


class Grounder:
    """Grounds instances into --cache/ground/KEY.aspif (KEY.json: status, seconds, limits)."""

    def __init__(self, args):
        self.args = args
        self.cache = args.cache / "ground"
        self.cache.mkdir(parents=True, exist_ok=True)
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
        with _LOCKS_LOCK:
            lock = _LOCKS.setdefault(key, threading.Lock())
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
            rc, wall, _, _, killed, _ = run_measured(cmd, tmp, err, self.args.ground_timeout, self.args.memory)
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

