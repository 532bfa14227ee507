#!/bin/bash
# Integrity constraints over counts translated into counters (--trans-ext, nogoods/translation.rs)
# against kept native (--trans-ext=no), clingo in the same run: bootstrap percolation
# (../farm/recursive-h200/gen.py N 5 K 3 SEED: 16 instances of 100 nodes, 8 of 120, near the
# threshold), and the four instances of ../../../shared/bench ground by clingo 5.8.3's gringo where
# the translation applies (aspcomp Sokoban 0308, ValvesLocationProblem 0004, 0024, 0039) with two
# shuffled copies of each (scripts/shuffle_aspif.py). One search, T seconds (60), J runs at a time
# (15) on the GPU machine's 16 cores. Inputs xz-compressed and the stripped binary in .bench/tx,
# clingo's wheels in .whl. From the repository root:
#   [T=60] [J=15] OUT=DIR bash benchmarks/translation/run.sh
cd "$(dirname "$0")/../.."
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site
mkdir -p $OUT /tmp/tx
for f in .bench/tx/*.xz; do xz -dc $f > /tmp/tx/$(basename $f .xz); done
ls /tmp/tx/aspcomp*.aspif | xargs -P 4 -n 1 python3 scripts/shuffle_aspif.py --copies 2 --out /tmp/tx
python3 scripts/parallel_bench.py --yasmin .bench/tx/yasmin --python python3 --jobs ${J:-15} --timeout ${T:-60} \
  --out $OUT/translation.csv --config clingo --config 'yasmin --trans-ext=no --stats' --config 'yasmin --stats' \
  /tmp/tx/*.aspif > $OUT/translation.txt 2>&1
tail -4 $OUT/translation.txt
