#!/bin/bash
# The optimization instances of ../shared/bench (CrossingMinimization, ValvesLocationProblem),
# grounded by clingo's gringo, then rules against variables at T seconds (default 30), 15 runs at a
# time: bash benchmarks/decisions/opt.sh OUT [BENCH_DIR]. Needs python3 with clingo.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=$1; bench=${2:-../shared/bench}; mkdir -p "$out/ground"
for fam in CrossingMinimization ValvesLocationProblem; do
  for f in "$bench"/aspcomp2015/$fam/instances/*.asp; do
    timeout 150 python3 -m clingo --mode=gringo "$bench/aspcomp2015/$fam/encoding.asp" "$f" \
      > "$out/ground/${fam}_$(basename "$f" .asp).aspif" || rm -f "$out/ground/${fam}_$(basename "$f" .asp).aspif"
  done
done
python3 scripts/parallel_bench.py --yasmin target/release/yasmin --python python3 --jobs 15 --timeout "${T:-30}" \
  --out "$out/opt.csv" --config 'clingo --stats' --config 'yasmin --backend=cpu --decisions=rules --stats' \
  --config 'yasmin --backend=cpu --decisions=vars --stats' --config 'yasmin --backend=cpu --decisions=vars --save-progress --stats' \
  "$out"/ground/*.aspif
