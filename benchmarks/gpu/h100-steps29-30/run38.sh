#!/usr/bin/env bash
# Device run 38: the CUDA differential's regression test to its end (42 regression programs, six schemes each, every
# solve in a forked child that starts CUDA), with main's GPU code (.gpu/s33). Hard kill.
cd "$(dirname "$0")/.."
set -u
B=./.gpu/s33
mkdir -p /tmp/sh && tar xzf .gpu/conf.tar.gz -C /tmp/sh
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl && export PYTHONPATH=/tmp/site
export YASMIN_SHARED=/tmp/sh/shared YASMIN_REPO=$PWD YASMIN_CACHE_DIR=/tmp/yc YASMIN_BIN=$PWD/$B/yasmin
timeout -s KILL 20 $B/yasmin --backend=cuda -q instances/queens.aspif > /dev/null 2>&1
YASMIN_PYTHON=python3 YASMIN_DIFF_BACKEND=cuda timeout -s KILL 330 $B/differential-tests regressions_agree_with_brute_force > $OUT/regressions.txt 2>&1
echo "regressions rc=$?"; grep -E "test result|panicked|disagree|regression" $OUT/regressions.txt | tail -5 | cut -c1-300
