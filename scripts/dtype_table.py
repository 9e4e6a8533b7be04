#!/usr/bin/env python3
"""Per element type, cold: every library and kernel row of that type beside cub at every power of
two, from reduce_bench runs with --dtype (the rows named <backend>@<type>; f32's have no suffix).

  scripts/dtype_table.py RUN.json [RUN.json ...] [--out dtypes.md]   (default: stdout; .json.gz too)
  scripts/dtype_table.py RUN.json --cpu 20,28 [--out cpu.md]

The rows of a type: cub, cub/* (cub/acc16: CUB's own 16-bit accumulator), cuda/onepass, cuda/mma
(tensor cores), torch/*, triton/*, ref/read, those present. Each table row: n, cub µs, then each
other row's µs and its ratio cub / row (above 1: faster than cub), onepass GB/s (the bytes of the
type), ref/read GB/s, onepass as % of ref/read, and whether every check passed for every row shown
(else the failed ones). Below each table: onepass's smallest ratio to cub, its ratios below 1.3
from 2^13 to 2^18, its smallest % of ref/read from 2^28. Standard library only. Exit status: 0, 2
bad input.

Several runs: separate processes of the same build, pooled. A few-µs cold row draws a state per
process (docs/findings.md), so one run's ratio to cub holds for that process; with several, each
row's time is the median over the runs of its median in each run, and below each table, cub /
onepass from 2^13 to 2^18 in each run separately: its range, and how many runs fall below 1.3×.
Runs of different types (one --dtype per process) each give their type's table; a type that is in
fewer than all the runs says in how many.

--cpu: instead, per type, every CPU row (cpu/*) and ref/cpu_read at the given sizes (log2): GB/s and
% of ref/cpu_read of the same type, and whether its checks passed."""
import argparse
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_json  # noqa: E402
from formatting import is_pow2, md_table, pow2  # noqa: E402

FIRST = ("cub", "cuda/onepass", "cuda/mma")
FAMILIES = ("cub/", "torch/", "triton/")
LAST = ("ref/read",)
TYPES = ("f32", "f64", "f16", "bf16", "i32")
MID = tuple(1 << k for k in range(13, 19))  # where onepass's target is 1.3x cub
MID_TARGET = 1.3


def shown(base):
    return base in FIRST or base in LAST or base.startswith(FAMILIES)


def order(bases):
    rank = {b: i for i, b in enumerate(FIRST)}
    return sorted(bases, key=lambda b: (0 if b == "cub" else 2 if b in LAST else 1, rank.get(b, len(FIRST)), b))


class Pooled:
    """One row over several runs: the median over the runs of each run's median (µs)."""

    def __init__(self, benches):
        self.runs = [b for b in benches if b.median()]
        self.errors = [e for b in benches for e in b.errors]

    def median(self):
        return statistics.median(b.median() for b in self.runs) if self.runs else None

    def bytes_per_second(self):
        """[bytes per second at median()]: a call's bytes are the same in every run."""
        if not self.runs or not self.runs[0].bytes_per_second():
            return []
        times, _ = self.runs[0].times()
        return [self.runs[0].bytes_per_second()[0] * times[0] / self.median()]


def pooled(types_per_run):
    """{dtype: {(backend, n): Pooled}} over every run's by_type()."""
    keys = {(d, k) for types in types_per_run for d, rows in types.items() for k in rows}
    out = {}
    for d, k in keys:
        out.setdefault(d, {})[k] = Pooled([types[d][k] for types in types_per_run if k in types.get(d, {})])
    return out


def onepass_ratio(rows, n):
    """cub / cuda/onepass at n, or None where either has no time."""
    cub, one = rows.get(("cub", n)), rows.get(("cuda/onepass", n))
    return cub.median() / one.median() if cub and one and cub.median() and one.median() else None


def per_run_lines(runs):
    """Below a pooled table: cub / onepass from 2^13 to 2^18 in each run (runs: by_type rows of one
    type, one dict per run)."""
    cells = []
    for n in MID:
        ratios = [r for r in (onepass_ratio(rows, n) for rows in runs) if r is not None]
        if ratios:
            low = sum(r < MID_TARGET for r in ratios)
            cells.append(f"{pow2(n)} {min(ratios):.2f}–{max(ratios):.2f}× ({low} of {len(ratios)} below 1.3×)")
    return [f"cub / onepass in each of the {len(runs)} runs: " + "; ".join(cells) + "."] if cells else []


def by_type(benches):
    """{dtype: {(backend, n): Bench}} for the cold rows shown."""
    out = {}
    for bench in benches.values():
        parsed = bench_json.parse_name(bench.name)
        if not parsed or parsed[2] != "cold":
            continue
        base, dtype = bench_json.split_dtype(parsed[0])
        if shown(base):
            out.setdefault(dtype, {})[(base, parsed[1])] = bench
    return out


def type_table(rows, runs=()):
    bases = order({b for (b, _) in rows})
    if "cub" not in bases or "cuda/onepass" not in bases:
        return []
    others = [b for b in bases if b != "cub"]
    worst, slow_mid, low_ceiling, table = None, [], None, []
    for n in sorted({n for (_, n) in rows if is_pow2(n)}):
        ratio = onepass_ratio(rows, n)
        if ratio is None:
            continue
        cub, one, read = rows[("cub", n)], rows[("cuda/onepass", n)], rows.get(("ref/read", n))
        cells = [pow2(n), f"{cub.median():.2f}"]
        for b in others:
            r = rows.get((b, n))
            cells.append(f"{r.median():.2f} ({cub.median() / r.median():.2f}×)" if r and r.median() else "–")
        one_gbs = one.bytes_per_second()[0] / 1e9
        worst = ratio if worst is None else min(worst, ratio)
        if n in MID and ratio < MID_TARGET:
            slow_mid.append(f"{pow2(n)} {ratio:.2f}×")
        cells.append(f"{one_gbs:.0f}")
        if read and read.median():
            read_gbs = read.bytes_per_second()[0] / 1e9
            pct = 100 * one_gbs / read_gbs
            if n >= 2**28:
                low_ceiling = pct if low_ceiling is None else min(low_ceiling, pct)
            cells += [f"{read_gbs:.0f}", f"{pct:.1f}"]
        else:
            cells += ["–", "–"]
        failed = [b for b in bases if rows.get((b, n)) and rows[(b, n)].errors]
        cells.append("yes" if not failed else "**no**: " + ", ".join(failed))
        table.append(cells)
    if not table:
        return []
    head = ["n", "cub µs"] + [f"{b} µs (cub / it)" for b in others] + [
        "onepass GB/s", "ref/read GB/s", "onepass % of ref/read", "verified"]
    lines = md_table(head, table, align="l" + "r" * (len(head) - 2) + "c")
    lines += ["", f"Smallest cub / onepass: {worst:.3f}. Below 1.3× from 2^13 to 2^18: "
              f"{', '.join(slow_mid) if slow_mid else 'none'}."
              + (f" Smallest % of ref/read from 2^28: {low_ceiling:.1f}%." if low_ceiling is not None else "")]
    if len(runs) > 1:
        lines += [""] + per_run_lines(runs)
    return lines


def page(context, runs, command=None):
    """runs: [{name: Bench}], one per run (process)."""
    per_run = [by_type(benches) for benches in runs]
    types = per_run[0] if len(runs) == 1 else pooled(per_run)
    if not any(type_table(rows) for rows in types.values()):
        raise bench_json.BadInput("no cold cub and cuda/onepass rows of one type")
    lines = [command, ""] if command else []
    time = ("median of the samples" if len(runs) == 1 else
            f"the median over {len(runs)} runs (separate processes; a type's table over the runs that "
            "have it) of each run's median of the samples")
    lines += [f"GPU: {context.get('gpu', '?')}. Cold, {time}, µs; in parentheses cub's time over "
              "the row's (above 1: faster than cub); GB/s counts the bytes of the type. Accumulators: "
              "[docs/backends.md](../../../docs/backends.md#element-types).", ""]
    for dtype in TYPES + tuple(sorted(set(types) - set(TYPES))):
        of_type = [t[dtype] for t in per_run if dtype in t]
        table = type_table(types.get(dtype, {}), of_type)
        if table:
            runs_of_type = f" ({len(of_type)} of the {len(runs)} runs)" if len(of_type) < len(runs) else ""
            lines += [f"## {dtype}{runs_of_type}", ""] + table + [""]
    return "\n".join(lines).rstrip("\n") + "\n"


def cpu_page(context, benches, sizes, command=None):
    rows = {}
    for bench in benches.values():
        parsed = bench_json.parse_name(bench.name)
        if not parsed or parsed[1] not in sizes:
            continue
        base, dtype = bench_json.split_dtype(parsed[0])
        if base.startswith("cpu/") or base == "ref/cpu_read":
            rows.setdefault(dtype, {})[(base, parsed[1])] = bench
    if not rows:
        raise bench_json.BadInput("no cpu/* rows at n = " + ", ".join(pow2(n) for n in sizes))

    def gbs(bench):
        return bench.bytes_per_second()[0] / 1e9 if bench and bench.bytes_per_second() else None

    lines = [command, ""] if command else []
    lines += [f"{context.get('num_cpus', '?')} CPUs ({context.get('cpu_ceiling', '')}). Hot, median of the "
              "samples; GB/s counts the bytes of the type; % of ref/cpu_read of the same type and n.", ""]
    for dtype in TYPES + tuple(sorted(set(rows) - set(TYPES))):
        if dtype not in rows:
            continue
        table = []
        for base in sorted({b for (b, _) in rows[dtype]}, key=lambda b: (b == "ref/cpu_read", b)):
            cells, ok = [base], True
            for n in sizes:
                r, read = rows[dtype].get((base, n)), gbs(rows[dtype].get(("ref/cpu_read", n)))
                v = gbs(r)
                cells += [f"{v:.1f}" if v else "–", f"{100 * v / read:.0f}" if v and read else "–"]
                ok = ok and not (r and r.errors)
            table.append(cells + ["yes" if ok else "**no**"])
        head = ["row"] + [h for n in sizes for h in (f"GB/s at {pow2(n)}", "% of read")] + ["verified"]
        lines += [f"## {dtype}", ""] + md_table(head, table, align="l" + "r" * (2 * len(sizes)) + "c") + [""]
    return "\n".join(lines).rstrip("\n") + "\n"


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("runs", nargs="+", metavar="RUN")
    ap.add_argument("--out")
    ap.add_argument("--cpu", metavar="LOG2S", help="the CPU rows at these sizes, e.g. 20,28")
    args = ap.parse_args(argv)

    def build():
        loaded = [bench_json.load(path) for path in args.runs]
        context, benches = loaded[0]
        if not args.cpu:
            return page(context, [b for _, b in loaded], bench_json.stamp(__file__, argv))
        if len(loaded) > 1:
            raise bench_json.BadInput("--cpu reads one run")
        try:
            sizes = [1 << int(v) for v in args.cpu.split(",")]
        except ValueError:
            raise bench_json.BadInput(f"--cpu: expected log2 sizes like 20,28, got {args.cpu!r}")
        return cpu_page(context, benches, sizes, bench_json.stamp(__file__, argv))
    return bench_json.write_page("dtype_table", build, args.out)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
