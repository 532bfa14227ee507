#!/bin/bash
# #27: -t 8 -n 0 with the search farm as a member of split mode (portfolio/farm_member.rs: the 8
# CPU searches enumerate from the start, the farm takes parts once its device is open) against the
# farm alone (.bench/yold, main at 4d62e28, the default -t 8 before), the same build with SPLITS = 6
# (.bench/y6: each busy search keeps 1/64 of its part, not 1/16) and 8 CPU searches; clingo -t 8 in
# the same run; -q, one run each, one at a time, 20 s, on the H200 machine. Then queens 12's time
# (yasmin's own) with 8 CPU searches, the default, and the default without a visible device, three
# times; and -V of Hamiltonian 15 (the farm's rounds). The new binary in .gpu/yasmin
# (scripts/gpu_bundle.sh), clingo 5.8.3's wheels in .whl.
# From the repository root: OUT=DIR bash benchmarks/enum/farm-member-h200/run.sh
cd "$(dirname "$0")/../../.."
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site YASMIN_CACHE_DIR=/tmp/yc
mkdir -p "$OUT"
for b in .gpu/yasmin .bench/yold .bench/y6; do $b --backend=cuda --gpu-mode=farm -q -n 0 instances/queens.aspif > /dev/null; done
python3 scripts/enum_bench.py --yasmin .gpu/yasmin --python python3 --timeout 20 --outputs q --out "$OUT/enum.csv" \
    --config 'clingo -t 8' --config 'yasmin@.bench/yold -t 8' --config 'yasmin -t 8' --config 'yasmin@.bench/y6 -t 8' \
    --config 'yasmin --backend=cpu -t 8' \
    --program queens:12 --program queens:13 --program hamiltonian:14:6 --program colouring:30:2.5 --program sub:22 \
    --program queens:14 --program hamiltonian:15:6 2>&1 | tee "$OUT/enum.txt"
F=/tmp/yasmin-enum-bench
for i in 1 2 3; do
  echo "q12 cpu: $(.gpu/yasmin -t 8 -q -n 0 --backend=cpu $F/queens_12.aspif | grep -E '^Time')" >> "$OUT/q12.txt"
  echo "q12 default: $(.gpu/yasmin -t 8 -q -n 0 $F/queens_12.aspif | grep -E '^Time')" >> "$OUT/q12.txt"
  echo "q12 no device: $(CUDA_VISIBLE_DEVICES= .gpu/yasmin -t 8 -q -n 0 $F/queens_12.aspif | grep -E '^Time')" >> "$OUT/q12.txt"
done
.gpu/yasmin -t 8 -q -n 0 -V $F/hamiltonian_15_6.aspif 2>&1 | grep -E "farm|parallel|Time" > "$OUT/ham15-V.txt"
.bench/y6 -t 8 -q -n 0 -V $F/hamiltonian_15_6.aspif 2>&1 | grep -E "farm|parallel|Time" > "$OUT/ham15-V-splits6.txt"
