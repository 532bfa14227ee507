#!/usr/bin/env bash
# Device run 71: where a res decision's time goes now (main after step 46, .gpu/s46): 5 s runs with -V under res, the
# CUDA engine's time split (input rounds, sweeps, analysis on the device, host wall time per operation), beside the
# CPU engine's rates in the same run. Hard kills everywhere.
cd "$(dirname "$0")/../../.."
set -u
mkdir -p $OUT/keep
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/keep/gpu.txt
tar xJf .gpu/inst.tar.xz -C .gpu
export YASMIN_CACHE_DIR=/tmp/yc
I=.gpu/inst
K="timeout -s KILL"
B=.gpu/s46
$K 30 $B/yasmin --backend=cuda -q instances/queens.aspif > /dev/null 2>&1
for inst in GraphColouring_0006 ppm-200 marriage-60 pigeonhole-9 Visit-all_0029; do
  for be in cuda cpu; do
    f=$OUT/keep/$be-res-$inst.txt
    $K 12 $B/yasmin --backend=$be --learning=res --stats -V -q --time-limit=5 $I/$inst.aspif > $f 2>&1
    echo "$be $inst: $(grep -E '^(SATIS|UNSAT|UNKNOWN)' $f | head -1) $(grep -E '^(Choices|Conflicts|Propagations)' $f | tr -s ' ' | sed -E 's/: ([0-9]+) +\(per second: ([0-9]+)\)/ \1 (\2\/s)/' | tr '\n' ' ')"
    grep -oE 'CUDA engine time.*' $f
  done
done
