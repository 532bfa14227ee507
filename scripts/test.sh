#!/usr/bin/env bash
# The test command: sets up the test environment (clingo in .venv), then runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-test-env.sh
export YASMIN_PYTHON="$PWD/.venv/bin/python"
cargo test --release "$@"
