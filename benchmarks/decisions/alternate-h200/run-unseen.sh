#!/bin/bash
# Decisions by turns checked on instances the choice was not made on: 88 of ../shared/bench's
# tight families that optimize nothing (8 a family, evenly spaced among those not in the 56;
# unseen.txt names them), one search, 30 s, sixteen runs at a time on the GPU machine's 16 cores:
# clingo, yasmin's default (auto: by turns there) and --decisions=rules (auto's former choice).
# Sources in .bench/src3 (encoding NAME.enc, instance NAME__*.asp, copied from ../shared/bench),
# ground here by clingo 5.8.3's gringo (wheels in .whl); the stripped binary in .bench/y.
cd "$(dirname "$0")/../../.."
mkdir -p $OUT
t0=$(date +%s)
source benchmarks/ground.sh /tmp/g3 .bench/src3
python3 scripts/parallel_bench.py --yasmin .bench/y --python python3 --jobs 16 --timeout 30 --out $OUT/unseen.csv \
  --config 'clingo' --config 'yasmin --backend=cpu' --config 'yasmin --backend=cpu --decisions=rules' /tmp/g3/*.aspif > $OUT/unseen.txt 2>&1
echo "done at $(( $(date +%s) - t0 )) s"; tail -3 $OUT/unseen.txt
