#!/usr/bin/env python3
"""Tables of the sums along a dimension (reduce_bench --shapes): one table per element type, axis
and total B x N, one line per row length N, each row's GB/s (input read + outputs written, the
JSON's bytes_per_second) with its share of the same run's ref/segmented (the floor: the input read
and the outputs written once), ours also as a share of the DRAM peak (the first file's context),
then ours over the fastest peer. Standard library only.

    scripts/shape_table.py shapes.json [more.json ...] [--mode cold] [--out page.md]   (default: stdout)

Rows of several files are merged (a CCCL 3.4 build's cub/segmented_fixed beside the toolkit's
run); a name measured twice keeps the first file's.
"""
import argparse
import re
import sys

import bench_json

SHAPE_RE = re.compile(
    r"^(?P<backend>.+)/(?P<b>\d+)x(?P<n>\d+)(?P<cols>/cols)?/(?P<mode>cold|hot)(?:/manual_time)?$")
OURS = "cuda/segmented"
FLOOR = "ref/segmented"
PEERS = ("cub/segmented", "cub/segmented_fixed", "torch/sum_dim", "torch/sum_dim_f32", "triton/sum_dim",
         "cpu/avx2/segmented")


def exponent(v):
    return "2^%d" % (v.bit_length() - 1) if v > 0 and v & (v - 1) == 0 else str(v)


def collect(paths, mode):
    """({(dtype, axis, total, n): {backend: (GB/s or None, note)}}, the first file's DRAM peak GB/s)."""
    rows = {}
    peak = None
    for path in paths:
        context, benches = bench_json.load(path)
        if peak is None:
            try:
                peak = float(context.get("gpu_peak_bandwidth_GBps", "")) or None
            except ValueError:
                peak = None
        for name, b in benches.items():
            m = SHAPE_RE.match(name)
            if not m or m.group("mode") != mode:
                continue
            backend, dtype = bench_json.split_dtype(m.group("backend"))
            rows_b, n = int(m.group("b")), int(m.group("n"))
            key = (dtype, "cols" if m.group("cols") else "rows", rows_b * n, n)
            bps = b.bytes_per_second()
            if b.errors:
                cell = (None, "error")
            elif not bps:
                cell = (None, "skipped" if b.skips else "-")
            else:
                cell = (sorted(bps)[len(bps) // 2] / 1e9, "")
            rows.setdefault(key, {}).setdefault(backend, cell)
    return rows, peak


def table(rows, peak, dtype, axis, total):
    keys = sorted(k for k in rows if k[:3] == (dtype, axis, total))
    if not keys:
        return []
    peers = [p for p in PEERS if any(p in rows[k] for k in keys)]
    head = ["N", "B", FLOOR + " GB/s", OURS + " GB/s (% floor, % DRAM peak)"] + [p + " GB/s (% floor)" for p in peers]
    head += ["ours / best peer"]
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for k in keys:
        cells = rows[k]
        floor = cells.get(FLOOR, (None, "-"))[0]
        ours = cells.get(OURS, (None, "-"))

        def show(c, of_floor=True, of_peak=False):
            gbs, note = c
            if gbs is None:
                return note
            pct = []
            if of_floor and floor:
                pct.append("%.0f%%" % (100 * gbs / floor))
            if of_peak and peak:
                pct.append("%.0f%% peak" % (100 * gbs / peak))
            return "%.0f%s" % (gbs, " (%s)" % ", ".join(pct) if pct else "")

        best = max((cells[p][0] for p in peers if p in cells and cells[p][0]), default=None)
        ratio = "%.2f" % (ours[0] / best) if ours[0] and best else "-"
        line = [exponent(k[3]), exponent(total // k[3]), show(cells.get(FLOOR, (None, "-")), False), show(ours, True, True)]
        line += [show(cells.get(p, (None, "-"))) for p in peers] + [ratio]
        out.append("| " + " | ".join(line) + " |")
    return ["### %s, %s, total %s" % (dtype, "each row (dim=1)" if axis == "rows" else "each column (dim=0)",
                                     exponent(total)), ""] + out + [""]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("json", nargs="+")
    ap.add_argument("--mode", default="cold", choices=("cold", "hot"))
    ap.add_argument("--out")
    args = ap.parse_args()
    try:
        rows, peak = collect(args.json, args.mode)
    except bench_json.BadInput as e:
        sys.exit("shape_table.py: %s" % e)
    if not rows:
        sys.exit("shape_table.py: no %s rows of --shapes in %s" % (args.mode, ", ".join(args.json)))
    lines = [bench_json.stamp(__file__), ""]
    for dtype in sorted({k[0] for k in rows}, key=lambda d: d != "f32"):
        for axis in ("rows", "cols"):
            for total in sorted({k[2] for k in rows if k[:2] == (dtype, axis)}):
                lines += table(rows, peak, dtype, axis, total)
    text = "\n".join(lines).rstrip("\n") + "\n"
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)

if __name__ == "__main__":
    main()
