#!/usr/bin/env python3
"""plot.py: charts and a markdown summary from reduce_bench sweep JSON files.

usage: plot.py SWEEP.json [SWEEP.json ...] [--out-dir DIR] [--mode cold|hot|both]
               [--backends REGEX] [--no-png]

Writes, per mode (cold = L2 flushed before each sample, hot = L2-resident):
  bandwidth_<mode>.png       GB/s vs n, one line per backend, with the ref/read ceiling and the
                             theoretical peak (context gpu_peak_bandwidth_GBps) where present;
  speedup_vs_cub_<mode>.png  cub time / backend time per n (> 1: faster than cub);
  pct_of_ceiling_<mode>.png  backend GB/s as % of ref/read at that n, else of the theoretical peak;
and summary.md: the fastest backend at each n and every backend's speed-up vs cub, per mode.

Every point is the median over repetitions (the repetition rows; the median aggregate when a file
has only aggregates). Several files are pooled: the same benchmark in two files pools its
repetitions. --backends selects the backends drawn and tabulated; cub (the speed-up baseline)
and ref/read (the ceiling) are used as references even when the regex leaves them out.

The charts need matplotlib; the summary needs only the standard library. Without matplotlib the
summary is still written and the exit status is 3. Exit status: 0 done, 2 bad input, 3 PNGs not
written (matplotlib missing).
"""
import argparse
import math
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
from bench_json import BadInput, load, parse_name  # noqa: E402

EXIT_OK, EXIT_BAD_INPUT, EXIT_NO_MATPLOTLIB = 0, 2, 3
BASELINE = "cub"
CEILING = "ref/read"
MODES = ("cold", "hot")


# --------------------------------------------------------------------------------------------
# Data
# --------------------------------------------------------------------------------------------

class Point:
    """One backend at one n in one mode: medians over repetitions."""

    def __init__(self, time_us, gbps, reps):
        self.time_us = time_us
        self.gbps = gbps
        self.reps = reps


class Sweep:
    def __init__(self):
        self.points = {}        # (mode, backend) -> {n: Point}
        self.problems = []      # (name, "error"/"skipped", message)
        self.unparsed = []      # names outside <backend>/<n>/<mode>
        self.gpus = []          # distinct context "gpu" values
        self.hosts = []         # distinct context "host_name" values
        self.peak_gbps = None   # context gpu_peak_bandwidth_GBps (first file that has one)
        self.files = []

    def backends(self, mode):
        return sorted(b for (m, b) in self.points if m == mode)

    def series(self, mode, backend):
        return self.points.get((mode, backend), {})

    def sizes(self, mode):
        return sorted({n for (m, _), pts in self.points.items() if m == mode for n in pts})

    def reps_note(self):
        reps = sorted({p.reps for pts in self.points.values() for p in pts.values()})
        if not reps:
            return ""
        return "{} repetition{}".format(reps[0] if len(reps) == 1 else "{}-{}".format(reps[0], reps[-1]),
                                        "" if reps == [1] else "s")


def read_sweeps(paths):
    merged = {}
    sweep = Sweep()
    for path in paths:
        context, benches = load(path)
        sweep.files.append(path)
        host = context.get("host_name")
        if isinstance(host, str) and host not in sweep.hosts:
            sweep.hosts.append(host)
        gpu = context.get("gpu")
        if isinstance(gpu, str) and gpu not in sweep.gpus:
            sweep.gpus.append(gpu)
        if sweep.peak_gbps is None:
            try:
                peak = float(context.get("gpu_peak_bandwidth_GBps", ""))
                sweep.peak_gbps = peak if peak > 0 else None
            except (TypeError, ValueError):
                pass
        for name, b in benches.items():
            if name in merged:
                merged[name].merge(b)
            else:
                merged[name] = b
    for name, b in merged.items():
        parsed = parse_name(name)
        if parsed is None:
            sweep.unparsed.append(name)
            continue
        backend, n, mode = parsed
        sweep.problems += [(name, "error", m) for m in sorted(set(b.errors))]
        sweep.problems += [(name, "skipped", m) for m in sorted(set(b.skips))]
        if b.errors:
            continue  # a failed verification has no meaningful time
        times, _ = b.times()
        if not times:
            continue
        t = statistics.median(times)
        bps = b.bytes_per_second()
        # reduce_bench counts 4 bytes per element read; its bytes_per_second says the same.
        gbps = statistics.median(bps) / 1e9 if bps else (4.0 * n / (t * 1e3) if t > 0 else 0.0)
        sweep.points.setdefault((mode, backend), {})[n] = Point(t, gbps, len(times))
    return sweep


def is_reference(backend):
    """ref/* backends (ref/read) move the bytes but do not reduce: ceilings, not competitors."""
    return backend.startswith("ref/")


def is_host(backend):
    """cpu/* backends read host memory: a GPU ceiling (ref/read, the HBM peak) does not apply."""
    return backend.startswith("cpu/")


def fmt_ratio(v):
    return "{:.2f}".format(v) if v >= 0.1 else "{:.2g}".format(v)


def ceiling_of(sweep, mode):
    """(label, {n: GB/s} or None, constant GB/s or None) for the % of ceiling chart."""
    ref = sweep.series(mode, CEILING)
    if ref:
        return "{} (measured read ceiling)".format(CEILING), {n: p.gbps for n, p in ref.items()}, None
    if sweep.peak_gbps:
        return "theoretical peak ({:.0f} GB/s)".format(sweep.peak_gbps), None, sweep.peak_gbps
    return None, None, None


def machine(sweep):
    """The GPU name(s) from the context; for a CPU-only build, the host."""
    gpus = [g for g in sweep.gpus if g and not g.startswith("none")]
    if gpus:
        return ", ".join(gpus)
    return "host {} (no GPU)".format(", ".join(sweep.hosts) or "unknown")


def fmt_n(n):
    p = n.bit_length() - 1
    return "{:,} (2^{})".format(n, p) if n == 1 << p else "{:,}".format(n)


def fmt_us(t):
    return "{:.2f}".format(t) if t < 1000 else "{:,.0f}".format(t)


# --------------------------------------------------------------------------------------------
# Markdown summary
# --------------------------------------------------------------------------------------------

def summary(sweep, modes, selected, notes):
    lines = ["# reduce-bench sweep summary", ""]
    lines.append("- Machine: {}{}".format(machine(sweep), "; theoretical peak {:.0f} GB/s".format(sweep.peak_gbps)
                                       if sweep.peak_gbps else ""))
    lines.append("- Files: {}".format(", ".join("`{}`".format(f) for f in sweep.files)))
    lines.append("- Statistic: median over {} per benchmark.".format(sweep.reps_note() or "repetitions"))
    lines.append("- Speed-up vs {0} = {0} time / backend time: above 1 is faster than {0}.".format(BASELINE))
    lines.append("")
    for mode in modes:
        backends = [b for b in selected(mode) if not is_reference(b)]
        lines += ["## {}".format(mode), ""]
        if not backends:
            lines += ["No {} results.".format(mode), ""]
            continue
        label, ref_at, peak = ceiling_of(sweep, mode)
        base = sweep.series(mode, BASELINE)
        lines += ["### Fastest backend at each n", ""]
        header = "| n | fastest | time (us) | GB/s |"
        rule = "|---:|---|---:|---:|"
        if label:
            header += " % of {} |".format(CEILING if ref_at else "peak")
            rule += "---:|"
        if base:
            header += " vs {} |".format(BASELINE)
            rule += "---:|"
        lines += [header, rule]
        for n in sweep.sizes(mode):
            contenders = [(sweep.series(mode, b)[n].time_us, b) for b in backends if n in sweep.series(mode, b)]
            if not contenders:
                continue
            t, best = min(contenders)
            p = sweep.series(mode, best)[n]
            row = "| {} | {} | {} | {:.1f} |".format(fmt_n(n), best, fmt_us(t), p.gbps)
            if label:
                c = None if is_host(best) else (ref_at.get(n) if ref_at else peak)
                row += " {} |".format("{:.1f}%".format(100.0 * p.gbps / c) if c else "-")
            if base:
                row += " {} |".format(fmt_ratio(base[n].time_us / t) + "x" if n in base and t > 0 else "-")
            lines.append(row)
        lines.append("")
        others = [b for b in backends if b != BASELINE]
        if base and others:
            lines += ["### Speed-up vs {} per n".format(BASELINE), ""]
            lines.append("| n | {} (us) | {} |".format(BASELINE, " | ".join(others)))
            lines.append("|---:|---:|{}".format("---:|" * len(others)))
            for n in sweep.sizes(mode):
                if n not in base:
                    continue
                cells = []
                for b in others:
                    pt = sweep.series(mode, b).get(n)
                    cells.append(fmt_ratio(base[n].time_us / pt.time_us) if pt and pt.time_us > 0 else "-")
                lines.append("| {} | {} | {} |".format(fmt_n(n), fmt_us(base[n].time_us), " | ".join(cells)))
            lines.append("")
    if sweep.problems:
        lines += ["## Errors and skips", ""]
        lines += ["- `{}` {}: {}".format(name, kind, msg) for name, kind, msg in sweep.problems]
        lines.append("")
    if notes or sweep.unparsed:
        lines += ["## Notes", ""]
        lines += ["- " + n for n in notes]
        if sweep.unparsed:
            lines.append("- {} benchmark name(s) outside `<backend>/<n>/<cold|hot>` ignored, e.g. `{}`".format(
                len(sweep.unparsed), sweep.unparsed[0]))
        lines.append("")
    return "\n".join(lines)


# --------------------------------------------------------------------------------------------
# Charts
# --------------------------------------------------------------------------------------------

def styles(all_backends):
    """A fixed color + marker + line style per backend, the same in every chart and mode."""
    colors = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
              "#7f7f7f", "#bcbd22", "#17becf"]
    markers = ["o", "s", "^", "D", "v", "P", "X", "<", ">", "*"]
    dashes = ["-", "--", "-.", ":"]
    out = {}
    for i, b in enumerate(sorted(b for b in all_backends if not is_reference(b))):
        out[b] = dict(color=colors[i % len(colors)], marker=markers[i % len(markers)],
                      linestyle=dashes[(i // len(colors)) % len(dashes)])
    return out


def make_charts(sweep, modes, selected, out_dir, notes):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FixedLocator, FuncFormatter, LogLocator, NullFormatter, NullLocator

    gpu = machine(sweep)
    style = styles({b for (_, b) in sweep.points})
    written = []

    def pow2_axis(ax, sizes):
        ax.set_xscale("log", base=2)
        lo, hi = min(sizes).bit_length() - 1, max(sizes).bit_length()
        step = 1 if hi - lo <= 12 else 2
        ax.xaxis.set_major_locator(LogLocator(base=2, subs=(1.0,), numticks=64))

        def label(v, _):
            k = int(round(math.log2(v))) if v > 0 else 0
            return "$2^{{{}}}$".format(k) if v > 0 and k % step == 0 else ""

        ax.xaxis.set_major_formatter(FuncFormatter(label))
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.set_xlabel("n (float32 elements, log scale)")
        ax.grid(True, which="major", alpha=0.3)

    def line(ax, backend, xs, ys):
        ax.plot(xs, ys, label=backend, linewidth=1.6, markersize=5, **style[backend])

    def finish(fig, ax, title, name):
        ax.set_title(title, fontsize=11)
        ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)
        path = os.path.join(out_dir, name)
        fig.savefig(path, dpi=120, bbox_inches="tight")
        plt.close(fig)
        written.append(path)

    reps = sweep.reps_note()
    for mode in modes:
        backends = [b for b in selected(mode) if not is_reference(b)]
        if not backends:
            continue
        sizes = sweep.sizes(mode)
        mode_text = "cold (L2 flushed before each sample)" if mode == "cold" else "hot (cache-resident)"
        subtitle = "{}, {}, {}".format(gpu, mode_text, "median of " + reps if reps != "1 repetition"
                                        else "one run each (no repetitions)")

        # (a) bandwidth
        fig, ax = plt.subplots(figsize=(9, 5.5))
        for b in backends:
            pts = sorted(sweep.series(mode, b).items())
            line(ax, b, [n for n, _ in pts], [p.gbps for _, p in pts])
        ref = sorted(sweep.series(mode, CEILING).items())
        if ref:
            ax.plot([n for n, _ in ref], [p.gbps for _, p in ref], color="black", linestyle="--",
                    linewidth=2.2, alpha=0.7, label="{} (read ceiling)".format(CEILING))
        if sweep.peak_gbps:
            ax.axhline(sweep.peak_gbps, color="red", linestyle=":", linewidth=1.5,
                       label="theoretical peak {:.0f} GB/s".format(sweep.peak_gbps))
        pow2_axis(ax, sizes)
        ys = [p.gbps for b in backends for p in sweep.series(mode, b).values() if p.gbps > 0]
        if ys and max(ys) / min(ys) > 20:  # a GPU sweep spans 1 to 4800 GB/s: log scale
            ax.set_yscale("log")
            ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: "{:g}".format(v)))
            ax.set_ylabel("throughput (GB/s = $10^9$ bytes/s, log scale)")
        else:  # a flat CPU sweep: linear from 0, so noise does not look like structure
            ax.set_ylim(bottom=0, top=max(ys + [sweep.peak_gbps or 0]) * 1.1 if ys else None)
            ax.set_ylabel("throughput (GB/s = $10^9$ bytes/s)")
        finish(fig, ax, "Sum reduction throughput vs n\n" + subtitle, "bandwidth_{}.png".format(mode))

        # (b) speed-up vs cub
        base = sweep.series(mode, BASELINE)
        others = [b for b in backends if b != BASELINE]
        if base and others:
            fig, ax = plt.subplots(figsize=(9, 5.5))
            drawn = 0
            for b in others:
                pts = [(n, base[n].time_us / p.time_us) for n, p in sorted(sweep.series(mode, b).items())
                       if n in base and p.time_us > 0]
                if pts:
                    line(ax, b, [n for n, _ in pts], [s for _, s in pts])
                    drawn += 1
            ax.axhline(1.0, color="black", linewidth=1.0, label="{} (= 1)".format(BASELINE))
            pow2_axis(ax, sorted(base))
            # Log scale: 2x faster and 2x slower sit at the same distance from 1, and a 50x slower
            # backend (thrust at small n) does not flatten the others onto the axis.
            ax.set_yscale("log")
            lo, hi = ax.get_ylim()
            nice = [m * 10.0 ** e for e in range(-4, 4) for m in (1, 2, 5)]
            ax.yaxis.set_major_locator(FixedLocator([v for v in nice if lo <= v <= hi] or [1.0]))
            ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: "{:g}x".format(v)))
            ax.yaxis.set_minor_locator(NullLocator())
            ax.set_ylabel("speed-up vs {} ({} time / backend time, log scale)".format(BASELINE, BASELINE))
            if drawn:
                finish(fig, ax, "Speed-up vs {} (above 1 = faster)\n".format(BASELINE) + subtitle,
                       "speedup_vs_cub_{}.png".format(mode))
            else:
                plt.close(fig)

        # (c) % of ceiling
        label, ref_at, peak = ceiling_of(sweep, mode)
        if label:
            fig, ax = plt.subplots(figsize=(9, 5.5))
            for b in (b for b in backends if not is_host(b)):
                pts = []
                for n, p in sorted(sweep.series(mode, b).items()):
                    c = ref_at.get(n) if ref_at else peak
                    if c:
                        pts.append((n, 100.0 * p.gbps / c))
                if pts:
                    line(ax, b, [n for n, _ in pts], [v for _, v in pts])
            ax.axhline(100.0, color="black", linestyle="--", linewidth=1.0, label="100% = " + label)
            pow2_axis(ax, sizes)
            ax.set_ylabel("% of {}".format(CEILING + " GB/s at the same n" if ref_at else "theoretical peak"))
            ax.set_ylim(bottom=0)
            finish(fig, ax, "Throughput as % of {}\n".format(label) + subtitle,
                   "pct_of_ceiling_{}.png".format(mode))
    return written


# --------------------------------------------------------------------------------------------

def main(argv=None):
    ap = argparse.ArgumentParser(prog="plot.py", description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+", metavar="SWEEP.json")
    ap.add_argument("--out-dir", default="plots", help="where PNGs and summary.md go (default: plots)")
    ap.add_argument("--mode", choices=("cold", "hot", "both"), default="both")
    ap.add_argument("--backends", default=None, metavar="REGEX",
                    help="draw and tabulate only backends matching (re.search), e.g. '^(cub|cuda/)'")
    ap.add_argument("--no-png", action="store_true", help="write summary.md only (no matplotlib needed)")
    args = ap.parse_args(argv)
    try:
        backend_re = re.compile(args.backends) if args.backends else None
    except re.error as e:
        ap.error("--backends: {}".format(e))

    try:
        sweep = read_sweeps(args.files)
    except BadInput as e:
        print("plot.py: " + str(e), file=sys.stderr)
        return EXIT_BAD_INPUT
    modes = MODES if args.mode == "both" else (args.mode,)
    if not any(sweep.backends(m) for m in modes):
        print("plot.py: no {} benchmark named <backend>/<n>/<cold|hot> with a time in {}".format(
            "/".join(modes), ", ".join(args.files)), file=sys.stderr)
        return EXIT_BAD_INPUT

    def selected(mode):
        return [b for b in sweep.backends(mode) if backend_re is None or backend_re.search(b)]

    os.makedirs(args.out_dir, exist_ok=True)
    notes = []
    for mode in modes:
        if not selected(mode):
            continue
        if not sweep.series(mode, BASELINE):
            notes.append("no `{}` results in {} mode: no speed-up chart or table".format(BASELINE, mode))
        if ceiling_of(sweep, mode)[0] is None:
            notes.append("no `{}` results and no gpu_peak_bandwidth_GBps in the context ({} mode): "
                         "no % of ceiling chart".format(CEILING, mode))
    status = EXIT_OK
    written = []
    if not args.no_png:
        try:
            import matplotlib  # noqa: F401
        except ImportError as e:
            notes.append("charts not drawn: matplotlib is not importable by {} ({})".format(sys.executable, e))
            print("plot.py: matplotlib missing for {}: only summary.md is written (try /usr/bin/python3)"
                  .format(sys.executable), file=sys.stderr)
            status = EXIT_NO_MATPLOTLIB
        else:
            written = make_charts(sweep, modes, selected, args.out_dir, notes)
    path = os.path.join(args.out_dir, "summary.md")
    with open(path, "w", encoding="utf-8") as f:
        f.write(summary(sweep, modes, selected, notes))
    written.append(path)
    for p in written:
        print(p)
    for n in notes:
        print("plot.py: note: " + n, file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
