#!/usr/bin/env bash
# Pigeonhole 9 and 10 on the farm, BASE (.bench/b0/yasmin) against NEW (.gpu/yasmin): exit, wall ms,
# conflicts and choices of all searches in at most 8 s, two rounds, on the H200 machine, from the
# repository root. The programs, ground here by clingo 5.8.3's gringo:
#   for n in 9 10; do python3 instances/gen/pigeonhole/generate.py --n $n --seed 1 > /tmp/ph$n.asp
#     python -m clingo --mode=gringo --output=intermediate instances/gen/pigeonhole/encoding.lp \
#       /tmp/ph$n.asp > .bench/ph/ph$n.aspif; done
export YASMIN_CACHE_DIR=/tmp/yc
for b in .bench/b0/yasmin .gpu/yasmin; do timeout 120 $b --backend=cuda --gpu-mode=farm -q -n 1 instances/queens.aspif > /dev/null 2>&1; done
.gpu/yasmin --backend=cuda --gpu-mode=farm -q -V --time-limit=1 .bench/ph/ph10.aspif 2>&1 | grep shared
for r in 1 2; do for f in ph9 ph10; do for b in .bench/b0/yasmin .gpu/yasmin; do
  s=$(date +%s%N); timeout -s KILL 30 $b --backend=cuda --gpu-mode=farm --stats -q --time-limit=8 .bench/ph/$f.aspif > /tmp/o.txt 2>&1; rc=$?; e=$(date +%s%N)
  echo "$b,$r,$f,$rc,$(( (e-s)/1000000 )),$(grep -E '^Conflicts' /tmp/o.txt | tr -s ' ' | cut -d' ' -f3),$(grep -E '^Choices' /tmp/o.txt | tr -s ' ' | cut -d' ' -f3)"
done; done; done
