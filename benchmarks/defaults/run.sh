#!/bin/bash
# Defaults by measurement: anchor at 30 s, one search (decay and restarts as clasp's tweety), 15 at
# a time; then -t 8 against clingo -t 8 on anchor at 25 s, two at a time.
J=${J:-/tmp/job}
cd "$(dirname "$0")/../.."
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site
mkdir -p /tmp/eqg $J
t0=$(date +%s)
ls .farm/eq/src/*.asp | xargs -P 16 -I{} bash -c 'f={}; b=$(basename $f .asp); enc=.farm/eq/src/${b%%__*}.enc; timeout 150 python3 -m clingo --mode=gringo $enc $f > /tmp/eqg/$b.aspif 2>/dev/null || rm -f /tmp/eqg/$b.aspif'
echo "ground $(ls /tmp/eqg | wc -l) in $(( $(date +%s) - t0 )) s"
python3 scripts/parallel_bench.py --yasmin .gpu/yasmin --python python3 --jobs 15 --timeout 30 --out $J/anchor.csv \
  --config 'clingo --stats' --config 'yasmin --backend=cpu --stats' --config 'yasmin --backend=cpu --heuristic=Vsids,92 --stats' \
  --config 'yasmin --backend=cpu --restarts=L,60 --stats' --config 'yasmin --backend=cpu --heuristic=Vsids,92 --restarts=L,60 --stats' \
  /tmp/eqg/*.aspif > $J/anchor.txt 2>&1
echo "anchor took $(( $(date +%s) - t0 )) s"; tail -8 $J/anchor.txt
python3 scripts/parallel_bench.py --yasmin .gpu/yasmin --python python3 --jobs 2 --timeout 25 --out $J/t8.csv \
  --config 'clingo -t 8 --stats' --config 'yasmin --backend=cpu -t 8 --stats' /tmp/eqg/*.aspif > $J/t8.txt 2>&1
echo "all took $(( $(date +%s) - t0 )) s"; tail -6 $J/t8.txt
