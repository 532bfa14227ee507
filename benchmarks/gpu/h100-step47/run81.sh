#!/usr/bin/env bash
# Device run 81: how long the GPU's res search takes on GraphColouring_0006 (main after step 47, .gpu/s48): five runs
# with a 30 s limit, the spread of a heavy-tailed search. Hard kills everywhere.
cd "$(dirname "$0")/../../.."
set -u
mkdir -p $OUT/keep
tar xJf .gpu/inst.tar.xz -C .gpu
export YASMIN_CACHE_DIR=/tmp/yc
I=.gpu/inst
timeout -s KILL 30 .gpu/s48/yasmin --backend=cuda -q instances/queens.aspif > /dev/null 2>&1
timeout -s KILL 200 python3 scripts/engine_bench.py --yasmin .gpu/s48/yasmin --timeout 30 --configs cuda:res --no-clingo --repeat 5 \
  --csv $OUT/keep/engine_bench_gc30.csv $I/GraphColouring_0006.aspif > $OUT/keep/gc30.md 2> $OUT/keep/gc30.log
grep -E "^\|" $OUT/keep/gc30.md | cut -c1-200; cut -d, -f1-6 $OUT/keep/engine_bench_gc30.csv
