#!/usr/bin/env bash
# The search farm on several GPUs against one (issue #31), in one run on a multi-GPU device
# machine: scripts/parallel_bench.py over ground tight programs without #minimize (the farm's
# programs), .aspif or .aspif.gz, each configuration on 1 GPU, and on GPUS (default: all of them)
# competing and in split mode:
#   GPUS=0,1 bash scripts/multigpu_bench.sh OUT.csv TIMEOUT FILE...
# The exchange's traffic between the farms is in each run's statistics (Relayed, Relayed bytes).
# Needs the binary in .gpu/ (scripts/gpu_bundle.sh) and clingo importable by python3 for the
# clingo -t 8 reference (CLINGO=0 leaves it out).
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
gpus=${GPUS:-$(nvidia-smi --query-gpu=index --format=csv,noheader | paste -sd, -)}
n=$(echo "$gpus" | tr ',' '\n' | wc -l)
export YASMIN_CACHE_DIR=${YASMIN_CACHE_DIR:-/tmp/yc}
farm='yasmin --backend=cuda --gpu-mode=farm --stats'
configs=(--config "$farm --gpu-devices=0" --config "$farm --gpu-devices=$gpus" --config "$farm --gpu-devices=$gpus -t $n,split")
[ "${CLINGO:-1}" = 1 ] && configs=(--config 'clingo -t 8' "${configs[@]}")
python3 scripts/parallel_bench.py --yasmin "${YASMIN_BIN:-.gpu/yasmin}" --python python3 --timeout "$timeout" \
    --out "$out" "${configs[@]}" "${files[@]}"
