#!/usr/bin/env bash
# The farm racing yasmin's 8 CPU searches (-t 8 with --gpu-mode=farm: one run, nogoods shared
# through the host) against clingo -t 8 and yasmin -t 8, on the 18 tight instances of
# ../batch-h200/t18.sh (GX: their aspif.xz), 10 s (T), one run at a time on the H200 machine.
# Needs a stripped yasmin at Y and clingo's wheels in .whl. Output: $OUT/hybrid.csv.
set -u
cd "$(dirname "$0")/../../.."
: "${GX:?}" "${OUT:?}" "${Y:?}"
mkdir -p /tmp/t18 "$OUT"
for f in "$GX"/*.aspif.xz; do xz -dc "$f" > /tmp/t18/$(basename "$f" .xz); done
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site YASMIN_CACHE_DIR=/tmp/yc
timeout 120 "$Y" --backend=cuda --gpu-mode=farm -q instances/queens.aspif > /dev/null 2>&1
python3 scripts/parallel_bench.py --yasmin "$Y" --python python3 --timeout ${T:-10} --out "$OUT/hybrid.csv" \
    --config 'clingo -t 8' --config 'yasmin --backend=cpu -t 8' --config 'yasmin --backend=cuda --gpu-mode=farm -t 8' \
    /tmp/t18/*.aspif
