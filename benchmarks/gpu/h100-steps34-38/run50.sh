#!/usr/bin/env bash
# Device run 50: main's head plus the fix of the round's count resets (.gpu/s39: a count is reset only where it is not 0,
# after the barrier that follows its last read; step 35 had the leader reset a count of 0 that other threads might
# still be reading, which racecheck reported on queens in run 49). racecheck on queens, pigeonhole 4 and 5 (res, fwd);
# GPU tests, memcheck, a CUDA differential; a short A/B against .gpu/s38. Hard kills.
cd "$(dirname "$0")/.."
set -u
mkdir -p $OUT/keep
tar xJf .gpu/inst.tar.xz -C .gpu && mkdir -p /tmp/sh && tar xzf .gpu/conf.tar.gz -C /tmp/sh
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl 2>&1 | tail -1; export PYTHONPATH=/tmp/site
export YASMIN_SHARED=/tmp/sh/shared YASMIN_REPO=$PWD YASMIN_CACHE_DIR=/tmp/yc
I=.gpu/inst
K="timeout -s KILL"
B=.gpu/s39
for b in s38 s39; do $K 30 .gpu/$b/yasmin --backend=cuda -q instances/queens.aspif > /dev/null 2>&1; done
rc() { # name, limit, learning, file
  $K $2 compute-sanitizer --tool racecheck --racecheck-report hazard $B/yasmin --backend=cuda --learning=$3 -q $4 > $OUT/keep/racecheck-$1-$3.txt 2>&1
  echo "racecheck $1 $3 rc=$?: $(grep -E '^(SATIS|UNSAT|UNKNOWN)|RACECHECK SUMMARY' $OUT/keep/racecheck-$1-$3.txt | head -3 | tr '\n' '|') hazards: $(grep -c 'hazard detected' $OUT/keep/racecheck-$1-$3.txt)"
}
for L in res fwd; do rc queens 60 $L instances/queens.aspif; rc ph4 60 $L .gpu/ph4.aspif; done
rc ph5 120 res .gpu/ph5.aspif
one() { # name, limit, command...
  local n=$1 t=$2; shift 2
  $K $t "$@" > $OUT/keep/$n.txt 2>&1; echo "$n rc=$?: $(grep -E '^(SATIS|UNSAT|UNKNOWN)|ERROR SUMMARY|test result|panicked' $OUT/keep/$n.txt | head -4 | cut -c1-200 | tr -s ' ' | tr '\n' '|')"
}
YASMIN_GPU_DIFF_PROGRAMS=300 one gpu-tests 90 $B/gpu-tests --test-threads=4
YASMIN_GPU_DIFF_PROGRAMS=60 one gpu-tests-debug 90 $B/gpu-tests-debug --test-threads=4
one memcheck-res 40 compute-sanitizer --tool memcheck --show-backtrace no $B/yasmin --backend=cuda -n1 -q --time-limit=3 $I/ppm-200.aspif
one memcheck-fwd 40 compute-sanitizer --tool memcheck --show-backtrace no $B/yasmin --backend=cuda --learning=fwd -q --time-limit=3 $I/pigeonhole-8.aspif
YASMIN_BIN=$PWD/$B/yasmin YASMIN_PYTHON=python3 YASMIN_DIFF_BACKEND=cuda YASMIN_DIFF_PROGRAMS=50 YASMIN_DIFF_PROJECTED=20 YASMIN_DIFF_THREADS=8 $K 120 $B/differential-tests yasmin_agrees > $OUT/keep/diff.txt 2>&1
echo "differential rc=$?: $(grep -E "test result|differential: [0-9]+ programs|disagree" $OUT/keep/diff.txt | tail -2 | sed -E 's/; features:.*//' | cut -c1-250 | tr '\n' '|')"
for b in s38 s39; do
  for L in res fwd; do
    f=$OUT/keep/ab-$b-$L.txt
    $K 12 .gpu/$b/yasmin --backend=cuda --learning=$L --stats -q --time-limit=5 $I/pigeonhole-9.aspif > $f 2>&1
    echo "$b $L pigeonhole-9: $(grep -E '^Conflicts' $f | tr -s ' ')"
  done
  f=$OUT/keep/ab-$b-gc6.txt
  $K 12 .gpu/$b/yasmin --backend=cuda --stats -q --time-limit=5 $I/GraphColouring_0006.aspif > $f 2>&1
  echo "$b res GraphColouring_0006: $(grep -E '^Conflicts' $f | tr -s ' ')"
done
