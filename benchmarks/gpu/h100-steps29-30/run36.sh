#!/usr/bin/env bash
# Device run 36: branch wip/min-depth2 (.gpu/s34: learned nogoods minimised to depth two on the device), on main 5e236b9
# (.gpu/s33 is main's GPU code). GPU tests (release, debug), memcheck, a short CUDA differential, then the Table 1
# benchmark with s34 (run 33 had s33, same machine kind, same day). Hard kills everywhere.
cd "$(dirname "$0")/.."
set -u
B=./.gpu/s34
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
tar xJf .gpu/inst.tar.xz -C .gpu && mkdir -p /tmp/sh && tar xzf .gpu/conf.tar.gz -C /tmp/sh
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl && export PYTHONPATH=/tmp/site
export YASMIN_SHARED=/tmp/sh/shared YASMIN_REPO=$PWD YASMIN_CACHE_DIR=/tmp/yc YASMIN_BIN=$PWD/.gpu/s34/yasmin
I=.gpu/inst
K="timeout -s KILL"
$K 20 $B/yasmin --backend=cuda -q instances/queens.aspif > /dev/null 2>&1
one() { # name, limit, command...
  local n=$1 t=$2; shift 2
  $K $t "$@" > $OUT/$n.txt 2>&1; echo "$n rc=$?: $(grep -E '^(SATIS|UNSAT|UNKNOWN)|^Conflicts|ERROR SUMMARY|ERROR:|WARN|test result|panicked|CUDA engine time' $OUT/$n.txt | sed -E 's/.*CUDA engine time: //; s/; unfounded.*//' | head -5 | cut -c1-330 | tr -s ' ' | tr '\n' '|')" | tee -a $OUT/summary.txt
}
YASMIN_GPU_DIFF_PROGRAMS=300 one gpu-tests 60 $B/gpu-tests --test-threads=4
YASMIN_GPU_DIFF_PROGRAMS=60 one gpu-tests-debug 60 $B/gpu-tests-debug --test-threads=4
one memcheck-res 30 compute-sanitizer --tool memcheck --show-backtrace no $B/yasmin --backend=cuda --stats -n1 -q --time-limit=3 $I/ppm-200.aspif
YASMIN_PYTHON=python3 YASMIN_DIFF_BACKEND=cuda YASMIN_DIFF_PROGRAMS=60 YASMIN_DIFF_PROJECTED=20 YASMIN_DIFF_THREADS=8 $K 100 $B/differential-tests yasmin_agrees > $OUT/diff.txt 2>&1
echo "differential rc=$?: $(grep -E "test result|differential: [0-9]+ programs|panicked|disagree" $OUT/diff.txt | tail -3 | sed -E 's/; features:.*//' | cut -c1-330 | tr '\n' '|')" | tee -a $OUT/summary.txt
$K 250 python3 scripts/engine_bench.py --yasmin $B/yasmin --timeout 10 --configs cuda:res,cuda:fwd,cpu:res \
  --csv $OUT/engine_bench_competition.csv $I/Labyrinth_0010.aspif $I/ppm-150-12.aspif $I/marriage-60.aspif \
  $I/GraphColouring_0006.aspif $I/Labyrinth_0073.aspif $I/Visit-all_0029.aspif $I/Sokoban_0312.aspif > $OUT/table1.md 2> $OUT/table1.log
$K 120 python3 scripts/engine_bench.py --yasmin $B/yasmin --timeout 10 --configs cuda:res,cuda:fwd,cpu:res \
  --csv $OUT/engine_bench_generated.csv $I/ppm-200.aspif $I/pigeonhole-8.aspif $I/pigeonhole-9.aspif > $OUT/gen.md 2> $OUT/gen.log
cat $OUT/table1.md $OUT/gen.md | grep -E "^\|" | grep -v "clingo\|cpu:res\|cuda:fwd" | cut -c1-160
