#!/bin/bash
# #27: split mode's searches counting models (-t 8 -q -n 0) with each search's checks in a thread
# beside it (portfolio/checks_aside.rs; the default where the machine has 16 cores) against the
# checks in the searches' threads (--verify-thread=0, as before), 8 CPU searches alone
# (--backend=cpu) and the default beside the farm, with the build before (.bench/yrel, 9949171)
# and clingo -t 8 in the same run; -q -n 0, one run at a time, ROUNDS rounds (default 3), 40 s, on
# the H200 machine. The new binary in .gpu/yasmin (scripts/gpu_bundle.sh), clingo 5.8.3's wheels
# in .whl, the programs ground by scripts/enum_bench.py into .bench/g.
# From the repository root: OUT=DIR bash benchmarks/enum/checks-aside-h200/run.sh
cd "$(dirname "$0")/../../.."
. benchmarks/enum/device.sh
for r in $(seq "${ROUNDS:-3}"); do
  bench --out "$OUT/round$r.csv" \
    --config 'clingo -t 8' --config 'yasmin -t 8 --backend=cpu --verify-thread=0' \
    --config 'yasmin -t 8 --backend=cpu' --config 'yasmin@.bench/yrel -t 8' --config 'yasmin -t 8' \
    --program queens:12 --program hamiltonian:14:6 --program colouring:30:2.5 --program sub:22 \
    --program dag:16 | tee "$OUT/round$r.txt"
done
