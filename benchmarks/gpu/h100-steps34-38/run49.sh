#!/usr/bin/env bash
# Device run 49: compute-sanitizer racecheck (shared-memory hazards) with main's head (.gpu/s38) on queens, whose search
# takes decisions in propagate_fix_k (step 36's path) without conflicts; and on ph6 (pigeonhole 6, about 1,000
# conflicts, step 38's path) for as long as the limit allows. Hard kills.
cd "$(dirname "$0")/.."
set -u
mkdir -p $OUT/keep
export YASMIN_CACHE_DIR=/tmp/yc
B=.gpu/s38
timeout -s KILL 30 $B/yasmin --backend=cuda -q instances/queens.aspif > /dev/null 2>&1
for L in res fwd; do
  timeout -s KILL 100 compute-sanitizer --tool racecheck --racecheck-report hazard $B/yasmin --backend=cuda --learning=$L -q instances/queens.aspif > $OUT/keep/racecheck-queens-$L.txt 2>&1
  echo "racecheck queens $L rc=$?: $(grep -E '^(SATIS|UNSAT|UNKNOWN)|RACECHECK SUMMARY|ERROR SUMMARY|hazard' $OUT/keep/racecheck-queens-$L.txt | head -4 | tr '\n' '|')"
done
timeout -s KILL 150 compute-sanitizer --tool racecheck --racecheck-report hazard $B/yasmin --backend=cuda -q .gpu/ph6.aspif > $OUT/keep/racecheck-ph6-res.txt 2>&1
echo "racecheck ph6 res rc=$?: $(grep -E '^(SATIS|UNSAT|UNKNOWN)|RACECHECK SUMMARY|ERROR SUMMARY|hazard' $OUT/keep/racecheck-ph6-res.txt | head -4 | tr '\n' '|')"
