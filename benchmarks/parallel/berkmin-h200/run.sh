#!/bin/bash
# -t 8 with clasp's sixth portfolio search (BerkMin, lookahead for ten fixpoints), H200 host's 16
# cores, 2026-11-28, 25 s, two runs at a time. The 29 instances of instances.txt (anchor and the
# 20 more of ../t8-h200-ab5b0aa where a -t 8 run took over a second), ground by clingo 5.8.3's
# gringo into /tmp/s. Builds: .bench/bin/yold (03240fd), ynew (the BerkMin search third, in place
# of the geometric-restart one), ynew2 (fifth, in place of the occurrence-ranked one: what landed).
#   first.csv                   clingo -t 8, yold, ynew, one round
#   in-place-of-geometric.csv   yold, ynew on 12 of them, two rounds
#   in-place-of-occurrence.csv  yold, ynew2 on 9 of them, two rounds
#   against-clingo.csv          clingo -t 8, ynew2 ("yasmin -t 8"), one round
cd "$(dirname "$0")/../../.."
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site
b=.bench/bin
python3 scripts/parallel_bench.py --python python3 --jobs 2 --timeout 25 --out $OUT/first.csv \
  --config 'clingo -t 8' --config "yasmin@$b/yold --backend=cpu -t 8" --config "yasmin@$b/ynew --backend=cpu -t 8" /tmp/s/*.aspif
sel=$(ls /tmp/s/*.aspif | grep -E "Nomistery|GraphColouring|Labyrinth__0207|RicochetRobots__166|Sokoban__0474|Visit-all__00(10|51|12|70)")
python3 scripts/parallel_bench.py --python python3 --jobs 2 --timeout 25 --repeat 2 --out $OUT/in-place-of-geometric.csv \
  --config "yasmin@$b/yold --backend=cpu -t 8" --config "yasmin@$b/ynew --backend=cpu -t 8" $sel
sel=$(ls /tmp/s/*.aspif | grep -E "GraphColouring|Labyrinth__0207|Sokoban__0474|Nomistery__0033|Visit-all__00(10|51|12|70)")
python3 scripts/parallel_bench.py --python python3 --jobs 2 --timeout 25 --repeat 2 --out $OUT/in-place-of-occurrence.csv \
  --config "yasmin@$b/yold --backend=cpu -t 8" --config "yasmin@$b/ynew2 --backend=cpu -t 8" $sel
python3 scripts/parallel_bench.py --yasmin $b/ynew2 --python python3 --jobs 2 --timeout 25 --out $OUT/against-clingo.csv \
  --config 'clingo -t 8' --config 'yasmin --backend=cpu -t 8' /tmp/s/*.aspif
