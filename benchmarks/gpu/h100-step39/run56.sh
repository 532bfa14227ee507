#!/usr/bin/env bash
# Device run 56: does the grid barrier's spinning slow block 0's input rounds down? main (bb6a702, .gpu/base: the
# waiting blocks poll the barrier word every 20 ns) against throw-away builds whose waiting blocks back off
# exponentially from 32 ns to a cap of 256, 1024 or 4096 ns (.gpu/b256, b1024, b4096). 5 s runs, res, two rounds.
cd "$(dirname "$0")/../../.."
set -u
mkdir -p $OUT/keep
tar xJf .gpu/inst.tar.xz -C .gpu
export YASMIN_CACHE_DIR=/tmp/yc
I=.gpu/inst
K="timeout -s KILL"
for b in base b256 b1024 b4096; do $K 30 .gpu/$b/yasmin --backend=cuda -q instances/queens.aspif > /dev/null 2>&1; done
ab() { # round, binary, learning, instance
  local f=$OUT/keep/ab-$1-$3-$4-$2.txt
  $K 12 .gpu/$2/yasmin --backend=cuda --learning=$3 --stats -V -q --time-limit=5 $I/$4.aspif > $f 2>&1
  echo "$1 $2 $3 $4: $(grep -E '^(SATIS|UNSAT|UNKNOWN)' $f | head -1) $(grep -E '^(Choices|Conflicts)' $f | tr -s ' ' | tr '\n' ' ') $(grep -oE '\([0-9]+ rounds; device: input rounds [0-9.]+ ms, [0-9]+ sweeps [0-9.]+ ms' $f)"
}
for r in 1 2; do
  for inst in GraphColouring_0006 pigeonhole-9 ppm-200 Visit-all_0029; do
    for b in base b256 b1024 b4096; do ab $r $b res $inst; done
  done
done
