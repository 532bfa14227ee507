#!/bin/bash
# One instance of each tight family, one search, 30 s, two runs at a time on the VM: yasmin by
# rules (the default here), by variables, and clingo; time, choices, conflicts and the learned
# nogoods' mean length from each one's --stats. GROUND: a folder with NAME.aspif of each.
# Output: stats.txt (one line a run).
cd "$(dirname "$0")/../../.."
GROUND=${GROUND:?a folder of ground programs}
Y=${YASMIN:-target/release/yasmin}
run() {
  f=$1; shift; cfg="$*"
  case $cfg in
    clingo) out=$(timeout 30 .venv/bin/python -m clingo --mode=clasp --stats=2 -q $GROUND/$f.aspif 2>/dev/null)
            len=$(echo "$out" | awk '/^  Conflict/ {for (i=1;i<=NF;i++) if ($i=="Length:") print $(i+1)}') ;;
    *)      out=$(timeout 30 $Y --stats -q $cfg $GROUND/$f.aspif 2>/dev/null)
            len=$(echo "$out" | awk '/^Lemma length/ {print $4}') ;;
  esac
  res=$(echo "$out" | grep -m1 -E '^(SATISFIABLE|UNSATISFIABLE|UNKNOWN|OPTIMUM)' || echo TIMEOUT)
  t=$(echo "$out" | awk '/^Time/ {print $3}')
  ch=$(echo "$out" | awk '/^Choices/ {print $3}'); co=$(echo "$out" | awk '/^Conflicts/ {print $3}')
  printf '%-48s %-18s %-14s %8s %10s %9s %7s\n' "$f" "${cfg:-rules}" "$res" "${t:-30s}" "$ch" "$co" "$len"
}
export -f run; export GROUND Y
for i in planning_RicochetRobots__018-ricochetrobot-14-0 planning_Sokoban__0162-sokoban-31-1 \
  planning_HanoiTower__0040-hanoi_tower-80-0 planning_Visit-all__0031-visitall-39-1 \
  aspcomp2015_Visit-all__0051-visitall-42-1 aspcomp2015_Sokoban__0308-sokoban-73-1 \
  aspcomp2015_GraphColouring__0004-graph_colouring-125-0 aspcomp2015_PermutationPatternMatching__0034-ppm-200-0 \
  planning_Nomistery__0033-nomystery-32-0 aspcomp2015_RicochetRobots__001-ricochetrobot-12-0; do
  for c in "" "--decisions=vars" clingo; do echo "$i $c"; done
done | sed 's/ $/ -/' | xargs -P 2 -L 1 bash -c 'f=$0; c=$1; [ "$c" = - ] && c=; run $f $c' > benchmarks/decisions/tight-vm/stats.txt
