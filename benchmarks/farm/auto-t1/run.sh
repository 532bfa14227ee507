#!/usr/bin/env bash
# yasmin's default (`--backend=auto`: for one model one CPU search racing the search farm) against
# `--backend=cpu` and clingo, one search each, on the 12 instances of instances.txt (the farm's
# and the CPU's strengths, an optimization, an unsatisfiable one) of ../shared/bench, T seconds
# (default 10), on the GPU machine; and the wall time of small runs (instances/, five each), the
# default against the CPU engine. The CPU configurations run four at a time beside the default's,
# which runs one at a time. SRC holds NAME.enc and NAME__INSTANCE.asp (scripts/bench_sources.sh).
#   SRC=.bench/src Y=.gpu/yasmin OUT=/tmp/t1 bash benchmarks/farm/auto-t1/run.sh
set -u
cd "$(dirname "$0")/../../.."
: "${SRC:?}" "${OUT:?}" "${Y:?}"
here=benchmarks/farm/auto-t1
mkdir -p "$OUT" /tmp/t1-src
while read -r b; do
    cp "$SRC/${b%%__*}.enc" /tmp/t1-src/ && cp "$SRC/$b".asp* /tmp/t1-src/
done < "$here/instances.txt"
source benchmarks/ground.sh /tmp/t1-ground /tmp/t1-src
export YASMIN_CACHE_DIR=/tmp/yc
for mode in grid farm; do timeout 120 "$Y" --backend=cuda --gpu-mode=$mode -q instances/queens.aspif > /dev/null 2>&1; done
python3 - "$Y" <<'PY' | tee "$OUT/small.txt"
import subprocess, sys, time
y = sys.argv[1]
print("| small run, wall s (mean of 5) | default | --backend=cpu |\n|---|--:|--:|")
for f in ["queens", "tiling", "hamiltonian", "disjunction"]:
    for n in ["1", "0"]:
        row = []
        for extra in [[], ["--backend=cpu"]]:
            t = time.time()
            for _ in range(5):
                subprocess.run([y, *extra, "-q", "-n", n, f"instances/{f}.aspif"], stdout=subprocess.DEVNULL)
            row.append(f"{(time.time() - t) / 5:.3f}")
        print(f"| {f} -n {n} | {row[0]} | {row[1]} |")
PY
bench() { python3 scripts/parallel_bench.py --yasmin "$Y" --python python3 --timeout "${T:-10}" "$@"; }
bench --jobs 4 --out "$OUT/cpu.csv" --config clingo --config 'yasmin --backend=cpu' /tmp/t1-ground/*.aspif > "$OUT/cpu.txt" 2>&1 &
bench --jobs 1 --out "$OUT/auto.csv" --config yasmin /tmp/t1-ground/*.aspif > "$OUT/auto.txt" 2>&1
wait
echo "instances done"; tail -n 5 "$OUT/cpu.txt" "$OUT/auto.txt"
