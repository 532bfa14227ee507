#!/usr/bin/env bash
# Device run 27: conflicts analysed by propagate_fix_k (.gpu/s27 = branch wip/device-conflicts at 1d0e2dc): GPU tests, A/B against .gpu/s26 (main before it).
cd "$(dirname "$0")/.."
set -u
B=./.gpu/s27
I=.gpu/inst
tar xJf .gpu/inst.tar.xz -C .gpu && mkdir -p /tmp/sh && tar xzf .gpu/conf.tar.gz -C /tmp/sh
export YASMIN_SHARED=/tmp/sh/shared YASMIN_REPO=$PWD YASMIN_CACHE_DIR=/tmp/yc
$B/yasmin --backend=cuda -q instances/queens.aspif > /dev/null 2>&1
./.gpu/s26/yasmin --backend=cuda -q instances/queens.aspif > /dev/null 2>&1
{ YASMIN_GPU_DIFF_PROGRAMS=300 timeout 60 $B/gpu-tests --test-threads=4 2>&1 | grep -E "test result|panicked|FAILED|failures|differ|unsound|error" | head -20
  YASMIN_GPU_DIFF_PROGRAMS=60 timeout 60 $B/gpu-tests-debug --test-threads=4 2>&1 | grep -E "test result|panicked|FAILED|failures|assert|differ|unsound|error" | head -20; } | tee $OUT/checks.txt
for f in pigeonhole-9 GraphColouring_0006 Sokoban_0312 ppm-200 marriage-60; do
  for c in 0 8; do
    timeout 8 $B/yasmin --backend=cuda --gpu-conflicts=$c --stats -V -q --time-limit=4 $I/$f.aspif > /tmp/o.txt 2>&1
    echo "$f c$c: $(grep -E '^(SATIS|UNSAT|UNKNOWN)|CUDA engine time|^Choices|^Conflicts|^Lemmas|ERROR|panick' /tmp/o.txt | sed -E 's/.*CUDA engine time: //; s/; unfounded.*//' | tr -s ' ' | tr '\n' '|')"
  done
done | tee $OUT/ab.txt
for f in pigeonhole-9 GraphColouring_0006; do
  timeout 8 ./.gpu/s26/yasmin --backend=cuda --stats -V -q --time-limit=4 $I/$f.aspif > /tmp/o.txt 2>&1
  echo "$f main: $(grep -E '^(SATIS|UNSAT|UNKNOWN)|CUDA engine time|^Choices|^Conflicts' /tmp/o.txt | sed -E 's/.*CUDA engine time: //; s/; unfounded.*//' | tr -s ' ' | tr '\n' '|')"
done | tee -a $OUT/ab.txt
echo "pigeonhole-9 10 s: $(timeout 15 $B/yasmin --backend=cuda --stats -q --time-limit=10 $I/pigeonhole-9.aspif 2>&1 | grep -E '^(SATIS|UNSAT|UNKNOWN)|^Time|^Conflicts|^Lemmas' | tr -s ' ' | tr '\n' ' ')" | tee $OUT/ph9.txt
