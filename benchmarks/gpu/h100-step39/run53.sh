#!/usr/bin/env bash
# Device run 53: a throw-away instrumented build of step 39 (.gpu/prof: clock64 in block 0's thread 0 per input round,
# printed every 50,000 rounds; the host synchronises after each launch to flush printf), warp against block.
cd "$(dirname "$0")/../../.."
set -u
mkdir -p $OUT/keep
tar xJf .gpu/inst.tar.xz -C .gpu
export YASMIN_CACHE_DIR=/tmp/yc
I=.gpu/inst
K="timeout -s KILL"
$K 30 .gpu/prof/yasmin --backend=cuda -q instances/queens.aspif > /dev/null 2>&1
for inst in ppm-200 Visit-all_0029 GraphColouring_0006 pigeonhole-9; do for m in warp block; do
  f=$OUT/keep/prof-$inst-$m.txt
  $K 10 .gpu/prof/yasmin --backend=cuda --gpu-frontier=$m --stats -q --time-limit=4 $I/$inst.aspif > $f 2>&1
  echo "$inst $m: $(grep -E '^Conflicts|^Choices' $f | tr -s ' ' | tr '\n' ' ') $(grep PROF $f | tail -1)"
done; done
