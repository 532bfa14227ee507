#!/bin/bash
# On the GPU machine's CPUs: the time of a fixed number of conflicts (--solve-limit, deciding on
# variables) and of enumerations, for two yasmin builds (.bench/yb: main at b4e3845; .bench/yn: the
# same with unchecked.patch, the watch loop read without bounds checks, not kept) and clingo 5.8.3
# (`python -m clingo`, its default mode: enum_bench.py's --mode=clasp enumerates faster, so the
# clingo column here is not the one to compare with) in the same run, one run at a time,
# ROUNDS rounds (default 5). Ground programs in .bench/c (GraphColouring 0043, planning Sokoban
# 0162 and Nomistery 0033 of ../shared/bench, by clingo's gringo) and .bench/g (scripts/enum_bench.py's
# generators: hamiltonian:14:6, queens:12). Carry .bench and .whl. From the repository root:
#   OUT=DIR bash benchmarks/engine/unchecked-h200/run.sh
cd "$(dirname "$0")/../../.."
mkdir -p $OUT
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site
t() { local s=$(date +%s.%N); "$@" > /dev/null 2>&1; local e=$(date +%s.%N); python3 -c "print(round($e-$s,3))"; }
for r in $(seq ${ROUNDS:-5}); do
  for w in "gc43 60000" "0162Sok 30000" "0033Nom 15000"; do
    set -- $w
    for b in yb yn; do echo "$r $b $1 $(t .bench/$b -q --decisions=vars --solve-limit=$2 .bench/c/$1.aspif)"; done
    echo "$r clingo $1 $(t python3 -m clingo -q --solve-limit=$2 .bench/c/$1.aspif)"
  done
  for w in hamiltonian_14_6 queens_12; do
    for tt in 1 8; do
      for b in yb yn; do echo "$r $b $w-t$tt $(t .bench/$b -q -n 0 -t $tt --backend=cpu .bench/g/$w.aspif)"; done
    done
    echo "$r clingo $w-t8 $(t python3 -m clingo -q -n 0 -t 8 .bench/g/$w.aspif)"
  done
done | tee $OUT/rounds.txt
python3 - $OUT/rounds.txt <<'PY' | tee $OUT/summary.txt
import sys, collections, statistics
d = collections.defaultdict(list)
for line in open(sys.argv[1]):
    r, b, w, s = line.split(); d[(w, b)].append(float(s))
for w in sorted({w for w, _ in d}):
    print(f"{w:20s}", "  ".join(f"{b} {statistics.median(d[(w, b)]):.3f} ({min(d[(w, b)]):.2f}-{max(d[(w, b)]):.2f})" for b in ("yb", "yn", "clingo") if (w, b) in d))
PY
