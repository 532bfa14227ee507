#!/usr/bin/env bash
# Installs what the tests need beyond Rust: a Python virtual environment in .venv with clingo
# (the differential tests and scripts ground and solve with `python -m clingo`).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
if ! .venv/bin/python -c 'import clingo' 2>/dev/null; then
    .venv/bin/pip install --quiet --disable-pip-version-check 'clingo==5.8.3'
fi
.venv/bin/python -m clingo --version | head -1
