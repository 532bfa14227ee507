#!/usr/bin/env bash
# Installs what the tests need beyond Rust: a Python virtual environment in .venv with clingo
# (the differential tests and scripts ground and solve with `python -m clingo`), NVRTC (the
# kernels' compilation is tested without a GPU), and what the
# benchmark runner (scripts/bench.py) and its tests use: Dask distributed, dask-jobqueue, tqdm
# and BenchExec (runexec measures the runs where cgroups allow it). Safe to run again: it only
# installs what is missing or not at the pinned version.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
if ! .venv/bin/python -c 'import clingo' 2>/dev/null; then
    .venv/bin/pip install --quiet --disable-pip-version-check 'clingo==5.8.3'
fi
.venv/bin/python -m clingo --version | head -1
# NVRTC, CUDA's run-time compiler (CUDA 13.0, as on the GPU machine): with it the tests compile
# the CUDA kernels without a GPU (kernels_compile_with_nvrtc; scripts/test.sh puts its library
# on the loader's path).
if ! .venv/bin/python -c 'from importlib.metadata import version; assert version("nvidia-cuda-nvrtc") == "13.0.88"' 2>/dev/null; then
    .venv/bin/pip install --quiet --disable-pip-version-check 'nvidia-cuda-nvrtc==13.0.88'
fi
BENCH_PACKAGES=('dask[distributed]==2026.8.0' 'distributed==2026.8.0' 'dask-jobqueue==0.9.0' 'tqdm==4.70.1'
                'benchexec==3.35')
if ! .venv/bin/python - "${BENCH_PACKAGES[@]}" <<'PY' 2>/dev/null
import sys
from importlib.metadata import version
for spec in sys.argv[1:]:
    name, _, want = spec.partition("==")
    if version(name.split("[")[0]) != want:
        sys.exit(1)
PY
then
    .venv/bin/pip install --quiet --disable-pip-version-check "${BENCH_PACKAGES[@]}"
fi
.venv/bin/python -c 'import dask, dask_jobqueue, tqdm; print("dask", dask.__version__, "dask-jobqueue", dask_jobqueue.__version__, "tqdm", tqdm.__version__)'
