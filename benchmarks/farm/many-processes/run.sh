#!/bin/bash
# Many yasmin processes on one GPU machine, as a batch of one-search runs has them: the 12
# instances of ../auto-t1/instances.txt run all at once (12 processes, -t 1 each), T seconds
# (default 15), with the default (each process races its own search farm on the one GPU) and
# then with --backend=cpu; the GPU's memory in use sampled halfway through the default's batch.
# SRC holds NAME.enc and NAME__INSTANCE.asp (scripts/bench_sources.sh); on the H200 machine:
#   SRC=.bench/src Y=.gpu/yasmin OUT=DIR bash benchmarks/farm/many-processes/run.sh
# h200/roundN: two rounds on 2026-12-03, default.csv and cpu.csv from the build that waits for
# the farm's slices on a blocking event, default-b6a6142.csv (Y=the build before) spinning.
set -u
cd "$(dirname "$0")/../../.."
: "${SRC:?}" "${OUT:?}" "${Y:?}"
mkdir -p "$OUT" /tmp/mp-src
while read -r b; do
    cp "$SRC/${b%%__*}.enc" /tmp/mp-src/ && cp "$SRC/$b".asp* /tmp/mp-src/
done < benchmarks/farm/auto-t1/instances.txt
source benchmarks/ground.sh /tmp/mp-ground /tmp/mp-src
export YASMIN_CACHE_DIR=/tmp/yc
timeout 120 "$Y" --backend=cuda --gpu-mode=farm -q instances/queens.aspif > /dev/null 2>&1
bench() { python3 scripts/parallel_bench.py --yasmin "$Y" --python python3 --timeout "${T:-15}" --jobs 12 "$@" /tmp/mp-ground/*.aspif; }
(sleep "$(( ${T:-15} / 2 ))"; nvidia-smi --query-gpu=memory.used,utilization.gpu --format=csv > "$OUT/gpu-halfway.txt") &
bench --out "$OUT/default.csv" --config yasmin > "$OUT/default.txt" 2>&1
wait
bench --out "$OUT/cpu.csv" --config 'yasmin --backend=cpu' > "$OUT/cpu.txt" 2>&1
tail -n 4 "$OUT/default.txt" "$OUT/cpu.txt"; cat "$OUT/gpu-halfway.txt"
