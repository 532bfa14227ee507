#!/bin/bash
cd "$(dirname "$0")/.."
python3 -m pip install -q --no-index --find-links .whl clingo 2>&1 | tail -1
for r in 1 2; do
python3 scripts/enum_bench.py --python python3 --yasmin .bench/yC --timeout 25 --outputs q \
  --config 'yasmin --backend=cpu' --config 'yasmin --backend=cpu --del-cfl=+,500,100' --config 'yasmin --backend=cpu --del-cfl=+,300,50' --config 'yasmin --backend=cpu --del-cfl=+,100,20' \
  --config 'yasmin --backend=cpu -t 8,split' --config 'yasmin --backend=cpu -t 8,split --del-cfl=+,300,50' --config 'yasmin --backend=cpu -t 8,split --del-cfl=+,100,20' \
  --program queens:12 --program hamiltonian:14:6 --program queens:13 \
  --out $OUT/del-$r.csv 2>&1 | tail -6
done
