#!/bin/bash
# The farm's start-up (#27): its cubes made by up to 8 threads while the device opens, against
# the farm before (cubes by one thread, after the device opened: the binary in .bench/yold) and
# clingo -t 8, queens 12 to 14, -q -n 0, one run at a time, three rounds, 40 s, on the H200
# machine; the new binary in .gpu/yasmin (scripts/gpu_bundle.sh), clingo 5.8.3's wheels in .whl.
# Then the start-up's phases of each farm on queens 13, at -V's debug level.
# From the repository root: OUT=DIR bash benchmarks/enum/farm-startup-h200/run.sh
cd "$(dirname "$0")/../../.."
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site
mkdir -p $OUT
# The kernels compiled once (NVRTC), then cached on disk for both binaries.
for b in .gpu/yasmin .bench/yold; do $b --backend=cuda --gpu-mode=farm -q -n 0 instances/queens.aspif > /dev/null; done
farm="--backend=cuda --gpu-mode=farm"
configs=(--config 'clingo -t 8' --config "yasmin@.bench/yold $farm" --config "yasmin@.gpu/yasmin $farm")
for r in 1 2 3; do
  python3 scripts/enum_bench.py --python python3 --timeout 40 --outputs q --out $OUT/round$r.csv \
    "${configs[@]}" --program queens:12 --program queens:13 --program queens:14 2>&1 | tee $OUT/round$r.txt
done
python3 instances/gen/queens/generate.py --n 13 | python3 -m clingo --mode=gringo instances/gen/queens/encoding.lp - > /tmp/q13.aspif
TIMEFORMAT="%R s elapsed"
for b in .bench/yold .gpu/yasmin; do
  for r in 1 2; do
    echo "== $b, round $r"
    { time $b $farm -q -n 0 -V /tmp/q13.aspif; } 2>&1 | grep -E "search farm|CUDA|elapsed|Models"
  done
done 2>&1 | tee $OUT/phases.txt
