#!/usr/bin/env python3
"""The multi-GPU table (docs/multi-gpu.md) from reduce_bench JSON files.

  nccl_table.py ONE_PROCESS.json [LABEL=RANK0.json ...] > table.md

ONE_PROCESS.json: a run with cuda/onepass (one GPU) and the nccl/* rows (--gpus=G) cold, in one
process. Each n: cuda/onepass's median µs; nccl/onepass's median µs, GB/s (4n / median), its
speedup over cuda/onepass at the same n (the scaling efficiency at n is speedup / G), its
scaling_eff counter (against rank 0's local sum at n/G alone), local_us and combine_us; then the
reduce and cub variants. Each LABEL=FILE adds the nccl/onepass column of another run (two
processes, the socket transport). Ends with the smallest n from which nccl/onepass beats
cuda/onepass at every larger n of the table. The table follows a line naming the command that made it.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_json  # noqa: E402
from formatting import md_table, pow2  # noqa: E402


def rows(path):
    with open(path) as f:
        doc = json.load(f)
    out = {}
    for b in doc["benchmarks"]:
        if b.get("error_occurred") or b.get("run_type") == "aggregate":
            continue
        parts = b["name"].split("/")
        mode_at = parts.index("cold") if "cold" in parts else -1
        if mode_at < 2:
            continue
        out[("/".join(parts[: mode_at - 1]), int(parts[mode_at - 1]))] = b
    return out


def main():
    one = rows(sys.argv[1])
    extra = [(a.split("=", 1)[0], rows(a.split("=", 1)[1])) for a in sys.argv[2:]]
    sizes = sorted({n for (_, n) in one})
    g = next((b.get("gpus") for (name, _), b in one.items() if name.startswith("nccl/")), None)
    head = ["n", "cuda/onepass µs (1 GPU)", f"nccl/onepass µs (G={g:g})" if g else "nccl/onepass µs",
            "GB/s", "× 1 GPU", "scaling_eff (n/G)", "local µs", "combine µs",
            "nccl/onepass/reduce µs", "nccl/cub µs"] + [f"{label} µs" for label, _ in extra]
    wins, table = [], []
    for n in sizes:
        c1 = one.get(("cuda/onepass", n))
        nc = one.get(("nccl/onepass", n))
        red = one.get(("nccl/onepass/reduce", n))
        cub = one.get(("nccl/cub", n))
        t1 = c1["median_us"] if c1 else None
        tg = nc["median_us"] if nc else None
        cells = [pow2(n), f"{t1:.2f}" if t1 else "–", f"{tg:.2f}" if tg else "–",
                 f"{4 * n / tg / 1e3:.0f}" if tg else "–",
                 f"{t1 / tg:.3f}" if t1 and tg else "–",
                 f"{nc['scaling_eff']:.3f}" if nc and "scaling_eff" in nc else "–",
                 f"{nc['local_us']:.2f}" if nc else "–", f"{nc['combine_us']:.2f}" if nc else "–",
                 f"{red['median_us']:.2f}" if red else "–", f"{cub['median_us']:.2f}" if cub else "–"]
        for _, other in extra:
            o = other.get(("nccl/onepass", n))
            cells.append(f"{o['median_us']:.2f}" if o else "–")
        table.append(cells)
        if t1 and tg:
            wins.append((n, tg < t1))
    print(bench_json.stamp(__file__))
    print()
    print("\n".join(md_table(head, table)))
    start = None
    for n, win in reversed(wins):
        if not win:
            break
        start = n
    print()
    print(f"nccl/onepass beats cuda/onepass from n = {pow2(start)} on" if start else
          "nccl/onepass never beats cuda/onepass at the largest n measured on one GPU")


if __name__ == "__main__":
    main()
