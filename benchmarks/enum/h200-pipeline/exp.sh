#!/bin/bash
# Two rounds of three configurations: .bench/yA (d755583: Instant::now at every model), the
# experiment build B (.bench/yB: no clock, every model counted quick; exp-noclock-*.csv) or C
# (.bench/yC: the coarse clock, bfa11f7; exp-coarse-*.csv), and the sequential path.
cd "$(dirname "$0")/.."
python3 -m pip install -q --no-index --find-links .whl clingo 2>&1 | tail -1
cat /sys/devices/system/clocksource/clocksource0/current_clocksource
B=${B:-.bench/yC}
for r in 1 2; do
python3 scripts/enum_bench.py --python python3 --yasmin .bench/yA --timeout 40 --outputs q \
  --config 'yasmin --backend=cpu' --config "yasmin@$B --backend=cpu" --config 'yasmin --backend=cpu --verify-thread=0' \
  --program sub:22 --program sub:24 --program colouring:30:2.5 --program dag:18 \
  --out $OUT/exp-$r.csv 2>&1 | tail -6
done
