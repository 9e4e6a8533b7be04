#!/usr/bin/env python3
"""accuracy_table: the two checks of every backend over one or more reduce_bench sweeps.

usage: accuracy_table.py SWEEP.json [SWEEP.json ...] [--out FILE.md]

Per backend: the stated bound (rel_tol, relative to sum|x|) at 2^20 and at the largest n that has
one, with that n: not the sweep's largest n, where a long float chain has no bound (a rel_tol of 1
or more, written by builds before 2026-11-30's rule, counts as no bound, as reduce_bench now
reports it); over each file (one per input distribution, named by its context's "input"), the largest
rel_err / rel_tol, the rows without a bound (a float chain of 2^24 or more: accuracy unchecked),
and the rows whose exact check passed. The table follows a line naming the command that made it.
Reads the JSON (or .json.gz) through bench_json.py.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
import bench_json  # noqa: E402
from bench_json import load, parse_name  # noqa: E402
from formatting import fmt_g2, md_table  # noqa: E402


def per_backend(benches):
    """{backend: [(n, mode, counters)]} for rows that report rel_err."""
    out = {}
    for name, b in benches.items():
        parsed = parse_name(name)
        if parsed and "rel_err" in b.counters:
            backend, n, mode = parsed
            counters = dict(b.counters)
            if counters.get("rel_tol", 0) >= 1:
                del counters["rel_tol"]
            out.setdefault(backend, []).append((n, mode, counters))
    return out


def table(files, command=None):
    sweeps = []
    for path in files:
        context, benches = load(path)
        sweeps.append((context.get("input", os.path.basename(path)), per_backend(benches)))
    backends = []
    for _, rows in sweeps:
        backends += [b for b in rows if b not in backends]
    head = ["backend", "bound at 2^20", "bound at the largest n with one"]
    for label, _ in sweeps:
        words = label.replace("synthetic ", "").split()
        head.append("max rel_err / bound, " + (words[0] if words else "?"))
    head += ["rows without a bound", "exact passed"]
    body = []
    for backend in backends:
        first = sweeps[0][1].get(backend, [])
        bounds = {n: c["rel_tol"] for n, _, c in first if "rel_tol" in c}
        at_20 = bounds.get(1 << 20)
        largest = max(bounds) if bounds else None
        cells = [backend, fmt_g2(at_20), "{} (n = {})".format(fmt_g2(bounds[largest]), largest) if largest else "–"]
        no_bound, exact, total = 0, 0, 0
        for _, rows in sweeps:
            ratios = [c["rel_err"] / c["rel_tol"] for _, _, c in rows.get(backend, []) if c.get("rel_tol", 0) > 0]
            cells.append(fmt_g2(max(ratios)) if ratios else "–")
            for _, _, c in rows.get(backend, []):
                total += 1
                no_bound += "rel_tol" not in c
                exact += c.get("exact") == 1.0
        cells += [str(no_bound), "{} / {}".format(exact, total)]
        body.append(cells)
    lines = [command, ""] if command else []
    return "\n".join(lines + md_table(head, body)) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+", metavar="SWEEP.json")
    ap.add_argument("--out", default=None, metavar="FILE.md", help="write here instead of stdout")
    args = ap.parse_args(argv)
    return bench_json.write_page("accuracy_table", lambda: table(args.files, bench_json.stamp(__file__, argv)),
                                 args.out)


if __name__ == "__main__":
    sys.exit(main())
