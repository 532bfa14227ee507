#!/usr/bin/env bash
# #26's target on the whole of ../shared/bench: yasmin's default on the GPU machine (`yasmin -t 8`,
# --backend=auto: the farm racing 8 CPU searches, nogoods shared through the host, where it takes
# the task, the CPU engine elsewhere) against clingo -t 8 and yasmin's CPU engine (-t 8), in one
# run on the GPU machine. The 56 instances of ../../parallel/t8-clasp-h200 (anchor
# and the 20 more) in GX as benchmarks/ground.sh reads them: their sources (NAME.enc and
# NAME__INSTANCE.asp, which scripts/bench_sources.sh copies; 0.5 MB, ground there in 40 s without
# PermutationPatternMatching 0007, which takes longer), or ground before (NAME__INSTANCE.aspif.xz);
# a stripped yasmin at Y; clingo's wheels in .whl. T seconds a run (default 20), R rounds (default 1).
# GPU_CONFIGS picks the GPU's configurations, `;`-separated (default `yasmin -t 8`; the run at
# f0038bd had `yasmin --backend=cuda -t 8`, the grid taking what the farm does not).
#   1. clingo -t 8 and yasmin --backend=cpu -t 8, two runs at a time (8 cores each);
#   2. the GPU's configurations, one run at a time.
# A round of both takes about 15 minutes; in the background, polled within the device's idle time:
#   GX=.bench/src Y=.gpu/yasmin OUT=/tmp/whole bash benchmarks/farm/whole-h200/run.sh
# Output: $OUT/cpu.csv, $OUT/gpu.csv and their tables (cpu.txt, gpu.txt), then the summary of both.
set -u
cd "$(dirname "$0")/../../.."
: "${GX:?}" "${OUT:?}" "${Y:?}"
mkdir -p "$OUT"
t0=$(date +%s)
source benchmarks/ground.sh /tmp/whole "$GX"
export YASMIN_CACHE_DIR=/tmp/yc
# The kernels compiled (NVRTC, cached) before the first timed run.
for mode in grid farm; do timeout 120 "$Y" --backend=cuda --gpu-mode=$mode -q instances/queens.aspif > /dev/null 2>&1; done
bench() { python3 scripts/parallel_bench.py --yasmin "$Y" --python python3 --timeout "${T:-20}" --repeat "${R:-1}" "$@"; }
bench --jobs 2 --out "$OUT/cpu.csv" --config 'clingo -t 8' --config 'yasmin --backend=cpu -t 8' /tmp/whole/*.aspif > "$OUT/cpu.txt" 2>&1
echo "CPU configurations done at $(( $(date +%s) - t0 )) s"
IFS=';' read -ra gpu <<< "${GPU_CONFIGS:-yasmin -t 8}"
args=(); for c in "${gpu[@]}"; do args+=(--config "$c"); done
bench --jobs 1 --out "$OUT/gpu.csv" "${args[@]}" /tmp/whole/*.aspif > "$OUT/gpu.txt" 2>&1
echo "GPU configurations done at $(( $(date +%s) - t0 )) s"
python3 benchmarks/farm/whole-h200/summary.py "$OUT/cpu.csv" "$OUT/gpu.csv" "${T:-20}" | tee "$OUT/summary.txt"
