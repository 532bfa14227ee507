#!/usr/bin/env bash
# `--backend=auto -t 8` (the farm beside 8 CPU searches where the farm takes the task, the CPU
# engine's 8 searches elsewhere) against yasmin -t 8 on the 15 instances of contested.txt: the 8
# that optimize (where auto no longer runs the grid) and the 7 that the whole-set run
# (run.sh) saw some solver solve and another not. One run at a time, T seconds (default 20).
# SRC holds NAME.enc and NAME__INSTANCE.asp (or .aspif.xz) as benchmarks/ground.sh reads them.
#   SRC=.bench/src Y=.gpu/yasmin OUT=/tmp/auto bash benchmarks/farm/whole-h200/auto.sh
set -u
cd "$(dirname "$0")/../../.."
: "${SRC:?}" "${OUT:?}" "${Y:?}"
mkdir -p "$OUT" /tmp/auto-src
here=benchmarks/farm/whole-h200
while read -r b; do
    cp "$SRC/${b%%__*}.enc" /tmp/auto-src/ && cp "$SRC/$b".asp* /tmp/auto-src/
done < "$here/contested.txt"
source benchmarks/ground.sh /tmp/auto /tmp/auto-src
export YASMIN_CACHE_DIR=/tmp/yc
for mode in grid farm; do timeout 120 "$Y" --backend=cuda --gpu-mode=$mode -q instances/queens.aspif > /dev/null 2>&1; done
python3 scripts/parallel_bench.py --yasmin "$Y" --python python3 --timeout "${T:-20}" --jobs 1 \
    --out "$OUT/auto.csv" --config 'yasmin --backend=auto -t 8' --config 'yasmin --backend=cpu -t 8' /tmp/auto/*.aspif > "$OUT/auto.txt" 2>&1
echo "auto done"; tail -n 6 "$OUT/auto.txt"
