#!/bin/bash
# #27: short -t 8 -n 0 runs after the driver's files are left to a child at the process' end
# (engine/cuda/release.rs), against main before (.bench/yold), 8 CPU searches alone
# (--backend=cpu) and clingo -t 8 in the same run; -q -n 0, one run at a time, ROUNDS rounds
# (default 3), 40 s, on the H200 machine. The new binary in .gpu/yasmin (scripts/gpu_bundle.sh),
# clingo 5.8.3's wheels in .whl, the programs ground by scripts/enum_bench.py into .bench/g.
# From the repository root: OUT=DIR bash benchmarks/enum/driver-release-h200/run.sh
cd "$(dirname "$0")/../../.."
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site YASMIN_CACHE_DIR=/tmp/yc
mkdir -p "$OUT"
# The kernels compiled once, into the cache, before the runs.
.gpu/yasmin --backend=cuda --gpu-mode=farm -q -n 0 instances/queens.aspif > /dev/null
for r in $(seq "${ROUNDS:-3}"); do
  python3 scripts/enum_bench.py --yasmin .gpu/yasmin --python python3 --timeout 40 --outputs q \
    --work .bench/g --out "$OUT/round$r.csv" \
    --config 'clingo -t 8' --config 'yasmin@.bench/yold -t 8' --config 'yasmin -t 8' \
    --config 'yasmin -t 8 --backend=cpu' \
    --program queens:12 --program hamiltonian:14:6 --program colouring:30:2.5 --program sub:22 \
    --program dag:16 --program queens:13 | tee "$OUT/round$r.txt"
done
