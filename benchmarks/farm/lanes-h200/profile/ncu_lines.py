# Per source line: the PC sampling counts of a farm_search_k profile (ncu report), with the
# six largest stall reasons; run where ncu is installed: python3 ncu_lines.py REPORT OUT.
import sys, glob, collections
sys.path += glob.glob('/opt/nvidia/nsight-compute/*/extras/python')
import ncu_report
rep, out = sys.argv[1], sys.argv[2]
ctx = ncu_report.load_report(rep)
act = ctx.range_by_idx(0).action_by_idx(0)
names = [n for n in act.metric_names() if 'pcsamp' in n]
with open(out + '.names', 'w') as fo: fo.write('\n'.join(names))
want = [n for n in names if n.startswith('smsp__pcsamp_warps_issue_stalled_') and not n.endswith('_not_issued')] + \
       [n for n in names if n == 'smsp__pcsamp_sample_count']
agg = collections.defaultdict(lambda: collections.Counter())
for n in want:
    m = act.metric_by_name(n)
    if m is None or m.num_instances() == 0: continue
    corr = m.correlation_ids()
    for i in range(m.num_instances()):
        pc = corr.as_uint64(i); v = m.as_uint64(i)
        if v == 0: continue
        si = act.source_info(pc)
        key = (si.file_name().split('/')[-1], si.line()) if si else ('?', 0)
        agg[key][n.replace('smsp__pcsamp_warps_issue_stalled_', '')] += v
with open(out, 'w') as fo:
    for (f, l), c in sorted(agg.items(), key=lambda kv: -kv[1].get('smsp__pcsamp_sample_count', 0)):
        fo.write(f"{f}:{l}\t{c.get('smsp__pcsamp_sample_count',0)}\t" + ' '.join(f"{k}={v}" for k, v in c.most_common(6) if k != 'smsp__pcsamp_sample_count') + '\n')
print(out, len(agg))
