#!/usr/bin/env bash
# Device run 32 (next session): branch wip/sweep-weights, cumulative binaries against main (.gpu/s29 = main's GPU code):
# .gpu/s30 step 29, .gpu/s31 steps 29-30, .gpu/s32 steps 29-31 (with the GPU tests). GPU tests (release, debug), memcheck,
# A/B (4 s, alternating, twice). Hard kills everywhere. About 200 s of commands.
cd "$(dirname "$0")/.."
set -u
B=./.gpu/s32
tar xJf .gpu/inst.tar.xz -C .gpu && mkdir -p /tmp/sh && tar xzf .gpu/conf.tar.gz -C /tmp/sh
export YASMIN_SHARED=/tmp/sh/shared YASMIN_REPO=$PWD YASMIN_CACHE_DIR=/tmp/yc YASMIN_BIN=$PWD/.gpu/s32/yasmin
I=.gpu/inst
K="timeout -s KILL"
for b in s29 s30 s31 s32; do $K 20 ./.gpu/$b/yasmin --backend=cuda -q instances/queens.aspif > /dev/null 2>&1; done
one() { # name, limit, command...
  local n=$1 t=$2; shift 2
  $K $t "$@" > $OUT/$n.txt 2>&1; echo "$n rc=$?: $(grep -E '^(SATIS|UNSAT|UNKNOWN)|^Conflicts|ERROR SUMMARY|ERROR:|WARN|test result|panicked|CUDA engine time' $OUT/$n.txt | sed -E 's/.*CUDA engine time: //; s/; unfounded.*//' | head -5 | cut -c1-330 | tr -s ' ' | tr '\n' '|')" | tee -a $OUT/summary.txt
}
YASMIN_GPU_DIFF_PROGRAMS=300 one gpu-tests 60 $B/gpu-tests --test-threads=4
YASMIN_GPU_DIFF_PROGRAMS=60 one gpu-tests-debug 60 $B/gpu-tests-debug --test-threads=4
for l in res fwd; do one memcheck-$l 30 compute-sanitizer --tool memcheck --show-backtrace no $B/yasmin --backend=cuda --learning=$l --stats -n1 -q --time-limit=3 $I/pigeonhole-8.aspif; done
one racecheck-res 40 compute-sanitizer --tool racecheck --show-backtrace no $B/yasmin --backend=cuda --stats -n1 -q --time-limit=2 $I/pigeonhole-8.aspif
for f in pigeonhole-9 GraphColouring_0006 ppm-200; do for rep in 1 2; do for b in s29 s30 s32; do
  one ab-res-$f-$b-$rep 8 ./.gpu/$b/yasmin --backend=cuda --stats -V -q --time-limit=4 $I/$f.aspif
done; done; done
for f in pigeonhole-9 Sokoban_0312; do for rep in 1 2; do for b in s29 s31; do
  one ab-fwd-$f-$b-$rep 8 ./.gpu/$b/yasmin --backend=cuda --learning=fwd --stats -V -q --time-limit=4 $I/$f.aspif
done; done; done
grep -H "Propagations" $OUT/ab-*.txt | sed "s|$OUT/||" | tee -a $OUT/summary.txt
