#!/bin/bash
# ../shared/bench's 56 (anchor and the 20 more of ../t8-h200-ab5b0aa/more-instances.txt), on the
# GPU machine's 16 cores, all in one run:
#   1. -t 8, 25 s, two runs at a time: clingo -t 8, yasmin -t 8 (the default portfolio: the
#      options given, clasp's searches 1 to 7, tweety), and clasp's eight read from clasp8.txt
#      (tweety first);
#   2. one search, 60 s, sixteen at a time: clingo and yasmin.
# Sources in .bench/src and .bench/src2 (encoding NAME.enc, instance NAME__*.asp), ground here by
# clingo 5.8.3's gringo (wheels in .whl); the stripped binary in .bench/y. Output under $OUT.
cd "$(dirname "$0")/../../.."
mkdir -p $OUT
t0=$(date +%s)
source benchmarks/ground.sh /tmp/g .bench/src .bench/src2
python3 scripts/parallel_bench.py --yasmin .bench/y --python python3 --jobs 2 --timeout 25 --out $OUT/t8.csv \
  --config 'clingo -t 8' --config 'yasmin --backend=cpu -t 8' \
  --config 'yasmin --backend=cpu -t 8 --configuration=benchmarks/parallel/clasp-portfolio/clasp8.txt' \
  /tmp/g/*.aspif > $OUT/t8.txt 2>&1
echo "-t 8 done at $(( $(date +%s) - t0 )) s"; tail -3 $OUT/t8.txt
python3 scripts/parallel_bench.py --yasmin .bench/y --python python3 --jobs 16 --timeout 60 --out $OUT/t1.csv \
  --config 'clingo' --config 'yasmin --backend=cpu' /tmp/g/*.aspif > $OUT/t1.txt 2>&1
echo "one search done at $(( $(date +%s) - t0 )) s"; tail -3 $OUT/t1.txt
