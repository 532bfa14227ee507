#!/bin/bash
# Decisions by turns checked on instances the choice was not made on: 88 of ../shared/bench's
# tight families that optimize nothing (8 a family, evenly spaced among those not in the 56;
# unseen.txt names them), one search, 30 s, sixteen runs at a time on the GPU machine's 16 cores:
# clingo, yasmin's default (auto: by turns there) and --decisions=rules (auto's former choice).
# Sources in .bench/src3 (encoding NAME.enc, instance NAME__*.asp, copied from ../shared/bench),
# ground here by clingo 5.8.3's gringo (wheels in .whl); the stripped binary in .bench/y.
cd "$(dirname "$0")/../../.."
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site PYTHONUNBUFFERED=1
mkdir -p /tmp/g3 $OUT
t0=$(date +%s)
ls .bench/src3/*.asp | xargs -P 16 -I{} bash -c 'f={}; d=$(dirname $f); b=$(basename $f .asp); enc=$d/${b%%__*}.enc; timeout 150 python3 -m clingo --mode=gringo $enc $f > /tmp/g3/$b.aspif 2>/dev/null || rm -f /tmp/g3/$b.aspif'
echo "ground $(ls /tmp/g3 | wc -l) in $(( $(date +%s) - t0 )) s"
python3 scripts/parallel_bench.py --yasmin .bench/y --python python3 --jobs 16 --timeout 30 --out $OUT/unseen.csv \
  --config 'clingo' --config 'yasmin' --config 'yasmin --decisions=rules' /tmp/g3/*.aspif > $OUT/unseen.txt 2>&1
echo "done at $(( $(date +%s) - t0 )) s"; tail -3 $OUT/unseen.txt
