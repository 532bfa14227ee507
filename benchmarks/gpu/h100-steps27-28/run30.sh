#!/usr/bin/env bash
# Device run 30: is step 27 (main, .gpu/s27) itself unsafe on pigeonhole-8, or only step 28 (.gpu/s28)? Every command killed hard.
cd "$(dirname "$0")/.."
set -u
tar xJf .gpu/inst.tar.xz -C .gpu && mkdir -p /tmp/sh && tar xzf .gpu/conf.tar.gz -C /tmp/sh
export YASMIN_SHARED=/tmp/sh/shared YASMIN_REPO=$PWD YASMIN_CACHE_DIR=/tmp/yc YASMIN_CUDA_LINEINFO=1
I=.gpu/inst
K="timeout -s KILL"
for b in s27 s28; do $K 20 ./.gpu/$b/yasmin --backend=cuda -q instances/queens.aspif > /dev/null 2>&1; done
one() { # name, limit, command...
  local n=$1 t=$2; shift 2
  $K $t "$@" > $OUT/$n.txt 2>&1; echo "$n rc=$?: $(grep -E '^(SATIS|UNSAT|UNKNOWN)|^Conflicts|ERROR SUMMARY|RACECHECK SUMMARY|ERROR:|WARN|test result|panicked' $OUT/$n.txt | head -4 | cut -c1-200 | tr -s ' ' | tr '\n' ' ')"
}
for b in s27 s28; do
  one $b-res-ph8 12 ./.gpu/$b/yasmin --backend=cuda --learning=res --stats -q --time-limit=6 $I/pigeonhole-8.aspif
  one $b-res-ph8-b 12 ./.gpu/$b/yasmin --backend=cuda --learning=res --stats -q --time-limit=6 $I/pigeonhole-8.aspif
done
one s27-memcheck-res-ph8 50 compute-sanitizer --tool memcheck --show-backtrace no ./.gpu/s27/yasmin --backend=cuda --learning=res --stats -n1 -q --time-limit=4 $I/pigeonhole-8.aspif
one s28-fwd-ph8 12 ./.gpu/s28/yasmin --backend=cuda --learning=fwd --stats -q --time-limit=6 $I/pigeonhole-8.aspif
one s28-res-c1-ph8 12 ./.gpu/s28/yasmin --backend=cuda --learning=res --gpu-conflicts=1 --stats -q --time-limit=6 $I/pigeonhole-8.aspif
for t in gpu_tight_res gpu_tight_fwd; do YASMIN_GPU_DIFF_PROGRAMS=100 one s28-$t 25 ./.gpu/s28/gpu-tests --exact $t --test-threads=1; done
grep -hE "Invalid|at .*\.cu:|Access to" $OUT/s27-memcheck-res-ph8.txt | sed -E 's/\(([^()]|\([^()]*\))*\)//g' | sort | uniq -c | head
