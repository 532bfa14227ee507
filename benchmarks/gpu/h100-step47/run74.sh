#!/usr/bin/env bash
# Device run 74: step 47 (the 1-UIP prefetch puts the literals of the conflict level's longer nogood reasons into a
# shared pool, a warp per reason, so that resolving them reads no global memory) in .gpu/s47 against main (.gpu/s46).
# 5 s A/B runs under res, two rounds; then GPU tests in release (300 random programs) and debug builds, memcheck and
# racecheck under res. Hard kills everywhere.
cd "$(dirname "$0")/../../.."
set -u
mkdir -p $OUT/keep
tar xJf .gpu/inst.tar.xz -C .gpu && mkdir -p /tmp/sh && tar xzf .gpu/conf.tar.gz -C /tmp/sh
export YASMIN_SHARED=/tmp/sh/shared YASMIN_REPO=$PWD YASMIN_CACHE_DIR=/tmp/yc
I=.gpu/inst
K="timeout -s KILL"
for b in s46 s47; do $K 30 .gpu/$b/yasmin --backend=cuda -q instances/queens.aspif > /dev/null 2>&1; done
ab() { # round, learning, instance, binary
  local r=$1 L=$2 inst=$3 b=$4
  local f=/tmp/ab-$r-$L-$inst-$b.txt
  $K 12 .gpu/$b/yasmin --backend=cuda --learning=$L --stats -V -q --time-limit=5 $I/$inst.aspif > $f 2>&1
  echo "$r $b $L $inst: $(grep -E '^(SATIS|UNSAT|UNKNOWN)' $f | head -1) $(grep -E '^(Choices|Conflicts)' $f | tr -s ' ' | sed -E 's/: ([0-9]+) +\(per second: ([0-9]+)\)/ \1 (\2\/s)/' | tr '\n' ' ') $(grep -oE 'resolve [0-9.]+ ms \([0-9]+ conflicts, [0-9]+ of them analysed by propagate_fix_k; device: analysis [0-9.]+ ms' $f | sed -E 's/of them analysed by propagate_fix_k; device: //')"
}
for r in 1 2; do
  for inst in GraphColouring_0006 pigeonhole-9 ppm-200 marriage-60 Labyrinth_0073; do ab $r res $inst s46; ab $r res $inst s47; done
done
one() { # name, limit, command...
  local n=$1 t=$2; shift 2
  $K $t "$@" > $OUT/keep/$n.txt 2>&1; echo "$n rc=$?: $(grep -E '^(SATIS|UNSAT|UNKNOWN)|ERROR SUMMARY|test result|panicked' $OUT/keep/$n.txt | head -4 | cut -c1-200 | tr -s ' ' | tr '\n' '|')"
}
B=.gpu/s47
YASMIN_GPU_DIFF_PROGRAMS=300 one gpu-tests 120 $B/gpu-tests --test-threads=4
YASMIN_GPU_DIFF_PROGRAMS=60 one gpu-tests-debug 120 $B/gpu-tests-debug --test-threads=4
one memcheck-res-gc 40 compute-sanitizer --tool memcheck --show-backtrace no $B/yasmin --backend=cuda -q --time-limit=3 $I/GraphColouring_0006.aspif
one memcheck-res-lab 60 compute-sanitizer --tool memcheck --show-backtrace no $B/yasmin --backend=cuda -q --time-limit=3 $I/Labyrinth_0073.aspif
rc() { # name, limit, file, flags...
  local n=$1 t=$2 f=$3; shift 3
  $K $t compute-sanitizer --tool racecheck --racecheck-report hazard $B/yasmin --backend=cuda -q "$@" $f > $OUT/keep/racecheck-$n.txt 2>&1
  echo "racecheck $n res $* rc=$?: $(grep -E '^(SATIS|UNSAT|UNKNOWN)|RACECHECK SUMMARY' $OUT/keep/racecheck-$n.txt | head -3 | tr '\n' '|') hazards: $(grep -c 'hazard detected' $OUT/keep/racecheck-$n.txt)"
}
rc ph4 60 $I/pigeonhole-4.aspif; rc wide40 60 .gpu/wide40.aspif -n0
