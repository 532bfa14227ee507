#!/usr/bin/env bash
# The farm's throughput, one build against another (BASE, NEW: binaries), interleaved, ROUNDS
# rounds (default 2), one run at a time: conflicts and choices of all searches in 8 s on tight
# and non-tight instances of ../shared/bench (ground by clingo 5.8.3's gringo, GX: a folder of
# NAME.aspif.xz), and the time of Hamiltonian cycles on 15 nodes with -q -n 0 (HAM: its aspif).
# Output: $OUT/lanes.csv (build,round,instance,exit,wall_ms,conflicts,choices).
set -u
cd "$(dirname "$0")/../../.."
: "${BASE:?}" "${NEW:?}" "${GX:?}" "${OUT:?}" "${ROUNDS:=2}"
export YASMIN_CACHE_DIR=/tmp/yc
mkdir -p /tmp/lanes-in "$OUT"
for n in aspcomp2015_Visit-all__0009 planning_HanoiTower__0004 aspcomp2015_Sokoban__0308 \
    aspcomp2015_RicochetRobots__001 aspcomp2015_GraphColouring__0002 aspcomp2015_GraphColouring__0004 \
    aspcomp2015_Labyrinth__0010 aspcomp2015_Labyrinth__0207; do
    xz -dc "$GX"/"$n"-*.aspif.xz > /tmp/lanes-in/$n.aspif
done
for b in "$BASE" "$NEW"; do  # the kernels compiled once a build, outside the timings
    timeout 120 "$b" --backend=cuda --gpu-mode=farm -q -n 1 "$HAM" > /dev/null 2>&1
done
echo "build,round,instance,exit,wall_ms,conflicts,choices" > "$OUT/lanes.csv"
run() {  # build round name args...
    local b=$1 r=$2 n=$3; shift 3
    local s=$(date +%s%N)
    timeout -s KILL 60 "$b" --backend=cuda --gpu-mode=farm --stats -q "$@" > /tmp/lanes-r.txt 2>&1
    local rc=$? e=$(date +%s%N)
    local c=$(grep -E '^Conflicts' /tmp/lanes-r.txt | tr -s ' ' | cut -d' ' -f3)
    local d=$(grep -E '^Choices' /tmp/lanes-r.txt | tr -s ' ' | cut -d' ' -f3)
    echo "$(basename $(dirname $b))/$(basename $b),$r,$n,$rc,$(( (e - s) / 1000000 )),$c,$d" | tee -a "$OUT/lanes.csv"
}
for r in $(seq 1 "$ROUNDS"); do
    for f in /tmp/lanes-in/*.aspif; do
        for b in "$BASE" "$NEW"; do run "$b" "$r" "$(basename $f .aspif)" --time-limit=8 "$f"; done
    done
    for b in "$BASE" "$NEW"; do run "$b" "$r" hamiltonian-15 -n 0 "$HAM"; done
done
