#!/usr/bin/env bash
# Device run 86: how often, over four seeds, the CUDA engine solves the three instances nearest the 10 s limit alone
# (-t 1: the seed changes nothing, the runs differ only by the device's order of concurrent propagations), with 4 and
# with 8 searches (.gpu/s49). Hard kills everywhere.
cd "$(dirname "$0")/../../.."
set -u
mkdir -p $OUT/keep
tar xJf .gpu/inst.tar.xz -C .gpu
export YASMIN_CACHE_DIR=/tmp/yc
I=.gpu/inst
B=.gpu/s49
timeout -s KILL 30 $B/yasmin --backend=cuda -q instances/queens.aspif > /dev/null 2>&1
timeout -s KILL 570 python3 scripts/engine_bench.py --yasmin $B/yasmin --timeout 10 --configs cuda:res,cuda:res:t4,cuda:res:t8 --no-clingo \
  --repeat 4 --csv $OUT/keep/engine_bench_edge.csv $I/GraphColouring_0006.aspif $I/ppm-200.aspif $I/pigeonhole-9.aspif > $OUT/keep/edge.md 2> $OUT/keep/edge.log
grep -E "^\|" $OUT/keep/edge.md | cut -c1-200; cut -d, -f1-5 $OUT/keep/engine_bench_edge.csv | tail -n +2 | tr '\n' ' '
