#!/bin/bash
# anchor + 21 more (.bench/src2: one more instance of each anchor family, three of aspcomp
# PermutationPatternMatching, RicochetRobots and Sokoban), one search, 30 s, 15 at a time: clingo,
# yasmin, and clasp's scoring tried in a prototype build of 69bda19 (not kept): .bench/ymin runs it
# with Y_MIN=1 (bump only the learned nogood's variables, clasp's --score-res=min), .bench/yminloop
# with Y_MIN=1 Y_LOOP=1 (also those of each loop nogood, clasp's --score-other=loop).
cd "$(dirname "$0")/.."
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site
mkdir -p /tmp/g $OUT
t0=$(date +%s)
ls .bench/src/*.asp .bench/src2/*.asp | xargs -P 16 -I{} bash -c 'f={}; d=$(dirname $f); b=$(basename $f .asp); enc=$d/${b%%__*}.enc; timeout 150 python3 -m clingo --mode=gringo $enc $f > /tmp/g/$b.aspif 2>/dev/null || rm -f /tmp/g/$b.aspif'
echo "ground $(ls /tmp/g | wc -l) in $(( $(date +%s) - t0 )) s"
python3 scripts/parallel_bench.py --yasmin .bench/y --python python3 --jobs 15 --timeout 30 --out $OUT/score.csv \
  --config 'clingo' --config 'yasmin' --config 'yasmin@.bench/ymin' --config 'yasmin@.bench/yminloop' /tmp/g/*.aspif > $OUT/score.txt 2>&1
echo "took $(( $(date +%s) - t0 )) s"; tail -14 $OUT/score.txt
