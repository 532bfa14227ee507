#!/usr/bin/env bash
# Disjunctive and loop-heavy programs against clingo, all enumerated with -n 0
# (benchmarks/disjunctive/SOURCE.md says what they are): unpacks wasp's programs, generates the
# 2QBF and strategic companies ones, and runs scripts/parallel_bench.py on them by rules, by
# variables and with clingo.
# Extra arguments go to parallel_bench.py: --jobs N (runs at once, where there are cores),
# --config 'yasmin@OTHER_BUILD -n 0' (another build in the same run), --python (clingo's).
#   bash scripts/disjunctive_bench.sh [--jobs 8] [...]
set -euo pipefail
cd "$(dirname "$0")/.."
ARGS=("$@")
SET=${SET:-bench-out/disjunctive-set}
mkdir -p "$SET"
for f in benchmarks/disjunctive/instances/*.aspif.gz; do
    gunzip -c "$f" > "$SET/$(basename "$f" .gz)"
done
# xs ys terms seed: true instances with 20,000 to 431,000 answer sets (clingo 0.1 to 3 s).
for q in "20 24 48 3" "20 24 48 4" "20 24 48 5" "22 26 52 1" "22 26 52 2" "22 26 52 3" \
    "22 26 52 5" "24 28 56 5"; do
    read -r xs ys terms seed <<< "$q"
    python3 instances/gen/qbf/generate.py --xs "$xs" --ys "$ys" --terms "$terms" --seed "$seed" \
        > "$SET/qbf-$xs-$ys-$terms-$seed.aspif"
done
# n seed controls: strategic companies (instances/gen/strategic), with head cycles, 1,216 to 70,918
# answer sets (clingo 0.3 to 2.4 s), ground by clingo's gringo ($PYTHON -m clingo).
PYTHON=${PYTHON:-$( [ -x .venv/bin/python ] && echo .venv/bin/python || echo python3 )}
for s in "60 1 60" "66 3 66" "70 1 140"; do
    read -r n seed controls <<< "$s"
    python3 instances/gen/strategic/generate.py --n "$n" --seed "$seed" --controls "$controls" |
        "$PYTHON" -m clingo --mode=gringo instances/gen/strategic/encoding.lp - > "$SET/strategic-$n-$seed-$controls.aspif"
done
exec python3 scripts/parallel_bench.py --timeout "${TIMEOUT:-60}" --out "${OUT:-bench-out/disjunctive.csv}" \
    --config 'clingo -n 0' --config 'yasmin -n 0' --config 'yasmin --decisions=vars -n 0' \
    "${ARGS[@]}" "$SET"/*.aspif
