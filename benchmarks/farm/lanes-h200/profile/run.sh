#!/usr/bin/env bash
# Where farm_search_k's time goes, by source line: ncu's warp-state samples of one time slice
# (the 11th launch) with the kernels compiled with line information (YASMIN_CUDA_LINEINFO), then
# ncu_lines.py (on the device: ncu's Python module) and byfunc.py (anywhere: by function).
# Usage on the device machine, from the repository root: BIN=.gpu/yasmin OUT=DIR bash
# benchmarks/farm/lanes-h200/profile/run.sh FILE.aspif [yasmin options...]
set -u
export YASMIN_CUDA_LINEINFO=1 YASMIN_CACHE_DIR=/tmp/yc-lines
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu | head -1)
here=$(dirname "$0")
f=$1; shift
b=$(basename "$f" .aspif)
timeout 120 "$BIN" --backend=cuda --gpu-mode=farm --time-limit=2 -q instances/queens.aspif > /dev/null 2>&1
timeout 300 "$NCU" --clock-control none --kernel-name farm_search_k --launch-skip 10 --launch-count 1 \
    --section SourceCounters --section WarpStateStats --import-source no --kill yes -o "/tmp/$b" \
    "$BIN" --backend=cuda --gpu-mode=farm --time-limit=60 -q "$@" "$f" > "$OUT/$b.run.txt" 2>&1
python3 "$here/ncu_lines.py" "/tmp/$b.ncu-rep" "$OUT/$b.lines"
python3 "$here/byfunc.py" "$OUT/$b.lines" | head -20
