#!/usr/bin/env bash
# Device run 47: A/B of step 38 (block 0 analyses the conflicts of its input rounds before the grid barrier, .gpu/s38)
# against step 37 (.gpu/s37, main's head), 5 s runs, two rounds; then pigeonhole-9 with the 10 s limit, the GPU tests,
# memcheck, a CUDA differential (clingo 5.8.3) and the differential's regression test with s38.
cd "$(dirname "$0")/.."
set -u
mkdir -p $OUT/keep
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/keep/gpu.txt
tar xJf .gpu/inst.tar.xz -C .gpu && mkdir -p /tmp/sh && tar xzf .gpu/conf.tar.gz -C /tmp/sh
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl 2>&1 | tail -2; export PYTHONPATH=/tmp/site
python3 -c "import clingo; print('clingo', clingo.__version__)" 2>&1 | tail -2
export YASMIN_SHARED=/tmp/sh/shared YASMIN_REPO=$PWD YASMIN_CACHE_DIR=/tmp/yc
I=.gpu/inst
K="timeout -s KILL"
for b in s37 s38; do $K 30 .gpu/$b/yasmin --backend=cuda -q instances/queens.aspif > /dev/null 2>&1; done
ab() { # round, binary, learning, instance
  local f=$OUT/keep/ab-$1-$3-$(basename $4 .aspif)-$2.txt
  $K 12 .gpu/$2/yasmin --backend=cuda --learning=$3 --stats -V -q --time-limit=5 $4 > $f 2>&1
  echo "$1 $2 $3 $(basename $4 .aspif): $(grep -E '^(SATIS|UNSAT|UNKNOWN)' $f | head -1) $(grep -E '^Conflicts' $f | sed -E 's/ +/ /g') $(grep -oE '\([0-9]+ rounds; device: input rounds [0-9.]+ ms, [0-9]+ sweeps [0-9.]+ ms' $f)"
}
for r in 1 2; do
  for b in s37 s38; do ab $r $b res $I/pigeonhole-9.aspif; ab $r $b fwd $I/pigeonhole-9.aspif; done
  for inst in GraphColouring_0006 ppm-200 Sokoban_0312 marriage-60; do for b in s37 s38; do ab $r $b res $I/$inst.aspif; done; done
done
B=.gpu/s38
one() { # name, limit, command...
  local n=$1 t=$2; shift 2
  $K $t "$@" > $OUT/keep/$n.txt 2>&1; echo "$n rc=$?: $(grep -E '^(SATIS|UNSAT|UNKNOWN)|^Conflicts|^Time|ERROR SUMMARY|test result|panicked' $OUT/keep/$n.txt | head -4 | cut -c1-200 | tr -s ' ' | tr '\n' '|')"
}
for r in 1 2; do one ph9-10s-$r 14 $B/yasmin --backend=cuda --stats -q --time-limit=10 $I/pigeonhole-9.aspif; done
YASMIN_GPU_DIFF_PROGRAMS=300 one gpu-tests 90 $B/gpu-tests --test-threads=4
YASMIN_GPU_DIFF_PROGRAMS=60 one gpu-tests-debug 90 $B/gpu-tests-debug --test-threads=4
one memcheck-res 40 compute-sanitizer --tool memcheck --show-backtrace no $B/yasmin --backend=cuda -n1 -q --time-limit=3 $I/ppm-200.aspif
one memcheck-fwd 40 compute-sanitizer --tool memcheck --show-backtrace no $B/yasmin --backend=cuda --learning=fwd -q --time-limit=3 $I/pigeonhole-8.aspif
YASMIN_BIN=$PWD/$B/yasmin YASMIN_PYTHON=python3 YASMIN_DIFF_BACKEND=cuda YASMIN_DIFF_PROGRAMS=50 YASMIN_DIFF_PROJECTED=20 YASMIN_DIFF_THREADS=8 $K 120 $B/differential-tests yasmin_agrees > $OUT/keep/diff.txt 2>&1
echo "differential rc=$?: $(grep -E "test result|differential: [0-9]+ programs|panicked|disagree" $OUT/keep/diff.txt | tail -3 | sed -E 's/; features:.*//' | cut -c1-300 | tr '\n' '|')"
grep -B2 -A8 panicked $OUT/keep/diff.txt | head -20

YASMIN_BIN=$PWD/$B/yasmin YASMIN_PYTHON=python3 YASMIN_DIFF_BACKEND=cuda $K 250 $B/differential-tests regressions_agree_with_brute_force > $OUT/keep/regressions.txt 2>&1
echo "regressions rc=$?: $(grep -E "test result|panicked|disagree" $OUT/keep/regressions.txt | tail -3 | cut -c1-300 | tr '\n' '|')"
