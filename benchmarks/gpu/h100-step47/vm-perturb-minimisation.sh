#!/usr/bin/env bash
# The CPU engine on GraphColouring_0006 with eight perturbations of the initial scores (YASMIN_PERTURB, a throw-away
# change: vm-perturb-minimisation.patch on main 1204018), with its recursive minimisation (rec) and with the GPU's local
# one (local, YASMIN_LOCALMIN). Run from the root of a checkout with the patch applied and built.
for seed in 1 2 3 4 5 6 7 8; do
  for mode in rec local; do
    if [ $mode = local ]; then export YASMIN_LOCALMIN=1; else unset YASMIN_LOCALMIN; fi
    out=$(YASMIN_PERTURB=$seed timeout 100 ./target/release/yasmin --stats -q --time-limit=60 ${INST:-GraphColouring_0006.aspif} 2>&1)
    echo "$seed $mode $(echo "$out" | grep -E '^(SATIS|UNKNOWN)' | head -1) $(echo "$out" | grep -E '^Choices' | tr -s ' ') $(echo "$out" | grep -E 'Average Length' | tr -s ' ' | grep -oE 'Average Length: [0-9.]+')"
  done
done
