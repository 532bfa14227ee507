#!/usr/bin/env bash
# Device run 31: step 28 as one kernel per learning scheme (.gpu/s29: propagate_fix_k, propagate_fix_fwd_k). Hard kills everywhere.
cd "$(dirname "$0")/.."
set -u
B=./.gpu/s29
tar xJf .gpu/inst.tar.xz -C .gpu && mkdir -p /tmp/sh && tar xzf .gpu/conf.tar.gz -C /tmp/sh
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl && export PYTHONPATH=/tmp/site
export YASMIN_SHARED=/tmp/sh/shared YASMIN_REPO=$PWD YASMIN_CACHE_DIR=/tmp/yc YASMIN_BIN=$PWD/.gpu/s29/yasmin
I=.gpu/inst
K="timeout -s KILL"
$K 20 $B/yasmin --backend=cuda -q instances/queens.aspif > /dev/null 2>&1
one() { # name, limit, command...
  local n=$1 t=$2; shift 2
  $K $t "$@" > $OUT/$n.txt 2>&1; echo "$n rc=$?: $(grep -E '^(SATIS|UNSAT|UNKNOWN)|^Conflicts|ERROR SUMMARY|RACECHECK SUMMARY|ERROR:|WARN|test result|panicked|CUDA engine time' $OUT/$n.txt | sed -E 's/.*CUDA engine time: //; s/; unfounded.*//' | head -5 | cut -c1-330 | tr -s ' ' | tr '\n' '|')" | tee -a $OUT/summary.txt
}
YASMIN_GPU_DIFF_PROGRAMS=300 one gpu-tests 60 $B/gpu-tests --test-threads=4
YASMIN_GPU_DIFF_PROGRAMS=60 one gpu-tests-debug 60 $B/gpu-tests-debug --test-threads=4
for l in res fwd; do one ph8-$l 10 $B/yasmin --backend=cuda --learning=$l --stats -q --time-limit=6 $I/pigeonhole-8.aspif; done
for l in res fwd; do one memcheck-$l 30 compute-sanitizer --tool memcheck --show-backtrace no $B/yasmin --backend=cuda --learning=$l --stats -n1 -q --time-limit=3 $I/pigeonhole-8.aspif; done
for f in pigeonhole-9 GraphColouring_0006 Sokoban_0312; do for c in 0 8; do
  one ab-$f-fwd-c$c 8 $B/yasmin --backend=cuda --learning=fwd --gpu-conflicts=$c --stats -V -q --time-limit=4 $I/$f.aspif
done; done
one ab-pigeonhole-9-res-s29 8 $B/yasmin --backend=cuda --stats -V -q --time-limit=4 $I/pigeonhole-9.aspif
YASMIN_PYTHON=python3 YASMIN_DIFF_BACKEND=cuda YASMIN_DIFF_PROGRAMS=30 YASMIN_DIFF_PROJECTED=30 YASMIN_DIFF_THREADS=8 $K 70 $B/differential-tests > $OUT/diff_full.txt 2>&1
echo "differential rc=$?: $(grep -E "test result|differential: [0-9]+ programs|panicked|disagree" $OUT/diff_full.txt | tail -4 | sed -E 's/; features:.*//' | cut -c1-300 | tr '\n' '|')" | tee -a $OUT/summary.txt
