#!/usr/bin/env bash
# Device run 43: the Table 1 benchmark with main's head after steps 34-36 (.gpu/s36; run 33 had the tenth session's
# code), then a CUDA differential against clingo 5.8.3 with the same binary. Hard kills everywhere.
cd "$(dirname "$0")/.."
set -u
B=./.gpu/s36
mkdir -p $OUT/keep
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/keep/gpu.txt
tar xJf .gpu/inst.tar.xz -C .gpu && mkdir -p /tmp/sh && tar xzf .gpu/conf.tar.gz -C /tmp/sh
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl && export PYTHONPATH=/tmp/site
export YASMIN_SHARED=/tmp/sh/shared YASMIN_REPO=$PWD YASMIN_CACHE_DIR=/tmp/yc
timeout -s KILL 20 $B/yasmin --backend=cuda -q instances/queens.aspif > /dev/null 2>&1
I=.gpu/inst
timeout -s KILL 250 python3 scripts/engine_bench.py --yasmin $B/yasmin --timeout 10 --configs cuda:res,cuda:fwd,cpu:res \
  --csv $OUT/keep/engine_bench_competition.csv $I/Labyrinth_0010.aspif $I/ppm-150-12.aspif $I/marriage-60.aspif \
  $I/GraphColouring_0006.aspif $I/Labyrinth_0073.aspif $I/Visit-all_0029.aspif $I/Sokoban_0312.aspif > $OUT/keep/table1.md 2> $OUT/keep/table1.log
timeout -s KILL 120 python3 scripts/engine_bench.py --yasmin $B/yasmin --timeout 10 --configs cuda:res,cuda:fwd,cpu:res \
  --csv $OUT/keep/engine_bench_generated.csv $I/ppm-200.aspif $I/pigeonhole-8.aspif $I/pigeonhole-9.aspif > $OUT/keep/gen.md 2> $OUT/keep/gen.log
YASMIN_BIN=$PWD/$B/yasmin YASMIN_PYTHON=python3 YASMIN_DIFF_BACKEND=cuda YASMIN_DIFF_PROGRAMS=50 YASMIN_DIFF_PROJECTED=20 YASMIN_DIFF_THREADS=8 timeout -s KILL 150 $B/differential-tests yasmin_agrees > $OUT/keep/diff.txt 2>&1
echo "differential rc=$?: $(grep -E "test result|differential: [0-9]+ programs|panicked|disagree" $OUT/keep/diff.txt | tail -4 | sed -E 's/; features:.*//' | cut -c1-300 | tr '\n' '|')"
cat $OUT/keep/table1.md $OUT/keep/gen.md | grep -E "^\|" | cut -c1-160
