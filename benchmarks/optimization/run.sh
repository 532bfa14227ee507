#!/bin/bash
# Optimization strategies: grounds the 40 optimization instances of ../shared/bench
# (CrossingMinimization, ValvesLocationProblem) and the 36 of anchor with clingo's gringo, then runs
# scripts/parallel_bench.py, one search, T seconds (default 30), 15 runs at a time:
#   bash benchmarks/optimization/run.sh OUT [BENCH_DIR] [YASMIN]
# Needs python3 with clingo. Run it where there are cores (the GPU machine's 16).
set -euo pipefail
cd "$(dirname "$0")/../.."
out=$1; bench=${2:-../shared/bench}; yasmin=${3:-target/release/yasmin}; T=${T:-30}
mkdir -p "$out/opt" "$out/anchor"
for fam in CrossingMinimization ValvesLocationProblem; do
  for f in "$bench"/aspcomp2015/$fam/instances/*.asp; do
    [ -e "$f" ] || continue
    g="$out/opt/${fam:0:2}_$(basename "$f" .asp).aspif"
    [ -s "$g" ] || timeout 200 python3 -m clingo --mode=gringo "$bench/aspcomp2015/$fam/encoding.asp" "$f" > "$g" 2>/dev/null &
  done
done
wait
bash benchmarks/ground_anchor.sh "$out/anchor" "$bench"
bench_run() {
  python3 scripts/parallel_bench.py --yasmin "$yasmin" --python python3 --jobs 15 --timeout "$T" "$@"
}
bench_run --out "$out/opt.csv" --config 'clingo' --config 'clingo --opt-strategy=usc,oll,stratify' \
  --config 'yasmin --backend=cpu' --config 'yasmin --backend=cpu --opt-strategy=bb' "$out"/opt/*.aspif
bench_run --out "$out/anchor.csv" --config 'clingo' --config 'yasmin --backend=cpu' --config 'yasmin --backend=cpu --opt-strategy=bb' \
  "$out"/anchor/*.aspif
