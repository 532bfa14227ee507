#!/usr/bin/env bash
# Device run 85: what each search of a parallel run gets on the larger and the unsatisfiable instances (.gpu/s49):
# decisions per second summed over N searches, 5 s, on ppm-200 (SAT, 5 MB of nogood literals) and pigeonhole-9 (UNSAT).
cd "$(dirname "$0")/../../.."
set -u
mkdir -p $OUT/keep
tar xJf .gpu/inst.tar.xz -C .gpu
export YASMIN_CACHE_DIR=/tmp/yc
I=.gpu/inst
B=.gpu/s49
timeout -s KILL 30 $B/yasmin --backend=cuda -q instances/queens.aspif > /dev/null 2>&1
for f in ppm-200 pigeonhole-9 GraphColouring_0006; do for t in 1 2 4 8; do
  timeout -s KILL 30 $B/yasmin --backend=cuda -t $t --seed=7 --stats -q --time-limit=5 $I/$f.aspif > $OUT/keep/rate-$f-t$t.txt 2>&1
  echo "$f t=$t: $(grep -E '^(SATIS|UNSAT|UNKNOWN)|^Time  |^Choices' $OUT/keep/rate-$f-t$t.txt | sed -E 's/ +/ /g; s/\(Solving.*//' | tr '\n' '|')"
done; done
