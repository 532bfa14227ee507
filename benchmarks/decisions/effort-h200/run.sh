#!/bin/bash
# Turns measured by effort (now) against turns of conflicts (5b4905c, .bench/y_conflicts), with
# clingo in the same run: one search, sixteen runs at a time on the GPU machine's 16 cores. First
# ../shared/bench's 56 instances (those of ../../parallel/t8-clasp-h200), 60 s; then the 88 unseen
# tight ones of ../alternate-h200/unseen.txt, 30 s. Sources in .bench/src, .bench/src2 and
# .bench/src3 (encoding NAME.enc, instance NAME__*.asp), ground here by clingo 5.8.3's gringo
# (wheels in .whl); the stripped binaries in .bench/y and .bench/y_conflicts. Output under $OUT.
cd "$(dirname "$0")/../../.."
mkdir -p $OUT
t0=$(date +%s)
source benchmarks/ground.sh /tmp/g .bench/src .bench/src2
source benchmarks/ground.sh /tmp/g3 .bench/src3
configs=(--config 'clingo' --config 'yasmin --backend=cpu' --config 'yasmin@.bench/y_conflicts --backend=cpu')
python3 scripts/parallel_bench.py --yasmin .bench/y --python python3 --jobs 16 --timeout 60 --out $OUT/t1.csv \
  "${configs[@]}" /tmp/g/*.aspif > $OUT/t1.txt 2>&1
echo "the 56 done at $(( $(date +%s) - t0 )) s"; tail -4 $OUT/t1.txt
python3 scripts/parallel_bench.py --yasmin .bench/y --python python3 --jobs 16 --timeout 30 --out $OUT/unseen.csv \
  "${configs[@]}" /tmp/g3/*.aspif > $OUT/unseen.txt 2>&1
echo "unseen done at $(( $(date +%s) - t0 )) s"; tail -4 $OUT/unseen.txt
