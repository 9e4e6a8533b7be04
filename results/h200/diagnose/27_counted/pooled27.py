# Per (row, n): the median over processes of each process's median (µs), the spread, and cub over
# the row per process; errors listed.
import json, sys, statistics as st, collections
runs = []
for f in sys.argv[1:]:
    rows, errs = {}, []
    for b in json.load(open(f))['benchmarks']:
        name = b['name'].rsplit('/manual_time', 1)[0]
        if b.get('error_occurred'): errs.append(name + ': ' + b.get('error_message', '')[:80]); continue
        if b.get('run_type') != 'iteration': continue
        rows[name] = b['median_us']
    runs.append(rows)
    for e in errs: print('ERROR', f, e)
names = sorted({k for r in runs for k in r}, key=lambda s: (int(s.split('/')[-2]), s))
print(f"{len(runs)} processes; µs: median of process medians [min-max]; cub/row: median [min-max] over processes")
for k in names:
    v = [r[k] for r in runs if k in r]
    n = k.split('/')[-2]; cub = f'cub/{n}/cold'
    rat = [r[cub] / r[k] for r in runs if k in r and cub in r]
    print(f"{k:36s} {st.median(v):6.2f} [{min(v):.2f}-{max(v):.2f}]  cub/row {st.median(rat):.3f} [{min(rat):.3f}-{max(rat):.3f}]   {' '.join(f'{x:.2f}' for x in v)}")
