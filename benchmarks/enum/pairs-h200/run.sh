#!/bin/bash
# #27's short enumerations with at-most-ones spelled out as binary nogoods (--pair-at-most-one,
# on by default where models are enumerated) against the build before (.bench/yold, b6a6142:
# native weight constraints): queens 12 and 13 and Hamiltonian cycles of 14 nodes, -q -n 0, one
# run at a time, 20 s, on the H200 machine: 8 CPU searches and the default -t 8 (the search farm)
# against clingo -t 8, two rounds; then one search against clingo's, on queens 12 and Hamiltonian
# 14. The new binary in .gpu/yasmin (scripts/gpu_bundle.sh), clingo 5.8.3's wheels in .whl.
# From the repository root: OUT=DIR bash benchmarks/enum/pairs-h200/run.sh
cd "$(dirname "$0")/../../.."
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site YASMIN_CACHE_DIR=/tmp/yc
mkdir -p "$OUT"
for b in .gpu/yasmin .bench/yold; do $b --backend=cuda --gpu-mode=farm -q -n 0 instances/queens.aspif > /dev/null; done
for r in 1 2; do
  python3 scripts/enum_bench.py --yasmin .gpu/yasmin --python python3 --timeout 20 --outputs q --out "$OUT/round$r.csv" \
    --config 'clingo -t 8' --config 'yasmin@.bench/yold --backend=cpu -t 8' --config 'yasmin --backend=cpu -t 8' \
    --config 'yasmin@.bench/yold -t 8' --config 'yasmin -t 8' \
    --program queens:12 --program queens:13 --program hamiltonian:14:6 2>&1 | tee "$OUT/round$r.txt"
done
python3 scripts/enum_bench.py --yasmin .gpu/yasmin --python python3 --timeout 20 --outputs q --out "$OUT/one.csv" \
  --config clingo --config 'yasmin@.bench/yold --backend=cpu' --config 'yasmin --backend=cpu' \
  --program queens:12 --program hamiltonian:14:6 2>&1 | tee "$OUT/one.txt"
