#!/usr/bin/env bash
# How many searches the farm should run: --gpu-searches 264, 528, 1,056 (the default, 8 a
# multiprocessor on an H200's 132), 2,112 and 4,224 on six tight instances of ../shared/bench
# (.gpu/inst/NAME.aspif.gz, ground by clingo's gringo), 8 s each, one run at a time; the exit
# code (10 SAT, 20 UNSAT, else none), time and conflicts of all searches. Build with
# scripts/gpu_bundle.sh; output in $OUT/searches.csv.
cd "$(dirname "$0")/../../.."
export YASMIN_CACHE_DIR=/tmp/yc
timeout 60 .gpu/yasmin --backend=cuda --gpu-mode=farm -q tests/conformance/tight/4-queens.smodels > /dev/null 2>&1
mkdir -p /tmp/inst $OUT; for g in .gpu/inst/*.gz; do gunzip -c $g > /tmp/inst/$(basename $g .gz); done
echo "searches,instance,exit,time_ms,conflicts" > $OUT/searches.csv
for n in 264 528 1056 2112 4224; do
    for f in /tmp/inst/*.aspif; do
        s=$(date +%s%N)
        timeout -s KILL 20 .gpu/yasmin --backend=cuda --gpu-mode=farm --gpu-searches=$n --time-limit=8 --stats -q $f > /tmp/r.txt 2>&1
        rc=$?
        e=$(date +%s%N)
        echo "$n,$(basename $f .aspif),$rc,$(( (e - s) / 1000000 )),$(grep -E '^Conflicts' /tmp/r.txt | tr -s ' ' | cut -d' ' -f3)" >> $OUT/searches.csv
    done
done
