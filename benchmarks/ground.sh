#!/bin/bash
# Grounds competition instances on the device machine (no network, no clingo installed): clingo
# 5.8.3's wheels in .whl go into /tmp/site, and each SRC/NAME__INSTANCE.asp with its encoding
# SRC/NAME.enc is ground by its gringo into DEST/NAME__INSTANCE.aspif, sixteen at a time, at most
# 150 s each (an instance that takes longer is left out). A SRC may instead hold
# NAME__INSTANCE.aspif.xz files ground before by the same gringo, which repeats its output byte
# for byte: they are decompressed, which saves the 150 s that the 56 of .bench/src and
# .bench/src2 that ground there take (the 57th, PermutationPatternMatching 0007, takes longer);
# `xz -9` makes those 56 25 MB, which the device tool carries. Sourced by the benchmark scripts,
# with the repository as the working directory:  source benchmarks/ground.sh DEST SRC...
# It exports PYTHONPATH (clingo importable) and PYTHONUNBUFFERED.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site PYTHONUNBUFFERED=1
ground_dest=$1; shift
mkdir -p "$ground_dest"
ground_t0=$(date +%s)
for src in "$@"; do ls "$src"/*.asp 2>/dev/null; done | GROUND_DEST=$ground_dest xargs -P 16 -I{} bash -c \
  'f={}; d=$(dirname $f); b=$(basename $f .asp); enc=$d/${b%%__*}.enc; timeout 150 python3 -m clingo --mode=gringo $enc $f > $GROUND_DEST/$b.aspif 2>/dev/null || rm -f $GROUND_DEST/$b.aspif'
# Ground before (gringo is deterministic): NAME__INSTANCE.aspif.xz files, decompressed.
for src in "$@"; do ls "$src"/*.aspif.xz 2>/dev/null; done | GROUND_DEST=$ground_dest xargs -r -P 16 -I{} python3 -c \
  'import lzma, os, shutil, sys; f = sys.argv[1]; shutil.copyfileobj(lzma.open(f), open(os.path.join(os.environ["GROUND_DEST"], os.path.basename(f)[:-3]), "wb"))' {}
echo "ground $(ls "$ground_dest" | wc -l) in $(( $(date +%s) - ground_t0 )) s"
