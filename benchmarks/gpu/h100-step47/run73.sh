#!/usr/bin/env bash
# Device run 73: Nsight Compute's warp-state sampling of propagate_fix_k (main after step 46, .gpu/s46, PTX with line
# info) on GraphColouring_0006 under res: where block 0's analysis and input rounds stall, by source line.
cd "$(dirname "$0")/../../.."
set -u
mkdir -p $OUT/keep
tar xJf .gpu/inst.tar.xz -C .gpu
export YASMIN_CACHE_DIR=/tmp/yc YASMIN_CUDA_LINEINFO=1
I=.gpu/inst
B=.gpu/s46
which ncu; ncu --version | tail -1
timeout -s KILL 200 ncu --clock-control none --kernel-name propagate_fix_k --launch-skip 3000 --launch-count 20 \
  --section SourceCounters --section WarpStateStats --import-source yes -o /tmp/gc -f \
  $B/yasmin --backend=cuda --learning=res -q --time-limit=60 $I/GraphColouring_0006.aspif > $OUT/keep/ncu-run.txt 2>&1
echo "ncu rc=$?"; tail -5 $OUT/keep/ncu-run.txt
timeout -s KILL 200 ncu -i /tmp/gc.ncu-rep --page source --csv --print-source cuda > $OUT/keep/gc-cuda.csv 2> $OUT/keep/gc-cuda.err
echo "cuda csv rc=$? $(wc -c < $OUT/keep/gc-cuda.csv)"; head -c 600 $OUT/keep/gc-cuda.csv; head -3 $OUT/keep/gc-cuda.err
timeout -s KILL 200 ncu -i /tmp/gc.ncu-rep --page details --csv > $OUT/keep/gc-details.csv 2>&1
echo "details rc=$? $(wc -c < $OUT/keep/gc-details.csv)"
xz -k $OUT/keep/gc-cuda.csv 2>/dev/null; ls -la $OUT/keep
