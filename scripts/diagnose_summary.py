#!/usr/bin/env python3
"""Prints what scripts/h200_diagnose.sh measured: per-run sample statistics, the flush and ncu
experiments, and the tuning table (median µs per backend and n).
  scripts/diagnose_summary.py OUT_DIR"""
import csv, gzip, json, os, statistics, sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_json  # noqa: E402

out = sys.argv[1]

def runs(path):
    d = json.load(open(path))
    return [b for b in d["benchmarks"] if b.get("run_type") == "iteration"]

p = os.path.join(out, "samples.csv.gz")
if os.path.exists(p):
    by = defaultdict(list)
    for name, run, _, ns in csv.reader(gzip.open(p, "rt")):
        by[(name, int(run))].append(int(ns) / 1e3)
    print("samples: name run count median min p10 p90 max distinct_values(first 8)")
    for (name, run), v in sorted(by.items()):
        q = statistics.quantiles(v, n=10)
        vals = sorted(set(round(x, 3) for x in v))
        print(f"{name} {run} {len(v)} {statistics.median(v):.3f} {min(v):.3f} {q[0]:.3f} {q[-1]:.3f} {max(v):.3f} "
              f"{len(vals)}:{vals[:8]}")
for f in ("cub_samples", "cub_flush2", "cub_cv"):
    p = os.path.join(out, f + ".json")
    if os.path.exists(p):
        print(f, [(b["name"].split("/")[0], round(b["real_time"], 2), b.get("sm_mhz")) for b in runs(p)])
p = os.path.join(out, "ncu_cub.csv")
if os.path.exists(p):
    rows = [r for r in csv.reader(open(p)) if len(r) > 5]
    if rows:
        head = rows[0]
        idx = {k: head.index(k) for k in head if k in ("Kernel Name", "gpu__time_duration.sum", "dram__bytes_read.sum",
                                                       "lts__t_sector_hit_rate.pct", "launch__grid_size")}
        print("ncu:", list(idx))
        for r in rows[2:]:
            print(" ", [r[i][:30] for i in idx.values()])
p = os.path.join(out, "tune.json")
if os.path.exists(p):
    _, benches = bench_json.load(p)
    t = defaultdict(dict)  # "backend mode" -> n -> median µs
    for bench in benches.values():
        parsed = bench_json.parse_name(bench.name)
        times, _ = bench.times()
        if parsed and times:
            t[f"{parsed[0]} {parsed[2]}"][parsed[1]] = statistics.median(times)
    ns = sorted({n for v in t.values() for n in v})
    print("tune (median µs):")
    print(f"{'backend':34}" + "".join(f"{n:>11}" for n in ns))
    for be in sorted(t, key=lambda k: (k.split()[1], k)):
        print(f"{be:34}" + "".join(f"{t[be][n]:11.2f}" if n in t[be] else f"{'-':>11}" for n in ns))
