#!/usr/bin/env bash
# The farm, one build against another (BASE, NEW: binaries), on the 18 tight instances of
# batch-h200/t18.sh (GX: their aspif.xz), T seconds (default 10), one run at a time on the H200
# machine, with clingo -t 8 in the same run unless CLINGO=0 (needs clingo's wheels in .whl).
# Output: $OUT/$CSV (default ab-t18.csv). Used by sign-h200/ and init-h200/.
set -u
cd "$(dirname "$0")/../.."
: "${GX:?}" "${OUT:?}" "${BASE:?}" "${NEW:?}" "${CSV:=ab-t18.csv}" "${CLINGO:=1}"
mkdir -p /tmp/t18 "$OUT"
for f in "$GX"/*.aspif.xz; do xz -dc "$f" > /tmp/t18/$(basename "$f" .xz); done
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site YASMIN_CACHE_DIR=/tmp/yc
for b in "$BASE" "$NEW"; do timeout 120 "$b" --backend=cuda --gpu-mode=farm -q instances/queens.aspif > /dev/null 2>&1; done
configs=()
[ "$CLINGO" = 1 ] && configs+=(--config 'clingo -t 8')
configs+=(--config "yasmin@$BASE --backend=cuda --gpu-mode=farm" --config "yasmin@$NEW --backend=cuda --gpu-mode=farm")
python3 scripts/parallel_bench.py --yasmin "$NEW" --python python3 --timeout ${T:-10} --out "$OUT/$CSV" \
    "${configs[@]}" /tmp/t18/*.aspif
