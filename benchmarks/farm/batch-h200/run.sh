#!/usr/bin/env bash
# The farm processing up to 32 trail literals at once against one at a time (BASE, NEW: binaries;
# ../ab.sh): conflicts and choices of all searches in 8 s on the eight instances of
# ../lanes-h200/run.sh (GX: a folder of NAME-*.aspif.xz), and -q -n 0 on Hamiltonian cycles on 15
# nodes (HAM: its aspif). Output: $OUT/ab.csv.
: "${HAM:?}"
NAMES="aspcomp2015_Visit-all__0009 planning_HanoiTower__0004 aspcomp2015_Sokoban__0308
    aspcomp2015_RicochetRobots__001 aspcomp2015_GraphColouring__0002 aspcomp2015_GraphColouring__0004
    aspcomp2015_Labyrinth__0010 aspcomp2015_Labyrinth__0207" ENUM="$HAM" CSV=ab.csv ROUNDS=${ROUNDS:-1} \
    exec bash "$(dirname "$0")/../ab.sh"
