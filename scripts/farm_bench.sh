#!/usr/bin/env bash
# The GPU search farm (--gpu-mode=farm) against one CPU search, 8 CPU searches, and clingo with 1 and 8
# threads, in one run on the device machine (16 cores, one H100): scripts/parallel_bench.py over
# ground tight programs without #minimize (the farm's programs), .aspif or .aspif.gz:
#   bash scripts/farm_bench.sh OUT.csv TIMEOUT FILE...
# Needs clingo importable by python3 (scripts/gpu_checks.sh installs it from .whl/) and the
# binary in .gpu/ (scripts/gpu_bundle.sh).
set -eu
cd "$(dirname "$0")/.."
out=$1 timeout=$2
shift 2
files=()
for f in "$@"; do
    case $f in
    *.gz) g=/tmp/farm-bench/$(basename "${f%.gz}"); mkdir -p /tmp/farm-bench; gunzip -c "$f" > "$g"; files+=("$g") ;;
    *) files+=("$f") ;;
    esac
done
export YASMIN_CACHE_DIR=${YASMIN_CACHE_DIR:-/tmp/yc}
python3 scripts/parallel_bench.py --yasmin "${YASMIN_BIN:-.gpu/yasmin}" --python python3 --timeout "$timeout" \
    --out "$out" --config clingo --config 'clingo -t 8' --config yasmin --config 'yasmin -t 8' \
    --config 'yasmin --backend=cuda --gpu-mode=farm' "${files[@]}"
