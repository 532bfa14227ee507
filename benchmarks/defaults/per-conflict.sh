#!/bin/bash
# On the GPU machine: the GPU tests of .gpu/ (scripts/gpu_bundle.sh), then the per-conflict cost:
# the time of a fixed number of conflicts (--solve-limit) of two yasmin builds (.bench/y_new:
# 1906431; .bench/y_base: the same without that commit's change to the watch loop) and of clingo,
# five rounds.
# Needs the anchor sources in .bench/anchor (FAMILY.enc, FAMILY__INSTANCE.asp); carry .bench, .gpu
# and .whl.
cd "$(dirname "$0")/../.."
mkdir -p /tmp/res8
OUT=/tmp/gc CHECKS=tests bash scripts/gpu_checks.sh > /tmp/res8/gc.txt 2>&1
python3 -m pip install -q --no-index --find-links .whl clingo 2>&1 | tail -1
python3 -m clingo --mode=gringo .bench/anchor/aspcomp2015_GraphColouring.enc .bench/anchor/aspcomp2015_GraphColouring__0043-graph_colouring-145-0.asp > /tmp/gc43.aspif
python3 -m clingo --mode=gringo .bench/anchor/planning_Sokoban.enc .bench/anchor/planning_Sokoban__0162-sokoban-31-1.asp > /tmp/s162.aspif
for i in 1 2 3 4 5; do
  for b in y_new y_base; do
    for f in "gc43 --solve-limit=60000" "s162 --solve-limit=20000 --decisions=vars"; do
      set -- $f; s=$(date +%s.%N); .bench/$b --solve-limit=${2#--solve-limit=} ${3:-} /tmp/$1.aspif > /dev/null; e=$(date +%s.%N)
      echo "$b $1 $(python3 -c "print(round($e-$s,3))")" >> /tmp/res8/t.txt
    done
  done
  for f in "gc43 60000" "s162 20000"; do
    set -- $f; s=$(date +%s.%N); python3 -m clingo --mode=clasp --solve-limit=$2 /tmp/$1.aspif > /dev/null; e=$(date +%s.%N)
    echo "clingo $1 $(python3 -c "print(round($e-$s,3))")" >> /tmp/res8/t.txt
  done
done
echo "dev8 done"
