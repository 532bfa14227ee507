"""Instance sets: families, single files, list:, anchor and gen: specs, and their selection."""
import csv
import itertools
import re
from pathlib import Path

from . import GEN_DIR

ENCODING_NAMES = ("encoding.asp", "encoding.lp")
GROUND_SUFFIXES = (".aspif", ".smodels", ".ground")


class SpecError(Exception):
    """An instance set or solver given on the command line that cannot be used."""


class Instance:
    """One benchmark instance: a ground file, or files to ground together."""

    def __init__(self, ident, family, sources=None, ground=None, generate=None):
        self.id = ident            # e.g. aspcomp2015/Labyrinth/0010-labyrinth-13-0
        self.family = family       # e.g. aspcomp2015/Labyrinth
        # Absolute paths: the tasks may run in another directory (a worker of a cluster).
        self.sources = [Path(s).absolute() for s in sources or []]  # files to ground (encoding first)
        self.ground = Path(ground).absolute() if ground is not None else None  # a ground file given directly
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

