#!/usr/bin/env bash
# Device run 69: step 46 (the rows of literals forced by binary and ternary input nogoods made in step A, where
# the proposal is won, and skipped by step D) in .gpu/s46 against step 45 (.gpu/s45).
# 5 s A/B runs under fwd, two rounds (one for Sokoban_0312 and Labyrinth_0073); then the checks of step 46: GPU tests in release (300 random programs)
# and debug builds, memcheck and racecheck under fwd, a CUDA differential against clingo 5.8.3 and the
# differential's regression test. Hard kills everywhere.
cd "$(dirname "$0")/../../.."
set -u
mkdir -p $OUT/keep
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/keep/gpu.txt
tar xJf .gpu/inst.tar.xz -C .gpu && mkdir -p /tmp/sh && tar xzf .gpu/conf.tar.gz -C /tmp/sh
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl 2>&1 | tail -1; export PYTHONPATH=/tmp/site
export YASMIN_SHARED=/tmp/sh/shared YASMIN_REPO=$PWD YASMIN_CACHE_DIR=/tmp/yc
I=.gpu/inst
K="timeout -s KILL"
for b in s45 s46; do $K 30 .gpu/$b/yasmin --backend=cuda -q instances/queens.aspif > /dev/null 2>&1; done
ab() { # round, learning, instance, binary
  local r=$1 L=$2 inst=$3 b=$4
  local f=/tmp/ab-$r-$L-$inst-$b.txt
  $K 12 .gpu/$b/yasmin --backend=cuda --learning=$L --stats -V -q --time-limit=5 $I/$inst.aspif > $f 2>&1
  echo "$r $b $L $inst: $(grep -E '^(SATIS|UNSAT|UNKNOWN)' $f | head -1) $(grep -E '^(Choices|Propagations)' $f | tr -s ' ' | sed -E 's/: ([0-9]+) +\(per second: ([0-9]+)\)/ \1 (\2\/s)/' | tr '\n' ' ') $(grep -oE '\([0-9]+ rounds; device: input rounds [0-9.]+ ms' $f)"
}
for r in 1 2; do
  for inst in GraphColouring_0006 marriage-60 pigeonhole-9 ppm-200 Visit-all_0029; do ab $r fwd $inst s45; ab $r fwd $inst s46; done
done
for inst in Sokoban_0312 Labyrinth_0073; do ab 1 fwd $inst s45; ab 1 fwd $inst s46; done
one() { # name, limit, command...
  local n=$1 t=$2; shift 2
  $K $t "$@" > $OUT/keep/$n.txt 2>&1; echo "$n rc=$?: $(grep -E '^(SATIS|UNSAT|UNKNOWN)|ERROR SUMMARY|test result|panicked' $OUT/keep/$n.txt | head -4 | cut -c1-200 | tr -s ' ' | tr '\n' '|')"
}
B=.gpu/s46
YASMIN_GPU_DIFF_PROGRAMS=300 one gpu-tests 100 $B/gpu-tests --test-threads=4
YASMIN_GPU_DIFF_PROGRAMS=60 one gpu-tests-debug 100 $B/gpu-tests-debug --test-threads=4
one memcheck-fwd-ppm 40 compute-sanitizer --tool memcheck --show-backtrace no $B/yasmin --backend=cuda --learning=fwd -q --time-limit=3 $I/ppm-200.aspif
rc() { # name, limit, file, flags...
  local n=$1 t=$2 f=$3; shift 3
  $K $t compute-sanitizer --tool racecheck --racecheck-report hazard $B/yasmin --backend=cuda --learning=fwd -q "$@" $f > $OUT/keep/racecheck-$n.txt 2>&1
  echo "racecheck $n fwd $* rc=$?: $(grep -E '^(SATIS|UNSAT|UNKNOWN)|RACECHECK SUMMARY' $OUT/keep/racecheck-$n.txt | head -3 | tr '\n' '|') hazards: $(grep -c 'hazard detected' $OUT/keep/racecheck-$n.txt)"
}
rc ph4 60 $I/pigeonhole-4.aspif; rc wide40 60 .gpu/wide40.aspif -n0; rc amo1100 60 .gpu/amo1100.aspif -n 20
YASMIN_BIN=$PWD/$B/yasmin YASMIN_PYTHON=python3 YASMIN_DIFF_BACKEND=cuda YASMIN_DIFF_PROGRAMS=50 YASMIN_DIFF_PROJECTED=20 YASMIN_DIFF_THREADS=8 $K 100 $B/differential-tests yasmin_agrees > $OUT/keep/diff.txt 2>&1
echo "differential rc=$?: $(grep -E "test result|differential: [0-9]+ programs|disagree" $OUT/keep/diff.txt | tail -2 | sed -E 's/; features:.*//' | cut -c1-250 | tr '\n' '|')"
YASMIN_BIN=$PWD/$B/yasmin YASMIN_PYTHON=python3 YASMIN_DIFF_BACKEND=cuda $K 210 $B/differential-tests regressions_agree_with_brute_force > $OUT/keep/regressions.txt 2>&1
echo "regressions rc=$?: $(grep -E "test result|panicked|disagree" $OUT/keep/regressions.txt | tail -3 | cut -c1-300 | tr '\n' '|')"
