# The samples of ncu_lines.py output by function (kernels/*.cu, from the repository root).
import sys, re, collections
def funcs(path):
    out = []; 
    for i, l in enumerate(open(path), 1):
        m = re.match(r'^(?:extern "C" )?__(?:device|global)__[^(]*?(\w+)\(', l)
        if m: out.append((i, m.group(1)))
    return out
cache = {}
tot = collections.Counter(); total = 0
for line in open(sys.argv[1]):
    loc, n, *_ = line.split('\t'); f, ln = loc.split(':'); ln = int(ln); n = int(n); total += n
    if f not in cache:
        try: cache[f] = funcs("kernels/" + f)
        except Exception: cache[f] = []
    name = '?'
    for i, fn in cache[f]:
        if i <= ln: name = fn
    tot[f + ':' + name] += n
for k, v in tot.most_common(25): print(f"{100*v/total:5.1f}%  {k}")
