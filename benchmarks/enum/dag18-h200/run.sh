#!/bin/bash
# dag:18 (1,855,069 models, -q -n 0) one search against clingo, three rounds, one run at a time,
# on the H200 machine (2026-11-29, 8c1973b): yasmin as it is, pinned to two cores and to one, and
# with its models verified in the search's thread. From the repository root, the binary in .gpu/
# (scripts/gpu_bundle.sh) and clingo 5.8.3's wheels in .whl: bash benchmarks/enum/dag18-h200/run.sh
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site
python3 instances/gen/dag/generate.py --n 18 --seed 1 | python3 -m clingo --mode=gringo instances/gen/dag/encoding.lp - > /tmp/dag18.aspif
lscpu | grep -E "Model name|Socket|NUMA node|Thread|Core"
TIMEFORMAT="%R s"
for r in 1 2 3; do
  echo "round $r"
  for c in "python3 -m clingo" ".gpu/yasmin" "taskset -c 2,3 .gpu/yasmin" "taskset -c 2 .gpu/yasmin" ".gpu/yasmin --verify-thread=0"; do
    echo "  $c: $( { time $c -q -n 0 /tmp/dag18.aspif > /dev/null; } 2>&1 )"
  done
done
