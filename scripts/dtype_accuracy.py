#!/usr/bin/env python3
"""Accuracy per (backend, element type): relative error, stated bound and accumulator, at chosen
sizes, over one reduce_bench run per input distribution (run with --dtype).

  scripts/dtype_accuracy.py RUN.json [RUN.json ...] [--sizes 24,30] [--out accuracy.md]

Each file is one input (its context's "input" names the column group: uniform, harmonic, ...). A
cell is `rel_err ≤ bound` (|sum - ref| / sum|x| against the row's stated bound, both relative to
sum|x|), `rel_err (no bound)` where the row's accumulator gives none (a 16-bit accumulator, a long
float chain), `∞ (overflow)` for a 16-bit accumulator past its largest value, and is marked
**failed** where a check failed. The accumulator comes from the row's label (reduce_bench writes
its stated structure there). Cold rows where present, hot otherwise. Standard library only. Exit
status: 0, 2 bad input."""
import argparse
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_json  # noqa: E402
from formatting import md_table, pow2  # noqa: E402

TYPES = ("f32", "f64", "f16", "bf16", "i32")


def rows_of(benches, sizes):
    """{(dtype, backend): {n: Bench}} at the sizes, cold preferred over hot."""
    out = {}
    for bench in benches.values():
        parsed = bench_json.parse_name(bench.name)
        if not parsed or parsed[1] not in sizes:
            continue
        backend, n, mode = parsed
        base, dtype = bench_json.split_dtype(backend)
        cell = out.setdefault((dtype, base), {})
        if mode == "cold" or n not in cell:
            cell[n] = bench
    return out


def accumulator(bench):
    label = bench.label or ""
    acc = label.split(",")[0].strip()
    for result, short in (("bf16 result", "bf16"), ("f16 result", "f16"), ("float result", "f32")):
        if result in label and acc != short:
            return f"{acc} → {short}"
    return acc or "?"


def cell(bench):
    if bench is None:
        return "–"
    if bench.skips and not bench.samples:
        return "skipped"
    err, tol = bench.counters.get("rel_err"), bench.counters.get("rel_tol")
    if err is None:
        return "**failed**" if bench.errors else "–"
    text = "∞ (overflow)" if math.isinf(err) else (f"{err:.1e} ≤ {tol:.1e}" if tol is not None
                                                   else f"{err:.1e} (no bound)")
    return text + (" **failed**" if bench.errors else "")


def page(files, sizes, command=None):
    runs = []
    for path in files:
        context, benches = bench_json.load(path)
        words = context.get("input", os.path.basename(path)).replace("synthetic ", "").split()
        runs.append((words[0] if words else path, rows_of(benches, sizes)))
    keys = []
    for _, rows in runs:
        keys += [k for k in rows if k not in keys]
    if not keys:
        raise bench_json.BadInput("no rows at n = " + ", ".join(pow2(n) for n in sizes))
    order = {t: i for i, t in enumerate(TYPES)}
    keys.sort(key=lambda k: (order.get(k[0], len(TYPES)), k[1]))
    head = ["type", "backend", "accumulator"] + [f"{name} {pow2(n)}" for name, _ in runs for n in sizes]
    body = []
    for key in keys:
        any_bench = next((r[key][n] for _, r in runs if key in r for n in sizes if n in r[key]), None)
        body.append([key[0], key[1], accumulator(any_bench) if any_bench else "?"] +
                    [cell(rows.get(key, {}).get(n)) for _, rows in runs for n in sizes])
    lines = [command, ""] if command else []
    lines += ["Relative error |sum − ref| / sum|x| (ref: compensated fp64 over the values as stored) against "
              "the row's stated bound; the accumulator as each row states it (→: the result's rounding).", ""]
    return "\n".join(lines + md_table(head, body, align="lll" + "r" * (len(head) - 3))) + "\n"


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("runs", nargs="+", metavar="RUN.json")
    ap.add_argument("--sizes", default="24,30", help="log2 of the sizes, comma-separated (default 24,30)")
    ap.add_argument("--out")
    args = ap.parse_args(argv)
    try:
        sizes = [1 << int(s) for s in args.sizes.split(",")]
    except ValueError:
        print(f"dtype_accuracy: --sizes: expected log2 sizes like 24,30, got {args.sizes!r}", file=sys.stderr)
        return 2
    return bench_json.write_page("dtype_accuracy", lambda: page(args.runs, sizes, bench_json.stamp(__file__, argv)),
                                 args.out)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
