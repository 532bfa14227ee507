#!/bin/bash
# Extended rules translated (--trans-ext, nogoods/translation.rs) against kept native, clingo in
# the same run. The inputs, xz-compressed in .bench/tx (with the stripped binary, clingo's wheels
# in .whl): bootstrap percolation (../farm/recursive-h200/gen.py N 5 K 3 SEED, 16 instances of 100
# nodes, seeds 1-4, K 15-18, and 8 of 120, seeds 1-2, K 19-22, near the threshold) and instances
# of ../../../shared/bench ground by clingo 5.8.3's gringo, each with COPIES (2) shuffled copies
# (scripts/shuffle_aspif.py). One search, T seconds (60), J runs at a time (15) on the GPU
# machine's 16 cores. The configurations are the arguments (default: clingo, --trans-ext=no,
# the default). From the repository root:
#   [T=60] [J=15] [COPIES=2] OUT=DIR bash benchmarks/translation/run.sh [--config '...' ...]
# h200/: the four instances where counters apply (aspcomp Sokoban 0308, ValvesLocationProblem 0004,
# 0024, 0039) with the default configurations, the default then translating integrity
# constraints only; h200-dynamic/: the seven RicochetRobots, whose small counts the default now
# spells out, with one copy, --config clingo --config 'yasmin --backend=cpu --trans-ext=integ --stats'
# --config 'yasmin --backend=cpu --stats'.
cd "$(dirname "$0")/../.."
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site
configs=("$@")
[ ${#configs[@]} -gt 0 ] || configs=(--config clingo --config 'yasmin --backend=cpu --trans-ext=no --stats' --config 'yasmin --backend=cpu --stats')
mkdir -p $OUT /tmp/tx
for f in .bench/tx/*.xz; do xz -dc $f > /tmp/tx/$(basename $f .xz); done
ls /tmp/tx/aspcomp*.aspif /tmp/tx/planning*.aspif 2>/dev/null \
  | xargs -r -P 4 -n 1 python3 scripts/shuffle_aspif.py --copies ${COPIES:-2} --out /tmp/tx
python3 scripts/parallel_bench.py --yasmin .bench/tx/yasmin --python python3 --jobs ${J:-15} --timeout ${T:-60} \
  --out $OUT/translation.csv "${configs[@]}" /tmp/tx/*.aspif > $OUT/translation.txt 2>&1
tail -4 $OUT/translation.txt
