#!/usr/bin/env python3
"""Multi-step (incremental) aspif against clasp: random programs of two or three steps, whose
later steps reuse, redefine and declare external the earlier steps' atoms, each run by clasp and by
yasmin with `-n 0`; the answer sets printed after each `Solving...` and the exit codes compared.

    python3 scripts/steps_vs_clasp.py --clasp PATH [--yasmin target/release/yasmin] [--programs 1000]

Prints the programs counted in each class: `same`, `clasp-refuses` (clasp exits with an error,
a redefinition; yasmin answers and warns) and `differ` (the first few are printed). clasp 3.3.5
is Debian's package (`apt-get download clasp`, then `dpkg -x`); clingo's Python module does not
read multi-step aspif.
"""
import argparse
import random
import subprocess


def program(seed):
    r = random.Random(seed)
    n, steps = r.randint(3, 9), r.randint(2, 3)
    out, shown = ["asp 1 0 0 incremental"], set()
    for _ in range(steps):
        for _ in range(r.randint(1, 4)):
            kind = r.choice(["choice", "normal", "constraint", "disjunction", "external"])
            body = [r.choice([1, -1]) * r.randint(1, n) for _ in range(r.randint(0, 2))]
            if kind == "external":
                out.append(f"5 {r.randint(1, n)} {r.choice([0, 0, 1, 2])}")
                continue
            choice = kind == "choice"
            if choice:
                head = sorted({r.randint(1, n) for _ in range(r.randint(1, 3))})
            elif kind == "normal":
                head = [r.randint(1, n)]
            elif kind == "disjunction":
                head = sorted({r.randint(1, n) for _ in range(2)})
            else:
                head = []
            out.append(" ".join(map(str, [1, int(choice), len(head), *head, 0, len(body), *body])))
        for a in range(1, n + 1):
            if a not in shown and r.random() < 0.6:
                shown.add(a)
                out.append(f"4 {len(f'x{a}')} x{a} 1 {a}")
        out.append("0")
    return "\n".join(out) + "\n"


def steps(binary, text):
    """(exit code, the sorted answer sets printed after each `Solving...`)."""
    p = subprocess.run([binary, "-n0"], input=text, capture_output=True, text=True, timeout=60)
    found, lines, i = [], p.stdout.split("\n"), 0
    while i < len(lines):
        if lines[i] == "Solving...":
            found.append([])
        elif lines[i].startswith("Answer:"):
            found[-1].append(" ".join(sorted(lines[i + 1].split())))
            i += 1
        i += 1
    return p.returncode, [sorted(s) for s in found]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clasp", required=True)
    ap.add_argument("--yasmin", default="target/release/yasmin")
    ap.add_argument("--programs", type=int, default=1000)
    args = ap.parse_args()
    counts, shown = {"same": 0, "clasp-refuses": 0, "differ": 0}, 0
    for seed in range(args.programs):
        text = program(seed)
        c, y = steps(args.clasp, text), steps(args.yasmin, text)
        kind = "same" if c == y else "clasp-refuses" if c[0] in (65, 85) else "differ"
        counts[kind] += 1
        if kind == "differ" and shown < 3:
            shown += 1
            print(f"seed {seed}:\n{text}clasp  {c}\nyasmin {y}\n")
    print(counts)


if __name__ == "__main__":
    main()
