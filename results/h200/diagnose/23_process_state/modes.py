import json, sys, statistics as st, collections, re
res = collections.defaultdict(lambda: collections.defaultdict(list))
for f in sorted(sys.argv[1:]):
    var = re.sub(r'_\d+\.json$', '', f.split('/')[-1])
    rnd = re.search(r'_(\d+)\.json$', f).group(1)
    try: js = json.load(open(f))['benchmarks']
    except Exception as e: print(f, 'unreadable', e); continue
    for b in js:
        if b.get('run_type') != 'iteration': continue
        name = b['name'].rsplit('/manual_time', 1)[0]
        be, n, mode = name.rsplit('/', 2)
        n = int(n)
        if mode != 'cold' or n < 8192 or n > 262144: continue
        res[(var, be)][n].append((rnd, b['median_us']))
sizes = [8192, 16384, 32768, 65536, 131072, 262144]
print('variant/backend', ' '.join(f'2^{s.bit_length()-1:>2}' for s in sizes), '  (medians per run, µs)')
for (var, be) in sorted(res):
    cells = []
    for s in sizes:
        v = res[(var, be)].get(s, [])
        cells.append('/'.join(f'{x:.2f}' for _, x in v) if v else '-')
    print(f'{var:9} {be:13}', '  '.join(cells))
