#!/usr/bin/env python3
"""The hand-written kernels beside CUB, per n, from one sweep JSON: µs, GB/s and the ratio to CUB
(CUB's time / the kernel's: above 1 is faster than CUB), plus the issue's checks for cuda/onepass.
  scripts/kernel_table.py SWEEP.json > summary.md"""
import os
import statistics
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_json  # noqa: E402

KERNELS = ["cuda/shfl", "cuda/vec4", "cuda/vec4_ilp4", "cuda/auto", "cuda/onepass", "cuda/onepass_f64"]

def g(x):
    return f"{x:.1f}" if x < 100 else f"{x:.0f}"

def pow2(n):
    return f"2^{n.bit_length() - 1}" if n & (n - 1) == 0 else f"{n:.0e}".replace("e+0", "e")

def main():
    ctx, benches = bench_json.load(sys.argv[1])
    t, gbs = defaultdict(dict), defaultdict(dict)  # backend -> n -> median µs, median GB/s (cold)
    for bench in benches.values():
        parsed = bench_json.parse_name(bench.name)
        times, _ = bench.times()
        if not parsed or parsed[2] != "cold" or not times:
            continue
        name, n, _ = parsed
        t[name][n] = statistics.median(times)
        bps = bench.bytes_per_second()
        gbs[name][n] = statistics.median(bps) / 1e9 if bps else 0.0
    print(f"# Hand-written kernels beside CUB ({ctx.get('gpu')}, cold, median of the repetitions)\n")
    print(f"From `{sys.argv[1]}`; flush: {ctx.get('l2_flush')}. Each cell: µs, GB/s, ratio to CUB.\n")
    print("| n | cub | " + " | ".join(k.split("/")[1] for k in KERNELS) + " | ref/read |")
    print("|---|" + "---|" * (len(KERNELS) + 2))
    for n in sorted(t["cub"]):
        cells = [f"{t['cub'][n]:.2f} µs, {g(gbs['cub'][n])}"]
        for k in KERNELS:
            if n in t[k]:
                cells.append(f"{t[k][n]:.2f}, {g(gbs[k][n])}, **{t['cub'][n] / t[k][n]:.2f}×**")
            else:
                cells.append("-")
        cells.append(f"{t['ref/read'][n]:.2f}, {g(gbs['ref/read'][n])}")
        print(f"| {pow2(n)} | " + " | ".join(cells) + " |")
    op, cub, rd, launch = t["cuda/onepass"], t["cub"], t["ref/read"], t["ref/launch"]
    bw30 = 4 * 2**30 / (rd[2**30] * 1e-6)
    print("\n## cuda/onepass against the targets\n")
    print(f"- ≥ 1.0× CUB at every size: min {min(cub[n] / op[n] for n in op):.3f}× "
          f"(at {pow2(min(op, key=lambda n: cub[n] / op[n]))})")
    miss = [f"{pow2(n)} {cub[n] / op[n]:.2f}×" for n in sorted(op) if 2**13 <= n <= 2**22 and cub[n] / op[n] < 1.3]
    print(f"- ≥ 1.3× CUB for 2^13 ≤ n ≤ 2^22: misses at {', '.join(miss) if miss else 'none'}")
    rows = []
    for n in sorted(op):
        if n >= 2**24:
            bound = 1.1 * (launch[n] + 4 * n / bw30 * 1e6)
            rows.append(f"{pow2(n)} {op[n]:.2f} vs {bound:.2f} µs{'' if op[n] <= bound else ' (missed)'}")
    print(f"- ≤ 1.10 × (ref/launch + 4n / ref/read's 2^30 bandwidth, {bw30 / 1e9:.0f} GB/s) from 2^24: " + "; ".join(rows))
    print("- ≥ 96% of ref/read from 2^28: " + ", ".join(f"{pow2(n)} {rd[n] / op[n] * 100:.1f}%" for n in sorted(op) if n >= 2**28))
    f64 = t["cuda/onepass_f64"]
    print("- onepass_f64 ≥ 0.98× onepass from 2^24: " + ", ".join(f"{pow2(n)} {op[n] / f64[n]:.3f}" for n in sorted(op) if n >= 2**24))

main()
