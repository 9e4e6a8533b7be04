#!/usr/bin/env python3
"""Per element type, cold: cub, cuda/onepass and ref/read of that type at every power of two, from
one reduce_bench run with --dtype (the rows named <backend>@<type>; f32's have no suffix).

  scripts/dtype_table.py RUN.json [--out dtypes.md]      (default: stdout; RUN may be .json.gz)

Each row: n, cub µs, cuda/onepass µs, cub / onepass (above 1: onepass is faster), onepass GB/s
(the bytes of the type), ref/read GB/s, onepass as % of ref/read, and whether every check passed
for the three. Below each table: the smallest ratio, the ratios below 1.3 from 2^13 to 2^18, the
smallest % of ref/read from 2^28. Standard library only. Exit status: 0, 2 bad input."""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_json  # noqa: E402
from formatting import is_pow2, md_table, pow2  # noqa: E402

ROWS = ("cub", "cuda/onepass", "ref/read")
TYPES = ("f32", "f64", "f16", "bf16", "i32")


def by_type(benches):
    """{dtype: {(backend, n): Bench}} for the cold rows of ROWS."""
    out = {}
    for bench in benches.values():
        parsed = bench_json.parse_name(bench.name)
        if not parsed or parsed[2] != "cold":
            continue
        base, dtype = bench_json.split_dtype(parsed[0])
        if base in ROWS:
            out.setdefault(dtype, {})[(base, parsed[1])] = bench
    return out


def type_table(rows):
    lines, worst, slow_mid, low_ceiling = [], None, [], None
    table = []
    for n in sorted({n for (_, n) in rows if is_pow2(n)}):
        cub, one, read = (rows.get((b, n)) for b in ROWS)
        if not (cub and one and read and cub.median() and one.median() and read.median()):
            continue
        ratio = cub.median() / one.median()
        one_gbs = one.bytes_per_second()[0] / 1e9
        read_gbs = read.bytes_per_second()[0] / 1e9
        pct = 100 * one_gbs / read_gbs
        worst = ratio if worst is None else min(worst, ratio)
        if 2**13 <= n <= 2**18 and ratio < 1.3:
            slow_mid.append(f"{pow2(n)} {ratio:.2f}×")
        if n >= 2**28:
            low_ceiling = pct if low_ceiling is None else min(low_ceiling, pct)
        ok = "yes" if not (cub.errors or one.errors or read.errors) else "**no**"
        table.append([pow2(n), f"{cub.median():.2f}", f"{one.median():.2f}", f"{ratio:.3f}", f"{one_gbs:.0f}",
                      f"{read_gbs:.0f}", f"{pct:.1f}", ok])
    if not table:
        return []
    lines += md_table(["n", "cub µs", "onepass µs", "cub / onepass", "onepass GB/s", "ref/read GB/s",
                       "% of ref/read", "verified"], table, align="lrrrrrrc")
    lines += ["", f"Smallest cub / onepass: {worst:.3f}. Below 1.3× from 2^13 to 2^18: "
              f"{', '.join(slow_mid) if slow_mid else 'none'}."
              + (f" Smallest % of ref/read from 2^28: {low_ceiling:.1f}%." if low_ceiling is not None else "")]
    return lines


def page(context, benches, command=None):
    types = by_type(benches)
    if not types:
        raise bench_json.BadInput("no cold cub, cuda/onepass or ref/read rows")
    lines = [command, ""] if command else []
    lines += [f"GPU: {context.get('gpu', '?')}. Cold, median of the samples; GB/s counts the bytes of the type. "
              "Accumulators: float for f32, f16 and bf16; double for f64; 64-bit integers for i32.", ""]
    for dtype in TYPES + tuple(sorted(set(types) - set(TYPES))):
        if dtype in types:
            lines += [f"## {dtype}", ""] + type_table(types[dtype]) + [""]
    return "\n".join(lines).rstrip("\n") + "\n"


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("run")
    ap.add_argument("--out")
    args = ap.parse_args(argv)
    try:
        context, benches = bench_json.load(args.run)
        text = page(context, benches, bench_json.stamp(__file__, argv))
    except bench_json.BadInput as e:
        print(f"dtype_table: {e}", file=sys.stderr)
        return 2
    bench_json.emit(text, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
