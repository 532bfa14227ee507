#!/bin/bash
# #27, an experiment not kept (a8b370d, reverted in the next commit): the farm beside 8 CPU
# searches (-t 8 -n 0, the default with a GPU) gives back the parts it
# took where they make fewer cubes than it has searches (portfolio/farm_member.rs), against the
# build before (.bench/yrel, 9949171: the driver's files already left to a child at the end),
# 8 CPU searches alone (--backend=cpu) and clingo -t 8 in the same run; -q -n 0, one run at a
# time, ROUNDS rounds (default 3) of the short programs and 2 of queens 14 and Hamiltonian 15
# (without clingo, which takes 15 to 20 s on them), 40 s, on the H200 machine. The new binary in
# .gpu/yasmin (scripts/gpu_bundle.sh at a8b370d), clingo 5.8.3's wheels in .whl, the programs ground by
# scripts/enum_bench.py into .bench/g.
# From the repository root: OUT=DIR bash benchmarks/enum/farm-hands-back-h200/run.sh
cd "$(dirname "$0")/../../.."
. benchmarks/enum/device.sh
for r in $(seq "${ROUNDS:-3}"); do
  bench --out "$OUT/short$r.csv" --config 'clingo -t 8' --config 'yasmin@.bench/yrel -t 8' \
    --config 'yasmin -t 8' --config 'yasmin -t 8 --backend=cpu' \
    --program queens:12 --program hamiltonian:14:6 --program colouring:30:2.5 --program sub:22 \
    --program queens:13 | tee "$OUT/short$r.txt"
done
for r in 1 2; do
  bench --out "$OUT/long$r.csv" --config 'yasmin@.bench/yrel -t 8' --config 'yasmin -t 8' \
    --program queens:14 --program hamiltonian:15:6 | tee "$OUT/long$r.txt"
done
