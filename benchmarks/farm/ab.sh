#!/usr/bin/env bash
# The farm, one build against another (BASE, NEW: binaries), interleaved, ROUNDS rounds (default
# 2), one run at a time, on the H200 machine: conflicts and choices of all searches in 8 s on the
# instances NAMES of ../shared/bench (ground by clingo 5.8.3's gringo, GX: a folder of
# NAME-*.aspif.xz), and the time of -q -n 0 on the aspif files of ENUM (may be empty). Output: $OUT/$CSV
# (build,round,instance,exit,wall_ms,conflicts,choices; a build named by its folder and file).
# Used by lanes-h200/run.sh and shared-h200/run.sh.
set -u
cd "$(dirname "$0")/../.."
: "${BASE:?}" "${NEW:?}" "${GX:?}" "${OUT:?}" "${NAMES:?}" "${ENUM=}" "${CSV:?}" "${ROUNDS:=2}"
export YASMIN_CACHE_DIR=/tmp/yc
mkdir -p /tmp/ab-in "$OUT"
rm -f /tmp/ab-in/*.aspif
for n in $NAMES; do xz -dc "$GX"/"$n"-*.aspif.xz > /tmp/ab-in/$n.aspif; done
for b in "$BASE" "$NEW"; do  # the kernels compiled once a build, outside the timings
    timeout 120 "$b" --backend=cuda --gpu-mode=farm -q -n 1 instances/queens.aspif > /dev/null 2>&1
done
echo "build,round,instance,exit,wall_ms,conflicts,choices" > "$OUT/$CSV"
run() {  # build round name args...
    local b=$1 r=$2 n=$3; shift 3
    local s=$(date +%s%N)
    timeout -s KILL 60 "$b" --backend=cuda --gpu-mode=farm --stats -q "$@" > /tmp/ab-r.txt 2>&1
    local rc=$? e=$(date +%s%N)
    local c=$(grep -E '^Conflicts' /tmp/ab-r.txt | tr -s ' ' | cut -d' ' -f3)
    local d=$(grep -E '^Choices' /tmp/ab-r.txt | tr -s ' ' | cut -d' ' -f3)
    echo "$(basename $(dirname $b))/$(basename $b),$r,$n,$rc,$(( (e - s) / 1000000 )),$c,$d" | tee -a "$OUT/$CSV"
}
for r in $(seq 1 "$ROUNDS"); do
    for f in /tmp/ab-in/*.aspif; do
        for b in "$BASE" "$NEW"; do run "$b" "$r" "$(basename $f .aspif)" --time-limit=8 "$f"; done
    done
    for f in $ENUM; do
        for b in "$BASE" "$NEW"; do run "$b" "$r" "$(basename $f .aspif)" -n 0 "$f"; done
    done
done
