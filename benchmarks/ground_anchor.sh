#!/bin/bash
# Grounds the 36 anchor instances of ../shared/bench (anchor.csv) with clingo's gringo into OUT,
# one file FAMILYCOLLECTION_FAMILY__INSTANCE.aspif each, skipping those already there:
#   bash benchmarks/ground_anchor.sh OUT [BENCH_DIR]
# Needs python3 with clingo.
set -euo pipefail
out=$1; bench=${2:-../shared/bench}
mkdir -p "$out"
# The loop runs in this shell (not a pipeline's subshell), so that `wait` waits for its groundings.
while read -r f; do
  coll=${f%%/*}; rest=${f#*/}; fam=${rest%%/*}
  g="$out/${coll}_${fam}__$(basename "$f" .asp).aspif"
  [ -s "$g" ] || timeout 200 python3 -m clingo --mode=gringo "$bench/$coll/$fam/encoding.asp" "$bench/$f" > "$g" 2>/dev/null &
done < <(tail -n +2 "$bench/anchor.csv" | cut -d, -f1)
wait
