#!/bin/bash
# Grounds the 36 anchor instances of ../shared/bench with clingo's gringo (once, into GROUND) and
# runs scripts/parallel_bench.py over them: T seconds (default 30), J runs at a time (default 15),
# the configurations given (`clingo ARGS`, `yasmin ARGS`, `yasmin@PATH ARGS`).
#   bash benchmarks/decisions/sign-h200/run.sh OUT.csv --config clingo --config 'yasmin --backend=cpu' \
#       --config 'yasmin --backend=cpu --decisions=vars'
# Needs python3 with clingo; run it where there are cores (the GPU machine's 16).
set -euo pipefail
cd "$(dirname "$0")/../../.."
out=$1; shift
bench=${BENCH:-../shared/bench}; ground=${GROUND:-/tmp/ga}; T=${T:-30}; J=${J:-15}
bash benchmarks/ground_anchor.sh "$ground" "$bench"
python3 scripts/parallel_bench.py --yasmin "${YASMIN:-target/release/yasmin}" --python python3 --jobs "$J" \
  --timeout "$T" --out "$out" "$@" "$ground"/*.aspif
