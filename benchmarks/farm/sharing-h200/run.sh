#!/usr/bin/env bash
# How often the farm's searches take in the exchanged nogoods: one build (BASE) against two
# variants (RESTART: the Luby unit 50 instead of 100, so twice the restarts and imports; IMPORTS:
# the latest 1,024 exchanged nogoods a restart instead of 256), through ../ab.sh: the time to an
# answer within 8 s and the conflicts of all searches, two rounds, on instances of ../shared/bench
# (GX: a folder of NAME-*.aspif.xz) and pigeonhole_9. Output: $OUT/restart.csv, $OUT/imports.csv.
set -u
: "${BASE:?}" "${RESTART:?}" "${IMPORTS:?}" "${GX:?}" "${OUT:?}"
export NAMES="pigeonhole_9 aspcomp2015_GraphColouring__0002 aspcomp2015_GraphColouring__0020
    aspcomp2015_GraphColouring__0004 aspcomp2015_Labyrinth__0092 aspcomp2015_RicochetRobots__001"
NEW="$RESTART" CSV=restart.csv bash "$(dirname "$0")/../ab.sh"
NEW="$IMPORTS" CSV=imports.csv bash "$(dirname "$0")/../ab.sh"
