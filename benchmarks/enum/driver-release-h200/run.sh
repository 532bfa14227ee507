#!/bin/bash
# #27: short -t 8 -n 0 runs after the driver's files are left to a child at the process' end
# (engine/cuda/release.rs), against main before (.bench/yold), 8 CPU searches alone
# (--backend=cpu) and clingo -t 8 in the same run; -q -n 0, one run at a time, ROUNDS rounds
# (default 3), 40 s, on the H200 machine. The new binary in .gpu/yasmin (scripts/gpu_bundle.sh),
# clingo 5.8.3's wheels in .whl, the programs ground by scripts/enum_bench.py into .bench/g.
# From the repository root: OUT=DIR bash benchmarks/enum/driver-release-h200/run.sh
cd "$(dirname "$0")/../../.."
. benchmarks/enum/device.sh
for r in $(seq "${ROUNDS:-3}"); do
  bench --out "$OUT/round$r.csv" \
    --config 'clingo -t 8' --config 'yasmin@.bench/yold -t 8' --config 'yasmin -t 8' \
    --config 'yasmin -t 8 --backend=cpu' \
    --program queens:12 --program hamiltonian:14:6 --program colouring:30:2.5 --program sub:22 \
    --program dag:16 --program queens:13 | tee "$OUT/round$r.txt"
done
