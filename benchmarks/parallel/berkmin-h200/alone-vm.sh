#!/bin/bash
# BerkMin after ten fixpoints of lookahead as one search, against clasp's own (its portfolio's
# sixth, s6, and its parts), on the eight Visit-all instances of ../t8-h200-ab5b0aa (ground in
# /tmp/*Visit-all*.aspif), 30 s, one at a time, the 2-core VM. Output: alone-vm.txt.
cd "$(dirname "$0")/../../.."
for x in /tmp/*Visit-all*.aspif; do
  for c in "clingo --heuristic=Berkmin,512 --restarts=x,100,1.5 --lookahead=atom,10" "clingo" \
           "yasmin --heuristic=berkmin --restarts=x,100,1.5 --lookahead=atom,10" "yasmin"; do
    set -- $c; s=$1; shift
    if [ $s = clingo ]; then cmd=(.venv/bin/python -m clingo); else cmd=(target/release/yasmin); fi
    /usr/bin/time -f "$(basename $x .aspif) | $c | %e s" timeout 30 "${cmd[@]}" -q "$@" $x 2>&1 > /dev/null | tail -1
  done
done
