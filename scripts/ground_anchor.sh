#!/usr/bin/env bash
# Grounds a folder of competition instances laid out as FAMILY.enc (the family's encoding) and
# FAMILY__INSTANCE.asp (an instance), as the device machine's benchmark runs carry them (copied
# from ../shared/bench, anchor.csv's 36): SRC/*__*.asp into OUT/*.aspif, all at once, each with
# clingo's gringo (python3 -m clingo) and at most 200 s; an instance that fails leaves no file.
# Usage: scripts/ground_anchor.sh SRC OUT
set -u
src=$1 out=$2
mkdir -p "$out"
for f in "$src"/*__*.asp; do
    b=$(basename "$f" .asp)
    [ -s "$out/$b.aspif" ] && continue
    (timeout 200 python3 -m clingo --mode=gringo "$src/${b%%__*}.enc" "$f" > "$out/$b.aspif" 2>/dev/null \
        || rm -f "$out/$b.aspif") &
done
wait
