#!/bin/bash
# #27: acyclic orientations (dag:N, #edge) enumerated by one search and by 8, after the CPU
# engine's acyclicity propagator stopped searching backward where no unassigned edge can close a
# cycle (engine/cpu/acyclic.rs), against main before (.bench/yold, 53ff334); clingo -t 1 and -t 8
# in the same run; -q -n 0, one run at a time, ROUNDS rounds (default 2), 40 s, on the H200
# machine. The new binary in .gpu/yasmin (scripts/gpu_bundle.sh), clingo 5.8.3's wheels in .whl,
# the programs ground by scripts/enum_bench.py into .bench/g.
# From the repository root: OUT=DIR bash benchmarks/enum/acyclic-h200/run.sh
cd "$(dirname "$0")/../../.."
. benchmarks/enum/device.sh
for r in $(seq "${ROUNDS:-2}"); do
  bench --out "$OUT/round$r.csv" \
    --config clingo --config 'clingo -t 8' \
    --config 'yasmin@.bench/yold' --config yasmin \
    --config 'yasmin@.bench/yold -t 8' --config 'yasmin -t 8' \
    --program dag:16 --program dag:18 | tee "$OUT/round$r.txt"
done
