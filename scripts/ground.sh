#!/usr/bin/env bash
# Regenerates the ground programs next to every instances/*.lp: NAME.aspif and NAME.smodels,
# with clingo's grounder (python -m clingo --mode=gringo), installed by scripts/setup-test-env.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
py=${YASMIN_PYTHON:-.venv/bin/python}
[ -x "$py" ] || bash scripts/setup-test-env.sh
for lp in instances/*.lp; do
    base=${lp%.lp}
    "$py" -m clingo --mode=gringo "$lp" > "$base.aspif"
    "$py" -m clingo --mode=gringo -o smodels "$lp" > "$base.smodels"
    echo "grounded $lp"
done
