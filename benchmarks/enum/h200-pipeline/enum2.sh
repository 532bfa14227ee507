#!/bin/bash
# Two rounds of the -q benchmark at d755583 (the phase word padded), then the GPU checks.
cd "$(dirname "$0")/.."
python3 -m pip install -q --no-index --find-links .whl clingo 2>&1 | tail -1
for r in 1 2; do
python3 scripts/enum_bench.py --python python3 --yasmin .gpu/yasmin --timeout 40 --outputs q \
  --config clingo --config 'yasmin --backend=cpu' --config 'yasmin --backend=cpu --verify-thread=0' \
  --program sub:22 --program sub:24 --program colouring:30:2.5 --program dag:18 --program queens:12 \
  --out $OUT/enum2-q-$r.csv 2>&1 | tail -8
done
OUT=$OUT/res CHECKS=tests,sanitize,diff DIFF_PROGRAMS=100 REGRESSIONS_LIMIT=5 timeout 420 bash scripts/gpu_checks.sh > $OUT/gpu_checks.txt 2>&1; echo "gpu_checks rc=$?"
