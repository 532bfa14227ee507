#!/bin/bash
# The farm enumerating queens (#27's parallel target: 3x clingo's best), against clingo -t 8 and
# yasmin -t 8 (split), one run each, one at a time, 40 s, on the H200 machine; the stripped
# binary in .bench/y, clingo 5.8.3's wheels in .whl. farm0.txt: queens 12 to 14, the farm's
# first run compiling its kernels (about 10 s, then cached on disk: its queens 12); farm1/farm2:
# two rounds of queens 12 and 13 after a run on queens 8 has filled the cache (the table printed
# by the first round was kept as printed, farm0.txt; its CSV was not).
# From the repository root: OUT=DIR bash benchmarks/enum/farm-h200/run.sh
cd "$(dirname "$0")/../../.."
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site
mkdir -p $OUT
configs=(--config 'clingo -t 8' --config 'yasmin --backend=cpu -t 8' --config 'yasmin --backend=cuda --gpu-mode=farm')
python3 scripts/enum_bench.py --python python3 --yasmin .bench/y --timeout 40 --outputs q --out $OUT/farm0.csv \
  "${configs[@]}" --program queens:12 --program queens:13 --program queens:14 2>&1 | tee $OUT/farm0.txt
python3 instances/gen/queens/generate.py --n 8 | python3 -m clingo --mode=gringo instances/gen/queens/encoding.lp - > /tmp/q8.aspif
.bench/y --backend=cuda --gpu-mode=farm -q -n 0 /tmp/q8.aspif > /dev/null
for r in 1 2; do
  python3 scripts/enum_bench.py --python python3 --yasmin .bench/y --timeout 40 --outputs q --out $OUT/farm$r.csv \
    "${configs[@]}" --program queens:12 --program queens:13 2>&1 | tee $OUT/farm$r.txt
done
