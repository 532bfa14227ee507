#!/bin/bash
# The domain heuristic with many leveled atoms: levels.lp for N = 20,000 and 100,000, one search,
# yasmin (the binary $1, default target/release/yasmin) against clingo, --heuristic=Domain.
cd "$(dirname "$0")/../.."
Y=${1:-target/release/yasmin}
for n in 20000 100000; do
  .venv/bin/python -m clingo --mode=gringo -c n=$n benchmarks/domain/levels.lp > /tmp/levels-$n.aspif
  for s in yasmin clingo; do
    t0=$(date +%s.%N)
    if [ $s = yasmin ]; then $Y --heuristic=Domain -q --stats /tmp/levels-$n.aspif > /tmp/levels.out
    else .venv/bin/python -m clingo --mode=clasp --heuristic=Domain -q --stats /tmp/levels-$n.aspif > /tmp/levels.out; fi
    t1=$(date +%s.%N)
    echo "n=$n $s $(awk -v a=$t0 -v b=$t1 'BEGIN {printf "%.2f s", b-a}') $(grep -m1 -E '^Choices' /tmp/levels.out | awk '{print $3}') choices"
  done
done
