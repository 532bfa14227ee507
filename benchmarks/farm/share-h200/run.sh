#!/usr/bin/env bash
# The farm's searches sharing nogoods on the device (--distribute's default) or not
# (--distribute=no; then each search is deterministic: the same winner at the same conflict), on
# the 18 tight instances of ../batch-h200/t18.sh (GX: their aspif.xz) and six non-tight Labyrinth
# ones (LAB: 0010, 0014, 0044, 0048, 0063, 0073 of ../shared/bench), T seconds (default 6), R
# rounds (default 1), one run at a time on the H200 machine, with a stripped yasmin at Y.
# CONFIGS: `;`-separated options after --backend=cuda (default: the farm alone, sharing or not);
# ONLY: a pattern of the instances' names to run (default: all). A line a run: time, status,
# winner, the conflicts of all searches.
set -u
cd "$(dirname "$0")/../../.."
: "${GX:?}" "${LAB:?}" "${Y:?}"
mkdir -p /tmp/hs
for f in "$GX"/*.aspif.xz "$LAB"/*.aspif.xz; do xz -dc "$f" > /tmp/hs/$(basename "$f" .aspif.xz).aspif; done
export YASMIN_CACHE_DIR=/tmp/yc
timeout 120 "$Y" --backend=cuda --gpu-mode=farm -q instances/queens.aspif > /dev/null 2>&1
IFS=';' read -ra configs <<< "${CONFIGS:---gpu-mode=farm --distribute=all,4,64;--gpu-mode=farm --distribute=no}"
for r in $(seq 1 "${R:-1}"); do
    for f in $(ls /tmp/hs/*.aspif | grep -E "${ONLY:-.}"); do
        for c in "${configs[@]}"; do
            s=$(date +%s.%N)
            out=$(timeout $(( ${T:-6} + 4 )) "$Y" --backend=cuda $c --time-limit=${T:-6} -q --stats "$f" 2>&1 |
                grep -E '^(SAT|UNSAT|UNKNOWN)|^Conflicts|^Threads' | tr -s ' ' | tr '\n' ' ')
            e=$(date +%s.%N)
            echo "$(basename "$f" .aspif) r$r [$c] $(python3 -c "print(round($e - $s, 2))") s $out"
        done
    done
done
