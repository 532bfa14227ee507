#!/usr/bin/env python3
"""Checks the generated families' encodings on small sizes.

For each family in instances/gen/, generates small instances, counts their solutions with an
independent brute-force enumerator written here in Python (from the facts, not from the
encoding), grounds encoding + facts with gringo, and enumerates all answer sets with clingo and
with yasmin (each learning scheme, CPU backend). Every count must match; n-queens is also checked
against the known counts (8-queens: 92) and pigeon-hole must be unsatisfiable.

    .venv/bin/python instances/gen/check.py            # all families, a few seconds
    .venv/bin/python instances/gen/check.py queens ppm # some families only

Exits 0 when everything matches, 1 otherwise (each mismatch is printed with its files kept under
a temporary directory for reproducing).
"""
import argparse
import itertools
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

GEN = Path(__file__).resolve().parent
REPO = GEN.parent.parent

QUEENS_KNOWN = {1: 1, 2: 0, 3: 0, 4: 2, 5: 10, 6: 4, 7: 40, 8: 92, 9: 352, 10: 724}


def parse_facts(text):
    """name -> list of argument tuples (ints), with a..b ranges expanded (single argument)."""
    facts = {}
    for name, args in re.findall(r"^([a-z]\w*)\(([^)]*)\)\.", text, re.M):
        m = re.fullmatch(r"(-?\d+)\.\.(-?\d+)", args)
        if m:
            rows = [(i,) for i in range(int(m.group(1)), int(m.group(2)) + 1)]
        else:
            rows = [tuple(int(x) for x in args.split(","))]
        facts.setdefault(name, []).extend(rows)
    return facts


def count_queens(f):
    n = f["n"][0][0]
    count = 0

    def place(r, cols, d1, d2):
        nonlocal count
        if r == n:
            count += 1
            return
        for c in range(n):
            if c not in cols and r + c not in d1 and r - c not in d2:
                place(r + 1, cols | {c}, d1 | {r + c}, d2 | {r - c})

    place(0, frozenset(), frozenset(), frozenset())
    if n in QUEENS_KNOWN and QUEENS_KNOWN[n] != count:
        raise AssertionError(f"brute force gives {count} for {n}-queens, known {QUEENS_KNOWN[n]}")
    return count


def count_pigeonhole(f):
    pigeons, holes = len(f["pigeon"]), len(f["hole"])
    return sum(1 for a in itertools.product(range(holes), repeat=pigeons) if len(set(a)) == pigeons)


def count_colouring(f):
    nodes = [x for (x,) in f["node"]]
    k = len(f["colour"])
    edges = f.get("edge", [])
    count = 0
    for a in itertools.product(range(k), repeat=len(nodes)):
        col = dict(zip(nodes, a))
        if all(col[x] != col[y] for x, y in edges):
            count += 1
    return count


def count_hamiltonian(f):
    nodes = sorted(x for (x,) in f["node"])
    arcs = set(f.get("edge", []))
    first, rest = nodes[0], nodes[1:]
    count = 0
    for perm in itertools.permutations(rest):
        cyc = (first,) + perm
        if all((cyc[i], cyc[(i + 1) % len(cyc)]) in arcs for i in range(len(cyc))):
            count += 1
    return count


def count_marriage(f):
    men = sorted(x for (x,) in f["man"])
    women = sorted(x for (x,) in f["woman"])
    mrank = {(m, w): r for m, w, r in f["mpref"]}
    wrank = {(w, m): r for w, m, r in f["wpref"]}
    count = 0
    for perm in itertools.permutations(women):
        wife = dict(zip(men, perm))
        husband = {w: m for m, w in wife.items()}
        if not any(mrank[m, w] < mrank[m, wife[m]] and wrank[w, m] < wrank[w, husband[w]]
                   for m in men for w in women):
            count += 1
    return count


def count_ppm(f):
    text = [e for _, e in sorted(f["t"])]
    patt = [v for _, v in sorted(f["p"])]
    k = f["patternlength"][0][0]
    assert k == len(patt)
    count = 0
    for pos in itertools.combinations(range(len(text)), k):
        vals = [text[i] for i in pos]
        if all((vals[a] < vals[b]) == (patt[a] < patt[b]) for a in range(k) for b in range(k)):
            count += 1
    return count


def count_dag(f):
    nodes = sorted(x for (x,) in f["node"])
    edges = f.get("edge", [])
    k = f["out"][0][0]
    count = 0
    for dirs in itertools.product((0, 1), repeat=len(edges)):
        arcs = [(x, y) if d == 0 else (y, x) for (x, y), d in zip(edges, dirs)]
        out = {n: [b for a, b in arcs if a == n] for n in nodes}
        if any(len(out[n]) > k for n in nodes):
            continue
        # Acyclic: repeatedly remove nodes with no outgoing arc left.
        left = set(nodes)
        while True:
            sinks = [n for n in left if not any(b in left for b in out[n])]
            if not sinks:
                break
            left -= set(sinks)
        count += not left
    return count


def count_strategic(f):
    """Minimal sets of companies that produce every product and are closed under control."""
    companies = sorted({c for _, a, b in f.get("produced_by", []) for c in (a, b)}
                       | {c for row in f.get("controlled_by", []) for c in row})
    products = f.get("produced_by", [])
    controls = f.get("controlled_by", [])

    def strategic(s):
        if not all(a in s or b in s for _, a, b in products):
            return False
        return all(w in s or not {x, y, z} <= s for w, x, y, z in controls)

    sets = [frozenset(c) for r in range(len(companies) + 1)
            for c in itertools.combinations(companies, r) if strategic(frozenset(c))]
    return sum(1 for s in sets if not any(t < s for t in sets))


# family -> (brute-force counter, list of generator argument lists)
CASES = {
    "queens": (count_queens, [["--n", str(n)] for n in range(1, 9)]),
    "pigeonhole": (count_pigeonhole, [["--n", str(n)] for n in range(1, 6)]),
    "colouring": (count_colouring, [["--n", str(n), "--k", str(k), "--p", p, "--seed", str(s)]
                                    for n, k, p in [(6, 3, "0.5"), (8, 3, "0.4"), (9, 3, "0.5"),
                                                    (7, 2, "0.3"), (7, 4, "0.7"), (4, 3, "1")]
                                    for s in (1, 2)]),
    "hamiltonian": (count_hamiltonian, [["--n", str(n), "--d", d, "--plant", pl, "--seed", str(s)]
                                        for n, d in [(5, "2"), (6, "2.5"), (7, "3"), (8, "3")]
                                        for pl in ("0", "1") for s in (1, 2)]),
    "dag": (count_dag, [["--n", str(n), "--d", d, "--k", str(k), "--seed", str(s)]
                        for n, d, k in [(5, "2", 1), (6, "3", 2), (7, "3", 2), (8, "3.5", 3)]
                        for s in (1, 2)]),
    "marriage": (count_marriage, [["--n", str(n), "--seed", str(s)]
                                  for n in (1, 2, 3, 4, 5, 6) for s in (1, 2, 3)]),
    "ppm": (count_ppm, [["--n", str(n), "--k", str(k), "--plant", pl, "--seed", str(s)]
                        for n, k in [(6, 2), (8, 3), (10, 3), (11, 4), (12, 5)]
                        for pl in ("0", "1") for s in (1, 2)]),
    "strategic": (count_strategic, [["--n", str(n), "--controls", str(c), "--seed", str(s)]
                                    for n, c in [(4, 1), (6, 3), (8, 8), (10, 10), (12, 24)]
                                    for s in (1, 2)]),
}


def solve_count(cmd, path):
    p = subprocess.run(cmd + ["--outf=2", "-q", "-n", "0", str(path)], capture_output=True,
                       text=True, timeout=120)
    try:
        j = json.loads(p.stdout)
    except ValueError:
        return None, f"no JSON (exit {p.returncode}): {p.stderr.strip()[:300]}"
    return j["Models"]["Number"], j["Result"]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("families", nargs="*", help="families to check (default: all)")
    ap.add_argument("--python", default=str(REPO / ".venv" / "bin" / "python"),
                    help="Python with clingo installed (default: the repo's .venv)")
    ap.add_argument("--yasmin", default=str(Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
                                            / "release" / "yasmin"), help="yasmin binary")
    a = ap.parse_args()
    fams = a.families or list(CASES)
    clingo = [a.python, "-m", "clingo"]
    solvers = [("clingo", clingo + ["--mode=clasp"])]
    solvers += [(f"yasmin:cpu:{l}", [a.yasmin, "--backend=cpu", f"--learning={l}"]) for l in ("res", "fwd")]
    tmp = Path(tempfile.mkdtemp(prefix="gen-check-"))
    bad = 0
    total = 0
    for fam in fams:
        counter, cases = CASES[fam]
        for args in cases:
            name = fam + "".join(args).replace("--", "-")
            facts_path = tmp / f"{name}.lp"
            subprocess.run([sys.executable, str(GEN / fam / "generate.py"), *args, "-o", str(facts_path)],
                           check=True)
            expected = counter(parse_facts(facts_path.read_text()))
            ground = tmp / f"{name}.aspif"
            with open(ground, "w") as out:
                subprocess.run(clingo + ["--mode=gringo", str(GEN / fam / "encoding.lp"), str(facts_path)],
                               stdout=out, check=True)
            got = {s: solve_count(cmd, ground) for s, cmd in solvers}
            ok = all(n == expected and (res == "UNSATISFIABLE") == (expected == 0)
                     for n, res in got.values())
            total += 1
            if not ok:
                bad += 1
            detail = "  ".join(f"{s}={n}" for s, (n, _) in got.items())
            print(f"{'ok ' if ok else 'BAD'} {fam:12} {' '.join(args):40} expected={expected:<6} {detail}",
                  flush=True)
            if not ok:
                for s, (n, res) in got.items():
                    print(f"      {s}: {n} models, {res}; ground file {ground}")
    print(f"{total - bad} passed, {bad} failed")
    if not bad:
        for f in tmp.iterdir():
            f.unlink()
        tmp.rmdir()
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
