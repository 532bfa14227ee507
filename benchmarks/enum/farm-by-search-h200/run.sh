#!/bin/bash
# #27: the farm's models checked on the host grouped by the search that found them (each model
# ring entry carries its search's number, `by_search` in engine/cuda/farm/mod.rs), against main
# before (.bench/yold, 131eee6): the farm alone (--backend=cuda --gpu-mode=farm) and the default
# -t 8 (the farm beside 8 CPU searches); clingo -t 8 in the same run; -q -n 0, one run each, one
# at a time, 25 s, on the H200 machine; then -V of the farm alone on Hamiltonian 15 and colouring
# 30 (where the host's time goes), the new build first. The new binary in .gpu/yasmin
# (scripts/gpu_bundle.sh), clingo 5.8.3's wheels in .whl, the programs ground by
# scripts/enum_bench.py's ground() into .bench/g (queens 13, 14; hamiltonian 14, 15 with degree 6;
# colouring 30, 2.5; {a(1..22)}).
# From the repository root: OUT=DIR bash benchmarks/enum/farm-by-search-h200/run.sh
cd "$(dirname "$0")/../../.."
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site YASMIN_CACHE_DIR=/tmp/yc
mkdir -p "$OUT"
for b in .gpu/yasmin .bench/yold; do $b --backend=cuda --gpu-mode=farm -q -n 0 instances/queens.aspif > /dev/null; done
for p in hamiltonian_15_6 colouring_30_2.5; do
  for b in .gpu/yasmin .bench/yold; do
    $b --backend=cuda --gpu-mode=farm -q -n 0 -V .bench/g/$p.aspif 2>&1 | grep -E "host waited|Time" >> "$OUT/$p-V.txt"
  done
done
python3 benchmarks/enum/farm-by-search-h200/bench.py "$OUT/farm-order.csv" 1 | tee "$OUT/farm-order.txt"
