#!/usr/bin/env bash
# Device run 35: racecheck of both propagation kernels where they analyse conflicts (pigeonhole-6, about 800
# conflicts), and the CUDA differential run to its end, with .gpu/s33 (branch wip/steps29-30). Hard kills.
cd "$(dirname "$0")/.."
set -u
B=./.gpu/s33
mkdir -p /tmp/sh && tar xzf .gpu/conf.tar.gz -C /tmp/sh
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl && export PYTHONPATH=/tmp/site
export YASMIN_SHARED=/tmp/sh/shared YASMIN_REPO=$PWD YASMIN_CACHE_DIR=/tmp/yc YASMIN_BIN=$PWD/.gpu/s33/yasmin
K="timeout -s KILL"
$K 20 $B/yasmin --backend=cuda -q instances/queens.aspif > /dev/null 2>&1
one() { # name, limit, command...
  local n=$1 t=$2; shift 2
  $K $t "$@" > $OUT/$n.txt 2>&1; echo "$n rc=$?: $(grep -E '^(SATIS|UNSAT|UNKNOWN)|^Conflicts|ERROR SUMMARY|RACECHECK SUMMARY|ERROR:|WARN|test result|panicked|CUDA engine time' $OUT/$n.txt | sed -E 's/.*CUDA engine time: //; s/; unfounded.*//' | head -5 | cut -c1-330 | tr -s ' ' | tr '\n' '|')" | tee -a $OUT/summary.txt
}
for l in res fwd; do one ph6-$l 10 $B/yasmin --backend=cuda --learning=$l --stats -V -q .gpu/ph6.aspif; done
one racecheck-res 190 compute-sanitizer --tool racecheck --show-backtrace no $B/yasmin --backend=cuda --stats -V -q .gpu/ph6.aspif
one racecheck-fwd 150 compute-sanitizer --tool racecheck --show-backtrace no $B/yasmin --backend=cuda --learning=fwd --stats -V -q .gpu/ph6.aspif
YASMIN_PYTHON=python3 YASMIN_DIFF_BACKEND=cuda YASMIN_DIFF_PROGRAMS=40 YASMIN_DIFF_PROJECTED=40 YASMIN_DIFF_THREADS=8 $K 190 $B/differential-tests > $OUT/diff_full.txt 2>&1
echo "differential rc=$?: $(grep -E "test result|differential: [0-9]+ programs|panicked|disagree" $OUT/diff_full.txt | tail -4 | sed -E 's/; features:.*//' | cut -c1-300 | tr '\n' '|')" | tee -a $OUT/summary.txt
