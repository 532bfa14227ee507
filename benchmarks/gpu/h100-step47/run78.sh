#!/usr/bin/env bash
# Device run 78: step 48, chains in block 0's input rounds (frontier_d: a warp goes on from a literal it won to its
# occurrences, CHAIN_DEPTH literals in a row, res only), CHAIN_DEPTH 4 (.gpu/c4) and 8 (.gpu/c8) against main after
# step 47 (.gpu/s48): 5 s A/B runs under res; the GPU tests (release) with c4. Hard kills everywhere.
cd "$(dirname "$0")/../../.."
set -u
mkdir -p $OUT/keep
tar xJf .gpu/inst.tar.xz -C .gpu && mkdir -p /tmp/sh && tar xzf .gpu/conf.tar.gz -C /tmp/sh
export YASMIN_SHARED=/tmp/sh/shared YASMIN_REPO=$PWD YASMIN_CACHE_DIR=/tmp/yc
I=.gpu/inst
K="timeout -s KILL"
for b in s48 c4 c8; do $K 30 .gpu/$b/yasmin --backend=cuda -q instances/queens.aspif > /dev/null 2>&1; done
YASMIN_GPU_DIFF_PROGRAMS=300 $K 120 .gpu/c4/gpu-tests --test-threads=4 > $OUT/keep/gpu-tests-c4.txt 2>&1; echo "gpu-tests c4 rc=$?: $(grep -E 'test result|panicked' $OUT/keep/gpu-tests-c4.txt | head -3 | tr '\n' '|')"
ab() { # round, learning, instance, binary
  local r=$1 L=$2 inst=$3 b=$4
  local f=/tmp/ab-$r-$L-$inst-$b.txt
  $K 12 .gpu/$b/yasmin --backend=cuda --learning=$L --stats -V -q --time-limit=5 $I/$inst.aspif > $f 2>&1
  echo "$r $b $L $inst: $(grep -E '^(SATIS|UNSAT|UNKNOWN)' $f | head -1) $(grep -E '^(Choices|Propagations)' $f | tr -s ' ' | sed -E 's/: ([0-9]+) +\(per second: ([0-9]+)\)/ \1 (\2\/s)/' | tr '\n' ' ') $(grep -oE '\([0-9]+ rounds; device: input rounds [0-9.]+ ms' $f)"
}
for inst in GraphColouring_0006 ppm-200 marriage-60 pigeonhole-9 Visit-all_0029 Sokoban_0312; do ab 1 res $inst s48; ab 1 res $inst c4; ab 1 res $inst c8; done
for inst in GraphColouring_0006 ppm-200; do ab 2 res $inst s48; ab 2 res $inst c4; ab 2 res $inst c8; done
