#!/usr/bin/env bash
# Device run 80: step 50 (block 0's input rounds read their frontier from a shared-memory copy of the last merge,
# SharedView::s_front, instead of the trail in global memory) in .gpu/s50 against main after step 47 (.gpu/s48): 5 s
# A/B runs under res and fwd, the device time of the input rounds per round; GPU tests in release (300 random programs)
# and debug builds, memcheck and racecheck. Hard kills everywhere.
cd "$(dirname "$0")/../../.."
set -u
mkdir -p $OUT/keep
tar xJf .gpu/inst.tar.xz -C .gpu && mkdir -p /tmp/sh && tar xzf .gpu/conf.tar.gz -C /tmp/sh
export YASMIN_SHARED=/tmp/sh/shared YASMIN_REPO=$PWD YASMIN_CACHE_DIR=/tmp/yc
I=.gpu/inst
K="timeout -s KILL"
B=.gpu/s50
for b in s48 s50; do $K 30 .gpu/$b/yasmin --backend=cuda -q instances/queens.aspif > /dev/null 2>&1; done
ab() { # round, learning, instance, binary
  local r=$1 L=$2 inst=$3 b=$4
  local f=/tmp/ab-$r-$L-$inst-$b.txt
  $K 12 .gpu/$b/yasmin --backend=cuda --learning=$L --stats -V -q --time-limit=5 $I/$inst.aspif > $f 2>&1
  echo "$r $b $L $inst: $(grep -E '^(SATIS|UNSAT|UNKNOWN)' $f | head -1) $(grep -E '^(Choices)' $f | tr -s ' ' | sed -E 's/: ([0-9]+) +\(per second: ([0-9]+)\)/ \1 (\2\/s)/' | tr '\n' ' ') $(grep -oE '\([0-9]+ rounds; device: input rounds [0-9.]+ ms' $f)"
}
for r in 1 2; do
  for inst in GraphColouring_0006 marriage-60 ppm-200 Visit-all_0029; do ab $r res $inst s48; ab $r res $inst s50; done
done
for inst in GraphColouring_0006 marriage-60; do ab 1 fwd $inst s48; ab 1 fwd $inst s50; done
one() { # name, limit, command...
  local n=$1 t=$2; shift 2
  $K $t "$@" > $OUT/keep/$n.txt 2>&1; echo "$n rc=$?: $(grep -E '^(SATIS|UNSAT|UNKNOWN)|ERROR SUMMARY|test result|panicked' $OUT/keep/$n.txt | head -4 | cut -c1-200 | tr -s ' ' | tr '\n' '|')"
}
YASMIN_GPU_DIFF_PROGRAMS=300 one gpu-tests 120 $B/gpu-tests --test-threads=4
YASMIN_GPU_DIFF_PROGRAMS=60 one gpu-tests-debug 120 $B/gpu-tests-debug --test-threads=4
one memcheck-res-gc 40 compute-sanitizer --tool memcheck --show-backtrace no $B/yasmin --backend=cuda -q --time-limit=3 $I/GraphColouring_0006.aspif
one memcheck-fwd-amo 40 compute-sanitizer --tool memcheck --show-backtrace no $B/yasmin --backend=cuda --learning=fwd -q -n 20 .gpu/amo1100.aspif
rc() { # name, learning, limit, file, flags...
  local n=$1 L=$2 t=$3 f=$4; shift 4
  $K $t compute-sanitizer --tool racecheck --racecheck-report hazard $B/yasmin --backend=cuda --learning=$L -q "$@" $f > $OUT/keep/racecheck-$n-$L.txt 2>&1
  echo "racecheck $n $L $* rc=$?: $(grep -E '^(SATIS|UNSAT|UNKNOWN)|RACECHECK SUMMARY' $OUT/keep/racecheck-$n-$L.txt | head -3 | tr '\n' '|') hazards: $(grep -c 'hazard detected' $OUT/keep/racecheck-$n-$L.txt)"
}
rc ph4 res 60 $I/pigeonhole-4.aspif; rc ph4 fwd 60 $I/pigeonhole-4.aspif; rc wide40 res 60 .gpu/wide40.aspif -n0; rc amo1100 fwd 60 .gpu/amo1100.aspif -n 20
