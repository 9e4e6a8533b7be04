# A/B of two builds over several processes each: per (backend, n), the median over the processes
# of each process's median, for build A (old) and B (new), and B - A.
import json, sys, statistics as st, collections, re
runs = collections.defaultdict(list)  # build -> list of {name: median_us}
for f in sys.argv[1:]:
    build = re.search(r'(old|new)_\d+\.json', f).group(1)
    rows = {}
    for b in json.load(open(f))['benchmarks']:
        if b.get('run_type') != 'iteration' or b.get('error_occurred'): continue
        rows[b['name'].rsplit('/manual_time', 1)[0]] = b['median_us']
    runs[build].append(rows)
names = sorted({k for r in runs['new'] for k in r}, key=lambda s: (s.split('/')[0:-2], int(s.split('/')[-2])))
print(f"{len(runs['old'])} old, {len(runs['new'])} new processes; µs, median of process medians")
print(f"{'row':40s} {'old':>7s} {'new':>7s} {'new-old':>8s}   new per process")
for k in names:
    o = [r[k] for r in runs['old'] if k in r]; n = [r[k] for r in runs['new'] if k in r]
    if not o or not n: continue
    parts = k.split('/'); cub = ('cub@' + parts[1].split('@')[1] if '@' in parts[1] else 'cub') + '/' + '/'.join(parts[-2:])
    ro = [r[cub] / r[k] for r in runs['old'] if k in r and cub in r]; rn = [r[cub] / r[k] for r in runs['new'] if k in r and cub in r]
    rat = f"cub/row old {st.median(ro):.2f} (min {min(ro):.2f}) new {st.median(rn):.2f} (min {min(rn):.2f})" if ro and rn else ''
    print(f"{k:40s} {st.median(o):7.2f} {st.median(n):7.2f} {st.median(n)-st.median(o):+8.2f}   {' '.join(f'{x:.2f}' for x in n)}   {rat}")
