#!/bin/bash
# Large non-tight programs: generated Steiner trees (steiner.lp: reachability from a root, a
# #minimize over edge weights) and the anchor set's non-tight Labyrinth instances, ground by
# clingo; yasmin against clingo, one search, T s each (default 20), J at a time (default 6).
# Usage: benchmarks/nontight/run.sh [YASMIN] [extra --config ...]; run on the GPU machine's cores.
set -e
cd "$(dirname "$0")/../.."
Y=${1:-target/release/yasmin}; shift || true
PY=${PYTHON:-.venv/bin/python}
D=${OUT:-/tmp/nontight}; mkdir -p "$D"
B=benchmarks/nontight
[ -s $D/grid150.aspif ] || { python3 $B/gen.py grid 150 30 1 > $D/grid150.lp; $PY -m clingo --mode=gringo $B/steiner.lp $D/grid150.lp > $D/grid150.aspif; }
[ -s $D/grid250.aspif ] || { python3 $B/gen.py grid 250 40 3 > $D/grid250.lp; $PY -m clingo --mode=gringo $B/steiner.lp $D/grid250.lp > $D/grid250.aspif; }
[ -s $D/random3k.aspif ] || { python3 $B/gen.py random 3000 60000 40 2 > $D/random3k.lp; $PY -m clingo --mode=gringo $B/steiner.lp $D/random3k.lp > $D/random3k.aspif; }
files="$D/grid150.aspif $D/grid250.aspif $D/random3k.aspif"
for i in ${LABYRINTHS:-}; do files="$files $i"; done
python3 $B/rate.py --timeout ${T:-20} --jobs ${J:-6} --yasmin "$Y" --python "$PY" \
  --config clingo --config 'yasmin --backend=cpu' --config 'yasmin --backend=cpu --opt-strategy=bb' "$@" $files
