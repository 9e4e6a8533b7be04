#!/usr/bin/env python3
"""The hand-written kernels beside CUB, per n, from one sweep JSON: µs, GB/s and the ratio to CUB
(CUB's time / the kernel's: above 1 is faster than CUB), plus the issue's targets for cuda/onepass.

  scripts/kernel_table.py SWEEP.json [--out summary.md]      (default: stdout)

The kernels are the JSON's `cuda/*` rows (cold), in the order of the context's `backends` list
where the file has one, else in the order they first appear. Standard library only; reads the
JSON (or .json.gz) through bench_json.py; the page names the command that made it. Exit status: 0, 2 bad input (not a sweep, no cold cuda/* row)."""
import argparse
import os
import statistics
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_json  # noqa: E402
import formatting  # noqa: E402
from formatting import fmt_gbps, md_table  # noqa: E402
from renames import as_measured  # noqa: E402


def pow2(n):
    return formatting.pow2(n, formatting.e_rounded)


def tables(benches):
    """({backend: {n: median µs}}, {backend: {n: median GB/s}}, backends in file order), cold rows."""
    t, gbs, order = defaultdict(dict), defaultdict(dict), []
    for bench in benches.values():
        parsed = bench_json.parse_name(bench.name)
        times, _ = bench.times()
        if not parsed or parsed[2] != "cold" or not times:
            continue
        name, n, _ = parsed
        if name not in order:
            order.append(name)
        t[name][n] = statistics.median(times)
        bps = bench.bytes_per_second()
        gbs[name][n] = statistics.median(bps) / 1e9 if bps else 0.0
    return t, gbs, order


def targets(t):
    """The issue's targets for cuda/onepass, as markdown lines (those whose rows the file has)."""
    op, cub, rd, launch = t.get("cuda/onepass"), t.get("cub"), t.get("ref/read"), t.get("ref/launch")
    if not op or not cub:
        return []
    both = [n for n in sorted(op) if n in cub]
    lines = ["", "## cuda/onepass against the targets", ""]
    worst = min(both, key=lambda n: cub[n] / op[n])
    lines.append(f"- ≥ 1.0× CUB at every size: min {cub[worst] / op[worst]:.3f}× (at {pow2(worst)})")
    miss = [f"{pow2(n)} {cub[n] / op[n]:.2f}×" for n in both if 2**13 <= n <= 2**22 and cub[n] / op[n] < 1.3]
    lines.append(f"- ≥ 1.3× CUB for 2^13 ≤ n ≤ 2^22: misses at {', '.join(miss) if miss else 'none'}")
    if rd and launch and 2**30 in rd:
        bw30 = 4 * 2**30 / (rd[2**30] * 1e-6)
        rows = []
        for n in sorted(op):
            if n >= 2**24 and n in launch:
                bound = 1.1 * (launch[n] + 4 * n / bw30 * 1e6)
                rows.append(f"{pow2(n)} {op[n]:.2f} vs {bound:.2f} µs{'' if op[n] <= bound else ' (missed)'}")
        lines.append(f"- ≤ 1.10 × (ref/launch + 4n / ref/read's 2^30 bandwidth, {bw30 / 1e9:.0f} GB/s) from 2^24: "
                     + "; ".join(rows))
    if rd:
        lines.append("- ≥ 96% of ref/read from 2^28: "
                     + ", ".join(f"{pow2(n)} {rd[n] / op[n] * 100:.1f}%" for n in sorted(op) if n >= 2**28 and n in rd))
    wide = as_measured("cuda/onepass_accf64", t)  # the old name in a sweep measured before the rename
    f64 = t.get(wide)
    if f64:
        lines.append(f"- {wide[len('cuda/'):]} ≥ 0.98× onepass from 2^24: "
                     + ", ".join(f"{pow2(n)} {op[n] / f64[n]:.3f}" for n in sorted(op) if n >= 2**24 and n in f64))
    return lines


def render(path, ctx, benches, command=None):
    t, gbs, order = tables(benches)
    kernels = [b for b in bench_json.ordered_backends(ctx, order) if b.startswith("cuda/")]
    if not kernels:
        raise bench_json.BadInput(f"{path}: no cold cuda/* rows")
    cub, read = t.get("cub", {}), t.get("ref/read", {})
    lines = [f"# Hand-written kernels beside CUB ({ctx.get('gpu')}, cold, median of the repetitions)", ""]
    lines += [command, ""] if command else []
    lines += [f"From `{path}`; flush: {ctx.get('l2_flush')}. Each cell: µs, GB/s, ratio to CUB.", ""]
    rows = []
    for n in sorted(set(cub) | {n for k in kernels for n in t[k]}):
        cells = [pow2(n), f"{cub[n]:.2f} µs, {fmt_gbps(gbs['cub'][n])}" if n in cub else "-"]
        for k in kernels:
            if n not in t[k]:
                cells.append("-")
            elif n in cub:
                cells.append(f"{t[k][n]:.2f}, {fmt_gbps(gbs[k][n])}, **{cub[n] / t[k][n]:.2f}×**")
            else:
                cells.append(f"{t[k][n]:.2f}, {fmt_gbps(gbs[k][n])}")
        cells.append(f"{read[n]:.2f}, {fmt_gbps(gbs['ref/read'][n])}" if n in read else "-")
        rows.append(cells)
    lines += md_table(["n", "cub"] + [k[len("cuda/"):] for k in kernels] + ["ref/read"], rows)
    return "\n".join(lines + targets(t)) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("json", help="a reduce_bench sweep (Google Benchmark JSON)")
    ap.add_argument("--out", help="write the table here (default: stdout)")
    args = ap.parse_args(argv)

    def build():
        ctx, benches = bench_json.load(args.json)
        return render(args.json, ctx, benches, bench_json.stamp(__file__, argv))
    return bench_json.write_page("kernel_table", build, args.out)


if __name__ == "__main__":
    sys.exit(main())
