#!/usr/bin/env bash
# Device run 60: step 42 (block 0 checks a wide input nogood once a round, through its marks) in .gpu/step42 against
# main after step 41b
# (31d40c7, .gpu/step41b). Checks first (GPU tests, memcheck, racecheck, a CUDA
# differential), then 5 s A/B runs, two rounds, and ppm-200 with the Table's 10 s limit.
cd "$(dirname "$0")/../../.."
set -u
mkdir -p $OUT/keep
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/keep/gpu.txt
tar xJf .gpu/inst.tar.xz -C .gpu && mkdir -p /tmp/sh && tar xzf .gpu/conf.tar.gz -C /tmp/sh
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl 2>&1 | tail -1; export PYTHONPATH=/tmp/site
export YASMIN_SHARED=/tmp/sh/shared YASMIN_REPO=$PWD YASMIN_CACHE_DIR=/tmp/yc
I=.gpu/inst
K="timeout -s KILL"
B=.gpu/step42
for b in step41b step42; do $K 30 .gpu/$b/yasmin --backend=cuda -q instances/queens.aspif > /dev/null 2>&1; done
one() { # name, limit, command...
  local n=$1 t=$2; shift 2
  $K $t "$@" > $OUT/keep/$n.txt 2>&1; echo "$n rc=$?: $(grep -E '^(SATIS|UNSAT|UNKNOWN)|ERROR SUMMARY|test result|panicked' $OUT/keep/$n.txt | head -4 | cut -c1-200 | tr -s ' ' | tr '\n' '|')"
}
YASMIN_GPU_DIFF_PROGRAMS=300 one gpu-tests 100 $B/gpu-tests --test-threads=4
YASMIN_GPU_DIFF_PROGRAMS=60 one gpu-tests-debug 100 $B/gpu-tests-debug --test-threads=4
one memcheck-res 40 compute-sanitizer --tool memcheck --show-backtrace no $B/yasmin --backend=cuda -n1 -q --time-limit=3 $I/ppm-200.aspif
one memcheck-fwd 40 compute-sanitizer --tool memcheck --show-backtrace no $B/yasmin --backend=cuda --learning=fwd -q --time-limit=3 $I/pigeonhole-8.aspif
rc() { # name, limit, learning, file, flags...
  local n=$1 t=$2 L=$3 f=$4; shift 4
  $K $t compute-sanitizer --tool racecheck --racecheck-report hazard $B/yasmin --backend=cuda --learning=$L -q "$@" $f > $OUT/keep/racecheck-$n-$L.txt 2>&1
  echo "racecheck $n $L $* rc=$?: $(grep -E '^(SATIS|UNSAT|UNKNOWN)|RACECHECK SUMMARY' $OUT/keep/racecheck-$n-$L.txt | head -3 | tr '\n' '|') hazards: $(grep -c 'hazard detected' $OUT/keep/racecheck-$n-$L.txt)"
}
rc queens 60 res instances/queens.aspif; rc ph4 60 res $I/pigeonhole-4.aspif; rc ph4 60 fwd $I/pigeonhole-4.aspif
rc wide40 60 res .gpu/wide40.aspif -n0; rc wide40 60 fwd .gpu/wide40.aspif -n0
one memcheck-visit 40 compute-sanitizer --tool memcheck --show-backtrace no $B/yasmin --backend=cuda -q --time-limit=3 $I/Visit-all_0029.aspif
one memcheck-marriage-fwd 40 compute-sanitizer --tool memcheck --show-backtrace no $B/yasmin --backend=cuda --learning=fwd -q --time-limit=3 $I/marriage-60.aspif
for inst in Labyrinth_0010 ppm-150-12 marriage-60; do for L in res fwd; do one solve-$inst-$L 14 $B/yasmin --backend=cuda --learning=$L -q --time-limit=10 $I/$inst.aspif; done; done
YASMIN_BIN=$PWD/$B/yasmin YASMIN_PYTHON=python3 YASMIN_DIFF_BACKEND=cuda YASMIN_DIFF_PROGRAMS=50 YASMIN_DIFF_PROJECTED=20 YASMIN_DIFF_THREADS=8 $K 120 $B/differential-tests yasmin_agrees > $OUT/keep/diff.txt 2>&1
echo "differential rc=$?: $(grep -E "test result|differential: [0-9]+ programs|disagree" $OUT/keep/diff.txt | tail -2 | sed -E 's/; features:.*//' | cut -c1-250 | tr '\n' '|')"
ab() { # round, label, learning, instance, binary, flags...
  local r=$1 lab=$2 L=$3 inst=$4 b=$5; shift 5
  local f=$OUT/keep/ab-$r-$L-$inst-$lab.txt
  $K 12 .gpu/$b/yasmin --backend=cuda --learning=$L --stats -V -q --time-limit=5 "$@" $I/$inst.aspif > $f 2>&1
  echo "$r $lab $L $inst: $(grep -E '^(SATIS|UNSAT|UNKNOWN)' $f | head -1) $(grep -E '^(Choices|Conflicts)' $f | tr -s ' ' | tr '\n' ' ') $(grep -oE '\([0-9]+ rounds; device: input rounds [0-9.]+ ms, [0-9]+ sweeps [0-9.]+ ms' $f)"
}
for r in 1 2; do
  for inst in ppm-200 Visit-all_0029 marriage-60 Sokoban_0312 GraphColouring_0006 pigeonhole-9; do
    ab $r step41b res $inst step41b; ab $r step42 res $inst step42
  done
  for inst in ppm-200 Visit-all_0029; do ab $r step41b fwd $inst step41b; ab $r step42 fwd $inst step42; done
done
for r in 1 2; do
  for b in step41b step42; do
    f=$OUT/keep/ppm200-10s-$r-$b.txt
    $K 14 .gpu/$b/yasmin --backend=cuda --stats -q --time-limit=10 $I/ppm-200.aspif > $f 2>&1
    echo "ppm-200 10 s $r $b: $(grep -E '^(SATIS|UNSAT|UNKNOWN)|^Time|^Conflicts' $f | tr -s ' ' | tr '\n' '|')"
  done
done
