#!/usr/bin/env bash
# The test command: sets up the test environment (clingo, NVRTC and the benchmark runner's
# packages in .venv), then runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-test-env.sh
export YASMIN_PYTHON="$PWD/.venv/bin/python"
# NVRTC's library from .venv (setup-test-env.sh), so that the kernels' compilation is tested:
# without it, that test fails instead of skipping.
for lib in "$PWD"/.venv/lib/python3*/site-packages/nvidia/cu13/lib; do
    if [ -d "$lib" ]; then export LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"; fi
done
export YASMIN_REQUIRE_NVRTC=1
cargo test --release "$@"
# The benchmark runner's tests (scripts/tests): a small campaign through a Dask LocalCluster of
# two workers against the in-process path, workers killed mid-run, resumption, --scheduler, the
# Slurm and PBS job scripts; on the yasmin the line above built.
YASMIN_BIN="${YASMIN_BIN:-${CARGO_TARGET_DIR:-$PWD/target}/release/yasmin}" \
    .venv/bin/python -m unittest discover -s scripts/tests
# The same tests in a debug build, where the invariants stated with each data structure are
# checked (check_invariants, debug assertions); the differential on fewer programs there.
YASMIN_DIFF_PROGRAMS="${YASMIN_DEBUG_DIFF_PROGRAMS:-1000}" cargo test "$@"
