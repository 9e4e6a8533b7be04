#!/usr/bin/env python3
"""Ranks the rows of a reduce_bench JSON per n: time, GB/s and speed-up over cub.

    scripts/tune_summary.py sweep.json [--mode cold] [--top 6] [--match REGEX]

Used to pick launch shapes from a -DRB_TUNING_BACKENDS=ON sweep (tune/* rows): the printed
table is the evidence quoted next to the constants in kernels/cuda/tuning.cuh and
kernels/triton/tuning.hpp.
"""
import argparse
import collections
import json
import re
import statistics
import sys


def rows(path, mode):
    with open(path) as f:
        data = json.load(f)
    times = collections.defaultdict(list)
    errors = []
    for b in data["benchmarks"]:
        if b.get("run_type") == "aggregate":
            continue
        name = b["name"].removesuffix("/manual_time")
        parts = name.split("/")
        if len(parts) < 3 or parts[-1] != mode:
            continue
        backend, n = "/".join(parts[:-2]), int(parts[-2])
        if b.get("error_occurred"):
            errors.append(f"{name}: {b.get('error_message', '')}")
            continue
        times[(backend, n)].append(b["real_time"])  # microseconds
    return {k: statistics.median(v) for k, v in times.items()}, errors


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("json")
    ap.add_argument("--mode", default="cold")
    ap.add_argument("--top", type=int, default=6)
    ap.add_argument("--match", default=".")
    args = ap.parse_args()
    med, errors = rows(args.json, args.mode)
    pattern = re.compile(args.match)
    for n in sorted({n for _, n in med}):
        cub = med.get(("cub", n))
        ranked = sorted((t, b) for (b, m), t in med.items() if m == n and pattern.search(b))
        head = f"n={n:>11} ({args.mode})" + (f"  cub {cub:9.2f} us {4 * n / cub / 1e3:7.1f} GB/s" if cub else "")
        print(head)
        for t, b in ranked[: args.top]:
            ratio = f"{cub / t:5.3f}x cub" if cub else ""
            print(f"    {b:34} {t:9.2f} us {4 * n / t / 1e3:7.1f} GB/s  {ratio}")
    for e in errors:
        print("ERROR", e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
