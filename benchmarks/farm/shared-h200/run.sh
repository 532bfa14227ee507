#!/usr/bin/env bash
# A search's arrays in shared memory (kernels/farm.cu, FARM_SM_*), one build against another
# (BASE, NEW: binaries), interleaved, ROUNDS rounds (default 2), one run at a time: conflicts and
# choices of all searches in 8 s on four tight instances of ../shared/bench (ground by clingo
# 5.8.3's gringo, GX: a folder of NAME.aspif.xz), and the time of -q -n 0 on the programs of ENUM
# (aspif files). Output: $OUT/shared.csv (build,round,instance,exit,wall_ms,conflicts,choices),
# and each build's -V lines on the arrays it keeps in shared memory ($OUT/plans.txt).
set -u
cd "$(dirname "$0")/../../.."
: "${BASE:?}" "${NEW:?}" "${GX:?}" "${OUT:?}" "${ENUM:?}" "${ROUNDS:=2}"
export YASMIN_CACHE_DIR=/tmp/yc
mkdir -p /tmp/shared-in "$OUT"
for n in aspcomp2015_GraphColouring__0002 aspcomp2015_GraphColouring__0004 aspcomp2015_Visit-all__0009 \
    aspcomp2015_Sokoban__0308; do
    xz -dc "$GX"/"$n"-*.aspif.xz > /tmp/shared-in/$n.aspif
done
for b in "$BASE" "$NEW"; do  # the kernels compiled once a build, outside the timings
    timeout 120 "$b" --backend=cuda --gpu-mode=farm -q -n 1 instances/queens.aspif > /dev/null 2>&1
done
for f in /tmp/shared-in/*.aspif $ENUM; do
    echo "$(basename $f): $("$NEW" --backend=cuda --gpu-mode=farm -q -V --time-limit=1 "$f" 2>&1 | grep 'shared memory')"
done > "$OUT/plans.txt"
echo "build,round,instance,exit,wall_ms,conflicts,choices" > "$OUT/shared.csv"
run() {  # build round name args...
    local b=$1 r=$2 n=$3; shift 3
    local s=$(date +%s%N)
    timeout -s KILL 60 "$b" --backend=cuda --gpu-mode=farm --stats -q "$@" > /tmp/shared-r.txt 2>&1
    local rc=$? e=$(date +%s%N)
    local c=$(grep -E '^Conflicts' /tmp/shared-r.txt | tr -s ' ' | cut -d' ' -f3)
    local d=$(grep -E '^Choices' /tmp/shared-r.txt | tr -s ' ' | cut -d' ' -f3)
    echo "$(basename $(dirname $b))/$(basename $b),$r,$n,$rc,$(( (e - s) / 1000000 )),$c,$d" | tee -a "$OUT/shared.csv"
}
for r in $(seq 1 "$ROUNDS"); do
    for f in /tmp/shared-in/*.aspif; do
        for b in "$BASE" "$NEW"; do run "$b" "$r" "$(basename $f .aspif)" --time-limit=8 "$f"; done
    done
    for f in $ENUM; do
        for b in "$BASE" "$NEW"; do run "$b" "$r" "$(basename $f .aspif)" -n 0 "$f"; done
    done
done
