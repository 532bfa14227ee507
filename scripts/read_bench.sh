#!/usr/bin/env bash
# Reader speed and memory: reads each ground file with --parse-only (read, build the program,
# report), three times, and prints size, best wall time, MB/s and peak RSS as a markdown table.
# In the same run, clingo reads the file too (`python -m clingo --mode=clasp --stats
# --time-limit=$CLINGO_LIMIT`, default 30): its column is clasp's Time minus Solving (reading
# and preprocessing, the nearest figure clasp reports), and the peak RSS of that run (which
# includes whatever search fits in the limit).
#
#   bash scripts/read_bench.sh FILE.aspif|FILE.smodels ...
#
# Build first (cargo build --release); YASMIN overrides the binary, CLINGO the clingo command
# (default: .venv/bin/python -m clingo; "none" leaves it out). Peak RSS needs GNU time
# (/usr/bin/time); without it that column says n/a.
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${YASMIN:-target/release/yasmin}"
[ -x "$bin" ] || { echo "read_bench: $bin not built (cargo build --release)" >&2; exit 2; }
[ $# -gt 0 ] || { echo "usage: scripts/read_bench.sh FILE..." >&2; exit 2; }
clingo="${CLINGO:-.venv/bin/python -m clingo}"
limit="${CLINGO_LIMIT:-30}"
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
echo "| file | MB | best of 3 (s) | MB/s | peak RSS (MB) | clingo read+prepro (s) | clingo peak RSS (MB) |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for f in "$@"; do
    bytes=$(stat -L -c %s "$f")
    best=""
    rss="n/a"
    for _ in 1 2 3; do
        t0=$(date +%s.%N)
        if [ -x /usr/bin/time ]; then
            /usr/bin/time -f "%M" -o "$tmp" "$bin" --parse-only "$f" >/dev/null 2>&1
            kb=$(tail -1 "$tmp")
            rss=$(awk -v k="$kb" 'BEGIN { printf "%.0f", k / 1024 }')
        else
            "$bin" --parse-only "$f" >/dev/null 2>&1
        fi
        t1=$(date +%s.%N)
        t=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
        if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$t; fi
    done
    ct="n/a"
    crss="n/a"
    if [ "$clingo" != "none" ]; then
        # shellcheck disable=SC2086
        if [ -x /usr/bin/time ]; then
            out=$(/usr/bin/time -f "%M" -o "$tmp" $clingo --mode=clasp --stats -q --time-limit="$limit" "$f" 2>&1 || true)
            crss=$(awk '{ v = $1 } END { printf "%.0f", v / 1024 }' "$tmp")
        else
            out=$($clingo --mode=clasp --stats -q --time-limit="$limit" "$f" 2>&1 || true)
        fi
        # Time minus Solving; a run stopped before solving began says "> limit".
        ct=$(echo "$out" | awk -v lim="$limit" '/^Time/ { gsub(/[(s]/, " "); t = $3; s = $5;
            if (s == 0 && t >= lim) printf "> %s", lim; else printf "%.3f", t - s; exit }')

    fi
    awk -v f="$(basename "$f")" -v b="$bytes" -v t="$best" -v r="$rss" -v ct="${ct:-n/a}" -v cr="${crss:-n/a}" \
        'BEGIN { printf "| %s | %.2f | %s | %.0f | %s | %s | %s |\n", f, b / 1e6, t, (b / 1e6) / t, r, ct, cr }'
done
