#!/usr/bin/env bash
# Device run 44: how often the GPU (res) solves GraphColouring_0006 and ppm-200 within the Table's 10 s, four runs each,
# main before step 34 (.gpu/base) and after step 36 (.gpu/s36), interleaved: the GPU's search is not deterministic
# (the order of a round's proposals follows its atomics), and both instances are heavy-tailed.
cd "$(dirname "$0")/.."
set -u
mkdir -p $OUT/keep
tar xJf .gpu/inst.tar.xz -C .gpu
export YASMIN_CACHE_DIR=/tmp/yc
I=.gpu/inst
for b in base s36; do timeout -s KILL 30 .gpu/$b/yasmin --backend=cuda -q instances/queens.aspif > /dev/null 2>&1; done
for r in 1 2 3 4; do
  for inst in GraphColouring_0006 ppm-200; do
    for b in base s36; do
      f=$OUT/keep/var-$inst-$b-$r.txt
      timeout -s KILL 14 .gpu/$b/yasmin --backend=cuda --stats -q --time-limit=10 $I/$inst.aspif > $f 2>&1
      echo "$r $inst $b: $(grep -E '^(SATIS|UNSAT|UNKNOWN)' $f | head -1) $(grep -E '^Time' $f | cut -c1-30 | tr -s ' ') $(grep -E '^Conflicts' $f | tr -s ' ')"
    done
  done
done
