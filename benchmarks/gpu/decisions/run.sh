#!/bin/bash
# The CUDA engine deciding on rules (the paper's ASP computation) and on variables
# (--decisions=vars), one search at a time on the GPU, T seconds each (default 10), on the
# ground instances given (aspif, gzipped or not); one CSV line per run on stdout:
# instance,decisions,status,seconds,choices,conflicts.
#   bash benchmarks/gpu/decisions/run.sh YASMIN FILE...
y=$1; shift
T=${T:-10}
echo "instance,decisions,status,seconds,choices,conflicts"
for f in "$@"; do
    b=$(basename "$f" .gz); b=${b%.aspif}
    case $f in *.gz) zcat "$f" > /tmp/inst.aspif;; *) cp "$f" /tmp/inst.aspif;; esac
    for d in rules vars; do
        s=$(date +%s.%N)
        out=$(timeout $((T + 20)) "$y" --backend=cuda --decisions=$d -q --stats --time-limit=$T /tmp/inst.aspif 2>&1)
        e=$(date +%s.%N)
        st=$(echo "$out" | grep -m1 -oE '^(SATISFIABLE|UNSATISFIABLE|OPTIMUM FOUND|UNKNOWN)' || echo ERROR)
        ch=$(echo "$out" | awk '/^Choices/ {print $3}')
        co=$(echo "$out" | awk '/^Conflicts/ {print $3}')
        printf "%s,%s,%s,%s,%s,%s\n" "$b" $d "$st" "$(awk "BEGIN {printf \"%.2f\", $e - $s}")" "$ch" "$co"
    done
done
