#!/bin/bash
# anchor + 21 more (.bench/src2: one more instance of each anchor family, three of aspcomp
# PermutationPatternMatching, RicochetRobots and Sokoban), one search, 30 s, 15 at a time: clingo,
# yasmin, and clasp's scoring tried in a prototype build of 69bda19 (not kept): .bench/ymin runs it
# with Y_MIN=1 (bump only the learned nogood's variables, clasp's --score-res=min), .bench/yminloop
# with Y_MIN=1 Y_LOOP=1 (also those of each loop nogood, clasp's --score-other=loop).
cd "$(dirname "$0")/../../.."
mkdir -p $OUT
t0=$(date +%s)
source benchmarks/ground.sh /tmp/g .bench/src .bench/src2
python3 scripts/parallel_bench.py --yasmin .bench/y --python python3 --jobs 15 --timeout 30 --out $OUT/score.csv \
  --config 'clingo' --config 'yasmin --backend=cpu' --config 'yasmin@.bench/ymin --backend=cpu' --config 'yasmin@.bench/yminloop --backend=cpu' /tmp/g/*.aspif > $OUT/score.txt 2>&1
echo "took $(( $(date +%s) - t0 )) s"; tail -14 $OUT/score.txt
