#!/usr/bin/env bash
# Device run 61: the CUDA differential's regression test with step 42 (.gpu/step42, main after this session), then
# 10 s runs of the table's instances that step 42 touches most. Hard kills everywhere.
cd "$(dirname "$0")/../../.."
set -u
B=./.gpu/step42
mkdir -p $OUT/keep
tar xJf .gpu/inst.tar.xz -C .gpu && mkdir -p /tmp/sh && tar xzf .gpu/conf.tar.gz -C /tmp/sh
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl && export PYTHONPATH=/tmp/site
export YASMIN_SHARED=/tmp/sh/shared YASMIN_REPO=$PWD YASMIN_CACHE_DIR=/tmp/yc
timeout -s KILL 20 $B/yasmin --backend=cuda -q instances/queens.aspif > /dev/null 2>&1
YASMIN_BIN=$PWD/$B/yasmin YASMIN_PYTHON=python3 YASMIN_DIFF_BACKEND=cuda timeout -s KILL 250 $B/differential-tests regressions_agree_with_brute_force > $OUT/keep/regressions.txt 2>&1
echo "regressions rc=$?: $(grep -E "test result|panicked|disagree" $OUT/keep/regressions.txt | tail -3 | cut -c1-300 | tr '\n' '|')"
I=.gpu/inst
for inst in ppm-200 Visit-all_0029 pigeonhole-9; do for L in res fwd; do
  f=$OUT/keep/$inst-$L-10s.txt
  timeout -s KILL 14 $B/yasmin --backend=cuda --learning=$L --stats -q --time-limit=10 $I/$inst.aspif > $f 2>&1
  echo "$inst $L 10 s: $(grep -E '^(SATIS|UNSAT|UNKNOWN)|^Time|^Choices|^Propagations' $f | tr -s ' ' | tr '\n' '|')"
done; done
