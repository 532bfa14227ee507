#!/usr/bin/env bash
# bash .gpu/bench.sh OUT TIMEOUT GLOB: clingo -t 8, yasmin -t 8, yasmin -t 8 beside the farm.
set -u
out=$1 t=$2; shift 2
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site YASMIN_CACHE_DIR=/tmp/yc
source scripts/bench_files.sh
bench_files "$@"
timeout 100 .gpu/yasmin --backend=cuda -q instances/queens.aspif > /dev/null 2>&1
python3 scripts/parallel_bench.py --yasmin .gpu/yasmin --python python3 --timeout $t --out $out \
  --config 'clingo -t 8' --config 'yasmin --backend=cpu -t 8 --stats' --config 'yasmin -t 8 --backend=cuda --gpu-mode=farm --stats' \
  "${files[@]}"
