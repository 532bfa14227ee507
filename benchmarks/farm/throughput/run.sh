#!/bin/bash
# #26's throughput target: the farm's decisions a second, all its searches together, against one
# CPU search's, on the tight instances of the paper's Table 1 (BENCHMARKS.md, "The GPU"):
# GraphColouring 0006, Visit-all 0029, Sokoban 0312 (../shared/bench/aspcomp2015) and the
# generated ppm-150-12, ppm-200, marriage-60, pigeonhole-8 and -9 (their sources in .bench/src5,
# the generators' facts with the Table 1 seeds), ground here by clingo 5.8.3's gringo (wheels in
# .whl). 10 s each, one run at a time, the stripped binary in .bench/y. Output: $OUT/throughput.csv
# (instance, engine, exit code, wall ms, choices, conflicts, Time's seconds) and the ratios.
# From the repository root: OUT=DIR bash benchmarks/farm/throughput/run.sh
# .bench/src5 is made here (the device has no ../shared) by:
#   S=../shared/bench/aspcomp2015; for x in GraphColouring:0006-graph_colouring-125-0 \
#     Visit-all:0029-visitall-39-1 Sokoban:0312-sokoban-27-1; do f=${x%%:*}; i=${x#*:}
#     cp $S/$f/encoding.asp .bench/src5/aspcomp2015_$f.enc; cp $S/$f/instances/$i.asp .bench/src5/aspcomp2015_${f}__$i.asp; done
#   for g in ppm marriage pigeonhole; do cp instances/gen/$g/encoding.lp .bench/src5/gen_$g.enc; done
#   G=instances/gen; python3 $G/ppm/generate.py --n 150 --k 12 --plant 1 --seed 3 > .bench/src5/gen_ppm__150-12.asp
#   python3 $G/ppm/generate.py --n 200 --seed 1 > .bench/src5/gen_ppm__200.asp
#   python3 $G/marriage/generate.py --n 60 --seed 1 > .bench/src5/gen_marriage__60.asp
#   for n in 8 9; do python3 $G/pigeonhole/generate.py --n $n --seed 1 > .bench/src5/gen_pigeonhole__$n.asp; done
cd "$(dirname "$0")/../../.."
mkdir -p $OUT
source benchmarks/ground.sh /tmp/t1 .bench/src5
export YASMIN_CACHE_DIR=/tmp/yc
timeout 120 .bench/y --backend=cuda --gpu-mode=farm -q tests/conformance/tight/4-queens.smodels > /dev/null 2>&1
echo "instance,engine,exit,wall_ms,choices,conflicts,time_s" > $OUT/throughput.csv
for f in /tmp/t1/*.aspif; do
  for engine in cpu farm; do
    args=(); [ $engine = farm ] && args=(--backend=cuda --gpu-mode=farm)
    s=$(date +%s%N)
    timeout -s KILL 40 .bench/y "${args[@]}" --time-limit=10 --stats -q $f > /tmp/r.txt 2>&1
    rc=$?
    e=$(date +%s%N)
    get() { grep -E "^$1 " /tmp/r.txt | head -1 | tr -s ' ' | cut -d' ' -f3 | tr -d 's'; }
    echo "$(basename $f .aspif),$engine,$rc,$(( (e - s) / 1000000 )),$(get Choices),$(get Conflicts),$(get Time)" >> $OUT/throughput.csv
  done
done
python3 - $OUT/throughput.csv <<'PY' | tee $OUT/throughput.txt
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
rate = {(r["instance"], r["engine"]): int(r["choices"] or 0) / max(float(r["time_s"] or 0), 1e-3) for r in rows}
print("| instance | CPU choices/s | farm choices/s | farm / CPU |\n|---|--:|--:|--:|")
for i in sorted({r["instance"] for r in rows}):
    c, g = rate.get((i, "cpu"), 0), rate.get((i, "farm"), 0)
    print(f"| {i} | {c:,.0f} | {g:,.0f} | {g / c if c else 0:.1f} |")
PY
