#!/usr/bin/env python3
"""plot.py: charts and a markdown summary from reduce_bench sweep JSON files.

usage: plot.py SWEEP.json [SWEEP.json ...] [--out-dir DIR] [--mode cold|hot|both]
               [--backends REGEX] [--no-png]

Writes, per mode (cold = L2 flushed before each sample, hot = not flushed: L2-resident only
while the input fits in L2):
  bandwidth_<mode>.png       GB/s vs n, one line per backend, with the ref/read ceiling and the
                             theoretical peak (context gpu_peak_bandwidth_GBps) where present;
  speedup_vs_cub_<mode>.png  cub time / backend time per n (> 1: faster than cub);
  pct_of_ceiling_<mode>.png  backend GB/s as % of ref/read at that n, else of the theoretical peak;
and summary.md: the fastest backend at each n and every backend's speed-up vs cub, per mode, under
a line naming the command that wrote it. A SWEEP.json.gz is read through gzip.

Each backend has one style in every chart, mode and run (STYLE_TABLE; other names get a free
color and marker from a start fixed by the name): the line style says the family (hand-written
cuda/* solid, libraries dashed, nccl/* dash-dot, cpu/* dotted) and no two series of a chart share
both color and marker. cub is a thick black line, ref/read a grey dashed one, the theoretical
peak a thin dark red dotted one. A chart of more than 10 series (cub aside) has one panel per
family (CUDA kernels, libraries, multi-GPU, CPU one thread, CPU multi-threaded), each with cub
and the ceiling, stacked over a shared n axis.

Every point is the median over repetitions (the repetition rows; the median aggregate when a file
has only aggregates). Several files are pooled: the same benchmark in two files pools its
repetitions. --backends selects the backends drawn and tabulated; cub (the speed-up baseline)
and ref/read (the ceiling) are used as references even when the regex leaves them out.

The charts need matplotlib; the summary needs only the standard library. Where this interpreter
lacks matplotlib the script runs again under /usr/bin/python3 when that one has it (Debian: apt
install python3-matplotlib); where neither has it, the summary is still written, the message names
the package and the exit status is 3. Exit status: 0 done, 2 bad input, 3 PNGs not written
(matplotlib missing).
"""
import argparse
import math
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
from bench_json import BadInput, load, parse_name, stamp  # noqa: E402
from interpreter import require  # noqa: E402  (a python3 with matplotlib: this one or /usr/bin/python3)
from formatting import fmt_n_long, fmt_ratio, fmt_us, md_table  # noqa: E402
from renames import read_renames, renamed  # noqa: E402

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
        self.l2_bytes = None    # context gpu_l2_bytes (first file that has one)
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


def positive(context, key, cast):
    """context[key] as a positive number of type cast, or None (absent, malformed, or not above 0)."""
    try:
        value = cast(context.get(key, ""))
    except (TypeError, ValueError):
        return None
    return value if value > 0 else None


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
            sweep.peak_gbps = positive(context, "gpu_peak_bandwidth_GBps", float)
        if sweep.l2_bytes is None:
            sweep.l2_bytes = positive(context, "gpu_l2_bytes", int)
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


# --------------------------------------------------------------------------------------------
# Markdown summary
# --------------------------------------------------------------------------------------------

def summary(sweep, modes, selected, notes, command=None):
    lines = ["# reduce-bench sweep summary", ""]
    if command:
        lines += [command, ""]
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
        header = ["n", "fastest", "time (us)", "GB/s"]
        if label:
            header.append("% of {}".format(CEILING if ref_at else "peak"))
        if base:
            header.append("vs {}".format(BASELINE))
        rows = []
        for n in sweep.sizes(mode):
            contenders = [(sweep.series(mode, b)[n].time_us, b) for b in backends if n in sweep.series(mode, b)]
            if not contenders:
                continue
            t, best = min(contenders)
            p = sweep.series(mode, best)[n]
            row = [fmt_n_long(n), best, fmt_us(t), "{:.1f}".format(p.gbps)]
            if label:
                c = None if is_host(best) else (ref_at.get(n) if ref_at else peak)
                row.append("{:.1f}%".format(100.0 * p.gbps / c) if c else "-")
            if base:
                row.append(fmt_ratio(base[n].time_us / t) + "x" if n in base and t > 0 else "-")
            rows.append(row)
        lines += md_table(header, rows, align="rlrrrr")
        lines.append("")
        others = [b for b in backends if b != BASELINE]
        if base and others:
            lines += ["### Speed-up vs {} per n".format(BASELINE), ""]
            rows = []
            for n in sweep.sizes(mode):
                if n not in base:
                    continue
                cells = [fmt_n_long(n), fmt_us(base[n].time_us)]
                for b in others:
                    pt = sweep.series(mode, b).get(n)
                    cells.append(fmt_ratio(base[n].time_us / pt.time_us) if pt and pt.time_us > 0 else "-")
                rows.append(cells)
            lines += md_table(["n", "{} (us)".format(BASELINE)] + others, rows, align="r" * (len(others) + 2))
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

# The references, drawn the same way on every chart and panel.
BASELINE_STYLE = dict(color="#000000", marker="None", linestyle="-", linewidth=2.6, alpha=0.85, zorder=1.6)
CEILING_STYLE = dict(color="#7f7f7f", marker="None", linestyle="--", linewidth=2.2, zorder=1.5)
PEAK_STYLE = dict(color="#8b0000", marker="None", linestyle=":", linewidth=1.0, zorder=1.4)
RESERVED_COLORS = {BASELINE_STYLE["color"], CEILING_STYLE["color"], PEAK_STYLE["color"]}

# Families: one panel each when a chart has too many series for one axes; the line style says the
# family in every chart. (key, panel title, line style), in panel order.
FAMILIES = [
    ("cuda", "hand-written CUDA kernels (cuda/*)", "-"),
    ("lib", "libraries ({})", "--"),  # {}: the prefixes present, e.g. thrust, torch, triton
    ("nccl", "multi-GPU (nccl/*)", "-."),
    ("cpu", "CPU, one thread (cpu/*)", ":"),
    ("cpu_mt", "CPU, multi-threaded (cpu/*: threads, OpenMP, parallel std::reduce)", ":"),
]
FAMILY_LINESTYLE = {key: ls for key, _, ls in FAMILIES}
SINGLE_AXES_MAX = 10  # more series than this (cub aside) in a chart: one panel per family

BLUE, CYAN, GREEN, YELLOWGREEN, TEAL, SLATE = "#1f77b4", "#17becf", "#2ca02c", "#9acd32", "#00665e", "#6a5acd"
ORANGE, BROWN, PINK, PURPLE, GOLD = "#ff7f0e", "#8c564b", "#e377c2", "#9467bd", "#d4a000"
CRIMSON, OLIVE, NAVY, OCHRE, MAGENTA = "#d62728", "#bcbd22", "#393b79", "#a6761d", "#e7298a"

# A fixed (color, marker) per known backend, so a backend looks the same in every chart, mode and
# run. Within a family (one panel) no two share a color or a marker; across the whole table no two
# share both. A CPU kernel's multi-threaded variant keeps the kernel's color where it can.
STYLE_TABLE = {
    # hand-written CUDA: blues and greens, solid
    "cuda/onepass": (BLUE, "o"),
    "cuda/onepass_accf64": (CYAN, "s"),
    "cuda/vec4": (GREEN, "^"),
    "cuda/vec4_ilp4": (YELLOWGREEN, "v"),
    "cuda/shfl": (TEAL, "D"),
    "cuda/auto": (SLATE, "P"),
    # libraries: warm hues, dashed
    "thrust/reduce": (ORANGE, "X"),
    "thrust/reduce_cached": (BROWN, "<"),
    "torch/sum": (PINK, ">"),
    "triton/onepass": (PURPLE, "p"),
    "triton/two_pass": (GOLD, "h"),
    "cub/run_to_run": (CYAN, "P"),
    "cub/not_guaranteed": (GREEN, "D"),
    "cub/gpu_to_gpu": (BLUE, "v"),
    # multi-GPU: dash-dot
    "nccl/cub": (CRIMSON, "s"),
    "nccl/onepass": (OLIVE, "o"),
    "nccl/onepass/reduce": (NAVY, "^"),
    # CPU, one thread: dotted
    "cpu/accumulate": (BROWN, "*"),
    "cpu/accumulate_accf64": (PINK, "s"),
    "cpu/unrolled8": (OLIVE, "^"),
    "cpu/unrolled8_accf64": (CYAN, "v"),
    "cpu/avx2": (BLUE, "P"),
    "cpu/avx2_accf64": (ORANGE, "o"),
    "cpu/avx2_kahan": (GREEN, "X"),
    "cpu/avx512": (CRIMSON, "<"),
    "cpu/avx512_accf64": (PURPLE, ">"),
    "cpu/avx512_kahan": (NAVY, "p"),
    # CPU, multi-threaded: dotted, the one-thread kernel's color with another marker
    "cpu/avx2/threads": (BLUE, "s"),
    "cpu/avx2_accf64/threads": (ORANGE, "^"),
    "cpu/avx2_kahan/threads": (GREEN, "v"),
    "cpu/avx512/threads": (CRIMSON, "D"),
    "cpu/avx512_accf64/threads": (PURPLE, "o"),
    "cpu/avx512_kahan/threads": (NAVY, "P"),
    "cpu/avx2/openmp": (OCHRE, "<"),
    "cpu/avx2_accf64/openmp": (MAGENTA, ">"),
    "cpu/avx2/std_par": (OLIVE, "X"),
    "cpu/std_reduce_par": (CYAN, "p"),
    "cpu/std_reduce_par_unseq": (BROWN, "h"),
}
# For names outside the table: every (color, marker) pair, tried from a point fixed by the name.
FALLBACK_COLORS = [BLUE, ORANGE, GREEN, CRIMSON, PURPLE, BROWN, PINK, OLIVE, CYAN, NAVY, TEAL,
                   GOLD, SLATE, YELLOWGREEN, OCHRE, MAGENTA]
FALLBACK_MARKERS = ["o", "s", "^", "v", "D", "P", "X", "<", ">", "p", "h", "*"]


def family(backend):
    """The panel a backend is drawn in (a key of FAMILIES)."""
    head, _, _ = backend.partition("/")
    if head == "cpu":
        last = backend.rsplit("/", 1)[-1]
        return "cpu_mt" if last in ("threads", "openmp", "std_par", "tbb") or re.search(r"_par(_unseq)?$", last) \
            else "cpu"
    return {"cuda": "cuda", "nccl": "nccl"}.get(head, "lib")


def styles(all_backends):
    """{backend: matplotlib line keywords}: color, marker, line style (and width, marker size).

    Deterministic and independent of the other backends for the names in STYLE_TABLE and cub;
    any other name gets the first free (color, marker) pair from a start fixed by a checksum of
    its name, preferring a color and a marker not yet used in its family. No two backends of
    all_backends share both color and marker (up to len(FALLBACK_COLORS) * len(FALLBACK_MARKERS)
    backends; beyond that the line style differs). ref/* backends are left out (drawn as ceilings).
    """
    import zlib
    names = sorted(b for b in set(all_backends) if not is_reference(b))
    out = {}
    used = {(c, m) for c, m in STYLE_TABLE.values()}
    fam_colors, fam_markers = {}, {}
    renames, _ = read_renames()  # a sweep measured before a row's rename: drawn as the row
    for b in names:
        if b == BASELINE:
            out[b] = dict(BASELINE_STYLE)
        elif renamed(b, renames) in STYLE_TABLE:
            c, m = STYLE_TABLE[renamed(b, renames)]
            out[b] = dict(color=c, marker=m, linestyle=FAMILY_LINESTYLE[family(b)])
            fam_colors.setdefault(family(b), set()).add(c)
            fam_markers.setdefault(family(b), set()).add(m)
    combos = [(c, m) for m in FALLBACK_MARKERS for c in FALLBACK_COLORS]
    for b in names:
        if b in out:
            continue
        fam = family(b)
        start = zlib.crc32(b.encode("utf-8")) % len(combos)
        order = combos[start:] + combos[:start]
        fc, fm = fam_colors.setdefault(fam, set()), fam_markers.setdefault(fam, set())
        pick = next((cm for cm in order if cm not in used and cm[0] not in fc and cm[1] not in fm), None) \
            or next((cm for cm in order if cm not in used), None)
        linestyle = FAMILY_LINESTYLE[fam]
        if pick is None:  # every pair taken: repeat one, with a line style no family uses
            pick = order[0]
            linestyle = (0, (5, 1, 1, 1, 1, 1))
        used.add(pick)
        fc.add(pick[0])
        fm.add(pick[1])
        out[b] = dict(color=pick[0], marker=pick[1], linestyle=linestyle)
    for b, s in out.items():
        if b != BASELINE:
            s.update(linewidth=1.5, markersize=7 if s["marker"] == "*" else 5)
    return out


def panels(backends):
    """[(title or None, [backend, ...])]: one axes, or one per family when there are too many."""
    others = [b for b in backends if b != BASELINE]
    groups = {}
    for b in others:
        groups.setdefault(family(b), []).append(b)
    base = [BASELINE] if BASELINE in backends else []
    if len(others) <= SINGLE_AXES_MAX or len(groups) < 2:
        return [(None, base + others)]
    libs = ", ".join(sorted({b.partition("/")[0] for b in groups.get("lib", [])}))
    return [(title.format(libs), base + groups[key]) for key, title, _ in FAMILIES if key in groups]


def series_styles(fig):
    """Per axes of fig, the legend's lines: [(label, color '#rrggbb', marker, line style), ...]."""
    from matplotlib.colors import to_hex
    out = []
    for ax in fig.axes:
        rows = []
        for ln in ax.get_lines():
            label = ln.get_label()
            if not label or label.startswith("_"):
                continue
            marker = ln.get_marker()
            rows.append((label, to_hex(ln.get_color()), "None" if marker in (None, "", " ", "none") else str(marker),
                         ln.get_linestyle()))
        out.append(rows)
    return out


def hot_text(sweep):
    """The hot mode in a subtitle: the input stays cached only while it fits (60 MiB of L2 on the
    H200: 2^23 floats and below), and the hot charts go on to 2^31."""
    if sweep.l2_bytes:
        return "hot (not flushed: L2-resident only while the input fits in the {:g} MiB L2)".format(
            sweep.l2_bytes / 2 ** 20)
    return "hot (not flushed: cache-resident only while the input fits in cache)"


def build_charts(sweep, modes, selected):
    """[(file name, matplotlib Figure)] for the modes: the caller saves and closes them."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FixedLocator, FuncFormatter, LogLocator, NullFormatter, NullLocator

    gpu = machine(sweep)
    style = styles({b for (_, b) in sweep.points})
    figures = []

    def pow2_axis(ax, sizes, xlabel):
        ax.set_xscale("log", base=2)
        lo, hi = min(sizes).bit_length() - 1, max(sizes).bit_length()
        step = 1 if hi - lo <= 12 else 2
        ax.xaxis.set_major_locator(LogLocator(base=2, subs=(1.0,), numticks=64))

        def label(v, _):
            k = int(round(math.log2(v))) if v > 0 else 0
            return "$2^{{{}}}$".format(k) if v > 0 and k % step == 0 else ""

        ax.xaxis.set_major_formatter(FuncFormatter(label))
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.tick_params(labelbottom=True)
        if xlabel:
            ax.set_xlabel("n (float32 elements, log scale)")
        ax.grid(True, which="major", alpha=0.3)

    def line(ax, backend, xs, ys):
        if xs:
            ax.plot(xs, ys, label=backend, **style[backend])

    def figure(groups, title, sharey=True):
        """A figure with one axes per group, stacked, sharing the n axis (and the y axis if sharey)."""
        if len(groups) == 1:
            fig, ax = plt.subplots(figsize=(9, 5.5))
            axes = [ax]
        else:
            fig, axes = plt.subplots(len(groups), 1, figsize=(9, 0.6 + 3.3 * len(groups)), sharex=True,
                                     sharey=sharey, squeeze=False)
            axes = list(axes[:, 0])
            fig.subplots_adjust(hspace=0.32)
            for ax, (name, _) in zip(axes, groups):
                ax.set_title(name, fontsize=10, loc="left")
        if len(groups) == 1:
            axes[0].set_title(title, fontsize=11)
        else:
            fig.suptitle(title, fontsize=12, y=0.995 - 0.02 / len(groups))
            fig.subplots_adjust(top=1.0 - 0.75 / fig.get_figheight())
        return fig, axes

    def finish(fig, axes, sizes, name):
        for i, ax in enumerate(axes):
            pow2_axis(ax, sizes, i == len(axes) - 1)
            ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)
        figures.append((name, fig))

    reps = sweep.reps_note()
    for mode in modes:
        backends = [b for b in selected(mode) if not is_reference(b)]
        if not backends:
            continue
        sizes = sweep.sizes(mode)
        mode_text = "cold (L2 flushed before each sample)" if mode == "cold" else hot_text(sweep)
        subtitle = "{}, {}, {}".format(gpu, mode_text, "median of " + reps if reps != "1 repetition"
                                        else "one run each (no repetitions)")

        # (a) bandwidth
        groups = panels(backends)
        fig, axes = figure(groups, "Sum reduction throughput vs n\n" + subtitle)
        ref = sorted(sweep.series(mode, CEILING).items())
        for ax, (_, members) in zip(axes, groups):
            for b in members:
                pts = sorted(sweep.series(mode, b).items())
                line(ax, b, [n for n, _ in pts], [p.gbps for _, p in pts])
            if ref:
                ax.plot([n for n, _ in ref], [p.gbps for _, p in ref], label="{} (read ceiling)".format(CEILING),
                        **CEILING_STYLE)
            if sweep.peak_gbps:
                ax.axhline(sweep.peak_gbps, label="theoretical peak {:.0f} GB/s".format(sweep.peak_gbps),
                           **PEAK_STYLE)
        ys = [p.gbps for b in backends for p in sweep.series(mode, b).values() if p.gbps > 0]
        for ax in axes:
            if ys and max(ys) / min(ys) > 20:  # a GPU sweep spans 1 to 4800 GB/s: log scale
                ax.set_yscale("log")
                ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: "{:g}".format(v)))
                ax.set_ylabel("throughput (GB/s = $10^9$ bytes/s, log scale)")
            else:  # a flat CPU sweep: linear from 0, so noise does not look like structure
                ax.set_ylim(bottom=0, top=max(ys + [sweep.peak_gbps or 0]) * 1.1 if ys else None)
                ax.set_ylabel("throughput (GB/s = $10^9$ bytes/s)")
        finish(fig, axes, sizes, "bandwidth_{}.png".format(mode))

        # (b) speed-up vs cub
        base = sweep.series(mode, BASELINE)
        speedups = {}
        for b in backends:
            if b == BASELINE:
                continue
            pts = [(n, base[n].time_us / p.time_us) for n, p in sorted(sweep.series(mode, b).items())
                   if n in base and p.time_us > 0]
            if pts:
                speedups[b] = pts
        if base and speedups:
            groups = [(t, [b for b in members if b in speedups]) for t, members in panels(list(speedups))]
            # Own y range per panel: the CPU's 50x..0.001x would flatten the GPU panels onto 1x.
            fig, axes = figure(groups, "Speed-up vs {} (above 1 = faster)\n".format(BASELINE) + subtitle,
                               sharey=False)
            for ax, (_, members) in zip(axes, groups):
                for b in members:
                    line(ax, b, [n for n, _ in speedups[b]], [s for _, s in speedups[b]])
                ax.axhline(1.0, label="{} (= 1)".format(BASELINE), **BASELINE_STYLE)
                # Log scale: 2x faster and 2x slower sit at the same distance from 1, and a 50x slower
                # backend (thrust at small n) does not flatten the others onto the axis.
                ax.set_yscale("log")
            for ax in axes:
                lo, hi = ax.get_ylim()
                # The coarsest "nice" ticks that give at least 4 in the range: decades for the
                # CPU's 50x..0.001x, 0.5x 0.7x 1x 1.5x for a panel close to cub.
                for mantissas in ((1,), (1, 2, 5), (1, 1.5, 2, 3, 5, 7), (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 7, 8, 9)):
                    ticks = [m * 10.0 ** e for e in range(-5, 5) for m in mantissas if lo <= m * 10.0 ** e <= hi]
                    if len(ticks) >= 4:
                        break
                ax.yaxis.set_major_locator(FixedLocator(ticks or [1.0]))
                ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: "{:g}x".format(v)))
                ax.yaxis.set_minor_locator(NullLocator())
                ax.set_ylabel("speed-up vs {} ({} time / backend time, log scale)".format(BASELINE, BASELINE)
                              if len(axes) == 1 else "speed-up vs {} (log scale)".format(BASELINE))
            finish(fig, axes, sorted(base), "speedup_vs_cub_{}.png".format(mode))

        # (c) % of ceiling
        label, ref_at, peak = ceiling_of(sweep, mode)
        if label:
            pct = {}
            for b in (b for b in backends if not is_host(b)):
                pts = []
                for n, p in sorted(sweep.series(mode, b).items()):
                    c = ref_at.get(n) if ref_at else peak
                    if c:
                        pts.append((n, 100.0 * p.gbps / c))
                if pts:
                    pct[b] = pts
            groups = panels([b for b in backends if b in pct]) if pct else [(None, [])]
            fig, axes = figure(groups, "Throughput as % of {}\n".format(label) + subtitle)
            for ax, (_, members) in zip(axes, groups):
                for b in members:
                    line(ax, b, [n for n, _ in pct[b]], [v for _, v in pct[b]])
                ax.axhline(100.0, label="100% = " + label, **dict(CEILING_STYLE, linewidth=1.4))
                ax.set_ylabel("% of {}".format(CEILING + " GB/s at the same n" if ref_at else "theoretical peak")
                              if len(axes) == 1 else "% of {}".format(CEILING if ref_at else "peak"))
                ax.set_ylim(bottom=0)
            finish(fig, axes, sizes, "pct_of_ceiling_{}.png".format(mode))
    return figures


def save_png(fig, path):
    """fig as a PNG of 256 colors (a third of the size of matplotlib's RGBA, same look)."""
    import io
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100, bbox_inches="tight")
    try:
        from PIL import Image  # matplotlib's own dependency since 3.3
        image = Image.open(io.BytesIO(buf.getvalue())).convert("RGB")
        quantize, dither = getattr(Image, "Quantize", Image), getattr(Image, "Dither", Image)  # Pillow 9.1+, older
        image = image.quantize(colors=256, method=quantize.MEDIANCUT, dither=dither.NONE)
        buf = io.BytesIO()
        image.save(buf, format="PNG", optimize=True)
    except (ImportError, AttributeError, OSError, ValueError):
        pass  # no (usable) Pillow: the RGBA PNG as matplotlib wrote it
    with open(path, "wb") as f:
        f.write(buf.getvalue())


def make_charts(sweep, modes, selected, out_dir, notes):
    import matplotlib.pyplot as plt
    written = []
    for name, fig in build_charts(sweep, modes, selected):
        path = os.path.join(out_dir, name)
        save_png(fig, path)
        plt.close(fig)
        written.append(path)
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
    # Before anything is written: it may run this script again under an interpreter that has it.
    no_matplotlib = None if args.no_png else require(["matplotlib"], "plot.py", argv)
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
    if no_matplotlib:
        notes.append("charts not drawn: " + no_matplotlib.split(": ", 1)[1])  # printed below
        status = EXIT_NO_MATPLOTLIB
    elif not args.no_png:
        written = make_charts(sweep, modes, selected, args.out_dir, notes)
    path = os.path.join(args.out_dir, "summary.md")
    with open(path, "w", encoding="utf-8") as f:
        f.write(summary(sweep, modes, selected, notes, stamp("plot.py", argv)))
    written.append(path)
    for p in written:
        print(p)
    for n in notes:
        print("plot.py: note: " + n, file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
