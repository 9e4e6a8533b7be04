#!/usr/bin/env python3
"""CUB at two CCCL versions beside cuda/onepass, per n, cold, from two GPU sweeps of the same
machine: one built against the toolkit's CCCL, one against a newer one (-DRB_CCCL; scripts/gpu cccl).

  scripts/cccl_table.py OLD.json NEW.json [--out summary.md]      (default: stdout)

Columns: `cub` of OLD, then `cub`, the environment-API rows (cub/run_to_run, cub/not_guaranteed,
cub/gpu_to_gpu) and cuda/onepass of NEW. Each cell is the median µs, GB/s and the ratio to OLD's
`cub` (its time / the row's: above 1 is faster). Below the table, per row: at how many sizes it was
verified (no failed check) and bitwise repeatable (the `repeatable` counter, cold and hot), and the
sizes where it was not. The page starts with the command that made it; OLD and NEW may be .json.gz.
Standard library only. Exit status: 0, 2 bad input."""
import argparse
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_json  # noqa: E402
from formatting import md_table, pow2  # noqa: E402

NEW_ROWS = ("cub", "cub/run_to_run", "cub/not_guaranteed", "cub/gpu_to_gpu", "cuda/onepass")


def by_row(benches):
    """{(backend, n, mode): Bench} for the rows the table reads."""
    out = {}
    for bench in benches.values():
        parsed = bench_json.parse_name(bench.name)
        if parsed:
            out[parsed] = bench
    return out


def cell(bench, base_us):
    times, _ = bench.times() if bench else ([], None)
    if not times:
        return "–", None
    us = statistics.median(times)
    bps = bench.bytes_per_second()
    gbs = statistics.median(bps) / 1e9 if bps else 0.0
    ratio = f", {base_us / us:.2f}×" if base_us else ""
    return f"{us:.1f} µs ({gbs:.0f} GB/s{ratio})", us


def version(context):
    return str(context.get("cccl_version", "?"))


def table(old, new, command=None):
    old_ctx, old_rows = old
    new_ctx, new_rows = new
    columns = [("cub " + version(old_ctx), old_rows, "cub")]
    columns += [((r + " " + version(new_ctx)) if r == "cub" else r, new_rows, r) for r in NEW_ROWS]
    sizes = sorted({n for (b, n, m) in list(old_rows) + list(new_rows) if m == "cold" and b in NEW_ROWS})
    if not sizes:
        raise bench_json.BadInput("no cold cub or cuda/onepass rows")
    lines = [command, ""] if command else []
    lines += [f"Cold, median of the samples. OLD: {old_ctx.get('cccl', version(old_ctx))}. "
             f"NEW: {new_ctx.get('cccl', version(new_ctx))}. Ratio: `cub` {version(old_ctx)}'s time / the row's.", ""]
    table_rows = []
    for n in sizes:
        base = old_rows.get(("cub", n, "cold"))
        _, base_us = cell(base, None)
        table_rows.append([pow2(n)] + [cell(rows.get((backend, n, "cold")), base_us)[0]
                                       for _, rows, backend in columns])
    lines += md_table(["n"] + [c[0] for c in columns], table_rows)
    promises = {id(ctx_rows): dict(p.split("=", 1) for p in ctx.get("determinism", "").split(",") if "=" in p)
                for ctx, ctx_rows in ((old_ctx, old_rows), (new_ctx, new_rows))}
    checks = []
    for label, rows, backend in columns:
        mine = [(n, m, b) for (name, n, m), b in rows.items() if name == backend]
        bad = sorted(f"{pow2(n)}/{m}" for n, m, b in mine if b.errors)
        moved = sorted(f"{pow2(n)}/{m}" for n, m, b in mine if b.counters.get("repeatable") == 0)
        checked = [1 for n, m, b in mine if "repeatable" in b.counters]
        checks.append([label, f"{len(mine) - len(bad)} of {len(mine)}" + (f" (failed: {', '.join(bad)})" if bad else ""),
                       f"{len(checked) - len(moved)} of {len(checked)}" + (f" (differed: {', '.join(moved)})" if moved else ""),
                       promises[id(rows)].get(backend, '?')])
    lines += [""] + md_table(["row", "verified", "bitwise repeatable (warm-up vs last sample)", "promise"], checks)
    return "\n".join(lines) + "\n"


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--out")
    args = ap.parse_args(argv)

    def build():
        old_ctx, old = bench_json.load(args.old)
        new_ctx, new = bench_json.load(args.new)
        return table((old_ctx, by_row(old)), (new_ctx, by_row(new)), bench_json.stamp(__file__, argv))
    return bench_json.write_page("cccl_table", build, args.out)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
