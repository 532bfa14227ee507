#!/usr/bin/env bash
# Device run 89: the review mend (.gpu/s52, main at d8d567c). PART=1: GPU tests
# (release), a CUDA differential against clingo 5.8.3 (a third of its programs optimize by 3 searches) and its
# regression test (a scheme of 3 searches added). PART=2: optimization timings, one search and 8, CUDA and CPU engines,
# 30 s. Hard kills everywhere.
cd "$(dirname "$0")/../../.."
set -u
mkdir -p $OUT/keep
export YASMIN_CACHE_DIR=/tmp/yc
K="timeout -s KILL"
B=.gpu/s52
$K 30 $B/yasmin --backend=cuda -q instances/queens.aspif > /dev/null 2>&1
if [ "${PART:-1}" = 1 ]; then
  mkdir -p /tmp/sh && tar xzf .gpu/conf.tar.gz -C /tmp/sh
  python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl 2>&1 | tail -1; export PYTHONPATH=/tmp/site
  export YASMIN_SHARED=/tmp/sh/shared YASMIN_REPO=$PWD
  YASMIN_GPU_DIFF_PROGRAMS=300 $K 120 $B/gpu-tests --test-threads=4 > $OUT/keep/gpu-tests.txt 2>&1
  echo "gpu-tests rc=$?: $(grep -E 'test result|panicked' $OUT/keep/gpu-tests.txt | tr '\n' '|')"
  YASMIN_BIN=$PWD/$B/yasmin YASMIN_PYTHON=python3 YASMIN_DIFF_BACKEND=cuda YASMIN_DIFF_PROGRAMS=50 YASMIN_DIFF_PROJECTED=20 YASMIN_DIFF_THREADS=8 $K 120 $B/differential-tests yasmin_agrees > $OUT/keep/diff.txt 2>&1
  echo "differential rc=$?: $(grep -E "test result|differential: [0-9]+ programs|disagree" $OUT/keep/diff.txt | tail -2 | sed -E 's/; features:.*//' | cut -c1-250 | tr '\n' '|')"
  YASMIN_BIN=$PWD/$B/yasmin YASMIN_PYTHON=python3 YASMIN_DIFF_BACKEND=cuda $K 330 $B/differential-tests regressions_agree_with_brute_force > $OUT/keep/regressions.txt 2>&1
  echo "regressions rc=$?: $(grep -E "test result|panicked|disagree" $OUT/keep/regressions.txt | tail -3 | cut -c1-300 | tr '\n' '|')"
else
  for f in 0023-crossing_minimization-8-0 0002-crossing_minimization-9-0 0024-ValvesLocationProblem-210-0; do
    for cfg in "cuda 1" "cuda 8" "cpu 1" "cpu 8"; do set -- $cfg
      $K 45 $B/yasmin --backend=$1 -t $2 --stats -q --time-limit=30 .gpu/opt/$f.aspif > $OUT/keep/opt-$f-$1-t$2.txt 2>&1
      echo "$f $1 t=$2: $(grep -E '^(OPTIM|SATIS|UNSAT|UNKNOWN)|^Optimization|^Models|^Time  |^Threads|^Choices' $OUT/keep/opt-$f-$1-t$2.txt | sed -E 's/ +/ /g; s/\(Solving.*//' | tr '\n' '|')"
    done
  done
fi
