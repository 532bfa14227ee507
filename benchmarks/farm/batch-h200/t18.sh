#!/usr/bin/env bash
# The 18 tight instances of ../split-h100 (GX: a folder of their aspif.xz, ground by clingo 5.8.3's
# gringo), 10 s, one run at a time on the H200 machine: clingo -t 8, yasmin -t 8 and the farm.
# Needs .gpu/yasmin (scripts/gpu_bundle.sh) and clingo's wheels in .whl. Output: $OUT/t18.csv.
set -u
cd "$(dirname "$0")/../../.."
: "${GX:?}" "${OUT:?}"
mkdir -p /tmp/t18 "$OUT"
for f in "$GX"/*.aspif.xz; do xz -dc "$f" > /tmp/t18/$(basename "$f" .xz); done
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site YASMIN_CACHE_DIR=/tmp/yc
timeout 120 .gpu/yasmin --backend=cuda --gpu-mode=farm -q instances/queens.aspif > /dev/null 2>&1
python3 scripts/parallel_bench.py --yasmin .gpu/yasmin --python python3 --timeout ${T:-10} --out "$OUT/t18.csv" \
    --config 'clingo -t 8' --config 'yasmin --backend=cuda --gpu-mode=farm' --config 'yasmin --backend=cpu -t 8' /tmp/t18/*.aspif
