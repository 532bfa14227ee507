#!/usr/bin/env bash
# The farm's throughput with each step shared among a search's lanes, one build against another
# (BASE, NEW: binaries; ../ab.sh): conflicts and choices of all searches in 8 s on tight and
# non-tight instances of ../shared/bench (GX: a folder of NAME-*.aspif.xz), and the time of
# Hamiltonian cycles on 15 nodes with -q -n 0 (HAM: its aspif, named by its file in the CSV).
# Output: $OUT/lanes.csv (build,round,instance,exit,wall_ms,conflicts,choices).
: "${HAM:?}"
NAMES="aspcomp2015_Visit-all__0009 planning_HanoiTower__0004 aspcomp2015_Sokoban__0308
    aspcomp2015_RicochetRobots__001 aspcomp2015_GraphColouring__0002 aspcomp2015_GraphColouring__0004
    aspcomp2015_Labyrinth__0010 aspcomp2015_Labyrinth__0207" ENUM="$HAM" CSV=lanes.csv \
    exec bash "$(dirname "$0")/../ab.sh"
