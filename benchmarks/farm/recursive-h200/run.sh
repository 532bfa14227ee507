#!/bin/bash
# The farm on aggregates that support atoms on positive cycles (#26): bootstrap percolation
# (gen.py), nine instances near the threshold, one model, 10 s, one run at a time, on the H200
# machine: the farm, yasmin -t 8 and clingo -t 8. The binary in .gpu/yasmin
# (scripts/gpu_bundle.sh), the programs ground beforehand into .gpu/rec by clingo 5.8.3's gringo:
#   for a in "100 16" "100 17" "100 18" "120 20" "120 22" "150 24" "150 26" "150 28" "200 32"; do
#     set -- $a; python3 gen.py $1 5 $2 3 1 | python -m clingo --mode=gringo > .gpu/rec/percolation-$1-5-$2-3-1.aspif
#   done
# clingo's wheels in .whl. From the repository root: OUT=DIR bash benchmarks/farm/recursive-h200/run.sh
cd "$(dirname "$0")/../../.."
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site
mkdir -p $OUT
# The first farm run compiles the kernels (then cached on disk).
.gpu/yasmin --backend=cuda --gpu-mode=farm -q instances/hamiltonian.aspif > /dev/null
python3 scripts/parallel_bench.py --yasmin .gpu/yasmin --python python3 --jobs 1 --timeout ${T:-10} --out $OUT/percolation.csv \
  --config 'clingo -t 8' --config 'yasmin --backend=cpu -t 8 --stats' --config 'yasmin --backend=cuda --gpu-mode=farm --stats' \
  .gpu/rec/*.aspif 2>&1 | tee $OUT/percolation.txt
