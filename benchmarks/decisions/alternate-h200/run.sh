#!/bin/bash
# One search, 60 s, sixteen runs at a time on the GPU machine's 16 cores: clingo and yasmin's
# default (auto: on these tight programs that optimize nothing, rules and variables by turns) on
# ../shared/bench's 56 instances (those of ../../parallel/t8-clasp-h200), and the former default,
# --decisions=rules, on the 23 tight ones of ../tight-vm/instances.txt, where auto meant rules.
# Sources in .bench/src and .bench/src2 (encoding NAME.enc, instance NAME__*.asp), ground here by
# clingo 5.8.3's gringo (wheels in .whl); the stripped binary in .bench/y. Output under $OUT.
cd "$(dirname "$0")/../../.."
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site PYTHONUNBUFFERED=1
mkdir -p /tmp/g $OUT
t0=$(date +%s)
ls .bench/src/*.asp .bench/src2/*.asp | xargs -P 16 -I{} bash -c 'f={}; d=$(dirname $f); b=$(basename $f .asp); enc=$d/${b%%__*}.enc; timeout 150 python3 -m clingo --mode=gringo $enc $f > /tmp/g/$b.aspif 2>/dev/null || rm -f /tmp/g/$b.aspif'
echo "ground $(ls /tmp/g | wc -l) in $(( $(date +%s) - t0 )) s"
tight=(); for i in $(cat benchmarks/decisions/tight-vm/instances.txt); do tight+=("/tmp/g/$i.aspif"); done
python3 scripts/parallel_bench.py --yasmin .bench/y --python python3 --jobs 16 --timeout 60 --out $OUT/t1.csv \
  --config 'clingo' --config 'yasmin' /tmp/g/*.aspif > $OUT/t1.txt 2>&1
echo "clingo and the default done at $(( $(date +%s) - t0 )) s"; tail -3 $OUT/t1.txt
python3 scripts/parallel_bench.py --yasmin .bench/y --python python3 --jobs 16 --timeout 60 --out $OUT/rules.csv \
  --config 'yasmin --decisions=rules' "${tight[@]}" > $OUT/rules.txt 2>&1
echo "rules done at $(( $(date +%s) - t0 )) s"; tail -3 $OUT/rules.txt
