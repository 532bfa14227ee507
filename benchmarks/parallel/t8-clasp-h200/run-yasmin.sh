#!/bin/bash
# run.sh's yasmin configurations alone, on the programs it ground in /tmp/g (its yasmin runs
# found no binary the first time: the clingo rows of its t8.csv and t1.csv stand).
cd "$(dirname "$0")/../../.."
export PYTHONUNBUFFERED=1
mkdir -p $OUT
t0=$(date +%s)
python3 scripts/parallel_bench.py --yasmin .bench/y --python python3 --jobs 2 --timeout 25 --out $OUT/t8-yasmin.csv \
  --config 'yasmin --backend=cpu -t 8' \
  --config 'yasmin --backend=cpu -t 8 --configuration=benchmarks/parallel/clasp-portfolio/clasp8.txt' \
  /tmp/g/*.aspif > $OUT/t8-yasmin.txt 2>&1
echo "-t 8 done at $(( $(date +%s) - t0 )) s"; tail -3 $OUT/t8-yasmin.txt
python3 scripts/parallel_bench.py --yasmin .bench/y --python python3 --jobs 16 --timeout 60 --out $OUT/t1-yasmin.csv \
  --config 'yasmin --backend=cpu' /tmp/g/*.aspif > $OUT/t1-yasmin.txt 2>&1
echo "one search done at $(( $(date +%s) - t0 )) s"; tail -3 $OUT/t1-yasmin.txt
