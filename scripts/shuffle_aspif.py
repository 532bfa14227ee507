#!/usr/bin/env python3
"""Copies of ground programs that break the solvers' ties differently: each aspif statement
in random order and the atoms renamed by a random permutation (a seed a copy).

One search's time on a competition instance swings tenfold with the order its heuristic breaks
ties in (planning Labyrinth 0025 on the VM: clingo 466 to 12,871 conflicts over six copies,
yasmin 625 to 8,134), so a comparison of one run each on the order gringo wrote says as much
about luck as about the solvers. Every solver reads the same copies.

    python3 scripts/shuffle_aspif.py --copies 2 --out DIR FILE.aspif ...

writes DIR/NAME~s1.aspif and DIR/NAME~s2.aspif for each FILE (`.aspif.gz` is read too). The
program is the same: rules, minimize statements (their priorities are their own), projection,
outputs, externals, assumptions, heuristics and edges keep their meaning under the renaming; the output
statements keep their order among themselves (the atoms printed stay in one order), and so do
theory statements and comments. A file with theory statements keeps its atoms' names (theory
atoms refer to them through terms too), and an incremental one (several steps) its steps'
order, each step shuffled on its own and its new atoms renamed among themselves.
"""
import argparse
import gzip
import random
import sys
from pathlib import Path


def lits(tok, i, n, pos, weighted=False):
    """Renames n literals (or literal-weight pairs) at tok[i:], in place; the index after them."""
    step = 2 if weighted else 1
    for k in range(i, i + step * n, step):
        x = int(tok[k])
        tok[k] = str(pos(abs(x)) * (1 if x > 0 else -1))
    return i + step * n


def rename(line, pos):
    """The statement `line` with its atoms renamed by `pos`; unchanged for theory and comments."""
    tok = line.split()
    kind = tok[0]
    if kind not in ("1", "2", "3", "4", "5", "6", "7", "8"):
        return line  # theory statements and comments, whose strings may hold spaces
    if kind == "1":  # rule: head type, head atoms, body type, body
        i = 2
        n = int(tok[i])
        i = lits(tok, i + 1, n, pos)
        body = tok[i]
        if body == "0":
            lits(tok, i + 2, int(tok[i + 1]), pos)
        else:  # weight body: lower bound, n, literal weight pairs
            lits(tok, i + 3, int(tok[i + 2]), pos, weighted=True)
    elif kind == "2":  # minimize: priority, n, literal weight pairs
        lits(tok, 3, int(tok[2]), pos, weighted=True)
    elif kind == "4":  # output: string length, string, n literals (the string may hold spaces)
        head, rest = line.split(" ", 2)[:2], line.split(" ", 2)[2]
        slen = int(head[1])
        text, tail = rest[:slen], rest[slen:].split()
        lits(tail, 1, int(tail[0]), pos)
        return " ".join(head) + " " + text + " " + " ".join(tail)
    elif kind == "3":  # projection: n atoms
        lits(tok, 2, int(tok[1]), pos)
    elif kind == "5":  # external: atom, value
        tok[1] = str(pos(int(tok[1])))
    elif kind == "6":  # assumption: n literals
        lits(tok, 2, int(tok[1]), pos)
    elif kind == "7":  # heuristic: type, atom, bias, priority, n literals
        tok[2] = str(pos(int(tok[2])))
        lits(tok, 6, int(tok[5]), pos)
    elif kind == "8":  # edge: u, v, n literals
        lits(tok, 4, int(tok[3]), pos)
    return " ".join(tok)


def atoms_of(lines):
    """The largest atom the statements name."""
    top = 0

    def seen(atom):
        nonlocal top
        top = max(top, atom)
        return atom

    for line in lines:
        rename(line, seen)
    return top


def shuffle(text, seed):
    """One copy of the aspif program `text`."""
    lines = text.rstrip("\n").split("\n")
    header, body = lines[0], lines[1:]
    if not header.startswith("asp "):
        sys.exit("not an aspif file: its first line is not `asp ...`")
    rng = random.Random(seed)
    steps, step = [], []
    for line in body:
        if line == "0":
            steps.append(step)
            step = []
        elif line:
            step.append(line)
    if step:
        sys.exit("not an aspif file: its last step does not end with `0`")
    theory = any(line.split()[0] == "9" for line in body if line)
    # Each step's new atoms (those above the earlier steps' largest) are renamed among themselves:
    # an atom a step names stays unknown to the steps before it.
    new, low = [0], 0
    for step in steps:
        top = max(low, atoms_of(step))
        block = list(range(low + 1, top + 1))
        if not theory:
            rng.shuffle(block)
        new += block
        low = top
    pos = new.__getitem__
    out = [header]
    for step in steps:
        kept = ("4", "9", "10")
        outputs = [rename(s, pos) for s in step if s.split()[0] in kept]
        others = [rename(s, pos) for s in step if s.split()[0] not in kept]
        rng.shuffle(others)
        # The outputs, theory statements and comments, in their order, at places chosen at random
        # among the others.
        merged = others + [None] * len(outputs)
        rng.shuffle(merged)
        it = iter(outputs)
        out += [s if s is not None else next(it) for s in merged]
        out.append("0")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+")
    ap.add_argument("--copies", type=int, default=1)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for f in map(Path, args.files):
        opener = gzip.open if f.suffix == ".gz" else open
        with opener(f, "rt") as h:
            text = h.read()
        name = f.name.removesuffix(".gz").removesuffix(".aspif")
        for k in range(1, args.copies + 1):
            (out / f"{name}~s{k}.aspif").write_text(shuffle(text, k))


if __name__ == "__main__":
    main()
