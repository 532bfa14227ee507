#!/usr/bin/env bash
# Device run 41: A/B of step 34 (block 0's weight-constraint marks in shared memory, .gpu/s34) and step 35 (s34 plus
# no merge barrier after a round that proposed nothing, .gpu/s35) against main (.gpu/base), 5 s runs, two rounds
# interleaved; then the GPU tests (release 300 programs, debug 60), memcheck and a short CUDA differential with s35.
cd "$(dirname "$0")/.."
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
tar xJf .gpu/inst.tar.xz -C .gpu && mkdir -p /tmp/sh && tar xzf .gpu/conf.tar.gz -C /tmp/sh
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl && export PYTHONPATH=/tmp/site
export YASMIN_SHARED=/tmp/sh/shared YASMIN_REPO=$PWD YASMIN_CACHE_DIR=/tmp/yc
I=.gpu/inst
K="timeout -s KILL"
mkdir -p $OUT/keep
for b in base s34 s35; do $K 30 .gpu/$b/yasmin --backend=cuda -q instances/queens.aspif > /dev/null 2>&1; done
$K 20 .gpu/s35/yasmin --backend=cuda -q -VV --time-limit=1 $I/pigeonhole-9.aspif 2>&1 | grep -i "propagation rounds" | cut -c1-250
ab() { # name, binary, learning, instance
  local f=$OUT/ab-$1-$3-$(basename $4 .aspif)-$2.txt
  $K 12 .gpu/$2/yasmin --backend=cuda --learning=$3 --stats -V -q --time-limit=5 $4 > $f 2>&1
  echo "$1 $2 $3 $(basename $4 .aspif): $(grep -E '^(SATIS|UNSAT|UNKNOWN)' $f | head -1) $(grep -E '^Conflicts' $f | sed -E 's/ +/ /g') $(grep -oE 'input rounds [0-9.]+ ms, [0-9]+ sweeps [0-9.]+ ms' $f)" | tee -a $OUT/keep/ab.txt
}
for r in 1 2; do
  for inst in pigeonhole-9 ppm-200 marriage-60 GraphColouring_0006 Sokoban_0312; do
    for b in base s34 s35; do ab $r $b res $I/$inst.aspif; done
  done
  for b in base s34 s35; do ab $r $b fwd $I/pigeonhole-9.aspif; done
done
B=.gpu/s35
one() { # name, limit, command...
  local n=$1 t=$2; shift 2
  $K $t "$@" > $OUT/keep/$n.txt 2>&1; echo "$n rc=$?: $(grep -E '^(SATIS|UNSAT|UNKNOWN)|ERROR SUMMARY|test result|panicked' $OUT/keep/$n.txt | head -4 | cut -c1-200 | tr -s ' ' | tr '\n' '|')" | tee -a $OUT/keep/summary.txt
}
YASMIN_GPU_DIFF_PROGRAMS=300 one gpu-tests 90 $B/gpu-tests --test-threads=4
YASMIN_GPU_DIFF_PROGRAMS=60 one gpu-tests-debug 90 $B/gpu-tests-debug --test-threads=4
one memcheck-res 40 compute-sanitizer --tool memcheck --show-backtrace no $B/yasmin --backend=cuda -n1 -q --time-limit=3 $I/ppm-200.aspif
one memcheck-fwd 40 compute-sanitizer --tool memcheck --show-backtrace no $B/yasmin --backend=cuda --learning=fwd -q --time-limit=3 $I/pigeonhole-8.aspif
YASMIN_BIN=$PWD/$B/yasmin YASMIN_PYTHON=python3 YASMIN_DIFF_BACKEND=cuda YASMIN_DIFF_PROGRAMS=60 YASMIN_DIFF_PROJECTED=20 YASMIN_DIFF_THREADS=8 $K 100 $B/differential-tests yasmin_agrees > $OUT/keep/diff.txt 2>&1
echo "differential rc=$?: $(grep -E "test result|differential: [0-9]+ programs|panicked|disagree" $OUT/keep/diff.txt | tail -3 | sed -E 's/; features:.*//' | cut -c1-300 | tr '\n' '|')" | tee -a $OUT/keep/summary.txt
