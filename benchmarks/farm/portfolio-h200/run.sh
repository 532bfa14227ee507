#!/usr/bin/env bash
# The farm's searches as a portfolio (portfolio.patch: farm_kind_d, four kinds of restarts and
# decay) against every search alike, one build against another (BASE, NEW: binaries;
# ../ab.sh): the time to an answer within 8 s, and the conflicts of all searches, on instances the
# farm answers (GX: a folder of NAME-*.aspif.xz: ../shared/bench's ground by clingo 5.8.3's gringo,
# and pigeonhole_9, .bench/ph's ph9 compressed). Output: $OUT/portfolio.csv.
set -u
: "${BASE:?}" "${NEW:?}" "${GX:?}" "${OUT:?}"
NAMES="aspcomp2015_GraphColouring__0004 aspcomp2015_GraphColouring__0020 aspcomp2015_Labyrinth__0010
    aspcomp2015_Labyrinth__0092 planning_Labyrinth__0025 planning_Labyrinth__0045
    aspcomp2015_RicochetRobots__001 planning_RicochetRobots__007 planning_RicochetRobots__018
    pigeonhole_9" ENUM="" CSV=portfolio.csv bash "$(dirname "$0")/../ab.sh"
