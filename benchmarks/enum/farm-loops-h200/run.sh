#!/bin/bash
# The farm on a program that is not tight (#26, #27): Hamiltonian cycles, -q -n 0, the farm's
# searches with their unfounded-set checks (kernels/farm_unfounded.cu) against clingo -t 8 and
# yasmin -t 8 (split mode, CPU), one run at a time, two rounds, 40 s, on the H200 machine; the
# binary in .gpu/yasmin (scripts/gpu_bundle.sh), clingo 5.8.3's wheels in .whl.
# From the repository root: OUT=DIR bash benchmarks/enum/farm-loops-h200/run.sh
cd "$(dirname "$0")/../../.."
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site
mkdir -p $OUT
# The kernels compiled once (NVRTC), then cached on disk.
.gpu/yasmin --backend=cuda --gpu-mode=farm -q -n 0 instances/hamiltonian.aspif > /dev/null
configs=(--config 'clingo -t 8' --config 'yasmin@.gpu/yasmin --backend=cpu -t 8' --config 'yasmin@.gpu/yasmin --backend=cuda --gpu-mode=farm')
for r in 1 2; do
  python3 scripts/enum_bench.py --python python3 --timeout 40 --outputs q --out $OUT/round$r.csv \
    "${configs[@]}" --program hamiltonian:14:6 --program hamiltonian:15:6 ${MORE---program sub:22 --program colouring:30:2.5} \
    2>&1 | tee $OUT/round$r.txt
done
# Where the farm's time goes, at -V's debug level.
.gpu/yasmin --backend=cuda --gpu-mode=farm -q -n 0 -V --stats /tmp/yasmin-enum-bench/hamiltonian_15_6.aspif > $OUT/farm-V.txt 2>&1
