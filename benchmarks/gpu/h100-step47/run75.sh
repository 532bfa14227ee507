#!/usr/bin/env bash
# Device run 75: step 47b (the pool takes nogood reasons of at most 32 literals, POOL_LEN) in .gpu/s47b against step 47
# (.gpu/s47, any length) and main (.gpu/s46): 5 s A/B runs under res, two rounds. Hard kills everywhere.
cd "$(dirname "$0")/../../.."
set -u
tar xJf .gpu/inst.tar.xz -C .gpu
export YASMIN_CACHE_DIR=/tmp/yc
I=.gpu/inst
K="timeout -s KILL"
for b in s46 s47 s47b; do $K 30 .gpu/$b/yasmin --backend=cuda -q instances/queens.aspif > /dev/null 2>&1; done
ab() { # round, learning, instance, binary
  local r=$1 L=$2 inst=$3 b=$4
  local f=/tmp/ab-$r-$L-$inst-$b.txt
  $K 12 .gpu/$b/yasmin --backend=cuda --learning=$L --stats -V -q --time-limit=5 $I/$inst.aspif > $f 2>&1
  echo "$r $b $L $inst: $(grep -E '^(SATIS|UNSAT|UNKNOWN)' $f | head -1) $(grep -E '^(Choices|Conflicts)' $f | tr -s ' ' | sed -E 's/: ([0-9]+) +\(per second: ([0-9]+)\)/ \1 (\2\/s)/' | tr '\n' ' ') $(grep -oE 'resolve [0-9.]+ ms \([0-9]+ conflicts, [0-9]+ of them analysed by propagate_fix_k; device: analysis [0-9.]+ ms' $f | sed -E 's/of them analysed by propagate_fix_k; device: //')"
}
for r in 1 2; do
  for inst in GraphColouring_0006 ppm-200 Labyrinth_0073; do ab $r res $inst s46; ab $r res $inst s47; ab $r res $inst s47b; done
done
