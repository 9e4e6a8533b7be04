import json, sys, statistics as st, collections
runs = []
for f in sorted(sys.argv[1:]):
    rows = {}
    for b in json.load(open(f))['benchmarks']:
        if b.get('run_type') != 'iteration': continue
        rows[b['name'].rsplit('/manual_time', 1)[0]] = b['median_us']
    runs.append(rows)
sizes = [2**k for k in range(13, 19)]
for t in ['', '@f64', '@f16', '@bf16', '@i32']:
    print('type', t[1:] or 'f32', '| per process cub/onepass: min..max | pooled medians cub, onepass, ref/read -> ratio')
    for n in sizes:
        c = [r[f'cub{t}/{n}/cold'] for r in runs if f'cub{t}/{n}/cold' in r]
        o = [r[f'cuda/onepass{t}/{n}/cold'] for r in runs if f'cuda/onepass{t}/{n}/cold' in r]
        d = [r[f'ref/read{t}/{n}/cold'] for r in runs if f'ref/read{t}/{n}/cold' in r]
        rat = [a / b for a, b in zip(c, o)]
        print(f'  2^{n.bit_length()-1}: {min(rat):.2f}..{max(rat):.2f} (<1.3 in {sum(x < 1.3 for x in rat)}/{len(rat)}) | '
              f'{st.median(c):.2f} {st.median(o):.2f} {st.median(d):.2f} -> {st.median(c)/st.median(o):.2f}x; cub per process {" ".join(f"{x:.2f}" for x in c)}')
