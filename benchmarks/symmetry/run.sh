#!/usr/bin/env bash
# Symmetry breaking (--symmetry=lex) on generated families (instances/gen/): pigeon-hole with
# 8 to 11 holes, 3-colouring of random graphs (no symmetry breaking in the encoding), queens,
# stable marriage, Hamiltonian cycles and ppm, one seed each (colouring two a size), against
# yasmin's default and clingo, two runs at a time.
#   OUT=DIR [T=20] [J=2] bash benchmarks/symmetry/run.sh [YASMIN]
set -euo pipefail
cd "$(dirname "$0")/../.."
Y=${1:-target/release/yasmin}
OUT=${OUT:?give OUT=DIR}
T=${T:-20}
J=${J:-2}
PY=${PY:-.venv/bin/python}
G=$OUT/ground
mkdir -p "$G"
ground() { # family, name, generator arguments...
    local fam=$1 name=$2; shift 2
    python3 "instances/gen/$fam/generate.py" "$@" > "$G/$name.lp"
    "$PY" -m clingo --mode=gringo "instances/gen/$fam/encoding.lp" "$G/$name.lp" > "$G/$name.aspif"
    rm "$G/$name.lp"
}
for n in 8 9 10 11; do ground pigeonhole "pigeonhole-$n" --n "$n"; done
for ns in 200:1 200:2 300:3 300:4 400:1 400:2 500:3 500:4 800:1 800:2; do
    ground colouring "colouring-${ns%%:*}-${ns##*:}" --n "${ns%%:*}" --seed "${ns##*:}"
done
for g in queens:40 queens:160 marriage:40 marriage:80 hamiltonian:40 ppm:200; do
    ground "${g%%:*}" "${g%%:*}-${g##*:}" --n "${g##*:}" --seed 1
done
python3 scripts/parallel_bench.py --yasmin "$Y" --python "$PY" --jobs "$J" --timeout "$T" \
    --out "$OUT/generated.csv" --config clingo --config 'yasmin --backend=cpu' --config 'yasmin --backend=cpu --symmetry=lex' \
    "$G"/*.aspif | tee "$OUT/generated.txt"
