#!/usr/bin/env bash
# Device run 64: the checks of step 43b (.gpu/s43b, main after this session): GPU tests in release (300 random
# programs) and debug builds, racecheck on the new GPU test's program, a CUDA differential against clingo
# 5.8.3, and the differential's regression test. Hard kills everywhere.
cd "$(dirname "$0")/../../.."
set -u
B=./.gpu/s43b
mkdir -p $OUT/keep
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/keep/gpu.txt
tar xJf .gpu/inst.tar.xz -C .gpu && mkdir -p /tmp/sh && tar xzf .gpu/conf.tar.gz -C /tmp/sh
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl 2>&1 | tail -1; export PYTHONPATH=/tmp/site
export YASMIN_SHARED=/tmp/sh/shared YASMIN_REPO=$PWD YASMIN_CACHE_DIR=/tmp/yc
K="timeout -s KILL"
$K 30 $B/yasmin --backend=cuda -q instances/queens.aspif > /dev/null 2>&1
one() { # name, limit, command...
  local n=$1 t=$2; shift 2
  $K $t "$@" > $OUT/keep/$n.txt 2>&1; echo "$n rc=$?: $(grep -E '^(SATIS|UNSAT|UNKNOWN)|ERROR SUMMARY|test result|panicked|GPU .* agree' $OUT/keep/$n.txt | head -12 | cut -c1-200 | tr -s ' ' | tr '\n' '|')"
}
YASMIN_GPU_DIFF_PROGRAMS=300 one gpu-tests 150 $B/gpu-tests --test-threads=4
YASMIN_GPU_DIFF_PROGRAMS=60 one gpu-tests-debug 150 $B/gpu-tests-debug --test-threads=4
$K 90 compute-sanitizer --tool racecheck --racecheck-report hazard $B/yasmin --backend=cuda --learning=fwd -q -n 40 .gpu/amo1100.aspif > $OUT/keep/racecheck-amo1100.txt 2>&1
echo "racecheck amo1100 fwd -n 40 rc=$?: $(grep -E '^(SATIS|UNSAT|UNKNOWN)|RACECHECK SUMMARY' $OUT/keep/racecheck-amo1100.txt | head -3 | tr '\n' '|') hazards: $(grep -c 'hazard detected' $OUT/keep/racecheck-amo1100.txt)"
one memcheck-amo1100 60 compute-sanitizer --tool memcheck --show-backtrace no $B/yasmin --backend=cuda --learning=fwd -q -n0 .gpu/amo1100.aspif
YASMIN_BIN=$PWD/$B/yasmin YASMIN_PYTHON=python3 YASMIN_DIFF_BACKEND=cuda YASMIN_DIFF_PROGRAMS=50 YASMIN_DIFF_PROJECTED=20 YASMIN_DIFF_THREADS=8 $K 120 $B/differential-tests yasmin_agrees > $OUT/keep/diff.txt 2>&1
echo "differential rc=$?: $(grep -E "test result|differential: [0-9]+ programs|disagree" $OUT/keep/diff.txt | tail -2 | sed -E 's/; features:.*//' | cut -c1-250 | tr '\n' '|')"
YASMIN_BIN=$PWD/$B/yasmin YASMIN_PYTHON=python3 YASMIN_DIFF_BACKEND=cuda $K 250 $B/differential-tests regressions_agree_with_brute_force > $OUT/keep/regressions.txt 2>&1
echo "regressions rc=$?: $(grep -E "test result|panicked|disagree" $OUT/keep/regressions.txt | tail -3 | cut -c1-300 | tr '\n' '|')"
