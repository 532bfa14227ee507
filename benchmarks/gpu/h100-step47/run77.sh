#!/usr/bin/env bash
# Device run 77: the Table 1 benchmark with step 47 and the deps_d mend (.gpu/s48, main after this session), 10 s, clingo 5.8.3 in the same
# run. Hard kills everywhere.
cd "$(dirname "$0")/../../.."
set -u
B=./.gpu/s48
mkdir -p $OUT/keep
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/keep/gpu.txt
tar xJf .gpu/inst.tar.xz -C .gpu && mkdir -p /tmp/sh && tar xzf .gpu/conf.tar.gz -C /tmp/sh
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl 2>&1 | tail -1; export PYTHONPATH=/tmp/site
export YASMIN_SHARED=/tmp/sh/shared YASMIN_REPO=$PWD YASMIN_CACHE_DIR=/tmp/yc
timeout -s KILL 20 $B/yasmin --backend=cuda -q instances/queens.aspif > /dev/null 2>&1
I=.gpu/inst
timeout -s KILL 250 python3 scripts/engine_bench.py --yasmin $B/yasmin --timeout 10 --configs cuda:res,cuda:fwd,cpu:res \
  --csv $OUT/keep/engine_bench_competition.csv $I/Labyrinth_0010.aspif $I/ppm-150-12.aspif $I/marriage-60.aspif \
  $I/GraphColouring_0006.aspif $I/Labyrinth_0073.aspif $I/Visit-all_0029.aspif $I/Sokoban_0312.aspif > $OUT/keep/table1.md 2> $OUT/keep/table1.log
timeout -s KILL 120 python3 scripts/engine_bench.py --yasmin $B/yasmin --timeout 10 --configs cuda:res,cuda:fwd,cpu:res \
  --csv $OUT/keep/engine_bench_generated.csv $I/ppm-200.aspif $I/pigeonhole-8.aspif $I/pigeonhole-9.aspif > $OUT/keep/gen.md 2> $OUT/keep/gen.log
cat $OUT/keep/table1.md $OUT/keep/gen.md | grep -E "^\|" | cut -c1-160
# Two more runs of the GPU engine under res on the two instances the GPU missed in run 70, for the spread.
timeout -s KILL 90 python3 scripts/engine_bench.py --yasmin $B/yasmin --timeout 10 --configs cuda:res --no-clingo --repeat 2 \
  --csv $OUT/keep/engine_bench_repeat.csv $I/GraphColouring_0006.aspif $I/ppm-200.aspif > $OUT/keep/repeat.md 2> $OUT/keep/repeat.log
grep -E "^\|" $OUT/keep/repeat.md | cut -c1-200
