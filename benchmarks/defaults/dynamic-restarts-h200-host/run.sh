#!/bin/bash
# anchor, one search, 20 s, 16 at a time: yasmin restarting by luby,100 (the default) and
# dynamically (D,100,0.7). Run on the device machine from the repository root, with the anchor
# sources in .bench/anchor (scripts/ground_anchor.sh) and clingo's wheels in .whl (yasmin: $YASMIN, default .gpu/yasmin, scripts/gpu_bundle.sh).
R=${R:-/tmp/res}; mkdir -p $R
python3 -m pip install -q --no-index --find-links .whl clingo 2>&1 | tail -1
bash scripts/ground_anchor.sh .bench/anchor /tmp/ga
python3 scripts/parallel_bench.py --yasmin ${YASMIN:-.gpu/yasmin} --python python3 --jobs 16 --timeout 20 --out $R/anchor.csv \
  --config 'yasmin --backend=cpu' --config 'yasmin --backend=cpu --restarts=D,100,0.7' /tmp/ga/*.aspif > $R/table.txt 2>&1
