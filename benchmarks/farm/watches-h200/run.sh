#!/usr/bin/env bash
# The farm on the 18 tight instances, 10 s, one at a time; then the GPU checks.
# Ground the 18 instances (benchmarks/farm/split-h100/farm.csv names them) from ../shared/bench
# with clingo's gringo into .gpu/inst/NAME.aspif.gz; build with scripts/gpu_bundle.sh. The old
# build's rows come from the same script with .gpu/yasmin-old (d5f89eb), the same H200 host.
cd "$(dirname "$0")/../../.."
O=/tmp/o39; mkdir -p $O
export YASMIN_CACHE_DIR=/tmp/yc
timeout 60 .gpu/yasmin --backend=cuda --gpu-mode=farm -q tests/conformance/tight/4-queens.smodels > /dev/null 2>&1
mkdir -p /tmp/inst; for g in .gpu/inst/*.gz; do gunzip -c $g > /tmp/inst/$(basename $g .gz); done
for f in /tmp/inst/*.aspif; do
    n=$(basename $f .aspif)
    s=$(date +%s%N)
    timeout -s KILL 20 .gpu/yasmin --backend=cuda --gpu-mode=farm --time-limit=10 --stats -V -q $f > $O/r.txt 2>&1
    rc=$?
    e=$(date +%s%N)
    echo "yasmin,$n,$rc,$(( (e - s) / 1000000 ))ms,$(grep -E '^Conflicts' $O/r.txt | tr -s ' ' | cut -d' ' -f3),$(grep -o 'searches. time in.*' $O/r.txt | head -1 | sed 's/searches. time in //;s/,/;/g')"
done > $O/farm18.csv
echo FARMDONE >> $O/farm18.csv
OUT=$O/checks CHECKS=tests,sanitize,diff DIFF_PROGRAMS=100 REGRESSIONS_LIMIT=60 bash scripts/gpu_checks.sh > $O/checks.log 2>&1
echo ALLDONE >> $O/checks.log
