#!/bin/bash
# anchor, one search, 30 s, 15 at a time: clingo, yasmin deleting by LBD (today) and tiered.
cd "$(dirname "$0")/.."
R=/tmp/res32; mkdir -p $R
rm -rf /tmp/w32 && mkdir -p /tmp/w32 && tar -cf - --exclude=./target --exclude=./.git . | tar -xf - -C /tmp/w32 && cd /tmp/w32
python3 -m pip install -q --no-index --find-links .whl clingo 2>&1 | tail -1
mkdir -p /tmp/ga
for f in .bench/anchor/*__*.asp; do
  fam=$(basename $f | sed 's/__.*//'); out=/tmp/ga/$(basename $f .asp).aspif
  [ -s $out ] || (timeout 200 python3 -m clingo --mode=gringo .bench/anchor/$fam.enc $f > $out 2>/dev/null &)
done
sleep 2; while pgrep -f "mode=gringo" >/dev/null; do sleep 1; done
ls /tmp/ga | wc -l > $R/n.txt
python3 scripts/parallel_bench.py --python python3 --jobs 15 --timeout 30 --out $R/anchor.csv \
  --config 'clingo' --config 'yasmin@.bench/y-tier' --config 'yasmin@.bench/y-tier --deletion=tiered' /tmp/ga/*.aspif > $R/table.txt 2>&1
echo "dev32 done" >> $R/table.txt
