#!/bin/bash
# Conflict rates, -t 1 against -t 8, clingo and yasmin, GraphColouring 0043/0020, 10 s each; queens
# 12 to 14 and Hamiltonian cycles enumerated. Run from the repository's root on the GPU machine, with
# clingo's wheels in .whl/ and in .bench/: the binary (y, or Y=PATH), gc43.aspif and gc20.aspif
# (GraphColouring 0043 and 0020 of ../shared/bench ground by clingo's gringo), q12..q14.aspif and
# ham14.aspif (instances/gen: queens --n N; hamiltonian --n 14 --seed 1 --d 6 --plant 1).
cd "$(dirname "$0")/../.."
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site
lscpu | grep -E "^CPU\(s\)|Thread|Core|Socket|Model name|L3"
Y=${Y:-.bench/y}
st() { grep -E "^Conflicts|^Choices|^Time|^Threads|^Models|^CPU Time" | tr -s ' ' | tr '\n' ' '; echo; }
for f in gc43 gc20; do
  for c in "-t 1" "-t 8"; do
    echo "== $f clingo $c"; python3 -m clingo -q --stats --time-limit=10 $c .bench/$f.aspif | st
    echo "== $f yasmin $c"; $Y -q --stats --time-limit=10 $c .bench/$f.aspif | st
  done
  echo "== $f yasmin -t 8 --distribute=no"; $Y -q --stats --time-limit=10 -t 8 --distribute=no .bench/$f.aspif | st
  echo "== $f yasmin -t 8 --configuration=... (all vars)"; $Y -q --stats --time-limit=10 -t 8 --decisions=vars .bench/$f.aspif | st
done
for f in q12 q13 q14 ham14; do
  for c in "clingo -t 8" "y -t 1" "y -t 8" "y -t 16" "clingo -t 16"; do
    case $c in clingo*) cmd="python3 -m clingo ${c#clingo }";; *) cmd="$Y ${c#y }";; esac
    echo "== $f $c"; timeout 70 $cmd --time-limit=60 -q -n 0 --stats .bench/$f.aspif | st
  done
done
