#!/usr/bin/env python3
"""A tuning sweep's tables (scripts/gpu tune): which shape or variant is fastest at each n.

  scripts/tune_table.py SWEEP.json [--mode cold|hot]   median µs, one row per backend, one column per n
  scripts/tune_table.py --spread SWEEP.json [...]      per benchmark: its repetitions' median, min,
                                                       max, cv and (up to 10) each repetition

In the median table **bold** is the fastest row that is not `ref/*` in its column (where two or more
rows compete), `error` a failed row, `skip` a size the backend does not take, `-` not measured. Rows:
cub, cuda/*, other libraries, tune/*, ref/*, each group in natural order. The tables of
results/h200/tuning.md were made this way. Standard library only; reads the JSON (or .json.gz)
through bench_json.py. Exit status: 0, 2 a file missing or not a sweep.
"""
import argparse
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_json import BadInput, load, parse_name  # noqa: E402
import formatting  # noqa: E402
from formatting import md_table  # noqa: E402


def fmt_n(n):
    return formatting.pow2(n, formatting.e_exact)


def fmt_us(t):
    return formatting.fmt_us(t, large="{:.1f}")


def natural(text):
    return [(0, int(x), "") if x.isdigit() else (1, 0, x) for x in re.split(r"(\d+)", text) if x]


def row_key(backend):
    if backend == "cub":
        group = 0
    elif backend.startswith("cuda/"):
        group = 1
    elif backend.startswith("tune/"):
        group = 3
    elif backend.startswith("ref/"):
        group = 4
    else:
        group = 2
    return (group, natural(backend))


def cells_of(benches, mode):
    """{backend: {n: median µs, or "error" / "skip"}} for one mode."""
    table = {}
    for bench in benches.values():
        parsed = parse_name(bench.name)
        if not parsed or parsed[2] != mode:
            continue
        backend, n, _ = parsed
        median = bench.median()
        if median is not None:
            value = median
        elif bench.errors:
            value = "error"
        elif bench.skips:
            value = "skip"
        else:
            continue
        table.setdefault(backend, {})[n] = value
    return table


def median_table(table):
    """Markdown: one row per backend, one column per n."""
    rows = sorted(table.items(), key=lambda kv: row_key(kv[0]))
    sizes = sorted({n for _, by_n in rows for n in by_n})
    best = {}
    for n in sizes:
        timed = [by_n[n] for b, by_n in rows if not b.startswith("ref/") and isinstance(by_n.get(n), float)]
        best[n] = min(timed) if len(timed) > 1 else None
    body = []
    for backend, by_n in rows:
        cells = [backend]
        for n in sizes:
            v = by_n.get(n)
            if v is None:
                cells.append("-")
            elif isinstance(v, str):
                cells.append(v)
            else:
                text = fmt_us(v)
                cells.append("**{}**".format(text) if not backend.startswith("ref/") and v == best[n] else text)
        body.append(cells)
    return md_table(["backend"] + [fmt_n(n) for n in sizes], body, align="l" + "r" * len(sizes))


def spread_table(items):
    """Markdown: per benchmark of each file, the repetitions' spread. items: [(path, {name: Bench})]."""
    body = []
    for path, benches in items:
        def key(bench):
            parsed = parse_name(bench.name)
            return (row_key(parsed[0]), parsed[1], parsed[2]) if parsed else ((9, []), 0, bench.name)

        for bench in sorted(benches.values(), key=key):
            parsed = parse_name(bench.name)
            name = "{} {} {}".format(parsed[0], fmt_n(parsed[1]), parsed[2]) if parsed else bench.name
            t = bench.samples
            if not t:
                continue
            cv = "{:.2f}".format(statistics.stdev(t) / statistics.mean(t) * 100) if len(t) > 1 else "-"
            each = ", ".join("{:.2f}".format(x) for x in t) if len(t) <= 10 else "(more than 10)"
            body.append(["`{}`".format(os.path.basename(path)), name, len(t), fmt_us(statistics.median(t)),
                         fmt_us(min(t)), fmt_us(max(t)), cv, each])
    return md_table(["file", "benchmark", "repetitions", "median µs", "min", "max", "cv %", "each repetition (µs)"],
                    body, align="llrrrrrl")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+", metavar="SWEEP.json")
    ap.add_argument("--spread", action="store_true", help="each benchmark's repetitions instead of the median table")
    ap.add_argument("--mode", default="cold", choices=("cold", "hot"), help="the median table's mode (default cold)")
    args = ap.parse_args(argv)
    if not args.spread and len(args.files) > 1:
        ap.error("the median table reads one sweep (--spread takes several)")
    try:
        loaded = [(path, load(path)[1]) for path in args.files]
    except BadInput as e:
        print("tune_table: {}".format(e), file=sys.stderr)
        return 2
    if args.spread:
        text = "\n".join(spread_table(loaded)) + "\n"
    else:
        table = cells_of(loaded[0][1], args.mode)
        text = "\n".join(median_table(table)) + "\n" if table else "(no {} rows)\n".format(args.mode)
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
