# The runs of run.sh: each configuration on each program, rounds given; CSV to argv[1].
import os, re, subprocess, sys, time, csv
G = '.bench/g'
progs = ['hamiltonian_14_6', 'colouring_30_2.5', 'sub_22', 'queens_13', 'queens_14', 'hamiltonian_15_6']
cfgs = [
    ('clingo -t 8', [sys.executable, '-m', 'clingo', '-t', '8']),
    ('old farm alone', ['.bench/yold', '--backend=cuda', '--gpu-mode=farm']),
    ('new farm alone', ['.gpu/yasmin', '--backend=cuda', '--gpu-mode=farm']),
    ('old -t 8', ['.bench/yold', '-t', '8']),
    ('new -t 8', ['.gpu/yasmin', '-t', '8']),
]
out = csv.writer(open(sys.argv[1], 'w'))
out.writerow(['round', 'program', 'config', 'wall', 'time', 'models'])
for r in range(int(sys.argv[2])):
    for p in progs:
        for name, cmd in cfgs:
            if r > 0 and name.startswith('clingo'):
                continue
            t0 = time.monotonic()
            try:
                res = subprocess.run(cmd + ['-q', '-n', '0', f'{G}/{p}.aspif'], capture_output=True, text=True, timeout=25)
                so = res.stdout
            except subprocess.TimeoutExpired:
                so = ''
            wall = time.monotonic() - t0
            t = re.search(r'^Time\s*:\s*([\d.]+)', so, re.M)
            m = re.search(r'^Models\s*:\s*(\d+)', so, re.M)
            row = [r, p, name, f'{wall:.3f}', t and t.group(1), m and m.group(1)]
            out.writerow(row); print(*row, flush=True)
