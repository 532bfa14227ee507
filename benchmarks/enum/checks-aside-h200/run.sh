#!/bin/bash
# #27: split mode's searches counting models (-t 8 -q -n 0) with each search's checks in a thread
# beside it (portfolio/checks_aside.rs; the default where the machine has 16 cores) against the
# checks in the searches' threads (--verify-thread=0, as before), 8 CPU searches alone
# (--backend=cpu) and the default beside the farm, with the build before (.bench/yrel, 9949171)
# and clingo -t 8 in the same run; -q -n 0, one run at a time, ROUNDS rounds (default 3), 40 s, on
# the H200 machine. The new binary in .gpu/yasmin (scripts/gpu_bundle.sh), clingo 5.8.3's wheels
# in .whl, the programs ground by scripts/enum_bench.py into .bench/g.
# From the repository root: OUT=DIR bash benchmarks/enum/checks-aside-h200/run.sh
cd "$(dirname "$0")/../../.."
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site YASMIN_CACHE_DIR=/tmp/yc
mkdir -p "$OUT"
.gpu/yasmin --backend=cuda --gpu-mode=farm -q -n 0 instances/queens.aspif > /dev/null
for r in $(seq "${ROUNDS:-3}"); do
  python3 scripts/enum_bench.py --yasmin .gpu/yasmin --python python3 --timeout 40 --outputs q \
    --work .bench/g --out "$OUT/round$r.csv" \
    --config 'clingo -t 8' --config 'yasmin -t 8 --backend=cpu --verify-thread=0' \
    --config 'yasmin -t 8 --backend=cpu' --config 'yasmin@.bench/yrel -t 8' --config 'yasmin -t 8' \
    --program queens:12 --program hamiltonian:14:6 --program colouring:30:2.5 --program sub:22 \
    --program dag:16 | tee "$OUT/round$r.txt"
done
