#!/bin/bash
# The farm on programs that are not tight (#26): the eight Labyrinths of ../shared/bench (anchor's
# six and two more, ground by gringo in .bench/gx), one model, 10 s, one run at a time, on the
# H200 machine: the farm alone, the farm beside 8 CPU searches, yasmin -t 8 and clingo -t 8. The
# binary in .gpu/yasmin (scripts/gpu_bundle.sh), clingo 5.8.3's wheels in .whl.
# From the repository root: OUT=DIR bash benchmarks/farm/loops-h200/run.sh
cd "$(dirname "$0")/../../.."
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site
mkdir -p $OUT /tmp/lab
for f in .bench/gx/*Labyrinth*.aspif.xz; do xz -dc $f > /tmp/lab/$(basename $f .xz); done
.gpu/yasmin --backend=cuda --gpu-mode=farm -q instances/hamiltonian.aspif > /dev/null
python3 scripts/parallel_bench.py --yasmin .gpu/yasmin --python python3 --jobs 1 --timeout 10 --out $OUT/labyrinths.csv \
  --config 'clingo -t 8' --config 'yasmin --backend=cpu -t 8 --stats' --config 'yasmin --backend=cuda --gpu-mode=farm --stats' \
  --config 'yasmin -t 8 --backend=cuda --gpu-mode=farm --stats' /tmp/lab/*.aspif 2>&1 | tee $OUT/labyrinths.txt
