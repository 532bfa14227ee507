#!/usr/bin/env bash
# --gpu-mode=grid against --gpu-mode=farm, one search, and the farm racing 8 CPU searches (-t 8),
# on the 18 tight instances of ../batch-h200/t18.sh (GX: their aspif.xz) and six non-tight
# Labyrinth instances (LAB: their aspif.xz: 0010, 0014, 0044, 0048, 0063, 0073 of ../shared/bench),
# T seconds (default 10), one run at a time on the H200 machine.
# Needs a stripped yasmin at Y. Output: $OUT/auto.csv and auto.txt.
set -u
cd "$(dirname "$0")/../../.."
: "${GX:?}" "${LAB:?}" "${OUT:?}" "${Y:?}"
mkdir -p /tmp/t18 "$OUT"
for f in "$GX"/*.aspif.xz "$LAB"/*.aspif.xz; do xz -dc "$f" > /tmp/t18/$(basename "$f" .xz); done
export YASMIN_CACHE_DIR=/tmp/yc
timeout 120 "$Y" --backend=cuda --gpu-mode=farm -q instances/queens.aspif > /dev/null 2>&1
python3 scripts/parallel_bench.py --yasmin "$Y" --python python3 --timeout ${T:-10} --out "$OUT/auto.csv" \
    --config 'yasmin --backend=cuda --gpu-mode=grid' --config 'yasmin --backend=cuda --gpu-mode=farm' \
    --config 'yasmin --backend=cuda --gpu-mode=farm -t 8' \
    /tmp/t18/*.aspif > "$OUT/auto.txt" 2>&1
tail -8 "$OUT/auto.txt"
