#!/usr/bin/env bash
# The test command: sets up the test environment (clingo in .venv), then runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-test-env.sh
export YASMIN_PYTHON="$PWD/.venv/bin/python"
cargo test --release "$@"
# The same tests in a debug build, where the invariants stated with each data structure are
# checked (check_invariants, debug assertions); the differential on fewer programs there.
YASMIN_DIFF_PROGRAMS="${YASMIN_DEBUG_DIFF_PROGRAMS:-1000}" cargo test "$@"
