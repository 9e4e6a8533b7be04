#!/usr/bin/env python3
"""Nsight Compute metrics of chosen benchmarks, as a markdown table.

    scripts/ncu_table.py BUILD_DIR OUT.md cuda/onepass:2^20 cub:2^20 cuda/onepass:2^28 cub:2^28
    scripts/ncu_table.py --pipes BUILD_DIR OUT.md cuda/onepass:2^24 cuda/onepass_accf64:2^24

--pipes reports, instead, how busy the SM's pipes and issue slots were (what a conversion-heavy
kernel such as onepass_accf64 spends): metrics this ncu does not know are left out, with a note.

For each backend:n, runs reduce_bench under `ncu --clock-control none` (the card's clocks are
left alone) on that one cold benchmark with a minimal iteration count, profiles the backend's own
kernels (the harness's flush, spin and fill kernels are excluded by name), and reports per kernel:
duration, DRAM throughput (% of peak), L1/tex throughput, L2 throughput, achieved occupancy, and
DRAM bytes read + written. The last profiled launch of each kernel is reported (the first ones
are the warm-up).
"""
import csv
import io
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
from formatting import md_table, pow2  # noqa: E402

METRICS = {
    "gpu__time_duration.sum": "time (µs)",
    "dram__throughput.avg.pct_of_peak_sustained_elapsed": "DRAM %",
    "l1tex__throughput.avg.pct_of_peak_sustained_active": "L1/tex %",
    "lts__throughput.avg.pct_of_peak_sustained_elapsed": "L2 %",
    "sm__warps_active.avg.pct_of_peak_sustained_active": "occupancy %",
    "dram__bytes_read.sum": "DRAM read (MB)",
    "dram__bytes_write.sum": "DRAM write (MB)",
}
PIPES = {
    "gpu__time_duration.sum": "time (µs)",
    "dram__throughput.avg.pct_of_peak_sustained_elapsed": "DRAM %",
    "smsp__issue_active.avg.pct_of_peak_sustained_active": "issue active %",
    "sm__inst_executed_pipe_fp64.avg.pct_of_peak_sustained_active": "FP64 pipe inst %",
    "sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active": "FP64 pipe cycles %",
    "sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active": "XU pipe inst %",
    "sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active": "FMA pipe inst %",
    "sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active": "LSU pipe inst %",
}
HARNESS_KERNELS = "regex:^(?!.*(spin_kernel|flush_kernel|generate_kernel)).*$"


def parse_n(text):
    if "^" in text:
        b, e = text.split("^")
        return int(b) ** int(e)
    return int(float(text))


def known(metrics):
    """The metrics whose base name this ncu lists for the device."""
    listing = subprocess.run(["ncu", "--query-metrics"], capture_output=True, text=True).stdout
    bases = {line.split()[0] for line in listing.splitlines() if line.strip()}
    if not bases:
        return dict(metrics)  # no listing: let ncu itself reject what it does not know
    kept = {m: label for m, label in metrics.items() if m.split(".")[0] in bases}
    for m in metrics.keys() - kept.keys():
        print(f"ncu_table: this ncu does not know {m}; left out", file=sys.stderr)
    return kept


def profile(build, backend, n, metrics):
    cmd = ["ncu", "--clock-control", "none", "--csv", "--page", "raw", "-k", HARNESS_KERNELS,
           "--metrics", ",".join(metrics), f"{build}/bench/reduce_bench",
           f"--benchmark_filter=^{re.escape(backend)}/{n}/cold", f"--sizes={n}", "--benchmark_min_time=0.0001s"]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    with open(f"{RAW_PREFIX}{backend.replace('/', '_')}_{n}.csv", "w") as f:
        f.write(out)  # the raw report, so the table can be re-derived
    start = out.find('"ID"')
    rows = list(csv.DictReader(io.StringIO(out[start:])))
    units, rows = rows[0], rows[1:]  # the second CSV line holds the units
    last = {}
    for r in rows:
        last[r["Kernel Name"]] = r
    return units, last


def fmt(metric, value, unit):
    v = float(value.replace(",", ""))
    if metric == "gpu__time_duration.sum":
        # Nsight Compute 2025 writes "ns"/"us"/"ms" (older versions "nsecond"...).
        scale = {"nsecond": 1e-3, "ns": 1e-3, "usecond": 1.0, "us": 1.0, "msecond": 1e3, "ms": 1e3}
        if unit not in scale:
            raise SystemExit(f"ncu_table: unknown time unit {unit!r}")
        v *= scale[unit]
        return f"{v:.2f}"
    if metric.startswith("dram__bytes"):
        scale = {"byte": 1e-6, "Kbyte": 1e-3, "Mbyte": 1.0, "Gbyte": 1e3, "B": 1e-6, "KB": 1e-3, "MB": 1.0, "GB": 1e3}
        if unit not in scale:
            raise SystemExit(f"ncu_table: unknown byte unit {unit!r}")
        v *= scale[unit]
        return f"{v:.2f}"
    return f"{v:.1f}"


RAW_PREFIX = ""


def main():
    global RAW_PREFIX
    args = sys.argv[1:]
    metrics = METRICS
    if args and args[0] == "--pipes":
        args = args[1:]
        metrics = known(PIPES)
    build, out_md, cases = args[0], args[1], args[2:]
    RAW_PREFIX = out_md.removesuffix(".md") + "_raw_"
    rows = []
    for case in cases:
        backend, n_text = case.rsplit(":", 1)
        n = parse_n(n_text)
        units, kernels = profile(build, backend, n, metrics)
        for name, r in kernels.items():
            short = re.sub(r"\(.*", "", name)[:60]
            rows.append([backend, pow2(n), f"`{short}`"] + [fmt(m, r[m], units[m]) for m in metrics])
    text = "\n".join(md_table(["backend", "n", "kernel"] + list(metrics.values()), rows)) + "\n"
    with open(out_md, "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
