#!/usr/bin/env python3
"""Writes the farm's corpus of recursive aggregates: random programs whose weight and
cardinality bodies support atoms on positive cycles, ground by clingo's gringo to smodels, each
with its answer sets as tests/conformance lists them (`NAME.expected`: a line an answer set, its
atoms sorted, the lines sorted; empty where there is none). Run from the repository root with
clingo in .venv:

    .venv/bin/python tests/farm_emu/recursive/make.py

The programs' seeds are fixed, so the files come out the same each time.
"""
import random
import subprocess
import sys
from pathlib import Path

import clingo

OUT = Path(__file__).resolve().parent


def term(rng, n, atoms):
    """A weighted element of an aggregate over atoms p/1 and q/1."""
    a = rng.choice(atoms)
    x = rng.randint(1, n)
    neg = "not " if rng.random() < 0.2 else ""
    return f"{rng.randint(1, 3)},{a},{x}: {neg}{a}({x})"


def program(seed):
    rng = random.Random(seed)
    n = rng.randint(3, 7)
    lines = [f"{{ q(1..{n}) }} {rng.randint(1, n)}."]
    for i in range(1, n + 1):
        for _ in range(rng.randint(1, 2)):
            k = rng.randint(1, 4)
            elems = "; ".join(term(rng, n, ["p", "p", "q"]) for _ in range(k))
            agg = rng.choice(["#sum", "#count"]) if rng.random() < 0.8 else "#sum"
            if agg == "#count":
                elems = "; ".join(e.split(",", 1)[1] for e in elems.split("; "))
            bound = rng.randint(1, 4)
            extra = rng.choice(["", f", q({rng.randint(1, n)})", f", not q({rng.randint(1, n)})", f", p({rng.randint(1, n)})"])
            lines.append(f"p({i}) :- {agg} {{ {elems} }} >= {bound}{extra}.")
        if rng.random() < 0.5:
            lines.append(f"p({i}) :- p({rng.randint(1, n)}), q({rng.randint(1, n)}).")
    for _ in range(rng.randint(0, 2)):
        lines.append(f":- not p({rng.randint(1, n)}), q({rng.randint(1, n)}).")
    if rng.random() < 0.3:
        lines.append(f":- not p({rng.randint(1, n)}).")
    lines.append("#show p/1. #show q/1.")
    return "\n".join(lines) + "\n"


def weight_rule_on_cycle(smodels):
    """Whether a weight or cardinality rule (smodels types 5 and 2) has its head on a positive
    cycle: in a strongly connected component of more than one atom, or depending on itself."""
    deps, weighted = {}, set()
    for line in smodels.split("\n"):
        t = [int(x) for x in line.split()]
        if not t or t[0] == 0:
            break
        if t[0] == 1:
            head, n, m, lits = t[1], t[2], t[3], t[4:]
        elif t[0] == 2:
            head, n, m, lits = t[1], t[2], t[3], t[5:]
        elif t[0] == 5:
            head, n, m, lits = t[1], t[3], t[4], t[5:]
        elif t[0] == 3:
            nh = t[1]
            heads, (n, m), lits = t[2 : 2 + nh], t[2 + nh : 4 + nh], t[4 + nh :]
            for h in heads:
                deps.setdefault(h, set()).update(lits[m:n])
            continue
        else:
            continue
        deps.setdefault(head, set()).update(lits[m:n])
        if t[0] in (2, 5):
            weighted.add(head)
    # An atom is on a cycle when it reaches itself through positive dependencies.
    def reaches(a, goal):
        seen, todo = set(), [a]
        while todo:
            x = todo.pop()
            for y in deps.get(x, ()):
                if y == goal:
                    return True
                if y not in seen:
                    seen.add(y)
                    todo.append(y)
        return False

    return any(reaches(h, h) for h in weighted)


def main():
    made = 0
    for seed in range(1, 400):
        text = program(seed)
        ctl = clingo.Control(["0"])
        ctl.add("base", [], text)
        ctl.ground([("base", [])])
        sets = []
        ctl.solve(on_model=lambda m: sets.append(" ".join(sorted(str(s) for s in m.symbols(shown=True)))))
        ground = subprocess.run(
            [sys.executable, "-m", "clingo", "--mode=gringo", "--output=smodels"],
            input=text, capture_output=True, text=True, check=True,
        ).stdout
        # Keep the programs where a weight body supports an atom on a positive cycle and whose
        # answer sets are few enough to enumerate.
        if len(sets) > 64 or not weight_rule_on_cycle(ground):
            continue
        name = f"recursive-{seed:03}"
        (OUT / f"{name}.lp").write_text(text)
        (OUT / f"{name}.smodels").write_text(ground)
        (OUT / f"{name}.expected").write_text("".join(s + "\n" for s in sorted(sets)))
        made += 1
        if made == 40:
            break
    print(f"{made} programs")


if __name__ == "__main__":
    main()
