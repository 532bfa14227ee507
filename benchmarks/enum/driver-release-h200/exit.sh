#!/bin/bash
# What a CUDA process' exit costs, with and without a child that keeps the driver's files
# (exit.c; engine/cuda/release.rs does the same for yasmin): three runs of each, 2.5 s apart, so
# that no child of a run is left at the next. On the device machine (nvcc):
#   bash benchmarks/enum/driver-release-h200/exit.sh
cd "$(dirname "$0")"
nvcc -O2 -o /tmp/exit-cost exit.c -lcuda 2>&1 | tail -3
for level in 0 1 2; do for fk in 0 1; do for r in 1 2 3; do
  s=$EPOCHREALTIME; /tmp/exit-cost $level $fk 2>/tmp/open.txt; e=$EPOCHREALTIME
  echo "level $level fork $fk: wall $(python3 -c "print(round($e - $s, 3))") $(cat /tmp/open.txt)"
  sleep 2.5
done; done; done
