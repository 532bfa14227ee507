#!/usr/bin/env python3
"""Permutation pattern matching instance: a random permutation t of 1..n (the text) and a random
permutation p of 1..k (the pattern), in the facts of the ASP competition's family (t(I,E), p(K,P),
patternlength(K)). With --plant 1 the values at k random positions of the text are rearranged to
be order-isomorphic to the pattern, so the instance is satisfiable."""
import random
import sys
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ next to the instances
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import genlib  # noqa: E402


def facts(n, k, plant, seed):
    rng = random.Random(f"ppm/{n}/{k}/{plant}/{seed}")
    text = list(range(1, n + 1))
    rng.shuffle(text)
    patt = list(range(1, k + 1))
    rng.shuffle(patt)
    if plant:
        pos = sorted(rng.sample(range(n), k))
        vals = sorted(text[i] for i in pos)
        for i, v in zip(pos, patt):
            text[i] = vals[v - 1]
    out = [f"% permutation pattern matching, n={n} k={k} plant={plant} seed={seed}"]
    out += [f"t({i},{e})." for i, e in enumerate(text, 1)]
    out += [f"p({i},{e})." for i, e in enumerate(patt, 1)]
    out.append(f"patternlength({k}).")
    return out


def main(argv=None):
    ap = genlib.parser(__doc__, "length of the text permutation")
    ap.add_argument("--k", type=int, help="length of the pattern (default max(2, n // 10))")
    ap.add_argument("--plant", type=int, default=0, choices=[0, 1],
                    help="1: plant an occurrence of the pattern (satisfiable); default 0")
    a = ap.parse_args(argv)
    k = a.k if a.k is not None else max(2, a.n // 10)
    if a.n < 1 or not 1 <= k <= a.n:
        ap.error("need 1 <= k <= n")
    genlib.write(facts(a.n, k, a.plant, a.seed), a.output)


if __name__ == "__main__":
    main()
