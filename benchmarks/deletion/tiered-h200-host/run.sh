#!/bin/bash
# anchor, one search, 30 s, 15 at a time: clingo, yasmin deleting by LBD (the default) and tiered.
# Run on the device machine from the repository root, with the anchor sources in .bench/anchor
# (scripts/ground_anchor.sh) and clingo's wheels in .whl (yasmin: $YASMIN, default .gpu/yasmin, scripts/gpu_bundle.sh).
R=${R:-/tmp/res}; mkdir -p $R
python3 -m pip install -q --no-index --find-links .whl clingo 2>&1 | tail -1
bash scripts/ground_anchor.sh .bench/anchor /tmp/ga
python3 scripts/parallel_bench.py --yasmin ${YASMIN:-.gpu/yasmin} --python python3 --jobs 15 --timeout 30 --out $R/anchor.csv \
  --config 'clingo' --config 'yasmin --backend=cpu' --config 'yasmin --backend=cpu --deletion=tiered' /tmp/ga/*.aspif > $R/table.txt 2>&1
