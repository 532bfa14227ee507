#!/usr/bin/env bash
# Device run 72: a throw-away instrumented build (.gpu/prof: main after step 46 plus clock64 timers in Control::prof,
# printed by -V as PROF [..]) under res, 5 s: cycles of the analysis' phases (learn_res_block_d) and of block 0's input
# rounds (step A against the rest), with counts. Hard kills everywhere.
cd "$(dirname "$0")/../../.."
set -u
mkdir -p $OUT/keep
tar xJf .gpu/inst.tar.xz -C .gpu
export YASMIN_CACHE_DIR=/tmp/yc
I=.gpu/inst
K="timeout -s KILL"
B=.gpu/prof
$K 30 $B/yasmin --backend=cuda -q instances/queens.aspif > /dev/null 2>&1
for inst in GraphColouring_0006 ppm-200 pigeonhole-9 marriage-60; do
  f=$OUT/keep/prof-res-$inst.txt
  $K 12 $B/yasmin --backend=cuda --learning=res --stats -V -q --time-limit=5 $I/$inst.aspif > $f 2>&1
  echo "$inst: $(grep -E '^(SATIS|UNSAT|UNKNOWN)' $f | head -1) $(grep -E '^(Choices|Conflicts)' $f | tr -s ' ' | tr '\n' ' ')"
  grep -oE 'CUDA engine time.*' $f; grep -oE 'PROF.*' $f
done
