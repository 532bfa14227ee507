#!/bin/bash
# The six instances of the families clingo leads (planning Nomistery 0007 and 0033, Sokoban 0474
# and 0096, HanoiTower 0004, aspcomp Nomistery 0007), each with three shuffled copies, one search,
# 50 s (T), sixteen runs at a time on the GPU machine's 16 cores. The ground programs in
# .bench/hard as NAME__INSTANCE.aspif.xz (ground by clingo 5.8.3's gringo: `python -m clingo
# --mode=gringo encoding.asp instances/INSTANCE.asp | xz`), clingo's wheels in .whl, the stripped
# binary in .bench/y. From the repository root, the configurations as arguments:
#   [T=SECONDS] OUT=DIR bash benchmarks/decisions/moms-h200/hard.sh --config clingo --config 'yasmin --backend=cpu --init-moms'
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl; export PYTHONPATH=/tmp/site PYTHONUNBUFFERED=1
mkdir -p /tmp/h /tmp/hs $OUT
for f in .bench/hard/*.xz; do xz -dc $f > /tmp/h/$(basename $f .xz); done
cp /tmp/h/*.aspif /tmp/hs/
ls /tmp/h/*.aspif | xargs -P 16 -n 1 python3 scripts/shuffle_aspif.py --copies 3 --out /tmp/hs
python3 scripts/parallel_bench.py --yasmin .bench/y --python python3 --jobs 16 --timeout ${T:-50} --out $OUT/hard.csv \
  "$@" /tmp/hs/*.aspif > $OUT/hard.txt 2>&1
