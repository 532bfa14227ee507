#!/usr/bin/env bash
# A search's arrays in shared memory (kernels/farm.cu, FARM_SM_*), one build against another
# (BASE, NEW: binaries; ../ab.sh): conflicts and choices of all searches in 8 s on four tight
# instances of ../shared/bench (GX: a folder of NAME-*.aspif.xz), and the time of -q -n 0 on the
# programs of ENUM (aspif files). Output: $OUT/shared.csv, and the arrays NEW keeps in shared
# memory on each program (-V's line, $OUT/plans.txt).
set -u
: "${NEW:?}" "${GX:?}" "${OUT:?}" "${ENUM:?}"
NAMES="aspcomp2015_GraphColouring__0002 aspcomp2015_GraphColouring__0004 aspcomp2015_Visit-all__0009
    aspcomp2015_Sokoban__0308" CSV=shared.csv bash "$(dirname "$0")/../ab.sh"
cd "$(dirname "$0")/../../.."
for f in /tmp/ab-in/*.aspif $ENUM; do
    echo "$(basename $f): $("$NEW" --backend=cuda --gpu-mode=farm -q -V --time-limit=1 "$f" 2>&1 | grep 'shared memory')"
done > "$OUT/plans.txt"
