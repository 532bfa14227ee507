#!/bin/bash
# The enumeration benchmark on the device machine's cores: clingo against yasmin with and
# without the verification thread, -q, then dag:18 and colouring to /dev/null.
cd "$(dirname "$0")/.."
python3 -m pip install -q --no-index --find-links .whl clingo 2>&1 | tail -1
nproc
P="--program sub:20 --program sub:22 --program sub:24 --program queens:12 --program colouring:30:2.5 --program hamiltonian:14:6 --program dag:18"
python3 scripts/enum_bench.py --python python3 --yasmin .gpu/yasmin --timeout 40 --outputs q \
  --config clingo --config 'clingo -t 8' --config 'yasmin --backend=cpu' --config 'yasmin --backend=cpu --verify-thread=0' \
  --config 'yasmin --backend=cpu --parallel-mode=8,split' $P --out $OUT/enum-q.csv 2>&1 | tail -60
python3 scripts/enum_bench.py --python python3 --yasmin .gpu/yasmin --timeout 40 --outputs null \
  --config 'yasmin --backend=cpu' --config 'yasmin --backend=cpu --verify-thread=0' --program dag:18 --program colouring:30:2.5 --program sub:22 \
  --out $OUT/enum-null.csv 2>&1 | tail -20
