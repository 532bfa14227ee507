#!/usr/bin/env bash
# The GPU search farm (--gpu-mode=farm) in one run on the device machine, through
# scripts/parallel_bench.py over ground tight programs without #minimize (the farm's programs),
# .aspif or .aspif.gz:
#   bash scripts/farm_bench.sh OUT.csv TIMEOUT FILE...
# against one CPU search, 8 CPU searches, and clingo with 1 and 8 threads; or with GPUS=0,1 (a
# multi-GPU machine, issue #31) on 1 GPU against farms on the first 2, 4, ... of GPUS and on all
# of them, competing and in split mode, clingo -t 8 beside (CLINGO=0 leaves it out), with the exchange's traffic between the farms
# (Relayed, Relayed bytes) in the CSV.
# Needs clingo importable by python3 (scripts/gpu_checks.sh installs it from .whl/) and the
# binary in .gpu/ (scripts/gpu_bundle.sh).
set -eu
cd "$(dirname "$0")/.."
out=$1 timeout=$2
shift 2
source scripts/bench_files.sh
bench_files "$@"
export YASMIN_CACHE_DIR=${YASMIN_CACHE_DIR:-/tmp/yc}
farm='yasmin --backend=cuda --gpu-mode=farm'
if [ -n "${GPUS:-}" ]; then
    # The first 1, 2, 4, ... devices of GPUS, and all of them: a farm on each, competing and split.
    IFS=, read -r -a gpus <<< "$GPUS"
    farm="$farm --stats"
    configs=(--config "$farm --gpu-devices=${gpus[0]}")
    counts=()
    for ((n = 2; n < ${#gpus[@]}; n *= 2)); do counts+=("$n"); done
    [ ${#gpus[@]} -gt 1 ] && counts+=("${#gpus[@]}")
    for n in "${counts[@]}"; do
        list=$(IFS=,; echo "${gpus[*]:0:n}")
        configs+=(--config "$farm --gpu-devices=$list" --config "$farm --gpu-devices=$list -t $n,split")
    done
    [ "${CLINGO:-1}" = 1 ] && configs=(--config 'clingo -t 8' "${configs[@]}")
else
    configs=(--config clingo --config 'clingo -t 8' --config 'yasmin --backend=cpu' --config 'yasmin --backend=cpu -t 8' --config "$farm")
fi
python3 scripts/parallel_bench.py --yasmin "${YASMIN_BIN:-.gpu/yasmin}" --python python3 --timeout "$timeout" \
    --out "$out" "${configs[@]}" "${files[@]}"
