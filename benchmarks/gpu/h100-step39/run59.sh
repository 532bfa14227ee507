#!/usr/bin/env bash
# Device run 59: a throw-away instrumented build of main after step 41b (.gpu/prof): block 0's thread 0 times step A
# of each input round, and shared counters count the frontier's occurrences and wide input nogoods; all by frontier size
# (1, 2-4, 5-16, 17-32, 33-64, 65+ literals), printed every 100,000 rounds. The host synchronises after each launch
# to flush printf. 4 s runs, res.
cd "$(dirname "$0")/../../.."
set -u
mkdir -p $OUT/keep
tar xJf .gpu/inst.tar.xz -C .gpu
export YASMIN_CACHE_DIR=/tmp/yc
I=.gpu/inst
K="timeout -s KILL"
$K 30 .gpu/prof/yasmin --backend=cuda -q instances/queens.aspif > /dev/null 2>&1
for inst in ppm-200 Visit-all_0029 GraphColouring_0006 pigeonhole-9 Sokoban_0312; do
  f=$OUT/keep/prof-$inst.txt
  $K 10 .gpu/prof/yasmin --backend=cuda --stats -q --time-limit=4 $I/$inst.aspif > $f 2>&1
  echo "$inst: $(grep -E '^Choices' $f | tr -s ' ')"; grep PROF $f | tail -6
done
