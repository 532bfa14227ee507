#!/usr/bin/env bash
# Device run 40: main's binaries rebuilt this session (.gpu/base): do they run on the device image; the -V time split
# on pigeonhole-9 (res, fwd), GraphColouring_0006 and ppm-200 (res). Hard kills.
cd "$(dirname "$0")/.."
set -u
B=./.gpu/base
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
tar xJf .gpu/inst.tar.xz -C .gpu && mkdir -p /tmp/sh && tar xzf .gpu/conf.tar.gz -C /tmp/sh
export YASMIN_SHARED=/tmp/sh/shared YASMIN_REPO=$PWD YASMIN_CACHE_DIR=/tmp/yc
I=.gpu/inst
K="timeout -s KILL"
$K 30 $B/yasmin --backend=cuda -q instances/queens.aspif > /dev/null 2>&1; echo warm rc=$?
one() { # name, limit, command...
  local n=$1 t=$2; shift 2
  $K $t "$@" > $OUT/$n.txt 2>&1; echo "$n rc=$?: $(grep -E '^(SATIS|UNSAT|UNKNOWN)|^Conflicts|^Choices|ERROR SUMMARY|ERROR:|test result|panicked|CUDA engine time' $OUT/$n.txt | sed -E 's/.*CUDA engine time: //' | head -5 | cut -c1-420 | tr -s ' ' | tr '\n' '|')" | tee -a $OUT/summary.txt
}
for L in res fwd; do one ph9-$L 12 $B/yasmin --backend=cuda --learning=$L --stats -V -q --time-limit=6 $I/pigeonhole-9.aspif; done
one gc6-res 12 $B/yasmin --backend=cuda --stats -V -q --time-limit=6 $I/GraphColouring_0006.aspif
one ppm200-res 12 $B/yasmin --backend=cuda --stats -V -q --time-limit=6 $I/ppm-200.aspif
YASMIN_GPU_DIFF_PROGRAMS=100 one gpu-tests 60 $B/gpu-tests --test-threads=4
