#!/usr/bin/env bash
# Installs what the benchmark runner (scripts/bench.py, scripts/summarize.py) needs: the test
# environment (.venv with clingo, Dask, dask-jobqueue, tqdm and BenchExec, via
# scripts/setup-test-env.sh), matplotlib in the same .venv for the cactus plots, and a release
# build of yasmin (target/release/yasmin, or $CARGO_TARGET_DIR/release/yasmin). Safe to run
# again: it only installs what is missing.
#   SKIP_BUILD=1 bash scripts/setup-bench-env.sh    # environment only, no cargo build
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-test-env.sh
if ! .venv/bin/python -c 'import matplotlib' 2>/dev/null; then
    .venv/bin/pip install --quiet --disable-pip-version-check 'matplotlib>=3.7'
fi
.venv/bin/python -c 'import matplotlib; print("matplotlib", matplotlib.__version__)'
if [ "${SKIP_BUILD:-0}" != 1 ]; then
    cargo build --release --quiet
    echo "yasmin built: ${CARGO_TARGET_DIR:-target}/release/yasmin"
fi
