#!/usr/bin/env python3
"""Times on the exact data against times on the input, from alternating processes.

usage: timed_data_table.py DIR

DIR holds reduce_bench JSON files named <side>_<mode>_<process>.json, mode being `exact` (the
default --time_on=exact) or the --dist of a --time_on=input run (`harmonic`, `uniform`). Prints a
Markdown table: per row, each mode's median over the processes of the per-process medians, its
spread over the processes (max/min - 1), and the ratio exact / input (above 1: the exact data is
slower).
"""
import json
import pathlib
import re
import statistics
import sys


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    times = {}  # (row, mode) -> [median us per process]
    modes = []
    for f in sorted(pathlib.Path(sys.argv[1]).glob("*_*_*.json")):
        m = re.fullmatch(r"(cpu|gpu)_([a-z]+)_(\d+)\.json", f.name)
        if not m:
            continue
        mode = m.group(2)
        if mode not in modes:
            modes.append(mode)
        for b in json.loads(f.read_text())["benchmarks"]:
            if b.get("error_occurred") or b.get("run_type") == "aggregate":
                continue
            name = b["name"].removesuffix("/manual_time")
            scale = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}[b.get("time_unit", "ns")]
            times.setdefault((name, mode), []).append(b["real_time"] * scale)
    inputs = [m for m in modes if m != "exact"]
    print("| row | " + " | ".join(f"{m} µs (spread)" for m in ["exact"] + inputs) + " | " +
          " | ".join(f"exact / {m}" for m in inputs) + " |")
    print("|---|" + "---:|" * (1 + 2 * len(inputs)))
    for name in sorted({n for n, _ in times}, key=lambda n: (n.split("/")[0] != "cpu", n)):
        cells, med = [], {}
        for mode in ["exact"] + inputs:
            v = times.get((name, mode), [])
            if not v:
                cells.append("–")
                continue
            med[mode] = statistics.median(v)
            cells.append(f"{med[mode]:.2f} ({100 * (max(v) / min(v) - 1):.1f}%, {len(v)})")
        ratios = [f"{med['exact'] / med[m]:.3f}" if "exact" in med and m in med else "–" for m in inputs]
        print(f"| `{name}` | " + " | ".join(cells) + " | " + " | ".join(ratios) + " |")


if __name__ == "__main__":
    main()
