#!/bin/bash
# #27's short enumerations, where the GPU's start-up counts: queens 12 and 13, Hamiltonian cycles
# of 14 nodes, and dag:18 (one search against clingo's), -q -n 0, one run at a time, two rounds,
# 20 s, on the H200 machine. Against clingo 1 and 8 threads: the CPU engine (one search, 8 split
# searches), the default -t 8 (the search farm enumerates), and the same with the build before
# (.bench/yold: the driver's teardown at the end of every run that searched on the GPU). Then the
# teardown under compute-sanitizer (CUDA_INJECTION64_PATH set there), which must stay.
# The new binary in .gpu/yasmin (scripts/gpu_bundle.sh), clingo 5.8.3's wheels in .whl.
# From the repository root: OUT=DIR bash benchmarks/enum/short-h200/run.sh
cd "$(dirname "$0")/../../.."
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site YASMIN_CACHE_DIR=/tmp/yc
mkdir -p "$OUT"
# The kernels compiled once (NVRTC), then cached on disk for both binaries.
for b in .gpu/yasmin .bench/yold; do $b --backend=cuda --gpu-mode=farm -q -n 0 instances/queens.aspif > /dev/null; done
configs=(--config clingo --config 'clingo -t 8' --config 'yasmin --backend=cpu' --config 'yasmin --backend=cpu -t 8'
  --config 'yasmin@.bench/yold -t 8' --config 'yasmin -t 8')
for r in 1 2; do
  python3 scripts/enum_bench.py --yasmin .gpu/yasmin --python python3 --timeout 20 --outputs q --out "$OUT/round$r.csv" \
    "${configs[@]}" --program queens:12 --program queens:13 --program hamiltonian:14:6 --program dag:18 2>&1 | tee "$OUT/round$r.txt"
done
env | grep -c CUDA_INJECTION64_PATH
compute-sanitizer --tool memcheck env | grep -E "^CUDA_INJECTION64_PATH" | cut -c1-80
compute-sanitizer --tool memcheck --error-exitcode 99 .gpu/yasmin --backend=cuda --gpu-mode=farm --gpu-searches=2 -q -n 0 \
  instances/queens.aspif 2>&1 | tail -3 | tee "$OUT/sanitizer.txt"
