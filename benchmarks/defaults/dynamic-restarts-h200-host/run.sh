#!/bin/bash
# anchor, one search, 20 s, 16 at a time: yasmin restarting by luby,100 (today) and dynamically (D,100,0.7).
cd "$(dirname "$0")/.."
R=/tmp/res34; mkdir -p $R
python3 -m pip install -q --no-index --find-links .whl clingo 2>&1 | tail -1
mkdir -p /tmp/ga
for f in .bench/anchor/*__*.asp; do
  fam=$(basename $f | sed 's/__.*//'); out=/tmp/ga/$(basename $f .asp).aspif
  [ -s $out ] || (timeout 200 python3 -m clingo --mode=gringo .bench/anchor/$fam.enc $f > $out 2>/dev/null &)
done
sleep 2; while pgrep -f "mode=gringo" >/dev/null; do sleep 1; done
python3 scripts/parallel_bench.py --python python3 --jobs 16 --timeout 20 --out $R/anchor.csv \
  --config 'yasmin@.bench/y-dyn' --config 'yasmin@.bench/y-dyn --restarts=D,100,0.7' /tmp/ga/*.aspif > $R/table.txt 2>&1
echo "dev34 done" >> $R/table.txt
