#!/bin/bash
# One search against clingo on the 56 instances of ../decisions/effort-h200 and two copies of
# each that break ties differently (scripts/shuffle_aspif.py: statements in random order, atoms
# renamed): 30 s (T), sixteen runs at a time on the GPU machine's 16 cores. Sources in .bench/src and
# .bench/src2, ground here by clingo 5.8.3's gringo (wheels in .whl); the stripped binary in
# .bench/y. The configurations are the arguments (default: clingo, yasmin, and yasmin
# --strengthen=local, as in strengthen-h200/). From the repository root:
#   [T=SECONDS] OUT=DIR bash benchmarks/shuffled/run.sh [--config 'yasmin --backend=cpu --update-lbd=less' ...]
# GROUND_SRC=.bench/gx takes the 56 ground before, xz-compressed (benchmarks/ground.sh), instead.
cd "$(dirname "$0")/../.."
mkdir -p $OUT
t0=$(date +%s)
configs=("$@")
[ ${#configs[@]} -gt 0 ] || configs=(--config 'clingo' --config 'yasmin --backend=cpu' --config 'yasmin --backend=cpu --strengthen=local')
source benchmarks/ground.sh /tmp/g ${GROUND_SRC:-.bench/src .bench/src2}
mkdir -p /tmp/gs && cp /tmp/g/*.aspif /tmp/gs/
ls /tmp/g/*.aspif | xargs -P 16 -n 1 python3 scripts/shuffle_aspif.py --copies 2 --out /tmp/gs
echo "copies $(ls /tmp/gs | wc -l) at $(( $(date +%s) - t0 )) s"
python3 scripts/parallel_bench.py --yasmin .bench/y --python python3 --jobs 16 --timeout ${T:-30} --out $OUT/shuffled.csv \
  "${configs[@]}" /tmp/gs/*.aspif > $OUT/shuffled.txt 2>&1
echo "done at $(( $(date +%s) - t0 )) s"; tail -4 $OUT/shuffled.txt
