#!/usr/bin/env bash
# Copies the 56 competition instances that the device runs use (the 36 of ../shared/bench's
# anchor.csv and the 20 of benchmarks/parallel/t8-h200-ab5b0aa/more-instances.txt) with their
# encodings into DEST, laid out as benchmarks/ground.sh reads them: FAMILY.enc (the family's
# encoding.asp) and FAMILY__INSTANCE.asp, FAMILY being `aspcomp2015_Sokoban` or `planning_Sokoban`.
# PermutationPatternMatching 0007 (more-instances.txt's 21st) is left out: gringo takes longer on
# it than ground.sh allows. DEST is about 0.5 MB, which the device tool carries.
#   bash scripts/bench_sources.sh .bench/src    # then carry .bench/src; GX=.bench/src
set -euo pipefail
cd "$(dirname "$0")/.."
dest=${1:?usage: scripts/bench_sources.sh DEST}
bench=${BENCH:-../shared/bench}
mkdir -p "$dest"
{
    tail -n +2 "$bench/anchor.csv" | cut -d, -f1
    # aspcomp2015_Sokoban__0044-sokoban-180-1.asp -> aspcomp2015/Sokoban/instances/0044-sokoban-180-1.asp
    sed -E 's#^(aspcomp2015|planning)_([^_]+)__(.*)$#\1/\2/instances/\3#' \
        benchmarks/parallel/t8-h200-ab5b0aa/more-instances.txt
} | grep -v 'PermutationPatternMatching/instances/0007-' | while read -r path; do
    top=${path%%/*} rest=${path#*/}
    family=${top}_${rest%%/*}
    cp "$bench/$top/${rest%%/*}/encoding.asp" "$dest/$family.enc"
    cp "$bench/$path" "$dest/${family}__$(basename "$path")"
done
echo "$(ls "$dest"/*__*.asp | wc -l) instances in $dest"
