#!/usr/bin/env bash
# Device run 34: branch wip/steps29-30 (.gpu/s33: steps 29 and 30 with deps_d's fix, Control.made removed; step 31 dropped)
# against main (.gpu/s29). GPU tests (release, debug), memcheck, A/B, CUDA differential, racecheck. Hard kills everywhere.
cd "$(dirname "$0")/.."
set -u
B=./.gpu/s33
tar xJf .gpu/inst.tar.xz -C .gpu && mkdir -p /tmp/sh && tar xzf .gpu/conf.tar.gz -C /tmp/sh
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl && export PYTHONPATH=/tmp/site
export YASMIN_SHARED=/tmp/sh/shared YASMIN_REPO=$PWD YASMIN_CACHE_DIR=/tmp/yc YASMIN_BIN=$PWD/.gpu/s33/yasmin
I=.gpu/inst
K="timeout -s KILL"
for b in s29 s33; do $K 20 ./.gpu/$b/yasmin --backend=cuda -q instances/queens.aspif > /dev/null 2>&1; done
one() { # name, limit, command...
  local n=$1 t=$2; shift 2
  $K $t "$@" > $OUT/$n.txt 2>&1; echo "$n rc=$?: $(grep -E '^(SATIS|UNSAT|UNKNOWN)|^Conflicts|ERROR SUMMARY|RACECHECK SUMMARY|ERROR:|WARN|test result|panicked|CUDA engine time' $OUT/$n.txt | sed -E 's/.*CUDA engine time: //; s/; unfounded.*//' | head -5 | cut -c1-330 | tr -s ' ' | tr '\n' '|')" | tee -a $OUT/summary.txt
}
YASMIN_GPU_DIFF_PROGRAMS=300 one gpu-tests 60 $B/gpu-tests --test-threads=4
YASMIN_GPU_DIFF_PROGRAMS=60 one gpu-tests-debug 60 $B/gpu-tests-debug --test-threads=4
for l in res fwd; do one memcheck-$l 30 compute-sanitizer --tool memcheck --show-backtrace no $B/yasmin --backend=cuda --learning=$l --stats -n1 -q --time-limit=3 $I/pigeonhole-8.aspif; done
for l in res fwd; do one ph8-$l 12 $B/yasmin --backend=cuda --learning=$l --stats -q --time-limit=8 $I/pigeonhole-8.aspif; done
for rep in 1 2; do for b in s29 s33; do
  for f in pigeonhole-9 Sokoban_0312; do one ab-fwd-$f-$b-$rep 8 ./.gpu/$b/yasmin --backend=cuda --learning=fwd --stats -V -q --time-limit=4 $I/$f.aspif; done
  [ $rep = 1 ] && for f in pigeonhole-9 GraphColouring_0006; do one ab-res-$f-$b-$rep 8 ./.gpu/$b/yasmin --backend=cuda --stats -V -q --time-limit=4 $I/$f.aspif; done
done; done
YASMIN_PYTHON=python3 YASMIN_DIFF_BACKEND=cuda YASMIN_DIFF_PROGRAMS=80 YASMIN_DIFF_PROJECTED=80 YASMIN_DIFF_THREADS=8 $K 170 $B/differential-tests > $OUT/diff_full.txt 2>&1
echo "differential rc=$?: $(grep -E "test result|differential: [0-9]+ programs|panicked|disagree" $OUT/diff_full.txt | tail -4 | sed -E 's/; features:.*//' | cut -c1-300 | tr '\n' '|')" | tee -a $OUT/summary.txt
one racecheck-res 80 compute-sanitizer --tool racecheck --show-backtrace no $B/yasmin --backend=cuda --stats -n1 -q instances/queens.aspif
grep -H "Propagations" $OUT/ab-*.txt | sed "s|$OUT/||" | tee -a $OUT/summary.txt
mkdir -p $OUT/keep && mv $OUT/summary.txt $OUT/diff_full.txt $OUT/gpu-tests*.txt $OUT/keep/ 2>/dev/null; rm -f $OUT/*.txt
