#!/bin/bash
# GPU -t N portfolios compared: each yasmin binary given runs --backend=cuda -t N (default 8)
# for T seconds (default 10) on each ground instance (aspif, gzipped or not), one run at a time;
# one CSV line per run on stdout: instance,binary,status,seconds,winner.
#   bash benchmarks/gpu/decisions/portfolio.sh "BIN1 BIN2" FILE...
bins=$1; shift
T=${T:-10}; N=${N:-8}
echo "instance,binary,status,seconds,winner"
for f in "$@"; do
    b=$(basename "$f" .gz); b=${b%.aspif}
    case $f in *.gz) zcat "$f" > /tmp/inst.aspif;; *) cp "$f" /tmp/inst.aspif;; esac
    for y in $bins; do
        s=$(date +%s.%N)
        out=$(timeout $((T + 20)) "$y" --backend=cuda -t $N -q --stats --time-limit=$T /tmp/inst.aspif 2>&1)
        e=$(date +%s.%N)
        st=$(echo "$out" | grep -m1 -oE '^(SATISFIABLE|UNSATISFIABLE|OPTIMUM FOUND|UNKNOWN)' || echo ERROR)
        w=$(echo "$out" | grep -m1 -oE 'Winner: [0-9]+' | awk '{print $2}')
        printf "%s,%s,%s,%s,%s\n" "$b" "$(basename $y)" "$st" "$(awk "BEGIN {printf \"%.2f\", $e - $s}")" "$w"
    done
done
