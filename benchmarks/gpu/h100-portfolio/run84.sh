#!/usr/bin/env bash
# Device run 84: the paper's Table 1 instances with parallel search (.gpu/s49: main plus --parallel-mode), 10 s limit,
# clingo 5.8.3 in the same run: the CUDA engine with 8 and 16 searches, the CPU engine alone and with 8 threads.
# PART=1: the competition instances; PART=2: the generated ones. Hard kills everywhere.
cd "$(dirname "$0")/../../.."
set -u
mkdir -p $OUT/keep
tar xJf .gpu/inst.tar.xz -C .gpu
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl 2>&1 | tail -1; export PYTHONPATH=/tmp/site
export YASMIN_CACHE_DIR=/tmp/yc
I=.gpu/inst
B=.gpu/s49
C=cuda:res:t8,cuda:res:t16,cpu:res,cpu:res:t8
timeout -s KILL 30 $B/yasmin --backend=cuda -q instances/queens.aspif > /dev/null 2>&1
if [ "${PART:-1}" = 1 ]; then
  timeout -s KILL 560 python3 scripts/engine_bench.py --yasmin $B/yasmin --timeout 10 --configs $C \
    --csv $OUT/keep/engine_bench_competition.csv $I/Labyrinth_0010.aspif $I/marriage-60.aspif $I/ppm-150-12.aspif \
    $I/GraphColouring_0006.aspif $I/Labyrinth_0073.aspif $I/Visit-all_0029.aspif $I/Sokoban_0312.aspif > $OUT/keep/table1.md 2> $OUT/keep/table1.log
  grep -E "^\|" $OUT/keep/table1.md | cut -c1-160
else
  timeout -s KILL 300 python3 scripts/engine_bench.py --yasmin $B/yasmin --timeout 10 --configs $C \
    --csv $OUT/keep/engine_bench_generated.csv $I/ppm-200.aspif $I/pigeonhole-8.aspif $I/pigeonhole-9.aspif > $OUT/keep/gen.md 2> $OUT/keep/gen.log
  grep -E "^\|" $OUT/keep/gen.md | cut -c1-160
  # GraphColouring_0006 again, 8 seeds of the CUDA engine with 8 searches.
  timeout -s KILL 200 python3 scripts/engine_bench.py --yasmin $B/yasmin --timeout 10 --configs cuda:res:t8 --no-clingo --repeat 8 \
    --csv $OUT/keep/engine_bench_gc8.csv $I/GraphColouring_0006.aspif > $OUT/keep/gc8.md 2> $OUT/keep/gc8.log
  grep -E "^\|" $OUT/keep/gc8.md | cut -c1-200; cut -d, -f1-5 $OUT/keep/engine_bench_gc8.csv
fi
