#!/usr/bin/env bash
# Device run 37: branch wip/caps32 (.gpu/s35: DECIDE_MAX and LEARN_MAX 32), GPU tests, then the A/B in one binary:
# --gpu-decisions/--gpu-conflicts 8 (the default) against 32, 4 s, alternating, twice. Hard kills everywhere.
cd "$(dirname "$0")/.."
set -u
B=./.gpu/s35
tar xJf .gpu/inst.tar.xz -C .gpu && mkdir -p /tmp/sh && tar xzf .gpu/conf.tar.gz -C /tmp/sh
export YASMIN_SHARED=/tmp/sh/shared YASMIN_REPO=$PWD YASMIN_CACHE_DIR=/tmp/yc YASMIN_BIN=$PWD/$B/yasmin
I=.gpu/inst
K="timeout -s KILL"
$K 20 $B/yasmin --backend=cuda -q instances/queens.aspif > /dev/null 2>&1
one() { # name, limit, command...
  local n=$1 t=$2; shift 2
  $K $t "$@" > $OUT/$n.txt 2>&1; echo "$n rc=$?: $(grep -E '^(SATIS|UNSAT|UNKNOWN)|^Conflicts|^Choices|ERROR SUMMARY|ERROR:|WARN|test result|panicked|CUDA engine time' $OUT/$n.txt | sed -E 's/.*CUDA engine time: //; s/; unfounded.*//' | head -5 | cut -c1-330 | tr -s ' ' | tr '\n' '|')" | tee -a $OUT/summary.txt
}
YASMIN_GPU_DIFF_PROGRAMS=300 one gpu-tests 60 $B/gpu-tests --test-threads=4
for rep in 1 2; do for c in 8 32; do
  for f in pigeonhole-9 GraphColouring_0006 Visit-all_0029 ppm-200; do
    one ab-res-$f-c$c-$rep 8 $B/yasmin --backend=cuda --gpu-decisions=$c --gpu-conflicts=$c --stats -V -q --time-limit=4 $I/$f.aspif
  done
  one ab-fwd-pigeonhole-9-c$c-$rep 8 $B/yasmin --backend=cuda --learning=fwd --gpu-decisions=$c --gpu-conflicts=$c --stats -V -q --time-limit=4 $I/pigeonhole-9.aspif
done; done
grep -H -E "^Choices|^Conflicts" $OUT/ab-*.txt | sed "s|$OUT/||" | tr -s ' ' | tee -a $OUT/summary.txt
mkdir -p $OUT/keep && mv $OUT/summary.txt $OUT/gpu-tests.txt $OUT/keep/; rm -f $OUT/*.txt
