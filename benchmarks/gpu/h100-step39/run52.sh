#!/usr/bin/env bash
# Device run 52: step 39 (block 0's frontier dealt out to its warps, --gpu-frontier) in .gpu/step39 against main
# (bb6a702, .gpu/base). Checks first (GPU tests, memcheck and racecheck with the frontier forced to block, a CUDA
# differential), then 5 s A/B runs, two rounds: base, step39 --gpu-frontier=warp and =block. Hard kills everywhere.
cd "$(dirname "$0")/../../.."
set -u
mkdir -p $OUT/keep
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/keep/gpu.txt
tar xJf .gpu/inst.tar.xz -C .gpu && mkdir -p /tmp/sh && tar xzf .gpu/conf.tar.gz -C /tmp/sh
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl 2>&1 | tail -1; export PYTHONPATH=/tmp/site
export YASMIN_SHARED=/tmp/sh/shared YASMIN_REPO=$PWD YASMIN_CACHE_DIR=/tmp/yc
I=.gpu/inst
K="timeout -s KILL"
B=.gpu/step39
for b in base step39; do $K 30 .gpu/$b/yasmin --backend=cuda -q instances/queens.aspif > /dev/null 2>&1; done
one() { # name, limit, command...
  local n=$1 t=$2; shift 2
  $K $t "$@" > $OUT/keep/$n.txt 2>&1; echo "$n rc=$?: $(grep -E '^(SATIS|UNSAT|UNKNOWN)|ERROR SUMMARY|test result|panicked' $OUT/keep/$n.txt | head -4 | cut -c1-200 | tr -s ' ' | tr '\n' '|')"
}
YASMIN_GPU_DIFF_PROGRAMS=300 one gpu-tests 100 $B/gpu-tests --test-threads=4
YASMIN_GPU_DIFF_PROGRAMS=60 one gpu-tests-debug 100 $B/gpu-tests-debug --test-threads=4
one memcheck-res-block 40 compute-sanitizer --tool memcheck --show-backtrace no $B/yasmin --backend=cuda -n1 -q --time-limit=3 $I/ppm-200.aspif
one memcheck-fwd-block 40 compute-sanitizer --tool memcheck --show-backtrace no $B/yasmin --backend=cuda --learning=fwd --gpu-frontier=block -q --time-limit=3 $I/pigeonhole-8.aspif
rc() { # name, limit, learning, file
  $K $2 compute-sanitizer --tool racecheck --racecheck-report hazard $B/yasmin --backend=cuda --learning=$3 --gpu-frontier=block -q $4 > $OUT/keep/racecheck-$1-$3.txt 2>&1
  echo "racecheck $1 $3 block rc=$?: $(grep -E '^(SATIS|UNSAT|UNKNOWN)|RACECHECK SUMMARY' $OUT/keep/racecheck-$1-$3.txt | head -3 | tr '\n' '|') hazards: $(grep -c 'hazard detected' $OUT/keep/racecheck-$1-$3.txt)"
}
rc queens 60 res instances/queens.aspif; rc ph4 60 res $I/pigeonhole-4.aspif; rc ph4 60 fwd $I/pigeonhole-4.aspif
YASMIN_BIN=$PWD/$B/yasmin YASMIN_PYTHON=python3 YASMIN_DIFF_BACKEND=cuda YASMIN_DIFF_PROGRAMS=50 YASMIN_DIFF_PROJECTED=20 YASMIN_DIFF_THREADS=8 $K 120 $B/differential-tests yasmin_agrees > $OUT/keep/diff.txt 2>&1
echo "differential rc=$?: $(grep -E "test result|differential: [0-9]+ programs|disagree" $OUT/keep/diff.txt | tail -2 | sed -E 's/; features:.*//' | cut -c1-250 | tr '\n' '|')"
ab() { # round, label, learning, instance, binary, flags...
  local r=$1 lab=$2 L=$3 inst=$4 b=$5; shift 5
  local f=$OUT/keep/ab-$r-$L-$inst-$lab.txt
  $K 12 .gpu/$b/yasmin --backend=cuda --learning=$L --stats -V -q --time-limit=5 "$@" $I/$inst.aspif > $f 2>&1
  echo "$r $lab $L $inst: $(grep -E '^(SATIS|UNSAT|UNKNOWN)' $f | head -1) $(grep -E '^Conflicts' $f | tr -s ' ') $(grep -oE '\([0-9]+ rounds; device: input rounds [0-9.]+ ms, [0-9]+ sweeps [0-9.]+ ms' $f) $(grep -oE 'frontier [a-z ]+ \([0-9.]+ warp steps' $f | head -1)"
}
for r in 1 2; do
  for inst in ppm-200 ppm-150-12 Visit-all_0029; do
    ab $r base res $inst base; ab $r warp res $inst step39 --gpu-frontier=warp; ab $r block res $inst step39 --gpu-frontier=block
  done
  ab $r warp fwd ppm-200 step39 --gpu-frontier=warp; ab $r block fwd ppm-200 step39 --gpu-frontier=block
  for inst in GraphColouring_0006 pigeonhole-9; do ab $r base res $inst base; ab $r auto res $inst step39; done
done
