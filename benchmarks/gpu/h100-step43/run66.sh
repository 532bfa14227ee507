#!/usr/bin/env bash
# Device run 66: step 44 (deps_d takes the round's literals and reasons from the view's proposal list and
# level 0 from the round's level, not from the trail, reasons and values in global memory) in .gpu/s44 against
# step 43b (.gpu/s43b). 5 s A/B runs under fwd, two rounds; the GPU tests (release) and racecheck and memcheck
# under fwd with step 44.
cd "$(dirname "$0")/../../.."
set -u
mkdir -p $OUT/keep
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/keep/gpu.txt
tar xJf .gpu/inst.tar.xz -C .gpu && mkdir -p /tmp/sh && tar xzf .gpu/conf.tar.gz -C /tmp/sh
export YASMIN_SHARED=/tmp/sh/shared YASMIN_REPO=$PWD YASMIN_CACHE_DIR=/tmp/yc
I=.gpu/inst
K="timeout -s KILL"
for b in s43b s44; do $K 30 .gpu/$b/yasmin --backend=cuda -q instances/queens.aspif > /dev/null 2>&1; done
ab() { # round, learning, instance, binary
  local r=$1 L=$2 inst=$3 b=$4
  local f=/tmp/ab-$r-$L-$inst-$b.txt
  $K 12 .gpu/$b/yasmin --backend=cuda --learning=$L --stats -V -q --time-limit=5 $I/$inst.aspif > $f 2>&1
  echo "$r $b $L $inst: $(grep -E '^(SATIS|UNSAT|UNKNOWN)' $f | head -1) $(grep -E '^(Choices|Conflicts|Propagations)' $f | tr -s ' ' | sed -E 's/: ([0-9]+) +\(per second: ([0-9]+)\)/ \1 (\2\/s)/' | tr '\n' ' ') $(grep -oE '\([0-9]+ rounds; device: input rounds [0-9.]+ ms, [0-9]+ sweeps [0-9.]+ ms' $f)"
}
for r in 1 2; do
  for inst in GraphColouring_0006 marriage-60 pigeonhole-9 ppm-200 Visit-all_0029 Sokoban_0312 Labyrinth_0073; do
    ab $r fwd $inst s43b; ab $r fwd $inst s44
  done
done
one() { # name, limit, command...
  local n=$1 t=$2; shift 2
  $K $t "$@" > $OUT/keep/$n.txt 2>&1; echo "$n rc=$?: $(grep -E '^(SATIS|UNSAT|UNKNOWN)|ERROR SUMMARY|test result|panicked' $OUT/keep/$n.txt | head -4 | cut -c1-200 | tr -s ' ' | tr '\n' '|')"
}
B=.gpu/s44
YASMIN_GPU_DIFF_PROGRAMS=300 one gpu-tests 150 $B/gpu-tests --test-threads=4
one memcheck-fwd-marriage 40 compute-sanitizer --tool memcheck --show-backtrace no $B/yasmin --backend=cuda --learning=fwd -q --time-limit=3 $I/marriage-60.aspif
one memcheck-fwd-ppm 40 compute-sanitizer --tool memcheck --show-backtrace no $B/yasmin --backend=cuda --learning=fwd -q --time-limit=3 $I/ppm-200.aspif
rc() { # name, limit, file, flags...
  local n=$1 t=$2 f=$3; shift 3
  $K $t compute-sanitizer --tool racecheck --racecheck-report hazard $B/yasmin --backend=cuda --learning=fwd -q "$@" $f > $OUT/keep/racecheck-$n.txt 2>&1
  echo "racecheck $n fwd $* rc=$?: $(grep -E '^(SATIS|UNSAT|UNKNOWN)|RACECHECK SUMMARY' $OUT/keep/racecheck-$n.txt | head -3 | tr '\n' '|') hazards: $(grep -c 'hazard detected' $OUT/keep/racecheck-$n.txt)"
}
rc wide40 60 .gpu/wide40.aspif -n0; rc ph4 60 $I/pigeonhole-4.aspif; rc amo1100 90 .gpu/amo1100.aspif -n 40
