#!/usr/bin/env bash
# Device run 87: the checks of main with parallel search (.gpu/s50): GPU tests in release (300 random
# programs) and debug builds, memcheck and racecheck under res and fwd, a CUDA differential against clingo 5.8.3 and the
# differential's regression test. Parallel search (-t) in two memchecks and a racecheck. PART=1: the tests and the
# sanitizers; PART=2: the differential and its regression test. Hard kills everywhere.
cd "$(dirname "$0")/../../.."
set -u
mkdir -p $OUT/keep
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/keep/gpu.txt
tar xJf .gpu/inst.tar.xz -C .gpu && mkdir -p /tmp/sh && tar xzf .gpu/conf.tar.gz -C /tmp/sh
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl 2>&1 | tail -1; export PYTHONPATH=/tmp/site
export YASMIN_SHARED=/tmp/sh/shared YASMIN_REPO=$PWD YASMIN_CACHE_DIR=/tmp/yc
I=.gpu/inst
K="timeout -s KILL"
B=.gpu/s50
$K 30 $B/yasmin --backend=cuda -q instances/queens.aspif > /dev/null 2>&1
one() { # name, limit, command...
  local n=$1 t=$2; shift 2
  $K $t "$@" > $OUT/keep/$n.txt 2>&1; echo "$n rc=$?: $(grep -E '^(SATIS|UNSAT|UNKNOWN)|ERROR SUMMARY|test result|panicked' $OUT/keep/$n.txt | head -4 | cut -c1-200 | tr -s ' ' | tr '\n' '|')"
}
if [ "${PART:-1}" = 1 ]; then
YASMIN_GPU_DIFF_PROGRAMS=300 one gpu-tests 120 $B/gpu-tests --test-threads=4
YASMIN_GPU_DIFF_PROGRAMS=60 one gpu-tests-debug 120 $B/gpu-tests-debug --test-threads=4
one memcheck-res-gc 40 compute-sanitizer --tool memcheck --show-backtrace no $B/yasmin --backend=cuda -q --time-limit=3 $I/GraphColouring_0006.aspif
one memcheck-fwd-ppm 40 compute-sanitizer --tool memcheck --show-backtrace no $B/yasmin --backend=cuda --learning=fwd -q --time-limit=3 $I/ppm-200.aspif
one memcheck-res-gc-t4 40 compute-sanitizer --tool memcheck --show-backtrace no $B/yasmin --backend=cuda -t 4 -q --time-limit=3 $I/GraphColouring_0006.aspif
one memcheck-res-lab-t4 60 compute-sanitizer --tool memcheck --show-backtrace no $B/yasmin --backend=cuda -t 4 -q --time-limit=5 $I/Labyrinth_0010.aspif
one memcheck-fwd-amo 40 compute-sanitizer --tool memcheck --show-backtrace no $B/yasmin --backend=cuda --learning=fwd -q -n 20 .gpu/amo1100.aspif
rc() { # name, learning, limit, file, flags...
  local n=$1 L=$2 t=$3 f=$4; shift 4
  $K $t compute-sanitizer --tool racecheck --racecheck-report hazard $B/yasmin --backend=cuda --learning=$L -q "$@" $f > $OUT/keep/racecheck-$n-$L.txt 2>&1
  echo "racecheck $n $L $* rc=$?: $(grep -E '^(SATIS|UNSAT|UNKNOWN)|RACECHECK SUMMARY' $OUT/keep/racecheck-$n-$L.txt | head -3 | tr '\n' '|') hazards: $(grep -c 'hazard detected' $OUT/keep/racecheck-$n-$L.txt)"
}
rc ph4 res 60 $I/pigeonhole-4.aspif; rc ph4-t2 res 60 $I/pigeonhole-4.aspif -t 2; rc ph4 fwd 60 $I/pigeonhole-4.aspif; rc wide40 fwd 60 .gpu/wide40.aspif -n0; rc amo1100 fwd 60 .gpu/amo1100.aspif -n 20
else
YASMIN_BIN=$PWD/$B/yasmin YASMIN_PYTHON=python3 YASMIN_DIFF_BACKEND=cuda YASMIN_DIFF_PROGRAMS=50 YASMIN_DIFF_PROJECTED=20 YASMIN_DIFF_THREADS=8 $K 100 $B/differential-tests yasmin_agrees > $OUT/keep/diff.txt 2>&1
echo "differential rc=$?: $(grep -E "test result|differential: [0-9]+ programs|disagree" $OUT/keep/diff.txt | tail -2 | sed -E 's/; features:.*//' | cut -c1-250 | tr '\n' '|')"
YASMIN_BIN=$PWD/$B/yasmin YASMIN_PYTHON=python3 YASMIN_DIFF_BACKEND=cuda $K 210 $B/differential-tests regressions_agree_with_brute_force > $OUT/keep/regressions.txt 2>&1
echo "regressions rc=$?: $(grep -E "test result|panicked|disagree" $OUT/keep/regressions.txt | tail -3 | cut -c1-300 | tr '\n' '|')"
fi
