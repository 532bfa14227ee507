#!/bin/bash
# #27: short -t 8 -q -n 0 runs with the driver's files left to a child made by the bare clone
# system call (engine/cuda/release.rs), also while the device is still opening beside the run,
# against main before (.bench/ybase, cf2488b, which left them only once the device was open):
# the wall time and the Time line's, so their difference is the process' end; five rounds, one
# run at a time, on the H200 machine. The new binary in .gpu/yasmin (scripts/gpu_bundle.sh), the
# programs ground by scripts/enum_bench.py into .bench/g.
# From the repository root: bash benchmarks/enum/exit-while-opening-h200/run.sh > probe.txt
cd "$(dirname "$0")/../../.."
export YASMIN_CACHE_DIR=/tmp/yc
.gpu/yasmin --backend=cuda --gpu-mode=farm -q -n 0 instances/queens.aspif > /dev/null
cat > /tmp/t.py <<'P'
import subprocess,time,sys
t=time.time(); o=subprocess.run(sys.argv[1:],capture_output=True,text=True).stdout; e=time.time()
tl=[l.split()[2] for l in o.splitlines() if l.startswith('Time')]
print('%-8s %-22s %-26s wall %.3f time %s'%(sys.argv[1].split('/')[-1],sys.argv[-1].split('/')[-1],' '.join(sys.argv[2:-3]),e-t,tl))
P
for r in 1 2 3 4 5; do
  for f in instances/queens.aspif .bench/g/sub_22.aspif .bench/g/queens_12.aspif .bench/g/hamiltonian_14_6.aspif; do
    for b in .bench/ybase .gpu/yasmin; do python3 /tmp/t.py $b -t 8 -q -n 0 $f; done
  done
done
