#!/usr/bin/env bash
# Device run 83: parallel search (-t N) on the GPU, first look (.gpu/s49: main plus --parallel-mode). Do N CUDA engines
# run at once (each on its own stream and its share of the multiprocessors), at what rate each, and how often does a
# parallel run solve GraphColouring_0006 within 10 s, beside the CPU engine alone and with N threads. Then the new GPU
# test. Hard kills everywhere.
cd "$(dirname "$0")/../../.."
set -u
mkdir -p $OUT/keep
tar xJf .gpu/inst.tar.xz -C .gpu && mkdir -p /tmp/sh && tar xzf .gpu/conf.tar.gz -C /tmp/sh
export YASMIN_SHARED=/tmp/sh/shared YASMIN_REPO=$PWD YASMIN_CACHE_DIR=/tmp/yc
I=.gpu/inst
K="timeout -s KILL"
B=.gpu/s49
$K 30 $B/yasmin --backend=cuda -q instances/queens.aspif > /dev/null 2>&1
$K 100 $B/gpu-tests gpu_one_model --nocapture > $OUT/keep/gpu-par.txt 2>&1
echo "gpu parallel test rc=$?: $(grep -E 'GPU parallel|test result|panicked' $OUT/keep/gpu-par.txt | tr '\n' '|')"
# Rates of one run per N, 5 s, seed 1 (what each search gets when N share the GPU).
for t in 1 2 4 8 16; do
  $K 30 $B/yasmin --backend=cuda -t $t --seed=7 -V --stats -q --time-limit=5 $I/GraphColouring_0006.aspif > $OUT/keep/rate-t$t.txt 2>&1
  echo "t=$t rc=$?: $(grep -E 'propagation rounds|^(SATIS|UNSAT|UNKNOWN)|^Time  |^Choices|^Threads|^Rounds' $OUT/keep/rate-t$t.txt | sed -E 's/ +/ /g; s/CUDA propagation rounds: //; s/block 0.s values.*//' | cut -c1-120 | tr '\n' '|')"
done
# How often within 10 s: four seeds each.
$K 420 python3 scripts/engine_bench.py --yasmin $B/yasmin --timeout 10 --configs cuda:res:t4,cuda:res:t8,cpu:res,cpu:res:t8 --no-clingo --repeat 4 \
  --csv $OUT/keep/engine_bench_gc.csv $I/GraphColouring_0006.aspif > $OUT/keep/gc.md 2> $OUT/keep/gc.log
grep -E "^\|" $OUT/keep/gc.md | cut -c1-200; cut -d, -f1-7 $OUT/keep/engine_bench_gc.csv
