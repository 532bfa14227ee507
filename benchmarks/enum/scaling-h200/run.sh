#!/bin/bash
# How split enumeration scales with its searches: queens 12 and 13 (`-q -n 0`), yasmin with
# 1, 2, 4, 8 and 16 searches and clingo -t 8, one run each, one at a time, on the GPU machine's
# 16 cores. The ground programs in .bench/q12.aspif and .bench/q13.aspif (instances/gen/queens:
# generate.py --n N, ground with encoding.lp by clingo 5.8.3's gringo), the stripped binary in
# .bench/y, clingo's wheels in .whl. From the repository root:  bash benchmarks/enum/scaling-h200/run.sh
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl; export PYTHONPATH=/tmp/site
Y=${Y:-.bench/y}
tm() { python3 - "$@" <<'P'
import subprocess,sys,time
t=time.time(); r=subprocess.run(sys.argv[1:],capture_output=True,text=True); e=time.time()-t
c=[l for l in r.stdout.splitlines() if l.startswith(('Models','Conflicts'))]
print(f"{e:.3f}s", ' | '.join(x.split(':')[1].split()[0] for x in c), ' '.join(sys.argv[1:]))
P
}
for q in 12 13; do
 for t in 1 2 4 8 16 8; do tm $Y -q -n 0 -t $t --stats .bench/q$q.aspif; done
 tm python3 -m clingo --mode=clasp -q -n 0 -t 8 --stats .bench/q$q.aspif
done
