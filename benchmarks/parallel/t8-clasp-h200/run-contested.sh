#!/bin/bash
# A second round on the 22 instances of contested.txt (those of run.sh's run where some -t 8
# run took over 2 s or timed out, and some solved it; PermutationPatternMatching 0042, solved by all three in 6 to 8 s, left out for the 64 MiB the device takes): clingo -t 8 against yasmin -t 8 (clasp's
# portfolio in clasp's order, tweety first), 25 s, two runs at a time. Ground programs gzipped in
# .bench/c, the stripped binary in .bench/y, clingo's wheels in .whl. Output under $OUT.
cd "$(dirname "$0")/../../.."
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site PYTHONUNBUFFERED=1
mkdir -p /tmp/c $OUT
for f in .bench/c/*.aspif.gz; do zcat $f > /tmp/c/$(basename $f .gz); done
python3 scripts/parallel_bench.py --yasmin .bench/y --python python3 --jobs 2 --timeout 25 --out $OUT/t8-contested.csv \
  --config 'clingo -t 8' --config 'yasmin --backend=cpu -t 8' /tmp/c/*.aspif > $OUT/t8-contested.txt 2>&1
tail -3 $OUT/t8-contested.txt
