#!/usr/bin/env python3
"""Strategic companies instance (encoding.lp): n companies, --products products each made by two
distinct companies, and --controls control facts, each a company controlled by three others
(together: all three in a strategic set puts it there). Random, seeded by the family, the sizes
and --seed. With products = 2n and controls = n, n = 60 to 120 has thousands to hundreds of
thousands of answer sets (-n 0)."""
import random
import sys
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ next to the instances
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import genlib  # noqa: E402


def main(argv=None):
    ap = genlib.parser(__doc__, "number of companies (at least 4)")
    ap.add_argument("--products", type=int, help="number of products (default 2n)")
    ap.add_argument("--controls", type=int, help="number of control facts (default n)")
    a = ap.parse_args(argv)
    if a.n < 4:
        ap.error("--n must be at least 4")
    products = 2 * a.n if a.products is None else a.products
    controls = a.n if a.controls is None else a.controls
    if products < 0 or controls < 0:
        ap.error("--products and --controls must not be negative")
    rng = random.Random(f"strategic/{a.n}/{products}/{controls}/{a.seed}")
    out = [f"% strategic companies, n={a.n} products={products} controls={controls} seed={a.seed}"]
    for p in range(1, products + 1):
        x1, x2 = rng.sample(range(1, a.n + 1), 2)
        out.append(f"produced_by({p},{x1},{x2}).")
    for _ in range(controls):
        w, x1, x2, x3 = rng.sample(range(1, a.n + 1), 4)
        out.append(f"controlled_by({w},{x1},{x2},{x3}).")
    genlib.write(out, a.output)


if __name__ == "__main__":
    main()
