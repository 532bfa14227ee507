#!/bin/bash
# #27, an experiment not kept: the farm beside 8 CPU searches (-t 8 -q -n 0, the default with a
# GPU) with fewer threads checking its models (YCHK: 8 or 4, against one a core) and a smaller
# first take (YSPLIT1=2: the busy searches keep 1/4 of their parts, against 1/16), against main
# (cf2488b) and 8 CPU searches alone (--backend=cpu); ROUNDS rounds (default 8), one run at a
# time, 40 s, on the H200 machine. The build: main with knobs.patch applied (environment
# variables read by portfolio/farm_member.rs), stripped into .bench/exp/yasmin, and wrappers
# .bench/exp/{c8,c4,s2,c8s2} that set them and exec it; .gpu/yasmin is main (gpu_bundle.sh).
# From the repository root: OUT=DIR bash benchmarks/enum/farm-share-h200/run.sh
cd "$(dirname "$0")/../../.."
. benchmarks/enum/device.sh
for r in $(seq "${ROUNDS:-8}"); do
  bench --out "$OUT/round$r.csv" \
    --config 'yasmin -t 8' --config 'yasmin@.bench/exp/c8 -t 8' --config 'yasmin@.bench/exp/c4 -t 8' \
    --config 'yasmin@.bench/exp/s2 -t 8' --config 'yasmin@.bench/exp/c8s2 -t 8' --config 'yasmin -t 8 --backend=cpu' \
    --program queens:12 --program hamiltonian:14:6 --program queens:13 --program colouring:30:2.5 \
    --program sub:22 --program dag:16 > "$OUT/round$r.txt"
done
